// mc_emitter.h - the emission layer of codegen-x64: one stream of x86-64
// instructions, labels, call-frame and line directives and data, written as
// GNU assembly text (AT&T syntax, for people and for `as`) or as an ELF64
// relocatable object built in process. Both come from the same calls, so
// what `as` makes of the text and what we write directly agree byte for byte
// (tests/test_codegen_emit.py checks every instruction form).
//
// Why LLVM's MC layer. Issue 8 names three well-kept encoders: LLVM MC,
// asmjit and zydis (the last two with libelf for the object). Only MC does
// all of what we need from one instruction stream: instruction encoding,
// the AT&T instruction printer, branch relaxation (short jumps grown to
// rel32 until stable), ELF relocations (PLT32, GOTPCRELX, PC32, 64), .cfi_
// directives turned into .eh_frame, and .loc turned into a DWARF line table
// with a compile unit. asmjit encodes and prints (Intel-style) but writes no
// object, no .eh_frame and no DWARF; zydis is mainly a decoder (its encoder
// is young) and prints no directives; either would leave us hand-writing the
// ELF writer, .eh_frame and .debug_line, which is where bugs live. libLLVM
// 14 is linked already (c2ast uses clang's libraries), so MC costs no new
// dependency.
//
// The X86 opcode and register enumerations are not public headers in LLVM
// 14, so instructions are named as strings ("ADD64ri8") and looked up once
// through MCInstrInfo::getName / MCRegisterInfo::getName (a missing name is
// an internal error at start-up, not a wrong encoding).
//
// Encoding choices that keep the text and the object identical: LLVM's code
// emitter encodes exactly the MCInst it is given, while `as` picks the
// shortest encoding of the text. So the emitter picks as `as` does: 8-bit
// immediates when they fit, the accumulator forms (`add $1000, %eax`:
// opcode 05) when the register is rax and the immediate does not fit in 8
// bits, `shl %r` (D1) for a shift by one, xchg through the 90+r form when
// one operand is rax, and movl for 64-bit constants that are 32-bit zero
// extensions.
//
// Position-independent code: our symbols are addressed RIP-relative, calls
// to anything not local go through the PLT (R_X86_64_PLT32; the linker
// resolves them directly when the callee is in the executable), external
// data is read from the GOT (GOTPCREL). Read-only data holding relocations
// goes to .data.rel.ro, not .rodata, so a PIE has no text relocations.
//
// Output is deterministic: no time stamps, no absolute paths beyond the
// compilation directory the caller passes (for DWARF's DW_AT_comp_dir).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ir/ir.h"
#include "x64/x64.h"

namespace llvm {
class MCStreamer;
class MCContext;
class MCSymbol;
}  // namespace llvm

namespace pl::x64 {

// A memory operand: [base + index * scale + disp], or, with a symbol,
// symbol + disp relative to rip (no base, no index).
struct Mem {
  std::optional<Reg> base;
  std::optional<Reg> index;
  uint8_t scale = 1;  // 1, 2, 4, 8 (ignored without an index)
  int32_t disp = 0;
  std::string symbol;  // non-empty: RIP-relative
  bool fs = false;     // in the fs segment (thread-local: %fs:disp is the TCB's field at disp)

