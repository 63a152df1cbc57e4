// son-lower-x64 - instruction selection for x86-64: reads a `son` module,
// writes a `son-x64` module in which every generic node has become `x64:`
// instructions (FORMAT.md section 8) and only the control skeleton (start,
// region, jump, proj), phi, undefined and entrymem are left.
//
// Algorithm (linear in the function's size, one function at a time):
//  1. The input must number operands before users, except phi inputs and
//     region control inputs, the only edges that close cycles; one that does
//     not is renumbered canonically (renumber.h; ssa2son's and sonopt's
//     outputs already are in that order, and the scan is cheaper than a
//     renumbering). Uses are counted.
//  2. Every node is lowered in that order, so its operands' lowered values
//     exist when a rule asks for them. Skeleton nodes are copied (phis and
//     regions with their cycle-closing inputs patched in step 3); every other
//     node goes to the selection rules (rules.cpp: one table, rules tried in
//     priority order per opcode, each a pattern over the input graph, a
//     condition and a replacement; schema/LOWERING.md lists them). A rule
//     may look through its operands (a constant, an address computation, a
//     compare) and fold them into the instruction it builds (Go's
//     AMD64.rules and Cranelift's ISLE work this way; Simple's instSelect
//     too). Tuples (if, call, load.volatile) define what each of their projs
//     becomes. The ABI (System V x86-64: registers and stack for arguments
//     and results, by-value aggregates, sret) is abi.cpp.
//  3. Phi inputs and region controls are mapped to the lowered nodes (a
//     constant input gets an x64:movi of its own).
//  4. Dead-code sweep: an operand that was folded into all its users (and
//     the intermediate nodes a rule made but did not use) is left without
//     users; every pure node, non-volatile x64 load and projection (other
//     than a branch's) that nothing live reads is dropped. The survivors
//     keep their emission order, which follows the input's and puts every
//     node after its operands (phi inputs and region controls aside), so
//     the output needs no renumbering: it is deterministic as it is.
//
// Decisions:
//  - Folding works on the input graph and duplicates rather than shares: a
//    compare is re-emitted for each user (a branch, a setcc), so each flags
//    value has exactly one user (FORMAT.md section 8), as Simple and Go's
//    flagalloc re-issue a flags producer instead of keeping flags live. An
//    address computation folded into several loads is computed in each.
//    A load is folded into an extension, or into arithmetic as its memory
//    operand (`addsd x, [p]`, `add r, [p]`: the *-load rules), only when
//    that is its only user, so no memory access is duplicated; the fused
//    instruction is pinned where the load was, and load_fusion.cpp says when
//    the user's other operand is available there (before the memory the
//    load read can be overwritten). A compare takes a load as its memory
//    operand (`cmp r, [p]`, `ucomisd x, [p]`) only for a branch in the
//    load's block, the compare used by that branch alone (so it is emitted
//    once). --no-fold-loads turns the arithmetic and compare ones off (for
//    measuring them).
//  - Constants: a pure node whose operands are all constant is a constant
//    too (folded once per function with common/ir/eval.h, the interpreter's own
//    meanings), so a rule that wants a constant operand sees through C's
//    casts of literals (`x / (signed char)-126` is sext(trunc(neg 126))) even
//    when sonopt has not run; such a node itself becomes one x64:movi.
//  - Division by a constant becomes a multiplication by its magic number
//    (common/ir/divmagic.h), so it no longer traps and floats freely; a general
//    division stays pinned where the generic one was, and one x64:div/idiv
//    serves the quotient and the remainder of the same operands in the same
//    block.
//  - `copy` is inline loads and stores up to kInlineCopyMax (64) bytes, all
//    loads before all stores (a memmove, as the generic `copy` is), and
//    `rep movsb` above (which copies forward: exact for disjoint or identical
//    ranges, which is what C's struct assignment produces).
//  - store.volatile becomes an ordinary x64 store: x64 stores are never
//    removed, merged or reordered by the later stages (they are pinned and
//    in the memory chain). Volatile loads keep their own opcodes (they yield
//    memory, so they are ordered and never removed).
//  - An i1 value is 0 or 1 in the whole 64-bit register: every node that
//    makes one writes a 32-bit register (setcc + movzx, xor/and/or i32,
//    andi 1 for a truncation, movi), so a zext from i1 is free, a sext is
//    a neg, a branch on it is test + jne, and phis carry it unchanged. i1
//    arithmetic is done modulo 2 (add and sub as xor, mul as and, not as
//    xor 1); signed compares of i1 (where 1 is -1) become unsigned ones with
//    the operands swapped; division and shifts by an i1 (defined only for a
//    divisor of 1 and an amount of 0) run at 32 bits on the 0/1 values. An
//    i1 in memory is a byte (store i8; load: loadzx i8 then and 1); at a
//    call boundary (a parameter, a call's result) it is read from bit 0
//    (and 1), as gcc's _Bool. The rules are the `*-i1` rows of rules.cpp.
//  - long double (issue 18): an f80 is never an SSA value (FORMAT.md 7); the
//    generic f80.* memory operations become one x64:f80.* instruction each on
//    the same addresses, in general registers, which codegen-x64 expands to
//    its x87 sequence; the x87 stack is empty between instructions, so the
//    allocator never sees an x87 register. The design the issue suggested
//    (f80 SSA values given stack slots here) would have needed 80-bit values
//    in eval.h, pipe-run and every optimizer; with the slots made explicit
//    by c2ast, only this stage, codegen-x64 and pipe-run learn the new
//    opcodes, and sonopt treats them as effects on escaped memory. The cost:
//    long double values are not kept in registers (gcc -O2 keeps them on the
//    x87 stack). A result of class `x` comes back in st(0): x64:fstpt after
//    the call, x64:fldt before x64:ret (abi.cpp).
//  - Thread-local storage: `tlsaddr s` becomes one x64:tls.* instruction
//    per access model, picked as gcc picks it (Lowerer::tls_model): without
//    --pic (executables, PIE included: our default) local-exec for a
//    non-weak item of the module and initial-exec for the rest; with --pic
//    (pipecc passes it for -fPIC/-fpic) general-dynamic, a call to
//    __tls_get_addr in the exact byte sequence the linker relaxes (to IE or
//    LE when it links an executable). A tls_model attribute only makes the
//    model stronger. The address is pure (one thread per activation), so
//    sonopt's GVN and son2cfg's scheduling place it once per function path
//    where it is used. Departures from gcc: local-dynamic (gcc's choice for
//    static and hidden items under -fPIC with optimization) is lowered as
//    general-dynamic, one call per variable instead of one per function (the
//    linker relaxes both alike); the address is always made in a register
//    (gcc folds local-exec into a `%fs:x@tpoff` memory operand of the access
//    itself).
//  - --pic also sends the address of every preemptible symbol (a function
//    of the module, an external data item of default visibility) through
//    the GOT: `leaq x(%rip)` to a symbol another module may preempt is a
//    relocation a shared object cannot have.
//
// Invariants needed: the son contract (FORMAT.md section 3 D), verified on
// input by default; type literals consistent with the operands (the verifier
// does not check these yet: a mismatch lowers to instructions of the literal's
// width). Invariants kept: the son-x64 contract: no generic opcode (only
// x64: nodes and the skeleton), the sea-of-nodes structure (pinned nodes
// keep their block's control; every new pinned node takes the control of the
// node it comes from), one user per flags value, 32-bit immediates and
// displacements, memory threaded through every new load and store in order.
//
// Departures from the seed: seed 002 names platform instructions
// `<platform>:op`, which we follow; seed 001's operator classes (ComOp,
// NComOp, DivOp, ShfOp, DivModOp) are the table's machine columns (tied
// input, fixed registers), so selection only picks opcodes and leaves
// registers to regalloc-x64.
#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "ir/asm.h"
#include "ir/renumber.h"
#include "encoding/text_format.h"
#include "rules.h"
#include "tool/tool.h"
#include "check/verify.h"

