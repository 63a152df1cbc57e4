// peephole.cpp - x64 peepholes over the fixed blocks.
//
// Rewrites, each exact on the hardware's values and flags (FORMAT.md
// section 8, common/x64/eval_x64.h):
//  1. A conditional jump whose two successors are the same block (left by
//     thread-jumps, remove-empty-blocks or sonopt's arms) becomes a `jump`
//     when the block's phis get the same value on both edges; the compare
//     that fed it then dies. Only visible once the blocks are fixed.
//  2. `x64:cmpi t, x, 0` becomes `x64:test t, x, x`: the same flags
//     (x - 0 neither borrows nor overflows, so CF = OF = 0 as test leaves
//     them, and ZF, SF, PF are those of x), one byte shorter.
//  3. `x64:movzx from, to, v` with to >= 32 is v itself when v's register
//     is already zero above bit `from`: a 32-bit result (an x64 instruction
//     of operand size i32 zero-extends, as does an i32 movi, load or lea;
//     shifts are left out, since whether a shift by a count of 0 writes
//     its register is not something to bet a miscompile on),
//     or a zero extension from at most `from` bits (movzx, loadzx). The
//     users read v instead; the movzx dies.
//  4. `x64:flagsof t, v` of an and (`x64:and t, a, b` / `x64:andi t, k, a`)
//     whose value nothing else reads becomes `x64:test t, a, b` /
//     `x64:testi t, k, a`: and and test leave the same flags (CF = OF = 0,
//     ZF, SF, PF of the result), test writes no register, so `if (n & 1)`
//     no longer copies n to clobber the copy (gcc's `testb $1, %al`); the
//     and dies. Rule I's flagsof pair (the and directly before it) becomes
//     a compare directly before its user.
// Algorithm: one scan of the nodes in id order, O(nodes + uses).
// Invariants needed and kept: the cfg-x64 contract. The flags rule holds:
// rule 2 keeps the compare where it is; rule 1 removes flags with their
// only user.
#include <optional>

#include "cfg_edit.h"
#include "passes.h"
#include "x64_facts.h"

namespace pl::cfgopt {

namespace {

// Above which bit v's 64-bit register is known to be zero, if it is.
std::optional<unsigned> zero_above(const CfgEdit& g, NodeId v) {
  const Node& n = g.node(v);
  switch (n.op) {
    case Op::X64MovZX:
    case Op::X64LoadZX: {
      std::optional<unsigned> from = type_bits_at(n, 0), to = type_bits_at(n, 1);
      if (from && to && *to >= 32) return *from;
      return std::nullopt;
    }
    case Op::X64Add: case Op::X64Sub: case Op::X64And: case Op::X64Or: case Op::X64Xor: case Op::X64Imul:
    case Op::X64AddI: case Op::X64SubI: case Op::X64AndI: case Op::X64OrI: case Op::X64XorI: case Op::X64ImulI:
    case Op::X64Neg: case Op::X64Not: case Op::X64MovI: case Op::X64Load: case Op::X64Lea: {
      std::optional<unsigned> t = type_bits_at(n, 0);
      if (t && *t == 32) return 32u;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

bool same_phi_values(const CfgEdit& g, uint32_t to, NodeId term) {
  const ControlList& control = g.node(g.block(to).node).control;
  std::vector<size_t> positions;
  for (size_t i = 0; i < control.size(); ++i)
    if (control[i] == term) positions.push_back(i);
  if (positions.size() != 2) return false;
  for (NodeId phi : g.phis(to))
    if (g.node(phi).inputs[positions[0]] != g.node(phi).inputs[positions[1]]) return false;
  return true;
}

// Rule 1 on block b; true if it applied.
bool jump_for_equal_successors(CfgEdit& g, uint32_t b) {
  NodeId jcc = g.terminator(b);
  if (g.op(jcc) != Op::X64Jcc || g.can_redirect(b)) return false;
  uint32_t to = g.succ(b, 0);
  if (!same_phi_values(g, to, jcc)) return false;
  const ControlList& control = g.node(g.block(to).node).control;
  size_t last = control.size();
  for (size_t i = 0; i < control.size(); ++i)
    if (control[i] == jcc) last = i;
  g.drop_edge(to, last);
  NodeId jump = g.add(Node{.op = Op::Jump, .control = {g.block(b).node}, .loc = g.node(jcc).loc});
  size_t pos = g.block(b).nodes.size() - 1;
  g.remove_from_block(jcc);
  g.kill(jcc);
  g.place(jump, b, pos);
  for (NodeId& c : g.node(g.block(to).node).control)
    if (c == jcc) c = jump;
  g.block(b).successors.resize(1);
  return true;
}

// Rule 4 over the whole function; the number of rewrites. (A movzx
// forwarded above still counts as a reader until finish() drops it: the
// rule then waits for the next application.)
size_t test_for_lone_and(CfgEdit& g) {
  std::vector<uint32_t> uses = g.use_counts();
  size_t changes = 0;
  for (NodeId n = 0; n < g.function().nodes.size(); ++n) {
    if (!g.alive(n) || g.op(n) != Op::X64FlagsOf || g.node(n).inputs.size() != 1) continue;
    NodeId v = g.node(n).inputs[0];
    OpId op = g.op(v);
    if ((op != Op::X64And && op != Op::X64AndI) || uses[v] != 1) continue;
    Node test = g.node(v);
    Node& flags = g.node(n);
    flags.op = op == Op::X64And ? Op::X64Test : Op::X64TestI;
    flags.literals = test.literals;
    flags.inputs = test.inputs;
    g.remove_from_block(v);
    g.kill(v);
    ++changes;
  }
  return changes;
}

}  // namespace

size_t peephole(Function& fn, const ModuleHeader&, FunctionCache&) {
  CfgEdit g(fn);
  size_t changes = 0;
  for (uint32_t b = 0; b < g.num_blocks(); ++b) changes += jump_for_equal_successors(g, b);
  NodeId count = static_cast<NodeId>(fn.nodes.size());
  std::vector<NodeId> forward(count);
  for (NodeId n = 0; n < count; ++n) forward[n] = n;
  for (NodeId n = 0; n < count; ++n) {
    if (!g.alive(n)) continue;
    Node& node = g.node(n);
    if (node.op == Op::X64CmpI && node.literals.size() == 2 && node.literals[1].is_int() &&
        node.literals[1].bits() == 0) {
      node.op = Op::X64Test;
      node.literals.resize(1);
      node.inputs.push_back(node.inputs[0]);
      ++changes;
      continue;
    }
    if (node.op == Op::X64MovZX) {
      std::optional<unsigned> from = type_bits_at(node, 0), to = type_bits_at(node, 1);
      std::optional<unsigned> zero = zero_above(g, node.inputs[0]);
      if (from && to && zero && *to >= 32 && *zero <= *from) {
        forward[n] = node.inputs[0];
        ++changes;
      }
    }
  }
  for (NodeId n = 0; n < fn.nodes.size(); ++n)
    for (NodeId& in : g.node(n).inputs)
      while (in < count && forward[in] != in) in = forward[in];
  changes += test_for_lone_and(g);
  if (changes == 0) return 0;
  g.finish();
  return changes;
}

}  // namespace pl::cfgopt