  static Mem at(Reg base, int32_t disp = 0) { return Mem{base, std::nullopt, 1, disp, {}}; }
  static Mem rip(std::string symbol, int32_t disp = 0) { return Mem{std::nullopt, std::nullopt, 1, disp, std::move(symbol)}; }
  // %fs:disp, an absolute address in the thread's fs segment.
  static Mem fs_abs(int32_t disp) { return Mem{std::nullopt, std::nullopt, 1, disp, {}, true}; }
};

enum class Alu : uint8_t { Add, Sub, And, Or, Xor, Cmp };
enum class Shift : uint8_t { Shl, Shr, Sar };
enum class Unary : uint8_t { Neg, Not };
enum class FArith : uint8_t { Add, Sub, Mul, Div };

// A code label: an index into the emitter's label table.
struct Label {
  uint32_t id = 0;
};

enum class OutputKind : uint8_t { Asm, Object };

// gcc's -ffunction-sections and -fdata-sections: a section per function
// (.text.NAME) and per data item (.data.NAME, .bss.NAME, .rodata.NAME,
// .data.rel.ro.NAME), so that `ld --gc-sections` can drop what nothing
// uses.
// Items the compiler made (their names start with '.': string literals)
// stay in the shared sections, as gcc keeps its literals in .rodata.str.
struct SectionOptions {
  bool functions = false;
  bool data = false;
};

// gcc's -fcf-protection (Intel CET): with `ibt`, every function starts with
// endbr64 (the only indirect branches are calls to functions: there are no
// jump tables); the object's .note.gnu.property says which of IBT and SHSTK
// it keeps (the linker marks the program only when every object does).
// Shadow stacks need nothing of the code: it never rewrites a return
// address.
struct CfProtection {
  bool ibt = false;    // branch
  bool shstk = false;  // return
};

struct EmitterOptions {
  OutputKind kind = OutputKind::Asm;
  bool debug_lines = false;        // .file/.loc and a DWARF line table (-g)
  std::string source_name;         // the main source file (DWARF, .file)
  std::string compilation_dir;     // DW_AT_comp_dir (object output)
  bool debug_info = false;         // the caller writes .debug_info (dwarf.h); else MC's assembler-style unit
  SectionOptions sections;
  CfProtection cf_protection;
  // gcc's -fstack-clash-protection: the stack grows a page at a time, each
  // page written before the next is taken (frame.h, and x64:alloca).
  bool stack_clash = false;
  // gcc's -fno-omit-frame-pointer: every function's frame is rbp based,
  // the rbp chain unbroken (frame.h).
  bool frame_pointer = false;
  // gcc's -foptimize-sibling-calls: `return f(x)` as a jump (sibling_calls.h).
  bool sibling_calls = false;
};

// Operand sizes are given in bits: 8, 16, 32, 64. Every method throws
// std::logic_error (an internal error, exit 3) on an operand the instruction cannot take (a
// size it has no form for, an 8-bit div): the caller's lowering is wrong.
class McEmitter {
 public:
  explicit McEmitter(EmitterOptions options);
  const EmitterOptions& options() const;
  ~McEmitter();
  McEmitter(const McEmitter&) = delete;
  McEmitter& operator=(const McEmitter&) = delete;

  // ---- functions, labels, source lines, call-frame information ----
  // Starts a function in .text (aligned to 16, ELF type function; local
  // symbol for internal linkage) and opens its CFI (.cfi_startproc).
  // A function's symbol: global, weak or local by its linkage and attrs,
  // with its visibility, in its section (attrs.section, else .text), and
  // as a constructor and destructor (an .init_array / .fini_array entry,
  // `.init_array.NNNNN` for a priority other than the default, as gcc).
  void begin_function(std::string_view name, Linkage linkage, const SymbolAttrs& attrs = {});
  // Closes the CFI and sets the symbol's size.
  void end_function();
  Label make_label();
  void bind(Label label);
  // Source file `file` (as in ModuleHeader::files) line and column of the
  // instructions that follow (only with debug_lines; line 0 = no location).
  // set_files: the module's files so far (a module piece may add more: a
  // later call declares those past the ones already declared).
  void set_files(const std::vector<std::string>& files);
  // `is_stmt` false: the code computes a value for a later statement (a
  // pure node scheduled early); a debugger does not stop there when stepping.
  void set_loc(const Loc& loc, bool is_stmt = true);
  void cfi_def_cfa_offset(int32_t offset);
  void cfi_offset(Reg reg, int32_t offset);  // reg saved at CFA + offset
  void cfi_def_cfa_register(Reg reg);
  void cfi_def_cfa(Reg reg, int32_t offset);
  // Around an epilogue that is not the function's end: the rules after it
  // are those before it.
  void cfi_remember_state();
  void cfi_restore_state();

