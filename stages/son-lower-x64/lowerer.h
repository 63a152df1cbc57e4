// lowerer.h - the machinery the selection rules (rules.cpp) and the ABI
// lowering (abi.cpp) build with: reading the input `son` graph, and emitting
// `x64:` nodes into the output graph. son-lower-x64.cpp drives it (its header
// comment describes the algorithm).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/abi.h"
#include "ir/dominance.h"
#include "ir/eval.h"
#include "ir/ir.h"
#include "x64/x64.h"

namespace pl::lower {

inline constexpr NodeId kNone = ~NodeId{0};

// An x86 memory operand before it becomes literals and inputs: base +
// index * scale + disp, or RIP-relative symbol + disp (no base, no index).
// base and index are output node ids.
struct Addr {
  NodeId base = kNone;
  NodeId index = kNone;
  unsigned scale = 0;  // 0 (no index), 1, 2, 4, 8
  int64_t disp = 0;    // fits in a signed 32-bit integer
  std::string sym;     // non-empty: RIP-relative
};

// How arguments and results travel (System V), per parameter of a
// signature or a call (abi.cpp).
struct AbiParam {
  ValueType type = ValueType::I64;
  using Attr = ParamAttr;  // common/ir/abi.h
  Attr attr = Attr::None;
  uint64_t size = 0;   // byval/sret: the aggregate's size
  uint64_t align = 0;  // and alignment
  std::string classes;  // and its eightbyte classes (common/ir/abi.h)
  bool aggregate() const { return attr == Attr::ByVal || attr == Attr::SRet; }
  // An aggregate that travels in registers (and takes these many of each class).
  bool in_regs() const { return aggregate() && !in_memory(classes); }
  size_t int_regs() const { return count_class(classes, EightbyteClass::Integer); }
  size_t sse_regs() const { return count_class(classes, EightbyteClass::Sse); }
  // A 16-byte vector (or a struct of one): classes SSE, SSEUP, the whole
  // aggregate in one xmm register (abi.cpp).
  bool v128() const { return aggregate() && classes == "su"; }
};
// One eightbyte of an aggregate that travels in registers: its offset, its
// bytes inside the aggregate (8, or what the last one holds) and its class.
struct Eightbyte {
  uint64_t offset = 0;
  unsigned bytes = 8;
  bool sse = false;
};
// The eightbytes of p that take a register (NO_CLASS ones take none).
std::vector<Eightbyte> register_eightbytes(const AbiParam& p);
struct AbiSignature {
  std::vector<AbiParam> params;
  std::vector<AbiParam> varargs;  // a call's variadic arguments, when its list gives them
  bool variadic = false;
  bool known = false;  // false: the arguments' own value types, al not set
};
// "ptr byval(24,8)", "i8 signext", "i32" (parsed by common/ir/abi.h): throws
// std::invalid_argument.
AbiParam parse_abi_param(std::string_view text);
// "(ptr sret(24,8), i32, ...)": the call literal.
AbiSignature parse_abi_list(std::string_view text);
AbiSignature abi_of(const Signature& sig);

class Lowerer {
 public:
  Lowerer(const ModuleHeader& header, const Function& in);
  // Lowers the whole function; the result is the son-x64 function.
  // `verified`: the input passed the son verifier, which checks every
  // node's literal and input shapes; otherwise (--no-verify) run() checks
  // them itself first, since rules index literals by position.
  Function run(bool verified);
  void check_shapes() const;

  // ---- the input graph (old ids) ----
  const Node& node(NodeId old) const { return in_.nodes[old]; }
  OpId op(NodeId old) const { return in_.nodes[old].op; }
  // The value type a node produces (compares: i32; phis: their inputs').
  ValueType type(NodeId old);
  // The literal type of a node with a `t` literal first (add, load, eq, ...).
  ValueType lit_type(NodeId old, size_t index = 0) const;
  // The value of a `const` node, or of a pure node computing a constant
  // from constants, as a signed number of its type; or nothing.
  std::optional<int64_t> constant(NodeId old) const;
  unsigned uses(NodeId old) const { return use_count_[old]; }
  // Whether a tuple's proj 1 (the value of an atomic.rmw, a call ...) has a user.
  bool value_used(NodeId old) const { return value_used_.count(old) != 0; }
  bool is_extern(std::string_view sym) const;
  // Whether the address of sym is read from the GOT rather than made
  // RIP-relative: an extern, or under --pic (shared-library code) a symbol
  // another module may preempt (anything but an internal or non-default-
  // visibility data item of the module; a function's linkage is not in the
  // header, so a function defined here goes through the GOT too, which the
  // linker relaxes back when it can).
  bool needs_got(std::string_view sym) const;
  // The access model of the thread-local data item or extern sym, as gcc
  // picks it (son-lower-x64.cpp, "Thread-local storage").
  TlsModel tls_model(std::string_view sym) const;
  void set_pic(bool on) { pic_ = on; }
  bool pic() const { return pic_; }
  const Function& input() const { return in_; }
  const ModuleHeader& header() const { return header_; }
  const AbiSignature& entry_abi() const { return entry_abi_; }

