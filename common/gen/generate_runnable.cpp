// generate_runnable.cpp - random runnable programs (see generate_runnable.h).
//
// Like generate.cpp, each function is built at the ssa level over a random
// CFG skeleton (block i falls through to i+1; an `if` may add an edge forward
// or back, so loops and merges of any number of edges appear) and converted
// to cfg or son at the end. What makes the program runnable:
//
//  - Termination. A `fuel` value (an i32 phi at every merge) starts at a small
//    constant and every block subtracts one; an `if` whose edge goes back
//    takes it only while the fuel is positive (`and cond, 0 < fuel`, or `or
//    cond, fuel <= 0` when the back edge is the false side). Without back
//    edges the skeleton is acyclic, so a call runs at most (fuel + 1) * blocks
//    blocks. Function i calls only functions j > i: no recursion.
//  - No undefined behaviour. Every value has a type and every operand has the
//    type its opcode's literal names (block 0 defines a constant of every
//    type, and it dominates every block, so a value of each type is always
//    at hand). Shift amounts are masked below the width; divisors are
//    `(y >> 1) | 1`, positive and non-zero, so neither a zero divisor nor
//    INT_MIN / -1 can occur. Memory is a 32-byte stack slot that block 0
//    initialises, and a 64-byte global whose bytes are all initialised;
//    accesses are aligned and inside them. Pointers are never printed,
//    compared or converted. No `undefined` node is made.
//  - Observable output. Values are printed with printf("%lld\n") along the
//    way (a float or double by its bits), the return block of main prints
//    one more, and main's result is the exit status.
//  - Floating point (RunnableOptions::floats, on by default; off, the random
//    stream is the one from before floats): f32 and f64 constants (signed
//    zeros, infinities, subnormals, the largest finite, NaNs quiet and
//    signalling with payloads and both signs), fadd fsub fmul fdiv, fneg
//    fabs fsqrt, every ordered and unordered compare, sitofp and uitofp from
//    every integer width, fpext, fptrunc, bitcasts both ways, loads and
//    stores of both types, float merge phis, parameters and results. All
//    of IEEE arithmetic is defined (eval_float.h: SSE2's NaN rules), but
//    fptosi/fptoui out of range is not, so they only convert values made in
//    range: a converted i8/i16 times 0.5, 0.25 or -0.75 (exact), made
//    non-negative by fabs for fptoui.
// The value of every path is therefore a function of the seed alone, and a
// stage that changes it has changed the program's meaning.
#include "gen/generate_runnable.h"

#include <algorithm>
#include <bit>
#include <map>
#include <random>
#include <string>

#include "ir/dominance.h"
#include "gen/generate.h"
#include "gen/generate_levels.h"

namespace pl {

namespace {

// Value types by index; 0 (i1) never goes to memory or to a signature.
// 5 and 6 (f32, f64) only with RunnableOptions::floats.
constexpr const char* kTypeName[] = {"i1", "i8", "i16", "i32", "i64", "f32", "f64"};
constexpr unsigned kTypeBits[] = {1, 8, 16, 32, 64, 32, 64};
constexpr int kI1 = 0, kI8 = 1, kI16 = 2, kI32 = 3, kI64 = 4, kF32 = 5, kF64 = 6, kNumIntTypes = 5;

bool is_float_type(int t) { return t == kF32 || t == kF64; }
constexpr uint64_t kSlotSize = 32, kGlobalSize = 64;

bool level_ok(Level level) { return level == Level::Cfg || level == Level::Ssa || level == Level::Son; }

std::mt19937_64 signature_rng(const RunnableOptions& opts, uint32_t index) {
  return std::mt19937_64(opts.seed * 0x9E3779B97F4A7C15ull + index * 7919u + 17);
}

// Parameter and result types of function `index` (main is `() -> i32`):
// derived from the seed and the index alone, so a caller knows the callee's
// signature without building it.
struct TypedSignature {
  std::vector<int> params;
  int result = -1;  // -1: void
};

TypedSignature typed_signature(const RunnableOptions& opts, uint32_t index) {
  TypedSignature sig;
  if (index == 0) {
    sig.result = kI32;
    return sig;
  }
  std::mt19937_64 rng = signature_rng(opts, index);
  auto pick = [&](uint64_t n) { return pick_below(rng, n); };
  // A parameter or result type: with floats, one in four is f32 or f64.
  auto value_type = [&] {
    if (opts.floats && pick(4) == 0) return kF32 + static_cast<int>(pick(2));
    return 1 + static_cast<int>(pick(4));
  };
  for (uint64_t k = pick(4); k > 0; --k) sig.params.push_back(value_type());
  sig.result = pick(100) < 15 ? -1 : value_type();
  return sig;
}

std::string function_name(uint32_t index) { return index == 0 ? "main" : "f" + std::to_string(index); }

class RunnableBuilder {
 public:
  RunnableBuilder(const RunnableOptions& opts, uint32_t index)
      : opts_(opts), index_(index), rng_(opts.seed * 1000003u + index * 31u + 5), sig_(typed_signature(opts, index)) {}
  Function build();