  // ---- data ----
  // An item in .data, .rodata, .data.rel.ro or .bss by its flags; a
  // thread-local one (attrs.tls) in .tdata or .tbss ("awT"), of ELF type
  // STT_TLS.
  void data_item(const DataItem& item);
  // An undefined symbol (externs nobody references need not be declared).
  void declare_extern(std::string_view name);
  // An extern: a weak reference when attrs.weak, with its visibility; an
  // alias (attrs.alias) is defined as its target's address, with the
  // target's type (and size, for data of `alias_size` bytes).
  void extern_symbol(const Extern& e, uint64_t alias_size);

  // ---- instructions ----
  void mov(unsigned bits, Reg dst, Reg src);
  void mov_imm(unsigned bits, Reg dst, int64_t imm);
  void load(unsigned bits, Reg dst, const Mem& src);                           // mov
  void load_ext(bool sign, unsigned from, unsigned to, Reg dst, const Mem& src);  // movsx/movzx
  void store(unsigned bits, const Mem& dst, Reg src);
  void store_imm(unsigned bits, const Mem& dst, int32_t imm);
  void lea(unsigned bits, Reg dst, const Mem& src);  // 32 or 64
  void load_got(Reg dst, std::string_view symbol);    // movq sym@GOTPCREL(%rip)
  // This thread's address of a thread-local symbol, by access model (the
  // sequences of the ELF TLS ABI for x86-64, which the linker recognizes
  // and relaxes): local-exec `movq %fs:0, dst; leaq sym@tpoff(dst), dst`;
  // initial-exec `movq %fs:0, dst; addq sym@gottpoff(%rip), dst`;
  // general-dynamic `data16 leaq sym@tlsgd(%rip), %rdi; data16 data16 rex64
  // call __tls_get_addr@PLT`, the address in rax (a call: the caller keeps
  // the stack aligned and expects the caller-saved registers destroyed).
  void tls_local_exec(Reg dst, std::string_view symbol);
  void tls_initial_exec(Reg dst, std::string_view symbol);
  void tls_general_dynamic(std::string_view symbol);
  void alu(Alu op, unsigned bits, Reg dst, Reg src);  // dst op= src (cmp: flags only)
  void alu_imm(Alu op, unsigned bits, Reg dst, int32_t imm);
  void alu_mem(Alu op, unsigned bits, Reg dst, const Mem& src);  // dst op= [src]
  void cmp_mem_imm(unsigned bits, const Mem& a, int32_t imm);   // flags of [a] - imm
  void test(unsigned bits, Reg a, Reg b);
  void test_imm(unsigned bits, Reg a, int32_t imm);
  void imul(unsigned bits, Reg dst, Reg src);                 // two-operand
  void imul_imm(unsigned bits, Reg dst, Reg src, int32_t imm);  // three-operand
  void unary(Unary op, unsigned bits, Reg reg);
  void shift_cl(Shift op, unsigned bits, Reg reg);
  void shift_imm(Shift op, unsigned bits, Reg reg, unsigned count);
  void mul1(bool sign, unsigned bits, Reg src);  // rdx:rax = rax * src
  void div(bool sign, unsigned bits, Reg src);   // rdx:rax / src
  void sign_extend_ax(unsigned bits);            // cwd, cdq, cqo
  void extend(bool sign, unsigned from, unsigned to, Reg dst, Reg src);
  void setcc(Cond cc, Reg dst);
  void cmov(Cond cc, unsigned bits, Reg dst, Reg src);  // dst = cc ? src : dst
  void jcc(Cond cc, Label target);
  void jmp(Label target);
  // Direct call: through the PLT unless `local` (a symbol of this module
  // with internal linkage).
  void call(std::string_view symbol, bool local);
  void call_reg(Reg target);
  void ret();
  void jmp_symbol(std::string_view symbol);  // a sibling call: jmp f@PLT
  void jmp_reg(Reg target);                  // jmp *r
  void push(Reg reg);
  void pop(Reg reg);
  void xchg(unsigned bits, Reg a, Reg b);
  void xchg_mem(unsigned bits, Reg a, const Mem& b);  // locked by the hardware: slow
  // Reads `bits` of memory and discards them (cmp $0, mem): a volatile load
  // whose value nobody uses. Destroys the flags.
  void probe(unsigned bits, const Mem& src);
  // Writes memory without changing it (orq $0, mem): a stack page probe.
  // Destroys the flags.
  void touch(const Mem& dst);
  void rep_movsb();

