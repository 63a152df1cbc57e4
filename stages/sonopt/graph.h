// graph.h - the editable sea of nodes every sonopt pass works on.
//
// A Graph wraps one son-level Function for the length of one pass
// application: it adds def-use lists (users(n): one entry per input or
// control edge that reads n) and a dead mark, and keeps both up to date
// through the few edits passes make (add a node, redirect an edge, replace
// every use of a node, drop a region's control input with the matching phi
// inputs, kill a node nobody uses). finish() writes the result back into the
// Function: dead nodes dropped, the others renumbered in their old order
// (so an untouched graph keeps every id, and a second run that changes
// nothing is byte-identical).
//
// Invariant kept by every edit: users_ is exactly the reverse of the live
// nodes' input and control lists; a dead node has no edges and no users.
//
// Debug value bindings (FunctionDebug::binds) are no edges: a bound node
// dies like any other. replace_uses records where its uses went, and
// finish() moves a binding of a node that died to the node that took its
// uses (the same value, which is why the uses could move), or makes it a
// kill when that one died too.
//
// A binding's position (a control point, or a memory state an effect of
// that block made: DebugBind::pos) moves the same way, to the point in the
// code where the one that went was:
//  - a memory state whose uses go to another one (a dead store, a call
//    removed or folded: the effect is gone, the earlier state stands where
//    it was) moves to it if that one is made in the same block, else to
//    the block's start (never into another block: that would run the
//    binding on paths that do not assign);
//  - a control point whose uses go to another one (simplify-cfg joining a
//    block to its only predecessor) moves to the end of that one's block:
//    its last memory state, else its start;
//  - passes that move code between blocks say where a position goes
//    (move_position: inline's call continuation, a folded branch's
//    surviving side), or that a side of a branch went without code
//    (retire_position: the bindings there become kills at the merge,
//    before the merge's own bindings, after any other that ends up at the
//    same position);
//  - any other position that goes makes its bindings lost (the variable is
//    shown nowhere: never a binding in force on a path that does not
//    assign, or before the assignment).
//
// Made with the function's FunctionCache (pass_manager.h), a Graph starts
// from the def-use lists a Graph of the unchanged function left there, and
// son_cfg() from the blocks and dominators one built; if it edits nothing,
// it leaves its lists (and blocks) there in turn. Its first edit clears the
// cache, so nothing built for the old graph survives a change. Passes edit
// only through these methods (there is no non-const function()).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string_view>
#include <vector>

#include "ir/eval.h"
#include "ir/ir.h"
#include "tool/pass_manager.h"
#include "ir/small_vec.h"

namespace pl::sonopt {

inline constexpr NodeId kNone = ~NodeId{0};

// A node's users; most nodes have at most three, kept inline (small_vec.h),
// so building the lists for a function allocates only for the few nodes
// with more (control points, shared values).
using UserList = SmallVec<NodeId, 3>;

struct SonCfg;

class Graph {
 public:
  explicit Graph(Function& fn) : Graph(fn, nullptr) {}
  Graph(Function& fn, FunctionCache& cache) : Graph(fn, &cache) {}
  Graph(Function& fn, FunctionCache* cache);  // (null: none)
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  const Function& function() const { return fn_; }
  // The blocks and dominators of the graph as it is now (son_cfg.h): the
  // cached ones while nothing was edited, else built (and cached while
  // nothing is edited). Holders keep theirs after later edits.
  std::shared_ptr<const SonCfg> son_cfg();
  NodeId size() const { return static_cast<NodeId>(fn_.nodes.size()); }
  const Node& node(NodeId n) const { return fn_.nodes[n]; }
  OpId op(NodeId n) const { return fn_.nodes[n].op; }
  bool alive(NodeId n) const { return !dead_[n]; }
  bool has(NodeId n, uint32_t flag) const { return op(n) < kNumOps && op_info(op(n)).has(flag); }
  const UserList& users(NodeId n) const { return users_[n]; }
  // Whether n is a `const` node; its value (in the value representation of
  // its type) and type.
  bool is_const(NodeId n) const { return op(n) == Op::Const; }
  uint64_t const_value_of(NodeId n) const;
  ValueType const_type(NodeId n) const;
  // Constants of any type, integer (`const`) or floating (`fconst`): the
  // value in its type's value representation (an f32 is its 32-bit
  // pattern, common/ir/eval_float.h), or nullopt for any other node.
  std::optional<uint64_t> constant_value(NodeId n) const;
  std::optional<ValueType> constant_type(NodeId n) const;

