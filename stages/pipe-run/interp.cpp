// interp.cpp - the run loop: executes CompiledFunctions, whatever level they
// were lowered from.
//
// State: a frame stack (a vector, never C++ recursion, so a program recursing
// 100,000 deep needs no native stack), one value stack holding each
// activation's value array (`V`, 64-bit values) and undefined flags (`U`),
// the Memory and the current memory-state version.
//
// Undefined values: `undefined`/`ssa:undefined`, an ssa: slot never stored,
// and the value of a void call are undefined; pure operations propagate it;
// phis, ssa: slots, call arguments and return values carry it. It is a
// runtime error where it matters: as a branch condition, an address (load,
// store, copy, callee), an operand of a division, a value stored to memory
// (memory has no undefined bits to keep it in), an argument of a C library
// function, or main's return value. A shift by an undefined amount is
// undefined (not an error).
//
// long double (Code::F80): the f80 opcodes at every level read and write the
// 10 bytes of their operands in Memory and compute with the host's x87 long
// double (common/ir/eval_f80.h), which is the machine's arithmetic; their
// addresses must be defined, and an f80.to out of its type's range gives
// an undefined value (as fptosi: it may have been run ahead of its guard),
// an error where a use needs it.
//
// 16-byte vectors (Code::V128): v128.op and x64:v128.op read the 16 bytes
// of their operands in Memory and run the very SSE/SSE2 instruction on the
// host (common/ir/eval_v128.h); their addresses must be defined. At ra-x64
// the instruction destroys xmm0 and xmm1 (codegen-x64's scratch), as any
// clobber (XClobber).
//
// Memory states: memory is one real store, so a graph is only meaningful if
// every memory operation consumes the current state (the states form a
// chain; loads may share one). Each node that produces memory (store, copy,
// call, volatile access) yields a new version number; entrymem yields the
// version at the call. Every memory input is checked against the current
// version: a mismatch is reported as a stale memory state (a stage that
// forked or reordered memory), not silently computed on the wrong memory.
//
// The x64 levels (son-x64, cfg-x64, ra-x64) run on the same loop with their own
// codes (eval_x64.h gives each its meaning). A call passes its register
// arguments (x64:argreg reads them in the callee; bits above the argument's
// type are junk, as the ABI leaves them unspecified) and its outgoing stack
// argument area, which becomes the callee's incoming area (x64:argslot). A
// C library function gets the register arguments followed, when all six
// registers are used, by the 8-byte words of the caller's outgoing area
// (printf's arguments 7 and up). x64:ret returns rax and rdx; bits of rax
// above a narrow result type are junk, and rax after a void function or
// rdx after a C library function is undefined. Division errors (#DE: a zero
// divisor, a quotient that does not fit) are runtime errors.
//
// At ra-x64 (lower_x64.cpp) the registers, flags and spill slots are part
// of each activation's value array. A call to a module function hands the
// callee the caller's registers as they are (x64:argreg and x64:entryreg
// read them); x64:ret checks that rbx, rbp and r12-r15 hold what they held
// at entry (main's caller gives each a distinct value) and returns rax and
// rdx; every other caller-saved register and the flags are junk and
// undefined after the call. main's arguments arrive in rdi, rsi, rdx.
//
// Runtime errors are C++ exceptions (RuntimeError) thrown where they are
// found; run_main() catches them and prints
//   pipe-run: FUNCTION: iN: runtime error: MESSAGE
//     at FILE:LINE:COL                (when the node has a location)
//     iN = ...                         (the node, printed)
//     called from FUNCTION: iK (FILE:LINE:COL)   (the call stack)
// and returns kRuntimeErrorStatus (70).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ir/eval_float_op.h"
#include "ir/eval_f80.h"
#include "ir/eval_v128.h"
#include "x64/eval_x64.h"
#include "run.h"
#include "encoding/text_format.h"