 private:
  struct Value {
    NodeId id;
    int type;
  };

  uint64_t pick(uint64_t n) { return pick_below(rng_, n); }
  bool chance(int percent) { return pick(100) < static_cast<uint64_t>(percent); }
  int int_type() { return 1 + static_cast<int>(pick(4)); }
  int int_any_type() { return chance(8) ? kI1 : int_type(); }
  int float_type() { return chance(50) ? kF32 : kF64; }
  // A merge phi's or a printed value's type: with floats, one in five is
  // f32 or f64.
  int any_type() { return opts_.floats && chance(20) ? float_type() : int_any_type(); }
  int num_types() const { return opts_.floats ? kNumIntTypes + 2 : kNumIntTypes; }

  NodeId add(Op op, ControlList control, LiteralList lits, InputList inputs);
  NodeId emit(Op op, ControlList control, LiteralList lits, InputList inputs);
  NodeId block_node() const { return fn_.cfg->blocks[cur_].node; }
  Literal type_lit(int t) const { return Literal::string(kTypeName[t]); }
  NodeId constant(int t, int64_t v) { return emit(Const, {}, {type_lit(t), Literal::integer(v)}, {}); }
  NodeId define(NodeId id, int t) {
    values_[cur_].push_back({id, t});
    return id;
  }
  int64_t interesting_constant(int t);
  NodeId float_constant(int t);

  void make_skeleton(uint32_t blocks);
  Value pick_value(uint32_t b, int t);
  Value pick_any(uint32_t b) { return pick_value(b, any_type()); }
  void fill_block(uint32_t b);
  void open_entry();
  void open_merge(uint32_t b);
  void emit_operation();
  void emit_binary();
  void emit_shift();
  void emit_divide();
  void emit_compare();
  void emit_unary();
  void emit_convert();
  void emit_float_operation();
  void emit_float_to_int();
  NodeId address(int t);
  void emit_load(bool is_volatile);
  void emit_store(bool is_volatile);
  void emit_copy();
  void emit_call();
  void emit_print(Value v);
  void emit_terminator(uint32_t b);
  NodeId branch_condition(uint32_t b);
  void fill_phis();
  void to_cfg_level();
  void to_son_level();

  const RunnableOptions& opts_;
  uint32_t index_;
  std::mt19937_64 rng_;
  TypedSignature sig_;
  Function fn_;
  BlockGraph graph_;
  DomTree tree_;
  uint32_t cur_ = 0;
  NodeId slot_ = 0;                           // the stack slot's address
  std::vector<std::vector<Value>> values_;    // values defined per block
  std::vector<NodeId> mem_in_, mem_out_;      // memory state per block
  std::vector<NodeId> fuel_in_, fuel_out_;    // fuel per block
  struct Merge {
    NodeId mem = 0, fuel = 0, value = 0;
    int type = kI32;
  };
  std::map<uint32_t, Merge> merges_;          // phis of each merge block
};

NodeId RunnableBuilder::add(Op op, ControlList control, LiteralList lits, InputList inputs) {
  Node n;
  n.op = op;
  n.control = std::move(control);
  n.literals = std::move(lits);
  n.inputs = std::move(inputs);
  if (chance(40)) n.loc = Loc{0, static_cast<uint32_t>(1 + pick(200)), static_cast<uint32_t>(1 + pick(40))};
  fn_.nodes.push_back(std::move(n));
  return static_cast<NodeId>(fn_.nodes.size() - 1);
}

NodeId RunnableBuilder::emit(Op op, ControlList control, LiteralList lits, InputList inputs) {
  NodeId id = add(op, std::move(control), std::move(lits), std::move(inputs));
  fn_.cfg->blocks[cur_].nodes.push_back(id);
  return id;
}

int64_t RunnableBuilder::interesting_constant(int t) {
  unsigned bits = kTypeBits[t];
  switch (pick(6)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return -1;
    case 3: return bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));          // the minimum
    case 4: return bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;        // the maximum
    default: return static_cast<int64_t>(pick(200)) - 100;
  }
}

