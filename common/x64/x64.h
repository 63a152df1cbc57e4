// x64.h - the x86-64 machine model shared by the back-end stages: registers
// and their classes, the System V ABI's register roles, condition codes, and
// the machine columns of the x64 rows of the opcode table (opcodes.def).
//
// Register classes. Seed 001 allocates two kinds of registers (integer and
// floating point) from the start; so do we: Gpr (the 16 general registers;
// rsp is never allocated) and Xmm (xmm0-xmm15, unused until floating point
// arrives). Registers are dense small integers so that sets of them are bit
// masks: 0-15 general in the hardware's encoding order, 16-31 xmm.
//
// Operand constraints come from the table: `tied` (two-address form: the
// result overwrites that input), per-operand fixed registers (`regs`), and
// what else an instruction destroys (`clobbers`). x64_constraints() decodes
// them once per opcode; the register allocator, its checker, the interpreter
// and the code generator all read that decoding and nothing else.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/eval.h"
#include "ir/ir.h"
#include "ir/opcodes.h"

namespace pl::x64 {

enum class Reg : uint8_t {
  Rax, Rcx, Rdx, Rbx, Rsp, Rbp, Rsi, Rdi, R8, R9, R10, R11, R12, R13, R14, R15,
  Xmm0, Xmm1, Xmm2, Xmm3, Xmm4, Xmm5, Xmm6, Xmm7, Xmm8, Xmm9, Xmm10, Xmm11, Xmm12, Xmm13, Xmm14, Xmm15,
};
inline constexpr int kNumRegs = 32;

enum class RegClass : uint8_t { Gpr, Xmm };

using RegMask = uint32_t;  // bit r set = Reg(r) in the set
constexpr RegMask reg_bit(Reg r) { return RegMask{1} << static_cast<unsigned>(r); }

constexpr RegClass reg_class(Reg r) { return static_cast<unsigned>(r) < 16 ? RegClass::Gpr : RegClass::Xmm; }

// "rax" ... "r15", "xmm0" ... "xmm15" (the 64-bit names); and back.
std::string_view reg_name(Reg r);
std::optional<Reg> parse_reg(std::string_view name);
// The name of the register's low `bits` bits: reg_name_sized(Rax, 32) = "eax",
// (R8, 8) = "r8b", (Rsi, 8) = "sil". Xmm registers have one name.
std::string_view reg_name_sized(Reg r, unsigned bits);

// Places of values at ra-x64 (ir.h Place) by name, as the printable and JSON
// encodings write them: a register's 64-bit name ("rax", "xmm3") or `s` and
// the slot number ("s0", "s12"). None has no name (""). parse_place takes
// exactly what place_name gives (no leading zeros, no rsp exception: the
// verifier, not the reader, rejects rsp).
std::string place_name(Place p);
std::optional<Place> parse_place(std::string_view name);
constexpr Place place_of(Reg r) { return Place::reg(static_cast<unsigned>(r)); }
constexpr Reg reg_of(Place p) { return static_cast<Reg>(p.reg()); }  // p.is_reg()

// Immediates and displacements are signed 32-bit integers (sign-extended to
// the operand size; x64:movi "i64" alone takes 64 bits); an address's scale
// is 0 (no index), 1, 2, 4 or 8.
constexpr bool fits_imm32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }
constexpr bool is_address_scale(int64_t s) { return s == 0 || s == 1 || s == 2 || s == 4 || s == 8; }

// System V x86-64 roles.
inline constexpr std::array<Reg, 6> kArgRegs = {Reg::Rdi, Reg::Rsi, Reg::Rdx, Reg::Rcx, Reg::R8, Reg::R9};
inline constexpr std::array<Reg, 2> kReturnRegs = {Reg::Rax, Reg::Rdx};
// Floating-point (SSE class) arguments and results.
inline constexpr std::array<Reg, 8> kXmmArgRegs = {Reg::Xmm0, Reg::Xmm1, Reg::Xmm2, Reg::Xmm3,
                                                   Reg::Xmm4, Reg::Xmm5, Reg::Xmm6, Reg::Xmm7};
