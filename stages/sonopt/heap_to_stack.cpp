// heap_to_stack.cpp - allocations by the C library's malloc and calloc
// whose address does not escape: deleted with their free when nothing reads
// them, else made stack slots, which scalar-replace then turns into values
// (LLVM's InstCombine isAllocSiteRemovable for the first; the Attributor's
// HeapToStack, with its 128-byte limit, for the second; gcc reaches the
// same results by DSE and DCE of malloc/free pairs).
//
// Which calls: malloc(n) and calloc(k, m) by library.h's rules (an extern,
// not defined here, not nobuiltin). Their result P is followed through
// pointer adds (of any offset: C pointer arithmetic stays inside its
// object) to its uses, each of which must be one of
//  - the address of a plain (non-volatile) load, store, or copy (as
//    destination or source); a store of a derived pointer as a value is an
//    escape;
//  - `eq`/`ne` of P itself with the null pointer constant, or an `if` on P;
//  - free(P), the call's only argument P itself.
// Anything else is an escape and the allocation stays: a phi (the pointer
// would outlive one execution of the call: two allocations could be alive
// at once), a call argument, a return, a store of the pointer, a compare
// with another pointer, an integer conversion, a volatile or atomic access.
// Because the pointer reaches nothing but these, no other code can see the
// object, and each execution of the call makes the only object its uses see
// until the next execution (an SSA value of a loop body is the current
// iteration's; only a phi would carry an older one).
//
// Rewrites:
//  - write-only (no load reads it, no copy reads from it), any size: every
//    store and copy into it, every free of it and the call go (their memory
//    users read their memory input); what they computed is dead. An object
//    nothing reads cannot make a difference.
//  - otherwise, when the size is a constant from 1 to kMaxStackBytes (for
//    calloc, k * m without overflow): the object becomes a `stackslot` of
//    that size aligned to 16 (malloc's alignment on x86-64), P's uses its
//    address, every free of it goes. calloc's zeroing becomes stores of 0
//    at the call's place in the memory chain: one per field when every
//    access is a load or store at a constant offset and they form fields
//    (scalar-replace's rule: same offset, same type; disjoint), so that
//    scalar-replace can take the slot; else in pieces of 8, 4, 2 and 1
//    bytes. A slot is one object per frame: it may live in the frame for
//    the whole call where the heap object lived from malloc to free, which
//    is what the size limit bounds (a recursive function's frames grow by
//    at most kMaxStackBytes per allocation).
// In both, each null test of P becomes the constant of a successful
// allocation (`eq` 0, `ne` 1, an `if` on P branches on 1): gcc and LLVM assume so of an allocation
// they remove. A program that tests malloc's result against null to see
// whether memory ran out gets the success branch, the outcome any
// allocation that happened to succeed gives; malloc may fail, never must.
// A malloc with no user of its result goes whatever its size. realloc is
// not handled (its result aliases the old object's bytes, which would need
// the copy modeled); nor are allocations whose size is not constant, unless
// write-only.
// Invariants needed: the son contract. Kept: the son contract (stores of
// calloc's zeros are pinned at the call's control, in the chain where the
// call was; the calls removed leave their memory input to their users).
#include <map>

#include "alias.h"
#include "library.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr uint64_t kMaxStackBytes = 128;
constexpr size_t kMaxUses = 4096;

bool is_ptr_add(const Node& nd) { return nd.op == Op::Add && literal_value_type(nd.literals[0]) == ValueType::Ptr; }

bool is_null(const Graph& g, NodeId n) { return g.is_const(n) && g.const_value_of(n) == 0; }

class Allocation {
 public:
  Allocation(Graph& g, const ModuleHeader& header, NodeId call, Lib kind)
      : g_(g), header_(header), call_(call), kind_(kind) {}

  bool run() {
    const Node& nd = g_.node(call_);
    for (NodeId u : g_.users(call_))
      if (g_.op(u) == Op::Proj && g_.node(u).literals[0].as_int() == 1) results_.push_back(u);
    if (!collect()) return false;
    uint64_t size = 0;  // 0: not a constant (or 0, which no slot has)
    if (auto n = constant(nd.inputs[2])) size = *n;
    if (kind_ == Lib::Calloc) {
      std::optional<uint64_t> m = constant(nd.inputs[3]);
      size = m && (*m == 0 || size <= UINT64_MAX / *m) ? size * *m : 0;
    }
    if (reads_ == 0) {
      remove_writes();
      finish(kNone, g_.node(call_).inputs[0]);
      return true;
    }
    if (size == 0 || size > kMaxStackBytes) return false;
    Loc loc = nd.loc;
    NodeId slot = g_.add_node(Op::StackSlot, {Literal::integer(static_cast<int64_t>(size)), Literal::integer(16)}, {},
                              loc);
    NodeId mem = g_.node(call_).inputs[0];
    if (kind_ == Lib::Calloc) mem = zero(slot, size, mem);
    finish(slot, mem);
    return true;
  }