void RunnableBuilder::make_skeleton(uint32_t blocks) {
  graph_.succs.assign(blocks, {});
  graph_.preds.assign(blocks, {});
  for (uint32_t b = 0; b + 1 < blocks; ++b) {
    graph_.succs[b].push_back(b + 1);
    if (chance(50)) {
      uint32_t other = chance(35) ? static_cast<uint32_t>(1 + pick(b + 1))  // back edge (loop)
                                  : static_cast<uint32_t>(b + 1 + pick(blocks - b - 1));
      if (chance(50)) graph_.succs[b].push_back(other);
      else graph_.succs[b].insert(graph_.succs[b].begin(), other);
    }
  }
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t s : graph_.succs[b]) graph_.preds[s].push_back(b);
  tree_ = compute_dom_tree(graph_);
}

// A value of type t available at the end of block b: from b or a dominator.
// Block 0 defines one of every type, so the walk always finds one.
RunnableBuilder::Value RunnableBuilder::pick_value(uint32_t b, int t) {
  uint32_t at = b;
  while (tree_.idom[at] != DomTree::kNone && chance(35)) at = tree_.idom[at];
  for (;;) {
    std::vector<Value> fits;
    for (const Value& v : values_[at])
      if (v.type == t) fits.push_back(v);
    if (!fits.empty()) return fits[pick(fits.size())];
    at = tree_.idom[at];
  }
}

void RunnableBuilder::open_entry() {
  NodeId block = block_node();
  mem_in_[0] = emit(EntryMem, {block}, {}, {});
  for (uint32_t p = 0; p < sig_.params.size(); ++p)
    define(emit(Param, {block}, {type_lit(sig_.params[p]), Literal::integer(p)}, {}), sig_.params[p]);
  for (int t = 0; t < kNumIntTypes; ++t)
    define(constant(t, t == kI1 ? static_cast<int64_t>(pick(2)) : interesting_constant(t)), t);
  for (int t = kNumIntTypes; t < num_types(); ++t) define(float_constant(t), t);
  fuel_in_[0] = define(constant(kI32, static_cast<int64_t>(index_ == 0 ? 4 + pick(8) : 1 + pick(4))), kI32);
  slot_ = emit(StackSlot, {}, {Literal::integer(kSlotSize), Literal::integer(8)}, {});
  NodeId mem = mem_in_[0];
  for (uint64_t off = 0; off < kSlotSize; off += 8) {
    NodeId addr = off == 0 ? slot_ : emit(Add, {}, {Literal::string("ptr")}, {slot_, constant(kI64, static_cast<int64_t>(off))});
    mem = emit(Store, {block}, {type_lit(kI64)}, {mem, addr, constant(kI64, interesting_constant(kI64))});
  }
  mem_in_[0] = mem;
}

void RunnableBuilder::open_merge(uint32_t b) {
  NodeId block = block_node();
  InputList none(graph_.preds[b].size(), 0);  // filled by fill_phis
  Merge m;
  m.type = any_type();
  m.mem = emit(SsaPhi, {block}, {}, none);
  m.fuel = emit(SsaPhi, {block}, {}, none);
  m.value = emit(SsaPhi, {block}, {}, none);
  define(m.fuel, kI32);
  define(m.value, m.type);
  merges_[b] = m;
  mem_in_[b] = m.mem;
  fuel_in_[b] = m.fuel;
}

void RunnableBuilder::emit_binary() {
  static constexpr Op kOps[] = {Add, Sub, Mul, And, Or, Xor};
  int t = int_any_type();
  Op op = kOps[pick(std::size(kOps))];
  define(emit(op, {}, {type_lit(t)}, {pick_value(cur_, t).id, pick_value(cur_, t).id}), t);
}

void RunnableBuilder::emit_shift() {
  static constexpr Op kOps[] = {Shl, LShr, AShr};
  int t = int_type();
  NodeId amount = emit(And, {}, {type_lit(t)}, {pick_value(cur_, t).id, constant(t, kTypeBits[t] - 1)});
  define(emit(kOps[pick(3)], {}, {type_lit(t)}, {pick_value(cur_, t).id, amount}), t);
}

