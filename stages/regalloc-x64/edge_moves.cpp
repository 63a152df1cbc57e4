// edge_moves.cpp - the moves at the end of a predecessor of a merge: every
// value live into the merge, and every phi's input for this edge, from the
// place it is in to the place the merge expects (seed 001, "Register
// Assignment for a Program Unit": a block's outgoing ports meet the
// successor's incoming ports; the seed's "Parallel Move Engine" is the
// algorithm, over registers and slots alike).
//
// Algorithm. The moves form a graph over places in which each target has one
// source (targets are distinct). Repeatedly: a move whose target no pending
// move still reads is done (x64:mov, x64:spill, x64:reload; slot to slot
// through a scratch register); when none is ready, every pending move lies
// on a cycle: a cycle step between two registers is an x64:xchg (the seed's
// swap), any other breaks the cycle by copying its target's value aside
// (a register to a fresh slot, a slot to a scratch register) and reading it
// from there. A scratch register is one no pending move reads and no done
// move wrote; when every register is taken, one pending source register is
// first spilled to a fresh slot (this needs no free register, so the move
// always completes).
//
// Needs: each source node's place set (a register or a slot), distinct
// target places. Gives: for each move, the node that holds its value in its
// target place at the end.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "regalloc.h"

namespace pl::ra {

namespace {

// A place as one number: registers 0-31, slots from 32.
uint64_t key(Place p) { return p.is_reg() ? p.reg() : 32 + uint64_t{p.slot()}; }

struct Move {
  Place src, dst;
  size_t j;
};

class EdgeMover {
 public:
  EdgeMover(const Function& fn, MoveSink& sink, bool frame_pointer)
      : fn_(fn), sink_(sink), frame_pointer_(frame_pointer) {}

  std::vector<NodeId> run(const std::vector<NodeId>& from, const std::vector<Place>& to,
                          const std::vector<x64::RegClass>& classes) {
    std::vector<NodeId> result(from.size(), kNone);
    for (size_t j = 0; j < from.size(); ++j) {
      Place src = fn_.nodes[from[j]].place;
      if (!src.is_reg() && !src.is_slot()) throw std::logic_error("regalloc-x64: an edge move's source has no place");
      hold(src, from[j], classes[j]);
      if (src == to[j]) {
        result[j] = from[j];
        done_.push_back(key(src));
      } else {
        pending_.push_back({src, to[j], j});
      }
    }
    while (!pending_.empty()) {
      // A move whose source became its target (a swap did it) is done.
      auto settled = std::find_if(pending_.begin(), pending_.end(), [](const Move& m) { return m.src == m.dst; });
      if (settled != pending_.end()) {
        result[settled->j] = node_in(settled->dst);
        done_.push_back(key(settled->dst));
        pending_.erase(settled);
        continue;
      }
      auto ready = pick_ready();
      if (ready != pending_.end()) {
        Move m = *ready;
        pending_.erase(ready);
        result[m.j] = perform(m);
        continue;
      }
      Move& m = pending_.front();
      if (m.src.is_reg() && m.dst.is_reg() && class_of(m.src) == x64::RegClass::Gpr) {
        Move done = m;
        pending_.erase(pending_.begin());
        result[done.j] = swap(done);
      } else {
        set_aside(m.dst);
      }
    }
    return result;
  }

 private:
  bool is_source(uint64_t k) const {
    return std::any_of(pending_.begin(), pending_.end(), [&](const Move& m) { return key(m.src) == k; });
  }
  bool is_done(uint64_t k) const { return std::find(done_.begin(), done_.end(), k) != done_.end(); }

  // A ready move, register moves before slot-to-slot ones (which need a
  // scratch register that a pending register move may still free).
  std::vector<Move>::iterator pick_ready() {
    auto best = pending_.end();
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      if (is_source(key(it->dst))) continue;
      if (!(it->src.is_slot() && it->dst.is_slot())) return it;
      if (best == pending_.end()) best = it;
    }
    return best;
  }

  NodeId copy(Op op, Place src, Place dst) {
    NodeId n = sink_.copy(op, node_in(src), dst);
    hold(dst, n, class_of(src));
    return n;
  }