 private:
  std::optional<uint64_t> constant(NodeId n) const {
    if (!g_.is_const(n)) return std::nullopt;
    return g_.const_value_of(n);
  }

  // Classifies every use of the result (see the header comment); false on
  // an escape.
  bool collect() {
    std::vector<std::pair<NodeId, int64_t>> stack;  // derived pointer, its constant offset (or kVariable)
    for (NodeId r : results_) stack.push_back({r, 0});
    size_t visited = 0;
    std::vector<NodeId> derived;
    while (!stack.empty()) {
      auto [d, offset] = stack.back();
      stack.pop_back();
      derived.push_back(d);
      bool is_result = g_.op(d) == Op::Proj;
      for (NodeId u : g_.users(d)) {
        if (++visited > kMaxUses) return false;
        const Node& un = g_.node(u);
        switch (un.op) {
          case Op::Load:
            if (un.inputs[1] != d) return false;
            ++reads_;
            note_access(u, offset);
            break;
          case Op::Store:
            if (un.inputs[1] != d || un.inputs[2] == d) return false;
            writes_.push_back(u);
            note_access(u, offset);
            break;
          case Op::Copy:
            if (un.inputs[2] == d) ++reads_;
            if (un.inputs[1] == d) writes_.push_back(u);
            if (un.inputs[0] == d) return false;
            fields_ok_ = false;
            break;
          case Op::Eq: case Op::Ne:
            if (!is_result || !(is_null(g_, un.inputs[0]) || is_null(g_, un.inputs[1]))) return false;
            null_tests_.push_back(u);
            break;
          case Op::If:  // a branch on the pointer itself: `if (p)`
            if (!is_result) return false;
            null_tests_.push_back(u);
            break;
          case Op::Call: {
            const LibFunction* lib = library_callee(g_, u, header_, g_.function().attrs);
            if (!is_result || !lib || lib->kind != Lib::Free || un.inputs[2] != d) return false;
            frees_.push_back(u);
            break;
          }
          default:
            if (!is_ptr_add(un)) return false;
            if (un.inputs[0] == d && un.inputs[1] != d) {
              stack.push_back({u, g_.is_const(un.inputs[1]) && offset != kVariable
                                      ? offset + static_cast<int64_t>(g_.const_value_of(un.inputs[1]))
                                      : kVariable});
            } else if (un.inputs[1] == d && un.inputs[0] != d) {
              stack.push_back({u, kVariable});
            } else {
              return false;
            }
        }
      }
    }
    std::sort(writes_.begin(), writes_.end());
    writes_.erase(std::unique(writes_.begin(), writes_.end()), writes_.end());
    std::sort(frees_.begin(), frees_.end());
    frees_.erase(std::unique(frees_.begin(), frees_.end()), frees_.end());
    std::sort(null_tests_.begin(), null_tests_.end());
    null_tests_.erase(std::unique(null_tests_.begin(), null_tests_.end()), null_tests_.end());
    return true;
  }

  void note_access(NodeId access, int64_t offset) {
    if (offset == kVariable) {
      fields_ok_ = false;
      return;
    }
    const Literal& type = g_.node(access).literals[0];
    auto [it, fresh] = fields_.emplace(offset, type);
    if (!fresh && !(it->second == type)) fields_ok_ = false;
  }

