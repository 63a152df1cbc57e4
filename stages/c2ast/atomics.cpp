// atomics.cpp - C11 _Atomic objects, <stdatomic.h> (clang's: the
// __c11_atomic_* builtins) and GNU's __atomic_* and __sync_* builtins
// (issue 19, "Atomics and threads").
//
// Every operation becomes one of five ast nodes (FORMAT.md section 7,
// "Atomics"): ast:atomic.load, ast:atomic.store (with its order: "relaxed",
// "release" or "seq_cst"), ast:atomic.rmw (xchg add sub and or xor nand,
// yielding the old value), ast:atomic.cmpxchg (yielding the old value) and
// ast:fence ("seq_cst", "acq_rel", "signal"). The operands are integers or
// pointers of 1, 2, 4 or 8 bytes; the generic GNU forms (__atomic_load,
// __atomic_store, __atomic_exchange, __atomic_compare_exchange) move any
// object of those sizes through an integer of its size. Everything else
// (16-byte objects, _Atomic float, double and struct, __atomic_fetch_min/max)
// stops with "unsupported" by name.
//
// The forms built from those nodes:
//   OP_fetch / __sync_OP_and_fetch   old OP v (nand: ~(old & v)), v held;
//   compare_exchange(p, e, d)        old = cmpxchg(p, *e, d); ok = old == *e;
//                                    if (!ok) *e = old; the value is ok;
//   __sync_bool_compare_and_swap     cmpxchg(p, o, n) == o;
//   test_and_set / clear             an xchg of the byte with 1 / a store of 0;
//   thread_fence                     relaxed: nothing; seq_cst: "seq_cst";
//                                    the others "acq_rel"; signal_fence:
//                                    "signal" (no instruction on x86);
//   is_lock_free / always_lock_free  the constant clang's evaluator gives
//                                    (true for 1, 2, 4, 8 bytes).
// _Atomic T objects: reading one is a seq_cst atomic.load, `=` a seq_cst
// atomic.store, `+= -= &= |= ^=` with the object's own type as the
// computation type an atomic.rmw (the result: old OP v), `++`/`--` an
// atomic.rmw add/sub of 1 (of the element size for a pointer), and every
// other compound assignment (`*=`, `/=`, `<<=`, mixed types, _Bool) gcc's
// compare-and-swap loop: old = load; do new = old OP v; while the cmpxchg
// of old to new fails (taking the value it found). Initialization and
// atomic_init are ordinary stores (C11 7.17.2.2). Memory orders other than
// those a store or fence needs are accepted and change nothing: x86 gives
// every atomic read-modify-write full ordering. An order that is not a
// constant is evaluated and taken as seq_cst.
#include "c2ast.h"

