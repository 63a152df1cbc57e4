// rules.cpp - THE selection table of son-lower-x64: every generic opcode
// and what it becomes, as rules tried in priority order.
//
// Format. Each row of kRules is RULE(op, name, pattern, when, result, body):
//   op       the generic opcode at the root of the pattern;
//   name     the rule's name, which is also the name of its golden test
//            (tests/stages/son-lower-x64/NAME.in.txt -> NAME.out.txt);
//   pattern  the input subgraph, in Go's rules notation: (op literals
//            inputs), `t` the type literal, `x` `y` any value, `(const c)` a
//            constant, `_` the memory input; `64` for t means i64 or ptr;
//   when     the condition under which the rule fires, in words;
//   result   the x64 nodes it builds, in the same notation, where `[...]`
//            is a folded address (base + index*scale + disp, or symbol +
//            disp) and `t'` the operand size: t, with i8 and i16 computed at
//            i32 and ptr as i64;
//   body     the code: it checks `when` (returning kNone, having built
//            nothing, when it does not hold) and builds `result`.
// For each opcode the rules are tried top to bottom, the first that holds
// wins, and the last rule of each opcode has no condition. The documentation
// columns are printed by `son-lower-x64 --rules` into schema/LOWERING.md (a
// test keeps the two equal); each rule has a golden test.
//
// Values (FORMAT.md section 8): an x64 instruction of operand size t reads
// the low t bits of its inputs, so truncation is free and 8/16-bit add, sub,
// mul, and, or, xor, shl, neg, not are done at 32 bits (their low bits are the
// same); what depends on the upper bits (right shifts, division, widening)
// extends first. Compares run at the operand's own width (cmp r8 exists).
//
// Subgraphs matched here are matched in the input graph: a folded operand
// (a constant, an address computation, a compare) is also lowered on its own
// when the lowerer reaches it; if nothing else uses that copy, the dead-code
// sweep at the end removes it (son-lower-x64.cpp).
#include "rules.h"

#include <bit>

#include "ir/divmagic.h"
#include "ir/error.h"
#include "ir/probability.h"

