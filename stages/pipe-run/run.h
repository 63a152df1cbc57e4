// run.h - the pieces of pipe-run: the memory model, the compact instruction
// form every level is lowered to, the C library, and the interpreter.
//
//   pipe-run.cpp   command line, reading the module, reporting
//   memory.cpp     allocations, pointers, bounds (Memory)
//   program.cpp    module layout (symbols, data) and the node -> instruction
//                  lowering shared by every level (FunctionBuilder)
//   lower_cfg.cpp  cfg, ssa and cfg-x64 levels: blocks in their given order
//   lower_son.cpp  son and son-x64 levels: per control node a Kahn-ordered
//                  block program
//   lower_x64.cpp  the x64: nodes of son-x64, cfg-x64 and ra-x64 -> instructions
//                  (at ra-x64 operands are machine locations: registers,
//                  flags, spill slots)
//   interp.cpp     the run loop (explicit frame stack)
//   libc.cpp       the C library by name; printf.cpp its printf engine
//   math.cpp       libm by the host's; int128.cpp libgcc's __int128 helpers
//                  (__divti3 ... __fixunsdfti) by the host's
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ir/error.h"
#include "ir/eval.h"
#include "ir/ir.h"
#include "x64/x64.h"

namespace pl::run {

// Exit status of pipe-run when the program hits a runtime error.
inline constexpr int kRuntimeErrorStatus = 70;
inline constexpr uint32_t kNone = ~0u;

// A runtime error of the program. `node` is set when the error belongs to a
// node other than the instruction being executed (e.g. a block's region for
// the step limit); otherwise the interpreter names the current instruction.
class RuntimeError : public std::runtime_error {
 public:
  explicit RuntimeError(const std::string& message, uint32_t node = kNone)
      : std::runtime_error(message), node(node) {}
  uint32_t node;
};

// exit() or abort(): unwinds the interpreter.
struct ProgramExit {
  int status = 0;
  bool abort = false;  // die by SIGABRT, as the native program does
};

// ---- memory -------------------------------------------------------------------
//
// A pointer is 64 bits: the allocation id in the high 32 bits and the offset,
// biased by 2^31, in the low 32 bits. Pointer arithmetic is plain 64-bit
// arithmetic; an offset in [-2^31, 2^31) stays within its allocation's id, so
// p - 1 is caught as out of bounds of p's own allocation at the access. Id 0
// is no allocation: the null pointer (0) and small integers cast to pointers
// fall in it.
inline constexpr uint64_t kOffsetBias = uint64_t{1} << 31;
inline constexpr uint64_t kMaxAllocation = (uint64_t{1} << 31) - 1;

constexpr uint64_t make_pointer(uint32_t id, int64_t offset) {
  return (static_cast<uint64_t>(id) << 32) + kOffsetBias + static_cast<uint64_t>(offset);
}
constexpr uint32_t pointer_id(uint64_t p) { return static_cast<uint32_t>(p >> 32); }
constexpr int64_t pointer_offset(uint64_t p) {
  return static_cast<int64_t>(p & 0xFFFFFFFFu) - static_cast<int64_t>(kOffsetBias);
}

enum class AllocKind : uint8_t { Stack, Data, Heap, Function, ExternFunction, ExternData, File, Argv, VarArgs, Alloca };
enum class AllocState : uint8_t { Live, Freed, Returned };
enum class Access : uint8_t { Read, Write };

struct Allocation {
  uint8_t* data = nullptr;
  uint32_t size = 0;
  AllocKind kind = AllocKind::Heap;
  AllocState state = AllocState::Live;
  bool readonly = false;
  bool owns_data = false;  // data is this allocation's own buffer (freed with it)
  uint32_t index = 0;      // function, data item or extern index; FILE number
  uint32_t fn = kNone;     // the function of `node` (stack slots, malloc calls)
  uint32_t node = kNone;   // the stackslot node, or the call that allocated it
};

class Program;

class Memory {
 public:
  Memory(uint64_t limit, const Program* program) : limit_(limit), program_(program) {}
  ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  // The bytes [p, p+size) if they are inside one live allocation (and
  // writable for Write); otherwise throws RuntimeError describing why.
  uint8_t* at(uint64_t p, uint64_t size, Access access) const {
    uint32_t id = pointer_id(p);
    int64_t off = pointer_offset(p);
    if (id < allocs_.size()) {
      const Allocation& a = allocs_[id];
      if (a.state == AllocState::Live && off >= 0 && size <= a.size &&
          static_cast<uint64_t>(off) <= a.size - size && (access == Access::Read || !a.readonly))
        return a.data + off;
    }
    bad_access(p, size, access);
  }
  [[noreturn]] void bad_access(uint64_t p, uint64_t size, Access access) const;

  // A new allocation (data may be null when size is 0); returns its id.
  uint32_t add(const Allocation& a);
  // malloc: a zero-filled heap block of `size` bytes; returns its pointer.
  uint64_t allocate_heap(uint64_t size, uint32_t fn, uint32_t node);
  // free: p must be a live heap block's start (or null).
  void free_heap(uint64_t p);
  // The size of the live heap block p starts; otherwise throws (`who` is the
  // function named in the message: free, realloc).
  uint32_t heap_block_size(uint64_t p, std::string_view who) const;
  // The stack slots of one activation: one zero-filled buffer of
  // `frame_size` bytes, one allocation per slot (at its offset in the
  // buffer); writes each slot's pointer to out[i].
  void allocate_slots(std::span<const uint32_t> sizes, std::span<const uint64_t> offsets, uint64_t frame_size,
                      std::span<const uint32_t> nodes, uint32_t fn, uint64_t* out);
  // Ends them when the activation returns (pointers from release_slots'
  // argument: the same values allocate_slots wrote).
  void release_slots(std::span<const uint64_t> pointers);