namespace pl::c2ast {

using namespace clang;

namespace {

Literal type_lit(VType t) { return Literal::string(vtype_name(t)); }

// C11 7.17.1's memory_order values (as clang and gcc number them).
const char* order_name(int64_t order) {
  switch (order) {
    case 0: return "relaxed";
    case 3: return "release";
    case 1:
    case 2:
    case 4: return "acq_rel";
    default: return "seq_cst";
  }
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

// The value type of an atomic operand: an integer or pointer of 1 .. 8
// bytes (an _Atomic type's value type, through typedefs).
VType FunctionBuilder::atomic_vtype(QualType t, SourceLocation where) {
  QualType value = t;
  if (const auto* a = value->getAs<AtomicType>()) value = a->getValueType();
  value = value.getCanonicalType();
  if (!(value->isIntegralOrEnumerationType() || value->isPointerType()) || Types::is_int128(value))
    unsupported(where, "atomic operation on " + Types::describe(t));
  Scalar s = types_.scalar(value, where);
  if (s.vt == VType::F32 || s.vt == VType::F64 || s.vt == VType::F80)
    unsupported(where, "atomic operation on " + Types::describe(t));
  return s.vt;
}

// The integer type of an object of `size` bytes moved by a generic form.
VType FunctionBuilder::atomic_sized(QualType t, SourceLocation where) {
  if (t->isIncompleteType()) unsupported(where, "atomic operation on " + Types::describe(t));
  switch (types_.size(t, where)) {
    case 1: return VType::I8;
    case 2: return VType::I16;
    case 4: return VType::I32;
    case 8: return VType::I64;
    default: unsupported(where, "atomic operation on " + Types::describe(t) + " (only 1, 2, 4 and 8 bytes)");
  }
}

// The order literal of `order`: its constant, or seq_cst after evaluating it
// for its effects (into `out`).
std::string FunctionBuilder::atomic_order(const Expr* order, std::vector<NodeId>& out) {
  if (!order) return "seq_cst";
  Expr::EvalResult r;
  if (order->EvaluateAsInt(r, ctx_)) return order_name(r.Val.getInt().getExtValue());
  out.push_back(discard(order, false));
  return "seq_cst";
}

NodeId FunctionBuilder::atomic_load_node(VType t, NodeId address, Loc l) {
  return add(Op::AstAtomicLoad, l, {type_lit(t)}, {address});
}
NodeId FunctionBuilder::atomic_store_node(VType t, const std::string& order, NodeId address, NodeId value, Loc l) {
  return add(Op::AstAtomicStore, l, {type_lit(t), Literal::string(order)}, {address, value});
}
NodeId FunctionBuilder::atomic_rmw_node(VType t, const char* name, NodeId address, NodeId value, Loc l) {
  return add(Op::AstAtomicRmw, l, {type_lit(t), Literal::string(name)}, {address, value});
}
NodeId FunctionBuilder::atomic_cmpxchg_node(VType t, NodeId address, NodeId expected, NodeId desired, Loc l) {
  return add(Op::AstAtomicCmpXchg, l, {type_lit(t)}, {address, expected, desired});
}

// old OP v as the _fetch forms compute it.
NodeId FunctionBuilder::atomic_apply(VType t, const std::string& name, NodeId old, NodeId v, Loc l) {
  if (name == "nand") return op("not", t, l, op("and", t, l, old, v));
  return op(name.c_str(), t, l, old, v);
}

// The statements in `out`, then `value` (kNone: a void result).
NodeId FunctionBuilder::atomic_result(std::vector<NodeId>& out, NodeId value, Loc l) {
  if (value == kNone) value = constant(VType::I32, 0, l);
  return seq(statements(out, l), value, l);
}

// ---- __atomic_* and __c11_atomic_* (clang's AtomicExpr) ----------------------------

NodeId FunctionBuilder::atomic_expr(const AtomicExpr* e) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  AtomicExpr::AtomicOp ao = e->getOp();
  QualType object = e->getPtr()->getType()->getPointeeType();
  std::vector<NodeId> out;
  auto orders = [&](std::string* store_order) {
    std::string o = atomic_order(e->getOrder(), out);
    if (store_order) *store_order = o;
    if (e->getNumSubExprs() > 2 && (ao == AtomicExpr::AO__c11_atomic_compare_exchange_strong ||
                                    ao == AtomicExpr::AO__c11_atomic_compare_exchange_weak ||
                                    ao == AtomicExpr::AO__atomic_compare_exchange ||
                                    ao == AtomicExpr::AO__atomic_compare_exchange_n))
      atomic_order(e->getOrderFail(), out);
  };
  switch (ao) {
    case AtomicExpr::AO__c11_atomic_init: {
      VType t = atomic_vtype(object, where);
      NodeId p = rvalue(e->getPtr());
      out.push_back(store(t, false, p, rvalue(e->getVal1()), l));
      return atomic_result(out, kNone, l);
    }
    case AtomicExpr::AO__c11_atomic_load:
    case AtomicExpr::AO__atomic_load_n: {
      VType t = atomic_vtype(object, where);
      NodeId p = hold(VType::Ptr, rvalue(e->getPtr()), out, l);
      orders(nullptr);
      return atomic_result(out, atomic_load_node(t, load(VType::Ptr, false, p, l), l), l);
    }
    case AtomicExpr::AO__atomic_load: {
      VType t = atomic_sized(object, where);
      NodeId p = hold(VType::Ptr, rvalue(e->getPtr()), out, l);
      NodeId ret = hold(VType::Ptr, rvalue(e->getVal1()), out, l);
      orders(nullptr);
      out.push_back(store(t, false, load(VType::Ptr, false, ret, l),
                          atomic_load_node(t, load(VType::Ptr, false, p, l), l), l));
      return atomic_result(out, kNone, l);
    }
    case AtomicExpr::AO__c11_atomic_store:
    case AtomicExpr::AO__atomic_store_n:
    case AtomicExpr::AO__atomic_store: {
      bool generic = ao == AtomicExpr::AO__atomic_store;
      VType t = generic ? atomic_sized(object, where) : atomic_vtype(object, where);
      NodeId p = hold(VType::Ptr, rvalue(e->getPtr()), out, l);
      NodeId v = rvalue(e->getVal1());
      if (generic) v = load(t, false, v, l);
      v = hold(t, v, out, l);
      std::string order;
      orders(&order);
      out.push_back(atomic_store_node(t, order, load(VType::Ptr, false, p, l), load(t, false, v, l), l));
      return atomic_result(out, kNone, l);
    }
    case AtomicExpr::AO__c11_atomic_exchange:
    case AtomicExpr::AO__atomic_exchange_n:
    case AtomicExpr::AO__atomic_exchange: {
      bool generic = ao == AtomicExpr::AO__atomic_exchange;
      VType t = generic ? atomic_sized(object, where) : atomic_vtype(object, where);
      NodeId p = hold(VType::Ptr, rvalue(e->getPtr()), out, l);
      NodeId v = rvalue(e->getVal1());
      if (generic) v = load(t, false, v, l);
      v = hold(t, v, out, l);
      NodeId ret = generic ? hold(VType::Ptr, rvalue(e->getVal2()), out, l) : kNone;
      orders(nullptr);
      NodeId old = atomic_rmw_node(t, "xchg", load(VType::Ptr, false, p, l), load(t, false, v, l), l);
      if (!generic) return atomic_result(out, old, l);
      out.push_back(store(t, false, load(VType::Ptr, false, ret, l), old, l));
      return atomic_result(out, kNone, l);
    }
    case AtomicExpr::AO__c11_atomic_compare_exchange_strong:
    case AtomicExpr::AO__c11_atomic_compare_exchange_weak:
    case AtomicExpr::AO__atomic_compare_exchange_n:
    case AtomicExpr::AO__atomic_compare_exchange: {
      bool generic = ao == AtomicExpr::AO__atomic_compare_exchange;
      VType t = generic ? atomic_sized(object, where) : atomic_vtype(object, where);
      NodeId p = hold(VType::Ptr, rvalue(e->getPtr()), out, l);
      NodeId pe = hold(VType::Ptr, rvalue(e->getVal1()), out, l);
      NodeId d = rvalue(e->getVal2());
      if (generic) d = load(t, false, d, l);
      d = hold(t, d, out, l);
      if (ao == AtomicExpr::AO__atomic_compare_exchange_n || generic) out.push_back(discard(e->getWeak(), false));
      orders(nullptr);
      return compare_exchange(t, p, pe, d, scalar(e).vt, out, l);
    }
    case AtomicExpr::AO__c11_atomic_fetch_add:
    case AtomicExpr::AO__c11_atomic_fetch_sub:
    case AtomicExpr::AO__c11_atomic_fetch_and:
    case AtomicExpr::AO__c11_atomic_fetch_or:
    case AtomicExpr::AO__c11_atomic_fetch_xor:
    case AtomicExpr::AO__c11_atomic_fetch_nand:
    case AtomicExpr::AO__atomic_fetch_add:
    case AtomicExpr::AO__atomic_fetch_sub:
    case AtomicExpr::AO__atomic_fetch_and:
    case AtomicExpr::AO__atomic_fetch_or:
    case AtomicExpr::AO__atomic_fetch_xor:
    case AtomicExpr::AO__atomic_fetch_nand:
    case AtomicExpr::AO__atomic_add_fetch:
    case AtomicExpr::AO__atomic_sub_fetch:
    case AtomicExpr::AO__atomic_and_fetch:
    case AtomicExpr::AO__atomic_or_fetch:
    case AtomicExpr::AO__atomic_xor_fetch:
    case AtomicExpr::AO__atomic_nand_fetch: {
      const char* name = nullptr;
      bool after = false;  // the OP_fetch forms
      switch (ao) {
        case AtomicExpr::AO__c11_atomic_fetch_add: case AtomicExpr::AO__atomic_fetch_add: name = "add"; break;
        case AtomicExpr::AO__c11_atomic_fetch_sub: case AtomicExpr::AO__atomic_fetch_sub: name = "sub"; break;
        case AtomicExpr::AO__c11_atomic_fetch_and: case AtomicExpr::AO__atomic_fetch_and: name = "and"; break;
        case AtomicExpr::AO__c11_atomic_fetch_or: case AtomicExpr::AO__atomic_fetch_or: name = "or"; break;
        case AtomicExpr::AO__c11_atomic_fetch_xor: case AtomicExpr::AO__atomic_fetch_xor: name = "xor"; break;
        case AtomicExpr::AO__c11_atomic_fetch_nand: case AtomicExpr::AO__atomic_fetch_nand: name = "nand"; break;
        case AtomicExpr::AO__atomic_add_fetch: name = "add", after = true; break;
        case AtomicExpr::AO__atomic_sub_fetch: name = "sub", after = true; break;
        case AtomicExpr::AO__atomic_and_fetch: name = "and", after = true; break;
        case AtomicExpr::AO__atomic_or_fetch: name = "or", after = true; break;
        case AtomicExpr::AO__atomic_xor_fetch: name = "xor", after = true; break;
        default: name = "nand", after = true; break;
      }
      VType t = atomic_vtype(object, where);
      NodeId p = hold(VType::Ptr, rvalue(e->getPtr()), out, l);
      NodeId v = rvalue(e->getVal1());
      Scalar vs = scalar(e->getVal1());
      v = convert(v, vs, {t, false}, l);
      // C11's atomic_fetch_add on an _Atomic(T *) moves by elements, GNU's
      // __atomic_fetch_add on a T * by bytes (as gcc and clang).
      bool c11 = ao == AtomicExpr::AO__c11_atomic_fetch_add || ao == AtomicExpr::AO__c11_atomic_fetch_sub;
      QualType value_type = object->getAs<AtomicType>() ? object->getAs<AtomicType>()->getValueType() : object;
      if (c11 && value_type->isPointerType())
        v = op("mul", VType::Ptr, l, v, pointee_size_node(value_type, l, where));
      v = hold(t, v, out, l);
      orders(nullptr);
      NodeId old = atomic_rmw_node(t, name, load(VType::Ptr, false, p, l), load(t, false, v, l), l);
      if (!after) return atomic_result(out, old, l);
      return atomic_result(out, atomic_apply(t, name, old, load(t, false, v, l), l), l);
    }
    default: break;
  }
  unsupported(where, "atomic operation '" + std::string(e->getStmtClassName()) +
                         "' (min, max and the OpenCL and HIP forms are not supported)");
}

// old = cmpxchg(*p, *pe, *d); ok = old == *pe; if (!ok) *pe = old; yields
// ok as a `result` (the operation's C type: _Bool or int). p, pe, d are
// temporaries holding the address, the expected value's address, the
// desired value.
NodeId FunctionBuilder::compare_exchange(VType t, NodeId p, NodeId pe, NodeId d, VType result,
                                         std::vector<NodeId>& out, Loc l) {
  NodeId expected = hold(t, load(t, false, load(VType::Ptr, false, pe, l), l), out, l);
  NodeId old = hold(t,
                    atomic_cmpxchg_node(t, load(VType::Ptr, false, p, l), load(t, false, expected, l),
                                        load(t, false, d, l), l),
                    out, l);
  NodeId ok = hold(VType::I32, op("eq", t, l, load(t, false, old, l), load(t, false, expected, l)), out, l);
  out.push_back(add(Op::AstIf, l, {},
                    {op("eq", VType::I32, l, load(VType::I32, false, ok, l), constant(VType::I32, 0, l)),
                     store(t, false, load(VType::Ptr, false, pe, l), load(t, false, old, l), l)}));
  return atomic_result(out, convert(load(VType::I32, false, ok, l), {VType::I32, true}, {result, false}, l), l);
}

// ---- builtins called as functions: __sync_*, fences, flags, lock-free queries -------

// The atomic builtins this file and clang's AtomicExpr conversion take
// (builtins.cpp's table asks, for dispatch and for `__has_builtin`): the
// __atomic_*, __c11_atomic_* and __sync_* families at 1 to 8 bytes, but
// for min/max and 16-byte forms, which are refused by name.
bool is_atomic_builtin(const std::string& name) {
  if (!starts_with(name, "__atomic_") && !starts_with(name, "__c11_atomic_") && !starts_with(name, "__sync_"))
    return false;
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "_16") == 0) return false;
  return name.find("min") == std::string::npos && name.find("max") == std::string::npos;
}