  // ---- the output graph ----
  // The lowered value (or memory, or control) of an old node; its operands
  // are lowered before it (the nodes go in topological order).
  NodeId value(NodeId old) const;
  NodeId control(NodeId old) const { return value(node(old).control[0]); }
  // Emits a node; it carries the location of the node being lowered.
  NodeId emit(OpId op, LiteralList lits, InputList inputs, NodeId control = kNone);
  NodeId proj(NodeId tuple, int64_t index);
  Function& output() { return out_; }

  // Builders (new ids in, new ids out). `t` is an x64 operand type.
  NodeId movi(ValueType t, int64_t imm);
  NodeId binary(OpId op, ValueType t, NodeId a, NodeId b) { return emit(op, {tlit(t)}, {a, b}); }
  NodeId unary(OpId op, ValueType t, NodeId a) { return emit(op, {tlit(t)}, {a}); }
  NodeId with_imm(OpId op, ValueType t, NodeId a, int64_t imm) {
    return emit(op, {tlit(t), Literal::integer(immediate(t, imm))}, {a});
  }
  // An instruction at t bits reads only the low t bits of its immediate:
  // those bits, sign-extended (a constant wider than its user's type, which
  // the generic levels allow, so always fits 32 bits below i64).
  static int64_t immediate(ValueType t, int64_t c) {
    return type_bits(t) < 64 ? sign_extend(static_cast<uint64_t>(c), type_bits(t)) : c;
  }
  NodeId extend(bool sign, ValueType from, ValueType to, NodeId a);
  NodeId lea(const Addr& a);
  NodeId load(ValueType t, NodeId mem, NodeId ctl, const Addr& a);  // t: i8..i64, zero-extending the narrow ones
  NodeId store(ValueType t, NodeId mem, NodeId ctl, NodeId v, const Addr& a);
  // 16-byte vector values: x64:v128.load (movups) and x64:v128.store at a.
  NodeId vload(NodeId mem, NodeId ctl, const Addr& a);
  NodeId vstore(NodeId mem, NodeId ctl, NodeId v, const Addr& a);

  // May the old load `ld` become the memory operand of its one user, whose
  // other operand is the old value `other`? (load_fusion.cpp)
  bool load_fusable(NodeId ld, NodeId other);
  // May it become the memory operand of a compare whose flags the old
  // branch `br` reads? As load_fusable, and the load is in br's block,
  // where nothing overwrites the memory it read (the compare is emitted
  // right before the jump, after everything else in the block).
  bool load_fusable_at_branch(NodeId ld, NodeId other, NodeId br);
  void set_fold_loads(bool on) { fold_loads_ = on; }

  // ---- shared selection pieces (rules.cpp) ----
  // The address an old pointer value computes, folded (base, index*scale,
  // disp32, symbol).
  Addr address(NodeId old_ptr);
  // A flags producer for the old compare node `cmp` (eq ... ule) and the
  // condition that holds when the compare is true; a new producer per call
  // (each flags value has one user).
  NodeId compare_flags(NodeId cmp, x64::Cond& cc);
  // The condition under which the integer compare `op` (eq ... ule) holds
  // on the flags of `cmp a, b`.
  static x64::Cond compare_cond(OpId op);
  // Flags for "the old value v is not zero" (test v, v at v's width).
  NodeId nonzero_flags(NodeId v, x64::Cond& cc);
  // The x64 type an old operand of type t is computed at: i8/i16 at 32 bits.
  static ValueType wide(ValueType t);
  static ValueType machine(ValueType t) { return t == ValueType::Ptr ? ValueType::I64 : t; }
  static Literal tlit(ValueType t) { return Literal::string(value_type_name(machine(t))); }
  // Does the low 32 bits' producer `v` (new id) leave the upper 32 bits zero?
  bool upper32_zero(NodeId v) const;
  // An old value read at `t` as a full 32- or 64-bit number: extended when
  // narrower (sign or zero), else as is.
  NodeId widened(NodeId old, bool sign);

  // Results of a lowered tuple node (call, load.volatile, if): what each
  // `proj k` of the old node becomes.
  void define(NodeId old, NodeId now) { map_[old] = now; }
  void define_tuple(NodeId old, std::vector<NodeId> results) { tuple_[old] = std::move(results); }

  // The division node shared by div/rem of the same operands in one block.
  NodeId shared_division(bool is_signed, ValueType t, NodeId ctl, NodeId a_old, NodeId b_old);
  // The quotient of the new value x by the constant d, shared by div and rem
  // of the same operands (it floats, so one serves the whole function):
  // kNone until the caller stores the one it builds.
  NodeId& shared_quotient(bool is_signed, ValueType t, NodeId x, int64_t d) {
    return quotients_.try_emplace(QuotientKey{is_signed, t, x, d}, kNone).first->second;
  }