  // The variadic arguments of an activation of function `fn` (va_start's
  // overflow_arg_area): 8 bytes each, read-only; returns its pointer.
  uint64_t allocate_varargs(std::span<const uint64_t> values, uint32_t fn);
  void release_varargs(uint64_t p);
  // alloca's block of `size` bytes (zero-filled) made by node `node` of
  // function `fn`; returns its pointer. release_dynamic ends one: `freed`
  // by a stackrestore (use after free), else by the return (use after
  // return).
  uint64_t allocate_dynamic(uint64_t size, uint32_t fn, uint32_t node);
  void release_dynamic(uint64_t p, bool freed);

  // Charges `bytes` against --max-memory (value stacks use it too).
  void charge(uint64_t bytes, const char* what);
  void uncharge(uint64_t bytes) { used_ -= bytes; }

  const Allocation& get(uint32_t id) const { return allocs_[id]; }
  bool valid_id(uint32_t id) const { return id != 0 && id < allocs_.size(); }
  // "a 40-byte stack slot (i5 in main)", "data 'g'", ...
  std::string describe(uint32_t id) const;

  // Length of the NUL-terminated string at p (bounds-checked: the NUL must be
  // inside p's allocation).
  uint64_t string_length(uint64_t p) const;
  std::string read_string(uint64_t p) const;
  // At most max bytes, stopping at a NUL (precision of %s).
  std::string read_string_max(uint64_t p, uint64_t max) const;