NodeId FunctionBuilder::atomic_builtin(const CallExpr* c, const std::string& full_name) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  std::vector<NodeId> out;
  // __sync_fetch_and_add_4 -> __sync_fetch_and_add (clang's sema picks the sized one).
  std::string name = full_name;
  for (const char* size : {"_1", "_2", "_4", "_8", "_16"}) {
    std::string s = size;
    if (starts_with(name, "__sync_") && name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      if (s == "_16") unsupported(where, "builtin '" + full_name + "' (16-byte atomics)");
      name = name.substr(0, name.size() - s.size());
      break;
    }
  }
  auto fence = [&](const Expr* order, bool signal) {
    std::string o = atomic_order(order, out);
    if (o != "relaxed") out.push_back(add(Op::AstFence, l, {Literal::string(signal ? "signal" : o)}, {}));
    return atomic_result(out, kNone, l);
  };
  if (name == "__atomic_thread_fence" || name == "__c11_atomic_thread_fence") return fence(c->getArg(0), false);
  if (name == "__atomic_signal_fence" || name == "__c11_atomic_signal_fence") return fence(c->getArg(0), true);
  if (name == "__sync_synchronize") {
    out.push_back(add(Op::AstFence, l, {Literal::string("seq_cst")}, {}));
    return atomic_result(out, kNone, l);
  }
  if (name == "__atomic_always_lock_free" || name == "__atomic_is_lock_free" || name == "__c11_atomic_is_lock_free") {
    Expr::EvalResult r;
    if (!c->EvaluateAsInt(r, ctx_)) unsupported(where, "builtin '" + name + "' of a size that is not a constant");
    return constant(scalar(c), r.Val.getInt(), l);
  }
  if (name == "__atomic_test_and_set") {
    NodeId p = hold(VType::Ptr, rvalue(c->getArg(0)), out, l);
    atomic_order(c->getArg(1), out);
    NodeId old = atomic_rmw_node(VType::I8, "xchg", load(VType::Ptr, false, p, l), constant(VType::I8, 1, l), l);
    return atomic_result(out, to_bool(old, VType::I8, l), l);
  }
  if (name == "__atomic_clear") {
    NodeId p = hold(VType::Ptr, rvalue(c->getArg(0)), out, l);
    std::string o = atomic_order(c->getArg(1), out);
    out.push_back(atomic_store_node(VType::I8, o, load(VType::Ptr, false, p, l), constant(VType::I8, 0, l), l));
    return atomic_result(out, kNone, l);
  }
  if (!starts_with(name, "__sync_")) return kNone;
  // The operand type: the pointee of the first argument.
  QualType object = c->getArg(0)->IgnoreImpCasts()->getType()->getPointeeType();
  if (object.isNull()) object = c->getArg(0)->getType()->getPointeeType();
  VType t = atomic_vtype(object, where);
  auto arg = [&](unsigned i) {
    NodeId v = rvalue(c->getArg(i));
    return hold(t, convert(v, scalar(c->getArg(i)), {t, false}, l), out, l);
  };
  NodeId p = hold(VType::Ptr, rvalue(c->getArg(0)), out, l);
  auto addr = [&] { return load(VType::Ptr, false, p, l); };
  if (name == "__sync_lock_release") {
    out.push_back(atomic_store_node(t, "release", addr(), constant(t, 0, l), l));
    return atomic_result(out, kNone, l);
  }
  if (name == "__sync_val_compare_and_swap" || name == "__sync_bool_compare_and_swap") {
    NodeId o = arg(1), n = arg(2);
    NodeId old = atomic_cmpxchg_node(t, addr(), load(t, false, o, l), load(t, false, n, l), l);
    if (name == "__sync_val_compare_and_swap") return atomic_result(out, old, l);
    NodeId ok = op("eq", t, l, old, load(t, false, o, l));
    return atomic_result(out, convert(ok, {VType::I32, true}, {scalar(c).vt, false}, l), l);
  }
  if (name == "__sync_lock_test_and_set" || name == "__sync_swap") {
    NodeId v = arg(1);
    return atomic_result(out, atomic_rmw_node(t, "xchg", addr(), load(t, false, v, l), l), l);
  }
  for (const char* what : {"add", "sub", "or", "and", "xor", "nand"}) {
    std::string w = what;
    bool before = name == "__sync_fetch_and_" + w, after = name == "__sync_" + w + "_and_fetch";
    if (!before && !after) continue;
    NodeId v = arg(1);
    NodeId old = atomic_rmw_node(t, what, addr(), load(t, false, v, l), l);
    if (before) return atomic_result(out, old, l);
    return atomic_result(out, atomic_apply(t, w, old, load(t, false, v, l), l), l);
  }
  unsupported(where, "builtin '" + full_name + "'");
}