namespace pl::lower {

namespace {

ValueType parse_type_or_throw(const Literal& lit) {
  auto t = literal_value_type(lit);
  if (!t) throw std::logic_error("a type literal that is not a value type");
  return *t;
}

}  // namespace

Lowerer::Lowerer(const ModuleHeader& header, const Function& in) : header_(header), in_(in) {
  size_t n = in_.nodes.size();
  map_.assign(n, kNone);
  use_count_.assign(n, 0);
  type_cache_.assign(n, -1);
  for (const Node& nd : in_.nodes)
    for (NodeId i : nd.inputs) ++use_count_[i];
  for (NodeId id = 0; id < n; ++id) {
    const Node& nd = in_.nodes[id];
    if (nd.op == Proj && use_count_[id] > 0 && nd.literals.size() == 1 && nd.literals[0].is_int() &&
        nd.literals[0].as_int() == 1 && !nd.inputs.empty() && nd.inputs[0] < n)
      value_used_.insert(nd.inputs[0]);
  }
  out_.name = in_.name;
  out_.linkage = in_.linkage;
  out_.signature = in_.signature;
  out_.attrs = in_.attrs;
  for (const Extern& e : header_.externs) externs_.insert(e.name);
}

ValueType Lowerer::lit_type(NodeId old, size_t index) const { return parse_type_or_throw(node(old).literals[index]); }

ValueType Lowerer::type(NodeId start) {
  // Phis take their inputs' type: walk through phis to a typed node.
  std::vector<NodeId> stack = {start};
  std::vector<NodeId> seen;
  ValueType found = ValueType::I64;
  while (!stack.empty()) {
    NodeId v = stack.back();
    stack.pop_back();
    if (type_cache_[v] >= 0) {
      found = static_cast<ValueType>(type_cache_[v]);
      break;
    }
    const Node& nd = node(v);
    std::optional<ValueType> t;
    switch (nd.op) {
      case Phi:
        if (std::find(seen.begin(), seen.end(), v) == seen.end()) {
          seen.push_back(v);
          for (NodeId i : nd.inputs) stack.push_back(i);
        }
        continue;
      case Undef: continue;
      case Eq: case Ne: case SLt: case SLe: case ULt: case ULe: t = ValueType::I32; break;
      case SExt: case ZExt: case Trunc: t = lit_type(v, 1); break;
      case FOEq: case FONe: case FOLt: case FOLe: case FOGt: case FOGe: case FOrd:
      case FUEq: case FUNe: case FULt: case FULe: case FUGt: case FUGe: case FUno: t = ValueType::I32; break;
      case SIToFP: case UIToFP: case FPToSI: case FPToUI: case FPExt: case FPTrunc: case Bitcast:
        t = lit_type(v, 1);
        break;
      case SymAddr: case TlsAddr: case StackSlot: case FrameAddress: case ReturnAddress: t = ValueType::Ptr; break;
      case Proj: {
        const Node& tuple = node(nd.inputs[0]);
        if (tuple.op == Call) {
          std::string_view r = tuple.literals[0].as_string();
          t = r == "void" ? ValueType::I64 : *parse_value_type(r);
        } else if (tuple.op == LoadV || tuple.op == VaArg) {
          t = parse_type_or_throw(tuple.literals[0]);
        } else if (tuple.op == Alloca || tuple.op == StackSave) {
          t = ValueType::Ptr;
        } else if (tuple.op == Asm && nd.literals[0].is_int()) {
          size_t k = static_cast<size_t>(nd.literals[0].as_int()), seen = 0;
          for (const AsmOperand& op : asm_operands(tuple))
            if (op.yields_value() && ++seen == k) t = op.type;
        }
        break;
      }
      default:
        if (!nd.literals.empty()) t = literal_value_type(nd.literals[0]);
    }
    if (t) {
      found = *t;
      break;
    }
  }
  // The phis walked through have the same type: cached too, so a web of
  // phis is walked once, not once per phi.
  for (NodeId v : seen) type_cache_[v] = static_cast<int8_t>(found);
  type_cache_[start] = static_cast<int8_t>(found);
  return found;
}

std::optional<int64_t> Lowerer::constant(NodeId old) const {
  if (!const_value_[old]) return std::nullopt;
  return sign_extend(*const_value_[old], type_bits(static_cast<ValueType>(type_cache_[old])));
}

void Lowerer::fold_constants() {
  // Nodes are in topological order: operands are decided first.
  const_value_.assign(in_.nodes.size(), std::nullopt);
  for (NodeId id = 0; id < in_.nodes.size(); ++id) {
    const Node& nd = node(id);
    EvalClass k = eval_class(nd.op);
    if (k == EvalClass::None || k == EvalClass::Divide || !op_info(nd.op).has(PURE)) continue;
    std::vector<uint64_t> args;
    for (NodeId i : nd.inputs) {
      if (!const_value_[i]) break;
      args.push_back(*const_value_[i]);
    }
    if (args.size() != nd.inputs.size()) continue;
    EvalError err = EvalError::None;
    auto v = eval_pure(nd.op, std::span<const Literal>(nd.literals.begin(), nd.literals.end()), args, &err);
    if (!v || type(id) == ValueType::I1) continue;
    const_value_[id] = v;
  }
}

bool Lowerer::is_extern(std::string_view sym) const { return externs_.count(std::string(sym)) != 0; }

bool Lowerer::needs_got(std::string_view sym) const {
  if (is_extern(sym)) return true;
  if (!pic_) return false;
  for (const DataItem& d : header_.data)
    if (d.name == sym) return d.linkage == Linkage::External && d.attrs.visibility == Visibility::Default;
  return true;  // a function of the module, of a linkage the header does not say
}

// gcc's choice (varasm.cc decl_default_tls_model, then ipa-visibility's
// "keep the attribute's model only if it is stronger"): the symbol binds
// locally when it is a data item of the module that is not weak and, under
// -fPIC, not preemptible (internal, or a visibility other than default), or
// an extern of a visibility other than default. Executables (PIE or not):
// local-exec when it binds locally, initial-exec otherwise; shared-library
// code: local-dynamic when it binds locally, general-dynamic otherwise. A
// tls_model attribute may only make the model stronger (GD < LD < IE < LE).
TlsModel Lowerer::tls_model(std::string_view sym) const {
  const SymbolAttrs* attrs = nullptr;
  bool local = false;
  for (const DataItem& d : header_.data)
    if (d.name == sym) {
      attrs = &d.attrs;
      local = !d.attrs.weak &&
              (!pic_ || d.linkage == Linkage::Internal || d.attrs.visibility != Visibility::Default);
    }
  for (const Extern& e : header_.externs)
    if (e.name == sym) attrs = &e.attrs, local = !e.attrs.weak && e.attrs.visibility != Visibility::Default;
  TlsModel model = pic_ ? (local ? TlsModel::LocalDynamic : TlsModel::GlobalDynamic)
                        : (local ? TlsModel::LocalExec : TlsModel::InitialExec);
  if (attrs && attrs->tls_model > model) model = attrs->tls_model;
  return model;
}

NodeId Lowerer::value(NodeId old) const {
  if (map_[old] == kNone) throw std::logic_error("operand " + node_name(old) + " used before it was lowered");
  return map_[old];
}

NodeId Lowerer::emit(OpId op, LiteralList lits, InputList inputs, NodeId control) {
  Node nd;
  nd.op = op;
  nd.literals = std::move(lits);
  nd.inputs = std::move(inputs);
  if (control != kNone) nd.control = {control};
  nd.loc = in_.nodes[current_].loc;
  out_.nodes.push_back(std::move(nd));
  return static_cast<NodeId>(out_.nodes.size() - 1);
}

NodeId Lowerer::proj(NodeId tuple, int64_t index) { return emit(Proj, {Literal::integer(index)}, {tuple}); }

ValueType Lowerer::wide(ValueType t) {
  if (t == ValueType::Ptr) return ValueType::I64;
  return type_bits(t) < 32 ? ValueType::I32 : t;
}

NodeId Lowerer::movi(ValueType t, int64_t imm) {
  t = machine(t);
  if (type_bits(t) < 64) {
    t = ValueType::I32;
    imm = sign_extend(static_cast<uint64_t>(imm), 32);
  }
  return emit(X64MovI, {tlit(t), Literal::integer(imm)}, {});
}

NodeId Lowerer::extend(bool sign, ValueType from, ValueType to, NodeId a) {
  return emit(sign ? X64MovSX : X64MovZX, {tlit(from), tlit(to)}, {a});
}

NodeId Lowerer::widened(NodeId old, bool sign) {
  ValueType t = type(old);
  NodeId v = value(old);
  if (type_bits(t) >= 32 || t == ValueType::I1) return v;  // an i1 is 0 or 1 already (header comment)
  return extend(sign, t, ValueType::I32, v);
}

bool Lowerer::upper32_zero(NodeId v) const {
  const Node& nd = out_.nodes[v];
  switch (nd.op) {
    case X64MovI: case X64Add: case X64Sub: case X64And: case X64Or: case X64Xor: case X64Imul: case X64AddI:
    case X64SubI: case X64AndI: case X64OrI: case X64XorI: case X64ImulI: case X64Neg: case X64Not: case X64Shl:
    case X64Shr: case X64Sar: case X64ShlI: case X64ShrI: case X64SarI: case X64Load: case X64Lea:
    case X64AddM: case X64SubM: case X64AndM: case X64OrM: case X64XorM: case X64ImulM:
      return nd.literals[0].as_string() == "i32";
    case X64MovSX: case X64MovZX: case X64LoadSX: case X64LoadZX:
      return nd.literals[1].as_string() == "i32";
    default:
      return false;
  }
}

// ---- addresses -----------------------------------------------------------------

namespace {

bool is_add64(const Lowerer& l, NodeId v) {
  return l.op(v) == Add && type_bits(l.lit_type(v)) == 64;
}

}  // namespace

Addr Lowerer::address(NodeId p) {
  Addr a;
  auto peel = [&](NodeId& v) {
    // (add 64 v (const c)) -> v, disp += c, while the sum fits.
    while (is_add64(*this, v)) {
      const Node& nd = node(v);
      std::optional<int64_t> c = constant(nd.inputs[1]);
      NodeId rest = nd.inputs[0];
      if (!c) {
        c = constant(nd.inputs[0]);
        rest = nd.inputs[1];
      }
      if (!c || !x64::fits_imm32(*c) || !x64::fits_imm32(a.disp + *c)) return;
      a.disp += *c;
      v = rest;
    }
  };
  // The index part of `v`: (shl 64 y (const k)) with k <= 3, (mul 64 y
  // (const 1|2|4|8)); only 64-bit shifts (CVE-2023-26489).
  auto scaled = [&](NodeId v, NodeId& y, unsigned& scale) {
    const Node& nd = node(v);
    if (type_bits(type(v)) != 64 || nd.literals.empty()) return false;
    if (nd.op == Shl) {
      auto k = constant(nd.inputs[1]);
      if (!k || *k < 0 || *k > 3) return false;
      y = nd.inputs[0];
      scale = 1u << *k;
      return true;
    }
    if (nd.op == Mul) {
      for (int side = 0; side < 2; ++side) {
        auto c = constant(nd.inputs[1 - side]);
        if (c && (*c == 1 || *c == 2 || *c == 4 || *c == 8)) {
          y = nd.inputs[side];
          scale = static_cast<unsigned>(*c);
          return true;
        }
      }
    }
    return false;
  };
  NodeId v = p;
  peel(v);
  if (op(v) == SymAddr && !needs_got(node(v).literals[0].as_string())) {
    a.sym = std::string(node(v).literals[0].as_string());
    return a;
  }
  if (is_add64(*this, v)) {
    NodeId x = node(v).inputs[0], y = node(v).inputs[1];
    peel(x);
    peel(y);
    NodeId idx;
    unsigned scale = 0;
    if (scaled(y, idx, scale)) {
      a.base = value(x);
    } else if (scaled(x, idx, scale)) {
      a.base = value(y);
    } else {
      a.base = value(x);
      idx = y;
      scale = 1;
    }
    a.index = value(idx);
    a.scale = scale;
    return a;
  }
  a.base = value(v);
  return a;
}

namespace {

void append_address(LiteralList& lits, InputList& ins, const Addr& a) {
  lits.push_back(Literal::integer(a.scale));
  lits.push_back(Literal::integer(a.disp));
  if (!a.sym.empty()) lits.push_back(Literal::string(a.sym));
  if (a.base != kNone) ins.push_back(a.base);
  if (a.index != kNone) ins.push_back(a.index);
}

}  // namespace

NodeId Lowerer::lea(const Addr& a) {
  LiteralList lits = {tlit(ValueType::I64)};
  InputList ins;
  append_address(lits, ins, a);
  return emit(X64Lea, std::move(lits), std::move(ins));
}

NodeId Lowerer::load(ValueType t, NodeId mem, NodeId ctl, const Addr& a) {
  InputList ins = {mem};
  LiteralList lits;
  OpId op = X64Load;
  if (t == ValueType::I1) t = ValueType::I8;  // a byte (the caller masks it to 0/1 if it may be other)
  if (type_bits(t) < 32) {
    op = X64LoadZX;
    lits = {tlit(t), tlit(ValueType::I32)};
  } else {
    lits = {tlit(t)};
  }
  append_address(lits, ins, a);
  return emit(op, std::move(lits), std::move(ins), ctl);
}

NodeId Lowerer::store(ValueType t, NodeId mem, NodeId ctl, NodeId v, const Addr& a) {
  LiteralList lits = {tlit(t == ValueType::I1 ? ValueType::I8 : t)};  // an i1 (0 or 1) is a byte
  InputList ins = {mem, v};
  append_address(lits, ins, a);
  return emit(X64Store, std::move(lits), std::move(ins), ctl);
}

NodeId Lowerer::vload(NodeId mem, NodeId ctl, const Addr& a) {
  LiteralList lits;
  InputList ins = {mem};
  append_address(lits, ins, a);
  return emit(X64V128Load, std::move(lits), std::move(ins), ctl);
}

NodeId Lowerer::vstore(NodeId mem, NodeId ctl, NodeId v, const Addr& a) {
  LiteralList lits;
  InputList ins = {mem, v};
  append_address(lits, ins, a);
  return emit(X64V128Store, std::move(lits), std::move(ins), ctl);
}

// ---- flags -----------------------------------------------------------------------

x64::Cond Lowerer::compare_cond(OpId op) {
  using x64::Cond;
  switch (op) {
    case Eq: return Cond::E;
    case Ne: return Cond::NE;
    case SLt: return Cond::L;
    case SLe: return Cond::LE;
    case ULt: return Cond::B;
    default: return Cond::BE;
  }
}

NodeId Lowerer::compare_flags(NodeId cmp, x64::Cond& cc) {
  using x64::Cond;
  const Node& nd = node(cmp);
  ValueType t = machine(lit_type(cmp));
  cc = compare_cond(nd.op);
  NodeId a = nd.inputs[0], b = nd.inputs[1];
  if (t == ValueType::I1) {
    // 0/1 values compared at 32 bits; signed, 1 is -1: x < y iff x > y
    // unsigned (slt -> a, sle -> ae). i1 operands are never constants.
    if (cc == Cond::L) cc = Cond::A;
    if (cc == Cond::LE) cc = Cond::AE;
    return binary(X64Cmp, ValueType::I32, value(a), value(b));
  }
  auto fits = [&](int64_t c) { return type_bits(t) < 64 || x64::fits_imm32(c); };
  if (auto c = constant(b)) {
    if (*c == 0) return binary(X64Test, t, value(a), value(a));
    if (fits(*c)) return with_imm(X64CmpI, t, value(a), *c);
  } else if (auto c2 = constant(a); c2 && fits(*c2)) {
    cc = x64::swap_operands(cc);
    return with_imm(X64CmpI, t, value(b), *c2);
  }
  return binary(X64Cmp, t, value(a), value(b));
}

NodeId Lowerer::nonzero_flags(NodeId v, x64::Cond& cc) {
  cc = x64::Cond::NE;
  const Node& nd = node(v);
  if ((nd.op == SExt || nd.op == ZExt) && lit_type(v, 0) != ValueType::I1) {
    NodeId x = value(nd.inputs[0]);
    return binary(X64Test, machine(lit_type(v, 0)), x, x);
  }
  NodeId x = value(v);
  ValueType t = type(v);
  return binary(X64Test, t == ValueType::I1 ? ValueType::I32 : machine(t), x, x);
}

// ---- division ----------------------------------------------------------------------

NodeId Lowerer::shared_division(bool is_signed, ValueType t, NodeId ctl, NodeId a_old, NodeId b_old) {
  DivKey key{is_signed, t, ctl, a_old, b_old};
  if (auto it = divisions_.find(key); it != divisions_.end()) return it->second;
  NodeId a = widened(a_old, is_signed), b = widened(b_old, is_signed);
  NodeId hi = is_signed ? unary(X64Cdq, t, a) : movi(t, 0);
  NodeId div = emit(is_signed ? X64Idiv : X64Div, {tlit(t)}, {a, hi, b}, ctl);
  divisions_.emplace(key, div);
  return div;
}

// ---- the driver ----------------------------------------------------------------------

void Lowerer::lower_skeleton(NodeId old) {
  const Node& nd = node(old);
  switch (nd.op) {
    case Start: map_[old] = emit(Start, {}, {}); return;
    case Region: {
      // Controls are patched in patch_cycles (they may point forward).
      NodeId r = emit(Region, {}, {});
      map_[old] = r;
      return;
    }
    case Jump: map_[old] = emit(Jump, {}, {}, control(old)); return;
    case Undef: map_[old] = emit(Undef, {}, {}); return;
    case Phi: map_[old] = emit(Phi, {}, {}, control(old)); return;  // inputs: patch_cycles
    case EntryMem: map_[old] = lower_entrymem(old); return;
    case Proj: {
      NodeId tuple = nd.inputs[0];
      int64_t k = nd.literals[0].as_int();
      auto it = tuple_.find(tuple);
      if (it != tuple_.end()) {
        if (k < 0 || static_cast<size_t>(k) >= it->second.size())
          throw FormatError(Where::in(in_.name, node_name(old)), "projection index out of range");
        map_[old] = it->second[static_cast<size_t>(k)];
      } else {
        map_[old] = proj(value(tuple), k);
      }
      return;
    }
    default: throw std::logic_error("not a skeleton node");
  }
}

void Lowerer::lower_node(NodeId old) {
  current_ = old;
  const Node& nd = node(old);
  switch (nd.op) {
    case Start: case Region: case Jump: case Undef: case Phi: case EntryMem: case Proj: lower_skeleton(old); return;
    default: break;
  }
  NodeId made = select(*this, old);
  if (map_[old] == kNone) map_[old] = made;
}

void Lowerer::patch_cycles() {
  for (NodeId old = 0; old < in_.nodes.size(); ++old) {
    const Node& nd = node(old);
    if (nd.op == Phi) {
      // Each constant input its own x64:movi: son2cfg makes it on its edge,
      // in the phi's register, rather than keeping one in a register
      // through the loops between its uses.
      current_ = old;
      InputList ins;
      for (NodeId i : nd.inputs) {
        NodeId v = value(i);
        OpId vop = out_.nodes[v].op;
        if (vop == X64MovI || vop == X64FConst || vop == X64FZero)
          v = emit(vop, out_.nodes[v].literals, {});  // literals copied first
        ins.push_back(v);
      }
      out_.nodes[map_[old]].inputs.assign(ins.begin(), ins.end());
    } else if (nd.op == Region) {
      std::vector<NodeId> ctl;
      for (NodeId c : nd.control) ctl.push_back(value(c));
      out_.nodes[map_[old]].control.assign(ctl.begin(), ctl.end());
    }
  }
}

namespace {

bool removable(const Function& fn, NodeId id) {
  const Node& nd = fn.nodes[id];
  const OpInfo& info = op_info(nd.op);
  if (info.has(PURE)) return true;
  if (nd.op == X64Load || nd.op == X64LoadSX || nd.op == X64LoadZX || nd.op == X64ArgReg) return true;
  if (x64::is_memory_operand_form(nd.op)) return true;  // a folded load (load_fusion.cpp)
  if (nd.op == Proj) return !op_info(fn.nodes[nd.inputs[0]].op).has(BRANCH);
  return false;
}

// Drops the nodes nothing live reads (see the header comment, step 4).
void sweep(Function& fn) {
  size_t n = fn.nodes.size();
  std::vector<char> live(n, 0);
  std::vector<NodeId> work;
  for (NodeId id = 0; id < n; ++id)
    if (!removable(fn, id)) {
      live[id] = 1;
      work.push_back(id);
    }
  while (!work.empty()) {
    NodeId id = work.back();
    work.pop_back();
    const Node& nd = fn.nodes[id];
    for (NodeId ref : nd.inputs)
      if (!live[ref]) live[ref] = 1, work.push_back(ref);
    for (NodeId ref : nd.control)
      if (!live[ref]) live[ref] = 1, work.push_back(ref);
  }
  std::vector<NodeId> remap(n, kNone);
  std::vector<Node> kept;
  for (NodeId id = 0; id < n; ++id)
    if (live[id]) {
      remap[id] = static_cast<NodeId>(kept.size());
      kept.push_back(std::move(fn.nodes[id]));
    }
  for (Node& nd : kept) {
    for (NodeId& ref : nd.inputs) ref = remap[ref];
    for (NodeId& ref : nd.control) ref = remap[ref];
  }
  fn.nodes = std::move(kept);
  remap_debug_slots(fn.debug, remap, kNone);
}

}  // namespace

// Literal and input shapes, checked before any rule indexes them: under
// --no-verify a malformed node is bad input (exit 1), never a crash.
void Lowerer::check_shapes() const {
  for (NodeId id = 0; id < in_.nodes.size(); ++id) {
    const Node& nd = node(id);
    if (auto problem = node_shape_problem(nd)) throw FormatError(Where::in(in_.name, node_name(id)), *problem);
  }
}

Function Lowerer::run(bool verified) {
  if (!verified) check_shapes();
  entry_abi_ = abi_of(in_.signature);
  fold_constants();
  for (NodeId old = 0; old < in_.nodes.size(); ++old) lower_node(old);
  patch_cycles();
  // The debug section's stackslots follow to their x64:stackslots (sweep
  // then maps them to the final ids, or drops the unused ones).
  out_.debug = in_.debug;
  remap_debug_slots(out_.debug, map_, kNone);
  bind_parameter_values();
  sweep(out_);
  return std::move(out_);
}

}  // namespace pl::lower