 private:
  uint32_t new_id();
  void retire(uint32_t id, AllocState state);
  std::vector<Allocation> allocs_ = std::vector<Allocation>(1);  // id 0: none
  std::vector<uint32_t> free_ids_;
  std::deque<uint32_t> quarantine_;  // ended ids, reused only after kQuarantine more
  uint64_t used_ = 0;
  uint64_t limit_;
  const Program* program_;
};

// ---- the compact instruction form -----------------------------------------------

enum class Code : uint8_t {
  Add, Sub, Mul, And, Or, Xor, Shl, LShr, AShr, SDiv, UDiv, SRem, URem,
  Eq, Ne, SLt, SLe, ULt, ULe, Neg, Not, SExt, ZExt, Trunc,
  Select,               // V[dst] = V[a] != 0 ? V[b] : V[c]
  Move,                 // V[dst] = V[a] (ssa:load, ssa:store)
  Load, LoadV, Store, StoreV, CopyMem, Call, VaStart, VaArg,
  Alloca, StackSave, StackRestore,  // the dynamic stack, generic and x64
  FrameAddress, ReturnAddress,      // generic and x64
  Jump, If, Return,
  Trap,                 // a runtime error decided at load time (imm: message)
  Float,                // a floating-point opcode (imm: the OpId; bits, bits2: its ValueTypes)
  // x64: instructions (lower_x64.cpp; meanings in common/x64/eval_x64.h)
  XAdd, XSub, XImul, XAnd, XOr, XXor, XNeg, XNot, XShl, XShr, XSar,
  XMul1, XImul1, XCdq, XDiv, XIdiv, XMovSX, XMovZX, XCmp, XTest, XSetCC, XCMov,
  XLea, XLoad, XLoadSX, XStore, XRepMovsb, XCall, XJcc, XRet,
  XUcomis,              // flags of ucomisd/ucomiss a, b (aux 1: f32)
  XCvtt,                // cvttsd2si/cvttss2si a to bits (aux 1: from f32)
  XCallXmm,             // after an XCall: dst, b = the call's xmm0, xmm1 results
  XXchg,                // ra-x64: swap V[a] and V[b]
  XClobber,             // ra-x64: registers (imm bits 0-31) and flags (bit 32) become junk
  F80,                  // long double in memory (eval_f80.h; aux: F80Code, below)
  V128,                 // a 16-byte vector operation in memory (eval_v128.h)
  XVec,                 // a 16-byte vector in an xmm register at a call boundary (bits: kVec*, below)
  Atomic,               // an atomic operation or fence, generic and x64 (aux: kAtomic*, below)
  // 16-byte vector values (v128.load ... and their x64: forms; program.cpp
  // emit_vec): a v128 value's low 8 bytes are V[v], its high 8 bytes
  // V[v + hi] (CompiledFunction::hi, below).
  VecLoad, VecStore, VecApply, VecSplat, VecExtract,
};

// What a Code::Atomic instruction does (aux, | kAtomicX64 at the x64 levels:
// a narrow result's upper bits are the machine's, below). The program is
// single-threaded, so each is done at once, in order.
inline constexpr uint8_t kAtomicXchg = 0, kAtomicAdd = 1, kAtomicSub = 2, kAtomicAnd = 3, kAtomicOr = 4,
                         kAtomicXor = 5, kAtomicNand = 6, kAtomicCmpXchg = 7, kAtomicFence = 8, kAtomicX64 = 0x80;
inline constexpr std::string_view kAtomicOps[] = {"xchg", "add", "sub", "and", "or", "xor", "nand"};

// What a Code::XVec instruction does (its bits): the 16-byte vector
// registers exist only at calls and returns (x64:call's vector pairs,
// x64:v128.param, x64:v128.ret; interp.cpp).
inline constexpr uint8_t kVecArg = 0, kVecResult = 1, kVecParam = 2, kVecRet = 3;

// What a Code::F80 instruction does (its aux): an F80Op (eval_f80.h) or one of these.
inline constexpr uint8_t kF80Cmp = 8, kF80From = 9, kF80To = 10, kF80Fldt = 11, kF80Fstpt = 12;
inline constexpr std::string_view kF80Preds[] = {"foeq", "fone", "folt", "fole", "fogt", "foge", "ford",
                                                 "fueq", "fune", "fult", "fule", "fugt", "fuge", "funo"};

// One executed node. Operands are indexes into the frame's value array (node
// ids, ssa: slots after them); literals are decoded into bits / imm.
struct Insn {
  Code code = Code::Trap;
  uint8_t bits = 0;   // width of the type literal (conversions: from)
  uint8_t bits2 = 0;  // conversions: to width; memory: access bytes; call: 1 if it has a value
  uint8_t aux = 0;    // x64: condition code; address scale (| kVolatileLoad)
  uint32_t dst = kNone;
  uint32_t a = kNone, b = kNone, c = kNone;
  uint32_t node = kNone;  // the node it executes (errors, --trace)
  uint64_t imm = 0;
};
// Operand layout by code:
//   binary/compare  dst = a op b;  unary/convert dst = op a
//   Float  dst = imm(a, b) by eval_float_op (b = a for one operand);
//          bits, bits2 = the ValueTypes of its type literals
//   Load   dst = value, a = address, c = memory in
//   LoadV  dst = value, b = memory out, a = address, c = memory in
//   Store/StoreV  dst = memory out, a = address, b = value, c = memory in
//   CopyMem dst = memory out, a = destination, b = source, c = memory in, imm = size
//   Call   dst = value, b = memory out, a = callee, c = memory in,
//          imm = first argument in call_args | count << 32
//   VaStart dst = memory out, a = the va_list, b = the varargs value, c = memory in
//   VaArg  dst = value, b = memory out, a = the va_list, c = memory in,
//          aux = 1 for a floating type (the va_list's SSE part)
//   Alloca dst = address, b = memory out, a = size, c = memory in
//   StackSave dst = the extent (the number of the activation's live
//          allocas), b = memory out, c = memory in
//   StackRestore dst = memory out, a = the extent, c = memory in
//   FrameAddress dst = the activation's frame: a 16-byte allocation made at
//          the first frameaddress of it or of a callee, holding its caller's
//          frame (0 for main's) and its return address, as System V's saved
//          rbp and return address (interp.cpp, frame_object)
//   ReturnAddress dst = the caller's function address + its call node + 1
//          (0 for a call from outside the module)
//   Jump   a = edge;  If  a = condition, b = true edge, c = false edge
//   Return a = memory, b = value (kNone for void)
// x64 codes: an immediate operand is a constant value slot (b of addi ...).
// Result 0 of an x64 tuple (the memory of stores, calls and volatile loads,
// lo of mul1, the quotient of div) is the node's own value, V[node].
//   XAdd ... XXor, XImul  dst = write(V[c], a op b): c = the tied input (a),
//                   or a junk constant for the untied imuli
//   XNeg XNot XCdq XMovSX XMovZX  dst = op a (MovSX/ZX: bits from, bits2 to)
//   XShl XShr XSar  dst = a shifted by b;  XCmp XTest  dst = flags of a, b
//   XMul1 XImul1    V[imm] = lo, dst = hi of a * b
//   XDiv XIdiv      V[imm] = quotient, dst = remainder of b:a / c
//   XSetCC          dst = aux holds on flags a;  XCMov dst = aux(a) ? c : b
//   address         a = base, b = index, aux = scale, imm = disp (+ symbol);
//                   a missing base or index is a zero constant
//   XLea            dst = address;  XLoad XLoadSX  dst = [address], c = memory
//   XStore          [address] = V[dst] (bits), c = memory in
//   XRepMovsb       copy V[dst] bytes from b to a, c = memory in
//   XCall           a = callee, c = memory, dst = rax, b = rdx, imm as Call
//   XJcc            a = flags, aux = condition, b/c = edges
//   XRet            a = memory, b = rax, c = rdx (kNone when absent)
//   XXchg           swap a and b;  XClobber  a = the first register location
//   F80 (generic and x64 f80 opcodes): c = memory in, a = the destination
//          or only operand's address; aux = F80Code. Arith/unary ops (aux =
//          F80Op): [a] = [b] op [imm], dst = memory out; Cmp: dst = the
//          predicate (imm: its index in kF80Preds) of [a], [b], or at x64 the
//          condition code bits of fucomip on them (imm = 64 | cond); From:
//          [a] = V[b] of ValueType bits, dst = memory out; To: dst = [a] as
//          ValueType bits (imm 1: x64:f80.to, out of range the integer indefinite); Fldt/Fstpt (x64:fldt, x64:fstpt): st(0) = [a] / [a] =
//          st(0), dst = memory out (st(0) is the interpreter's, across a call).
//   V128 (v128.op, x64:v128.op): c = memory in, a = the destination's
//          address, b and imm = the operands' addresses (imm = b for a unary
//          operation), aux = the operation's index in eval_v128.h's kV128Ops,
//          bits = its immediate; [a] = op([b], [imm], bits), dst = memory out.
//   XVec   kVecArg: before an XCall, xmm aux = the 16 bytes at the outgoing
//          area + imm; kVecResult: after it, the outgoing area + imm = the
//          xmm0 the callee's kVecRet left; kVecParam: [a + imm] = xmm aux
//          at the activation's entry, c = memory in, dst = memory out;
//          kVecRet: xmm0 = [a + imm], c = memory in, dst = memory out.
//   VecLoad  dst = the 16 bytes at a, c = memory in
//   VecStore [a] = the 16 bytes of V[b], c = memory in, dst = memory out
//   VecApply dst = kV128Ops[aux](a, b, bits) (b = a for a unary operation)
//   VecSplat dst = a's low `bits` bytes in every lane
//   VecExtract dst = lane imm (of `bits` bytes) of a, zero-extended
//   Atomic (atomic.rmw, atomic.cmpxchg, fence and their x64 forms; atomic.load
//          and atomic.store run as LoadV and StoreV): c = memory in, b =
//          memory out, a = the address, dst = the old value (kNone: none),
//          imm = operand 1 | operand 2 << 32 (the cmpxchg's expected and
//          new values), bits2 = the access's bytes. x64: xchg and xadd
//          leave the old value in the low bits of rax, whose upper bits
//          are the operand's; cmpxchg those of the expected value; the
//          loop's result is zero-extended to 32 bits.
inline constexpr uint8_t kVolatileLoad = 0x80;

struct Move {
  uint32_t dst, src;
};
struct Edge {
  uint32_t block = kNone;  // the target block
  uint32_t first_move = 0, num_moves = 0;  // phi copies, in parallel
};
struct BlockCode {
  uint32_t first = 0, count = 0;
  uint32_t node = kNone;  // start / region / proj
};

struct CompiledFunction {
  const Function* fn = nullptr;
  uint32_t index = 0;
  uint32_t num_values = 0;               // nodes, then ssa: slots, then a scratch value
  // A function with 16-byte vector values (any v128 opcode, or at ra-x64
  // any node) has its value array doubled: the high 8 bytes of the value
  // at index v are at v + hi. Every move (phi edges, copies) moves both
  // halves. 0: no v128 values.
  uint32_t hi = 0;
  uint32_t scratch = 0;                  // value index results nobody reads go to
  std::vector<uint64_t> init_values;     // constants and symbol addresses
  std::vector<uint8_t> init_undef;       // 1 = undefined until computed
  struct Param {
    uint32_t node, index;
    uint8_t bits;
  };
  std::vector<Param> params;
  std::vector<uint32_t> entrymems;
  std::vector<uint32_t> slot_nodes, slot_sizes, slot_aligns;  // stackslot nodes
  std::vector<uint64_t> slot_offsets;    // in the activation's slot buffer
  std::vector<uint32_t> slot_labels;     // the node each slot is reported as
  // x64 levels: parameters are x64:argreg (index = argument register); the
  // bits above their type are unspecified (param_fill); the incoming and
  // outgoing stack argument areas are values set when a call starts (the
  // outgoing area is a stack slot of `outgoing` bytes, kNone if none).
  bool x64 = false;
  uint64_t param_fill = 0;
  uint32_t incoming = kNone, outgoing = kNone;
  uint64_t outgoing_size = 0;
  // Functions with va_start: the value holding the activation's variadic
  // argument area (Memory::allocate_varargs), else kNone.
  uint32_t varargs = kNone;
  uint8_t result_bits = 64;              // i8/i16/i32 results: junk above in rax
  // ra-x64: the machine state is part of the value array: from `regs` the
  // 32 registers (x64.h numbering), the flags (regs + kFlagsLoc), then the
  // spill slots (regs + kFirstSpillLoc + N). A node with a place reads and
  // writes its place there, not a value of its own.
  bool ra = false;
  uint32_t regs = kNone;
  uint32_t spill_slots = 0;
  uint64_t slot_frame_size = 0;
  std::vector<Insn> code;
  std::vector<BlockCode> blocks;
  std::vector<Edge> edges;
  std::vector<Move> moves;
  std::vector<uint32_t> call_args;
  std::vector<std::string> traps;
  uint32_t entry_block = 0;
  uint32_t max_moves = 0;
};

inline constexpr uint32_t kFlagsLoc = 32;
inline constexpr uint32_t kFirstSpillLoc = 33;
// The name of value index v of `cf` in messages: a node, or at ra-x64 a
// register, the flags or a spill slot.
std::string value_name(const CompiledFunction& cf, uint32_t v);

// ---- the C library -------------------------------------------------------------

// X(Enum, "name", minimum argument count)
#define PIPE_RUN_BUILTINS(X)                                                            \
  X(Printf, "printf", 1) X(Fprintf, "fprintf", 2) X(Sprintf, "sprintf", 2)             \
  X(Snprintf, "snprintf", 3) X(Putchar, "putchar", 1) X(Puts, "puts", 1)               \
  X(Fputs, "fputs", 2) X(Fputc, "fputc", 2) X(Putc, "putc", 2) X(Fflush, "fflush", 1)  \
  X(Malloc, "malloc", 1) X(Calloc, "calloc", 2) X(Realloc, "realloc", 2)               \
  X(Free, "free", 1) X(Memcpy, "memcpy", 3) X(Memmove, "memmove", 3)                   \
  X(Memset, "memset", 3) X(Memcmp, "memcmp", 3) X(Memchr, "memchr", 3)                 \
  X(Strlen, "strlen", 1) X(Strcmp, "strcmp", 2) X(Strncmp, "strncmp", 3)               \
  X(Strcpy, "strcpy", 2) X(Strncpy, "strncpy", 3) X(Strcat, "strcat", 2)               \
  X(Strchr, "strchr", 2) X(Strrchr, "strrchr", 2) X(Abs, "abs", 1) X(Labs, "labs", 1)  \
  X(Llabs, "llabs", 1) X(Atoi, "atoi", 1) X(Atol, "atol", 1) X(Atoll, "atoll", 1)      \
  X(Abort, "abort", 0) X(Exit, "exit", 1) X(AssertFail, "__assert_fail", 4)             \
  X(Vprintf, "vprintf", 2) X(Vfprintf, "vfprintf", 3) X(Vsprintf, "vsprintf", 3)       \
  X(Vsnprintf, "vsnprintf", 4) X(Strtod, "strtod", 2) X(Strtof, "strtof", 2)           \
  X(Atof, "atof", 1) X(Fwrite, "fwrite", 4) PIPE_RUN_MATH(X) PIPE_RUN_COMPLEX(X) PIPE_RUN_INT128(X)

// The math library (libm), computed by the host's: double functions and
// their f forms. X(enum, name, args) as above; math.cpp gives each its
// function.
#define PIPE_RUN_MATH(X)                                                                 \
  X(Sqrt, "sqrt", 1) X(Sqrtf, "sqrtf", 1) X(Sin, "sin", 1) X(Sinf, "sinf", 1)           \
  X(Cos, "cos", 1) X(Cosf, "cosf", 1) X(Tan, "tan", 1) X(Tanf, "tanf", 1)               \
  X(Asin, "asin", 1) X(Asinf, "asinf", 1) X(Acos, "acos", 1) X(Acosf, "acosf", 1)       \
  X(Atan, "atan", 1) X(Atanf, "atanf", 1) X(Atan2, "atan2", 2) X(Atan2f, "atan2f", 2)   \
  X(Sinh, "sinh", 1) X(Cosh, "cosh", 1) X(Tanh, "tanh", 1)                              \
  X(Exp, "exp", 1) X(Expf, "expf", 1) X(Exp2, "exp2", 1) X(Log, "log", 1)               \
  X(Logf, "logf", 1) X(Log10, "log10", 1) X(Log10f, "log10f", 1) X(Log2, "log2", 1)     \
  X(Pow, "pow", 2) X(Powf, "powf", 2) X(Fabs, "fabs", 1) X(Fabsf, "fabsf", 1)           \
  X(Floor, "floor", 1) X(Floorf, "floorf", 1) X(Ceil, "ceil", 1) X(Ceilf, "ceilf", 1)   \
  X(Fmod, "fmod", 2) X(Fmodf, "fmodf", 2) X(Round, "round", 1) X(Roundf, "roundf", 1)   \
  X(Trunc, "trunc", 1) X(Truncf, "truncf", 1) X(Hypot, "hypot", 2) X(Cbrt, "cbrt", 1)  \
  X(Fmin, "fmin", 2) X(Fmax, "fmax", 2) X(Copysign, "copysign", 2)                      \
  X(Copysignf, "copysignf", 2) X(Ldexp, "ldexp", 2) X(Lround, "lround", 1)              \
  X(Llround, "llround", 1) X(Rint, "rint", 1) X(Nearbyint, "nearbyint", 1)

// Complex arithmetic (complex_math.cpp): libgcc's multiply and divide
// helpers, which c2ast calls for _Complex float, double and long double
// (their four arguments real, their result complex), and libm's complex
// functions.
// The minimum argument count is not used: complex_math.cpp reads the
// arguments by their ABI (pointers at the IR levels, xmm registers at x64).
#define PIPE_RUN_COMPLEX(X)                                                              \
  X(Mulsc3, "__mulsc3", 0) X(Muldc3, "__muldc3", 0) X(Divsc3, "__divsc3", 0)            \
  X(Divdc3, "__divdc3", 0) X(Cabs, "cabs", 0) X(Cabsf, "cabsf", 0) X(Carg, "carg", 0)   \
  X(Cargf, "cargf", 0) X(Cexp, "cexp", 0) X(Cexpf, "cexpf", 0) X(Clog, "clog", 0)       \
  X(Csqrt, "csqrt", 0) X(Csqrtf, "csqrtf", 0) X(Csin, "csin", 0) X(Ccos, "ccos", 0)     \
  X(Cpow, "cpow", 0) X(Mulxc3, "__mulxc3", 0) X(Divxc3, "__divxc3", 0)
// libgcc's __int128 helpers (int128.cpp), which c2ast calls for / and % and
// the conversions with float and double, as gcc does. Their argument count
// depends on the level (a pointer per __int128 at the generic levels, two
// registers at the x64 ones): int128.cpp checks it.
#define PIPE_RUN_INT128(X)                                                               \
  X(Divti3, "__divti3", 0) X(Udivti3, "__udivti3", 0) X(Modti3, "__modti3", 0)          \
  X(Umodti3, "__umodti3", 0) X(Floattisf, "__floattisf", 0)                             \
  X(Floattidf, "__floattidf", 0) X(Floatuntisf, "__floatuntisf", 0)                     \
  X(Floatuntidf, "__floatuntidf", 0) X(Fixsfti, "__fixsfti", 0) X(Fixdfti, "__fixdfti", 0) \
  X(Fixunssfti, "__fixunssfti", 0) X(Fixunsdfti, "__fixunsdfti", 0)

enum class Builtin : uint16_t {
#define PIPE_RUN_ENUM(e, name, min_args) e,
  PIPE_RUN_BUILTINS(PIPE_RUN_ENUM)
#undef PIPE_RUN_ENUM
  Unknown
};
// The builtin called `name`, or Unknown.
Builtin find_builtin(std::string_view name);
std::string_view builtin_name(Builtin b);

// Program output: stdout is buffered (as a pipe's is natively) and flushed at
// exit, on fflush and before any pipe-run diagnostic; stderr is unbuffered.
class Output {
 public:
  ~Output() { flush(); }
  void out(std::string_view bytes);
  void err(std::string_view bytes);
  void flush();
  bool failed() const { return failed_; }