void RunnableBuilder::emit_divide() {
  static constexpr Op kOps[] = {SDiv, UDiv, SRem, URem};
  int t = int_type();
  NodeId half = emit(LShr, {}, {type_lit(t)}, {pick_value(cur_, t).id, constant(t, 1)});
  NodeId divisor = emit(Or, {}, {type_lit(t)}, {half, constant(t, 1)});
  define(emit(kOps[pick(4)], {block_node()}, {type_lit(t)}, {pick_value(cur_, t).id, divisor}), t);
}

void RunnableBuilder::emit_compare() {
  static constexpr Op kOps[] = {Eq, Ne, SLt, SLe, ULt, ULe};
  int t = int_any_type();
  define(emit(kOps[pick(std::size(kOps))], {}, {type_lit(t)}, {pick_value(cur_, t).id, pick_value(cur_, t).id}), kI32);
}

void RunnableBuilder::emit_unary() {
  int t = int_any_type();
  define(emit(chance(50) ? Neg : Not, {}, {type_lit(t)}, {pick_value(cur_, t).id}), t);
}

void RunnableBuilder::emit_convert() {
  int from = int_any_type(), to = int_any_type();
  if (from == to) to = from == kI64 ? kI32 : kI64;
  Op op = to < from ? Trunc : chance(50) ? SExt : ZExt;
  define(emit(op, {}, {type_lit(from), type_lit(to)}, {pick_value(cur_, from).id}), to);
}

// An f32 or f64 constant (generate_levels.h, float_literal_bits).
NodeId RunnableBuilder::float_constant(int t) {
  uint64_t k = pick(gen::kFloatConstantChoices);
  double ordinary = (static_cast<double>(pick(2000)) - 1000.0) / 8.0;
  return emit(FConst, {}, {type_lit(t), Literal::float_bits(gen::float_literal_bits(t == kF32, k, ordinary))}, {});
}

void RunnableBuilder::emit_float_operation() {
  static constexpr Op kBinary[] = {FAdd, FSub, FMul, FDiv};
  static constexpr Op kUnary[] = {FNeg, FAbs, FSqrt};
  static constexpr Op kCompare[] = {FOEq, FONe, FOLt, FOLe, FOGt, FOGe, FOrd,
                                    FUEq, FUNe, FULt, FULe, FUGt, FUGe, FUno};
  int t = float_type();
  Literal tl = type_lit(t);
  uint64_t r = pick(100);
  if (r < 10) {
    define(float_constant(t), t);
  } else if (r < 34) {
    NodeId v = define(emit(kBinary[pick(4)], {}, {tl}, {pick_value(cur_, t).id, pick_value(cur_, t).id}), t);
    if (chance(25)) emit_print({v, t});  // most float values would otherwise never be seen
  } else if (r < 44) {
    define(emit(kUnary[pick(3)], {}, {tl}, {pick_value(cur_, t).id}), t);
  } else if (r < 64) {
    define(emit(kCompare[pick(std::size(kCompare))], {}, {tl}, {pick_value(cur_, t).id, pick_value(cur_, t).id}), kI32);
  } else if (r < 72) {
    int from = int_type();
    define(emit(chance(50) ? SIToFP : UIToFP, {}, {type_lit(from), tl}, {pick_value(cur_, from).id}), t);
  } else if (r < 78) {
    int from = t == kF32 ? kF64 : kF32;
    define(emit(t == kF64 ? FPExt : FPTrunc, {}, {type_lit(from), tl}, {pick_value(cur_, from).id}), t);
  } else if (r < 85) {
    int bits = t == kF32 ? kI32 : kI64;
    if (chance(50)) define(emit(Bitcast, {}, {type_lit(bits), tl}, {pick_value(cur_, bits).id}), t);
    else define(emit(Bitcast, {}, {tl, type_lit(bits)}, {pick_value(cur_, t).id}), bits);
  } else if (r < 90) {
    emit_float_to_int();
  } else if (r < 95) {
    define(emit(Load, {block_node()}, {tl}, {mem_out_[cur_], address(t)}), t);
  } else {
    NodeId addr = address(t);
    NodeId& mem = mem_out_[cur_];
    mem = emit(Store, {block_node()}, {tl}, {mem, addr, pick_value(cur_, t).id});
  }
}

