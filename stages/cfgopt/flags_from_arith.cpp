// flags_from_arith.cpp - removal of a compare whose flags the previous
// instruction already set: `x = a & b; if (x != 0)` was `and`, `test`,
// `jne`; it becomes `and`, `jne`, as gcc and LLVM emit it.
//
// The shape: C = a compare of v with zero (x64:test v, v; x64:cmpi v, 0;
// x64:testi v, -1: all the flags of `test v, v`), its user U (jcc, setcc or
// cmov, directly after C), and D, v's definer, in C's block: an instruction
// that leaves flags named after its result (x64.h result_flags: add, sub,
// and, or, xor, their immediate forms, neg, shifts by an immediate of 1 or
// more), of C's operand size. C becomes x64:flagsof v (the flags D left; no
// code), D moves down to just before it, and U reads a condition that means
// on D's flags what its own meant on C's.
//
// The condition. C leaves CF = OF = 0. After and/or/xor so does D, and every
// condition stands. After add, sub, neg and shifts only ZF, SF and PF are
// those of test, so U's condition c becomes the first of c, e, ne, s, ns,
// p, np that holds on every flags value exactly when c holds on the same
// value with CF and OF cleared (l -> s, ge -> ns, be -> e, a -> ne; le, g
// and the constant ones have none and the compare stays). The search runs
// x64_cond (common/x64/eval_x64.h, what pipe-run executes): folding is
// interpreting. The verifier (FORMAT.md rule I) checks the result again.
//
// Moving D. D is pure; its inputs are defined before its old place, hence
// before its new one. The nodes between D and C must not read v (they would
// come before their input), nor be a call (v's inputs would then live
// across it instead of v: more values to keep in callee-saved registers or
// spill, as LLVM and gcc, which never move the definer, avoid). No flags
// pair is split: at cfg-x64 a flags
// producer sits directly before its user, so D's old place was between no
// pair, and its new place is directly before C, which reads no flags.
//
// Algorithm: one scan of each block, a compare at a time, looking back from
// C to D: O(nodes in the block) per compare, O(block size squared) at worst.
// Invariants needed: the cfg-x64 contract. Kept: rule I's flagsof rules
// (D directly before the flagsof, directly before U, one block), and the
// rest of the contract (only an in-block move of a pure node).
//
// What others do. LLVM's X86InstrInfo::optimizeCompareInstr removes a
// `test r, r` / `cmp r, 0` when the instruction that defined r sets EFLAGS
// the same way for the conditions its users read (it rewrites a few
// conditions, and refuses when an instruction between clobbers EFLAGS); it
// looks back but does not move the definer. gcc's combine merges the compare
// into the arithmetic pattern (`*and<mode>_2`: a parallel of the result and
// (compare (and a b) 0)) in flags modes CCNO/CCZ/CCGOC that limit which
// conditions may read it. Here the flags value is explicit, so the merge is
// a new node naming the definer's flags, and regalloc-x64 and the
// allocation checker (rule H) know that it emits no code.
#include <algorithm>
#include <optional>

#include "arith_flags.h"
#include "cfg_edit.h"
#include "x64/eval_x64.h"
#include "passes.h"
#include "x64_facts.h"