  // ABI (abi.cpp).
  NodeId lower_param(NodeId old);
  NodeId lower_entrymem(NodeId old);
  NodeId lower_call(NodeId old);
  NodeId lower_return(NodeId old);
  NodeId lower_copy(NodeId ctl, NodeId mem, NodeId dst, NodeId src, uint64_t size);
  // Variadic definitions (varargs.cpp).
  NodeId lower_va_start(NodeId old);
  NodeId lower_va_arg(NodeId old);
  NodeId lower_va_arg_aggregate(NodeId old);
  NodeId lower_asm(NodeId old);  // inline_asm.cpp

 private:
  void lower_node(NodeId old);
  void lower_skeleton(NodeId old);
  void patch_cycles();
  void entry_setup();
  // Debug information: each unchanged parameter without a slot is bound to
  // the x64:argreg its value arrives in (DebugVar::value).
  void bind_parameter_values();
  AbiSignature call_abi(NodeId call);
  bool has_va_start() const;
  void save_vararg_registers(NodeId start, NodeId& mem, size_t regs_used, size_t xregs_used, uint64_t stack_used);
  // An eightbyte of the aggregate at ptr as a register value: i64 (INTEGER)
  // or f32/f64 (SSE); read with accesses of its exact size unless `whole`
  // (the memory is rounded up to 8 bytes: our own slot).
  NodeId load_eightbyte(NodeId ctl, NodeId mem, NodeId ptr, const Eightbyte& e, bool whole);
  // Stores the register value v (i64, f32 or f64) of eightbyte e to the
  // aggregate at dst with accesses of its exact size, unless `whole`.
  NodeId store_eightbyte(NodeId ctl, NodeId mem, NodeId v, ValueType vt, NodeId dst, const Eightbyte& e, bool whole);
  void pass_aggregate_in_regs(NodeId ctl, NodeId mem, NodeId ptr, const AbiParam& p, std::vector<NodeId>& regs,
                              std::vector<NodeId>& xregs);

  // Load fusion (load_fusion.cpp): the dominator tree of the input's control
  // nodes, built on first use.
  void build_control_dominators();
  bool control_strictly_dominates(NodeId a, NodeId b);
  bool available_at(NodeId v, NodeId ctl, NodeId mem, std::unordered_map<NodeId, bool>& memo, unsigned& budget);
  std::vector<uint32_t> control_vertex_;
  DomTree control_dom_;
  bool control_dom_built_ = false;
  // (memory state, control) pairs where a pinned node overwrites that
  // state (stores, calls, volatile accesses: a memory result), and the
  // states a floating node overwrites; built on first use.
  void build_overwrites();
  std::unordered_set<uint64_t> overwritten_in_;
  std::unordered_set<NodeId> overwritten_anywhere_;
  bool overwrites_built_ = false;
  bool fold_loads_ = true;
  bool pic_ = false;

  const ModuleHeader& header_;
  const Function& in_;
  Function out_;
  std::vector<NodeId> map_;
  std::unordered_map<NodeId, std::vector<NodeId>> tuple_;
  std::vector<unsigned> use_count_;
  std::unordered_set<NodeId> value_used_;
  std::unordered_set<std::string> externs_;
  std::vector<int8_t> type_cache_;
  // Constant value (raw N-bit pattern) of consts and of pure nodes whose
  // operands are all constant (folded with common/ir/eval.h), per old node.
  std::vector<std::optional<uint64_t>> const_value_;
  void fold_constants();
  NodeId current_ = 0;  // the old node being lowered (for locations)
  AbiSignature entry_abi_;
  // Entry (abi.cpp): the lowered entrymem before and after the stores of
  // register-passed aggregates, and each parameter's value if prepared.
  bool entry_done_ = false;
  NodeId entry_mem_raw_ = kNone, entry_mem_ = kNone;
  std::vector<NodeId> param_value_;
  NodeId sret_slot_ = kNone;  // callee: the slot a small sret result is built in
  NodeId sret_reg_ = kNone;   // callee: the hidden pointer, returned in rax
  NodeId x87_slot_ = kNone;  // callee: the slot a long double result (sret classes `x` or `c`) is built in
  bool x87_complex_ = false;  // callee: that result is a _Complex long double (classes `c`: st(0), st(1))
  // Variadic callee with va_start (varargs.cpp): the register save area, and
  // va_start's gp_offset and overflow_arg_area offset in the incoming area.
  NodeId va_save_area_ = kNone;
  int64_t va_gp_offset_ = 0, va_fp_offset_ = 0, va_overflow_offset_ = 0;
  struct DivKey {
    bool is_signed;
    ValueType t;
    NodeId ctl, a, b;
    auto operator<=>(const DivKey&) const = default;
  };
  std::map<DivKey, NodeId> divisions_;  // a map: a function may divide thousands of times
  struct QuotientKey {
    bool is_signed;
    ValueType t;
    NodeId x;
    int64_t d;
    auto operator<=>(const QuotientKey&) const = default;
  };
  std::map<QuotientKey, NodeId> quotients_;
};

// Is v a signed 32-bit number?

}  // namespace pl::lower
