// generate.cpp - random valid modules (see generate.h).
//
// Every function is built at the ssa level first and then converted:
//  1. A CFG skeleton: block i always branches to block i+1 (so every block is
//     reachable), and an `if` may add an edge to any later block or back to
//     any block >= 1 (loops); the last block returns. Merges get any number
//     of predecessors, and an `if` may branch twice to the same block.
//  2. Dominators (dominance.h) decide which values a block may use: those of
//     the blocks on its idom chain, and earlier ones in the same block.
//  3. Every merge block gets a memory phi and a value phi; phi inputs are
//     filled in after all blocks exist (back edges bring later values).
//  4. cfg level: instead of phis, values cross blocks through ssa:store /
//     ssa:load slots (memory in slot 0), so no dominance is needed.
//     son level: cfg and dominance dropped, phis renamed, `if` consumed by
//     proj 0/1, which the successor regions list instead of the `if`.
//  5. son-x64 and cfg-x64 (x64_): the same skeleton with x64: instructions
//     (FORMAT.md section 8): params are x64:argreg, constants x64:movi,
//     arithmetic in register and immediate forms at 8 to 64 bits, shifts by
//     immediates, extensions, a compare feeding one setcc, stores to
//     x64:stackslot, loads of a symbol, calls with register arguments (at
//     most six), x64:ret; each branch is a compare directly followed by its
//     x64:jcc (one flags user, placed right before it), or at cfg-x64
//     sometimes an add/and/neg/shift ... then x64:flagsof of it then the
//     jcc, on a condition it allows (rule I). cfg-x64 keeps the
//     cfg and dominance sections with generic phis; son-x64 drops them as
//     son does.
// With `exotic`, foreign-opcode nodes carrying literals of every JSON kind
// are added (such modules round-trip but do not verify), and half the
// branches carry a probability (FORMAT.md section 7, "Branch probabilities").
// With `pressure` (cfg-x64): the skeleton has at least one merge; each
// merge (the first always, others by chance) gets 15 to 22 more phis than
// its value phi, more than regalloc-x64's 14 entry registers, whose inputs
// are constants made at the end of each predecessor (some twice the same
// node, as csmith's checksum loops over struct fields give: issue 22); and
// a memory operation may be an x64:callind through a pointer loaded from
// `table` or an x64:lea of a function, most of them variadic (al >= 0),
// whose callee must stay out of rax (issue 17). Without it the random
// stream, and so every module a seed gives, is what it was.
// With `floats`: a parameter or the result is f32 or f64 one time in four;
// every block holds float values of both types beside its integers (a
// constant of each first, so a float is always at hand up the dominator
// tree), made by arithmetic, fneg/fabs/fsqrt, fpext/fptrunc, conversions
// from integers and bit casts, with constants of special values (zeros,
// infinities, NaNs with payloads, subnormals: generate_levels.h); integers
// come from float compares and conversions; memory operations store floats
// to slots, load them from g0, and run long double operations (f80.from,
// f80.arith or f80.unary, then f80.cmp or f80.to) on 16-byte stack slots;
// every merge gets a float phi (at cfg, slot traffic in a slot of its own);
// at the x64 levels the same through x64:fconst/fzero, x64:fadd ...
// x64:fxor/fand with sign masks, x64:cvt*, x64:ucomis feeding a setcc or a
// branch's jcc, x64:f80.*, float parameters in xmm registers and float
// results through x64:ret's mask. Without it the stream is what it was.
#include "gen/generate.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ir/dominance.h"
#include "ir/eval.h"
#include "gen/generate_levels.h"
#include "x64/x64.h"

namespace pl {

namespace {

constexpr const char* kTypes[] = {"i8", "i16", "i32", "i64", "ptr"};
constexpr Op kBinary[] = {Add, Sub, Mul, And, Or, Xor, Shl, LShr, AShr, Eq, Ne, SLt, SLe, ULt, ULe};
constexpr const char* kX64Types[] = {"i8", "i16", "i32", "i64"};
constexpr Op kX64Binary[] = {X64Add, X64Sub, X64And, X64Or, X64Xor, X64Imul};
constexpr Op kX64Immediate[] = {X64AddI, X64SubI, X64AndI, X64OrI, X64XorI, X64ImulI};
constexpr Op kX64Shift[] = {X64ShlI, X64ShrI, X64SarI};
// The instructions whose flags an x64:flagsof may name (x64.h result_flags).
constexpr Op kX64FlagsDefiners[] = {X64Add,  X64Sub,  X64And,  X64Or,  X64Xor, X64AddI, X64SubI,
                                    X64AndI, X64OrI,  X64XorI, X64Neg, X64ShlI, X64ShrI, X64SarI};
constexpr const char* kArgRegNames[] = {"rdi", "rsi", "rdx", "rcx", "r8", "r9"};
constexpr const char* kConds[] = {"o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g"};
// floats: the generic float opcodes, and the conditions ucomisd's flags
// answer (CF, ZF, PF).
constexpr Op kFloatBinary[] = {FAdd, FSub, FMul, FDiv};
constexpr Op kFloatUnary[] = {FNeg, FAbs, FSqrt};
constexpr Op kFloatCompare[] = {FOEq, FONe, FOLt, FOLe, FOGt, FOGe, FOrd, FUEq, FUNe, FULt, FULe, FUGt, FUGe, FUno};
constexpr const char* kFloatCompareNames[] = {"foeq", "fone", "folt", "fole", "fogt", "foge", "ford",
                                              "fueq", "fune", "fult", "fule", "fugt", "fuge", "funo"};
constexpr Op kX64FloatBinary[] = {X64FAdd, X64FSub, X64FMul, X64FDiv};
constexpr const char* kUcomisConds[] = {"a", "ae", "b", "be", "e", "ne", "p", "np"};
constexpr const char* kF80Arith[] = {"add", "sub", "mul", "div"};
constexpr const char* kF80Unary[] = {"neg", "abs", "sqrt", "copy"};

bool is_x64_level(Level level) { return level == Level::SonX64 || level == Level::CfgX64; }

class Builder {
 public:
  Builder(const GenerateOptions& opts, uint32_t index)
      : opts_(opts), rng_(opts.seed * 1000003u + index), index_(index), x64_(is_x64_level(opts.level)) {}

