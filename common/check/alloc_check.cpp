// alloc_check.cpp - the allocation checker (alloc_check.h): does the
// machine code an ra-x64 function describes compute what its graph says?
//
// At ra-x64 every value node has a place (a register or a spill slot) and
// every input names the node whose value it reads; moves, spills, reloads
// and exchanges are nodes of their own, each making a new value in a new
// place. Read as machine code, a node reads its inputs from their places and
// writes its result to its own place. The two readings agree exactly when,
// at every read, the input's place still holds that input's value. The
// checker proves this, in the manner of regalloc2's checker (src/checker.rs)
// and of the seed's "Assignment Verification" (its register and slot tables,
// xchg/define/mov/save/load transfer functions and check!), adapted to a
// graph in which a copy is a new node rather than a second name for a vreg.
//
// ALGORITHM. Two parts.
// 1. Static rules, node by node (FORMAT.md section 8, "The ra-x64 level"):
//    - a node has a place exactly when it produces a value (an address
//      node, x64:stackslot/argslot/outarg, has none: it is folded into the
//      addresses that use it as their base, and only there);
//    - places are registers of the value's class (x64.h value_classes: xmm
//      for f32/f64 and 16-byte vectors, general for the rest, rsp never) or
//      spill slots (a vector's two: sN and sN+1, x64.h v128_values); no
//      x64:xchg of xmm values (there is no such instruction);
//    - operand constraints from the machine columns (x64.h): an input that
//      must be in any register, a fixed register (rax for div, rcx for a
//      shift count, the argument registers of a call by position, the
//      return registers of x64:ret), or a slot (x64:reload); a result in any
//      register, a fixed one, the register the literal names (x64:argreg,
//      x64:entryreg), a slot (x64:spill), or its tied input's register
//      (two-address form); a proj in its element's register (x64:xchg: each
//      input's value in the other input's register); an input outside the
//      registers its node's literals forbid (x64.h forbidden_input_regs:
//      the callee of a variadic x64:callind is not in rax, which the call
//      sequence sets to al first);
//    - a phi's inputs are in the phi's place, and the phis of one block have
//      distinct places.
// 2. A forward dataflow over what each place holds. The state maps each
//    location (16 general and 16 xmm registers, the flags, the spill slots)
//    to one code: a node (its value is there), a register's value at entry,
//    a tuple result its proj has not yet taken, "clobbered by node N",
//    "never written", or "conflict" (different on different incoming paths).
//    The meet at a join keeps a code all predecessors agree on, else
//    conflict (regalloc2's lattice of vreg sets met by intersection, with
//    sets of at most one element: copies are distinct nodes here). The
//    transfer of a node: read its inputs, clobber what it clobbers (x64.h:
//    a call every caller-saved register and the flags; an x64:asm the
//    registers its literals clobber, x64.h node_constraints), define its result;
//    along an edge into a merge, each phi's place becomes the phi. Blocks
//    are iterated in reverse postorder to the fixpoint (codes only fall
//    from "unreached" to one value to conflict, so it terminates); then one
//    more pass reports, at each read, a place that does not hold the value
//    read; at argreg/entryreg, a register overwritten before the entry value
//    was taken; at each x64:ret, a callee-saved register (rbx, rbp, r12-r15)
//    not holding the caller's value; at the end of each predecessor, a phi's
//    place not holding the phi's input for that edge; and flags read after
//    an instruction clobbered them. An instruction an x64:flagsof reads
//    (add, and, ... : rule I) leaves "the flags of its result" in rflags
//    instead of clobbering them; the flagsof finds them there or reports
//    what destroyed them, and then holds them itself. Its value input is
//    not read (regs letter `-`), so its place is not checked.
//
// NEEDS: a function the verifier accepted otherwise (shapes, kinds, cfg,
// dominance, region controls matching the cfg). Memory is linear in the
// number of blocks times the number of locations (33 + spill slots).
#include "check/alloc_check.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "encoding/text_format.h"
#include "x64/x64.h"