  // What each place holds now: a handful of places per edge, so a flat
  // table searched from the back (the newest entry for a place wins).
  struct Held {
    uint64_t place;
    NodeId node;
    x64::RegClass cls;
  };
  void hold(Place p, NodeId n, x64::RegClass c) { held_.push_back({key(p), n, c}); }
  const Held* held(Place p) const {
    uint64_t k = key(p);
    for (auto it = held_.rbegin(); it != held_.rend(); ++it)
      if (it->place == k) return &*it;
    return nullptr;
  }
  NodeId node_in(Place p) const {
    if (const Held* h = held(p)) return h->node;
    throw std::logic_error("regalloc-x64: an edge move reads a place that holds no value");
  }
  x64::RegClass class_of(Place p) const {
    const Held* h = held(p);
    return h ? h->cls : x64::RegClass::Gpr;
  }

  NodeId perform(const Move& m) {
    NodeId n;
    if (m.src.is_reg())
      n = copy(m.dst.is_reg() ? X64Mov : X64Spill, m.src, m.dst);
    else if (m.dst.is_reg())
      n = copy(X64Reload, m.src, m.dst);
    else
      n = copy(X64Spill, scratch_holding(m.src, class_of(m.src)), m.dst);
    done_.push_back(key(m.dst));
    return n;
  }

  // Exchanges the registers of a cycle step; moves that read the target now
  // read the source register.
  NodeId swap(const Move& m) {
    auto [to_dst, to_src] = sink_.xchg(node_in(m.src), node_in(m.dst));
    x64::RegClass src_class = class_of(m.src), dst_class = class_of(m.dst);
    hold(m.dst, to_dst, src_class);  // the registers traded values
    hold(m.src, to_src, dst_class);
    for (Move& o : pending_) {  // the two registers changed values
      if (o.src == m.dst)
        o.src = m.src;
      else if (o.src == m.src)
        o.src = m.dst;
    }
    done_.push_back(key(m.dst));
    return to_dst;
  }

  // Copies the value in `p` (a pending source on a cycle) elsewhere: an
  // xmm register into a free xmm register when there is one (there is no
  // xchg for xmm), else a register into a fresh slot; a slot into a scratch
  // register of its value's class.
  void set_aside(Place p) {
    x64::RegClass c = class_of(p);
    if (p.is_reg() && c == x64::RegClass::Xmm) {
      if (std::optional<Place> r = free_scratch(c)) {
        copy(X64Mov, p, *r);
        redirect(p, *r);
        return;
      }
    }
    if (p.is_reg()) {
      Place slot = sink_.fresh_slot();
      copy(X64Spill, p, slot);
      redirect(p, slot);
    } else {
      redirect(p, scratch_holding(p, c));
    }
  }

  // Loads the slot `p` into a scratch register of class c; returns the register.
  Place scratch_holding(Place p, x64::RegClass c) {
    Place r = scratch(c);
    copy(X64Reload, p, r);
    return r;
  }

  // A register of class c that no pending move reads and no done move wrote.
  std::optional<Place> free_scratch(x64::RegClass c) const {
    x64::RegMask regs = class_regs(c);
    for (unsigned r = 0; r < 32; ++r) {
      if (!(regs & (1u << r))) continue;
      if (!is_source(r) && !is_done(r)) return Place::reg(r);
    }
    return std::nullopt;
  }

  Place scratch(x64::RegClass c) {
    if (std::optional<Place> r = free_scratch(c)) return *r;
    x64::RegMask regs = class_regs(c);
    for (unsigned r = 0; r < 32; ++r) {  // every register busy: free one
      if (!(regs & (1u << r)) || is_done(r)) continue;
      set_aside(Place::reg(r));
      return Place::reg(r);
    }
    throw std::logic_error("regalloc-x64: no scratch register for an edge move");
  }

  x64::RegMask class_regs(x64::RegClass c) const {
    return c == x64::RegClass::Xmm ? x64::kAllocatableXmm : x64::allocatable_gpr(frame_pointer_);
  }

  void redirect(Place from, Place to) {
    for (Move& m : pending_)
      if (m.src == from) m.src = to;
  }

  const Function& fn_;
  MoveSink& sink_;
  bool frame_pointer_;
  std::vector<Held> held_;  // place -> the node whose value it holds now, and its class
  std::vector<Move> pending_;
  std::vector<uint64_t> done_;  // targets written with their final value
};

}  // namespace

std::vector<NodeId> edge_moves(const Function& fn, const std::vector<NodeId>& from, const std::vector<Place>& to,
                               const std::vector<x64::RegClass>& classes, MoveSink& sink, bool frame_pointer) {
  return EdgeMover(fn, sink, frame_pointer).run(from, to, classes);
}

}  // namespace pl::ra
