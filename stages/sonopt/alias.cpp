// alias.cpp - base objects, offsets and escape (see alias.h).
#include "alias.h"

#include <algorithm>

namespace pl::sonopt {

namespace {

constexpr int kMaxChain = 64;
constexpr size_t kMaxSlotUses = 4096;

bool is_ptr(const Literal& type) { return literal_value_type(type) == ValueType::Ptr; }

// Whether use u reads n as a plain load's or store's address (and nowhere
// else), or is a constant-offset ptr add of n (then *through is true).
bool address_use(const Graph& g, NodeId u, NodeId n, bool* through) {
  const Node& nd = g.node(u);
  *through = false;
  if (nd.op == Op::Load) return nd.inputs[1] == n;
  if (nd.op == Op::Store) return nd.inputs[1] == n && nd.inputs[2] != n;
  if (nd.op == Op::Add && nd.inputs[0] == n && nd.inputs[1] != n && g.is_const(nd.inputs[1]) &&
      is_ptr(nd.literals[0])) {
    *through = true;
    return true;
  }
  return false;
}

}  // namespace

uint64_t access_size(const Node& access) { return type_bytes(*literal_value_type(access.literals[0])); }

AliasAnalysis::AliasAnalysis(const Graph& g) : g_(g), private_(g.size(), false) {
  for (NodeId n = 0; n < g_.size(); ++n)
    if (g_.alive(n) && g_.op(n) == Op::StackSlot) private_[n] = !slot_escapes(n);
}

Address AliasAnalysis::decompose(NodeId n) const {
  Address a;
  for (int steps = 0; steps < kMaxChain; ++steps) {
    const Node& nd = g_.node(n);
    if (nd.op == Op::Add && is_ptr(nd.literals[0]) && g_.is_const(nd.inputs[1])) {
      a.offset += static_cast<int64_t>(g_.const_value_of(nd.inputs[1]));
      n = nd.inputs[0];
      continue;
    }
    a.root = n;
    if (nd.op == Op::StackSlot || nd.op == Op::SymAddr) a.base = n;
    return a;
  }
  return a;  // root unknown: nothing is known about it
}

NodeId AliasAnalysis::underlying_object(NodeId n) const {
  for (int steps = 0; steps < kMaxChain; ++steps) {
    const Node& nd = g_.node(n);
    if (nd.op == Op::StackSlot || nd.op == Op::SymAddr) return n;
    if (nd.op != Op::Add || !is_ptr(nd.literals[0])) return kNone;
    bool p0 = result_type(g_, nd.inputs[0]) == ValueType::Ptr, p1 = result_type(g_, nd.inputs[1]) == ValueType::Ptr;
    if (p0 == p1) return kNone;
    n = p0 ? nd.inputs[0] : nd.inputs[1];
  }
  return kNone;
}

bool AliasAnalysis::distinct_objects(NodeId a, NodeId b) const {
  NodeId oa = underlying_object(a), ob = underlying_object(b);
  return oa != kNone && ob != kNone && !same_object(oa, ob);
}

bool AliasAnalysis::slot_escapes(NodeId slot) const {
  std::vector<NodeId> stack = {slot};
  size_t visited = 0;
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    for (NodeId u : g_.users(n)) {
      if (++visited > kMaxSlotUses) return true;
      bool through = false;
      if (!address_use(g_, u, n, &through)) return true;
      if (through) stack.push_back(u);
    }
  }
  return false;
}

std::vector<NodeId> AliasAnalysis::slot_accesses(NodeId slot) const {
  std::vector<NodeId> out;
  if (!private_slot(slot)) return out;
  std::vector<NodeId> stack = {slot};
  while (!stack.empty()) {
    NodeId n = stack.back();
    stack.pop_back();
    for (NodeId u : g_.users(n)) {
      bool through = false;
      address_use(g_, u, n, &through);
      if (through) stack.push_back(u);
      else out.push_back(u);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool AliasAnalysis::same_object(NodeId a, NodeId b) const {
  if (a == b) return true;
  if (g_.op(a) == Op::SymAddr && g_.op(b) == Op::SymAddr) return g_.node(a).literals[0] == g_.node(b).literals[0];
  return false;
}

bool AliasAnalysis::recheck_slot(NodeId slot) {
  private_[slot] = !slot_escapes(slot);
  return private_[slot];
}

bool AliasAnalysis::private_slot(NodeId base) const {
  return base != kNone && base < private_.size() && private_[base];
}

Alias AliasAnalysis::alias(Address a, uint64_t a_size, Address b, uint64_t b_size) const {
  bool same_root = a.root != kNone && a.root == b.root;
  if (same_root || (a.base != kNone && b.base != kNone)) {
    if (!same_root && !same_object(a.base, b.base)) return Alias::No;
    if (a.offset == b.offset && a_size == b_size) return Alias::Must;
    bool disjoint = a.offset + static_cast<int64_t>(a_size) <= b.offset ||
                    b.offset + static_cast<int64_t>(b_size) <= a.offset;
    return disjoint ? Alias::No : Alias::May;
  }
  if (private_slot(a.base) || private_slot(b.base)) return Alias::No;
  return Alias::May;
}

NodeId memory_input_skipping_private(const Graph& g, NodeId m) {
  const Node& nd = g.node(m);
  if (nd.op == Op::Proj && nd.literals[0].as_int() == 0) {
    OpId t = g.op(nd.inputs[0]);
    if (t == Op::Call || t == Op::LoadV || t == Op::VaArg || t == Op::Alloca || t == Op::StackSave ||
        t == Op::Asm || t == Op::AtomicLoad || t == Op::AtomicRmw || t == Op::AtomicCmpXchg)
      return g.node(nd.inputs[0]).inputs[0];
    return kNone;
  }
  // The dynamic stack touches only alloca blocks, never a stack slot.
  // An f80 or v128 operation (long double, 16-byte vectors) touches its operands' objects, whose
  // addresses escape by being its inputs: never a private slot. So does an
  // atomic operation's, and no other thread can see a private slot: the
  // order an atomic gives concerns escaped memory only.
  if (nd.op == Op::StoreV || nd.op == Op::Copy || nd.op == Op::VaStart || nd.op == Op::StackRestore ||
      nd.op == Op::F80Arith || nd.op == Op::F80Unary || nd.op == Op::F80From || nd.op == Op::V128Op ||
      nd.op == Op::V128Store || nd.op == Op::AtomicStore ||
      nd.op == Op::Fence)
    return nd.inputs[0];
  return kNone;
}

}  // namespace pl::sonopt