namespace pl {

namespace {

using x64::Fixed;
using x64::OperandConstraint;
using x64::Reg;

constexpr uint32_t kNone = UINT32_MAX;
constexpr unsigned kFlags = 32;      // location index of the flags
constexpr unsigned kFirstSlot = 33;  // location index of spill slot 0
// State codes beyond the node and pseudo-value ranges.
constexpr uint32_t kEmpty = UINT32_MAX - 2;     // never written
constexpr uint32_t kConflict = UINT32_MAX - 1;  // different on different incoming paths
constexpr uint32_t kTop = UINT32_MAX;           // not reached yet (fixpoint only)

using State = std::vector<uint32_t>;

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

bool is_address_node(OpId op) { return op == X64StackSlot || op == X64ArgSlot || op == X64OutArg; }

class Checker {
 public:
  explicit Checker(const Function& fn)
      : fn_(fn), n_(static_cast<uint32_t>(fn.nodes.size())), blocks_(fn.cfg->blocks) {}

  void run(std::vector<Diagnostic>& out) {
    if (n_ > (UINT32_MAX - 64) / 4) {
      out.push_back(Diagnostic{Where::in(fn_.name, "graph"), "too many nodes for the allocation checker", {}});
      return;
    }
    index_blocks();
    classify_values();
    mark_flags_definers();
    for (NodeId id = 0; id < n_; ++id) check_static(id);
    check_phi_places();
    solve();
    report_dataflow();
    std::stable_sort(diags_.begin(), diags_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& d : diags_) out.push_back(std::move(d.second));
  }

 private:
  // ---- codes and names -------------------------------------------------------
  uint32_t entry_code(unsigned r) const { return n_ + r; }
  uint32_t pending_code(NodeId id) const { return n_ + 32 + id; }
  uint32_t clobber_code(NodeId id) const { return 2 * n_ + 32 + id; }
  // The flags an instruction left for its result (read only by x64:flagsof).
  uint32_t flags_of_code(NodeId id) const { return 3 * n_ + 32 + id; }

  const Node& node(NodeId id) const { return fn_.nodes[id]; }
  OpId op(NodeId id) const { return node(id).op; }
  std::string ref(NodeId id) const { return node_name(id) + " (" + quoted(fn_.op_name(op(id))) + ")"; }
  static std::string place_text(Place p) { return x64::place_name(p); }
  static std::string loc_text(unsigned loc) {
    if (loc < 32) return std::string(x64::reg_name(static_cast<Reg>(loc)));
    if (loc == kFlags) return "rflags";
    return "s" + std::to_string(loc - kFirstSlot);
  }
  unsigned loc_of(Place p) const { return p.is_reg() ? p.reg() : kFirstSlot + p.slot(); }

  // What a location holding `code` holds, after "LOC ": "holds i7 ('x64:add')".
  std::string holding(uint32_t code) const {
    if (code < n_) return "holds " + ref(code);
    if (code < n_ + 32) return "still holds " + loc_text(code - n_) + "'s value at entry";
    if (code < 2 * n_ + 32) return "holds a result of " + ref(code - n_ - 32) + " that no proj has taken";
    if (code < 3 * n_ + 32) return "was clobbered by " + ref(code - 2 * n_ - 32);
    if (code < 4 * n_ + 32) return "holds the flags " + ref(code - 3 * n_ - 32) + " left for its result";
    if (code == kEmpty) return "was never written";
    if (code == kConflict) return "holds different values on different incoming paths";
    return "is not reached";
  }

  void error(NodeId id, std::string message) {
    diags_.emplace_back(id, Diagnostic{Where::in(fn_.name, node_name(id)), std::move(message),
                                       print_node_line(fn_, id)});
  }