// fptosi/fptoui only of a value in range (the header comment).
void RunnableBuilder::emit_float_to_int() {
  static constexpr double kScales[] = {0.5, 0.25, -0.75};
  int t = float_type(), from = chance(50) ? kI8 : kI16, to = chance(50) ? kI32 : kI64;
  Literal tl = type_lit(t);
  NodeId x = emit(SIToFP, {}, {type_lit(from), tl}, {pick_value(cur_, from).id});
  double scale = kScales[pick(3)];
  uint64_t scale_bits = t == kF32 ? std::bit_cast<uint64_t>(static_cast<double>(static_cast<float>(scale)))
                                  : std::bit_cast<uint64_t>(scale);
  x = emit(FMul, {}, {tl}, {x, emit(FConst, {}, {tl, Literal::float_bits(scale_bits)}, {})});
  bool is_unsigned = chance(50);
  if (is_unsigned) x = emit(FAbs, {}, {tl}, {x});
  define(emit(is_unsigned ? FPToUI : FPToSI, {}, {tl, type_lit(to)}, {x}), to);
}

// An aligned address of a t inside the stack slot or the global.
NodeId RunnableBuilder::address(int t) {
  bool global = chance(40);
  uint64_t size = global ? kGlobalSize : kSlotSize;
  uint64_t bytes = kTypeBits[t] / 8;
  uint64_t offset = pick(size / bytes) * bytes;
  NodeId base = global ? emit(SymAddr, {}, {Literal::string("gmem")}, {}) : slot_;
  if (offset == 0) return base;
  return emit(Add, {}, {Literal::string("ptr")}, {base, constant(kI64, static_cast<int64_t>(offset))});
}

void RunnableBuilder::emit_load(bool is_volatile) {
  int t = int_type();
  NodeId addr = address(t);
  NodeId& mem = mem_out_[cur_];
  if (!is_volatile) {
    define(emit(Load, {block_node()}, {type_lit(t)}, {mem, addr}), t);
    return;
  }
  NodeId load = emit(LoadV, {block_node()}, {type_lit(t)}, {mem, addr});
  mem = emit(Proj, {}, {Literal::integer(0)}, {load});
  define(emit(Proj, {}, {Literal::integer(1)}, {load}), t);
}

void RunnableBuilder::emit_store(bool is_volatile) {
  int t = int_type();
  NodeId addr = address(t);
  NodeId& mem = mem_out_[cur_];
  mem = emit(is_volatile ? StoreV : Store, {block_node()}, {type_lit(t)}, {mem, addr, pick_value(cur_, t).id});
}

void RunnableBuilder::emit_copy() {
  NodeId dst = address(kI64), src = address(kI64);
  NodeId& mem = mem_out_[cur_];
  mem = emit(Copy, {block_node()}, {Literal::integer(8), Literal::integer(8)}, {mem, dst, src});
}

void RunnableBuilder::emit_call() {
  uint32_t callee = index_ + 1 + static_cast<uint32_t>(pick(opts_.functions - index_ - 1));
  TypedSignature sig = typed_signature(opts_, callee);
  NodeId target = emit(SymAddr, {}, {Literal::string(function_name(callee))}, {});
  NodeId& mem = mem_out_[cur_];
  InputList args{mem, target};
  for (int t : sig.params) args.push_back(pick_value(cur_, t).id);
  Literal result = sig.result < 0 ? Literal::string("void") : type_lit(sig.result);
  NodeId call = emit(Call, {block_node()}, {result}, args);
  mem = emit(Proj, {}, {Literal::integer(0)}, {call});
  if (sig.result >= 0) define(emit(Proj, {}, {Literal::integer(1)}, {call}), sig.result);
}

void RunnableBuilder::emit_print(Value v) {
  if (is_float_type(v.type)) {  // by its bits
    int bits = v.type == kF32 ? kI32 : kI64;
    v = {emit(Bitcast, {}, {type_lit(v.type), type_lit(bits)}, {v.id}), bits};
  }
  NodeId wide = v.id;
  if (v.type != kI64)
    wide = emit(v.type == kI1 || chance(50) ? ZExt : SExt, {}, {type_lit(v.type), type_lit(kI64)}, {v.id});
  NodeId printf_addr = emit(SymAddr, {}, {Literal::string("printf")}, {});
  NodeId fmt = emit(SymAddr, {}, {Literal::string("fmt")}, {});
  NodeId& mem = mem_out_[cur_];
  NodeId call = emit(Call, {block_node()}, {type_lit(kI32)}, {mem, printf_addr, fmt, wide});
  mem = emit(Proj, {}, {Literal::integer(0)}, {call});
  define(emit(Proj, {}, {Literal::integer(1)}, {call}), kI32);
}