  Function build();

 private:
  uint64_t pick(uint64_t n) { return pick_below(rng_, n); }
  bool chance(int percent) { return pick(100) < static_cast<uint64_t>(percent); }
  std::string type() { return kTypes[pick(5)]; }
  // A parameter or result type: with floats one in four is f32 or f64.
  std::string param_type() {
    if (opts_.floats && chance(25)) return chance(50) ? "f32" : "f64";
    return x64_ ? x64_type() : type();
  }

  NodeId add(Op op, ControlList control, LiteralList lits, InputList inputs);
  void place(NodeId id) { fn_.cfg->blocks[cur_].nodes.push_back(id); }
  NodeId emit(Op op, ControlList control, LiteralList lits, InputList inputs) {
    NodeId id = add(op, std::move(control), std::move(lits), std::move(inputs));
    place(id);
    return id;
  }

  void make_skeleton(uint32_t blocks);
  void fill_block(uint32_t b);
  NodeId pick_value(uint32_t b);
  NodeId emit_value(uint32_t b);
  void emit_memory_op(uint32_t b);
  NodeId emit_x64_value(uint32_t b);
  void emit_x64_memory_op(uint32_t b);
  void emit_flags_of_arith(uint32_t b);
  // floats (see the file's header)
  struct FloatValue {
    NodeId id;
    bool f32;
  };
  static Literal float_type(bool f32) { return Literal::string(f32 ? "f32" : "f64"); }
  NodeId pick_float(uint32_t b, bool f32);
  struct TypedInt {
    NodeId id;
    bool is64;
  };
  NodeId pick_integer(uint32_t b, std::optional<bool> is64, Literal& type);
  NodeId float_constant(bool f32);
  NodeId float_mask(bool f32, bool sign);
  void emit_float_value(uint32_t b);
  NodeId emit_float_to_int(uint32_t b);
  void emit_float_memory_op(uint32_t b);
  void emit_long_double_ops(uint32_t b);
  std::string x64_type() { return kX64Types[pick(4)]; }
  // A branch probability (FORMAT.md section 7): the ends, gcc's 90% and
  // 10%, or any value of 0 .. 2^31. Exotic modules only, so that the
  // others keep their random streams.
  Literal probability() {
    static constexpr int64_t kSome[] = {0, 2147483648, 1932735283, 214748365};
    return Literal::integer(chance(50) ? kSome[pick(4)] : static_cast<int64_t>(pick((uint64_t{1} << 31) + 1)));
  }
  Literal imm32() { return Literal::integer(static_cast<int64_t>(pick(2000)) - 1000); }
  void emit_exotic();
  Literal random_literal(int depth);
  bool pressure() const { return opts_.pressure && opts_.level == Level::CfgX64; }
  void ensure_merge();
  void choose_wide_merges();
  void emit_wide_constants(uint32_t b);
  void emit_indirect_call(uint32_t b, NodeId& mem);
  void fill_phis();
  void to_cfg_level();
  void to_son_level();