inline constexpr std::array<Reg, 2> kXmmReturnRegs = {Reg::Xmm0, Reg::Xmm1};
// Preserved across calls for the caller: rbx, rbp, r12-r15 (and rsp).
inline constexpr RegMask kCalleeSaved = reg_bit(Reg::Rbx) | reg_bit(Reg::Rbp) | reg_bit(Reg::R12) |
                                        reg_bit(Reg::R13) | reg_bit(Reg::R14) | reg_bit(Reg::R15);
constexpr bool is_arg_reg(Reg r) {
  for (Reg a : kArgRegs)
    if (a == r) return true;
  for (Reg a : kXmmArgRegs)
    if (a == r) return true;
  return false;
}
// Every general register a call may destroy, and every xmm register.
inline constexpr RegMask kCallerSaved = reg_bit(Reg::Rax) | reg_bit(Reg::Rcx) | reg_bit(Reg::Rdx) |
                                        reg_bit(Reg::Rsi) | reg_bit(Reg::Rdi) | reg_bit(Reg::R8) |
                                        reg_bit(Reg::R9) | reg_bit(Reg::R10) | reg_bit(Reg::R11) | 0xFFFF0000u;
// Registers the allocator may hand out, per class (rsp never).
inline constexpr RegMask kAllocatableGpr = 0xFFFFu & ~reg_bit(Reg::Rsp);
inline constexpr RegMask kAllocatableXmm = 0xFFFF0000u;

// Condition codes of x64:jcc, x64:setcc and x64:cmov, named as in the
// mnemonics (jl, setae, cmovne). FORMAT.md section 8 gives each one's test
// of the flags.
enum class Cond : uint8_t { O, NO, B, AE, E, NE, BE, A, S, NS, P, NP, L, GE, LE, G };
std::optional<Cond> parse_cond(std::string_view name);
std::string_view cond_name(Cond c);
constexpr Cond negate(Cond c) { return static_cast<Cond>(static_cast<uint8_t>(c) ^ 1); }
// The condition that holds for (b, a) when `c` holds for (a, b): l <-> g ...
Cond swap_operands(Cond c);

// ---- the flags an arithmetic instruction leaves (x64:flagsof) -------------------
// How the flags an instruction leaves compare with those of `test r, r` at
// its operand size, r its result (Intel SDM vol. 2, "Flags Affected"):
enum class ResultFlags : uint8_t {
  None,      // not named after the result: imul/imuli (ZF, SF, PF undefined),
             // not, lea, mov, movzx (none set), a shift by cl (a count of 0
             // leaves the flags alone), a shift by an immediate 0, the rest
  ZeroSign,  // add, sub, neg (and addi, subi), shli/shri/sari by 1 to bits-1:
             // ZF, SF, PF as test r, r; CF and OF differ
  Logic,     // and, or, xor (and andi, ori, xori): every flag as test r, r
             // (CF = OF = 0; AF is undefined after both)
};
// What node n (an x64 instruction) leaves (None for any other node).
ResultFlags result_flags(const Node& n);
// Whether condition c reads only flags that an instruction of kind k leaves
// as test r, r leaves them: e ne s ns p np for ZeroSign, every condition for
// Logic, none for None.
bool result_flags_read(ResultFlags k, Cond c);
// The operand size in bits of n's first literal, if it is a type name.
std::optional<unsigned> operand_bits(const Node& n);
// Whether n is a constant one instruction makes anew wherever it is needed
// (x64:movi, x64:fconst, x64:fzero, x64:lea of a symbol alone): regalloc-x64 remakes
// it instead of spilling it, and son2cfg does not hoist it out of a loop
// that calls (it would have to survive the calls).
bool rematerializable(const Node& n);

// Cold calls: direct calls (x64:call) of a function extern with the hint
// `cold` or `noreturn` (FORMAT.md, SymbolAttrs hints), guessed rare as gcc's
// branch predictor guesses a path to such a call. c2ast marks sqrt's extern
// cold when it writes the errno path (sqrt is called for a negative
// argument only). A block that makes a cold call is itself rare: son2cfg
// hoists constants out of loops past it, and regalloc-x64 keeps values
// live only across it out of callee-saved registers (they are saved around
// the call on that path alone).
class ColdCallees {
 public:
  ColdCallees() = default;
  explicit ColdCallees(const ModuleHeader& header);
  // Whether n is an x64:call of a cold callee.
  bool is_cold_call(const Node& n) const;