void RunnableBuilder::emit_operation() {
  bool can_call = index_ + 1 < opts_.functions;
  if (opts_.floats && chance(18)) {
    emit_float_operation();
    return;
  }
  uint64_t r = pick(100);
  if (r < 22) emit_binary();
  else if (r < 30) emit_shift();
  else if (r < 36) emit_divide();
  else if (r < 44) emit_compare();
  else if (r < 49) emit_unary();
  else if (r < 57) emit_convert();
  else if (r < 62) {
    int t = int_type();
    define(constant(t, interesting_constant(t)), t);
  }
  else if (r < 71) emit_load(false);
  else if (r < 79) emit_store(false);
  else if (r < 81) emit_load(true);
  else if (r < 83) emit_store(true);
  else if (r < 86) emit_copy();
  else if (r < 93 && can_call) emit_call();
  else if (r < 97) emit_print(pick_any(cur_));
  else emit_binary();
}

// A branch condition; a back edge is taken only while the fuel is positive.
NodeId RunnableBuilder::branch_condition(uint32_t b) {
  const std::vector<uint32_t>& succs = graph_.succs[b];
  bool back_true = succs[0] <= b, back_false = succs[1] <= b;
  if (!back_true && !back_false) return pick_value(b, int_any_type()).id;
  int t = int_any_type();
  NodeId cond = emit(chance(50) ? SLt : Ne, {}, {type_lit(t)}, {pick_value(b, t).id, pick_value(b, t).id});
  NodeId zero = constant(kI32, 0);
  if (back_true) {
    NodeId fuel_left = emit(SLt, {}, {type_lit(kI32)}, {zero, fuel_out_[b]});
    return emit(And, {}, {type_lit(kI32)}, {cond, fuel_left});
  }
  NodeId fuel_gone = emit(SLe, {}, {type_lit(kI32)}, {fuel_out_[b], zero});
  return emit(Or, {}, {type_lit(kI32)}, {cond, fuel_gone});
}

void RunnableBuilder::emit_terminator(uint32_t b) {
  NodeId block = block_node();
  size_t succs = graph_.succs[b].size();
  if (succs == 0) {
    if (index_ == 0) emit_print(pick_any(b));
    InputList inputs{mem_out_[b]};
    if (index_ == 0) {
      // main's exit status in 16..31: never one of the tools' own statuses
      // (1, 2, 3) nor pipe-run's runtime error (70).
      NodeId low = emit(And, {}, {type_lit(kI32)}, {pick_value(b, kI32).id, constant(kI32, 15)});
      inputs.push_back(emit(Or, {}, {type_lit(kI32)}, {low, constant(kI32, 16)}));
    } else if (sig_.result >= 0) {
      inputs.push_back(pick_value(b, sig_.result).id);
    }
    emit(Return, {block}, {}, inputs);
  } else if (succs == 1) {
    emit(Jump, {block}, {}, {});
  } else {
    NodeId cond = branch_condition(b);
    emit(If, {block}, {}, {cond});
  }
}

void RunnableBuilder::fill_block(uint32_t b) {
  cur_ = b;
  if (b == 0) open_entry();
  else if (graph_.preds[b].size() > 1) open_merge(b);
  else {
    mem_in_[b] = mem_out_[graph_.preds[b][0]];
    fuel_in_[b] = fuel_out_[graph_.preds[b][0]];
  }
  mem_out_[b] = mem_in_[b];
  fuel_out_[b] = define(emit(Sub, {}, {type_lit(kI32)}, {fuel_in_[b], constant(kI32, 1)}), kI32);
  uint64_t per_fn = std::max<uint64_t>(10, opts_.nodes / opts_.functions);
  uint64_t budget = std::max<uint64_t>(2, per_fn / fn_.cfg->blocks.size() / 3);
  for (uint64_t k = 0; k < budget; ++k) emit_operation();
  emit_terminator(b);
}