  // ---- blocks ----------------------------------------------------------------
  void index_blocks() {
    block_of_.assign(n_, kNone);
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
      block_of_[blocks_[b].node] = b;
      for (NodeId id : blocks_[b].nodes) block_of_[id] = b;
    }
    // Reverse postorder from block 0 (iterative DFS).
    std::vector<uint8_t> seen(blocks_.size(), 0);
    std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
    seen[0] = 1;
    std::vector<uint32_t> post;
    while (!stack.empty()) {
      auto& [b, next] = stack.back();
      const std::vector<NodeId>& succ = blocks_[b].successors;
      if (next < succ.size()) {
        uint32_t s = block_of_[succ[next++]];
        if (!seen[s]) {
          seen[s] = 1;
          stack.emplace_back(s, 0);
        }
        continue;
      }
      post.push_back(b);
      stack.pop_back();
    }
    rpo_.assign(post.rbegin(), post.rend());
  }

  // ---- which nodes produce a value -------------------------------------------
  // The element letter of result `e` of `id`'s opcode ('\0' if none).
  char result_letter(NodeId id, size_t e) const {
    if (op(id) >= kNumOps) return '\0';
    std::string_view res = op_info(op(id)).results;
    return shape_letter(res, e);  // x64:asm's results repeat: "mv*"
  }

  void classify_values() {
    class_ = x64::value_classes(fn_);
    vec_ = x64::v128_values(fn_);
    value_.assign(n_, 0);
    for (NodeId id = 0; id < n_; ++id) {
      const Node& nd = node(id);
      if (nd.op == Proj) {
        const Literal& lit = nd.literals[0];
        size_t e = static_cast<size_t>(lit.as_int());
        NodeId x = nd.inputs[0];
        value_[id] = op(x) != Phi && result_letter(x, e) == 'v' && op_info(op(x)).results.size() > 1;
        if (value_[id]) value_projs_[x].push_back(id);
      } else if (nd.op == Undef) {
        value_[id] = !nd.place.none();
      } else if (nd.op != Phi && nd.op < kNumOps) {
        value_[id] = op_info(nd.op).results == "v";
      }
    }
    // Phis: a value when some input is (through other phis); a phi that
    // reaches only phis and undefined values is a value if it has a place.
    bool changed = true;
    while (changed) {
      changed = false;
      for (NodeId id = 0; id < n_; ++id) {
        if (op(id) != Phi || value_[id]) continue;
        for (NodeId in : node(id).inputs)
          if (value_[in]) {
            value_[id] = 1;
            changed = true;
            break;
          }
      }
    }
    for (NodeId id = 0; id < n_; ++id)
      if (op(id) == Phi && !node(id).place.none()) value_[id] = 1;
  }

  // ---- static rules ------------------------------------------------------------
  void check_static(NodeId id) {
    const Node& nd = node(id);
    const Place p = nd.place;
    if (nd.op == X64Xchg && !nd.inputs.empty() && class_[nd.inputs[0]] == x64::RegClass::Xmm)
      error(id, "x64:xchg swaps general registers only: there is no xchg for xmm registers (a move through a "
                "free register or a slot swaps them)");
    if (is_address_node(nd.op)) {
      if (!p.none())
        error(id, "an address node has no place (it is folded into the addresses that use it as their base), "
                  "found " + place_text(p));
    } else if (value_[id]) {
      if (p.none()) {
        error(id, "the value has no place (a register or a spill slot)");
        return;
      }
      if (p.is_reg() && p.reg() == static_cast<unsigned>(Reg::Rsp)) {
        error(id, "rsp is never allocated");
        return;
      }
      if (p.is_reg() && x64::reg_class(x64::reg_of(p)) != class_[id]) {
        error(id, class_[id] == x64::RegClass::Xmm
                      ? "the value is floating point (f32 or f64), so its register is an xmm one, not " + place_text(p)
                      : "the value is an integer or pointer, so its register is a general one, not " + place_text(p));
        return;
      }
      check_result(id);
    } else if (!p.none()) {
      error(id, "the node produces no value held in a register or slot, so it has no place (found " +
                    place_text(p) + ")");
    }
    if (x64::is_x64(nd.op)) check_inputs(id);
  }