int main(int argc, char** argv) {
  pl::Tool tool({"son-lower-x64",
                 "Instruction selection for x86-64 (son -> son-x64): generic nodes become x64: instructions by the "
                 "rules of stages/son-lower-x64/rules.cpp (schema/LOWERING.md).",
                 "  ssa2son f.ssa | son-lower-x64 | son2cfg\n"
                 "  son-lower-x64 f.son -f text\n"
                 "  son-lower-x64 --rules > schema/LOWERING.md"});
  bool print_rules = false;
  tool.cli().add_flag("--rules", print_rules, "Print the rule table as Markdown (schema/LOWERING.md) and exit");
  bool no_fold_loads = false;
  tool.cli().add_flag("--no-fold-loads", no_fold_loads,
                      "Never fold a load into its user (the *-load rules): for measuring what memory operands gain");
  bool pic = false;
  tool.cli().add_flag("--pic", pic,
                      "Shared-library code (pipecc -fPIC/-fpic): preemptible symbols' addresses from the GOT, "
                      "thread-local variables by the dynamic TLS models");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    if (print_rules) {
      std::cout << pl::lower::rules_document();
      return;
    }
    pl::ModuleReader& in = t.open_input(pl::Level::Son);
    pl::ModuleHeader header = in.header();
    header.level = pl::Level::SonX64;
    t.open_output(header);
    pl::Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      // Lowering takes the nodes in id order, definitions first; ssa2son's
      // and sonopt's outputs already are in that order.
      if (!pl::defs_precede_uses(fn)) pl::renumber_canonical(fn);
      pl::lower::Lowerer lowerer(in.header(), fn);
      lowerer.set_fold_loads(!no_fold_loads);
      lowerer.set_pic(pic);
      t.write(lowerer.run(t.input_verified()));
    }
    t.finish_output();
  });
}
