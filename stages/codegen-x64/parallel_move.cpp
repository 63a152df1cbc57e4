// parallel_move.cpp - the parallel move engine; see parallel_move.h.
#include "parallel_move.h"

#include <algorithm>
#include <stdexcept>

namespace pl::x64 {

std::string to_string(const Location& loc) {
  if (loc.is_reg()) return std::string(reg_name(loc.reg));
  return "[slot " + std::to_string(loc.slot) + "]";
}

namespace {

// The seed's order among ready moves: saves, stack to stack, register to
// register, loads.
int phase(const Move& m) {
  if (m.src.is_reg() && !m.dst.is_reg()) return 0;
  if (!m.src.is_reg() && !m.dst.is_reg()) return 1;
  if (m.src.is_reg() && m.dst.is_reg()) return 2;
  return 3;
}

class Sequencer {
 public:
  Sequencer(std::span<const Move> moves, RegMask free) : free_(free & 0xFFFFu & ~reg_bit(Reg::Rsp)) {
    for (const Move& m : moves) {
      for (const Move& p : pending_)
        if (p.dst == m.dst) throw std::logic_error("parallel move: two moves to " + to_string(m.dst));
      for (const Location& l : {m.dst, m.src})
        if (l.is_reg()) free_ &= ~reg_bit(l.reg);
      if (!(m.dst == m.src)) pending_.push_back(m);
    }
  }

  std::vector<MoveOp> run() {
    while (!pending_.empty()) {
      int ready = pick_ready();
      if (ready >= 0) {
        Move m = pending_[ready];
        pending_.erase(pending_.begin() + ready);
        emit_move(m.dst, m.src);
      } else {
        break_cycle();
      }
    }
    return std::move(ops_);
  }

 private:
  bool is_source(const Location& l) const {
    return std::any_of(pending_.begin(), pending_.end(), [&](const Move& m) { return m.src == l; });
  }

  // The ready move of the earliest phase (first in input order on ties), or -1.
  int pick_ready() const {
    int best = -1;
    for (size_t i = 0; i < pending_.size(); ++i)
      if (!is_source(pending_[i].dst) && (best < 0 || phase(pending_[i]) < phase(pending_[best]))) best = static_cast<int>(i);
    return best;
  }

  // A free register nothing pending reads (a scratch copy in use is read).
  std::optional<Reg> scratch() const {
    for (unsigned r = 0; r < 16; ++r)
      if ((free_ & (RegMask{1} << r)) && !is_source(Location::r(static_cast<Reg>(r)))) return static_cast<Reg>(r);
    return std::nullopt;
  }

  void op(MoveOp::Kind kind, Location dst, Location src) { ops_.push_back(MoveOp{kind, dst, src}); }

  void emit_move(Location dst, Location src) {
    if (dst.is_reg() || src.is_reg()) {
      op(MoveOp::Kind::Move, dst, src);
      return;
    }
    if (std::optional<Reg> s = scratch()) {
      op(MoveOp::Kind::Move, Location::r(*s), src);
      op(MoveOp::Kind::Move, dst, Location::r(*s));
      return;
    }
    // No free register: borrow rax and give it back.
    Location b = Location::r(Reg::Rax);
    op(MoveOp::Kind::Xchg, b, src);
    op(MoveOp::Kind::Move, dst, b);
    op(MoveOp::Kind::Xchg, b, src);
  }

  // The cycle through pending_[0], in the order values flow: c[i] -> c[i+1].
  std::vector<Location> cycle() const {
    std::vector<Location> c = {pending_[0].src, pending_[0].dst};
    while (true) {
      auto next = std::find_if(pending_.begin(), pending_.end(), [&](const Move& m) { return m.src == c.back(); });
      if (next == pending_.end()) throw std::logic_error("parallel move: no cycle where one was expected");
      if (next->dst == c.front()) return c;
      c.push_back(next->dst);
    }
  }

  void remove_moves_of(const std::vector<Location>& c) {
    pending_.erase(std::remove_if(pending_.begin(), pending_.end(),
                                  [&](const Move& m) { return std::find(c.begin(), c.end(), m.dst) != c.end(); }),
                   pending_.end());
  }

  void break_cycle() {
    std::vector<Location> c = cycle();
    auto reg_at = std::find_if(c.begin(), c.end(), [](const Location& l) { return l.is_reg(); });
    bool all_regs = std::all_of(c.begin(), c.end(), [](const Location& l) { return l.is_reg(); });
    std::optional<Reg> s = scratch();
    if (!all_regs && s) {
      // Copy one value aside (a register's if the cycle has one) and let
      // its reader take the copy: the cycle becomes a chain.
      Location x = reg_at != c.end() ? *reg_at : c[0];
      op(MoveOp::Kind::Move, Location::r(*s), x);
      for (Move& m : pending_)
        if (m.src == x) m.src = Location::r(*s);
      return;
    }
    remove_moves_of(c);
    if (reg_at != c.end()) {
      // Rotate through the register: xchg(d0, di) puts d0's current value,
      // which is d(i-1)'s original one, in di, for i = 1 .. k-1.
      std::rotate(c.begin(), reg_at, c.end());
      for (size_t i = 1; i < c.size(); ++i) op(MoveOp::Kind::Xchg, c[0], c[i]);
      return;
    }
    // All stack and no free register: rotate through a borrowed register.
    Location b = Location::r(Reg::Rax);
    for (size_t i = 0; i < c.size(); ++i) op(MoveOp::Kind::Xchg, b, c[i]);
    op(MoveOp::Kind::Xchg, b, c[0]);
  }

  RegMask free_;
  std::vector<Move> pending_;
  std::vector<MoveOp> ops_;
};

}  // namespace

std::vector<MoveOp> sequentialize_moves(std::span<const Move> moves, RegMask free) {
  return Sequencer(moves, free).run();
}

}  // namespace pl::x64