  // Where constraint `c` wants a value, or nullopt if `p` satisfies it.
  // "in rax", "in a register", "in a spill slot".
  static std::optional<std::string> unmet(const OperandConstraint& c, Place p) {
    switch (c.kind) {
      case Fixed::Reg: return p == x64::place_of(c.reg) ? std::nullopt : std::optional(std::string(x64::reg_name(c.reg)));
      case Fixed::Slot: return p.is_slot() ? std::nullopt : std::optional<std::string>("a spill slot");
      case Fixed::Any: return p.is_reg() ? std::nullopt : std::optional<std::string>("a register");
      default: return std::nullopt;
    }
  }

  // The register a LiteralReg operand names (argreg: literal 1, entryreg: 0).
  std::optional<Reg> literal_reg(NodeId id) const {
    const Node& nd = node(id);
    size_t i = nd.op == X64ArgReg ? 1 : 0;
    if (i >= nd.literals.size() || nd.literals[i].kind() != Literal::Kind::String) return std::nullopt;
    return x64::parse_reg(nd.literals[i].as_string());
  }

  void check_result(NodeId id) {
    const Node& nd = node(id);
    const Place p = nd.place;
    if (nd.op == Proj) {
      check_proj_place(id);
      return;
    }
    if (!x64::is_x64(nd.op)) return;  // phi, undefined: any place
    const x64::Constraints& c = x64::constraints(nd.op);
    OperandConstraint want = c.results[0];
    if (want.kind == Fixed::LiteralReg) {
      std::optional<Reg> r = literal_reg(id);
      if (!r) {
        error(id, "the literal names no register");
        return;
      }
      if (nd.op == X64EntryReg && !(x64::kCalleeSaved & x64::reg_bit(*r)))
        error(id, "x64:entryreg names " + std::string(x64::reg_name(*r)) +
                      ", which is not a callee-saved register (rbx, rbp, r12-r15)");
      want = {Fixed::Reg, *r};
    }
    if (std::optional<std::string> where = unmet(want, p)) {
      error(id, "the result must be in " + *where + (want.kind == Fixed::Reg ? " (fixed register)" : "") +
                    ", found " + place_text(p));
      return;
    }
    if (c.tied >= 0 && static_cast<size_t>(c.tied) < nd.inputs.size()) {
      NodeId tied = nd.inputs[c.tied];
      Place tp = node(tied).place;
      if (!tp.none() && tp != p)
        error(id, "the result must be in the register of its tied input " + std::to_string(c.tied) + " " +
                      node_name(tied) + " (" + place_text(tp) + ": two-address form), found " + place_text(p));
    }
  }

  // The place element `e` of tuple node `x` is written to, if fixed.
  std::optional<Place> element_place(NodeId x, size_t e) const {
    const Node& xn = node(x);
    if (xn.op == X64Xchg) {
      if (xn.inputs.size() != 2 || e > 1) return std::nullopt;
      Place other = node(xn.inputs[1 - e]).place;
      return other.none() ? std::nullopt : std::optional<Place>(other);
    }
    if (!x64::is_x64(xn.op)) return std::nullopt;
    const x64::Constraints c = x64::node_constraints(xn);  // x64:asm: from its literals
    if (e >= c.num_results || c.results[e].kind != Fixed::Reg) return std::nullopt;
    return x64::place_of(c.results[e].reg);
  }