  const GenerateOptions& opts_;
  std::mt19937_64 rng_;
  uint32_t index_;
  bool x64_;
  Function fn_;
  BlockGraph graph_;
  DomTree tree_;
  uint32_t cur_ = 0;
  std::vector<std::vector<NodeId>> values_;  // values defined per block
  std::vector<NodeId> mem_in_, mem_out_;     // memory state per block
  std::vector<NodeId> value_phi_;            // per merge block, else ~0
  std::vector<std::vector<NodeId>> slots_;   // cfg level: per block, loads
  std::vector<std::vector<FloatValue>> fvalues_;  // floats: float values defined per block
  std::vector<FloatValue> float_phi_;        // floats: per merge block, else id ~0
  std::vector<std::vector<TypedInt>> typed_ints_;  // floats: integers of a certain type per block
  // pressure: per block, how many constant phis it gets (0: none), the phis,
  // and per block the constants it made for each successor's phis.
  std::vector<uint32_t> wide_;
  std::vector<std::vector<NodeId>> wide_phis_;
  std::vector<std::vector<std::pair<uint32_t, std::vector<NodeId>>>> wide_out_;
};

NodeId Builder::add(Op op, ControlList control, LiteralList lits, InputList inputs) {
  Node n;
  n.op = op;
  n.control = std::move(control);
  n.literals = std::move(lits);
  n.inputs = std::move(inputs);
  if (chance(30)) n.loc = Loc{0, static_cast<uint32_t>(1 + pick(5000)), static_cast<uint32_t>(1 + pick(80))};
  fn_.nodes.push_back(std::move(n));
  return static_cast<NodeId>(fn_.nodes.size() - 1);
}

void Builder::make_skeleton(uint32_t blocks) {
  graph_.succs.assign(blocks, {});
  graph_.preds.assign(blocks, {});
  for (uint32_t b = 0; b + 1 < blocks; ++b) {
    graph_.succs[b].push_back(b + 1);
    if (chance(45)) {
      uint32_t other = chance(25) ? static_cast<uint32_t>(1 + pick(b + 1))       // back edge (loop)
                                  : static_cast<uint32_t>(b + 1 + pick(blocks - b - 1));
      if (chance(50)) graph_.succs[b].push_back(other);
      else graph_.succs[b].insert(graph_.succs[b].begin(), other);
    }
  }
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t s : graph_.succs[b]) graph_.preds[s].push_back(b);
  tree_ = compute_dom_tree(graph_);
}

NodeId Builder::pick_value(uint32_t b) {
  // Walk up the dominator tree a random number of steps, then pick there.
  uint32_t at = b;
  while (tree_.idom[at] != DomTree::kNone && chance(40)) at = tree_.idom[at];
  return values_[at][pick(values_[at].size())];
}

NodeId Builder::emit_value(uint32_t b) {
  if (opts_.floats && !values_[b].empty() && chance(10)) return emit_float_to_int(b);
  if (x64_) return emit_x64_value(b);
  NodeId id;
  if (values_[b].empty() || chance(20)) {
    id = emit(Const, {}, {Literal::string(type()), Literal::integer(static_cast<int64_t>(pick(2000)) - 1000)}, {});
  } else if (chance(10)) {
    id = emit(chance(50) ? SExt : ZExt, {}, {Literal::string("i32"), Literal::string("i64")}, {pick_value(b)});
  } else {
    Op op = kBinary[pick(std::size(kBinary))];
    id = emit(op, {}, {Literal::string(type())}, {pick_value(b), pick_value(b)});
  }
  values_[b].push_back(id);
  return id;
}

NodeId Builder::emit_x64_value(uint32_t b) {
  NodeId id;
  if (values_[b].empty() || chance(20)) {
    id = emit(X64MovI, {}, {Literal::string(chance(50) ? "i32" : "i64"), imm32()}, {});
  } else if (chance(10)) {
    id = emit(chance(50) ? X64MovSX : X64MovZX, {}, {Literal::string("i32"), Literal::string("i64")}, {pick_value(b)});
  } else if (chance(10)) {
    std::string t = x64_type();
    NodeId flags = emit(X64Cmp, {}, {Literal::string(t)}, {pick_value(b), pick_value(b)});
    id = emit(X64SetCC, {}, {Literal::string(kConds[pick(16)])}, {flags});
  } else if (chance(10)) {
    std::string t = chance(50) ? "i32" : "i64";
    int64_t bits = t == "i32" ? 32 : 64;
    id = emit(kX64Shift[pick(3)], {}, {Literal::string(t), Literal::integer(static_cast<int64_t>(pick(bits)))},
              {pick_value(b)});
  } else {
    bool immediate = chance(30);
    Op op = immediate ? kX64Immediate[pick(std::size(kX64Immediate))] : kX64Binary[pick(std::size(kX64Binary))];
    std::string t = x64_type();
    if (t == "i8" && (op == X64Imul || op == X64ImulI)) t = "i16";  // x86 has no 8-bit two-operand imul
    id = immediate ? emit(op, {}, {Literal::string(t), imm32()}, {pick_value(b)})
                   : emit(op, {}, {Literal::string(t)}, {pick_value(b), pick_value(b)});
  }
  values_[b].push_back(id);
  return id;
}

void Builder::emit_x64_memory_op(uint32_t b) {
  NodeId block = fn_.cfg->blocks[b].node;
  NodeId& mem = mem_out_[b];
  uint64_t kind = pick(3);
  if (kind == 0) {
    NodeId slot = emit(X64StackSlot, {}, {Literal::integer(8), Literal::integer(8)}, {});
    mem = emit(X64Store, {block}, {Literal::string("i64"), Literal::integer(0), Literal::integer(0)},
               {mem, pick_value(b), slot});
  } else if (kind == 1) {
    values_[b].push_back(emit(X64Load, {block},
                              {Literal::string("i32"), Literal::integer(0), Literal::integer(static_cast<int64_t>(pick(3)) * 4),
                               Literal::string("g" + std::to_string(pick(2)))},
                              {mem}));
  } else if (pressure() && chance(50)) {
    emit_indirect_call(b, mem);
  } else {
    InputList args{mem};
    for (uint64_t k = pick(4); k > 0; --k) args.push_back(pick_value(b));
    NodeId call = emit(X64Call, {block}, {Literal::string("f" + std::to_string(pick(opts_.functions))), Literal::integer(-1)},
                       args);
    mem = emit(Proj, {}, {Literal::integer(0)}, {call});
    values_[b].push_back(emit(Proj, {}, {Literal::integer(1)}, {call}));
  }
}

// A call through a pointer: the callee loaded from `table` (f0, printf) or
// an x64:lea of a function, right before the call; al 0 to 8 (variadic)
// three times in four, else -1.
void Builder::emit_indirect_call(uint32_t b, NodeId& mem) {
  NodeId block = fn_.cfg->blocks[b].node;
  InputList args{mem};
  NodeId callee = chance(50)
                      ? emit(X64Load, {block}, {Literal::string("i64"), Literal::integer(0),
                                                Literal::integer(static_cast<int64_t>(pick(2)) * 8), Literal::string("table")},
                             {mem})
                      : emit(X64Lea, {}, {Literal::string("i64"), Literal::integer(0), Literal::integer(0),
                                          Literal::string("f" + std::to_string(pick(opts_.functions)))},
                             {});
  args.push_back(callee);
  for (uint64_t k = pick(5); k > 0; --k) args.push_back(pick_value(b));
  int64_t al = chance(75) ? static_cast<int64_t>(pick(9)) : -1;
  NodeId call = emit(X64CallInd, {block}, {Literal::integer(al)}, args);
  mem = emit(Proj, {}, {Literal::integer(0)}, {call});
  values_[b].push_back(emit(Proj, {}, {Literal::integer(1)}, {call}));
}

// pressure: a skeleton without a merge gets a loop (a back edge to block 1
// from the last block before the exit that has one successor).
void Builder::ensure_merge() {
  for (const std::vector<uint32_t>& p : graph_.preds)
    if (p.size() > 1) return;
  uint32_t blocks = static_cast<uint32_t>(graph_.succs.size());
  for (uint32_t b = blocks - 1; b-- > 1;)
    if (graph_.succs[b].size() == 1) {
      graph_.succs[b].push_back(1);
      graph_.preds[1].push_back(b);
      tree_ = compute_dom_tree(graph_);
      return;
    }
}

void Builder::choose_wide_merges() {
  size_t blocks = graph_.succs.size();
  wide_.assign(blocks, 0);
  wide_phis_.assign(blocks, {});
  wide_out_.assign(blocks, {});
  bool first = true;
  for (uint32_t b = 0; b < blocks; ++b) {
    if (graph_.preds[b].size() < 2) continue;
    if (first || chance(40)) wide_[b] = static_cast<uint32_t>(15 + pick(8));
    first = false;
  }
}

// pressure: at the end of block b (before its terminator and the compare a
// jcc reads), the constants each wide successor's phis take on the edge
// from b; a third of them repeat the one before (one node, two phis).
void Builder::emit_wide_constants(uint32_t b) {
  for (uint32_t s : graph_.succs[b]) {
    if (!wide_[s]) continue;
    bool done = false;
    for (const auto& [succ, list] : wide_out_[b]) done |= succ == s;
    if (done) continue;  // an if that branches twice to s: one set of constants
    std::vector<NodeId> list;
    for (uint32_t k = 0; k < wide_[s]; ++k) {
      if (!list.empty() && chance(30)) {
        list.push_back(list.back());
      } else if (chance(60)) {
        list.push_back(emit(X64Lea, {}, {Literal::string("i64"), Literal::integer(0),
                                          Literal::integer(static_cast<int64_t>(pick(6)) * 4),
                                          Literal::string("g" + std::to_string(pick(2)))},
                            {}));
      } else {
        list.push_back(emit(X64MovI, {}, {Literal::string(chance(50) ? "i32" : "i64"), imm32()}, {}));
      }
    }
    wide_out_[b].emplace_back(s, std::move(list));
  }
}

void Builder::emit_memory_op(uint32_t b) {
  if (opts_.floats && chance(30)) return emit_float_memory_op(b);
  if (x64_) return emit_x64_memory_op(b);
  NodeId block = fn_.cfg->blocks[b].node;
  NodeId& mem = mem_out_[b];
  uint64_t kind = pick(3);
  if (kind == 0) {
    NodeId slot = emit(StackSlot, {}, {Literal::integer(8), Literal::integer(8)}, {});
    mem = emit(Store, {block}, {Literal::string("i64")}, {mem, slot, pick_value(b)});
  } else if (kind == 1) {
    NodeId addr = emit(SymAddr, {}, {Literal::string("g" + std::to_string(pick(2)))}, {});
    values_[b].push_back(emit(Load, {block}, {Literal::string("i32")}, {mem, addr}));
  } else {
    std::string callee = chance(50) ? "printf" : "f" + std::to_string(pick(opts_.functions));
    NodeId target = emit(SymAddr, {}, {Literal::string(callee)}, {});
    InputList args{mem, target};
    for (uint64_t k = pick(4); k > 0; --k) args.push_back(pick_value(b));
    NodeId call = emit(Call, {block}, {Literal::string("i64")}, args);
    mem = emit(Proj, {}, {Literal::integer(0)}, {call});
    values_[b].push_back(emit(Proj, {}, {Literal::integer(1)}, {call}));
  }
}

Literal Builder::random_literal(int depth) {
  switch (pick(depth > 0 ? 9 : 7)) {
    case 0: return Literal::null();
    case 1: return Literal::boolean(chance(50));
    case 2: return Literal::integer(static_cast<int64_t>(rng_()));
    case 3: return Literal::unsigned_integer(rng_() | (1ull << 63));
    case 4: return Literal::floating(std::ldexp(static_cast<double>(rng_() >> 11), static_cast<int>(pick(120)) - 60));
    case 5: return Literal::string("s p,a\"c\\e\n\t\x01 é \xe2\x82\xac #" + std::to_string(pick(100)));
    case 6: return Literal::string("");
    case 7: return Literal::json("[1,\"two\",[3.5,null,{\"k\":true}],{}]");
    default: return Literal::json("{\"a\":[],\"b\":{\"c\":-7},\"d\":\"x y\"}");
  }
}

void Builder::emit_exotic() {
  LiteralList lits;
  for (uint64_t k = pick(4); k > 0; --k) lits.push_back(random_literal(1));
  Node n;
  n.op = fn_.intern_op(chance(50) ? "x.note" : "target-v2:op.strange");
  n.literals = std::move(lits);
  fn_.nodes.push_back(std::move(n));
  place(static_cast<NodeId>(fn_.nodes.size() - 1));
}

void Builder::fill_block(uint32_t b) {
  cur_ = b;
  NodeId block = fn_.cfg->blocks[b].node;
  if (b == 0) {
    mem_in_[0] = emit(EntryMem, {block}, {}, {});
    uint32_t int_regs = 0, xmm_regs = 0;  // the ABI's registers by class
    for (uint32_t p = 0; p < fn_.signature.params.size(); ++p) {
      const std::string& t = fn_.signature.params[p];
      bool is_float = t == "f32" || t == "f64";
      NodeId v = !x64_   ? emit(Param, {block}, {Literal::string(t), Literal::integer(p)}, {})
                 : is_float ? emit(X64ArgReg, {block}, {Literal::string(t), Literal::string("xmm" + std::to_string(xmm_regs++))}, {})
                            : emit(X64ArgReg, {block}, {Literal::string(t), Literal::string(kArgRegNames[int_regs++])}, {});
      if (is_float) fvalues_[0].push_back({v, t == "f32"});
      else values_[0].push_back(v);
    }
  } else if (graph_.preds[b].size() > 1) {
    InputList none(graph_.preds[b].size(), 0);  // filled by fill_phis
    mem_in_[b] = emit(SsaPhi, {block}, {}, none);
    value_phi_[b] = emit(SsaPhi, {block}, {}, none);
    values_[b].push_back(value_phi_[b]);
    for (uint32_t k = 0; pressure() && k < wide_[b]; ++k) {
      wide_phis_[b].push_back(emit(SsaPhi, {block}, {}, none));
      values_[b].push_back(wide_phis_[b].back());
    }
    if (opts_.floats) {
      float_phi_[b] = {emit(SsaPhi, {block}, {}, none), chance(50)};
      fvalues_[b].push_back(float_phi_[b]);
    }
  } else {
    mem_in_[b] = mem_out_[graph_.preds[b][0]];
  }
  mem_out_[b] = mem_in_[b];
  if (opts_.floats)  // a float of each type, so pick_float always finds one
    for (bool f32 : {false, true}) fvalues_[b].push_back({float_constant(f32), f32});
  emit_value(b);  // every block defines a value, so pick_value always finds one
  uint64_t budget = std::max<uint64_t>(4, opts_.nodes / std::max<uint32_t>(1, opts_.functions) /
                                              fn_.cfg->blocks.size());
  for (uint64_t k = 0; k < budget; ++k) {
    if (chance(15)) emit_memory_op(b);
    else if (opts_.exotic && !x64_ && chance(5)) emit_exotic();
    else if (opts_.floats && chance(30)) emit_float_value(b);
    else emit_value(b);
  }
  if (pressure()) emit_wide_constants(b);
  size_t succs = graph_.succs[b].size();
  if (succs == 0) {
    InputList inputs{mem_out_[b]};
    const std::string& result = fn_.signature.result;
    bool float_result = result == "f32" || result == "f64";
    if (float_result) inputs.push_back(pick_float(b, result == "f32"));
    else if (result != "void") inputs.push_back(pick_value(b));
    // x64:ret's mask: the value goes to xmm0
    emit(x64_ ? X64Ret : Return, {block}, x64_ && float_result ? LiteralList{Literal::integer(1)} : LiteralList{}, inputs);
  } else if (succs == 1) {
    emit(Jump, {block}, {}, {});
  } else if (x64_ && opts_.level == Level::CfgX64 && chance(20)) {
    emit_flags_of_arith(b);
  } else if (x64_ && opts_.floats && chance(20)) {
    bool f32 = chance(50);
    NodeId flags = emit(X64Ucomis, {}, {float_type(f32)}, {pick_float(b, f32), pick_float(b, f32)});
    emit(X64Jcc, {block}, {Literal::string(kUcomisConds[pick(std::size(kUcomisConds))])}, {flags});
  } else if (x64_) {
    NodeId flags = chance(50) ? emit(X64CmpI, {}, {Literal::string(x64_type()), imm32()}, {pick_value(b)})
                              : emit(X64Test, {}, {Literal::string(x64_type())}, {pick_value(b), pick_value(b)});
    LiteralList lits{Literal::string(kConds[pick(16)])};
    if (opts_.exotic && chance(50)) lits.push_back(probability());
    emit(X64Jcc, {block}, std::move(lits), {flags});
  } else {
    LiteralList lits;
    if (opts_.exotic && chance(50)) lits.push_back(probability());
    emit(If, {block}, std::move(lits), {pick_value(b)});
  }
}

// A conditional jump on the flags an arithmetic instruction left for its
// result (cfg-x64 only: FORMAT.md rule I): the instruction, x64:flagsof of
// it, and the jcc, in that order, with a condition the instruction leaves
// as test would.
void Builder::emit_flags_of_arith(uint32_t b) {
  std::string t = x64_type();
  unsigned bits = t == "i8" ? 8 : t == "i16" ? 16 : t == "i32" ? 32 : 64;
  Op op = kX64FlagsDefiners[pick(std::size(kX64FlagsDefiners))];
  NodeId v;
  if (op == X64Neg)
    v = emit(op, {}, {Literal::string(t)}, {pick_value(b)});
  else if (op == X64ShlI || op == X64ShrI || op == X64SarI)
    v = emit(op, {}, {Literal::string(t), Literal::integer(static_cast<int64_t>(1 + pick(bits - 1)))}, {pick_value(b)});
  else if (op == X64AddI || op == X64SubI || op == X64AndI || op == X64OrI || op == X64XorI)
    v = emit(op, {}, {Literal::string(t), imm32()}, {pick_value(b)});
  else
    v = emit(op, {}, {Literal::string(t)}, {pick_value(b), pick_value(b)});
  values_[b].push_back(v);
  NodeId flags = emit(X64FlagsOf, {}, {Literal::string(t)}, {v});
  x64::ResultFlags kind = x64::result_flags(fn_.nodes[v]);
  std::vector<x64::Cond> allowed;
  for (uint8_t c = 0; c < 16; ++c)
    if (x64::result_flags_read(kind, static_cast<x64::Cond>(c))) allowed.push_back(static_cast<x64::Cond>(c));
  emit(X64Jcc, {fn_.cfg->blocks[b].node}, {Literal::string(x64::cond_name(allowed[pick(allowed.size())]))}, {flags});
}

// A float of the type up the dominator tree (every block has one of each).
NodeId Builder::pick_float(uint32_t b, bool f32) {
  uint32_t at = b;
  while (tree_.idom[at] != DomTree::kNone && chance(40)) at = tree_.idom[at];
  std::vector<NodeId> of_type;
  for (const FloatValue& v : fvalues_[at])
    if (v.f32 == f32) of_type.push_back(v.id);
  return of_type[pick(of_type.size())];
}

// An i32 or i64 for a conversion to a float (64 bits when `is64`, else
// either): one whose type is certain, because the verifier checks a float
// opcode's operand against its definer's type and an optimizer may replace
// a node by one of its inputs. The integer pool is not typed (its phis merge
// any widths, and `add "i64"` of an i8 is never checked), so these come from
// the typed pool: float compares and conversions, long double compares, and
// loads of g0 made here when none is at hand.
NodeId Builder::pick_integer(uint32_t b, std::optional<bool> is64, Literal& type) {
  uint32_t at = b;
  while (tree_.idom[at] != DomTree::kNone && chance(40)) at = tree_.idom[at];
  std::vector<TypedInt> fit;
  for (const TypedInt& v : typed_ints_[at])
    if (!is64 || v.is64 == *is64) fit.push_back(v);
  TypedInt v;
  if (fit.empty() || chance(20)) {
    v.is64 = is64 ? *is64 : chance(50);
    Literal t = Literal::string(v.is64 ? "i64" : "i32");
    Literal disp = Literal::integer(static_cast<int64_t>(pick(2)) * 8);
    NodeId block = fn_.cfg->blocks[b].node;
    if (x64_) {
      v.id = emit(X64Load, {block}, {t, Literal::integer(0), disp, Literal::string("g0")}, {mem_out_[b]});
    } else {
      NodeId addr = emit(SymAddr, {}, {Literal::string("g0")}, {});
      v.id = emit(Load, {block}, {t}, {mem_out_[b], addr});
    }
    typed_ints_[b].push_back(v);
    values_[b].push_back(v.id);
  } else {
    v = fit[pick(fit.size())];
  }
  type = Literal::string(v.is64 ? "i64" : "i32");
  return v.id;
}

NodeId Builder::float_constant(bool f32) {
  uint64_t k = pick(gen::kFloatConstantChoices);
  double ordinary = (static_cast<double>(pick(2000)) - 1000.0) / 8.0;
  uint64_t bits = gen::float_literal_bits(f32, k, ordinary);
  if (x64_ && bits == 0) return emit(X64FZero, {}, {float_type(f32)}, {});
  return emit(x64_ ? X64FConst : FConst, {}, {float_type(f32), Literal::float_bits(bits)}, {});
}

// x64: the constant x64:fxor (sign) or x64:fand (not sign) applies for fneg
// and fabs: the sign bit alone, or every bit but the sign.
NodeId Builder::float_mask(bool f32, bool sign) {
  uint64_t bits = sign ? gen::float_literal_bits(f32, 1, 0.0)  // -0.0
                       : f32 ? (uint64_t{0x7ff} << 52) | (uint64_t{0x7fffff} << 29)  // 0x7fffffff's double
                             : 0x7fffffffffffffff;
  return emit(X64FConst, {}, {float_type(f32), Literal::float_bits(bits)}, {});
}

void Builder::emit_float_value(uint32_t b) {
  bool f32 = chance(50);
  Literal t = float_type(f32);
  NodeId id;
  uint64_t kind = pick(20);
  if (kind < 3) {
    id = float_constant(f32);
  } else if (kind < 5) {  // from an integer
    Literal from;
    NodeId v = pick_integer(b, std::nullopt, from);
    id = x64_ ? emit(X64CvtSI2F, {}, {from, t}, {v}) : emit(chance(50) ? SIToFP : UIToFP, {}, {from, t}, {v});
  } else if (kind == 5 && !x64_) {  // the bits of an integer of the same width
    Literal from;
    NodeId v = pick_integer(b, !f32, from);
    id = emit(Bitcast, {}, {from, t}, {v});
  } else if (kind < 8) {  // from the other float type
    Op op = x64_ ? X64CvtF2F : f32 ? FPTrunc : FPExt;
    id = emit(op, {}, {float_type(!f32), t}, {pick_float(b, !f32)});
  } else if (kind < 11) {
    uint64_t u = pick(3);
    if (!x64_) id = emit(kFloatUnary[u], {}, {t}, {pick_float(b, f32)});
    else if (u == 2) id = emit(X64FSqrt, {}, {t}, {pick_float(b, f32)});
    else id = emit(u == 0 ? X64FXor : X64FAnd, {}, {t}, {pick_float(b, f32), float_mask(f32, u == 0)});
  } else {
    Op op = x64_ ? kX64FloatBinary[pick(4)] : kFloatBinary[pick(4)];
    id = emit(op, {}, {t}, {pick_float(b, f32), pick_float(b, f32)});
  }
  fvalues_[b].push_back({id, f32});
}

// An integer made from floats: a compare (x64: ucomis and setcc) or a
// conversion (truncating, cvttsd2si), and at the generic levels a bit cast.
NodeId Builder::emit_float_to_int(uint32_t b) {
  bool f32 = chance(50);
  Literal t = float_type(f32);
  Literal to = Literal::string(chance(50) ? "i32" : "i64");
  NodeId id;
  uint64_t kind = pick(5);
  if (kind < 2) {
    if (x64_) {
      NodeId flags = emit(X64Ucomis, {}, {t}, {pick_float(b, f32), pick_float(b, f32)});
      id = emit(X64SetCC, {}, {Literal::string(kUcomisConds[pick(std::size(kUcomisConds))])}, {flags});
    } else {
      id = emit(kFloatCompare[pick(std::size(kFloatCompare))], {}, {t}, {pick_float(b, f32), pick_float(b, f32)});
    }
  } else if (kind < 4 || x64_) {
    id = emit(x64_ ? X64CvtTF2SI : chance(50) ? FPToSI : FPToUI, {}, {t, to}, {pick_float(b, f32)});
  } else {
    id = emit(Bitcast, {}, {t, Literal::string(f32 ? "i32" : "i64")}, {pick_float(b, f32)});
  }
  values_[b].push_back(id);
  typed_ints_[b].push_back({id, kind >= 2 && (kind < 4 || x64_) ? to.as_string() == "i64" : kind >= 2 && !f32});
  return id;
}

// A float stored to a new stack slot, a float loaded from g0, or long
// double operations.
void Builder::emit_float_memory_op(uint32_t b) {
  NodeId block = fn_.cfg->blocks[b].node;
  NodeId& mem = mem_out_[b];
  bool f32 = chance(50);
  Literal t = float_type(f32);
  uint64_t kind = pick(3);
  if (kind == 0) {
    if (x64_) {
      NodeId slot = emit(X64StackSlot, {}, {Literal::integer(8), Literal::integer(8)}, {});
      mem = emit(X64Store, {block}, {t, Literal::integer(0), Literal::integer(0)}, {mem, pick_float(b, f32), slot});
    } else {
      NodeId slot = emit(StackSlot, {}, {Literal::integer(8), Literal::integer(8)}, {});
      mem = emit(Store, {block}, {t}, {mem, slot, pick_float(b, f32)});
    }
  } else if (kind == 1) {
    Literal disp = Literal::integer(static_cast<int64_t>(pick(2)) * 8);
    NodeId v;
    if (x64_) {
      v = emit(X64Load, {block}, {t, Literal::integer(0), disp, Literal::string("g0")}, {mem});
    } else {
      NodeId addr = emit(SymAddr, {}, {Literal::string("g0")}, {});
      if (disp.as_int() != 0) addr = emit(Add, {}, {Literal::string("ptr")}, {addr, emit(Const, {}, {Literal::string("i64"), disp}, {})});
      v = emit(Load, {block}, {t}, {mem, addr});
    }
    fvalues_[b].push_back({v, f32});
  } else {
    emit_long_double_ops(b);
  }
}

// A float widened into a long double in a 16-byte slot, an operation into
// a second slot, then a compare of the two or a conversion back.
void Builder::emit_long_double_ops(uint32_t b) {
  NodeId block = fn_.cfg->blocks[b].node;
  NodeId& mem = mem_out_[b];
  bool f32 = chance(50);
  LiteralList slot_size{Literal::integer(16), Literal::integer(16)};
  Op slot_op = x64_ ? X64StackSlot : StackSlot;
  NodeId a = emit(slot_op, {}, slot_size, {}), d = emit(slot_op, {}, slot_size, {});
  mem = emit(x64_ ? X64F80From : F80From, {block}, {float_type(f32)}, {mem, a, pick_float(b, f32)});
  if (chance(50))
    mem = emit(x64_ ? X64F80Arith : F80Arith, {block}, {Literal::string(kF80Arith[pick(4)])}, {mem, d, a, a});
  else
    mem = emit(x64_ ? X64F80Unary : F80Unary, {block}, {Literal::string(kF80Unary[pick(4)])}, {mem, d, a});
  if (chance(30)) {
    Literal pred = x64_ ? Literal::string(kUcomisConds[pick(std::size(kUcomisConds))])
                        : Literal::string(kFloatCompareNames[pick(std::size(kFloatCompareNames))]);
    NodeId v = emit(x64_ ? X64F80Cmp : F80Cmp, {block}, {pred}, {mem, d, a});
    values_[b].push_back(v);
    typed_ints_[b].push_back({v, false});
    return;
  }
  bool to_f32 = chance(50);
  if (x64_) {
    NodeId scratch = emit(X64StackSlot, {}, slot_size, {});
    fvalues_[b].push_back({emit(X64F80To, {block}, {float_type(to_f32)}, {mem, d, scratch}), to_f32});
  } else {
    fvalues_[b].push_back({emit(F80To, {block}, {float_type(to_f32)}, {mem, d}), to_f32});
  }
}

void Builder::fill_phis() {
  for (uint32_t b = 0; b < value_phi_.size(); ++b) {
    if (value_phi_[b] == ~NodeId{0}) continue;
    Node& mem_phi = fn_.nodes[mem_in_[b]];
    for (size_t i = 0; i < graph_.preds[b].size(); ++i) {
      uint32_t p = graph_.preds[b][i];
      mem_phi.inputs[i] = mem_out_[p];
      fn_.nodes[value_phi_[b]].inputs[i] = pick_value(p);
      if (opts_.floats) fn_.nodes[float_phi_[b].id].inputs[i] = pick_float(p, float_phi_[b].f32);
      for (size_t k = 0; pressure() && k < wide_phis_[b].size(); ++k)
        for (const auto& [s, list] : wide_out_[p])
          if (s == b) fn_.nodes[wide_phis_[b][k]].inputs[i] = list[k];
    }
  }
}

// Each phi becomes slot traffic (generate_levels.h): memory in slot 0,
// block b's value phi in slot 1 + b.
void Builder::to_cfg_level() {
  auto add_node = [this](Op op, LiteralList lits, InputList inputs) { return add(op, {}, std::move(lits), std::move(inputs)); };
  for (uint32_t b = 0; b < value_phi_.size(); ++b) {
    if (value_phi_[b] == ~NodeId{0}) continue;
    gen::demote_phi(fn_, graph_, b, mem_in_[b], 0, add_node);
    gen::demote_phi(fn_, graph_, b, value_phi_[b], 1 + b, add_node);
    if (opts_.floats)  // a slot of its own: cfg2ssa refuses a slot holding both kinds
      gen::demote_phi(fn_, graph_, b, float_phi_[b].id, 1 + value_phi_.size() + b, add_node);
  }
  fn_.dominance.reset();
}

void Builder::to_son_level() {
  gen::to_son_control(fn_, graph_, [this](Op op, LiteralList lits, InputList inputs) {
    return add(op, {}, std::move(lits), std::move(inputs));
  });
}

Function Builder::build() {
  fn_.name = "f" + std::to_string(index_);
  fn_.linkage = index_ % 3 == 2 ? Linkage::Internal : Linkage::External;
  for (uint64_t k = pick(4); k > 0; --k) fn_.signature.params.push_back(param_type());
  fn_.signature.result = chance(20) ? "void" : param_type();
  uint64_t per_fn = std::max<uint64_t>(8, opts_.nodes / std::max<uint32_t>(1, opts_.functions));
  uint32_t blocks = static_cast<uint32_t>(std::max<uint64_t>(1, per_fn / 16));
  if (pressure()) blocks = std::max<uint32_t>(blocks, 3);
  make_skeleton(blocks);
  if (pressure()) {
    ensure_merge();
    choose_wide_merges();
  }
  fn_.cfg.emplace();
  fn_.cfg->blocks.resize(blocks);
  for (uint32_t b = 0; b < blocks; ++b) fn_.cfg->blocks[b].node = add(b == 0 ? Start : Region, {}, {}, {});
  values_.assign(blocks, {});
  mem_in_.assign(blocks, 0);
  mem_out_.assign(blocks, 0);
  value_phi_.assign(blocks, ~NodeId{0});
  fvalues_.assign(blocks, {});
  typed_ints_.assign(blocks, {});
  float_phi_.assign(blocks, {~NodeId{0}, false});
  for (uint32_t b : tree_.rpo) fill_block(b);
  fill_phis();
  gen::link_blocks(fn_, graph_);
  fn_.dominance = dominance_section(fn_, tree_);
  if (opts_.level == Level::Son || opts_.level == Level::SonX64) to_son_level();
  if (opts_.level == Level::Cfg) to_cfg_level();
  if (opts_.level == Level::CfgX64) gen::rename_ssa_phis(fn_);
  return std::move(fn_);
}

}  // namespace

ModuleHeader generate_header(const GenerateOptions& opts) {
  ModuleHeader h;
  h.level = opts.level;
  h.files = {"gen.c", "dir with space/other \"file\".h"};
  h.externs.push_back({"printf", ExternKind::Function, Signature{{"ptr"}, "i32", true}});
  h.externs.push_back({"mystery", ExternKind::Function, std::nullopt});
  h.externs.push_back({"environ", ExternKind::Data, std::nullopt});
  h.data.push_back({"g0", Linkage::External, 16, 8, false, std::string("\x01\x02\x00\xff", 4), {}});
  h.data.push_back({"g1", Linkage::Internal, 24, 8, true, "hello, world", {{16, "g0", 4}}});
  h.data.push_back({"table", Linkage::Internal, 16, 8, true, "", {{0, "f0", 0}, {8, "printf", -8}}});
  return h;
}

Function generate_function(const GenerateOptions& opts, uint32_t index) { return Builder(opts, index).build(); }

Module generate_module(const GenerateOptions& opts) {
  Module m;
  m.header = generate_header(opts);
  for (uint32_t i = 0; i < opts.functions; ++i) m.functions.push_back(generate_function(opts, i));
  return m;
}

}  // namespace pl