// Phi input i comes along the region's control input i (the i-th entry of
// preds); an `if` that reaches a block twice passes the same values on both
// edges, so the cfg level's slot stores (one per predecessor) are exact.
void RunnableBuilder::fill_phis() {
  for (auto& [b, m] : merges_) {
    std::map<uint32_t, NodeId> value_from;
    for (size_t i = 0; i < graph_.preds[b].size(); ++i) {
      uint32_t p = graph_.preds[b][i];
      if (!value_from.count(p)) value_from[p] = pick_value(p, m.type).id;
      fn_.nodes[m.mem].inputs[i] = mem_out_[p];
      fn_.nodes[m.fuel].inputs[i] = fuel_out_[p];
      fn_.nodes[m.value].inputs[i] = value_from[p];
    }
  }
}

// Each phi becomes slot traffic (generate_levels.h): memory in slot 0,
// each other phi its own slot.
void RunnableBuilder::to_cfg_level() {
  auto add_node = [this](Op op, LiteralList lits, InputList inputs) { return add(op, {}, std::move(lits), std::move(inputs)); };
  int64_t next_slot = 1;
  for (auto& [b, m] : merges_) {
    gen::demote_phi(fn_, graph_, b, m.mem, 0, add_node);
    gen::demote_phi(fn_, graph_, b, m.fuel, next_slot++, add_node);
    gen::demote_phi(fn_, graph_, b, m.value, next_slot++, add_node);
  }
  fn_.dominance.reset();
}

void RunnableBuilder::to_son_level() {
  gen::to_son_control(fn_, graph_, [this](Op op, LiteralList lits, InputList inputs) {
    return add(op, {}, std::move(lits), std::move(inputs));
  });
}

Function RunnableBuilder::build() {
  fn_.name = function_name(index_);
  fn_.linkage = index_ == 0 ? Linkage::External : Linkage::Internal;
  for (int t : sig_.params) fn_.signature.params.push_back(kTypeName[t]);
  fn_.signature.result = sig_.result < 0 ? "void" : kTypeName[sig_.result];
  uint64_t per_fn = std::max<uint64_t>(10, opts_.nodes / opts_.functions);
  uint32_t blocks = static_cast<uint32_t>(std::clamp<uint64_t>(per_fn / 30, 1, 12));
  make_skeleton(blocks);
  fn_.cfg.emplace();
  fn_.cfg->blocks.resize(blocks);
  for (uint32_t b = 0; b < blocks; ++b) fn_.cfg->blocks[b].node = add(b == 0 ? Start : Region, {}, {}, {});
  values_.assign(blocks, {});
  mem_in_.assign(blocks, 0);
  mem_out_.assign(blocks, 0);
  fuel_in_.assign(blocks, 0);
  fuel_out_.assign(blocks, 0);
  for (uint32_t b : tree_.rpo) fill_block(b);
  fill_phis();
  gen::link_blocks(fn_, graph_);
  fn_.dominance = dominance_section(fn_, tree_);
  if (opts_.level == Level::Son) to_son_level();
  if (opts_.level == Level::Cfg) to_cfg_level();
  return std::move(fn_);
}

}  // namespace

bool runnable_level(Level level) { return level_ok(level); }

ModuleHeader generate_runnable_header(const RunnableOptions& opts) {
  ModuleHeader h;
  h.level = opts.level;
  h.files = {"runnable.c"};
  h.externs.push_back({"printf", ExternKind::Function, Signature{{"ptr"}, "i32", true}});
  h.data.push_back({"fmt", Linkage::Internal, 6, 1, true, std::string("%lld\n\0", 6), {}});
  std::mt19937_64 rng(opts.seed ^ 0xC0FFEEull);
  std::string init;
  for (uint64_t i = 0; i < kGlobalSize; ++i) init.push_back(static_cast<char>(rng() & 0xFF));
  h.data.push_back({"gmem", Linkage::Internal, kGlobalSize, 8, false, init, {}});
  return h;
}

Function generate_runnable_function(const RunnableOptions& opts, uint32_t index) {
  return RunnableBuilder(opts, index).build();
}

Module generate_runnable_module(const RunnableOptions& opts) {
  Module m;
  m.header = generate_runnable_header(opts);
  for (uint32_t i = 0; i < opts.functions; ++i) m.functions.push_back(generate_runnable_function(opts, i));
  return m;
}

}  // namespace pl