  void check_proj_place(NodeId id) {
    const Node& nd = node(id);
    NodeId x = nd.inputs[0];
    size_t e = static_cast<size_t>(nd.literals[0].as_int());
    std::optional<Place> want = element_place(x, e);
    if (want && *want != nd.place) {
      std::string why = op(x) == X64Xchg ? " (an exchange leaves input " + std::to_string(e) + "'s value in input " +
                                               std::to_string(1 - e) + "'s register)"
                                         : " (fixed register)";
      error(id, "result " + std::to_string(e) + " of " + ref(x) + " is in " + place_text(*want) + why + ", found " +
                    place_text(nd.place));
    } else if (!want && !nd.place.is_reg()) {
      error(id, "result " + std::to_string(e) + " of " + ref(x) + " is in a register, found " + place_text(nd.place));
    }
  }

  // Is input `i` of `id` the base of its address (where an address node folds)?
  bool is_address_base(NodeId id, size_t i) const {
    const x64::Constraints& c = x64::constraints(op(id));
    if (c.address_input < 0 || i != static_cast<size_t>(c.address_input)) return false;
    const Node& nd = node(id);
    // With a symbol literal the address has no base (RIP-relative).
    size_t sym = static_cast<size_t>(c.address_literal) + 2;
    return sym >= nd.literals.size();
  }

  void check_inputs(NodeId id) {
    const Node& nd = node(id);
    const OpInfo& info = op_info(nd.op);
    for (size_t i = 0; i < nd.inputs.size(); ++i) {
      if (shape_letter(info.inputs, i) != 'v') continue;
      NodeId in = nd.inputs[i];
      Place p = node(in).place;
      if (is_address_node(op(in))) {
        if (!is_address_base(id, i))
          error(id, "input " + std::to_string(i) + " " + ref(in) +
                        " is an address node, folded only as the base of an address; its value needs an x64:lea");
        continue;
      }
      if (p.none()) continue;  // reported at the input
      OperandConstraint want = x64::input_constraint(nd, i);
      if (std::optional<std::string> where = unmet(want, p))
        error(id, "input " + std::to_string(i) + " " + ref(in) + " must be in " + *where +
                      (want.kind == Fixed::Reg ? " (fixed register)" : "") + ", found " + place_text(p));
      else if (x64::ForbiddenRegs no = x64::forbidden_input_regs(nd, i); p.is_reg() && (no.regs & x64::reg_bit(x64::reg_of(p))))
        error(id, "input " + std::to_string(i) + " " + ref(in) + " is in " + place_text(p) + ", where it may not be: " +
                      std::string(no.why));
    }
  }

  void check_phi_places() {
    for (const Block& b : blocks_) {
      std::vector<std::pair<uint16_t, NodeId>> taken;
      for (NodeId id : b.nodes) {
        if (op(id) != Phi) break;
        const Node& nd = node(id);
        if (nd.place.none()) continue;
        for (size_t k = 0; k < nd.inputs.size(); ++k) {
          Place ip = node(nd.inputs[k]).place;
          if (!ip.none() && ip != nd.place)
            error(id, "input " + std::to_string(k) + " " + ref(nd.inputs[k]) + " is in " + place_text(ip) +
                          ", not in the phi's place " + place_text(nd.place));
        }
        auto same = std::find_if(taken.begin(), taken.end(), [&](const auto& t) { return t.first == nd.place.bits(); });
        if (same != taken.end())
          error(id, "the phi has the same place as " + ref(same->second) + " (" + place_text(nd.place) + ")");
        else
          taken.emplace_back(nd.place.bits(), id);
      }
    }
  }

  // The instructions an x64:flagsof reads: they leave flags named after
  // their result (the verifier's rule I proved they are of a kind that does).
  void mark_flags_definers() {
    flags_definer_.assign(n_, 0);
    for (NodeId id = 0; id < n_; ++id)
      if (op(id) == X64FlagsOf && !node(id).inputs.empty() && node(id).inputs[0] < n_) flags_definer_[node(id).inputs[0]] = 1;
  }

