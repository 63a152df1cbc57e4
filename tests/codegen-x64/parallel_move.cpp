// parallel_move.cpp - checks the parallel move engine (stages/codegen-x64/
// parallel_move.h) on every parallel move over small sets of locations, by
// running its output on a simulated machine: each of six locations either
// receives no move or a move from any of the six (7^6 cases per set), with
// no, one or two free scratch registers. Checked: every destination gets its
// source's original value, every other location but the free registers
// keeps its own, no operation has two memory operands, register-only moves
// take no more operations than moves, and with two free registers nothing
// is exchanged with memory (x86 locks those). Exit 0 when all hold.
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel_move.h"

using namespace pl::x64;

namespace {

struct Machine {
  std::map<std::pair<int, int32_t>, long> cells;  // (kind, reg or slot) -> value
  static std::pair<int, int32_t> key(const Location& l) {
    return {static_cast<int>(l.kind), l.is_reg() ? static_cast<int32_t>(l.reg) : l.slot};
  }
  long& at(const Location& l) { return cells[key(l)]; }
};

std::string describe(const std::vector<Move>& moves, RegMask free) {
  std::string s;
  for (const Move& m : moves) s += to_string(m.dst) + " <- " + to_string(m.src) + "; ";
  return s + "free " + std::to_string(free);
}

int failures = 0;
long cases = 0;

void fail(const std::vector<Move>& moves, RegMask free, const std::vector<MoveOp>& ops, const std::string& why) {
  if (++failures > 10) return;
  std::printf("FAIL: %s\n  %s\n", describe(moves, free).c_str(), why.c_str());
  for (const MoveOp& op : ops)
    std::printf("    %s %s, %s\n", op.kind == MoveOp::Kind::Move ? "mov" : "xchg", to_string(op.dst).c_str(),
                to_string(op.src).c_str());
}

void check(const std::vector<Location>& universe, const std::vector<Move>& moves, RegMask free) {
  ++cases;
  std::vector<MoveOp> ops = sequentialize_moves(moves, free);
  Machine m;
  long next = 1;
  for (int r = 0; r < 16; ++r) m.at(Location::r(static_cast<Reg>(r))) = next++;
  for (const Location& l : universe) if (!l.is_reg()) m.at(l) = next++;
  Machine before = m;
  for (const MoveOp& op : ops) {
    if (!op.dst.is_reg() && !op.src.is_reg()) return fail(moves, free, ops, "an operation with two memory operands");
    if (op.dst == op.src) return fail(moves, free, ops, "an operation on one location");
    if (op.kind == MoveOp::Kind::Move) {
      m.at(op.dst) = m.at(op.src);
    } else {
      std::swap(m.at(op.dst), m.at(op.src));
    }
  }
  bool regs_only = true;
  size_t real_moves = 0;
  for (const Move& mv : moves) {
    regs_only = regs_only && mv.dst.is_reg() && mv.src.is_reg();
    if (!(mv.dst == mv.src)) ++real_moves;
    if (m.at(mv.dst) != before.at(mv.src))
      return fail(moves, free, ops, to_string(mv.dst) + " does not hold " + to_string(mv.src) + "'s value");
  }
  for (auto& [key, value] : before.cells) {
    Location l = key.first == 0 ? Location::r(static_cast<Reg>(key.second)) : Location::stack(key.second);
    bool is_dst = false;
    for (const Move& mv : moves) is_dst = is_dst || mv.dst == l;
    bool is_free = l.is_reg() && (free & reg_bit(l.reg));
    if (!is_dst && !is_free && m.cells[key] != value) return fail(moves, free, ops, to_string(l) + " was clobbered");
  }
  if (regs_only && ops.size() > real_moves) return fail(moves, free, ops, "more operations than register moves");
  if (ops.size() > 3 * real_moves + 2) return fail(moves, free, ops, "too many operations");
  if (__builtin_popcount(free) >= 2)
    for (const MoveOp& op : ops)
      if (op.kind == MoveOp::Kind::Xchg && !(op.dst.is_reg() && op.src.is_reg()))
        return fail(moves, free, ops, "an exchange with memory although two registers are free");
}

// Every map from the universe to (no move | a source in the universe).
void exhaust(const std::vector<Location>& universe, RegMask free) {
  size_t n = universe.size();
  std::vector<size_t> choice(n, 0);  // 0 = no move, k = source universe[k-1]
  while (true) {
    std::vector<Move> moves;
    for (size_t i = 0; i < n; ++i)
      if (choice[i]) moves.push_back(Move{universe[i], universe[choice[i] - 1]});
    check(universe, moves, free);
    size_t i = 0;
    while (i < n && ++choice[i] == n + 1) choice[i++] = 0;
    if (i == n) return;
  }
}

}  // namespace

int main() {
  using L = Location;
  std::vector<std::vector<Location>> universes = {
      {L::r(Reg::Rax), L::r(Reg::Rcx), L::r(Reg::Rdx), L::stack(0), L::stack(8), L::stack(16)},
      {L::r(Reg::Rax), L::r(Reg::Rbx), L::r(Reg::R8), L::r(Reg::R12), L::r(Reg::R15), L::stack(24)},
      {L::r(Reg::Rcx), L::stack(0), L::stack(8), L::stack(16), L::stack(24), L::stack(32)},
  };
  std::vector<RegMask> frees = {0, reg_bit(Reg::Rsi), reg_bit(Reg::Rsi) | reg_bit(Reg::Rdi)};
  for (const auto& u : universes)
    for (RegMask free : frees) exhaust(u, free);
  // Two moves to one place are a caller's bug, reported as such.
  bool threw = false;
  try {
    std::vector<Move> bad = {{L::r(Reg::Rax), L::r(Reg::Rcx)}, {L::r(Reg::Rax), L::r(Reg::Rdx)}};
    sequentialize_moves(bad, 0);
  } catch (const std::logic_error&) {
    threw = true;
  }
  if (!threw) {
    std::printf("FAIL: two moves to rax were accepted\n");
    ++failures;
  }
  std::printf("%ld parallel moves checked, %d failures\n", cases, failures);
  return failures ? 1 : 0;
}