 private:
  std::vector<std::string> names_;  // sorted
};

// ---- register classes of values ---------------------------------------------------
// A value's class is its type's: f32 and f64 live in xmm registers, every
// other value in a general register. The type of an x64 instruction's
// value result comes from its literals (x64_result_type: the first type
// literal, the second for conversions, extensions and cmov; result 1 of a
// volatile load); a copy (x64:mov, spill, reload, xchg's projs) has its
// input's class, a phi its inputs', an `undefined` the class of the phis it
// feeds or, failing that, the class an x64 instruction reads it in
// (input_class: an undefined f64 returned in xmm0 is an xmm value; general
// if nothing says otherwise). value_classes() computes every node's class
// at once (a fixpoint over copies and phis); nodes without a value (memory,
// flags, control) are Gpr there and never placed.
std::optional<ValueType> x64_result_type(const Node& n, unsigned k = 0);
constexpr RegClass type_class(ValueType t) {
  return t == ValueType::F32 || t == ValueType::F64 || t == ValueType::V128 ? RegClass::Xmm : RegClass::Gpr;
}
std::vector<RegClass> value_classes(const Function& fn);
// 16-byte vector values (FORMAT.md section 8, "16-byte vector values"): 1
// for each node whose value is a whole xmm register's 16 bytes (a v128
// result of x64:v128.load, apply or splat, and the copies and phis of one),
// whose copies move 16 bytes (movaps) and whose spill slot is 16 bytes wide
// (two consecutive 8-byte slots sN, sN+1: movups); 0 for the rest.
std::vector<uint8_t> v128_values(const Function& fn);
// The class x64 instruction n reads its register operand i in: the fixed
// register's (call arguments, return values), xmm for the floating
// operands of the SSE instructions (and the value an f32/f64 x64:store
// writes, and an x64:bitcast from f32/f64), general for every other
// operand; nullopt for copies (x64:mov, spill, reload, xchg), which take
// either.
std::optional<RegClass> input_class(const Node& n, size_t i);
inline RegMask class_regs(RegClass c) { return c == RegClass::Xmm ? kAllocatableXmm : kAllocatableGpr; }
std::string_view class_name(RegClass c);

// ---- operand constraints of an x64 opcode (the machine columns) ---------------

// Where one operand must be.
enum class Fixed : uint8_t {
  None,       // not a register: a memory state, the flags, control
  Any,        // any register of the operand's class
  Reg,        // exactly `reg`
  ArgRegs,    // a repeated input: the argument registers in order
  RetRegs,    // a repeated input: the return registers in order
  LiteralReg, // the register named by the node's string literal (x64:argreg, x64:entryreg)
  Slot,       // a spill slot, not a register (ra-x64: x64:spill's result, x64:reload's input)
};
struct OperandConstraint {
  Fixed kind = Fixed::None;
  Reg reg = Reg::Rax;  // for Fixed::Reg
};

struct Constraints {
  int tied = -1;                          // input the result overwrites, or -1
  std::array<OperandConstraint, 8> inputs{};  // per input-shape letter (the repeat letter last)
  uint8_t num_inputs = 0;                 // letters, the repeated one included
  bool repeats = false;                   // the last letter repeats (`*`) or is optional (`?`)
  std::array<OperandConstraint, 16> results{};  // per result (tuple element)
  uint8_t num_results = 0;
  RegMask clobbers = 0;                   // registers destroyed besides results
  bool clobbers_flags = false;
  // Address operands (loads, stores, lea): index of the scale literal (then
  // displacement, optional symbol) and of the first address input; -1 if none.
  int address_literal = -1;
  int address_input = -1;
  // The constraint of input `i` of a node with that many inputs (expands the
  // repeated letter: argument or return registers by position).
  OperandConstraint input(size_t i) const;
};

// Registers input `i` of node `n` must not be in although its constraint
// allows any register: a constraint that depends on the node's literals,
// which the opcode table's columns cannot say. One today: the callee of a
// variadic x64:callind (al literal >= 0) is read by the call after the
// `mov eax, AL` that precedes it, so it is never in rax. `why` says so for
// diagnostics (empty when `regs` is 0). The register allocator keeps the
// input out of these registers, the allocation checker reports one found
// there, and codegen-x64 refuses it as a last resort.
struct ForbiddenRegs {
  RegMask regs = 0;
  std::string_view why;
};
ForbiddenRegs forbidden_input_regs(const Node& n, size_t i);