  // ---- dataflow ----------------------------------------------------------------
  size_t num_locations() const {
    unsigned slots = 0;
    for (const Node& nd : fn_.nodes)
      if (nd.place.is_slot()) slots = std::max(slots, nd.place.slot() + 1);
    return kFirstSlot + slots + 1;  // + 1: the upper half of a 16-byte vector in the last slot
  }

  State entry_state() const {
    State s(locations_, kEmpty);
    for (unsigned r = 0; r < 32; ++r) s[r] = entry_code(r);
    return s;
  }

  // The value a read of `in` expects in its place: true if present.
  // Input `i` of `reader` (value `code`) must be in `loc`. The message is
  // built only on an error: this runs for every input of every instruction.
  bool expect(const State& s, unsigned loc, uint32_t code, NodeId reader, size_t i, bool report) {
    if (s[loc] == code) return true;
    if (report)
      error(reader, "input " + std::to_string(i) + " " + ref(node(reader).inputs[i]) + " should be in " +
                        loc_text(loc) + ", but " + loc_text(loc) + " " + holding(s[loc]));
    return false;
  }

  void transfer(NodeId id, State& s, bool report) {
    const Node& nd = node(id);
    if (nd.op == Proj) {
      NodeId x = nd.inputs[0];
      if (!value_[id] || nd.place.none()) return;
      unsigned loc = loc_of(nd.place);
      // define() made the tuple's results pending where they are written
      // (a fixed register, or the proj's place for a result in any
      // register); the proj takes one that nothing overwrote since.
      if (report && s[loc] != pending_code(x))
        error(id, "result " + std::to_string(nd.literals[0].as_int()) + " of " + node_name(x) + " should be in " +
                      loc_text(loc) + ", but " + loc_text(loc) + " " + holding(s[loc]));
      s[loc] = id;
      return;
    }
    if (nd.op == Undef) {
      if (!nd.place.none()) write_value(s, loc_of(nd.place), id);
      return;
    }
    if (!x64::is_x64(nd.op)) return;  // start, region, jump, entrymem; phis at the edges
    const OpInfo& info = op_info(nd.op);
    const x64::Constraints c = x64::node_constraints(nd);  // x64:asm: its clobbers
    for (size_t i = 0; i < nd.inputs.size(); ++i) {
      NodeId in = nd.inputs[i];
      char letter = shape_letter(info.inputs, i);
      if (letter == 'f')
        expect(s, kFlags, in, id, i, report);
      else if (letter == 'v' && !node(in).place.none() && x64::input_constraint(nd, i).kind != Fixed::None)
        expect(s, loc_of(node(in).place), in, id, i, report);
    }
    if (nd.op == X64FlagsOf && !nd.inputs.empty() && s[kFlags] != flags_of_code(nd.inputs[0]) && report)
      error(id, "x64:flagsof names the flags " + ref(nd.inputs[0]) + " left for its result, but rflags " +
                    holding(s[kFlags]));
    if ((nd.op == X64ArgReg || nd.op == X64EntryReg) && nd.place.is_reg()) {
      unsigned r = nd.place.reg();
      if (report && s[r] != entry_code(r))
        error(id, "the node takes " + loc_text(r) + "'s value at entry, but " + loc_text(r) + " " + holding(s[r]));
    }
    if (nd.op == X64Ret && report) check_restored(id, s);
    for (x64::RegMask m = c.clobbers; m != 0; m &= m - 1) s[std::countr_zero(m)] = clobber_code(id);
    if (c.clobbers_flags) s[kFlags] = flags_definer_[id] ? flags_of_code(id) : clobber_code(id);
    define(id, s);
  }