 private:
  std::string buffer_;
  bool failed_ = false;
};

// printf's engine: the text for format string `fmt` (in program memory) and
// the variadic arguments (64-bit values: %d takes the low 32 bits, ...).
// Where an x64-level call put floating arguments (Libc::set_x64_float_args):
// args[0, gpr) came in general registers, args[gpr, ...) from the stack,
// xmm in xmm registers. Without it, doubles are in args in order.
// The stack words (args[gpr, ...)) are read in order by every class that
// overflows there: an integer once the six general registers are used
// (int_overflow), a double once the eight xmm ones are (float_overflow),
// and a long double (%Lf) always, 16-aligned: stack_odd says whether
// args[gpr] sits at 8 mod 16 (a va_list's overflow area may).
struct X64FloatArgs {
  size_t gpr = 0;
  std::span<const uint64_t> xmm;
  bool int_overflow = true, float_overflow = true;
  bool stack_odd = false;
};
std::string format_printf(const Memory& mem, uint64_t fmt, std::span<const uint64_t> args, std::string_view who,
                          const X64FloatArgs* fp = nullptr, bool x64_level = false);

// The System V va_list (FORMAT.md, va_start): gp_offset, fp_offset,
// overflow_arg_area, reg_save_area. va_list_next is va_arg for an integer or
// pointer: the next 8-byte argument of the va_list at `ap`, which it
// advances. va_list_remaining reads, without advancing, every argument left
// (the register save area's, then the overflow area's up to the end of its
// allocation): what vprintf may consume.
inline constexpr uint32_t kVaGpLimit = 48, kVaFpStart = 176;
struct VaListFloats {
  size_t gpr = 0;              // general-register arguments left
  std::vector<uint64_t> xmm;   // floating ones left in the register save area
};
VaListFloats va_list_floats(const Memory& mem, uint64_t ap);
uint64_t va_list_next(Memory& mem, uint64_t ap);
// va_arg for a double (or float): from the register save area at fp_offset
// while fp_offset < 176, adding 16, then from overflow_arg_area, adding 8.
uint64_t va_list_next_float(Memory& mem, uint64_t ap);
std::vector<uint64_t> va_list_remaining(const Memory& mem, uint64_t ap);

// A math library function (PIPE_RUN_MATH) on the bits of its arguments:
// the bits of its result (an f32 in the low 32 bits), or nullopt when `b`
// is not one.
std::optional<uint64_t> call_math(Builtin b, std::span<const uint64_t> args);
// complex_math.cpp: whether `b` is one of PIPE_RUN_COMPLEX.
bool is_complex_builtin(Builtin b);

class Libc {
 public:
  Libc(Memory& mem, Output& out, std::string program_name) : mem_(mem), out_(out), name_(std::move(program_name)) {}
  // FILE pointers the data externs stdin/stdout/stderr hold.
  void set_files(uint64_t in, uint64_t out, uint64_t err) { files_[0] = in, files_[1] = out, files_[2] = err; }
  // Calls builtin `b`; `fn`/`node` identify the call (for malloc'd blocks).
  uint64_t call(Builtin b, std::span<const uint64_t> args, uint32_t fn, uint32_t node);
  // The x64 levels pass floating arguments in xmm registers, apart from the
  // integer ones (System V): for the next call, the number of general
  // register arguments at the front of `args` and the xmm ones, which the
  // printf family reads for %f %e %g %a (then the stack words after the
  // general ones, shared by both classes). Cleared by call().
  void set_x64_float_args(size_t gpr_args, std::span<const uint64_t> xmm) { x64_gpr_ = gpr_args, x64_xmm_ = xmm, x64_float_ = true; }
  // After an x64-level call of a function returning a complex value: its
  // xmm0 and xmm1 (once; nullopt for any other call).
  std::optional<std::array<uint64_t, 2>> take_xmm_result() {
    auto r = xmm_result_;
    xmm_result_.reset();
    return r;
  }
  // After an x64-level call of __mulxc3 or __divxc3: the 10 bytes of the
  // real and the imaginary part, which the ABI returns in st(0) and st(1)
  // (once; nullopt for any other call).
  using X87Pair = std::array<std::array<uint8_t, 10>, 2>;
  std::optional<X87Pair> take_x87_result() {
    auto r = x87_result_;
    x87_result_.reset();
    return r;
  }
  // Whether `b` takes its arguments from the stack at an x64 level (the
  // long double ones: __mulxc3, __divxc3), so the call hands it the
  // outgoing area's words.
  static bool takes_stack_arguments(Builtin b) { return b == Builtin::Mulxc3 || b == Builtin::Divxc3; }
  // libgcc's __int128 helpers (PIPE_RUN_INT128, int128.cpp). At the generic
  // levels an __int128 argument is the address of its 16 bytes and an
  // __int128 result is written through the leading sret pointer; the
  // result is a float's or double's bits. At the x64 levels the halves
  // come in general registers and a float in `xmm`; the result is
  // {rax, rdx}, or a float's bits in the first.
  static bool is_int128_helper(Builtin b);
  uint64_t call_int128(Builtin b, std::span<const uint64_t> args);
  std::pair<uint64_t, uint64_t> call_int128_x64(Builtin b, std::span<const uint64_t> gpr, std::span<const uint64_t> xmm);
  // The next call comes from an x64 level with `gpr_args` general register
  // arguments (the rest of its `args` are the caller's outgoing stack
  // words); the printf family reads its arguments by class then
  // (X64FloatArgs), long doubles from the stack words.
  void set_x64_call(size_t gpr_args) { x64_call_ = true, x64_call_gpr_ = gpr_args; }
  // Whether `b` formats variadic arguments (printf, fprintf, sprintf,
  // snprintf): an x64-level call passes it the outgoing stack words even
  // when the registers suffice, for the long doubles there.
  static bool is_printf_family(Builtin b) {
    return b == Builtin::Printf || b == Builtin::Fprintf || b == Builtin::Sprintf || b == Builtin::Snprintf;
  }

