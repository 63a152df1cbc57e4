// split_copy.cpp - a `copy` between two private stack slots becomes one load
// and one store per field, so scalar-replace can take both slots (a struct
// assignment `a = b;` between locals otherwise keeps both in memory: a copy
// makes a slot escape for alias.h).
//
// Algorithm: for each function,
//  1. Candidates: a stack slot whose every use, through constant-offset
//     `add "ptr"` chains, is the address of a plain load or store, or one
//     end of a `copy` of exactly the slot's size at offset 0 whose other
//     end is another stack slot (a whole-object copy, as struct assignment
//     makes), or of a `copy` of exactly the slot's size between the slot
//     and memory that is no stack slot (an external copy: `p = *q;`, or a
//     small memcpy that libcalls made a copy). Slots linked by copies
//     between slots form groups (union-find); a group is taken only if
//     every member is a candidate. The other end of an external copy
//     cannot be the slot (a candidate's address only reaches loads, stores
//     and copies, through constant offsets).
//  2. Fields: the (offset, type) of every load and store of every member
//     of the group, in one frame (every copy in the group starts at offset
//     0 and has the members' common size). They must tile: one type per
//     offset, the byte ranges of different offsets disjoint and inside the
//     slot, at most kMaxFields of them; otherwise the group is left alone.
//     Bytes no field covers are never read by any load of any member, and a
//     member is read only by loads and by the group's copies, so not
//     copying them changes nothing a program can see - unless bytes can
//     enter the group by an external copy and leave it by another: then
//     the fields must cover every byte of the slot (or the group stays).
//     A byte that reaches an external copy out otherwise was never written
//     (indeterminate, so leaving the destination's byte is one of its
//     possible values).
//  3. Each copy of the group, with memory input M, becomes, at its control
//     input: for each field in offset order a load of the source field from
//     M, then the stores of those values to the destination fields chained
//     from M; the copy's users read the last store (M when there is no
//     field). Loads all read M: source and destination are different
//     objects (two slots, or a slot and memory its address never reaches).
// Invariants needed: the son contract. Kept: the son contract (the new
// loads and stores are pinned where the copy was; the memory chain goes
// through the stores in the copy's place). Volatile accesses are untouched
// (a slot with one is no candidate). Departure from a general SROA: a copy
// of part of a slot is left alone.
#include <algorithm>
#include <map>
#include <numeric>

#include "alias.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr size_t kMaxFields = 64;
constexpr size_t kMaxSlotUses = 4096;

bool is_ptr_add(const Graph& g, NodeId u, NodeId n) {
  const Node& nd = g.node(u);
  return nd.op == Op::Add && nd.inputs[0] == n && nd.inputs[1] != n && g.is_const(nd.inputs[1]) &&
         literal_value_type(nd.literals[0]) == ValueType::Ptr;
}

struct SlotUses {
  bool candidate = true;
  std::vector<NodeId> accesses;  // plain loads and stores
  std::vector<NodeId> copies;    // whole-slot copies with another slot
  std::vector<NodeId> external;  // whole-slot copies with memory that is no stack slot
  bool copied_in = false, copied_out = false;  // an external copy writes / reads the slot
};

uint64_t slot_size(const Graph& g, NodeId slot) { return static_cast<uint64_t>(g.node(slot).literals[0].as_int()); }

// Step 1 for one slot.
SlotUses uses_of(const Graph& g, NodeId slot) {
  SlotUses out;
  std::vector<NodeId> stack = {slot};
  size_t visited = 0;
  while (!stack.empty() && out.candidate) {
    NodeId n = stack.back();
    stack.pop_back();
    for (NodeId u : g.users(n)) {
      if (++visited > kMaxSlotUses) out.candidate = false;
      const Node& nd = g.node(u);
      if (is_ptr_add(g, u, n)) {
        stack.push_back(u);
      } else if ((nd.op == Op::Load && nd.inputs[1] == n) ||
                 (nd.op == Op::Store && nd.inputs[1] == n && nd.inputs[2] != n)) {
        out.accesses.push_back(u);
      } else if (nd.op == Op::Copy && n == slot && nd.inputs[1] != nd.inputs[2] &&
                 g.op(nd.inputs[1]) == Op::StackSlot && g.op(nd.inputs[2]) == Op::StackSlot &&
                 static_cast<uint64_t>(nd.literals[0].as_int()) == slot_size(g, nd.inputs[1]) &&
                 slot_size(g, nd.inputs[1]) == slot_size(g, nd.inputs[2])) {
        out.copies.push_back(u);
      } else if (nd.op == Op::Copy && n == slot && nd.inputs[1] != nd.inputs[2] &&
                 static_cast<uint64_t>(nd.literals[0].as_int()) == slot_size(g, slot) &&
                 g.op(nd.inputs[nd.inputs[1] == slot ? 2 : 1]) != Op::StackSlot) {
        out.external.push_back(u);
        (nd.inputs[1] == slot ? out.copied_in : out.copied_out) = true;
      } else {
        out.candidate = false;
      }
    }
  }
  std::sort(out.accesses.begin(), out.accesses.end());
  out.accesses.erase(std::unique(out.accesses.begin(), out.accesses.end()), out.accesses.end());
  std::sort(out.copies.begin(), out.copies.end());
  out.copies.erase(std::unique(out.copies.begin(), out.copies.end()), out.copies.end());
  std::sort(out.external.begin(), out.external.end());
  out.external.erase(std::unique(out.external.begin(), out.external.end()), out.external.end());
  return out;
}

struct Field {
  int64_t offset;
  Literal type;
  uint64_t size;
};