  // Location `loc` now holds value `id`. Widths: a 16-byte vector (x64.h
  // v128_values) in spill slot sN fills sN+1 too (its upper half, which no
  // other value may then be found in), and a write to sN+1 destroys a
  // vector in sN.
  void write_value(State& s, unsigned loc, NodeId id) {
    s[loc] = id;
    if (loc < kFirstSlot) return;
    if (loc > kFirstSlot && s[loc - 1] < n_ && vec_[s[loc - 1]]) s[loc - 1] = clobber_code(id);
    if (vec_[id] && loc + 1 < s.size()) s[loc + 1] = clobber_code(id);
  }

  void define(NodeId id, State& s) {
    const Node& nd = node(id);
    std::string_view res = op_info(nd.op).results;
    if (res == "f") {
      s[kFlags] = id;
    } else if (res == "v") {
      if (!nd.place.none()) write_value(s, loc_of(nd.place), id);
    } else if (res.size() > 1) {
      size_t count = nd.op == X64Asm ? x64::node_constraints(nd).num_results : res.size();
      for (size_t e = 0; e < count; ++e)
        if (shape_letter(res, e) == 'v')
          if (std::optional<Place> p = element_place(id, e)) s[loc_of(*p)] = pending_code(id);
      // A result in any register (x64:load.volatile's value) is written by
      // the tuple to the place its proj names.
      auto projs = value_projs_.find(id);
      if (projs != value_projs_.end())
        for (NodeId p : projs->second)
          if (!element_place(id, static_cast<size_t>(node(p).literals[0].as_int())) && !node(p).place.none())
            s[loc_of(node(p).place)] = pending_code(id);
    }
  }

  // The node whose value `id` copies (through moves, spills, reloads and
  // exchanges), or `id` itself. The copies were checked at their reads.
  NodeId origin(NodeId id) const {
    for (uint32_t steps = 0; steps < n_; ++steps) {
      const Node& nd = node(id);
      if (nd.op == X64Mov || nd.op == X64Spill || nd.op == X64Reload) {
        id = nd.inputs[0];
      } else if (nd.op == Proj && op(nd.inputs[0]) == X64Xchg) {
        const Node& x = node(nd.inputs[0]);
        size_t e = static_cast<size_t>(nd.literals[0].as_int());
        if (e >= x.inputs.size()) return id;
        id = x.inputs[e];
      } else {
        return id;
      }
    }
    return id;
  }

  // At x64:ret: every callee-saved register holds the caller's value: its
  // value at entry, or the x64:entryreg node that took it (or a copy).
  void check_restored(NodeId id, const State& s) {
    for (unsigned r = 0; r < 16; ++r) {
      if (!(x64::kCalleeSaved & (x64::RegMask{1} << r))) continue;
      uint32_t code = s[r];
      if (code == entry_code(r)) continue;
      if (code < n_) {
        NodeId o = origin(code);
        if (op(o) == X64EntryReg && node(o).place == Place::reg(r)) continue;
      }
      error(id, "callee-saved register " + loc_text(r) + " is not restored: at this return it " + holding(code) +
                    ", not the caller's " + loc_text(r));
    }
  }

  // The state entering block `to` along the edge from `from` (whose
  // terminator is control input k of `to`'s region): phis take their places.
  void apply_phis(uint32_t to, size_t k, State& s, bool report, uint32_t from) {
    std::vector<std::pair<unsigned, NodeId>>& writes = phi_writes_;
    writes.clear();
    for (NodeId id : blocks_[to].nodes) {
      if (op(id) != Phi) break;
      const Node& nd = node(id);
      if (nd.place.none() || k >= nd.inputs.size()) continue;
      unsigned loc = loc_of(nd.place);
      NodeId in = nd.inputs[k];
      if (report && s[loc] != in)
        error(id, "input " + std::to_string(k) + " " + ref(in) + " should be in " + loc_text(loc) + " at the end of " +
                      block_name(from) + ", but " + loc_text(loc) + " " + holding(s[loc]));
      writes.emplace_back(loc, id);
    }
    for (auto [loc, id] : writes) write_value(s, loc, id);  // in parallel: every read above comes first
  }