namespace pl::cfgopt {

namespace {

bool flags_user(OpId op) { return op == Op::X64Jcc || op == Op::X64SetCC || op == Op::X64CMov; }

// Whether compare c, of operand size `bits`, leaves the flags of `test v, v`
// for its value input v.
bool tests_against_zero(const Node& c, unsigned bits) {
  if (c.op == Op::X64Test) return c.inputs.size() == 2 && c.inputs[0] == c.inputs[1];
  if (c.literals.size() < 2 || !c.literals[1].is_int()) return false;
  uint64_t imm = truncate_to(c.literals[1].bits(), bits);
  if (c.op == Op::X64CmpI) return imm == 0;
  if (c.op == Op::X64TestI) return imm == width_mask(bits);
  return false;
}

// The condition U reads instead of `c` after a definer of kind k: `c`
// itself after and/or/xor (they leave test's flags); otherwise one that
// holds on every flags value exactly when `c` holds on it with CF and OF
// cleared (as test leaves them), if there is one.
std::optional<x64::Cond> condition_on(x64::ResultFlags k, x64::Cond c) {
  if (k == x64::ResultFlags::Logic) return c;  // the very flags of test
  auto same = [&](x64::Cond d) {
    if (!x64::result_flags_read(k, d)) return false;
    for (uint64_t f = 0; f < 32; ++f) {
      uint64_t flags = (f & 1 ? kFlagCF : 0) | (f & 2 ? kFlagOF : 0) | (f & 4 ? kFlagZF : 0) |
                       (f & 8 ? kFlagSF : 0) | (f & 16 ? kFlagPF : 0);
      if (x64_cond(d, flags) != x64_cond(c, flags & ~(kFlagCF | kFlagOF))) return false;
    }
    return true;
  };
  if (same(c)) return c;
  for (x64::Cond d : {x64::Cond::E, x64::Cond::NE, x64::Cond::S, x64::Cond::NS, x64::Cond::P, x64::Cond::NP})
    if (same(d)) return d;
  return std::nullopt;
}

}  // namespace

std::optional<DefinerFlags> definer_flags(const CfgEdit& g, uint32_t b, size_t q, const Node& c, x64::Cond cc) {
  const std::vector<NodeId>& nodes = g.block(b).nodes;
  std::optional<unsigned> bits = type_bits_at(c, 0);
  if (!bits || c.inputs.empty() || !tests_against_zero(c, *bits)) return std::nullopt;
  NodeId v = c.inputs[0];
  x64::ResultFlags kind = x64::result_flags(g.node(v));
  if (kind == x64::ResultFlags::None || g.placed_in(v) != b || x64::operand_bits(g.node(v)) != bits)
    return std::nullopt;
  std::optional<x64::Cond> now = condition_on(kind, cc);
  if (!now) return std::nullopt;
  // v's place, and no reader of v between it and c.
  size_t p = q;
  while (p > 0 && nodes[p - 1] != v) {
    const InputList& in = g.node(nodes[p - 1]).inputs;
    if (std::find(in.begin(), in.end(), v) != in.end()) return std::nullopt;
    OpId between = g.op(nodes[p - 1]);
    // v's inputs would live across a call or an asm (which may clobber them)
    if (between >= kNumOps || op_info(between).has(CALL) || between == Op::X64Asm) return std::nullopt;
    --p;
  }
  if (p == 0) return std::nullopt;  // v is a phi or not before c
  return DefinerFlags{v, p, *now};
}

namespace {

// Compare at position q of block b: rewrites it if it can; true if it did.
bool rewrite(CfgEdit& g, uint32_t b, size_t q) {
  const std::vector<NodeId>& nodes = g.block(b).nodes;
  NodeId c = nodes[q];
  if (q + 1 >= nodes.size()) return false;
  NodeId u = nodes[q + 1];
  if (!flags_user(g.op(u)) || g.node(u).inputs.empty() || g.node(u).inputs[0] != c) return false;
  std::optional<x64::Cond> cc = cond_at(g.node(u), 0);
  if (!cc) return false;
  std::optional<DefinerFlags> d = definer_flags(g, b, q, g.node(c), *cc);
  if (!d) return false;
  Node& flags = g.node(c);
  flags.op = Op::X64FlagsOf;
  flags.literals.resize(1);
  flags.inputs = {d->definer};
  if (d->cond != *cc) set_cond(g.node(u), 0, d->cond);
  if (d->position != q) {  // v sits at position - 1; c is now at q - 1 once v is out
    g.remove_from_block(d->definer);
    g.place(d->definer, b, q - 1);
  }
  return true;
}

}  // namespace

size_t flags_from_arith(Function& fn, const ModuleHeader&, FunctionCache&) {
  CfgEdit g(fn);
  size_t changes = 0;
  for (uint32_t b = 0; b < g.num_blocks(); ++b)
    for (size_t q = 0; q < g.block(b).nodes.size(); ++q)
      if (is_compare(g.op(g.block(b).nodes[q])) && rewrite(g, b, q)) ++changes;
  if (changes > 0) g.finish();
  return changes;
}

}  // namespace pl::cfgopt