 private:
  int stream_of(uint64_t file, std::string_view who) const;  // 1 stdout, 2 stderr
  void write_stream(int stream, std::string_view text);
  uint64_t copy_string(uint64_t dst, uint64_t src);
  uint64_t parse_float(Builtin b, std::span<const uint64_t> args);
  // complex_math.cpp: a PIPE_RUN_COMPLEX call; `xmm` is null at the IR levels.
  uint64_t call_complex(Builtin b, std::span<const uint64_t> args, const std::span<const uint64_t>* xmm);
  // __mulxc3, __divxc3: at the IR levels the result pointer and four
  // pointers to long doubles; at an x64 level (`x64`) the four long doubles
  // in the outgoing area's words after the `gpr` register arguments (none).
  uint64_t call_complex_x87(Builtin b, std::span<const uint64_t> args, bool x64, size_t gpr);
  std::optional<std::array<uint64_t, 2>> xmm_result_;
  std::optional<X87Pair> x87_result_;
  Memory& mem_;
  Output& out_;
  std::string name_;
  uint64_t files_[3] = {0, 0, 0};
  size_t x64_gpr_ = 0;
  std::span<const uint64_t> x64_xmm_;
  bool x64_float_ = false;
  bool x64_call_ = false;
  size_t x64_call_gpr_ = 0;
};

// ---- the module ------------------------------------------------------------------

class Program {
 public:
  Program(Module module, uint64_t memory_limit, std::string program_name);
  const Module& module() const { return module_; }
  Memory& memory() { return memory_; }
  Output& output() { return output_; }
  Libc& libc() { return libc_; }
  // The function called `name`, or kNone.
  uint32_t find_function(std::string_view name) const;
  const CompiledFunction& function(uint32_t index) const { return compiled_[index]; }
  // Resolved by layout(): the address a symbol names.
  uint64_t symbol_address(const Function& fn, NodeId node, const std::string& name) const;
  // What a function allocation means: a function index, or a builtin.
  const std::vector<Builtin>& extern_builtins() const { return extern_builtins_; }
  // x64 levels: the width of each extern's result in rax (i8/i16/i32: junk
  // above it; 64 otherwise; 0 for void: rax is undefined after the call).
  const std::vector<uint8_t>& extern_result_bits() const { return extern_result_bits_; }
  // Whether an extern returns f32/f64 (in xmm0 at the x64 levels).
  const std::vector<bool>& extern_result_float() const { return extern_result_float_; }
  // Lays out functions, externs and data in memory, then lowers every
  // function. Throws FormatError for modules it cannot run.
  void load();
  std::string_view non_local_jump_symbol(const Node& n) const;
  std::string symbol_of_extern(uint32_t index) const { return module_.header.externs[index].name; }