  // ---- SSE2 scalar floating point: `bits` 32 is the ss form (f32), 64 sd ----
  // Registers are xmm ones except the integer side of the conversions and
  // of movd/movq. Constants (fconst) live in .rodata.cst4 / .rodata.cst8,
  // mergeable sections as gcc writes them (one entry per pattern and size,
  // label .LCPI<n>), read RIP-relative; they are written by finish().
  void farith(FArith op, unsigned bits, Reg dst, Reg src);  // addsd dst, src ...
  void fsqrt(unsigned bits, Reg dst, Reg src);
  // Memory source operands (a load folded into its user): addsd dst, [src]
  // ..., sqrtsd dst, [src], cvtsi2sd{l,q} dst, [src], imul dst, [src].
  void farith_mem(FArith op, unsigned bits, Reg dst, const Mem& src);
  void fsqrt_mem(unsigned bits, Reg dst, const Mem& src);
  void cvtsi2f_mem(unsigned int_bits, unsigned float_bits, Reg dst, const Mem& src);
  void imul_mem(unsigned bits, Reg dst, const Mem& src);
  void fbitwise(bool is_xor, Reg dst, Reg src);             // xorps / andps
  void fzero(Reg dst);                                      // xorps dst, dst
  void fmov(Reg dst, Reg src);                              // movaps
  void fload(unsigned bits, Reg dst, const Mem& src);       // movss / movsd
  void fstore(unsigned bits, const Mem& dst, Reg src);
  void vload(Reg dst, const Mem& src);                      // movups: all 16 bytes of an xmm register
  void vstore(const Mem& dst, Reg src);
  void fconst(unsigned bits, uint64_t pattern, Reg dst);
  void ucomis(unsigned bits, Reg a, Reg b);
  void ucomis_mem(unsigned bits, Reg a, const Mem& b);
  void cvtsi2f(unsigned int_bits, unsigned float_bits, Reg dst, Reg src);
  void cvttf2si(unsigned float_bits, unsigned int_bits, Reg dst, Reg src);
  void cvtf2f(unsigned from_bits, Reg dst, Reg src);        // cvtss2sd (from 32), cvtsd2ss
  void mov_to_xmm(unsigned bits, Reg dst, Reg src);         // movd (32) / movq (64) gpr -> xmm
  void mov_from_xmm(unsigned bits, Reg dst, Reg src);       // xmm -> gpr

  // Ends the module (.note.GNU-stack, the DWARF sections) and returns the
  // output: assembly text or the ELF object's bytes.
  std::string finish();

  // ---- inline assembly ----
  // Assembles `text` (GNU assembler syntax, AT&T, as gcc's output) into
  // the stream at this point with LLVM's assembler parser; false and
  // `error` (the assembler's first message, with its line in the text)
  // when it does not assemble.
  bool inline_asm(std::string_view text, std::string& error);
  // File-scope asm (the module header's toplevel_asm): assembled as
  // inline_asm() does, starting in .text as gcc's output would be there;
  // whatever section the text leaves current, every later function and data
  // item switches to its own.
  bool toplevel_asm(std::string_view text, std::string& error);
  // A number for %= in an inline assembly template: unique in the object.
  unsigned next_asm_number();
  // ---- for dwarf.cpp: the MC objects, the current function's bounds ----
  llvm::MCStreamer& mc_streamer();
  llvm::MCContext& mc_context();
  llvm::MCSymbol* symbol_named(std::string_view name);
  llvm::MCSymbol* function_begin() const;   // between begin_function and end_function
  llvm::MCSymbol* last_function_end() const;  // the end label of the last function ended
  // A new local label bound here (in the current section).
  llvm::MCSymbol* here();
  // How many instructions were emitted so far (two equal counts: no code
  // between; dwarf.cpp leaves such empty location ranges out).
  uint64_t instructions_emitted() const;
  // The next line entry (set_loc) carries DWARF's prologue_end flag.
  void mark_prologue_end();
  // A function's first instruction under -fcf-protection=branch|full:
  // endbr64 (nothing otherwise).
  void branch_target();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pl::x64