// Step 2: the group's fields, or nullopt when they do not tile (or, with
// `cover`, leave a byte of the slot uncovered).
std::optional<std::vector<Field>> fields_of(const Graph& g, const AliasAnalysis& aa,
                                            const std::vector<NodeId>& accesses, uint64_t size, bool cover) {
  std::map<int64_t, Field> by_offset;
  for (NodeId a : accesses) {
    const Node& nd = g.node(a);
    Address addr = aa.decompose(nd.inputs[1]);
    uint64_t bytes = access_size(nd);
    if (addr.base == kNone || addr.offset < 0 || static_cast<uint64_t>(addr.offset) + bytes > size)
      return std::nullopt;
    auto [it, fresh] = by_offset.emplace(addr.offset, Field{addr.offset, nd.literals[0], bytes});
    if (!fresh && !(it->second.type == nd.literals[0])) return std::nullopt;
  }
  std::vector<Field> out;
  for (auto& [offset, f] : by_offset) {
    if (!out.empty() && out.back().offset + static_cast<int64_t>(out.back().size) > offset) return std::nullopt;
    out.push_back(f);
  }
  if (out.size() > kMaxFields) return std::nullopt;
  if (cover) {
    uint64_t end = 0;
    for (const Field& f : out) {
      if (static_cast<uint64_t>(f.offset) != end) return std::nullopt;
      end += f.size;
    }
    if (end != size) return std::nullopt;
  }
  return out;
}

NodeId field_address(Graph& g, NodeId base, int64_t offset, Loc loc) {
  if (offset == 0) return base;
  NodeId k = g.add_const(ValueType::I64, static_cast<uint64_t>(offset), loc);
  return g.add(Node{.op = Op::Add, .literals = {Literal::string("ptr")}, .inputs = {base, k}, .loc = loc});
}

// Step 3 for one copy.
void split(Graph& g, NodeId copy, const std::vector<Field>& fields) {
  NodeId control = g.node(copy).control[0];
  NodeId memory = g.node(copy).inputs[0];
  NodeId dst = g.node(copy).inputs[1], src = g.node(copy).inputs[2];
  Loc loc = g.node(copy).loc;
  std::vector<NodeId> values;
  for (const Field& f : fields)
    values.push_back(g.add(Node{.op = Op::Load,
                                .control = {control},
                                .literals = {f.type},
                                .inputs = {memory, field_address(g, src, f.offset, loc)},
                                .loc = loc}));
  NodeId last = memory;
  for (size_t i = 0; i < fields.size(); ++i)
    last = g.add(Node{.op = Op::Store,
                      .control = {control},
                      .literals = {fields[i].type},
                      .inputs = {last, field_address(g, dst, fields[i].offset, loc), values[i]},
                      .loc = loc});
  g.replace_uses(copy, last);
  g.kill(copy);
}

size_t find(std::vector<size_t>& parent, size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

size_t split_copy(Function& fn, const ModuleHeader&, FunctionCache& cache) {
  if (!has_op(fn, Op::Copy)) return 0;
  Graph g(fn, cache);
  std::vector<NodeId> slots;
  for (NodeId n = 0; n < g.size(); ++n)
    if (g.op(n) == Op::StackSlot) slots.push_back(n);
  std::vector<SlotUses> uses;
  bool any_copy = false;
  for (NodeId s : slots) {
    uses.push_back(uses_of(g, s));
    any_copy = any_copy || !uses.back().copies.empty() || !uses.back().external.empty();
  }
  if (!any_copy) return 0;
  auto slot_index = [&](NodeId n) {
    return static_cast<size_t>(std::lower_bound(slots.begin(), slots.end(), n) - slots.begin());
  };
  std::vector<size_t> parent(slots.size());
  std::iota(parent.begin(), parent.end(), 0);
  for (size_t i = 0; i < slots.size(); ++i)
    for (NodeId c : uses[i].copies)
      for (size_t k = 1; k <= 2; ++k) parent[find(parent, slot_index(g.node(c).inputs[k]))] = find(parent, i);
  // A group is taken when every member is a candidate.
  std::vector<bool> group_ok(slots.size(), true);
  for (size_t i = 0; i < slots.size(); ++i)
    if (!uses[i].candidate) group_ok[find(parent, i)] = false;
  std::map<size_t, std::vector<size_t>> groups;
  for (size_t i = 0; i < slots.size(); ++i)
    if (group_ok[find(parent, i)] && (!uses[i].copies.empty() || !uses[i].external.empty()))
      groups[find(parent, i)].push_back(i);
  AliasAnalysis aa(g);
  std::vector<std::pair<std::vector<NodeId>, std::vector<Field>>> work;
  for (auto& [root, members] : groups) {
    std::vector<NodeId> accesses, copies;
    bool copied_in = false, copied_out = false;
    for (size_t i : members) {
      accesses.insert(accesses.end(), uses[i].accesses.begin(), uses[i].accesses.end());
      copies.insert(copies.end(), uses[i].copies.begin(), uses[i].copies.end());
      copies.insert(copies.end(), uses[i].external.begin(), uses[i].external.end());
      copied_in = copied_in || uses[i].copied_in;
      copied_out = copied_out || uses[i].copied_out;
    }
    std::sort(copies.begin(), copies.end());
    copies.erase(std::unique(copies.begin(), copies.end()), copies.end());
    auto fields = fields_of(g, aa, accesses, slot_size(g, slots[members[0]]), copied_in && copied_out);
    if (fields) work.push_back({std::move(copies), std::move(*fields)});
  }
  size_t changes = 0;
  for (auto& [copies, fields] : work)
    for (NodeId c : copies) {
      split(g, c, fields);
      ++changes;
    }
  if (changes) g.finish();
  return changes;
}

}  // namespace pl::sonopt