 private:
  void layout();
  void lay_out_data();
  Module module_;
  Output output_;
  Memory memory_;
  Libc libc_;
  std::vector<std::pair<std::string_view, uint64_t>> symbols_;  // sorted by name
  std::vector<Builtin> extern_builtins_;                        // per extern
  std::vector<uint8_t> extern_result_bits_;                     // per extern
  std::vector<bool> extern_result_float_;                       // per extern
  std::vector<CompiledFunction> compiled_;
};

// Builds one CompiledFunction (program.cpp); the level lowerers decide the
// blocks and their order, this class turns nodes into instructions.
class FunctionBuilder {
 public:
  FunctionBuilder(const Program& program, const Function& fn, uint32_t index);
  CompiledFunction take();
  const Function& fn() const { return fn_; }

  // The value index a node's result is read from: a `proj` of a call or a
  // volatile load reads the slot the tuple node writes that result to.
  uint32_t value(NodeId n) const { return alias_[n]; }
  // Nodes whose value is set when a call starts (constants, symbol
  // addresses, undefined, params, entrymem, stack slots) and projs of value
  // tuples: no instruction executes them.
  bool is_preset(NodeId n) const { return preset_[n] != 0; }
  // Constants known at load time: const, symaddr, and folded nodes.
  bool is_constant(NodeId n) const { return constant_[n] != 0; }
  uint64_t constant_value(NodeId n) const { return out_.init_values[n]; }
  // Makes n a constant of value v (its instruction is never emitted).
  void fold(NodeId n, uint64_t v);
  // The proj node selecting result `index` of tuple node n (the first one
  // by id when there are several), or kNone.
  static constexpr uint32_t kProjs = 5;  // results of the widest tuple (x64:call: m, rax, rdx, xmm0, xmm1)
  uint32_t proj_of(NodeId n, uint32_t index) const { return index < kProjs ? proj_[kProjs * n + index] : kNone; }

