// alias.h - the alias analysis sonopt's memory passes share: base objects
// and constant offsets (as in LLVM's BasicAA), over a son Graph.
//
// An address is decomposed into a root and a constant byte offset through
// `add "ptr", x, const` chains. The root is a base object when it is a
// `stackslot` (each node its own object) or a `symaddr` (an object per
// symbol name); any other root is an unknown pointer. Rules:
//  - two accesses from the same root (or the same object) with known
//    offsets overlap iff their byte ranges do, and must alias iff offset and
//    size are equal;
//  - different stack slots and symbols never alias (C objects are disjoint);
//  - a stack slot whose address never escapes is "private": every use of it,
//    through constant-offset adds, is the address of a plain load or store.
//    No unknown pointer, call or copy can reach a private slot;
//  - anything else may alias.
// underlying_object() goes further, for the passes that need no offsets
// (licm): through `add "ptr"` of any offset, taking the input whose type is
// ptr, to a stack slot or symbol. C pointer arithmetic stays inside its
// object (anything else is undefined behaviour), so two accesses whose
// underlying objects differ never alias; integer arithmetic on addresses
// (`add "i64"`) is not followed.

// The analysis reads the graph; it is valid until the graph changes (the
// escape facts are computed once, in the constructor; recheck_slot()
// recomputes one slot's after an edit, as a new analysis would).
#pragma once

#include <cstdint>
#include <vector>

#include "graph.h"

namespace pl::sonopt {

struct Address {
  NodeId root = kNone;  // what the constant offsets are added to (kNone: chain too long)
  NodeId base = kNone;  // root when it is a stackslot or symaddr, else kNone (unknown)
  int64_t offset = 0;
};

enum class Alias { No, May, Must };

class AliasAnalysis {
 public:
  explicit AliasAnalysis(const Graph& g);

  Address decompose(NodeId address) const;
  // Whether [a, a+a_size) and [b, b+b_size) may or must overlap.
  Alias alias(Address a, uint64_t a_size, Address b, uint64_t b_size) const;
  // The stack slot or symaddr `address` points into, through ptr adds of
  // any offset; kNone when unknown.
  NodeId underlying_object(NodeId address) const;
  // Whether two addresses point into different objects (both known).
  bool distinct_objects(NodeId a, NodeId b) const;
  // Whether base is a stack slot whose address never escapes.
  bool private_slot(NodeId base) const;
  // Recomputes whether `slot` (a live stack slot the analysis was built
  // with) is private, after edits to the graph; returns the new answer.
  bool recheck_slot(NodeId slot);
  // The plain loads and stores that access a private slot (empty for any
  // other node), in id order.
  std::vector<NodeId> slot_accesses(NodeId slot) const;

 private:
  bool slot_escapes(NodeId slot) const;
  bool same_object(NodeId a, NodeId b) const;

  const Graph& g_;
  std::vector<bool> private_;
};

// The size in bytes of the type a load or store accesses.
uint64_t access_size(const Node& access);

// Whether memory state m is the memory result of a node that cannot read or
// write a private stack slot (a call's, volatile load's or va_arg's memory
// proj, a volatile store, a copy, a va_start: their va_list escapes, and the
// variadic arguments are no stack slot; alloca, stacksave, stackrestore:
// they touch alloca blocks only); then its memory input, else kNone.
NodeId memory_input_skipping_private(const Graph& g, NodeId m);

}  // namespace pl::sonopt