  // Calls f(successor block, control index k) for each edge out of block b.
  template <typename F>
  void for_each_edge(uint32_t b, F f) const {
    const Block& block = blocks_[b];
    NodeId term = block.nodes.empty() ? block.node : block.nodes.back();
    for (size_t i = 0; i < block.successors.size(); ++i) {
      NodeId sn = block.successors[i];
      uint32_t s = block_of_[sn];
      if (std::find(block.successors.begin(), block.successors.begin() + static_cast<std::ptrdiff_t>(i), sn) !=
          block.successors.begin() + static_cast<std::ptrdiff_t>(i))
        continue;  // a successor listed twice: its edges were visited the first time
      const Node& region = node(sn);
      for (size_t k = 0; k < region.control.size(); ++k)
        if (region.control[k] == term) f(s, k);
    }
  }

  static bool meet_into(State& into, const State& s) {
    bool changed = false;
    for (size_t i = 0; i < into.size(); ++i) {
      uint32_t m = into[i] == kTop ? s[i] : into[i] == s[i] ? into[i] : kConflict;
      if (m != into[i]) {
        into[i] = m;
        changed = true;
      }
    }
    return changed;
  }

  // Round-robin in reverse postorder over the blocks whose entry state
  // changed since they were last visited (the meet is monotone, so this
  // reaches the same fixpoint as visiting every block each round). The
  // block and edge states are scratch vectors reused across visits.
  void solve() {
    locations_ = num_locations();
    in_.assign(blocks_.size(), State());
    in_[0] = entry_state();
    std::vector<uint8_t> dirty(blocks_.size(), 0);
    dirty[0] = 1;
    State s, e;
    bool changed = true;
    while (changed) {
      changed = false;
      for (uint32_t b : rpo_) {
        if (!dirty[b] || in_[b].empty()) continue;
        dirty[b] = 0;
        s.assign(in_[b].begin(), in_[b].end());
        for (NodeId id : blocks_[b].nodes) transfer(id, s, false);
        for_each_edge(b, [&](uint32_t to, size_t k) {
          e.assign(s.begin(), s.end());
          apply_phis(to, k, e, false, b);
          if (in_[to].empty()) in_[to].assign(locations_, kTop);
          if (meet_into(in_[to], e)) {
            dirty[to] = 1;
            changed = true;
          }
        });
      }
    }
  }

  void report_dataflow() {
    State s, e;
    for (uint32_t b : rpo_) {
      if (in_[b].empty()) continue;
      s.assign(in_[b].begin(), in_[b].end());
      for (NodeId id : blocks_[b].nodes) transfer(id, s, true);
      for_each_edge(b, [&](uint32_t to, size_t k) {
        e.assign(s.begin(), s.end());
        apply_phis(to, k, e, true, b);
      });
    }
  }

  const Function& fn_;
  const uint32_t n_;
  const std::vector<Block>& blocks_;
  std::vector<uint32_t> block_of_;
  std::vector<uint32_t> rpo_;
  std::vector<uint8_t> value_;
  std::vector<x64::RegClass> class_;  // each value's register class (x64.h value_classes)
  std::vector<uint8_t> vec_;           // 16-byte vector values (x64.h v128_values): two slots wide
  std::vector<uint8_t> flags_definer_;  // read by an x64:flagsof
  std::unordered_map<NodeId, std::vector<NodeId>> value_projs_;  // tuple -> its value projs
  size_t locations_ = 0;
  std::vector<State> in_;
  std::vector<std::pair<unsigned, NodeId>> phi_writes_;  // apply_phis' scratch
  std::vector<std::pair<NodeId, Diagnostic>> diags_;
};

}  // namespace

void check_allocation(const Function& fn, std::vector<Diagnostic>& out) {
  if (!fn.cfg || fn.cfg->blocks.empty()) return;
  Checker(fn).run(out);
}

}  // namespace pl