namespace pl::run {

namespace {

// An undefined value's flag bits: 1 for any undefined value, and
// kUndefinedConversion when it comes from (or through) an fptosi/fptoui of a
// floating-point value out of its integer type's range.
constexpr uint8_t kUndefinedConversion = 2;

// What a report of an undefined value adds about where it came from.
std::string undefined_why(uint8_t undef) {
  if (!(undef & kUndefinedConversion)) return "";
  return ": it comes from fptosi or fptoui of a floating-point value out of the range of the integer type it is "
         "converted to (or NaN or infinite), undefined in C";
}

uint64_t read_le(const uint8_t* p, unsigned bytes) {
  switch (bytes) {
    case 1: return p[0];
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

void write_le(uint8_t* p, uint64_t v, unsigned bytes) {
  switch (bytes) {
    case 1: p[0] = static_cast<uint8_t>(v); break;
    case 2: { auto w = static_cast<uint16_t>(v); std::memcpy(p, &w, 2); break; }
    case 4: { auto w = static_cast<uint32_t>(v); std::memcpy(p, &w, 4); break; }
    default: std::memcpy(p, &v, 8); break;
  }
}

// The value of callee-saved register r in main's caller (distinct per register).
uint64_t caller_register(unsigned r) { return 0x5a5a5a5a00000000u | (uint64_t{r} << 8) | 0xc5; }

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

const char* code_name(Code c) {
  switch (c) {
    case Code::SDiv: return "sdiv";
    case Code::UDiv: return "udiv";
    case Code::SRem: return "srem";
    default: return "urem";
  }
}

class Interpreter {
 public:
  Interpreter(Program& program, const RunOptions& options)
      : program_(program), mem_(program.memory()), options_(options) {
    uint32_t max_moves = 1;
    for (size_t i = 0; i < program.module().functions.size(); ++i)
      max_moves = std::max(max_moves, program.function(static_cast<uint32_t>(i)).max_moves);
    move_values_.resize(max_moves);
    move_undef_.resize(max_moves);
  }

  RunResult run(const std::vector<std::string>& argv);
  // Runs function `index` as the program's first frame, with zero arguments
  // (a constructor or destructor).
  void run_alone(uint32_t index);
  // The constructors (priority ascending, then module order) or the
  // destructors (priority descending, then reverse module order), as the
  // loader runs .init_array and .fini_array.
  std::vector<uint32_t> initializers(bool destructors) const;
  void run_destructors(RunResult& result);

 private:
  struct Frame {
    const CompiledFunction* cf;
    uint32_t pc;   // next instruction (the caller's: after its call)
    size_t base;   // first value of the activation in the value stack
    size_t dynamic_base;  // its allocas are dynamic_[dynamic_base...]
    uint64_t frame = 0;   // its frame object (frame_object()), once asked
    uint32_t vectors = kNone;  // its 16-byte vector arguments: vec_entry_[vectors], if any
  };

  template <bool kTrace>
  void loop();
  // The return address of activation k: its caller's function address + the
  // call node + 1 (0 for main's, called from outside the module).
  uint64_t return_address(size_t k) const {
    if (k == 0) return 0;
    const Frame& caller = frames_[k - 1];
    const CompiledFunction& ccf = *caller.cf;
    return program_.symbol_address(*ccf.fn, 0, ccf.fn->name) + ccf.code[caller.pc - 1].node + 1;
  }
  // Activation k's frame object (made at the first __builtin_frame_address
  // asked of it or of a callee): 16 bytes laid out as System V's frame at
  // rbp, the caller's frame object at 0 (0 for main's) and the return
  // address at 8, so __builtin_frame_address(N) and
  // __builtin_return_address(N) walk the chain as natively (c2ast vla.cpp).
  // The callers' objects are made first, bottom up, so each one's word 0
  // names an object that exists. `node` names the frameaddress node.
  uint64_t frame_object(size_t k, uint32_t node) {
    size_t first = k + 1;  // the lowest activation from which every one up to k needs its object
    while (first > 0 && !frames_[first - 1].frame) --first;
    for (size_t j = first; j <= k; ++j) {
      uint32_t at = j == k ? node : frames_[j].cf->code[frames_[j].pc - 1].node;  // its call, for a caller
      uint64_t p = mem_.allocate_dynamic(kFrameObjectBytes, frames_[j].cf->index, at);
      uint8_t* words = mem_.at(p, kFrameObjectBytes, Access::Write);
      write_le(words, j == 0 ? 0 : frames_[j - 1].frame, 8);
      write_le(words + 8, return_address(j), 8);
      frames_[j].frame = p;
    }
    return frames_[k].frame;
  }
  static constexpr uint64_t kFrameObjectBytes = 16;
  std::vector<uint64_t> main_arguments(const std::vector<std::string>& argv, size_t params);
  // Pushes an activation of `cf` with `args`; returns its entry block.
  const BlockCode& push_frame(const CompiledFunction& cf, size_t base, const uint64_t* args, const uint8_t* undef,
                              size_t nargs, uint64_t incoming = 0);
  // The allocation a call through `callee` enters (a function or extern).
  const Allocation& callee_allocation(uint64_t callee) const;
  // A call's arguments (cf.call_args[first, first + n)) into arg_values_ and arg_undef_.
  void gather_arguments(const CompiledFunction& cf, const uint64_t* V, const uint8_t* U, uint32_t first, uint32_t n);
  // The C library function a call through `callee` reaches when `target` is
  // no function of the module; a runtime error when it is no function, one
  // pipe-run does not have, or an argument (in arg_undef_) is undefined.
  Builtin library_callee(const CompiledFunction& cf, const Allocation& target, uint64_t callee, uint32_t first,
                         uint32_t n) const;
  void reserve_values(size_t top);
  void count_steps(const BlockCode& block) {
    steps_ += block.count;
    if (options_.max_steps && steps_ > options_.max_steps)
      throw RuntimeError("step limit reached: more than " + std::to_string(options_.max_steps) +
                             " executed nodes (--max-steps)",
                         block.node);
  }
  void report(const RuntimeError& e, uint32_t node) const;
  // Reports e at its node (or the instruction being run) and sets the status.
  void runtime_error(const RuntimeError& e, RunResult& result) const;
  // ra-x64: the registers at entry: the caller's (a call leaves every
  // register as it was), or for main its arguments in rdi, rsi, rdx and a
  // distinct value in each callee-saved register; the rest undefined.
  void enter_registers(const CompiledFunction& cf, uint64_t* V, uint8_t* U, const uint64_t* args, size_t nargs);
  // ra-x64, at x64:ret: each callee-saved register holds its value at entry.
  void check_restored(const uint64_t* regs, const uint8_t* undef) const;
  void trace(const CompiledFunction& cf, const Insn& insn, const uint64_t* V, const uint8_t* U) const;
  void trace_moves(const CompiledFunction& cf, const Move* moves, uint32_t count, const uint64_t* V,
                   const uint8_t* U) const;

  Program& program_;
  Memory& mem_;
  RunOptions options_;
  std::vector<Frame> frames_;
  std::vector<uint64_t> values_;
  std::vector<uint8_t> undef_;
  std::vector<uint64_t> move_values_;
  std::vector<uint8_t> move_undef_;
  std::vector<uint64_t> arg_values_;
  std::vector<uint8_t> arg_undef_;
  std::vector<uint64_t> xmm_args_;  // an x64 call's xmm arguments (for the C library)
  // What the last x64:ret left in xmm0 and xmm1 (XCallXmm reads it).
  uint64_t ret_xmm_[2] = {kX64Junk, kX64Junk};
  uint8_t ret_xmm_undef_[2] = {1, 1};
  std::vector<uint64_t> slot_pointers_;
  // The live alloca blocks of every activation, oldest first (a
  // stackrestore or the return ends the newest ones).
  std::vector<uint64_t> dynamic_;
  // Ends the allocas above `extent`.
  void release_dynamic(size_t extent, bool freed) {
    while (dynamic_.size() > extent) {
      mem_.release_dynamic(dynamic_.back(), freed);
      dynamic_.pop_back();
    }
  }
  uint64_t memory_version_ = 1;
  // The x87 register stack between a long double result's x64:fldt and
  // the caller's x64:fstpt (otherwise empty between instructions): a
  // long double in st(0), a _Complex long double's real part in st(0) and
  // its imaginary part in st(1). x87_[x87_depth_ - 1] is st(0).
  static constexpr size_t kX87Depth = 8;
  std::array<std::array<uint8_t, kF80Bytes>, kX87Depth> x87_{};
  size_t x87_depth_ = 0;
  // 16-byte vectors in xmm registers (Code::XVec): what the next call
  // passes in xmm0-xmm7 (bit r of vec_out_mask_: xmm r holds one), the
  // whole xmm argument registers of each activation that received any, at
  // its entry (Frame::vectors), and the xmm0 the last x64:v128.ret left
  // (vec_ret_set_: since the last call).
  using VectorRegs = std::array<uint8_t, 16 * 8>;
  VectorRegs vec_out_{};
  uint8_t vec_out_mask_ = 0;
  std::vector<VectorRegs> vec_entry_;
  uint8_t vec_ret_[16] = {};
  bool vec_ret_set_ = false;
  uint64_t steps_ = 0;
  int exit_status_ = 0;
};

void Interpreter::reserve_values(size_t top) {
  if (top <= values_.size()) return;
  size_t grown = std::max(top, values_.size() * 2);
  mem_.charge((grown - values_.size()) * (sizeof(uint64_t) + 1), "the call stack");
  values_.resize(grown);
  undef_.resize(grown);
}

const Allocation& Interpreter::callee_allocation(uint64_t callee) const {
  uint32_t id = pointer_id(callee);
  if (!mem_.valid_id(id) || pointer_offset(callee) != 0)
    throw RuntimeError("call through " + (mem_.valid_id(id) ? "a pointer into " + mem_.describe(id)
                                                             : std::string("a pointer to no allocation")) +
                       ", not a function");
  return mem_.get(id);
}

void Interpreter::gather_arguments(const CompiledFunction& cf, const uint64_t* V, const uint8_t* U, uint32_t first,
                                   uint32_t n) {
  arg_values_.resize(n);
  arg_undef_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = cf.call_args[first + i];
    arg_values_[i] = V[v];
    arg_undef_[i] = U[v];
  }
}

Builtin Interpreter::library_callee(const CompiledFunction& cf, const Allocation& target, uint64_t callee,
                                    uint32_t first, uint32_t n) const {
  if (target.kind != AllocKind::ExternFunction)
    throw RuntimeError("call through a pointer to " + mem_.describe(pointer_id(callee)) + ", not a function");
  Builtin builtin = program_.extern_builtins()[target.index];
  if (builtin == Builtin::Unknown)
    throw RuntimeError("call to unknown external function '" + program_.symbol_of_extern(target.index) + "'");
  for (uint32_t i = 0; i < n; ++i)
    if (arg_undef_[i])
      throw RuntimeError("argument " + std::to_string(i + 1) + " of " + std::string(builtin_name(builtin)) +
                         " is undefined (" + value_name(cf, cf.call_args[first + i]) + ")" +
                         undefined_why(arg_undef_[i]));
  return builtin;
}

const BlockCode& Interpreter::push_frame(const CompiledFunction& cf, size_t base, const uint64_t* args,
                                         const uint8_t* undef, size_t nargs, uint64_t incoming) {
  const Signature& sig = cf.fn->signature;
  if (!cf.x64 && (nargs < sig.params.size() || (nargs > sig.params.size() && !sig.variadic)))
    throw RuntimeError("'" + cf.fn->name + "' takes " + std::to_string(sig.params.size()) + " argument" +
                       (sig.params.size() == 1 ? "" : "s") + ", the call passes " + std::to_string(nargs));
  slot_pointers_.resize(cf.slot_nodes.size());
  mem_.allocate_slots(cf.slot_sizes, cf.slot_offsets, cf.slot_frame_size, cf.slot_labels, cf.index,
                      slot_pointers_.data());
  reserve_values(base + cf.num_values);
  uint64_t* V = values_.data() + base;
  uint8_t* U = undef_.data() + base;
  std::memcpy(V, cf.init_values.data(), cf.num_values * sizeof(uint64_t));
  std::memcpy(U, cf.init_undef.data(), cf.num_values);
  for (const CompiledFunction::Param& p : cf.params) {
    if (p.index >= nargs) {
      // A variadic x64 callee saves every argument register, passed or not.
      if (cf.x64 && sig.variadic) V[p.node] = kX64Junk, U[p.node] = 0;
      continue;
    }
    uint64_t mask = width_mask(p.bits);
    V[p.node] = (args[p.index] & mask) | (cf.param_fill & ~mask);
    U[p.node] = undef[p.index];
  }
  if (cf.incoming != kNone) V[cf.incoming] = incoming;
  if (cf.varargs != kNone) {
    size_t fixed = sig.params.size();
    for (size_t i = fixed; i < nargs; ++i)
      if (undef[i]) throw RuntimeError("variadic argument " + std::to_string(i - fixed + 1) + " of '" + cf.fn->name + "' is undefined");
    V[cf.varargs] = mem_.allocate_varargs(std::span<const uint64_t>(args + fixed, nargs - fixed), cf.index);
    U[cf.varargs] = 0;
  }
  if (cf.ra) enter_registers(cf, V, U, args, nargs);
  for (uint32_t m : cf.entrymems) V[m] = memory_version_, U[m] = 0;
  for (size_t i = 0; i < cf.slot_nodes.size(); ++i) V[cf.slot_nodes[i]] = slot_pointers_[i];
  const BlockCode& entry = cf.blocks[cf.entry_block];
  frames_.push_back({&cf, entry.first, base, dynamic_.size()});
  count_steps(entry);
  return entry;
}

template <bool kTrace>
void Interpreter::loop() {
  const CompiledFunction* cf = frames_.back().cf;
  const Insn* code = cf->code.data();
  const Insn* ip = code + frames_.back().pc;
  uint64_t* V = values_.data() + frames_.back().base;
  uint8_t* U = undef_.data() + frames_.back().base;
  Libc& libc = program_.libc();

  auto take_edge = [&](uint32_t edge_index) {
    const Edge& e = cf->edges[edge_index];
    const Move* moves = cf->moves.data() + e.first_move;
    if (e.num_moves == 1) {
      V[moves[0].dst] = V[moves[0].src];
      U[moves[0].dst] = U[moves[0].src];
    } else if (e.num_moves > 1) {
      for (uint32_t i = 0; i < e.num_moves; ++i) move_values_[i] = V[moves[i].src], move_undef_[i] = U[moves[i].src];
      for (uint32_t i = 0; i < e.num_moves; ++i) V[moves[i].dst] = move_values_[i], U[moves[i].dst] = move_undef_[i];
    }
    if (cf->hi && e.num_moves) {  // the high halves of 16-byte vector values (run.h)
      const uint32_t h = cf->hi;
      for (uint32_t i = 0; i < e.num_moves; ++i) move_values_[i] = V[moves[i].src + h], move_undef_[i] = U[moves[i].src + h];
      for (uint32_t i = 0; i < e.num_moves; ++i) V[moves[i].dst + h] = move_values_[i], U[moves[i].dst + h] = move_undef_[i];
    }
    steps_ += e.num_moves;
    if constexpr (kTrace) trace_moves(*cf, moves, e.num_moves, V, U);
    const BlockCode& block = cf->blocks[e.block];
    count_steps(block);
    ip = code + block.first;
  };
  auto check_memory = [&](uint32_t m) {
    if (U[m] || V[m] != memory_version_)
      throw RuntimeError("memory state " + node_name(m) +
                         " is stale: a later memory operation has replaced it (the memory edges do not form a chain)");
  };
  auto new_memory = [&](uint32_t dst) {
    V[dst] = ++memory_version_;
    U[dst] = 0;
  };
  auto defined = [&](uint32_t v, const char* what) {
    if (U[v]) throw RuntimeError(std::string(what) + " is undefined (" + value_name(*cf, v) + ")" + undefined_why(U[v]));
  };
  // Ends the current activation and continues in its caller after the call.
  auto pop_frame = [&]() {
    slot_pointers_.resize(cf->slot_nodes.size());
    for (size_t i = 0; i < cf->slot_nodes.size(); ++i) slot_pointers_[i] = V[cf->slot_nodes[i]];
    mem_.release_slots(slot_pointers_);
    if (cf->varargs != kNone) mem_.release_varargs(V[cf->varargs]);
    release_dynamic(frames_.back().dynamic_base, false);
    if (frames_.back().frame) mem_.release_dynamic(frames_.back().frame, false);
    if (frames_.back().vectors != kNone) vec_entry_.pop_back();
    frames_.pop_back();
    const Frame& caller = frames_.back();
    cf = caller.cf;
    code = cf->code.data();
    ip = code + caller.pc;
    V = values_.data() + caller.base;
    U = undef_.data() + caller.base;
  };
  auto address = [&](const Insn& I) {
    if (U[I.a] | U[I.b]) throw RuntimeError("an address is undefined (" + value_name(*cf, U[I.a] ? I.a : I.b) + ")");
    return x64_address(V[I.a], V[I.b], I.aux & 0x0F, static_cast<int64_t>(I.imm));
  };

  try {
  for (;;) {
    const Insn& I = *ip++;
    switch (I.code) {
#define PIPE_RUN_PURE(C, F)                          \
  case Code::C:                                      \
    V[I.dst] = F(V[I.a], V[I.b], I.bits);            \
    U[I.dst] = U[I.a] | U[I.b];                      \
    break;
      PIPE_RUN_PURE(Add, eval_add) PIPE_RUN_PURE(Sub, eval_sub) PIPE_RUN_PURE(Mul, eval_mul)
      PIPE_RUN_PURE(And, eval_and) PIPE_RUN_PURE(Or, eval_or) PIPE_RUN_PURE(Xor, eval_xor)
      PIPE_RUN_PURE(Eq, eval_eq) PIPE_RUN_PURE(Ne, eval_ne) PIPE_RUN_PURE(SLt, eval_slt)
      PIPE_RUN_PURE(SLe, eval_sle) PIPE_RUN_PURE(ULt, eval_ult) PIPE_RUN_PURE(ULe, eval_ule)
#undef PIPE_RUN_PURE
#define PIPE_RUN_SHIFT(C, F)                                                                          \
  case Code::C: {                                                                                    \
    uint64_t amount = V[I.b];                                                                        \
    U[I.dst] = U[I.a] | U[I.b];                                                                      \
    if (shift_in_range(amount, I.bits)) {                                                            \
      V[I.dst] = F(V[I.a], amount, I.bits);                                                          \
    } else if (U[I.b]) {                                                                             \
      V[I.dst] = 0;                                                                                  \
    } else {                                                                                         \
      throw RuntimeError("shift amount " + std::to_string(amount) + " is not below the width of the " + \
                         std::to_string(I.bits) + "-bit type");                                      \
    }                                                                                                \
    break;                                                                                           \
  }
      PIPE_RUN_SHIFT(Shl, eval_shl) PIPE_RUN_SHIFT(LShr, eval_lshr) PIPE_RUN_SHIFT(AShr, eval_ashr)
#undef PIPE_RUN_SHIFT
#define PIPE_RUN_DIVIDE(C, F)                                                                       \
  case Code::C: {                                                                                  \
    if (U[I.a] | U[I.b])                                                                           \
      throw RuntimeError(std::string("operand of ") + code_name(Code::C) + " is undefined (" +     \
                         node_name(U[I.a] ? I.a : I.b) + ")");                                      \
    EvalError e = check_division(Op::C, V[I.a], V[I.b], I.bits);                                   \
    if (e != EvalError::None) throw RuntimeError(std::string(eval_error_message(e)));              \
    V[I.dst] = F(V[I.a], V[I.b], I.bits);                                                          \
    U[I.dst] = 0;                                                                                  \
    break;                                                                                         \
  }
      PIPE_RUN_DIVIDE(SDiv, eval_sdiv) PIPE_RUN_DIVIDE(UDiv, eval_udiv) PIPE_RUN_DIVIDE(SRem, eval_srem)
      PIPE_RUN_DIVIDE(URem, eval_urem)
#undef PIPE_RUN_DIVIDE
      case Code::Select:  // a branch on the condition in the source: an undefined one is an error there too
        defined(I.a, "the select condition");
        V[I.dst] = eval_select(V[I.a], V[I.b], V[I.c]);
        U[I.dst] = V[I.a] != 0 ? U[I.b] : U[I.c];
        break;
      case Code::Neg:
        V[I.dst] = eval_neg(V[I.a], I.bits);
        U[I.dst] = U[I.a];
        break;
      case Code::Not:
        V[I.dst] = eval_not(V[I.a], I.bits);
        U[I.dst] = U[I.a];
        break;
      case Code::SExt:
        V[I.dst] = eval_sext(V[I.a], I.bits, I.bits2);
        U[I.dst] = U[I.a];
        break;
      case Code::ZExt:
        V[I.dst] = eval_zext(V[I.a], I.bits, I.bits2);
        U[I.dst] = U[I.a];
        break;
      case Code::Trunc:
        V[I.dst] = eval_trunc(V[I.a], I.bits, I.bits2);
        U[I.dst] = U[I.a];
        break;
      case Code::Move:
        V[I.dst] = V[I.a];
        U[I.dst] = U[I.a];
        if (cf->hi) V[I.dst + cf->hi] = V[I.a + cf->hi], U[I.dst + cf->hi] = U[I.a + cf->hi];
        break;
      case Code::Load:
      case Code::LoadV: {
        defined(I.a, "the address of a load");
        check_memory(I.c);
        uint64_t v = read_le(mem_.at(V[I.a], I.bits2, Access::Read), I.bits2);
        V[I.dst] = I.bits == 1 ? (v & 1) : v;
        U[I.dst] = 0;
        if (I.code == Code::LoadV) new_memory(I.b);
        break;
      }
      case Code::Store:
      case Code::StoreV:
        defined(I.a, "the address of a store");
        defined(I.b, "the value stored");
        check_memory(I.c);
        write_le(mem_.at(V[I.a], I.bits2, Access::Write), I.bits == 1 ? (V[I.b] & 1) : V[I.b], I.bits2);
        new_memory(I.dst);
        break;
      case Code::Atomic: {
        check_memory(I.c);
        uint8_t kind = I.aux & ~kAtomicX64;
        if (kind == kAtomicFence) {
          new_memory(I.b);
          break;
        }
        defined(I.a, "the address of an atomic operation");
        uint32_t x = static_cast<uint32_t>(I.imm), y = static_cast<uint32_t>(I.imm >> 32);
        defined(x, kind == kAtomicCmpXchg ? "the expected value" : "the operand");
        if (kind == kAtomicCmpXchg) defined(y, "the new value");
        uint8_t* at = mem_.at(V[I.a], I.bits2, Access::Write);
        uint64_t old = read_le(at, I.bits2), v = V[x], now = old;
        switch (kind) {
          case kAtomicXchg: now = v; break;
          case kAtomicAdd: now = old + v; break;
          case kAtomicSub: now = old - v; break;
          case kAtomicAnd: now = old & v; break;
          case kAtomicOr: now = old | v; break;
          case kAtomicXor: now = old ^ v; break;
          case kAtomicNand: now = ~(old & v); break;
          default: now = truncate_to(old, I.bits) == truncate_to(v, I.bits) ? V[y] : old; break;
        }
        write_le(at, now, I.bits2);
        new_memory(I.b);
        if (I.dst != kNone) {
          // x64: xchg, xadd and cmpxchg write the low bits of rax, which
          // held the operand (the expected value); the loop zero-extends.
          bool loop = (I.aux & kAtomicX64) && I.bits < 32 && kind >= kAtomicAnd && kind <= kAtomicNand;
          V[I.dst] = !(I.aux & kAtomicX64) || loop ? old : x64_write(v, old, I.bits);
          U[I.dst] = 0;
        }
        break;
      }
      case Code::CopyMem: {
        defined(I.a, "the destination of a copy");
        defined(I.b, "the source of a copy");
        check_memory(I.c);
        const uint8_t* src = mem_.at(V[I.b], I.imm, Access::Read);
        uint8_t* dst = mem_.at(V[I.a], I.imm, Access::Write);
        if (I.imm) std::memmove(dst, src, I.imm);
        new_memory(I.dst);
        break;
      }
      case Code::Call: {
        defined(I.a, "the callee");
        check_memory(I.c);
        const Allocation& target = callee_allocation(V[I.a]);
        uint32_t first = static_cast<uint32_t>(I.imm), nargs = static_cast<uint32_t>(I.imm >> 32);
        gather_arguments(*cf, V, U, first, nargs);
        if (target.kind == AllocKind::Function) {
          frames_.back().pc = static_cast<uint32_t>(ip - code);
          size_t base = frames_.back().base + cf->num_values;
          const CompiledFunction& next = program_.function(target.index);
          const BlockCode& entry = push_frame(next, base, arg_values_.data(), arg_undef_.data(), nargs);
          cf = &next;
          code = cf->code.data();
          ip = code + entry.first;
          V = values_.data() + base;
          U = undef_.data() + base;
          continue;
        }
        Builtin builtin = library_callee(*cf, target, V[I.a], first, nargs);
        uint64_t result = Libc::is_int128_helper(builtin) ? libc.call_int128(builtin, arg_values_)
                                                          : libc.call(builtin, arg_values_, cf->index, I.node);
        V[I.dst] = I.bits2 ? truncate_to(result, I.bits) : 0;
        U[I.dst] = I.bits2 ? 0 : 1;
        new_memory(I.b);
        break;
      }
      case Code::VaStart: {
        defined(I.a, "the va_list of va_start");
        check_memory(I.c);
        uint8_t* ap = mem_.at(V[I.a], 24, Access::Write);
        uint32_t offsets[2] = {kVaGpLimit, kVaFpStart};  // no register arguments left
        uint64_t areas[2] = {V[I.b], 0};                 // overflow_arg_area, reg_save_area
        std::memcpy(ap, offsets, 8);
        std::memcpy(ap + 8, areas, 16);
        new_memory(I.dst);
        break;
      }
      case Code::VaArg:
        defined(I.a, "the va_list of va_arg");
        check_memory(I.c);
        V[I.dst] = truncate_to(I.aux ? va_list_next_float(mem_, V[I.a]) : va_list_next(mem_, V[I.a]), I.bits);
        U[I.dst] = 0;
        new_memory(I.b);
        break;
      case Code::Alloca:
        defined(I.a, "the size of alloca");
        check_memory(I.c);
        V[I.dst] = mem_.allocate_dynamic(V[I.a], cf->index, I.node);
        U[I.dst] = 0;
        dynamic_.push_back(V[I.dst]);
        new_memory(I.b);
        break;
      case Code::StackSave:
        check_memory(I.c);
        V[I.dst] = dynamic_.size() - frames_.back().dynamic_base;
        U[I.dst] = 0;
        new_memory(I.b);
        break;
      case Code::FrameAddress:
        V[I.dst] = frame_object(frames_.size() - 1, I.node);
        U[I.dst] = 0;
        break;
      case Code::ReturnAddress:
        V[I.dst] = return_address(frames_.size() - 1);
        U[I.dst] = 0;
        break;
      case Code::StackRestore: {
        defined(I.a, "the stack extent of stackrestore");
        check_memory(I.c);
        size_t live = dynamic_.size() - frames_.back().dynamic_base;
        if (V[I.a] > live)
          throw RuntimeError("stackrestore to an extent of " + std::to_string(V[I.a]) + " allocas, above the " +
                             std::to_string(live) + " this call has now (not a stacksave of this call's)");
        release_dynamic(frames_.back().dynamic_base + V[I.a], true);
        new_memory(I.dst);
        break;
      }
      case Code::Jump:
        if constexpr (kTrace) trace(*cf, I, V, U);
        take_edge(I.a);
        continue;
      case Code::If:
        if constexpr (kTrace) trace(*cf, I, V, U);
        defined(I.a, "the branch condition");
        take_edge(V[I.a] != 0 ? I.b : I.c);
        continue;
      case Code::Return: {
        if constexpr (kTrace) trace(*cf, I, V, U);
        check_memory(I.a);
        bool has_value = I.b != kNone;
        uint64_t value = has_value ? V[I.b] : 0;
        uint8_t value_undef = has_value ? U[I.b] : 1;
        if (frames_.size() == 1) {
          if (has_value && value_undef) defined(I.b, "main's return value");
          exit_status_ = static_cast<int>(value & 0xFF);
          return;
        }
        pop_frame();
        const Insn& call = ip[-1];
        V[call.dst] = call.bits2 ? truncate_to(value, call.bits) : 0;
        U[call.dst] = call.bits2 ? value_undef : 1;
        new_memory(call.b);
        if constexpr (kTrace) trace(*cf, call, V, U);
        continue;
      }
      case Code::Trap: throw RuntimeError(cf->traps[I.imm]);
      case Code::F80: {  // long double in memory (eval_f80.h)
        defined(I.a, "the address of a long double");
        check_memory(I.c);
        if (I.aux == kF80Fldt) {
          if (x87_depth_ == kX87Depth) throw RuntimeError("x64:fldt: the x87 register stack is full");
          std::memcpy(x87_[x87_depth_++].data(), mem_.at(V[I.a], kF80Bytes, Access::Read), kF80Bytes);
          new_memory(I.dst);
        } else if (I.aux == kF80Fstpt) {
          if (x87_depth_ == 0) throw RuntimeError("x64:fstpt: the x87 register stack is empty (no long double result)");
          std::memcpy(mem_.at(V[I.a], kF80Bytes, Access::Write), x87_[--x87_depth_].data(), kF80Bytes);
          new_memory(I.dst);
        } else if (I.aux <= static_cast<uint8_t>(F80Op::Copy)) {
          defined(I.b, "the address of a long double");
          defined(static_cast<uint32_t>(I.imm), "the address of a long double");
          uint8_t a[kF80Bytes], b[kF80Bytes];
          std::memcpy(a, mem_.at(V[I.b], kF80Bytes, Access::Read), kF80Bytes);
          std::memcpy(b, mem_.at(V[I.imm], kF80Bytes, Access::Read), kF80Bytes);
          f80_compute(static_cast<F80Op>(I.aux), mem_.at(V[I.a], kF80Bytes, Access::Write), a, b);
          new_memory(I.dst);
        } else if (I.aux == kF80Cmp) {
          defined(I.b, "the address of a long double");
          const uint8_t* a = mem_.at(V[I.a], kF80Bytes, Access::Read);
          const uint8_t* b = mem_.at(V[I.b], kF80Bytes, Access::Read);
          if (I.imm & 64) {  // x64:f80.cmp: fucomip a, b, then the condition
            long double x = f80_read(a), y = f80_read(b);
            uint64_t flags = std::isunordered(x, y) ? (kFlagZF | kFlagPF | kFlagCF) : x < y ? kFlagCF : x == y ? kFlagZF : 0;
            V[I.dst] = x64_cond(static_cast<x64::Cond>(I.imm & 63), flags) ? 1 : 0;  // setcc, movzx
          } else {
            V[I.dst] = *f80_compare(kF80Preds[I.imm], a, b);
          }
          U[I.dst] = 0;
        } else if (I.aux == kF80From) {
          defined(I.b, "the value converted to long double");
          f80_from(static_cast<ValueType>(I.bits), V[I.b], mem_.at(V[I.a], kF80Bytes, Access::Write));
          new_memory(I.dst);
        } else {
          EvalError e = EvalError::None;
          std::optional<uint64_t> v = f80_to(static_cast<ValueType>(I.bits), mem_.at(V[I.a], kF80Bytes, Access::Read), &e);
          // Out of range: undefined, not an error here (as fptosi): the
          // optimizers may run it ahead of the test that guards it.
          // x64:f80.to is the machine's fistp: the integer indefinite (the
          // lowest number of the width), as XCvtt models cvttsd2si.
          V[I.dst] = v ? *v : I.imm ? (uint64_t{1} << (type_bits(static_cast<ValueType>(I.bits)) - 1)) : 0;
          U[I.dst] = v || I.imm ? 0 : kUndefinedConversion;
          if (!v && !I.imm && e != EvalError::FloatToIntOverflow) throw RuntimeError("f80.to: " + std::string(eval_error_message(e)));
        }
        break;
      }
      case Code::V128: {  // a 16-byte vector operation in memory (eval_v128.h)
        defined(I.a, "the address of a vector");
        defined(I.b, "the address of a vector");
        defined(static_cast<uint32_t>(I.imm), "the address of a vector");
        check_memory(I.c);
        uint8_t a[kV128Bytes], b[kV128Bytes];
        std::memcpy(a, mem_.at(V[I.b], kV128Bytes, Access::Read), kV128Bytes);
        std::memcpy(b, mem_.at(V[I.imm], kV128Bytes, Access::Read), kV128Bytes);
        v128_compute(I.aux, mem_.at(V[I.a], kV128Bytes, Access::Write), a, b, I.bits);
        new_memory(I.dst);
        break;
      }
      // 16-byte vector values: lo at V[v], hi at V[v + cf->hi] (run.h).
      case Code::VecLoad: {
        defined(I.a, "the address of a vector load");
        check_memory(I.c);
        const uint8_t* p = mem_.at(V[I.a], kV128Bytes, Access::Read);
        std::memcpy(&V[I.dst], p, 8);
        std::memcpy(&V[I.dst + cf->hi], p + 8, 8);
        U[I.dst] = U[I.dst + cf->hi] = 0;
        break;
      }
      case Code::VecStore: {
        defined(I.a, "the address of a vector store");
        defined(I.b, "the vector a vector store writes");
        check_memory(I.c);
        uint8_t* p = mem_.at(V[I.a], kV128Bytes, Access::Write);
        std::memcpy(p, &V[I.b], 8);
        std::memcpy(p + 8, &V[I.b + cf->hi], 8);
        new_memory(I.dst);
        break;
      }
      case Code::VecApply: {
        defined(I.a, "a vector operand");
        defined(I.b, "a vector operand");
        const uint64_t a[2] = {V[I.a], V[I.a + cf->hi]}, b[2] = {V[I.b], V[I.b + cf->hi]};
        uint64_t r[2];
        v128_apply(I.aux, r, a, b, I.bits);
        V[I.dst] = r[0], V[I.dst + cf->hi] = r[1];
        U[I.dst] = U[I.dst + cf->hi] = 0;
        break;
      }
      case Code::VecSplat: {
        defined(I.a, "the scalar a splat copies");
        uint64_t r[2];
        v128_splat(I.bits, V[I.a], r);
        V[I.dst] = r[0], V[I.dst + cf->hi] = r[1];
        U[I.dst] = U[I.dst + cf->hi] = 0;
        break;
      }
      case Code::VecExtract: {
        defined(I.a, "the vector a lane is extracted from");
        const uint64_t a[2] = {V[I.a], V[I.a + cf->hi]};
        V[I.dst] = v128_extract(I.bits, static_cast<unsigned>(I.imm), a);
        U[I.dst] = 0;
        break;
      }
      case Code::Float: {
        EvalError e = EvalError::None;
        std::optional<uint64_t> v = eval_float_op(static_cast<OpId>(I.imm), static_cast<ValueType>(I.bits),
                                                  static_cast<ValueType>(I.bits2), V[I.a], V[I.b], e);
        U[I.dst] = U[I.a] | U[I.b];
        if (!v) {
          // Undefined in, undefined out (as shifts). A conversion out of
          // range is undefined too, not an error here: fptosi and fptoui are
          // pure, so they may run ahead of the test that guards them
          // (scheduled early at son, hoisted by licm), as LLVM's poison; a
          // use that needs the value reports it (undefined_why).
          if (e == EvalError::FloatToIntOverflow) U[I.dst] |= kUndefinedConversion;
          if (U[I.dst]) {
            V[I.dst] = 0;
            break;
          }
          throw RuntimeError(std::string(op_info(static_cast<OpId>(I.imm)).name) + ": " +
                             std::string(eval_error_message(e)));
        }
        V[I.dst] = *v;
        break;
      }
#define PIPE_RUN_X64_ALU(C, F)                                  \
  case Code::C:                                                 \
    V[I.dst] = x64_write(V[I.c], F(V[I.a], V[I.b], I.bits), I.bits); \
    U[I.dst] = U[I.a] | U[I.b] | U[I.c];                        \
    break;
      PIPE_RUN_X64_ALU(XAdd, eval_add) PIPE_RUN_X64_ALU(XSub, eval_sub) PIPE_RUN_X64_ALU(XImul, eval_mul)
      PIPE_RUN_X64_ALU(XAnd, eval_and) PIPE_RUN_X64_ALU(XOr, eval_or) PIPE_RUN_X64_ALU(XXor, eval_xor)
      PIPE_RUN_X64_ALU(XShl, x64_shl) PIPE_RUN_X64_ALU(XShr, x64_shr) PIPE_RUN_X64_ALU(XSar, x64_sar)
#undef PIPE_RUN_X64_ALU
      case Code::XNeg:
        V[I.dst] = x64_write(V[I.a], eval_neg(V[I.a], I.bits), I.bits);
        U[I.dst] = U[I.a];
        break;
      case Code::XNot:
        V[I.dst] = x64_write(V[I.a], eval_not(V[I.a], I.bits), I.bits);
        U[I.dst] = U[I.a];
        break;
      case Code::XCdq:
        V[I.dst] = x64_fresh(x64_cdq(V[I.a], I.bits), I.bits);
        U[I.dst] = U[I.a];
        break;
      case Code::XMul1:
      case Code::XImul1: {
        X64Pair p = x64_mul1(V[I.a], V[I.b], I.bits, I.code == Code::XImul1);
        V[I.imm] = x64_fresh(p.first, I.bits);
        V[I.dst] = x64_fresh(p.second, I.bits);
        U[I.imm] = U[I.dst] = U[I.a] | U[I.b];
        break;
      }
      case Code::XDiv:
      case Code::XIdiv: {
        bool is_signed = I.code == Code::XIdiv;
        if (U[I.a] | U[I.b] | U[I.c])
          throw RuntimeError(std::string("operand of ") + (is_signed ? "idiv" : "div") + " is undefined (" +
                             value_name(*cf, U[I.a] ? I.a : U[I.b] ? I.b : I.c) + ")");
        EvalError e = x64_check_div(V[I.a], V[I.b], V[I.c], I.bits, is_signed);
        if (e != EvalError::None) throw RuntimeError(std::string(eval_error_message(e)));
        X64Pair p = x64_div(V[I.a], V[I.b], V[I.c], I.bits, is_signed);
        V[I.imm] = x64_fresh(p.first, I.bits);
        V[I.dst] = x64_fresh(p.second, I.bits);
        U[I.imm] = U[I.dst] = 0;
        break;
      }
      case Code::XMovSX:
        V[I.dst] = x64_fresh(x64_movsx(V[I.a], I.bits, I.bits2), I.bits2);
        U[I.dst] = U[I.a];
        break;
      case Code::XMovZX:
        V[I.dst] = x64_fresh(x64_movzx(V[I.a], I.bits, I.bits2), I.bits2);
        U[I.dst] = U[I.a];
        break;
      case Code::XCmp:
        V[I.dst] = x64_flags_cmp(V[I.a], V[I.b], I.bits);
        U[I.dst] = U[I.a] | U[I.b];
        break;
      case Code::XTest:
        V[I.dst] = x64_flags_test(V[I.a], V[I.b], I.bits);
        U[I.dst] = U[I.a] | U[I.b];
        break;
      case Code::XUcomis:
        V[I.dst] = x64_flags_ucomis(V[I.a], V[I.b], I.aux != 0);
        U[I.dst] = U[I.a] | U[I.b];
        break;
      case Code::XCvtt:
        V[I.dst] = x64_cvttf2si(V[I.a], I.aux != 0, I.bits);
        U[I.dst] = U[I.a];
        break;
      case Code::XSetCC:
        V[I.dst] = x64_setcc(static_cast<x64::Cond>(I.aux), V[I.a]);
        U[I.dst] = U[I.a];
        break;
      case Code::XCMov:
        V[I.dst] = x64_cmov(static_cast<x64::Cond>(I.aux), V[I.a], V[I.b], V[I.c], I.bits);
        U[I.dst] = U[I.a] | U[I.b] | U[I.c];
        break;
      case Code::XLea:
        V[I.dst] = x64_fresh(x64_address(V[I.a], V[I.b], I.aux & 0x0F, static_cast<int64_t>(I.imm)), I.bits);
        U[I.dst] = U[I.a] | U[I.b];
        break;
      case Code::XLoad:
      case Code::XLoadSX: {
        uint64_t at = address(I);
        check_memory(I.c);
        unsigned bytes = I.bits / 8;
        uint64_t raw = read_le(mem_.at(at, bytes, Access::Read), bytes);
        V[I.dst] = x64_fresh(I.code == Code::XLoadSX ? x64_movsx(raw, I.bits, I.bits2) : raw, I.bits2);
        U[I.dst] = 0;
        if (I.aux & kVolatileLoad) new_memory(I.node);
        break;
      }
      case Code::XStore: {
        uint64_t at = address(I);
        defined(I.dst, "the value stored");
        check_memory(I.c);
        unsigned bytes = I.bits / 8;
        write_le(mem_.at(at, bytes, Access::Write), V[I.dst], bytes);
        new_memory(I.node);
        break;
      }
      case Code::XRepMovsb: {
        defined(I.a, "the destination of rep movsb");
        defined(I.b, "the source of rep movsb");
        defined(I.dst, "the count of rep movsb");
        check_memory(I.c);
        uint64_t n = V[I.dst];
        const uint8_t* src = mem_.at(V[I.b], n, Access::Read);
        uint8_t* dst = mem_.at(V[I.a], n, Access::Write);
        for (uint64_t i = 0; i < n; ++i) dst[i] = src[i];  // forward, byte by byte, as rep movsb
        new_memory(I.node);
        break;
      }
      case Code::XCall: {
        defined(I.a, "the callee");
        check_memory(I.c);
        const Allocation& target = callee_allocation(V[I.a]);
        uint32_t first = static_cast<uint32_t>(I.imm), nargs = static_cast<uint32_t>((I.imm >> 32) & 0xFFFF);
        uint32_t nxmm = static_cast<uint32_t>(I.imm >> 48);
        gather_arguments(*cf, V, U, first, nargs + nxmm);
        ret_xmm_[0] = ret_xmm_[1] = kX64Junk;
        ret_xmm_undef_[0] = ret_xmm_undef_[1] = 1;
        vec_ret_set_ = false;
        const uint8_t vector_mask = vec_out_mask_;  // I.aux: the xmm registers the XVec before loaded
        vec_out_mask_ = 0;
        if (target.kind == AllocKind::Function && (nxmm > 0 || vector_mask)) {
          // Arguments by register: rdi..r9 are 0-5 (unpassed ones undefined), xmm0.. from 6.
          const size_t gprs = x64::kArgRegs.size();
          arg_values_.insert(arg_values_.begin() + nargs, gprs - nargs, kX64Junk);
          // (a variadic callee saves every argument register, passed or not: junk, not undefined)
          bool variadic = program_.function(target.index).fn->signature.variadic;
          arg_undef_.insert(arg_undef_.begin() + nargs, gprs - nargs, variadic ? 0 : 1);
          // The float arguments take the xmm registers no 16-byte vector is in
          // (whose low halves are junk here: x64:v128.param reads them whole).
          for (uint32_t r = 0; r < nxmm + static_cast<uint32_t>(std::popcount(vector_mask)); ++r)
            if ((vector_mask >> r) & 1) {
              arg_values_.insert(arg_values_.begin() + static_cast<std::ptrdiff_t>(gprs + r), kX64Junk);
              arg_undef_.insert(arg_undef_.begin() + static_cast<std::ptrdiff_t>(gprs + r), 0);
            }
          nargs = static_cast<uint32_t>(gprs + nxmm + std::popcount(vector_mask));
          // The whole xmm registers, for the callee's x64:v128.param: a
          // vector's 16 bytes, a float's in the low 8 (the rest zero).
          vec_entry_.emplace_back();
          for (uint32_t r = 0; r + gprs < nargs; ++r) {
            if ((vector_mask >> r) & 1) std::memcpy(vec_entry_.back().data() + 16 * r, vec_out_.data() + 16 * r, 16);
            else std::memcpy(vec_entry_.back().data() + 16 * r, &arg_values_[gprs + r], 8);
          }
        }
        if (vector_mask && target.kind != AllocKind::Function)
          throw RuntimeError("a 16-byte vector in an xmm register passed to a C library function "
                             "(pipe-run models none; natively only)");
        if (target.kind == AllocKind::Function) {
          frames_.back().pc = static_cast<uint32_t>(ip - code);
          size_t base = frames_.back().base + cf->num_values;
          uint64_t outgoing = cf->outgoing != kNone ? V[cf->outgoing] : 0;
          const CompiledFunction& next = program_.function(target.index);
          const BlockCode& entry = push_frame(next, base, arg_values_.data(), arg_undef_.data(), nargs, outgoing);
          if (nxmm > 0 || vector_mask) frames_.back().vectors = static_cast<uint32_t>(vec_entry_.size() - 1);
          cf = &next;
          code = cf->code.data();
          ip = code + entry.first;
          V = values_.data() + base;
          U = undef_.data() + base;
          continue;
        }
        Builtin builtin = library_callee(*cf, target, V[I.a], first, nargs + nxmm);
        xmm_args_.assign(arg_values_.begin() + nargs, arg_values_.end());
        arg_values_.resize(nargs);
        if (Libc::is_int128_helper(builtin)) {  // an __int128 result in rax:rdx, a float's in xmm0
          auto [rax, rdx] = libc.call_int128_x64(builtin, arg_values_, xmm_args_);
          bool floating = program_.extern_result_float()[target.index];
          if (floating) ret_xmm_[0] = rax, ret_xmm_undef_[0] = 0;
          V[I.dst] = floating ? kX64Junk : rax;
          U[I.dst] = floating;
          V[I.b] = floating ? kX64Junk : rdx;
          U[I.b] = floating;
          new_memory(I.node);
          break;
        }
        if (nxmm > 0) libc.set_x64_float_args(nargs, xmm_args_);
        libc.set_x64_call(nargs);
        if ((nargs == x64::kArgRegs.size() || nxmm == x64::kXmmArgRegs.size() || Libc::is_printf_family(builtin) ||
             Libc::takes_stack_arguments(builtin)) &&
            cf->outgoing != kNone) {
          const uint8_t* area = mem_.at(V[cf->outgoing], cf->outgoing_size, Access::Read);
          for (uint64_t off = 0; off + 8 <= cf->outgoing_size; off += 8) arg_values_.push_back(read_le(area + off, 8));
        }
        uint64_t result = libc.call(builtin, arg_values_, cf->index, I.node);
        uint8_t bits = program_.extern_result_bits()[target.index];
        if (program_.extern_result_float()[target.index]) {  // in xmm0 (read by the call's XCallXmm)
          ret_xmm_[0] = result, ret_xmm_undef_[0] = 0;
          bits = 0;
        }
        if (auto complex = libc.take_xmm_result()) {  // a complex result: xmm0, xmm1
          ret_xmm_[0] = (*complex)[0], ret_xmm_[1] = (*complex)[1];
          ret_xmm_undef_[0] = ret_xmm_undef_[1] = 0;
        }
        if (auto pair = libc.take_x87_result()) {  // a complex long double: st(0) real, st(1) imaginary
          if (x87_depth_ + 2 > kX87Depth) throw RuntimeError("the x87 register stack is full");
          x87_[x87_depth_++] = (*pair)[1];
          x87_[x87_depth_++] = (*pair)[0];
        }
        V[I.dst] = bits ? x64_junk_above(result, bits) : kX64Junk;
        U[I.dst] = bits == 0;
        V[I.b] = kX64Junk;
        U[I.b] = 1;
        new_memory(I.node);
        break;
      }
      case Code::XVec: {
        const uint8_t r = I.aux;
        if (I.bits == kVecArg || I.bits == kVecResult) {
          if (cf->outgoing == kNone) throw RuntimeError("a 16-byte vector call with no outgoing argument area");
          uint64_t at = V[cf->outgoing] + I.imm;
          if (I.bits == kVecArg) {
            std::memcpy(vec_out_.data() + 16 * r, mem_.at(at, 16, Access::Read), 16);
            vec_out_mask_ = static_cast<uint8_t>(vec_out_mask_ | (1u << r));
          } else {
            if (!vec_ret_set_)
              throw RuntimeError("the call's 16-byte vector result is undefined (no x64:v128.ret left one in xmm0)");
            std::memcpy(mem_.at(at, 16, Access::Write), vec_ret_, 16);
          }
          break;
        }
        defined(I.a, "the address of a 16-byte vector");
        check_memory(I.c);
        if (I.bits == kVecParam) {
          // What the caller had in xmm r (zeros where it passed nothing: a
          // variadic callee saves every register, passed or not).
          uint32_t k = frames_.back().vectors;
          uint8_t* dst = mem_.at(V[I.a] + I.imm, 16, Access::Write);
          if (k != kNone) std::memcpy(dst, vec_entry_[k].data() + 16 * r, 16);
          else std::memset(dst, 0, 16);
        } else {
          std::memcpy(vec_ret_, mem_.at(V[I.a] + I.imm, 16, Access::Read), 16);
          vec_ret_set_ = true;
        }
        new_memory(I.dst);
        break;
      }
      case Code::XCallXmm:
        V[I.dst] = ret_xmm_[0], U[I.dst] = ret_xmm_undef_[0];
        V[I.b] = ret_xmm_[1], U[I.b] = ret_xmm_undef_[1];
        break;
      case Code::XXchg:
        std::swap(V[I.a], V[I.b]);
        std::swap(U[I.a], U[I.b]);
        break;
      case Code::XClobber:
        for (uint64_t m = I.imm & 0xFFFFFFFFu; m; m &= m - 1) {
          uint32_t r = I.a + static_cast<uint32_t>(std::countr_zero(m));
          V[r] = kX64Junk;
          U[r] = 1;
        }
        if (I.imm >> 32) V[I.a + kFlagsLoc] = 0, U[I.a + kFlagsLoc] = 1;
        break;
      case Code::XJcc:
        if constexpr (kTrace) trace(*cf, I, V, U);
        defined(I.a, "the flags of the branch");
        take_edge(x64_cond(static_cast<x64::Cond>(I.aux), V[I.a]) ? I.b : I.c);
        continue;
      case Code::XRet: {
        if constexpr (kTrace) trace(*cf, I, V, U);
        check_memory(I.a);
        // The values go in order to the next general register (rax, rdx) or,
        // when x64:ret's mask bit is set, the next xmm register (xmm0, xmm1).
        ret_xmm_[0] = ret_xmm_[1] = kX64Junk;
        ret_xmm_undef_[0] = ret_xmm_undef_[1] = 1;
        uint64_t gpr[2] = {kX64Junk, kX64Junk};
        uint8_t gpr_undef[2] = {1, 1};
        uint32_t gpr_from[2] = {kNone, kNone};
        size_t ngpr = 0, nxmm = 0;
        for (size_t k = 0; k < 2; ++k) {
          uint32_t v = k ? I.c : I.b;
          if (v == kNone) continue;
          if ((I.aux >> k) & 1) {
            ret_xmm_[nxmm] = V[v], ret_xmm_undef_[nxmm++] = U[v];
          } else {
            gpr[ngpr] = V[v], gpr_undef[ngpr] = U[v], gpr_from[ngpr++] = v;
          }
        }
        bool has_rax = ngpr > 0;
        uint64_t rax = has_rax ? x64_junk_above(gpr[0], cf->result_bits) : kX64Junk;
        uint64_t rdx = gpr[1];
        uint8_t rax_undef = gpr_undef[0], rdx_undef = gpr_undef[1];
        if (cf->ra) check_restored(V + cf->regs, U + cf->regs);
        if (frames_.size() == 1) {
          if (has_rax && rax_undef) defined(gpr_from[0], "main's return value");
          exit_status_ = has_rax ? static_cast<int>(rax & 0xFF) : 0;
          return;
        }
        pop_frame();
        const Insn& call = ip[-1];
        V[call.dst] = rax;
        U[call.dst] = rax_undef;
        V[call.b] = rdx;
        U[call.b] = rdx_undef;
        new_memory(call.node);
        if constexpr (kTrace) trace(*cf, call, V, U);
        continue;
      }
    }
    if constexpr (kTrace) trace(*cf, I, V, U);
  }
  } catch (const RuntimeError&) {
    frames_.back().pc = static_cast<uint32_t>(ip - code);  // names the failing instruction
    throw;
  }
}

void Interpreter::trace(const CompiledFunction& cf, const Insn& insn, const uint64_t* V, const uint8_t* U) const {
  const Function& fn = *cf.fn;
  std::string line = "pipe-run: trace: " + fn.name + ": " + print_node_line(fn, insn.node);
  switch (insn.code) {
    case Code::Jump:
    case Code::If:
    case Code::Return:
    case Code::XJcc:
    case Code::XRet: break;
    case Code::XClobber: line += "  -> clobbers"; break;
    case Code::XXchg:
      line += "  -> " + value_name(cf, insn.a) + " <-> " + value_name(cf, insn.b);
      break;
    case Code::Store:
    case Code::StoreV:
    case Code::CopyMem:
    case Code::VaStart:
    case Code::StackRestore:
    case Code::XStore:
    case Code::XRepMovsb:
    case Code::V128:
    case Code::VecStore: line += "  -> memory"; break;
    case Code::Atomic:
      if (insn.dst == kNone) line += "  -> memory";
      else line += U[insn.dst] ? "  -> undefined" : "  -> " + std::to_string(V[insn.dst]);
      break;
    default:
      line += U[insn.dst] ? "  -> undefined" : "  -> " + std::to_string(V[insn.dst]);
      break;
  }
  program_.output().err(line + "\n");
}

void Interpreter::trace_moves(const CompiledFunction& cf, const Move* moves, uint32_t count, const uint64_t* V,
                              const uint8_t* U) const {
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t phi = moves[i].dst;
    program_.output().err("pipe-run: trace: " + cf.fn->name + ": " + print_node_line(*cf.fn, phi) +
                          (U[phi] ? "  -> undefined\n" : "  -> " + std::to_string(V[phi]) + "\n"));
  }
}

std::vector<uint64_t> Interpreter::main_arguments(const std::vector<std::string>& argv, size_t params) {
  auto block = [&](const void* bytes, size_t size) {
    if (size > kMaxAllocation) throw RuntimeError("main's arguments are too long");
    mem_.charge(size, "main's arguments");
    Allocation a;
    a.kind = AllocKind::Argv;
    a.size = static_cast<uint32_t>(size);
    a.data = static_cast<uint8_t*>(std::calloc(size ? size : 1, 1));
    if (!a.data) throw std::bad_alloc();
    a.owns_data = true;
    std::memcpy(a.data, bytes, size);
    return make_pointer(mem_.add(a), 0);
  };
  std::vector<uint8_t> pointers(8 * (argv.size() + 1), 0);
  for (size_t i = 0; i < argv.size(); ++i) write_le(&pointers[8 * i], block(argv[i].c_str(), argv[i].size() + 1), 8);
  uint64_t argv_ptr = block(pointers.data(), pointers.size());
  uint8_t no_env[8] = {0};
  std::vector<uint64_t> args = {argv.size(), argv_ptr, block(no_env, 8)};
  args.resize(std::min<size_t>(params, 3));
  return args;
}

std::vector<uint32_t> Interpreter::initializers(bool destructors) const {
  const std::vector<Function>& fns = program_.module().functions;
  std::vector<std::pair<int32_t, uint32_t>> order;
  for (uint32_t i = 0; i < fns.size(); ++i) {
    int32_t priority = destructors ? fns[i].attrs.destructor : fns[i].attrs.constructor;
    if (priority != SymbolAttrs::kNone) order.emplace_back(priority, i);
  }
  std::stable_sort(order.begin(), order.end());
  if (destructors) std::reverse(order.begin(), order.end());
  std::vector<uint32_t> out;
  for (const auto& entry : order) out.push_back(entry.second);
  return out;
}

void Interpreter::run_alone(uint32_t index) {
  const CompiledFunction& cf = program_.function(index);
  std::vector<uint64_t> args(cf.fn->signature.params.size(), 0);
  std::vector<uint8_t> undef(args.size(), 0);
  frames_.clear();
  push_frame(cf, 0, args.data(), undef.data(), args.size());
  if (options_.trace) loop<true>();
  else loop<false>();
  frames_.clear();
}

void Interpreter::runtime_error(const RuntimeError& e, RunResult& result) const {
  uint32_t node = e.node;
  if (node == kNone && !frames_.empty()) {
    const Frame& f = frames_.back();
    node = f.cf->code[f.pc == 0 ? 0 : f.pc - 1].node;
  }
  report(e, node);
  result.status = kRuntimeErrorStatus;
}

// After main returns or exit(): the destructors; an exit() in one ends them.
void Interpreter::run_destructors(RunResult& result) {
  try {
    for (uint32_t f : initializers(true)) run_alone(f);
  } catch (const RuntimeError& e) {
    runtime_error(e, result);
  } catch (const ProgramExit& exit) {
    result.status = exit.status & 0xFF;
    result.abort = exit.abort;
  }
}

RunResult Interpreter::run(const std::vector<std::string>& argv) {
  RunResult result;
  uint32_t main_index = program_.find_function("main");
  if (main_index == kNone) throw FormatError(Where(), "the module has no function 'main' to run");
  const CompiledFunction& main_cf = program_.function(main_index);
  auto start = std::chrono::steady_clock::now();
  bool finished = false;  // main returned or exit() was called: destructors run
  try {
    try {
      for (uint32_t f : initializers(false)) run_alone(f);
      frames_.clear();
      std::vector<uint64_t> args = main_arguments(argv, main_cf.fn->signature.params.size());
      std::vector<uint8_t> undef(args.size(), 0);
      push_frame(main_cf, 0, args.data(), undef.data(), args.size());
      if (options_.trace) loop<true>();
      else loop<false>();
      result.status = exit_status_;
      finished = true;
    } catch (const RuntimeError& e) {
      runtime_error(e, result);
    }
  } catch (const ProgramExit& exit) {
    result.status = exit.status & 0xFF;
    result.abort = exit.abort;
    finished = !exit.abort;
  }
  if (finished) run_destructors(result);
  result.steps = steps_;
  program_.output().flush();
  if (options_.stats) {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char line[160];
    std::snprintf(line, sizeof line, "pipe-run: stats: %llu nodes in %.3f s (%.1f M nodes/s)\n",
                  static_cast<unsigned long long>(steps_), seconds, seconds > 0 ? steps_ / seconds / 1e6 : 0.0);
    program_.output().err(line);
  }
  return result;
}

void Interpreter::report(const RuntimeError& e, uint32_t node) const {
  const Module& m = program_.module();
  auto location = [&](const Function& fn, uint32_t n) -> std::string {
    if (n >= fn.nodes.size() || !fn.nodes[n].loc.valid()) return "";
    const Loc& loc = fn.nodes[n].loc;
    std::string file = loc.file < m.header.files.size() ? m.header.files[loc.file] : "?";
    return file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
  };
  std::string text;
  if (frames_.empty()) {
    text = "pipe-run: runtime error: " + std::string(e.what()) + "\n";
  } else {
    const Function& fn = *frames_.back().cf->fn;
    text = "pipe-run: " + fn.name + ": " + node_name(node) + ": runtime error: " + e.what() + "\n";
    if (std::string loc = location(fn, node); !loc.empty()) text += "  at " + loc + "\n";
    text += "  " + print_node_line(fn, node) + "\n";
    constexpr size_t kShown = 10;
    size_t depth = frames_.size();
    for (size_t k = 1; k < depth && k <= kShown; ++k) {
      const Frame& f = frames_[depth - 1 - k];
      uint32_t call = f.cf->code[f.pc - 1].node;
      std::string loc = location(*f.cf->fn, call);
      text += "  called from " + f.cf->fn->name + ": " + node_name(call) + (loc.empty() ? "" : " (" + loc + ")") + "\n";
    }
    if (depth - 1 > kShown) text += "  ... and " + std::to_string(depth - 1 - kShown) + " more calls\n";
  }
  program_.output().flush();
  program_.output().err(text);
}

void Interpreter::enter_registers(const CompiledFunction& cf, uint64_t* V, uint8_t* U, const uint64_t* args,
                                  size_t nargs) {
  uint64_t* R = V + cf.regs;
  uint8_t* RU = U + cf.regs;
  if (frames_.empty()) {
    for (unsigned r = 0; r < kFlagsLoc; ++r) {
      bool saved = x64::kCalleeSaved & (x64::RegMask{1} << r);
      R[r] = saved ? caller_register(r) : kX64Junk;
      RU[r] = !saved;
    }
    for (size_t i = 0; i < nargs && i < x64::kArgRegs.size(); ++i) {
      R[static_cast<unsigned>(x64::kArgRegs[i])] = args[i];
      RU[static_cast<unsigned>(x64::kArgRegs[i])] = 0;
    }
    return;
  }
  const Frame& caller = frames_.back();
  std::memcpy(R, values_.data() + caller.base + caller.cf->regs, kFlagsLoc * sizeof(uint64_t));
  std::memcpy(RU, undef_.data() + caller.base + caller.cf->regs, kFlagsLoc);
  // A variadic callee saves every argument register, passed or not: one
  // the caller never wrote holds junk, which the save may store.
  // (the xmm ones too: its prologue stores xmm0-xmm7).
  if (cf.fn->signature.variadic) {
    for (size_t i = 0; i < x64::kArgRegs.size(); ++i) {  // the ones passed are defined
      unsigned r = static_cast<unsigned>(x64::kArgRegs[i]);
      if (RU[r]) R[r] = kX64Junk, RU[r] = 0;
    }
    for (x64::Reg x : x64::kXmmArgRegs)
      if (RU[static_cast<unsigned>(x)]) R[static_cast<unsigned>(x)] = kX64Junk, RU[static_cast<unsigned>(x)] = 0;
  }
}

void Interpreter::check_restored(const uint64_t* regs, const uint8_t* undef) const {
  const uint64_t* entry = nullptr;
  const uint8_t* entry_undef = nullptr;
  if (frames_.size() > 1) {
    const Frame& caller = frames_[frames_.size() - 2];
    entry = values_.data() + caller.base + caller.cf->regs;
    entry_undef = undef_.data() + caller.base + caller.cf->regs;
  }
  for (unsigned r = 0; r < kFlagsLoc; ++r) {
    if (!(x64::kCalleeSaved & (x64::RegMask{1} << r))) continue;
    uint64_t want = entry ? entry[r] : caller_register(r);
    bool want_undef = entry ? entry_undef[r] != 0 : false;
    if (regs[r] == want && (undef[r] != 0) == want_undef) continue;
    auto text = [](uint64_t v, bool u) { return u ? std::string("an undefined value") : hex(v); };
    throw RuntimeError("callee-saved register " + std::string(x64::reg_name(static_cast<x64::Reg>(r))) +
                       " is not restored: it holds " + text(regs[r], undef[r]) + ", the caller's value is " +
                       text(want, want_undef));
  }
}

}  // namespace

std::string value_name(const CompiledFunction& cf, uint32_t v) {
  if (cf.ra && v >= cf.regs && v < cf.regs + kFirstSpillLoc)
    return v == cf.regs + kFlagsLoc ? "rflags" : std::string(x64::reg_name(static_cast<x64::Reg>(v - cf.regs)));
  if (cf.ra && v >= cf.regs && v < cf.regs + kFirstSpillLoc + cf.spill_slots)
    return "s" + std::to_string(v - cf.regs - kFirstSpillLoc);
  return node_name(v);
}

RunResult run_main(Program& program, const std::vector<std::string>& argv, const RunOptions& options) {
  Interpreter interpreter(program, options);
  return interpreter.run(argv);
}

}  // namespace pl::run