// ---- _Atomic objects ----------------------------------------------------------------

NodeId FunctionBuilder::atomic_object_load(const Expr* lvalue) {
  SourceLocation where = lvalue->getExprLoc();
  VType t = atomic_vtype(lvalue->getType(), where);
  return atomic_load_node(t, address(lvalue), loc(where));
}

NodeId FunctionBuilder::atomic_object_store(const BinaryOperator* b) {
  SourceLocation where = b->getOperatorLoc();
  Loc l = loc(where);
  VType t = atomic_vtype(b->getLHS()->getType(), where);
  std::vector<NodeId> out;
  NodeId p = hold(VType::Ptr, address(b->getLHS()), out, l);
  NodeId v = rvalue(b->getRHS());
  return atomic_result(out, atomic_store_node(t, "seq_cst", load(VType::Ptr, false, p, l), v, l), l);
}

// `a OP= v` and `++a` on an _Atomic object.
NodeId FunctionBuilder::atomic_object_update(const Expr* lhs, BinaryOperatorKind opcode, const Expr* rhs,
                                             QualType computation, QualType result_type, bool return_old,
                                             SourceLocation where) {
  Loc l = loc(where);
  QualType value_type = lhs->getType()->castAs<AtomicType>()->getValueType();
  VType t = atomic_vtype(lhs->getType(), where);
  Scalar vs = types_.scalar(value_type, where);
  std::vector<NodeId> out;
  NodeId p = hold(VType::Ptr, address(lhs), out, l);
  auto addr = [&] { return load(VType::Ptr, false, p, l); };
  // The operand: rhs's value, or 1 for ++ and --.
  QualType rt = rhs ? rhs->getType() : ctx_.IntTy;
  NodeId v = rhs ? rvalue(rhs) : constant(VType::I32, 1, l);
  Scalar rs = rhs ? scalar(rhs) : Scalar{VType::I32, true};
  const char* simple = opcode == BO_Add ? "add" : opcode == BO_Sub ? "sub" : opcode == BO_And ? "and"
                       : opcode == BO_Or ? "or" : opcode == BO_Xor ? "xor" : nullptr;
  bool integer = value_type->isIntegerType() && !value_type->isBooleanType();
  bool same = ctx_.hasSameUnqualifiedType(computation.getCanonicalType(), value_type.getCanonicalType());
  if (simple && ((integer && same && rs.vt != VType::F32 && rs.vt != VType::F64) ||
                 (value_type->isPointerType() && (opcode == BO_Add || opcode == BO_Sub)))) {
    // One read-modify-write: the operand in the object's type (scaled by the
    // element size for a pointer).
    NodeId operand = value_type->isPointerType()
                         ? op("mul", VType::Ptr, l, convert(v, rs, {VType::Ptr, false}, l),
                              pointee_size_node(value_type, l, where))
                         : convert(v, rs, vs, l);
    NodeId held = hold(t, operand, out, l);
    NodeId old = atomic_rmw_node(t, simple, addr(), load(t, false, held, l), l);
    if (return_old) return atomic_result(out, old, l);
    return atomic_result(out, atomic_apply(t, simple, old, load(t, false, held, l), l), l);
  }
  // gcc's compare-and-swap loop.
  NodeId operand = hold(rs.vt, v, out, l);
  NodeId old = hold(t, atomic_load_node(t, addr(), l), out, l);
  NodeId next = variable(".new", vtype_bits(t) / 8, vtype_bits(t) / 8, l);
  NodeId found = variable(".found", vtype_bits(t) / 8, vtype_bits(t) / 8, l);
  Scalar cs = types_.scalar(computation, where);
  NodeId value;
  if (value_type->isPointerType()) {
    value = op(opcode == BO_Sub ? "sub" : "add", VType::Ptr, l, load(t, false, old, l),
               op("mul", VType::Ptr, l, convert(load(rs.vt, false, operand, l), rs, {VType::Ptr, false}, l),
                  pointee_size_node(value_type, l, where)));
  } else {
    NodeId a = convert(load(t, false, old, l), vs, cs, l);
    value = arithmetic(opcode, computation, rt, a, load(rs.vt, false, operand, l), l, where);
    Scalar result = types_.scalar(result_type, where);
    value = value_type->isBooleanType() ? to_bool(value, result.vt, l) : convert(value, result, vs, l);
  }
  std::vector<NodeId> body;
  body.push_back(store(t, false, next, value, l));
  body.push_back(store(t, false, found,
                       atomic_cmpxchg_node(t, addr(), load(t, false, old, l), load(t, false, next, l), l), l));
  NodeId ok = variable(".ok", 4, 4, l);
  body.push_back(store(VType::I32, false, ok, op("eq", t, l, load(t, false, found, l), load(t, false, old, l)), l));
  body.push_back(store(t, false, old, load(t, false, found, l), l));
  NodeId failed = op("eq", VType::I32, l, load(VType::I32, false, ok, l), constant(VType::I32, 0, l));
  out.push_back(add(Op::AstDo, l, {}, {block(body, l), failed}));
  // After the loop `old` holds what the successful cmpxchg found: the value
  // before; `next` the value stored.
  return atomic_result(out, load(t, false, return_old ? old : next, l), l);
}

}  // namespace pl::c2ast