  // Stores of zero to the whole of the slot, chained from mem (see the
  // header comment); the last memory state.
  NodeId zero(NodeId slot, uint64_t size, NodeId mem) {
    const Node nd = g_.node(call_);
    std::vector<std::pair<int64_t, ValueType>> pieces;
    if (fields_ok_) {
      int64_t end = 0;
      for (const auto& [offset, type] : fields_) {
        ValueType t = *literal_value_type(type);
        if (offset < end || offset < 0 || offset + static_cast<int64_t>(type_bytes(t)) > static_cast<int64_t>(size)) {
          fields_ok_ = false;
          break;
        }
        end = offset + static_cast<int64_t>(type_bytes(t));
        pieces.push_back({offset, t});
      }
    }
    if (!fields_ok_) {
      pieces.clear();
      for (uint64_t pos = 0; pos < size;) {
        uint64_t piece = 8;
        while (piece > size - pos) piece /= 2;
        pieces.push_back({static_cast<int64_t>(pos), piece == 8   ? ValueType::I64
                                                     : piece == 4 ? ValueType::I32
                                                     : piece == 2 ? ValueType::I16
                                                                  : ValueType::I8});
        pos += piece;
      }
    }
    for (auto [offset, t] : pieces) {
      NodeId addr = slot;
      if (offset != 0)
        addr = g_.add_node(Op::Add, {Literal::string("ptr")},
                           {slot, g_.add_const(ValueType::I64, static_cast<uint64_t>(offset), nd.loc)}, nd.loc);
      mem = g_.add_node(Op::Store, {Literal::string(value_type_name(t))}, {mem, addr, g_.add_constant(t, 0, nd.loc)},
                        nd.loc, nd.control);
    }
    return mem;
  }

  // Unlinks the stores and copies into the object.
  void remove_writes() {
    for (NodeId w : writes_) {
      std::vector<NodeId> inputs(g_.node(w).inputs.begin() + 1, g_.node(w).inputs.end());
      g_.replace_uses(w, g_.node(w).inputs[0]);
      g_.kill(w);
      for (NodeId in : inputs) g_.kill_if_unused(in);
    }
  }

  // Removes a call whose results nothing needs any more: its memory users
  // read `mem`, its value users `value`.
  void remove_call(NodeId call, NodeId value, NodeId mem) {
    g_.replace_call(call, value, mem);
  }

  // The frees and null tests go; the allocation's result becomes `slot`
  // (kNone: it has no users left), its memory `mem`.
  void finish(NodeId slot, NodeId mem) {
    for (NodeId f : frees_) remove_call(f, kNone, g_.node(f).inputs[0]);
    for (NodeId t : null_tests_) {
      if (g_.op(t) == Op::If) {
        g_.set_input(t, 0, g_.add_const(ValueType::I32, 1, g_.node(t).loc));
        continue;
      }
      NodeId c = g_.add_const(ValueType::I32, g_.op(t) == Op::Ne ? 1 : 0, g_.node(t).loc);
      std::vector<NodeId> inputs(g_.node(t).inputs.begin(), g_.node(t).inputs.end());
      g_.replace_uses(t, c);
      g_.kill(t);
      for (NodeId in : inputs)
        if (g_.op(in) != Op::Proj) g_.kill_if_unused(in);
    }
    if (slot == kNone) {
      // Nothing reads the result any more but dead address arithmetic.
      for (NodeId r : results_)
        for (bool again = true; again;) {
          again = false;
          for (NodeId u : g_.users(r))
            if (g_.kill_if_unused(u)) {
              again = true;
              break;
            }
        }
    }
    remove_call(call_, slot, mem);
  }

  static constexpr int64_t kVariable = INT64_MIN;

  Graph& g_;
  const ModuleHeader& header_;
  NodeId call_;
  Lib kind_;
  std::vector<NodeId> results_;
  size_t reads_ = 0;
  std::vector<NodeId> writes_, frees_, null_tests_;
  std::map<int64_t, Literal> fields_;
  bool fields_ok_ = true;
};

}  // namespace

size_t heap_to_stack(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  if (!mentions_library_function(header, {Lib::Malloc, Lib::Calloc}) || !has_op(fn, Op::Call)) return 0;
  Graph g(fn, cache);
  std::vector<std::pair<NodeId, Lib>> allocations;
  for (NodeId n = 0; n < g.size(); ++n) {
    if (!g.alive(n) || g.op(n) != Op::Call) continue;
    const LibFunction* lib = library_callee(g, n, header, fn.attrs);
    if (lib && (lib->kind == Lib::Malloc || lib->kind == Lib::Calloc)) allocations.push_back({n, lib->kind});
  }
  size_t changes = 0;
  for (auto [call, kind] : allocations)
    if (g.alive(call) && Allocation(g, header, call, kind).run()) ++changes;
  if (changes) g.finish();
  return changes;
}

}  // namespace pl::sonopt