// The constraint of input i of node n: constraints(n.op).input(i), except
// where the node's literals say more: the last n register arguments of an
// x64:call/callind whose last literal is n are in xmm0-xmm7; the values of
// an x64:ret whose literal has bit i set are in xmm0, xmm1 (each class
// takes its return registers in order). Every reader of operand
// constraints (the allocator, its checker, the interpreter, the code
// generator, the verifier) goes through this.
OperandConstraint input_constraint(const Node& n, size_t i);
// The number of xmm register arguments of a call (its literal after al, or 0).
size_t xmm_args(const Node& n);
// The 16-byte vectors a call moves through xmm registers (the literal pairs
// after its xmm count; opcodes.def, x64:call): `args[r]` the outgoing-area
// offset xmm r is loaded from before the call (arg_mask bit r set), and
// `result` the offset xmm0 is stored to after it (has_result). `problem`
// says what is wrong with malformed pairs ("" when none is).
struct CallVectors {
  uint8_t arg_mask = 0;
  std::array<int64_t, 8> args{};
  bool has_result = false;
  int64_t result = 0;
  std::string problem;
};
CallVectors call_vectors(const Node& n);
// The xmm register that float argument k of a call (k-th of its xmm_args)
// takes: the k-th of xmm0-xmm7 that no vector pair names.
std::optional<Reg> xmm_arg_reg(const Node& n, size_t k);
// x64:ret's literal: bit i set = value i is returned in an xmm register.
uint64_t ret_xmm_mask(const Node& n);

// The constraints of node n: constraints(n.op), except for x64:asm, whose
// operands and clobbers its literals give (asm.h): its results are the
// memory state and its register outputs, each in the register written in
// its operand literal; its value inputs are in theirs (input_constraint);
// it destroys its clobbered registers and the flags. An x64:asm with
// malformed literals (which the verifier reports) constrains nothing.
Constraints node_constraints(const Node& n);
// The largest number of register outputs an x64:asm may have (results).
inline constexpr size_t kMaxAsmOutputs = 15;
// The problems of an x64:asm's registers, or "": each register operand's
// register names a register of its class (general for r, Q ({rax rbx rcx
// rdx}), fixed and matched operands' own, xmm for x), never rsp; a fixed
// operand's is the one it names, a matched input's its output's, a "+"
// output's reading is the output itself; no two operands share a register
// unless matched, or an input shares a "=" output's that is not early
// clobber (one input per output); no operand is in a clobbered register; clobbers name
// registers (not rsp) or memory and cc; at most kMaxAsmOutputs outputs.
std::string check_asm_registers(const Node& n);

// True for rows written with X64(...) in opcodes.def.
bool is_x64(OpId op);
// The instructions with a memory source operand (x64:add.m ... x64:cvtsi2f.m,
// x64:cmp.m, cmpi.m, ucomis.m: a load folded into its user, FORMAT.md
// section 8, "Memory operands"), and the register form each one is
// (x64:add.m -> x64:add, x64:cmpi.m -> x64:cmpi); kNumOps otherwise.
bool is_memory_operand_form(OpId op);
OpId register_form(OpId op);
// Whether the function keeps rbp as its frame pointer, which no value may
// then take (regalloc-x64; the verifier's rule N; codegen-x64's frame): it
// moves rsp in its body (x64:alloca, x64:stacksave, x64:stackrestore) or
// reads its frame (x64:frameaddress, x64:returnaddress), or realigns rsp
// (the function hint stack_realign).
bool has_dynamic_stack(const Function& fn);
// The alignment of rsp in the body of a stack_realign function (ir.h), and
// so the largest alignment of an argument passed on the stack.
inline constexpr uint32_t kRealignedStack = 64;
// The general registers a value may take in `fn`'s frame.
inline RegMask allocatable_gpr(bool frame_pointer) {
  return frame_pointer ? kAllocatableGpr & ~reg_bit(Reg::Rbp) : kAllocatableGpr;
}
// The decoded machine columns of an x64 opcode (is_x64(op) must hold).
const Constraints& constraints(OpId op);

}  // namespace pl::x64