  NodeId add(Node node);
  // Adds a node with no control input (a pure value, a phi's input side is
  // set by the caller): op, literals, inputs and source location.
  NodeId add_node(OpId op, LiteralList literals, InputList inputs, Loc loc, ControlList control = {});
  // The live proj `index` of tuple node `tuple` (the lowest id if several),
  // or kNone.
  NodeId proj(NodeId tuple, int64_t index) const;
  // Whether every user of n is in `allowed` (true when n has none).
  bool used_only_by(NodeId n, std::initializer_list<NodeId> allowed) const;
  // Appends nodes whose edges may point forward into the batch (ids
  // size(), size()+1, ...), then records their edges.
  void add_all(std::vector<Node> nodes);
  // The number of live nodes (what finish() would leave).
  size_t live_count() const { return dead_.size() - dead_count_; }
  NodeId add_const(ValueType type, uint64_t value, Loc loc);
  // A `const` for an integer type, an `fconst` (exact bits) for f32/f64.
  NodeId add_constant(ValueType type, uint64_t value, Loc loc);
  void set_input(NodeId n, size_t i, NodeId v);
  void set_control(NodeId n, size_t i, NodeId c);
  void set_literal(NodeId n, size_t i, Literal lit) {
    edit();
    fn_.nodes[n].literals[i] = std::move(lit);
  }
  void set_op(NodeId n, OpId op) {
    edit();
    fn_.nodes[n].op = op;
  }
  // Every edge into `old` now goes into `with` (old keeps no users).
  void replace_uses(NodeId old, NodeId with);
  // Removes control input i of a region and input i of each of its phis.
  void remove_region_input(NodeId region, size_t i);
  // Marks an unused node dead and drops its edges.
  void kill(NodeId n);
  // Kills every node of `set`, which must hold every user of its members
  // (a set closed under users, such as what a mark phase left unmarked).
  void kill_set(const std::vector<NodeId>& set);
  // Kills n if nothing uses it and it may go (not pinned, or a phi/proj),
  // then the same for its inputs, transitively. Returns the count killed.
  size_t kill_if_unused(NodeId n);
  // Removes a call: the users of its result proj read `value` (kNone: the
  // result must have none), those of its memory proj `mem`; the call goes,
  // then its inputs that nothing else reads.
  void replace_call(NodeId call, NodeId value, NodeId mem);

  // Appends a debug value binding (scalar-replace: a variable whose slot
  // became values); its variable keeps no slot.
  void add_binding(DebugBind b);
  // Debug binding positions (see the header comment): the bindings at
  // `from` take effect at `to` (a control point or a memory state).
  void move_position(NodeId from, NodeId to);
  // The bindings at `from` (a branch side without code) become kills at
  // control point `to`, in force before the bindings already there.
  void retire_position(NodeId from, NodeId to);
  // The position just after the last memory state an effect of control
  // point `block` makes (kNone if there are several last ones), else
  // `block`: where the block's code ends.
  NodeId end_position(NodeId block) const;
  // The position of memory state `m` for code in `block`: m's own when an
  // effect of `block` makes it, else `block` (its start).
  NodeId memory_position_in(NodeId m, NodeId block) const;

  // Writes the graph back into the function (see the header comment).
  // Returns the number of nodes dropped.
  size_t finish();

 private:
  void add_user(NodeId of, NodeId user) { users_[of].push_back(user); }
  void remove_user(NodeId of, NodeId user);
  void build_users();
  // Called first by every edit: the cache no longer describes the function.
  void forward_debug_bindings(const std::vector<NodeId>& new_id) const;
  void forward_debug_positions(const std::vector<NodeId>& new_id) const;
  bool tracks_positions() const { return !fn_.debug.binds.empty(); }
  bool makes_memory(NodeId n) const;
  NodeId block_of_memory(NodeId m) const;  // the control point an effect making m hangs off, or kNone
  void set_position_forward(NodeId from, NodeId to, uint8_t how);
  void edit() {
    if (edited_) return;
    edited_ = true;
    cfg_.reset();
    if (cache_) cache_->clear();
  }

  Function& fn_;
  std::vector<UserList> users_;
  std::vector<uint8_t> dead_;
  size_t dead_count_ = 0;  // bytes, not bits: alive() is asked per node by every pass
  FunctionCache* cache_ = nullptr;
  bool edited_ = false;
  std::shared_ptr<const SonCfg> cfg_;
  std::vector<NodeId> forward_;  // replace_uses: old -> with (only while there are bindings)
  // Positions that went: old -> the position in its place, and how
  // (kPosMoved, kPosRetired; 0: none recorded).
  std::vector<NodeId> pos_forward_;
  std::vector<uint8_t> pos_how_;
};

// Visited marks for walks over a graph, reused across walks so that each
// costs what it visits, not the graph's size: a node is seen in the
// current walk when its mark equals the walk's stamp.
struct WalkMarks {
  std::vector<uint32_t> mark;
  uint32_t stamp = 0;
  // Starts a walk over a graph of `size` nodes.
  void start(NodeId size) {
    if (mark.size() < size) mark.resize(size, 0);
    ++stamp;
  }
  // Whether n was already seen in this walk; marks it.
  bool seen(NodeId n) {
    if (mark[n] == stamp) return true;
    mark[n] = stamp;
    return false;
  }
};

// The type of the value node n, when its literals or inputs say it (nullopt
// for memory, control, tuples, and phis of those).
std::optional<ValueType> result_type(const Graph& g, NodeId n);

// Whether fn has a node with opcode op (a pass with nothing to work on can
// return before building a Graph).
inline bool has_op(const Function& fn, OpId op) {
  for (const Node& nd : fn.nodes)
    if (nd.op == op) return true;
  return false;
}

// Kahn order of the live nodes over input and control edges, phi inputs and
// region control inputs excepted (the son contract makes that acyclic); ties
// go to the lowest id. Nodes on a cycle the contract forbids are left out.
std::vector<NodeId> topological_order(const Graph& g);

// Literal for a `const` of `type` holding `value` (value representation):
// the signed reading of the bits, as c2ast writes constants.
Literal const_literal(ValueType type, uint64_t value);

}  // namespace pl::sonopt