  // Blocks: reserve `count` first; a block's instructions are emitted
  // between start_block and finish_block, one block at a time.
  void reserve_blocks(uint32_t count) { out_.blocks.resize(count); }
  void start_block(uint32_t block, NodeId node);
  void finish_block(uint32_t block);
  // A new block holding only a Trap (for control that leads nowhere).
  uint32_t trap_block(NodeId node, const std::string& message);
  void set_entry(uint32_t block) { out_.entry_block = block; }

  // The instruction of an executed node that is not a terminator or phi.
  void emit(NodeId n);
  void emit_jump(NodeId n, uint32_t edge);
  void emit_if(NodeId n, uint32_t true_edge, uint32_t false_edge);
  // `if` or x64:jcc.
  void emit_branch(NodeId n, uint32_t true_edge, uint32_t false_edge);
  // `return` or x64:ret.
  void emit_return(NodeId n);
  void emit_trap(NodeId n, const std::string& message);
  // An edge into `target`: each phi p reads p.inputs[input_index].
  uint32_t add_edge(uint32_t target, std::span<const NodeId> phis, uint32_t input_index);

  [[noreturn]] void fail(NodeId n, const std::string& message) const;

 private:
  void emit_float(NodeId n);
  void emit_f80(NodeId n);
  void emit_v128(NodeId n);
  void emit_atomic(NodeId n);
  void emit_vec(NodeId n);  // v128.load ... and their x64: forms
  bool has_vec_ = false;
  ValueType float_type_of(NodeId n, size_t i) const;  // lower_x64.cpp
  uint64_t float_constant(NodeId n) const;  // fadd ... bitcast: Code::Float
  // x64 (lower_x64.cpp)
  void preset_x64(NodeId n);
  void emit_x64(NodeId n);
  void emit_x64_return(NodeId n);
  void x64_address(NodeId n, Insn& insn, size_t first_literal, size_t first_input);
  uint32_t x64_load_scratch(NodeId n, unsigned bits, size_t first_literal, size_t first_input);
  void add_outgoing_area(NodeId label);
  // ra-x64 (lower_x64.cpp): where input i of n is read and result k written
  // (fixed registers, tied inputs, places); other levels: the value indexes.
  uint32_t operand(NodeId n, size_t i) const;
  // operand(), or a diagnostic naming n when it has no input i.
  uint32_t checked_operand(NodeId n, size_t i) const;
  uint32_t result(NodeId n, uint32_t k) const;
  uint32_t reg_loc(x64::Reg r) const { return out_.regs + static_cast<uint32_t>(r); }
  void place_values();           // ra-x64: alias every placed node to its place
  void emit_ra(NodeId n);        // ra-x64 only nodes, movi, argreg, undefined
  void emit_clobbers(NodeId n);  // ra-x64: what n destroys besides its results
  uint32_t undefined_slot();
  uint32_t undefined_slot_ = kNone;
  std::vector<uint8_t> flags_definer_;  // ra-x64: read by an x64:flagsof (empty if none is)
  uint32_t constant(uint64_t v);  // a value slot holding v (deduplicated)
  int64_t int_literal(NodeId n, size_t i) const;
  std::string_view string_literal(NodeId n, size_t i) const;
  std::vector<std::pair<uint64_t, uint32_t>> constants_;  // sorted (value, slot)
  uint64_t outgoing_size_ = 0;
  NodeId outgoing_label_ = kNone;
  unsigned type_bits_of(NodeId n, size_t literal) const;
  void preset(NodeId n);
  uint32_t slot_index(NodeId n) const;
  Insn& push(Code code, NodeId n);
  const Program& program_;
  const Function& fn_;
  CompiledFunction out_;
  std::vector<uint32_t> alias_;
  std::vector<uint8_t> preset_;
  std::vector<uint8_t> constant_;
  std::vector<uint32_t> proj_;        // kProjs per node
  std::vector<uint64_t> slot_keys_;   // sorted distinct ssa: slot literals
  uint32_t slot_base_ = 0;
};

// Lowering, per level (lower_cfg.cpp, lower_son.cpp); both use the
// FunctionBuilder of program.cpp.
CompiledFunction lower_cfg_function(const Program& program, const Function& fn, uint32_t index);
CompiledFunction lower_son_function(const Program& program, const Function& fn, uint32_t index);
// Is the module at son-x64 or cfg-x64 (x64: instructions)?
inline bool is_x64_level(Level level) {
  return level == Level::SonX64 || level == Level::CfgX64 || level == Level::RaX64;
}

// ---- the interpreter -------------------------------------------------------------

struct RunOptions {
  uint64_t max_steps = 0;  // 0: unlimited
  bool trace = false;
  bool stats = false;
};

struct RunResult {
  int status = 0;
  bool abort = false;
  uint64_t steps = 0;
};

// Runs main(argc, argv) (or main()); prints a runtime error on stderr and
// returns kRuntimeErrorStatus for one.
RunResult run_main(Program& program, const std::vector<std::string>& argv, const RunOptions& options);

}  // namespace pl::run