namespace pl::lower {

namespace {

using VT = ValueType;
using x64::Cond;

unsigned bits(VT t) { return type_bits(t); }
bool is64(VT t) { return bits(t) == 64; }
NodeId in0(Lowerer& l, NodeId n) { return l.node(n).inputs[0]; }
NodeId in1(Lowerer& l, NodeId n) { return l.node(n).inputs[1]; }

// The constant operand of a two-operand node and the other operand: input 1,
// or input 0 when `either` (commutative) and input 1 is not constant.
bool const_operand(Lowerer& l, NodeId n, bool either, NodeId& other, int64_t& c) {
  const Node& nd = l.node(n);
  if (auto k = l.constant(nd.inputs[1])) {
    other = nd.inputs[0];
    c = *k;
    return true;
  }
  if (either) {
    if (auto k = l.constant(nd.inputs[0])) {
      other = nd.inputs[1];
      c = *k;
      return true;
    }
  }
  return false;
}

// An immediate for operand size t': constants of i8..i32 always fit (they
// are read sign-extended at their width); i64 ones if they fit 32 bits.
bool imm_fits(VT t, int64_t c) { return !is64(t) || x64::fits_imm32(c); }

// ---- arithmetic families ---------------------------------------------------

NodeId arith_imm(Lowerer& l, NodeId n, OpId x64op, bool commutative) {
  VT t = l.lit_type(n);
  NodeId x;
  int64_t c;
  if (!const_operand(l, n, commutative, x, c) || !imm_fits(t, c)) return kNone;
  return l.with_imm(x64op, Lowerer::wide(t), l.value(x), c);
}

NodeId arith(Lowerer& l, NodeId n, OpId x64op) {
  return l.binary(x64op, Lowerer::wide(l.lit_type(n)), l.value(in0(l, n)), l.value(in1(l, n)));
}

// ---- loads folded into their user (load_fusion.cpp says when) -------------------

// The fused instruction: `lits`, then the load's address literals; inputs:
// the load's memory state, the register operand `reg` (a new id, or none),
// the address; pinned to the load's control.
NodeId with_memory_operand(Lowerer& l, OpId op, LiteralList lits, NodeId ld, NodeId reg) {
  const Node& lnode = l.node(ld);
  Addr a = l.address(lnode.inputs[1]);
  lits.push_back(Literal::integer(a.scale));
  lits.push_back(Literal::integer(a.disp));
  if (!a.sym.empty()) lits.push_back(Literal::string(a.sym));
  InputList ins = {l.value(lnode.inputs[0])};
  if (reg != kNone) ins.push_back(reg);
  if (a.base != kNone) ins.push_back(a.base);
  if (a.index != kNone) ins.push_back(a.index);
  return l.emit(op, std::move(lits), std::move(ins), l.control(ld));
}

// The load operand of the two-operand node n that may be folded (input 1,
// or input 0 when `commutative`), a load of the operation's own type `t`
// (i32, i64 or ptr; f32, f64), and the other operand.
bool foldable_load_operand(Lowerer& l, NodeId n, bool commutative, VT t, NodeId& ld, NodeId& other) {
  const Node& nd = l.node(n);
  for (int k = 1; k >= (commutative ? 0 : 1); --k) {
    NodeId cand = nd.inputs[k], x = nd.inputs[1 - k];
    if (l.op(cand) != Load || Lowerer::machine(l.lit_type(cand)) != Lowerer::machine(t)) continue;
    if (l.load_fusable(cand, x)) {
      ld = cand;
      other = x;
      return true;
    }
  }
  return false;
}

// (op t x (load t _ p)): `op r, [p]` for integer operations at 32 and 64
// bits (a narrower load is an extending one, so it is not an operand).
NodeId arith_load(Lowerer& l, NodeId n, OpId x64op, bool commutative) {
  VT t = l.lit_type(n);
  if (bits(t) != 32 && bits(t) != 64) return kNone;
  NodeId ld, x;
  if (!foldable_load_operand(l, n, commutative, t, ld, x)) return kNone;
  return with_memory_operand(l, x64op, {Lowerer::tlit(t)}, ld, l.value(x));
}

// (add 64 ...) as lea when the folded address has an index with a scale,
// three parts, or a symbol.
// A stack slot aligned to more than 16 bytes (`_Alignas(32)`, the aligned
// attribute): the frame is 16-aligned, so a slot align-16 bytes larger holds
// an align-aligned object at the first such address in it, computed at run
// time (gcc realigns the whole frame instead; the frame here keeps rsp-based
// addressing of the incoming arguments).
NodeId overaligned_slot(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  int64_t size = nd.literals[0].as_int(), align = nd.literals[1].as_int();
  if (align <= 16) return kNone;
  NodeId slot = l.emit(X64StackSlot, {Literal::integer(size + align - 16), Literal::integer(16)}, {});
  Addr a;
  a.base = slot;
  a.disp = align - 16;
  return l.with_imm(X64AndI, VT::I64, l.lea(a), -align);
}

NodeId add_lea(Lowerer& l, NodeId n) {
  if (!is64(l.lit_type(n))) return kNone;
  // Check the shape before building anything: address() builds nothing but
  // reads already lowered values.
  Addr a = l.address(n);
  bool rich = !a.sym.empty() || (a.index != kNone && (a.scale > 1 || a.disp != 0));
  if (!rich) return kNone;
  return l.lea(a);
}

NodeId neg_of_sub(Lowerer& l, NodeId n) {
  auto c = l.constant(in0(l, n));
  if (!c || *c != 0) return kNone;
  return l.unary(X64Neg, Lowerer::wide(l.lit_type(n)), l.value(in1(l, n)));
}

NodeId mul_pow2(Lowerer& l, NodeId n) {
  NodeId x;
  int64_t c;
  if (!const_operand(l, n, true, x, c) || c <= 0 || !std::has_single_bit(static_cast<uint64_t>(c))) return kNone;
  VT t = Lowerer::wide(l.lit_type(n));
  if (c == 1) return l.value(x);
  return l.with_imm(X64ShlI, t, l.value(x), std::countr_zero(static_cast<uint64_t>(c)));
}

// x * c for c = m * 2^k, m 3, 5 or 9: lea [x + x*(m-1)], shifted left by k
// (gcc's choice for 6, 10, 12, 18, 20, 24, 36, 40, 72, ...: two one-cycle
// instructions against imul's three cycles).
NodeId mul_lea(Lowerer& l, NodeId n) {
  NodeId x;
  int64_t c;
  if (!const_operand(l, n, true, x, c) || c <= 0) return kNone;
  unsigned k = static_cast<unsigned>(std::countr_zero(static_cast<uint64_t>(c)));
  int64_t m = c >> k;
  VT t = Lowerer::wide(l.lit_type(n));
  if ((m != 3 && m != 5 && m != 9) || k >= bits(t)) return kNone;
  NodeId v = l.value(x);
  Addr a;
  a.base = v;
  a.index = v;
  a.scale = static_cast<unsigned>(m - 1);
  NodeId r = l.lea(a);
  l.output().nodes[r].literals[0] = Lowerer::tlit(t);
  return k == 0 ? r : l.with_imm(X64ShlI, t, r, k);
}

NodeId xor_not(Lowerer& l, NodeId n) {
  NodeId x;
  int64_t c;
  if (!const_operand(l, n, true, x, c) || c != -1) return kNone;
  return l.unary(X64Not, Lowerer::wide(l.lit_type(n)), l.value(x));
}

// ---- shifts -------------------------------------------------------------------

// The shifted operand: right shifts of i8/i16 extend it to 32 bits first.
NodeId shift_source(Lowerer& l, NodeId n) {
  OpId op = l.op(n);
  if (op == Shl) return l.value(in0(l, n));
  return l.widened(in0(l, n), op == AShr);
}

OpId shift_op(OpId op, bool imm) {
  if (op == Shl) return imm ? X64ShlI : X64Shl;
  if (op == LShr) return imm ? X64ShrI : X64Shr;
  return imm ? X64SarI : X64Sar;
}

NodeId shift_imm(Lowerer& l, NodeId n) {
  auto k = l.constant(in1(l, n));
  if (!k) return kNone;
  VT t = Lowerer::wide(l.lit_type(n));
  // An amount >= the type's width is undefined; the hardware masks it.
  int64_t amount = *k & (bits(t) - 1);
  return l.with_imm(shift_op(l.op(n), true), t, shift_source(l, n), amount);
}

NodeId shift_reg(Lowerer& l, NodeId n) {
  VT t = Lowerer::wide(l.lit_type(n));
  return l.binary(shift_op(l.op(n), false), t, shift_source(l, n), l.value(in1(l, n)));
}

// ---- division -------------------------------------------------------------

bool is_signed_div(OpId op) { return op == SDiv || op == SRem; }
bool is_rem(OpId op) { return op == SRem || op == URem; }

// The divisor as the division computes it: signed at the type's width, or
// its unsigned pattern; nothing if it is not a non-zero constant.
std::optional<int64_t> const_divisor(Lowerer& l, NodeId n) {
  auto c = l.constant(in1(l, n));
  if (!c || *c == 0) return std::nullopt;
  if (is_signed_div(l.op(n))) return c;
  return static_cast<int64_t>(truncate_to(static_cast<uint64_t>(*c), bits(l.lit_type(n))));
}

NodeId imm_or_reg(Lowerer& l, OpId imm_op, OpId reg_op, VT t, NodeId a, int64_t c) {
  if (!is64(t)) c = sign_extend(static_cast<uint64_t>(c), 32);  // an i32 immediate is read as signed
  if (imm_fits(t, c)) return l.with_imm(imm_op, t, a, c);
  return l.binary(reg_op, t, a, l.movi(t, c));
}

NodeId shri(Lowerer& l, OpId op, VT t, NodeId a, unsigned k) { return k == 0 ? a : l.with_imm(op, t, a, k); }

// The high half of the 2N-bit product a * magic, shifted right by `shift`
// more (sar when signed). At 64 bits: the one-operand multiply's rdx half.
// At 32 bits (gcc's choice): a 64-bit two- or three-address multiply of a
// extended to 64 bits, shifted right by 32 + shift, so that no value has to
// be in rax or rdx. Exact: a and magic are below 2^32 in magnitude, so the
// product fits 64 bits, and floor(floor(p / 2^32) / 2^shift) is
// floor(p / 2^(32 + shift)).
NodeId mul_high(Lowerer& l, bool is_signed, VT t, NodeId a, int64_t magic, unsigned shift) {
  OpId shift_op = is_signed ? X64SarI : X64ShrI;
  if (is64(t)) {
    NodeId prod = l.binary(is_signed ? X64Imul1 : X64Mul1, t, a, l.movi(t, magic));
    return shri(l, shift_op, t, l.proj(prod, 1), shift);
  }
  NodeId wide = is_signed ? l.extend(true, VT::I32, VT::I64, a)
                          : l.upper32_zero(a) ? a : l.extend(false, VT::I32, VT::I64, a);
  uint64_t pattern = static_cast<uint64_t>(magic) & 0xFFFFFFFFu;
  int64_t m = is_signed ? sign_extend(pattern, 32) : static_cast<int64_t>(pattern);
  NodeId prod = x64::fits_imm32(m) ? l.with_imm(X64ImulI, VT::I64, wide, m)
                                   : l.binary(X64Imul, VT::I64, wide, l.movi(VT::I64, m));
  return l.with_imm(shift_op, VT::I64, prod, 32 + shift);
}

// q = n / d, unsigned, n at t' (32 or 64 bits).
NodeId udiv_const(Lowerer& l, VT t, NodeId n, uint64_t d) {
  using K = UnsignedDivPlan::Kind;
  UnsignedDivPlan p = unsigned_div_plan(d, bits(t));
  switch (p.kind) {
    case K::Identity: return n;
    case K::Shift: return shri(l, X64ShrI, t, n, p.post_shift);
    case K::GreaterEqual: {
      int64_t c = is64(t) ? static_cast<int64_t>(d) : sign_extend(d, 32);
      NodeId flags = x64::fits_imm32(c) ? l.with_imm(X64CmpI, t, n, c) : l.binary(X64Cmp, t, n, l.movi(t, c));
      NodeId set = l.emit(X64SetCC, {Literal::string("ae")}, {flags});
      return l.extend(false, VT::I8, t, set);
    }
    case K::MulHi:
      return mul_high(l, false, t, shri(l, X64ShrI, t, n, p.pre_shift), static_cast<int64_t>(p.magic), p.post_shift);
    case K::MulHiAdd: {
      NodeId hi = mul_high(l, false, t, n, static_cast<int64_t>(p.magic), 0);
      NodeId half = l.with_imm(X64ShrI, t, l.binary(X64Sub, t, n, hi), 1);
      return shri(l, X64ShrI, t, l.binary(X64Add, t, half, hi), p.post_shift);
    }
  }
  return kNone;
}

// The rounding bias of a signed division by 2^k: 2^k - 1 for a negative n,
// else 0 (the sign smeared by sar, its top k bits taken by shr; no sar by 0
// for k = 1).
NodeId pow2_bias(Lowerer& l, VT t, NodeId n, unsigned k) {
  return l.with_imm(X64ShrI, t, shri(l, X64SarI, t, n, k - 1), bits(t) - k);
}

// r = n % +-2^k, signed: ((n + bias) & (2^k - 1)) - bias, gcc's sequence (the
// remainder takes the dividend's sign; the divisor's does not matter).
NodeId srem_pow2(Lowerer& l, VT t, NodeId n, unsigned k) {
  NodeId bias = pow2_bias(l, t, n, k);
  NodeId low = imm_or_reg(l, X64AndI, X64And, t, l.binary(X64Add, t, n, bias),
                          static_cast<int64_t>((uint64_t{1} << k) - 1));
  return l.binary(X64Sub, t, low, bias);
}

// q = n / d, signed.
NodeId sdiv_const(Lowerer& l, VT t, NodeId n, int64_t d) {
  using K = SignedDivPlan::Kind;
  SignedDivPlan p = signed_div_plan(d, bits(t));
  unsigned w = bits(t);
  NodeId q = n;
  switch (p.kind) {
    case K::Identity: break;
    case K::Pow2: {
      NodeId bias = pow2_bias(l, t, n, p.shift);
      q = l.with_imm(X64SarI, t, l.binary(X64Add, t, n, bias), p.shift);
      break;
    }
    case K::MulHi:
    case K::MulHiAdd: {
      NodeId shifted = p.kind == K::MulHi
                           ? mul_high(l, true, t, n, p.magic, p.post_shift)
                           : shri(l, X64SarI, t, l.binary(X64Add, t, n, mul_high(l, true, t, n, p.magic, 0)), p.post_shift);
      q = l.binary(X64Sub, t, shifted, l.with_imm(X64SarI, t, n, w - 1));
      break;
    }
  }
  return p.negate ? l.unary(X64Neg, t, q) : q;
}

NodeId div_const(Lowerer& l, NodeId n) {
  auto d = const_divisor(l, n);
  if (!d) return kNone;
  bool is_signed = is_signed_div(l.op(n));
  VT t = Lowerer::wide(l.lit_type(n));
  NodeId x = l.widened(in0(l, n), is_signed);
  if (is_signed && is_rem(l.op(n))) {
    SignedDivPlan p = signed_div_plan(*d, bits(t));
    if (p.kind == SignedDivPlan::Kind::Pow2) return srem_pow2(l, t, x, p.shift);
  }
  // One quotient per operand and divisor: x / d and x % d share it.
  NodeId& q = l.shared_quotient(is_signed, t, x, *d);
  if (q == kNone) q = is_signed ? sdiv_const(l, t, x, *d) : udiv_const(l, t, x, static_cast<uint64_t>(*d));
  if (!is_rem(l.op(n))) return q;
  // r = n - q * d
  if (is_signed ? (*d == 1 || *d == -1) : *d == 1) return l.movi(t, 0);
  return l.binary(X64Sub, t, x, imm_or_reg(l, X64ImulI, X64Imul, t, q, *d));
}

// urem by 2^k: and with 2^k - 1.
NodeId urem_pow2(Lowerer& l, NodeId n) {
  auto d = const_divisor(l, n);
  if (!d || l.op(n) != URem || !std::has_single_bit(static_cast<uint64_t>(*d))) return kNone;
  VT t = Lowerer::wide(l.lit_type(n));
  return imm_or_reg(l, X64AndI, X64And, t, l.widened(in0(l, n), false), *d - 1);
}

NodeId div_general(Lowerer& l, NodeId n) {
  bool is_signed = is_signed_div(l.op(n));
  NodeId div = l.shared_division(is_signed, Lowerer::wide(l.lit_type(n)), l.control(n), in0(l, n), in1(l, n));
  return l.proj(div, is_rem(l.op(n)) ? 1 : 0);
}

// ---- compares and branches ------------------------------------------------------

bool is_compare(OpId op) { return op == Eq || op == Ne || op == SLt || op == SLe || op == ULt || op == ULe; }

NodeId setcc_value(Lowerer& l, NodeId n) {
  Cond cc;
  NodeId flags = l.compare_flags(n, cc);
  NodeId set = l.emit(X64SetCC, {Literal::string(x64::cond_name(cc))}, {flags});
  return l.extend(false, VT::I8, VT::I32, set);
}

// Every branch rule ends here: the jcc keeps the if's probability (of its
// proj 0, which stays the jcc's proj 0 whatever cc the rule chose).
NodeId jcc(Lowerer& l, NodeId n, NodeId flags, Cond cc) {
  LiteralList literals{Literal::string(x64::cond_name(cc))};
  if (std::optional<uint32_t> p = branch_probability(l.node(n))) literals.push_back(Literal::integer(*p));
  NodeId j = l.emit(X64Jcc, std::move(literals), {flags}, l.control(n));
  l.define_tuple(n, {l.proj(j, 0), l.proj(j, 1)});
  return j;
}

NodeId if_fcompare(Lowerer& l, NodeId n, NodeId cmp, bool negate);

NodeId if_compare(Lowerer& l, NodeId n) {
  NodeId v = in0(l, n);
  if (float_pred(l.op(v))) return if_fcompare(l, n, v, false);
  if (!is_compare(l.op(v))) return kNone;
  Cond cc;
  NodeId flags = l.compare_flags(v, cc);
  return jcc(l, n, flags, cc);
}

// (if (ne (cmp ..) 0)) / (if (eq (cmp ..) 0)): the inner compare's flags.
NodeId if_compare_zero(Lowerer& l, NodeId n) {
  NodeId v = in0(l, n);
  if (l.op(v) != Ne && l.op(v) != Eq) return kNone;
  bool fcmp = float_pred(l.op(in0(l, v))).has_value();
  if (!fcmp && !is_compare(l.op(in0(l, v)))) return kNone;
  auto c = l.constant(in1(l, v));
  if (!c || *c != 0) return kNone;
  if (fcmp) return if_fcompare(l, n, in0(l, v), l.op(v) == Eq);
  Cond cc;
  NodeId flags = l.compare_flags(in0(l, v), cc);
  return jcc(l, n, flags, l.op(v) == Eq ? x64::negate(cc) : cc);
}

NodeId if_and_imm(Lowerer& l, NodeId n) {
  NodeId v = in0(l, n);
  if (l.op(v) != And) return kNone;
  NodeId x;
  int64_t c;
  VT t = l.lit_type(v);
  if (!const_operand(l, v, true, x, c) || !imm_fits(t, c)) return kNone;
  NodeId flags = l.with_imm(X64TestI, Lowerer::machine(t), l.value(x), c);
  return jcc(l, n, flags, Cond::NE);
}

NodeId if_value(Lowerer& l, NodeId n) {
  Cond cc;
  NodeId flags = l.nonzero_flags(in0(l, n), cc);
  return jcc(l, n, flags, cc);
}

// (select t c a b): the flags of c as a branch on it would read them, then
// (x64:cmov cc FLAGS b a): a when cc holds, else b. cmov has no 8-bit form;
// i8 and i16 values live in 32-bit registers anyway (Lowerer::wide).
NodeId select_cmov(Lowerer& l, NodeId n) {
  NodeId c = in0(l, n);
  Cond cc;
  NodeId flags = is_compare(l.op(c)) ? l.compare_flags(c, cc) : l.nonzero_flags(c, cc);
  VT t = Lowerer::wide(l.lit_type(n));
  NodeId a = l.value(in1(l, n)), b = l.value(l.node(n).inputs[2]);
  return l.emit(X64CMov, {Literal::string(x64::cond_name(cc)), Lowerer::tlit(t)}, {flags, b, a});
}

// ---- conversions ---------------------------------------------------------

// (sext/zext f t (load f _ p)) with the load used only here: one extending load.
NodeId ext_load(Lowerer& l, NodeId n) {
  NodeId ld = in0(l, n);
  if (l.op(ld) != Load || l.uses(ld) != 1) return kNone;
  VT from = l.lit_type(n, 0), to = l.lit_type(n, 1);
  if (bits(from) >= bits(to) || l.lit_type(ld) != from || from == VT::I1) return kNone;
  bool sign = l.op(n) == SExt;
  const Node& lnode = l.node(ld);
  Addr a = l.address(lnode.inputs[1]);
  NodeId mem = l.value(lnode.inputs[0]), ctl = l.control(ld);
  if (!sign && from == VT::I32) return l.load(VT::I32, mem, ctl, a);
  LiteralList lits = {Lowerer::tlit(from), Lowerer::tlit(Lowerer::wide(to)), Literal::integer(a.scale),
                               Literal::integer(a.disp)};
  InputList ins = {mem};
  if (!a.sym.empty()) lits.push_back(Literal::string(a.sym));
  if (a.base != kNone) ins.push_back(a.base);
  if (a.index != kNone) ins.push_back(a.index);
  return l.emit(sign ? X64LoadSX : X64LoadZX, std::move(lits), std::move(ins), ctl);
}

NodeId ext_same_width(Lowerer& l, NodeId n) {
  if (bits(l.lit_type(n, 0)) != bits(l.lit_type(n, 1))) return kNone;
  return l.value(in0(l, n));
}

NodeId zext_free(Lowerer& l, NodeId n) {
  if (l.lit_type(n, 0) != VT::I32 || !is64(l.lit_type(n, 1))) return kNone;
  NodeId v = l.value(in0(l, n));
  return l.upper32_zero(v) ? v : kNone;
}

NodeId ext(Lowerer& l, NodeId n) {
  VT from = l.lit_type(n, 0), to = l.lit_type(n, 1);
  return l.extend(l.op(n) == SExt, from, Lowerer::wide(to), l.value(in0(l, n)));
}

// ---- memory ------------------------------------------------------------------

NodeId load_any(Lowerer& l, NodeId n, bool is_volatile) {
  const Node& nd = l.node(n);
  VT t = l.lit_type(n);
  Addr a = l.address(nd.inputs[1]);
  NodeId ld = l.load(t, l.value(nd.inputs[0]), l.control(n), a);
  if (!is_volatile) return ld;
  Node& made = l.output().nodes[ld];
  made.op = made.op == X64Load ? X64LoadV : X64LoadZXV;
  l.define_tuple(n, {l.proj(ld, 0), l.proj(ld, 1)});
  return ld;
}

NodeId store_imm(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  VT t = l.lit_type(n);
  auto c = l.constant(nd.inputs[2]);
  if (!c || !imm_fits(t, *c)) return kNone;
  Addr a = l.address(nd.inputs[1]);
  LiteralList lits = {Lowerer::tlit(t), Literal::integer(Lowerer::immediate(t, *c)), Literal::integer(a.scale),
                      Literal::integer(a.disp)};
  InputList ins = {l.value(nd.inputs[0])};
  if (!a.sym.empty()) lits.push_back(Literal::string(a.sym));
  if (a.base != kNone) ins.push_back(a.base);
  if (a.index != kNone) ins.push_back(a.index);
  return l.emit(X64StoreI, std::move(lits), std::move(ins), l.control(n));
}

NodeId store_reg(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  Addr a = l.address(nd.inputs[1]);
  return l.store(l.lit_type(n), l.value(nd.inputs[0]), l.control(n), l.value(nd.inputs[2]), a);
}

NodeId copy_mem(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  return l.lower_copy(l.control(n), l.value(nd.inputs[0]), l.value(nd.inputs[1]), l.value(nd.inputs[2]),
                      static_cast<uint64_t>(nd.literals[0].as_int()));
}

// The dynamic stack. alloca's size is rounded up to a multiple of 16 (so rsp
// stays 16-byte aligned and so does every block); x64:alloca subtracts it
// from rsp, its address is above the outgoing argument area (codegen-x64).
NodeId dynamic_alloca(Lowerer& l, NodeId n, bool constant_size) {
  const Node& nd = l.node(n);
  NodeId size;
  if (constant_size) {
    auto c = l.constant(nd.inputs[1]);
    if (!c || static_cast<uint64_t>(*c) > (uint64_t{1} << 31)) return kNone;
    size = l.movi(VT::I32, static_cast<int64_t>((static_cast<uint64_t>(*c) + 15) & ~uint64_t{15}));
  } else {
    NodeId bytes = l.with_imm(X64AddI, VT::I64, l.value(nd.inputs[1]), 15);
    size = l.with_imm(X64AndI, VT::I64, bytes, -16);
  }
  NodeId a = l.emit(X64Alloca, {}, {l.value(nd.inputs[0]), size}, l.control(n));
  l.define_tuple(n, {l.proj(a, 0), l.proj(a, 1)});
  return a;
}

NodeId stack_save(Lowerer& l, NodeId n) {
  NodeId s = l.emit(X64StackSave, {}, {l.value(l.node(n).inputs[0])}, l.control(n));
  l.define_tuple(n, {l.proj(s, 0), l.proj(s, 1)});
  return s;
}

// ---- atomics (FORMAT.md 8, "Atomics"): gcc's sequences, the address in a
// register, operand size the access's own (i8 and i16 stay narrow).

// The base register of an atomic's address (input 1).
NodeId atomic_address(Lowerer& l, NodeId n) { return l.value(l.node(n).inputs[1]); }
std::string atomic_op(Lowerer& l, NodeId n) { return std::string(l.node(n).literals[1].as_string()); }

// A tuple of the memory and value results of an x64 atomic.
NodeId atomic_tuple(Lowerer& l, NodeId n, NodeId x) {
  l.define_tuple(n, {l.proj(x, 0), l.proj(x, 1)});
  return x;
}

NodeId atomic_store_seq_cst(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  if (atomic_op(l, n) != "seq_cst") return kNone;
  NodeId x = l.emit(X64AtomicXchg, {Lowerer::tlit(l.lit_type(n))},
                    {l.value(nd.inputs[0]), atomic_address(l, n), l.value(nd.inputs[2])}, l.control(n));
  return l.proj(x, 0);
}

// add, sub, and, or, xor whose old value nobody reads: `lock OP r, (a)`.
NodeId atomic_rmw_no_result(Lowerer& l, NodeId n) {
  std::string what = atomic_op(l, n);
  if (l.value_used(n) || !(what == "add" || what == "sub" || what == "and" || what == "or" || what == "xor"))
    return kNone;
  const Node& nd = l.node(n);
  VT t = l.lit_type(n);
  NodeId x = l.emit(X64AtomicOp, {Lowerer::tlit(t), Literal::string(what)},
                    {l.value(nd.inputs[0]), atomic_address(l, n), l.value(nd.inputs[2])}, l.control(n));
  l.define_tuple(n, {x, l.movi(VT::I32, 0)});
  return x;
}

NodeId atomic_rmw_xchg(Lowerer& l, NodeId n) {
  if (atomic_op(l, n) != "xchg") return kNone;
  const Node& nd = l.node(n);
  return atomic_tuple(l, n, l.emit(X64AtomicXchg, {Lowerer::tlit(l.lit_type(n))},
                                   {l.value(nd.inputs[0]), atomic_address(l, n), l.value(nd.inputs[2])},
                                   l.control(n)));
}

NodeId atomic_rmw_xadd(Lowerer& l, NodeId n) {
  std::string what = atomic_op(l, n);
  if (what != "add" && what != "sub") return kNone;
  const Node& nd = l.node(n);
  VT t = l.lit_type(n);
  NodeId v = l.value(nd.inputs[2]);
  if (what == "sub") v = l.unary(X64Neg, Lowerer::wide(t), v);
  return atomic_tuple(l, n, l.emit(X64AtomicXadd, {Lowerer::tlit(t)}, {l.value(nd.inputs[0]), atomic_address(l, n), v},
                                   l.control(n)));
}

NodeId atomic_rmw_loop(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  VT t = l.lit_type(n);
  return atomic_tuple(l, n, l.emit(X64AtomicLoop, {Lowerer::tlit(t), Literal::string(atomic_op(l, n))},
                                   {l.value(nd.inputs[0]), atomic_address(l, n), l.value(nd.inputs[2])},
                                   l.control(n)));
}

NodeId atomic_cmpxchg(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  return atomic_tuple(l, n, l.emit(X64AtomicCmpXchg, {Lowerer::tlit(l.lit_type(n))},
                                   {l.value(nd.inputs[0]), atomic_address(l, n), l.value(nd.inputs[2]),
                                    l.value(nd.inputs[3])},
                                   l.control(n)));
}

NodeId fence_seq_cst(Lowerer& l, NodeId n) {
  if (l.node(n).literals[0].as_string() != "seq_cst") return kNone;
  return l.emit(X64Fence, {}, {l.value(l.node(n).inputs[0])}, l.control(n));
}

NodeId stack_restore(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  return l.emit(X64StackRestore, {}, {l.value(nd.inputs[0]), l.value(nd.inputs[1])}, l.control(n));
}

// Any node with a constant value (a const, or a pure node of constants):
// one x64:movi.
NodeId const_node(Lowerer& l, NodeId n) {
  auto c = l.constant(n);
  if (!c) return kNone;
  VT t = l.type(n);
  uint64_t raw = truncate_to(static_cast<uint64_t>(*c), bits(t));
  if (raw <= UINT32_MAX) return l.movi(VT::I32, static_cast<int64_t>(raw));
  return l.movi(VT::I64, *c);
}

// ---- i1 values ------------------------------------------------------------------
// An i1 is 0 or 1 in the whole register (son-lower-x64.cpp's header comment);
// these rules keep it so. i1 operands are never constants (fold_constants
// leaves them alone), so the generic rules below see no i1 immediate.

bool is_i1(Lowerer& l, NodeId n, size_t lit = 0) { return l.lit_type(n, lit) == VT::I1; }

NodeId i1_binary(Lowerer& l, NodeId n, OpId x64op) {
  if (!is_i1(l, n)) return kNone;
  return l.binary(x64op, VT::I32, l.value(in0(l, n)), l.value(in1(l, n)));
}

NodeId load_i1(Lowerer& l, NodeId n, bool is_volatile) {
  if (!is_i1(l, n)) return kNone;
  NodeId ld = load_any(l, n, is_volatile);
  if (!is_volatile) return l.with_imm(X64AndI, VT::I32, ld, 1);
  NodeId mem = l.proj(ld, 0);
  l.define_tuple(n, {mem, l.with_imm(X64AndI, VT::I32, l.proj(ld, 1), 1)});
  return ld;
}

// ---- floating point (SSE2 scalar; FORMAT.md section 8, "Floating point") -------
// f32 and f64 values live in xmm registers; the x64 instructions take the
// floating type literal (the ss or sd form). Constants come from read-only
// data, +0.0 from xorps; fneg and fabs are xorps/andps with a sign mask
// constant. A compare becomes ucomis and a condition that holds exactly
// when the predicate does (ucomis sets ZF PF CF: unordered 111, less 001,
// equal 100, greater 000): o-predicates need "no NaN" and u-predicates
// "or a NaN", which a single condition gives for all but foeq (ZF and not
// PF) and fune (not ZF or PF), built from two setcc.

bool is_f32(VT t) { return t == VT::F32; }

// +0.0 by its bits (-0.0 is a constant like any other).
NodeId fconst_zero(Lowerer& l, NodeId n) {
  if (l.node(n).literals[1].bits() != 0) return kNone;
  return l.emit(X64FZero, {Lowerer::tlit(l.lit_type(n))}, {});
}

NodeId fconst_bits(Lowerer& l, VT t, uint64_t f64_bits) {
  return l.emit(X64FConst, {Lowerer::tlit(t), Literal::float_bits(f64_bits)}, {});
}

// (fop F x (load F _ p)): `addsd x, [p]` ...; (fsqrt F (load F _ p)): sqrtsd [p].
NodeId farith_load(Lowerer& l, NodeId n, OpId x64op, bool commutative) {
  VT t = l.lit_type(n);
  if (x64op == X64FSqrtM) {
    NodeId ld = in0(l, n);
    if (l.op(ld) != Load || l.lit_type(ld) != t || !l.load_fusable(ld, kNone)) return kNone;
    return with_memory_operand(l, x64op, {Lowerer::tlit(t)}, ld, kNone);
  }
  NodeId ld, x;
  if (!foldable_load_operand(l, n, commutative, t, ld, x)) return kNone;
  return with_memory_operand(l, x64op, {Lowerer::tlit(t)}, ld, l.value(x));
}

NodeId farith(Lowerer& l, NodeId n, OpId x64op) {
  VT t = l.lit_type(n);
  if (x64op == X64FSqrt) return l.unary(x64op, t, l.value(in0(l, n)));
  return l.binary(x64op, t, l.value(in0(l, n)), l.value(in1(l, n)));
}

// fneg: xor with the sign bit; fabs: and with every bit but the sign (a NaN
// pattern as a constant: 0x7FFF...F, whose f32 form is 0x7FFFFFFF).
NodeId fsign_mask(Lowerer& l, NodeId n) {
  VT t = l.lit_type(n);
  bool neg = l.op(n) == FNeg;
  uint64_t mask = neg ? 0x8000000000000000ull : (is_f32(t) ? 0x7FFFFFFFE0000000ull : 0x7FFFFFFFFFFFFFFFull);
  return l.binary(neg ? X64FXor : X64FAnd, t, l.value(in0(l, n)), fconst_bits(l, t, mask));
}

// How ucomis decides a predicate: the operands (swapped or not) and one
// condition, or two conditions for foeq (e and np) and fune (ne or p).
struct FloatCond {
  bool swap = false;
  Cond cc = Cond::E;
  bool two = false;  // foeq / fune
};
FloatCond float_cond(OpId op) {
  switch (op) {
    case FOEq: return {false, Cond::E, true};
    case FUNe: return {false, Cond::NE, true};
    case FONe: return {false, Cond::NE};
    case FUEq: return {false, Cond::E};
    case FOGt: return {false, Cond::A};
    case FOGe: return {false, Cond::AE};
    case FOLt: return {true, Cond::A};
    case FOLe: return {true, Cond::AE};
    case FULt: return {false, Cond::B};
    case FULe: return {false, Cond::BE};
    case FUGt: return {true, Cond::B};
    case FUGe: return {true, Cond::BE};
    case FOrd: return {false, Cond::NP};
    default: return {false, Cond::P};  // funo
  }
}


// A fresh ucomis for one flags user.
NodeId ucomis(Lowerer& l, NodeId cmp, bool swap) {
  NodeId a = l.value(in0(l, cmp)), b = l.value(in1(l, cmp));
  if (swap) std::swap(a, b);
  return l.binary(X64Ucomis, l.lit_type(cmp), a, b);
}

NodeId setcc32(Lowerer& l, Cond cc, NodeId flags) {
  NodeId set = l.emit(X64SetCC, {Literal::string(x64::cond_name(cc))}, {flags});
  return l.extend(false, VT::I8, VT::I32, set);
}

NodeId fcmp_value(Lowerer& l, NodeId n) {
  FloatCond fc = float_cond(l.op(n));
  NodeId first = setcc32(l, fc.cc, ucomis(l, n, fc.swap));
  if (!fc.two) return first;
  bool eq = fc.cc == Cond::E;
  NodeId second = setcc32(l, eq ? Cond::NP : Cond::P, ucomis(l, n, false));
  return l.binary(eq ? X64And : X64Or, VT::I32, first, second);
}

// ---- long double (f80 in memory; FORMAT.md 7 and 8) -------------------------
// Every f80 operation becomes one x64 instruction on the same addresses, each
// in a general register; codegen-x64 expands it to its x87 sequence.

NodeId f80_mem_op(Lowerer& l, NodeId n, OpId x64op) {
  const Node& nd = l.node(n);
  InputList ins;
  for (NodeId in : nd.inputs) ins.push_back(l.value(in));
  return l.emit(x64op, {nd.literals[0]}, std::move(ins), l.control(n));
}

// A 16-byte vector operation: the same operation, its addresses in
// registers (codegen-x64 writes the instruction around movdqu).
NodeId v128_mem_op(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  InputList ins;
  for (NodeId in : nd.inputs) ins.push_back(l.value(in));
  return l.emit(X64V128Op, {nd.literals[0], nd.literals[1]}, std::move(ins), l.control(n));
}

// ---- 16-byte vector values (FORMAT.md sections 7 and 8, "16-byte vector
// values"): each operation one instruction on xmm registers.

NodeId vec_load(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  return l.vload(l.value(nd.inputs[0]), l.control(n), l.address(nd.inputs[1]));
}

NodeId vec_store(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  Addr a = l.address(nd.inputs[1]);
  return l.vstore(l.value(nd.inputs[0]), l.control(n), l.value(nd.inputs[2]), a);
}

NodeId vec_apply(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  return l.emit(X64V128Apply, {nd.literals[0], nd.literals[1]}, {l.value(nd.inputs[0]), l.value(nd.inputs[1])});
}

NodeId vec_splat(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  return l.emit(X64V128Splat, {Lowerer::tlit(l.lit_type(n))}, {l.value(nd.inputs[0])});
}

// Lane L of 4-byte lanes is moved to lane 0 by pshufd $L; lane 1 of 8-byte
// ones by pshufd $0x0e (dwords 2 and 3 to 0 and 1).
NodeId vec_extract(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  VT t = l.lit_type(n);
  uint64_t lane = nd.literals[1].bits();
  NodeId v = l.value(nd.inputs[0]);
  if (lane != 0) {
    int64_t sel = type_bytes(t) == 4 ? static_cast<int64_t>(lane) : 0x0e;
    v = l.emit(X64V128Apply, {Literal::string("pshufd"), Literal::integer(sel)}, {v, v});
  }
  return l.emit(X64V128Extract, {Lowerer::tlit(t)}, {v});
}

// One fucomip per condition, on the operands in float_cond's order (as
// ucomisd: st(0) = the first, st(1) the second); foeq and fune need two.
NodeId f80_cmp(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  std::optional<OpId> pred = find_op(nd.literals[0].as_string());
  FloatCond fc = float_cond(pred ? *pred : OpId{FUno});
  NodeId mem = l.value(nd.inputs[0]), a = l.value(nd.inputs[1]), b = l.value(nd.inputs[2]);
  auto cmp = [&](Cond cc, bool swap) {
    return l.emit(X64F80Cmp, {Literal::string(x64::cond_name(cc))}, {mem, swap ? b : a, swap ? a : b}, l.control(n));
  };
  NodeId first = cmp(fc.cc, fc.swap);
  if (!fc.two) return first;
  bool eq = fc.cc == Cond::E;
  return l.binary(eq ? X64And : X64Or, VT::I32, first, cmp(eq ? Cond::NP : Cond::P, false));
}

// f80.to: input 2 of the x64 form is a scratch slot of its own (the control
// words and the integer or f32/f64 on their way to the register).
NodeId f80_to(Lowerer& l, NodeId n) {
  const Node& nd = l.node(n);
  NodeId scratch = l.emit(X64StackSlot, {Literal::integer(16), Literal::integer(16)}, {});
  return l.emit(X64F80To, {nd.literals[0]}, {l.value(nd.inputs[0]), l.value(nd.inputs[1]), scratch}, l.control(n));
}

// (if (FCMP x y)) and (if (ne/eq (FCMP x y) 0)) with one condition: the
// jump reads ucomis's flags (foeq and fune go through their value).
NodeId if_fcompare(Lowerer& l, NodeId n, NodeId cmp, bool negate);

// (sitofp I F (load I _ p)) for I of 32 or 64 bits: cvtsi2sd/ss from memory.
NodeId sitofp_load(Lowerer& l, NodeId n) {
  VT from = Lowerer::machine(l.lit_type(n, 0)), to = l.lit_type(n, 1);
  NodeId ld = in0(l, n);
  if ((bits(from) != 32 && bits(from) != 64) || l.op(ld) != Load ||
      Lowerer::machine(l.lit_type(ld)) != from || !l.load_fusable(ld, kNone))
    return kNone;
  return with_memory_operand(l, X64CvtSI2FM, {Lowerer::tlit(from), Lowerer::tlit(to)}, ld, kNone);
}

// sitofp: i8/i16 (and i1) extended to 32 bits first; cvtsi2sd/ss from i32 or i64.
NodeId sitofp(Lowerer& l, NodeId n) {
  VT from = Lowerer::machine(l.lit_type(n, 0)), to = l.lit_type(n, 1);
  NodeId x = l.widened(in0(l, n), true);
  return l.emit(X64CvtSI2F, {Lowerer::tlit(Lowerer::wide(from)), Lowerer::tlit(to)}, {x});
}

// uitofp from at most 16 bits: zero-extended to 32 bits, then signed (it is
// non-negative); from i32: zero-extended to 64 bits, then cvtsi2sd/ss of i64.
NodeId uitofp_small(Lowerer& l, NodeId n) {
  VT from = Lowerer::machine(l.lit_type(n, 0)), to = l.lit_type(n, 1);
  if (bits(from) == 64) return kNone;
  NodeId x = l.widened(in0(l, n), false);
  VT at = VT::I32;
  if (bits(from) == 32) {
    at = VT::I64;
    if (!l.upper32_zero(x)) x = l.extend(false, VT::I32, VT::I64, x);
  }
  return l.emit(X64CvtSI2F, {Lowerer::tlit(at), Lowerer::tlit(to)}, {x});
}

// uitofp from i64 without a branch: y = x if x < 2^63, else (x >> 1) | (x & 1)
// (halved, the lost bit kept as a sticky bit so that rounding is the same),
// c = cvtsi2f y, and c doubled when x >= 2^63: c + (c & mask), mask all ones
// (x sar 63, moved to xmm) or zero. The doubling is exact.
NodeId uitofp64(Lowerer& l, NodeId n) {
  VT to = l.lit_type(n, 1);
  NodeId x = l.value(in0(l, n));
  NodeId half = l.binary(X64Or, VT::I64, l.with_imm(X64ShrI, VT::I64, x, 1), l.with_imm(X64AndI, VT::I64, x, 1));
  NodeId flags = l.binary(X64Test, VT::I64, x, x);
  NodeId y = l.emit(X64CMov, {Literal::string("s"), Lowerer::tlit(VT::I64)}, {flags, x, half});
  NodeId c = l.emit(X64CvtSI2F, {Lowerer::tlit(VT::I64), Lowerer::tlit(to)}, {y});
  NodeId sign = l.with_imm(X64SarI, VT::I64, x, 63);
  VT itype = is_f32(to) ? VT::I32 : VT::I64;
  NodeId mask = l.emit(X64Bitcast, {Lowerer::tlit(itype), Lowerer::tlit(to)}, {sign});
  return l.binary(X64FAdd, to, c, l.binary(X64FAnd, to, c, mask));
}

// fptosi: cvttsd2si/ss to i32 for targets of at most 32 bits (the user
// reads the low bits), to i64 for 64; an i1 target keeps bit 0 (0 or 1).
NodeId fptosi(Lowerer& l, NodeId n) {
  VT from = l.lit_type(n, 0), to = Lowerer::machine(l.lit_type(n, 1));
  VT at = bits(to) == 64 ? VT::I64 : VT::I32;
  NodeId r = l.emit(X64CvtTF2SI, {Lowerer::tlit(from), Lowerer::tlit(at)}, {l.value(in0(l, n))});
  return to == VT::I1 ? l.with_imm(X64AndI, VT::I32, r, 1) : r;
}

// fptoui to at most 32 bits: a signed conversion wide enough to hold every
// valid value (i32 for i8/i16, i64 for i32); the user reads the low bits.
NodeId fptoui_small(Lowerer& l, NodeId n) {
  VT from = l.lit_type(n, 0), to = Lowerer::machine(l.lit_type(n, 1));
  if (bits(to) == 64) return kNone;
  VT at = bits(to) == 32 ? VT::I64 : VT::I32;
  NodeId r = l.emit(X64CvtTF2SI, {Lowerer::tlit(from), Lowerer::tlit(at)}, {l.value(in0(l, n))});
  return to == VT::I1 ? l.with_imm(X64AndI, VT::I32, r, 1) : r;
}

// fptoui to i64 without a branch: a = cvtt x (the integer indefinite 2^63
// when x >= 2^63), b = cvtt (x - 2^63) (exact); a | (b & (a sar 63)).
NodeId fptoui64(Lowerer& l, NodeId n) {
  VT from = l.lit_type(n, 0);
  NodeId x = l.value(in0(l, n));
  LiteralList lits = {Lowerer::tlit(from), Lowerer::tlit(VT::I64)};
  NodeId a = l.emit(X64CvtTF2SI, lits, {x});
  NodeId shifted = l.binary(X64FSub, from, x, fconst_bits(l, from, 0x43E0000000000000ull));  // 2^63
  NodeId b = l.emit(X64CvtTF2SI, lits, {shifted});
  NodeId high = l.binary(X64And, VT::I64, l.with_imm(X64SarI, VT::I64, a, 63), b);
  return l.binary(X64Or, VT::I64, a, high);
}

NodeId fp_resize(Lowerer& l, NodeId n) {
  return l.emit(X64CvtF2F, {Lowerer::tlit(l.lit_type(n, 0)), Lowerer::tlit(l.lit_type(n, 1))}, {l.value(in0(l, n))});
}

NodeId bitcast(Lowerer& l, NodeId n) {
  VT from = Lowerer::machine(l.lit_type(n, 0)), to = Lowerer::machine(l.lit_type(n, 1));
  return l.emit(X64Bitcast, {Lowerer::tlit(from), Lowerer::tlit(to)}, {l.value(in0(l, n))});
}

NodeId if_fcompare(Lowerer& l, NodeId n, NodeId cmp, bool negate) {
  FloatCond fc = float_cond(l.op(cmp));
  if (fc.two) return kNone;
  return jcc(l, n, ucomis(l, cmp, fc.swap), negate ? x64::negate(fc.cc) : fc.cc);
}

// ---- compares with a memory operand (load_fusion.cpp says when) -----------------

// The compare the branch n reads, (if (CMP ..)) or (if (ne/eq (CMP ..) 0))
// (negate for eq), when every node on the way has this one user: the
// compare is then emitted once, so its load is read once.
NodeId branch_compare(Lowerer& l, NodeId n, bool& negate) {
  NodeId v = in0(l, n);
  negate = false;
  if ((l.op(v) == Ne || l.op(v) == Eq) && l.uses(v) == 1) {
    NodeId c = in0(l, v);
    auto zero = l.constant(in1(l, v));
    if (zero && *zero == 0 && (is_compare(l.op(c)) || float_pred(l.op(c)).has_value())) {
      negate = l.op(v) == Eq;
      v = c;
    }
  }
  if (!is_compare(l.op(v)) && !float_pred(l.op(v)).has_value()) return kNone;
  return l.uses(v) == 1 ? v : kNone;
}

// (if (CMP t x (load t _ p))), either order: `cmp x, [p]`, or `cmp [p], c`
// for a constant x that fits 32 bits; the condition swapped when the
// flags are of the operands in the other order.
NodeId if_compare_load(Lowerer& l, NodeId n) {
  bool negate;
  NodeId cmp = branch_compare(l, n, negate);
  if (cmp == kNone || !is_compare(l.op(cmp))) return kNone;
  VT t = Lowerer::machine(l.lit_type(cmp));
  if (t == VT::I1) return kNone;
  const Node& c = l.node(cmp);
  for (int k = 1; k >= 0; --k) {
    NodeId ld = c.inputs[k], x = c.inputs[1 - k];
    if (l.op(ld) != Load || Lowerer::machine(l.lit_type(ld)) != t || !l.load_fusable_at_branch(ld, x, n)) continue;
    std::optional<int64_t> imm = l.constant(x);
    if (imm && bits(t) == 64 && !x64::fits_imm32(*imm)) imm.reset();
    NodeId flags = imm ? with_memory_operand(l, X64CmpMI, {Lowerer::tlit(t), Literal::integer(Lowerer::immediate(t, *imm))},
                                             ld, kNone)
                       : with_memory_operand(l, X64CmpM, {Lowerer::tlit(t)}, ld, l.value(x));
    // cmpi.m: flags of load - x; cmp.m: of x - load. The compare is in0 - in1.
    Cond cc = Lowerer::compare_cond(l.op(cmp));
    if ((k == 0) != bool(imm)) cc = x64::swap_operands(cc);
    return jcc(l, n, flags, negate ? x64::negate(cc) : cc);
  }
  return kNone;
}

// (if (FCMP F x y)) with one condition, whose second ucomis operand (in
// float_cond's order) is a load: `ucomisd x, [p]`.
NodeId if_fcompare_load(Lowerer& l, NodeId n) {
  bool negate;
  NodeId cmp = branch_compare(l, n, negate);
  if (cmp == kNone || !float_pred(l.op(cmp)).has_value()) return kNone;
  FloatCond fc = float_cond(l.op(cmp));
  if (fc.two) return kNone;
  VT t = l.lit_type(cmp);
  const Node& c = l.node(cmp);
  NodeId a = c.inputs[fc.swap ? 1 : 0], ld = c.inputs[fc.swap ? 0 : 1];
  if (l.op(ld) != Load || l.lit_type(ld) != t || !l.load_fusable_at_branch(ld, a, n)) return kNone;
  NodeId flags = with_memory_operand(l, X64UcomisM, {Lowerer::tlit(t)}, ld, l.value(a));
  return jcc(l, n, flags, negate ? x64::negate(fc.cc) : fc.cc);
}

// ---- the table ---------------------------------------------------------------

#define RULE(op, name, pattern, when, result, body) \
  Rule { op, name, pattern, when, result, [](Lowerer& l, NodeId n) -> NodeId body }

const Rule kRules[] = {
    // constants and addresses (kAnyPure: every opcode common/ir/eval.h evaluates, division excepted)
    RULE(kAnyPure, "const-expr", "(OP (const a) (const b))", "every operand is a constant (or such a node)",
         "a constant: as const-32 / const-64 below", { return const_node(l, n); }),
    // i1 values: 0 or 1 in a 32-bit register (upper bits zero); and, or, xor,
    // phis, compares (see Flags), shifts and division by i1 need no rule of their own
    RULE(Const, "const-i1", "(const i1 c)", "", "(x64:movi i32 c&1)",
         { return is_i1(l, n) ? l.movi(VT::I32, l.node(n).literals[1].as_int() & 1) : kNone; }),
    RULE(Add, "add-i1", "(add i1 x y)", "", "(x64:xor i32 x y) (addition modulo 2)",
         { return i1_binary(l, n, X64Xor); }),
    RULE(Sub, "sub-i1", "(sub i1 x y)", "", "(x64:xor i32 x y)", { return i1_binary(l, n, X64Xor); }),
    RULE(Mul, "mul-i1", "(mul i1 x y)", "", "(x64:and i32 x y)", { return i1_binary(l, n, X64And); }),
    RULE(Neg, "neg-i1", "(neg i1 x)", "", "x (-1 is 1 modulo 2)", { return is_i1(l, n) ? l.value(in0(l, n)) : kNone; }),
    RULE(Not, "not-i1", "(not i1 x)", "", "(x64:xori i32 1 x)",
         { return is_i1(l, n) ? l.with_imm(X64XorI, VT::I32, l.value(in0(l, n)), 1) : kNone; }),
    RULE(SExt, "sext-i1", "(sext i1 t x)", "t is not i1", "(x64:neg t' x) (0 or -1)", {
           if (!is_i1(l, n, 0) || is_i1(l, n, 1)) return kNone;
           return l.unary(X64Neg, Lowerer::wide(l.lit_type(n, 1)), l.value(in0(l, n)));
         }),
    RULE(ZExt, "zext-i1", "(zext i1 t x)", "", "x (already 0 or 1 in the whole register)",
         { return is_i1(l, n, 0) ? l.value(in0(l, n)) : kNone; }),
    RULE(Trunc, "trunc-i1", "(trunc f i1 x)", "f is not i1", "(x64:andi i32 1 x)", {
           if (is_i1(l, n, 0) || !is_i1(l, n, 1)) return kNone;
           return l.with_imm(X64AndI, VT::I32, l.value(in0(l, n)), 1);
         }),
    RULE(Load, "load-i1", "(load i1 _ p)", "", "(x64:andi i32 1 (x64:loadzx i8 i32 [p]))",
         { return load_i1(l, n, false); }),
    RULE(LoadV, "load-volatile-i1", "(load.volatile i1 _ p)", "",
         "(x64:loadzx.volatile i8 i32 [p]), its value and 1", { return load_i1(l, n, true); }),
    RULE(Store, "store-i1", "(store i1 _ p x)", "", "(x64:store i8 x [p]) (x is 0 or 1)", {
           if (!is_i1(l, n)) return kNone;
           return store_reg(l, n);
         }),

    RULE(Const, "const-32", "(const t c)", "t is at most 32 bits, or 0 <= c < 2^32",
         "(x64:movi i32 c) (mov r32, imm32 zero-extends)", {
           VT t = l.lit_type(n);
           if (truncate_to(static_cast<uint64_t>(*l.constant(n)), bits(t)) > UINT32_MAX) return kNone;
           return const_node(l, n);
         }),
    RULE(Const, "const-64", "(const 64 c)", "", "(x64:movi i64 c) (movabs)",
         { return l.movi(VT::I64, *l.constant(n)); }),
    RULE(ConstantP, "constant-p", "(constant_p t x)", "",
         "(x64:movi i32 0) (-O0's answer: sonopt answers the others at -O1/-O2; x is not read)",
         { return n == kNone ? kNone : l.movi(VT::I32, 0); }),
    RULE(SymAddr, "symaddr-local", "(symaddr s)",
         "s is defined in the module and, under --pic, is a data item that is internal or not of default visibility",
         "(x64:lea i64 [s]) (RIP-relative)", {
           if (l.needs_got(l.node(n).literals[0].as_string())) return kNone;
           return l.lea(l.address(n));
         }),
    RULE(SymAddr, "symaddr-extern", "(symaddr s)", "s is an extern, or may be preempted (--pic)", "(x64:loadgot s)",
         { return l.emit(X64LoadGot, {l.node(n).literals[0]}, {}); }),
    RULE(TlsAddr, "tlsaddr-local-exec", "(tlsaddr s)",
         "the model is local-exec: s is a data item of the module, not weak, and not preemptible (no --pic), or "
         "tls_model asks for it",
         "(x64:tls.le s)", {
           if (l.tls_model(l.node(n).literals[0].as_string()) != TlsModel::LocalExec) return kNone;
           return l.emit(X64TlsLe, {l.node(n).literals[0]}, {});
         }),
    RULE(TlsAddr, "tlsaddr-initial-exec", "(tlsaddr s)",
         "the model is initial-exec: an extern or weak item without --pic, or tls_model asks for it",
         "(x64:tls.ie s)", {
           if (l.tls_model(l.node(n).literals[0].as_string()) != TlsModel::InitialExec) return kNone;
           return l.emit(X64TlsIe, {l.node(n).literals[0]}, {});
         }),
    RULE(TlsAddr, "tlsaddr-dynamic", "(tlsaddr s)", "",
         "(x64:tls.gd s) (general-dynamic; local-dynamic is lowered the same way)",
         { return l.emit(X64TlsGd, {l.node(n).literals[0]}, {}); }),
    RULE(StackSlot, "stackslot-overaligned", "(stackslot size align)", "align > 16",
         "(x64:andi i64 -align (x64:lea i64 [(x64:stackslot size+align-16 16) + align-16]))",
         { return overaligned_slot(l, n); }),
    RULE(StackSlot, "stackslot", "(stackslot size align)", "", "(x64:stackslot size align)",
         { return l.emit(X64StackSlot, {l.node(n).literals[0], l.node(n).literals[1]}, {}); }),

    // arithmetic
    RULE(Add, "add-lea", "(add 64 x y)",
         "the folded address of x + y has a scaled index, three parts or a symbol", "(x64:lea i64 [x + y])",
         { return add_lea(l, n); }),
    RULE(Add, "add-imm", "(add t x (const c)), (add t (const c) x)", "c fits in 32 bits", "(x64:addi t' c x)",
         { return arith_imm(l, n, X64AddI, true); }),
    RULE(Add, "add-load", "(add t x (load t _ p)), either order",
         "t is 32 or 64 bits; the load has no other user and x is available where it is (load_fusion.cpp)",
         "(x64:add.m t x [p]) (add r, [p])", { return arith_load(l, n, X64AddM, true); }),
    RULE(Add, "add", "(add t x y)", "", "(x64:add t' x y)", { return arith(l, n, X64Add); }),
    RULE(Sub, "sub-neg", "(sub t (const 0) x)", "", "(x64:neg t' x)", { return neg_of_sub(l, n); }),
    RULE(Sub, "sub-imm", "(sub t x (const c))", "c fits in 32 bits", "(x64:subi t' c x)",
         { return arith_imm(l, n, X64SubI, false); }),
    RULE(Sub, "sub-load", "(sub t x (load t _ p))", "as add-load", "(x64:sub.m t x [p])",
         { return arith_load(l, n, X64SubM, false); }),
    RULE(Sub, "sub", "(sub t x y)", "", "(x64:sub t' x y)", { return arith(l, n, X64Sub); }),
    RULE(Mul, "mul-pow2", "(mul t x (const 2^k)), either order", "", "(x64:shli t' k x), or x for k = 0",
         { return mul_pow2(l, n); }),
    RULE(Mul, "mul-lea", "(mul t x (const c)), either order", "c is m * 2^k, m 3, 5 or 9",
         "(x64:lea t' [x + x*(m-1)]), then (x64:shli t' k) for k > 0",
         { return mul_lea(l, n); }),
    RULE(Mul, "mul-imm", "(mul t x (const c)), either order", "c fits in 32 bits",
         "(x64:imuli t' c x) (three-operand imul)", { return arith_imm(l, n, X64ImulI, true); }),
    RULE(Mul, "mul-load", "(mul t x (load t _ p)), either order", "as add-load", "(x64:imul.m t x [p])",
         { return arith_load(l, n, X64ImulM, true); }),
    RULE(Mul, "mul", "(mul t x y)", "", "(x64:imul t' x y)", { return arith(l, n, X64Imul); }),
    RULE(And, "and-imm", "(and t x (const c)), either order", "c fits in 32 bits", "(x64:andi t' c x)",
         { return arith_imm(l, n, X64AndI, true); }),
    RULE(And, "and-load", "(and t x (load t _ p)), either order", "as add-load", "(x64:and.m t x [p])",
         { return arith_load(l, n, X64AndM, true); }),
    RULE(And, "and", "(and t x y)", "", "(x64:and t' x y)", { return arith(l, n, X64And); }),
    RULE(Or, "or-imm", "(or t x (const c)), either order", "c fits in 32 bits", "(x64:ori t' c x)",
         { return arith_imm(l, n, X64OrI, true); }),
    RULE(Or, "or-load", "(or t x (load t _ p)), either order", "as add-load", "(x64:or.m t x [p])",
         { return arith_load(l, n, X64OrM, true); }),
    RULE(Or, "or", "(or t x y)", "", "(x64:or t' x y)", { return arith(l, n, X64Or); }),
    RULE(Xor, "xor-not", "(xor t x (const -1)), either order", "", "(x64:not t' x)", { return xor_not(l, n); }),
    RULE(Xor, "xor-imm", "(xor t x (const c)), either order", "c fits in 32 bits", "(x64:xori t' c x)",
         { return arith_imm(l, n, X64XorI, true); }),
    RULE(Xor, "xor-load", "(xor t x (load t _ p)), either order", "as add-load", "(x64:xor.m t x [p])",
         { return arith_load(l, n, X64XorM, true); }),
    RULE(Xor, "xor", "(xor t x y)", "", "(x64:xor t' x y)", { return arith(l, n, X64Xor); }),
    RULE(Neg, "neg", "(neg t x)", "", "(x64:neg t' x)",
         { return l.unary(X64Neg, Lowerer::wide(l.lit_type(n)), l.value(in0(l, n))); }),
    RULE(Not, "not", "(not t x)", "", "(x64:not t' x)",
         { return l.unary(X64Not, Lowerer::wide(l.lit_type(n)), l.value(in0(l, n))); }),

    // shifts (lshr and ashr of i8/i16 extend x to 32 bits first: zero / sign)
    RULE(Shl, "shl-imm", "(shl t x (const k))", "", "(x64:shli t' k x)", { return shift_imm(l, n); }),
    RULE(Shl, "shl", "(shl t x y)", "", "(x64:shl t' x y) (y in cl)", { return shift_reg(l, n); }),
    RULE(LShr, "lshr-imm", "(lshr t x (const k))", "", "(x64:shri t' k (movzx x))", { return shift_imm(l, n); }),
    RULE(LShr, "lshr", "(lshr t x y)", "", "(x64:shr t' (movzx x) y)", { return shift_reg(l, n); }),
    RULE(AShr, "ashr-imm", "(ashr t x (const k))", "", "(x64:sari t' k (movsx x))", { return shift_imm(l, n); }),
    RULE(AShr, "ashr", "(ashr t x y)", "", "(x64:sar t' (movsx x) y)", { return shift_reg(l, n); }),

    // division (i8/i16 operands are extended to 32 bits first: sign or zero)
    RULE(UDiv, "udiv-const", "(udiv t x (const d))", "d != 0",
         "x for d = 1; (x64:shri k x) for d = 2^k; (setcc ae (cmp x d)) for d > 2^(N-1); else the high half of "
         "(x64:mul1 x m), shifted (Granlund-Montgomery; common/ir/divmagic.h); at 32 bits the high half is "
         "(x64:shri i64 32 (x64:imul i64 (movzx x) m)): no rax/rdx",
         { return div_const(l, n); }),
    RULE(UDiv, "udiv", "(udiv t x y)", "",
         "(proj 0 (x64:div t' x (x64:movi 0) y)), one x64:div per operands and block (shared with urem)",
         { return div_general(l, n); }),
    RULE(URem, "urem-pow2", "(urem t x (const 2^k))", "", "(x64:andi t' 2^k-1 x)", { return urem_pow2(l, n); }),
    RULE(URem, "urem-const", "(urem t x (const d))", "d != 0", "(x64:sub x (x64:imuli d q)), q as udiv-const (one q per x and d)",
         { return div_const(l, n); }),
    RULE(URem, "urem", "(urem t x y)", "", "(proj 1 (x64:div t' x (x64:movi 0) y)), shared with udiv",
         { return div_general(l, n); }),
    RULE(SDiv, "sdiv-const", "(sdiv t x (const d))", "d != 0",
         "x for d = 1; (neg x) for d = -1; sar of x plus the rounding bias for d = +-2^k; else the high half of "
         "(x64:imul1 x m), shifted, minus the sign of x; negated for d < 0 (Granlund-Montgomery); at 32 bits the "
         "high half is (x64:sari i64 32 (x64:imuli i64 m (movsx x)))",
         { return div_const(l, n); }),
    RULE(SDiv, "sdiv", "(sdiv t x y)", "",
         "(proj 0 (x64:idiv t' x (x64:cdq x) y)), one x64:idiv per operands and block (shared with srem)",
         { return div_general(l, n); }),
    RULE(SRem, "srem-const", "(srem t x (const d))", "d != 0",
         "for d = +-2^k: (x64:sub (x64:andi 2^k-1 (x64:add x b)) b), b the rounding bias as sdiv-const's; else "
         "(x64:sub x (x64:imuli d q)), q as sdiv-const (one q per x and d)",
         { return div_const(l, n); }),
    RULE(SRem, "srem", "(srem t x y)", "", "(proj 1 (x64:idiv t' x (x64:cdq x) y)), shared with sdiv",
         { return div_general(l, n); }),

    // compares used as values (the flags producer: see "flags" below)
    RULE(Eq, "cmp-value", "(eq t x y)", "", "(x64:movzx i8 i32 (x64:setcc e FLAGS))", { return setcc_value(l, n); }),
    RULE(Ne, "cmp-value-ne", "(ne t x y)", "", "(x64:movzx i8 i32 (x64:setcc ne FLAGS))", { return setcc_value(l, n); }),
    RULE(SLt, "cmp-value-slt", "(slt t x y)", "", "(x64:movzx i8 i32 (x64:setcc l FLAGS))", { return setcc_value(l, n); }),
    RULE(SLe, "cmp-value-sle", "(sle t x y)", "", "(x64:movzx i8 i32 (x64:setcc le FLAGS))", { return setcc_value(l, n); }),
    RULE(ULt, "cmp-value-ult", "(ult t x y)", "", "(x64:movzx i8 i32 (x64:setcc b FLAGS))", { return setcc_value(l, n); }),
    RULE(ULe, "cmp-value-ule", "(ule t x y)", "", "(x64:movzx i8 i32 (x64:setcc be FLAGS))", { return setcc_value(l, n); }),

    // branches: the compare is fused into the jump; each jump gets its own flags producer
    RULE(If, "if-compare-load",
         "(if (CMP t x (load t _ p))), either order; also under (ne/eq (CMP ..) (const 0)) as if-compare-zero",
         "t is not i1; the compare (and the ne/eq) has no other user; the load has no other user, is in the if's "
         "block, where nothing overwrites the memory it read, and x is available where it is (load_fusion.cpp)",
         "(x64:jcc cc (x64:cmp.m t x [p])) (cmp x, [p]); a constant x that fits 32 bits: (x64:jcc cc' "
         "(x64:cmpi.m t x [p])) (cmp [p], x); cc as in if-compare, swapped when the load is the other operand",
         { return if_compare_load(l, n); }),
    RULE(If, "if-fcompare-load", "(if (FCMP F x (load F _ p))), also under (ne/eq (FCMP ..) (const 0))",
         "one condition (not foeq, fune); the load is ucomis's second operand in the order of the -value rule "
         "(folt, fole, fugt, fuge: x); the rest as if-compare-load",
         "(x64:jcc cc (x64:ucomis.m F x [p])) (ucomisd x, [p])", { return if_fcompare_load(l, n); }),
    RULE(If, "if-compare-zero", "(if (ne (CMP t x y) (const 0))), (if (eq (CMP ..) (const 0)))", "",
         "(x64:jcc cc FLAGS), the condition negated for eq", { return if_compare_zero(l, n); }),
    RULE(If, "if-compare", "(if (CMP t x y))", "",
         "(x64:jcc cc FLAGS); a float compare but foeq and fune: (x64:jcc cc (x64:ucomis F x y)), cc and the operand "
         "order as in its -value rule (foeq and fune branch on their value: if-value)",
         { return if_compare(l, n); }),
    RULE(If, "if-and-imm", "(if (and t x (const c)))", "c fits in 32 bits", "(x64:jcc ne (x64:testi t c x))",
         { return if_and_imm(l, n); }),
    RULE(If, "if-value", "(if x)", "", "(x64:jcc ne (x64:test t x x)); through a sext/zext x: at the narrow width",
         { return if_value(l, n); }),
    RULE(Select, "select", "(select t c a b)", "",
         "(x64:cmov cc FLAGS b a), FLAGS and cc as an if on c reads them (a compare's, else test c, c)",
         { return select_cmov(l, n); }),

    // conversions
    RULE(SExt, "ext-same", "(sext t t x)", "", "x", { return ext_same_width(l, n); }),
    RULE(SExt, "sext-load", "(sext f t (load f _ p))", "the load has no other user",
         "(x64:loadsx f t' [p]) (movsx from memory)", { return ext_load(l, n); }),
    RULE(SExt, "sext", "(sext f t x)", "", "(x64:movsx f t' x)", { return ext(l, n); }),
    RULE(ZExt, "zext-same", "(zext t t x)", "", "x", { return ext_same_width(l, n); }),
    RULE(ZExt, "zext-load", "(zext f t (load f _ p))", "the load has no other user",
         "(x64:loadzx f t' [p]); (x64:load i32 [p]) for f = i32", { return ext_load(l, n); }),
    RULE(ZExt, "zext-free", "(zext i32 64 x)", "x's instruction wrote a 32-bit register (upper half zero)", "x",
         { return zext_free(l, n); }),
    RULE(ZExt, "zext", "(zext f t x)", "", "(x64:movzx f t' x)", { return ext(l, n); }),
    RULE(Trunc, "trunc", "(trunc f t x)", "", "x (the user reads the low bits)", { return l.value(in0(l, n)); }),

    // memory
    RULE(Load, "load", "(load t _ p)", "",
         "(x64:load t [p]) for i32, 64 bits, f32 and f64 (movss/movsd), (x64:loadzx t i32 [p]) for i8 and i16",
         { return load_any(l, n, false); }),
    RULE(LoadV, "load-volatile", "(load.volatile t _ p)", "", "(x64:load.volatile t [p]) or loadzx.volatile",
         { return load_any(l, n, true); }),
    RULE(Store, "store-imm", "(store t _ p (const c))", "c fits in 32 bits", "(x64:storei t c [p])",
         { return store_imm(l, n); }),
    RULE(Store, "store", "(store t _ p x)", "", "(x64:store t x [p])", { return store_reg(l, n); }),
    RULE(StoreV, "store-volatile-imm", "(store.volatile t _ p (const c))", "c fits in 32 bits",
         "(x64:storei t c [p]) (an x64 store is never removed or merged)", { return store_imm(l, n); }),
    RULE(StoreV, "store-volatile", "(store.volatile t _ p x)", "", "(x64:store t x [p])", { return store_reg(l, n); }),
    RULE(Copy, "copy", "(copy size align _ dst src)", "",
         "size <= 64: loads of 8, 4, 2, 1 bytes, then the stores; larger: (x64:repmovsb dst src (x64:movi size))",
         { return copy_mem(l, n); }),

    // the dynamic stack (functions with one keep rbp as the frame pointer: regalloc-x64, codegen-x64)
    RULE(Alloca, "alloca-const", "(alloca _ (const c))", "0 <= c <= 2^31",
         "(x64:alloca _ (x64:movi i32 c')), c' = c rounded up to a multiple of 16",
         { return dynamic_alloca(l, n, true); }),
    RULE(Alloca, "alloca", "(alloca _ x)", "",
         "(x64:alloca _ (x64:andi i64 -16 (x64:addi i64 15 x))): sub rsp, size; the address is rsp + the "
         "outgoing argument area",
         { return dynamic_alloca(l, n, false); }),
    RULE(StackSave, "stacksave", "(stacksave _)", "", "(x64:stacksave _) (mov r, rsp)",
         { return stack_save(l, n); }),
    RULE(StackRestore, "stackrestore", "(stackrestore _ x)", "", "(x64:stackrestore _ x) (mov rsp, x)",
         { return stack_restore(l, n); }),
    // atomics (gcc's sequences; FORMAT.md 8, "Atomics")
    RULE(AtomicLoad, "atomic-load", "(atomic.load t _ p)", "",
         "(x64:load.volatile t [p]) or loadzx.volatile: x86 loads are acquire loads", { return load_any(l, n, true); }),
    RULE(AtomicStore, "atomic-store-seq-cst", "(atomic.store t seq_cst _ p x)", "",
         "(x64:atomic.xchg t _ p x): xchg x, (p), as gcc", { return atomic_store_seq_cst(l, n); }),
    RULE(AtomicStore, "atomic-store", "(atomic.store t order _ p x)", "",
         "(x64:store t x [p]) (relaxed, release: x86 stores are release stores)", { return store_reg(l, n); }),
    RULE(AtomicRmw, "atomic-rmw-no-result", "(atomic.rmw t op _ p x)",
         "op is add, sub, and, or or xor and proj 1 has no user", "(x64:atomic.op t op _ p x): lock OP x, (p)",
         { return atomic_rmw_no_result(l, n); }),
    RULE(AtomicRmw, "atomic-rmw-xchg", "(atomic.rmw t xchg _ p x)", "", "(x64:atomic.xchg t _ p x): xchg x, (p)",
         { return atomic_rmw_xchg(l, n); }),
    RULE(AtomicRmw, "atomic-rmw-xadd", "(atomic.rmw t add|sub _ p x)", "",
         "(x64:atomic.xadd t _ p x), sub: of (x64:neg t' x): lock xadd x, (p)", { return atomic_rmw_xadd(l, n); }),
    RULE(AtomicRmw, "atomic-rmw-loop", "(atomic.rmw t op _ p x)", "",
         "(x64:atomic.loop t op _ p x) (and, or, xor, nand): gcc's cmpxchg loop", { return atomic_rmw_loop(l, n); }),
    RULE(AtomicCmpXchg, "atomic-cmpxchg", "(atomic.cmpxchg t _ p e x)", "",
         "(x64:atomic.cmpxchg t _ p e x): lock cmpxchg x, (p) with e in rax", { return atomic_cmpxchg(l, n); }),
    RULE(Fence, "fence-seq-cst", "(fence seq_cst _)", "", "(x64:fence _): lock orq $0, (rsp), as gcc",
         { return fence_seq_cst(l, n); }),
    RULE(Fence, "fence", "(fence order _)", "",
         "_ (acq_rel, signal: no instruction: x86 keeps these orders; the x64 stages move no memory access across another)",
         { return l.value(l.node(n).inputs[0]); }),
    RULE(FrameAddress, "frameaddress", "(frameaddress)", "", "(x64:frameaddress) (mov r, rbp)",
         { return l.emit(X64FrameAddress, {}, {}, l.control(n)); }),
    RULE(ReturnAddress, "returnaddress", "(returnaddress)", "", "(x64:returnaddress) (mov r, [rbp + 8])",
         { return l.emit(X64ReturnAddress, {}, {}, l.control(n)); }),

    // floating point (SSE2 scalar: the ss form for f32, sd for f64; values in xmm registers)
    RULE(FConst, "fconst-zero", "(fconst F +0.0)", "the constant is +0.0 (not -0.0)", "(x64:fzero F) (xorps x, x)",
         { return fconst_zero(l, n); }),
    RULE(FConst, "fconst", "(fconst F c)", "",
         "(x64:fconst F c): movsd/movss from .rodata.cst8/.cst4 (merged by value), RIP-relative",
         { return fconst_bits(l, l.lit_type(n), l.node(n).literals[1].bits()); }),
    RULE(FAdd, "fadd-load", "(fadd F x (load F _ p)), either order",
         "the load has no other user and x is available where it is (load_fusion.cpp)",
         "(x64:fadd.m F x [p]) (addsd/addss x, [p])", { return farith_load(l, n, X64FAddM, true); }),
    RULE(FAdd, "fadd", "(fadd F x y)", "", "(x64:fadd F x y) (addsd/addss, two-address)", { return farith(l, n, X64FAdd); }),
    RULE(FSub, "fsub-load", "(fsub F x (load F _ p))", "as fadd-load", "(x64:fsub.m F x [p])",
         { return farith_load(l, n, X64FSubM, false); }),
    RULE(FSub, "fsub", "(fsub F x y)", "", "(x64:fsub F x y) (subsd/subss)", { return farith(l, n, X64FSub); }),
    RULE(FMul, "fmul-load", "(fmul F x (load F _ p)), either order", "as fadd-load", "(x64:fmul.m F x [p])",
         { return farith_load(l, n, X64FMulM, true); }),
    RULE(FMul, "fmul", "(fmul F x y)", "", "(x64:fmul F x y) (mulsd/mulss)", { return farith(l, n, X64FMul); }),
    RULE(FDiv, "fdiv-load", "(fdiv F x (load F _ p))", "as fadd-load", "(x64:fdiv.m F x [p])",
         { return farith_load(l, n, X64FDivM, false); }),
    RULE(FDiv, "fdiv", "(fdiv F x y)", "", "(x64:fdiv F x y) (divsd/divss)", { return farith(l, n, X64FDiv); }),
    RULE(FSqrt, "fsqrt-load", "(fsqrt F (load F _ p))", "the load has no other user", "(x64:fsqrt.m F [p]) (sqrtsd [p])",
         { return farith_load(l, n, X64FSqrtM, false); }),
    RULE(FSqrt, "fsqrt", "(fsqrt F x)", "", "(x64:fsqrt F x) (sqrtsd/sqrtss)", { return farith(l, n, X64FSqrt); }),
    RULE(FNeg, "fneg", "(fneg F x)", "", "(x64:fxor F x (x64:fconst F -0.0)) (xorps with the sign bit)",
         { return fsign_mask(l, n); }),
    RULE(FAbs, "fabs", "(fabs F x)", "",
         "(x64:fand F x (x64:fconst F 0x7FF..F)) (andps with every bit but the sign)", { return fsign_mask(l, n); }),
    RULE(FOEq, "foeq-value", "(foeq F x y)", "", "(x64:and i32 (setcc e (x64:ucomis F x y)) (setcc np (x64:ucomis F x y))) (equal, not unordered), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FUNe, "fune-value", "(fune F x y)", "", "(x64:or i32 (setcc ne (x64:ucomis F x y)) (setcc p (x64:ucomis F x y))), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FONe, "fone-value", "(fone F x y)", "", "(setcc ne (x64:ucomis F x y)) (unordered sets ZF), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FUEq, "fueq-value", "(fueq F x y)", "", "(setcc e (x64:ucomis F x y)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FOGt, "fogt-value", "(fogt F x y)", "", "(setcc a (x64:ucomis F x y)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FOGe, "foge-value", "(foge F x y)", "", "(setcc ae (x64:ucomis F x y)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FOLt, "folt-value", "(folt F x y)", "", "(setcc a (x64:ucomis F y x)) (operands swapped), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FOLe, "fole-value", "(fole F x y)", "", "(setcc ae (x64:ucomis F y x)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FULt, "fult-value", "(fult F x y)", "", "(setcc b (x64:ucomis F x y)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FULe, "fule-value", "(fule F x y)", "", "(setcc be (x64:ucomis F x y)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FUGt, "fugt-value", "(fugt F x y)", "", "(setcc b (x64:ucomis F y x)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FUGe, "fuge-value", "(fuge F x y)", "", "(setcc be (x64:ucomis F y x)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FOrd, "ford-value", "(ford F x y)", "", "(setcc np (x64:ucomis F x y)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(FUno, "funo-value", "(funo F x y)", "", "(setcc p (x64:ucomis F x y)), each setcc zero-extended (x64:movzx i8 i32)",
         { return fcmp_value(l, n); }),
    RULE(SIToFP, "sitofp-load", "(sitofp I F (load I _ p))", "I is 32 or 64 bits; the load has no other user",
         "(x64:cvtsi2f.m I F [p]) (cvtsi2sd/ss from memory)", { return sitofp_load(l, n); }),
    RULE(SIToFP, "sitofp", "(sitofp I F x)", "", "(x64:cvtsi2f I' F x) (cvtsi2sd/ss; i8/i16 sign-extended to i32 first)",
         { return sitofp(l, n); }),
    RULE(UIToFP, "uitofp-small", "(uitofp I F x)", "I has at most 32 bits",
         "(x64:cvtsi2f i32 F (movzx x)) for i8/i16, (x64:cvtsi2f i64 F (movzx i32 i64 x)) for i32", { return uitofp_small(l, n); }),
    RULE(UIToFP, "uitofp-64", "(uitofp 64 F x)", "",
         "c = (x64:cvtsi2f i64 F (x64:cmov s (test x x) x (x>>1 | x&1))); (x64:fadd F c (x64:fand F c (x64:bitcast (x64:sari 63 x)))): "
         "halved with a sticky bit and doubled when x >= 2^63, no branch", { return uitofp64(l, n); }),
    RULE(FPToSI, "fptosi", "(fptosi F I x)", "", "(x64:cvttf2si F i32 x) for I of at most 32 bits, (x64:cvttf2si F i64 x) for 64 (cvttsd2si)",
         { return fptosi(l, n); }),
    RULE(FPToUI, "fptoui-small", "(fptoui F I x)", "I has at most 32 bits",
         "(x64:cvttf2si F i32 x) for i8/i16, (x64:cvttf2si F i64 x) for i32 (the low bits)", { return fptoui_small(l, n); }),
    RULE(FPToUI, "fptoui-64", "(fptoui F 64 x)", "",
         "a = (x64:cvttf2si F i64 x), b = (x64:cvttf2si F i64 (x64:fsub F x 2^63)); (x64:or a (x64:and b (x64:sari 63 a))): "
         "no branch", { return fptoui64(l, n); }),
    RULE(FPExt, "fpext", "(fpext f32 f64 x)", "", "(x64:cvtf2f f32 f64 x) (cvtss2sd)", { return fp_resize(l, n); }),
    RULE(FPTrunc, "fptrunc", "(fptrunc f64 f32 x)", "", "(x64:cvtf2f f64 f32 x) (cvtsd2ss)", { return fp_resize(l, n); }),
    RULE(Bitcast, "bitcast", "(bitcast t u x)", "", "(x64:bitcast t u x) (movd/movq between the register classes)",
         { return bitcast(l, n); }),

    // long double: f80 in memory, one x87 sequence per operation (codegen-x64)
    RULE(F80Arith, "f80-arith", "(f80.arith op _ d x y)", "",
         "(x64:f80.arith op _ d x y): fldt [x]; fldt [y]; faddp|fsubrp|fmulp|fdivrp; fstpt [d]",
         { return f80_mem_op(l, n, X64F80Arith); }),
    RULE(F80Unary, "f80-unary", "(f80.unary op _ d x)", "",
         "(x64:f80.unary op _ d x): fldt [x]; fchs|fabs|fsqrt (nothing for copy); fstpt [d]",
         { return f80_mem_op(l, n, X64F80Unary); }),
    // 16-byte vectors in memory: one SSE/SSE2 instruction per operation
    RULE(V128Op, "v128-op", "(v128.op op imm _ d x y)", "",
         "(x64:v128.op op imm _ d x y): movdqu [x], xmm0; movdqu [y], xmm1; op [$imm,] xmm1, xmm0 (unary: xmm0, "
         "xmm0); movdqu xmm0, [d] (xmm0 and xmm1 destroyed)",
         { return v128_mem_op(l, n); }),
    // 16-byte vector values: in xmm registers, one SSE/SSE2 instruction each
    RULE(V128Load, "v128-load", "(v128.load _ p)", "", "(x64:v128.load _ [p]) (movups)", { return vec_load(l, n); }),
    RULE(V128Store, "v128-store", "(v128.store _ p x)", "", "(x64:v128.store _ [p] x) (movups)",
         { return vec_store(l, n); }),
    RULE(V128Apply, "v128-apply", "(v128.apply op imm x y)", "",
         "(x64:v128.apply op imm x y): op [$imm,] y, x (two-address; a unary op reads x only)",
         { return vec_apply(l, n); }),
    RULE(V128Splat, "v128-splat", "(v128.splat t x)", "",
         "(x64:v128.splat t x): movd/movq x into lane 0 then pshufd $0 (4-byte lanes) or $0x44 (8-byte); f32/f64: "
         "pshufd from x's register",
         { return vec_splat(l, n); }),
    RULE(V128Extract, "v128-extract", "(v128.extract t lane x)", "",
         "(x64:v128.extract t x) for lane 0, else (x64:v128.extract t (x64:v128.apply pshufd sel x x)), sel = lane "
         "(4-byte lanes) or 0x0e; movd/movq to a general register (integer t), the register itself (f32/f64)",
         { return vec_extract(l, n); }),
    RULE(F80Cmp, "f80-cmp", "(f80.cmp pred _ x y)", "",
         "(x64:f80.cmp cc _ x y): fldt [y]; fldt [x]; fucomip; fstp st(0); setcc; movzx, cc and the operand order "
         "as in pred's -value rule; foeq: (x64:and i32 (x64:f80.cmp e ..) (x64:f80.cmp np ..)), fune: "
         "(x64:or i32 (.. ne ..) (.. p ..))",
         { return f80_cmp(l, n); }),
    RULE(F80From, "f80-from", "(f80.from t _ d x)", "",
         "(x64:f80.from t _ d x): x stored to [d] (mov, or movss/movsd), then fild{s,l,ll} or flds/fldl [d]; "
         "fstpt [d]",
         { return f80_mem_op(l, n, X64F80From); }),
    RULE(F80To, "f80-to", "(f80.to t _ x)", "",
         "(x64:f80.to t _ x (x64:stackslot 16 16)): integers: fnstcw, the rounding control set to truncate, "
         "fldt [x], fldcw, fistp{s,l,ll}, fldcw back, then the integer loaded; f32/f64: fldt; fstps/fstpl; "
         "movss/movsd",
         { return f80_to(l, n); }),

    // calls and the function's boundary (System V; abi.cpp)
    RULE(Call, "call", "(call r abi? _ f args...)", "",
         "(x64:call f ...) for (symaddr f), else (x64:callind ...): integer arguments in rdi rsi rdx rcx r8 r9, "
         "f32/f64 arguments in xmm0-xmm7 (the call's last literal counts them), the rest stored to x64:outarg; "
         "byval aggregates classified in registers (common/ir/abi.h) in one register per INTEGER and per SSE "
         "eightbyte if enough of both are left, else copied to the outgoing area (aggregates passed through ... "
         "too, by the types after ... in abi); an sret result in registers stored from rax, rdx (INTEGER "
         "eightbytes) and xmm0, xmm1 (SSE ones) after the call; i8/i16 "
         "signext/zeroext arguments extended to 32 bits; a float result is proj 3 (xmm0); al = the number of xmm "
         "arguments for a variadic callee (or whenever there are some)",
         { return l.lower_call(n); }),
    RULE(Asm, "asm", "(asm flags template clobbers operands... _ values...)", "",
         "(x64:asm flags template clobbers operands...) with a register chosen for every register operand and "
         "written into its literal (fixed ones their own; r: rax rcx rdx rsi rdi r8-r11 rbx r12-r15, the first "
         "that no other operand has and no clobber names; Q: rax rcx rdx rbx; x: xmm0-xmm15; m: the address's; "
         "a matched input its output's); projs: memory, then the register outputs (inline_asm.cpp)",
         { return l.lower_asm(n); }),
    RULE(VaStart, "va-start", "(va_start _ ap)", "",
         "(x64:store i32 gp_offset [ap]) (x64:store i32 fp_offset [ap+4]) (x64:store i64 (x64:argslot off) [ap+8]) "
         "(x64:store i64 save_area [ap+16]); the prologue stored the unnamed argument registers (xmm0-xmm7 too) "
         "to save_area, a 176-byte x64:stackslot (varargs.cpp)",
         { return l.lower_va_start(n); }),
    RULE(VaArg, "va-arg", "(va_arg t _ ap)", "",
         "gp = [ap], a = gp < 48 ? [ap+16] + gp : [ap+8] (x64:cmov b), (x64:load t [a]); then [ap] = gp < 48 ? gp + 8 "
         ": gp and [ap+8] += gp < 48 ? 0 : 8, by cmov; f32/f64 the same through fp_offset [ap+4], below 176, "
         "16 bytes a register; an aggregate (va_arg ptr byval(...) _ ap): its eightbytes copied to an "
         "x64:stackslot from the register save area when gp_offset and fp_offset both leave room, else from the "
         "overflow area (each source address by cmov), or a MEMORY one's address in the overflow area (varargs.cpp)",
         { return l.lower_va_arg(n); }),
    RULE(Param, "param", "(param t i)", "",
         "(x64:argreg t reg) for the first six integer and the first eight f32/f64 parameters (xmm0-xmm7), else "
         "(x64:load t [x64:argslot off]); a "
         "byval aggregate in registers is stored into an x64:stackslot, on the stack it is (x64:argslot off); "
         "a small sret result is built in an x64:stackslot",
         { return l.lower_param(n); }),
    RULE(Return, "return", "(return _ x?)", "",
         "(x64:ret _ x); a float result (x64:ret 1 _ x) in xmm0; an sret result in registers loaded into rax, rdx "
         "and xmm0, xmm1 by its eightbytes' classes (x64:ret MASK _ a b); a MEMORY one returns the hidden pointer "
         "in rax",
         { return l.lower_return(n); }),
};

#undef RULE

}  // namespace

std::span<const Rule> rules() { return kRules; }

NodeId select(Lowerer& l, NodeId old) {
  OpId op = l.op(old);
  bool evaluable = eval_class(op) != EvalClass::None && eval_class(op) != EvalClass::Divide && op != Const;
  for (const Rule& r : kRules) {
    if (r.op != op && !(r.op == kAnyPure && evaluable)) continue;
    NodeId made = r.apply(l, old);
    if (made != kNone) return made;
  }
  throw FormatError(Where::in(l.input().name, node_name(old)),
                    "son-lower-x64 has no rule for '" + std::string(op < kNumOps ? op_info(op).name : "?") + "'");
}

std::string rules_document() {
  std::string s;
  s += "# What each generic opcode becomes (son-lower-x64)\n\n";
  s += "Generated by `son-lower-x64 --rules` from the rule table "
       "(`stages/son-lower-x64/rules.cpp`, which explains the notation);\n"
       "a test keeps this file equal to it. For each opcode the rules are tried in\n"
       "order and the first whose condition holds is applied. `t'` is the operand\n"
       "size: t, except that i1, i8 and i16 are computed at i32 and ptr is i64. Each rule\n"
       "has a golden test: `tests/stages/son-lower-x64/NAME.in.txt`.\n\n";
  s += "The control skeleton (`start`, `region`, `jump`, `proj`), `phi`, `undefined`\n"
       "and `entrymem` stay as they are. FLAGS is a flags producer built for one\n"
       "user (see \"Flags\" below).\n\n";
  s += "| opcode | rule | pattern | when | becomes |\n| --- | --- | --- | --- | --- |\n";
  for (const Rule& r : kRules) {
    std::string op = r.op == kAnyPure ? "any pure" : "`" + std::string(op_info(r.op).name) + "`";
    s += "| " + op + " | " + std::string(r.name) + " | `" + std::string(r.pattern) +
         "` | " + std::string(r.when.empty() ? "always" : r.when) + " | " + std::string(r.result) + " |\n";
  }
  s += "\n## Flags\n\n"
       "A compare (`eq ne slt sle ult ule`: conditions e ne l le b be) becomes a flags\n"
       "producer, a new one for each user (a branch or a setcc), so that every flags\n"
       "value has one user:\n\n"
       "| pattern | when | becomes |\n| --- | --- | --- |\n"
       "| `(CMP t x (const 0))` | always | `(x64:test t x x)` (valid for every condition) |\n"
       "| `(CMP t x (const c))` | c fits in 32 bits | `(x64:cmpi t c x)` |\n"
       "| `(CMP t (const c) y)` | c fits in 32 bits | `(x64:cmpi t c y)`, the condition's operands swapped |\n"
       "| `(CMP i1 x y)` | always | `(x64:cmp i32 x y)`; slt and sle (where 1 is -1) as a and ae |\n"
       "| `(CMP t x y)` | always | `(x64:cmp t x y)` |\n\n"
       "Compares run at their operand's own width (i8 and i16 included), with ptr as i64.\n\n"
       "## i1 values\n\n"
       "An i1 is 0 or 1 in the whole 64-bit register: every node that makes one writes\n"
       "a 32-bit register (setcc + movzx, xor/and/or i32, andi 1, movi), so `zext` from\n"
       "i1 is free and `if` on an i1 is `test` + `jne`; `and`, `or`, `xor` and phis keep\n"
       "0/1 as they are. Shifts and divisions of i1 (defined only for an amount of 0\n"
       "and a divisor of 1) run at i32 on the 0/1 values, without extension. In memory\n"
       "an i1 is a byte. At a call boundary an i1 parameter or a call's i1 result is\n"
       "read from bit 0 (`andi i32 1`), as gcc passes `_Bool`.\n\n"
       "## Addresses\n\n"
       "The address input of a load or a store, and an `add` that becomes `lea`, is folded:\n"
       "constants added at 64 bits become the displacement while it fits in 32 bits; a\n"
       "module-local `symaddr` plus a constant becomes `[symbol + disp]` (RIP-relative);\n"
       "`(add 64 x y)` becomes base x and index y, where an index `(shl 64 y (const k))`\n"
       "(k <= 3) or `(mul 64 y (const 1|2|4|8))` becomes the scale. A shift is folded\n"
       "only when it is done at 64 bits (CVE-2023-26489: a 32-bit shift folded into a\n"
       "64-bit address computes a different address). Anything else is the base.\n";
  return s;
}

}  // namespace pl::lower
