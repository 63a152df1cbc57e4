// vla.cpp - variable length arrays and alloca (issue 19): the dynamic
// stack of FORMAT.md G (`ast:alloca`, `ast:stacksave`, `ast:stackrestore`).
//
// Sizes. A variably modified type's sizes are evaluated when its
// declaration is reached (C11 6.7.6.2p5, 6.8p3), each time it is reached:
// evaluate_vla_sizes() walks the type as clang's CodeGen does
// (EmitVariablyModifiedType: through pointers, arrays and function results,
// stopping at a typedef name, whose sizes its own declaration evaluated) and
// stores each size expression's value, converted to i64, into a hidden
// `.vla.n` variable of its own (vla_counts_, one per size expression; the
// code is emitted once, at the first declaration that reaches it, as clang
// does). vla_size() is then the product of those variables and the constant
// parts: `int a[n][3][m]` is n * m * 12. Pointer arithmetic on a pointer to
// a VLA type (`int (*p)[n]`, `p + 1`, `p[i][j]`, `p - q`, `++p`) scales by
// it, `sizeof` of a VLA type or expression is it (the expression evaluated
// for its effects, C11 6.5.3.4p2). Types::size() refuses a VLA type by name,
// so a place that would need a constant size of one cannot miscompile.
//
// Storage. A VLA local is `ast:alloca` of its size (16-byte aligned: a
// larger alignment is refused), its address kept in a pointer variable
// (Local::indirect). Before it, `ast:stacksave` keeps the stack's extent in
// a hidden `.sp` variable, and every exit from the VLA's scope (the end of
// the block, break, continue, goto out of it, backwards to before the
// declaration included, and return) runs `ast:stackrestore` of it through
// cleanups.cpp, as a cleanup attribute's call runs. So a VLA in a loop body
// frees its storage at the end of each iteration, as gcc's
// __builtin_stack_save/__builtin_stack_restore do, and the stack does not
// grow without bound. `alloca`, `__builtin_alloca` and
// `__builtin_alloca_with_align` (alignment up to 128 bits) are `ast:alloca`
// with no save: freed when the function returns.
//
// Also here, as they read the frame: `__builtin_frame_address(0)` and
// `__builtin_return_address(0)` are `ast:frameaddress` and
// `ast:returnaddress` (other levels are refused by name).
//
// Parameters: the sizes in a parameter's declared type (`int a[n][n]`, whose
// adjusted type is `int (*)[n]`) are evaluated at entry, after every
// parameter is stored, in parameter order (clang and gcc evaluate the type
// as written).
#include "c2ast.h"

#include <clang/Basic/Builtins.h>

namespace pl::c2ast {

using namespace clang;

namespace {

constexpr uint64_t kStackAlign = 16;

}  // namespace

bool is_vla_type(const ASTContext& ctx, QualType t) {
  for (const ArrayType* a = ctx.getAsArrayType(t); a; a = ctx.getAsArrayType(a->getElementType()))
    if (isa<VariableArrayType>(a)) return true;
  return false;
}

void FunctionBuilder::evaluate_vla_sizes(QualType t, std::vector<NodeId>& out, SourceLocation where) {
  while (!t.isNull() && t->isVariablyModifiedType()) {
    const Type* ty = t.getTypePtr();
    switch (ty->getTypeClass()) {
      case Type::Pointer: t = cast<PointerType>(ty)->getPointeeType(); break;
      case Type::ConstantArray:
      case Type::IncompleteArray: t = cast<ArrayType>(ty)->getElementType(); break;
      case Type::VariableArray: {
        const auto* vat = cast<VariableArrayType>(ty);
        const Expr* size = vat->getSizeExpr();
        if (!size) unsupported(where, "variable length array type " + Types::describe(t) + " of unspecified size");
        if (!vla_counts_.count(size)) {
          Loc l = loc(size->getExprLoc());
          NodeId var = variable(".vla.n", 8, 8, l);
          NodeId value = convert(rvalue(size), scalar(size), {VType::I64, scalar(size).is_signed}, l);
          out.push_back(store(VType::I64, false, var, value, l));
          vla_counts_.emplace(size, var);
        }
        t = vat->getElementType();
        break;
      }
      case Type::FunctionProto:
      case Type::FunctionNoProto: t = cast<FunctionType>(ty)->getReturnType(); break;
      case Type::Paren: t = cast<ParenType>(ty)->getInnerType(); break;
      case Type::Decayed:
      case Type::Adjusted: t = cast<AdjustedType>(ty)->getOriginalType(); break;
      case Type::Attributed: t = cast<AttributedType>(ty)->getModifiedType(); break;
      case Type::MacroQualified: t = cast<MacroQualifiedType>(ty)->getUnderlyingType(); break;
      case Type::Elaborated: t = cast<ElaboratedType>(ty)->getNamedType(); break;
      case Type::Typedef: return;  // evaluated at the typedef's declaration
      case Type::TypeOf: t = cast<TypeOfType>(ty)->getUnderlyingType(); break;
      case Type::TypeOfExpr: {
        NodeId effect = discard(cast<TypeOfExprType>(ty)->getUnderlyingExpr(), false);
        if (effect != kNone) out.push_back(effect);
        return;
      }
      default: unsupported(where, "variably modified type " + Types::describe(t));
    }
  }
}

NodeId FunctionBuilder::vla_size(QualType t, Loc l, SourceLocation where) {
  NodeId total = kNone;
  uint64_t factor = 1;
  QualType element = t;
  while (const ArrayType* a = ctx_.getAsArrayType(element)) {
    if (const auto* vat = dyn_cast<VariableArrayType>(a)) {
      auto found = vla_counts_.find(vat->getSizeExpr());
      if (found == vla_counts_.end())
        unsupported(where, "size of the variable length array type " + Types::describe(t) +
                               " where its declaration has not been reached");
      NodeId count = load(VType::I64, false, found->second, l);
      total = total == kNone ? count : op("mul", VType::I64, l, total, count);
    } else if (const auto* cat = dyn_cast<ConstantArrayType>(a)) {
      factor *= cat->getSize().getZExtValue();
    } else {
      unsupported(where, "size of the incomplete type " + Types::describe(t));
    }
    element = a->getElementType();
  }
  factor *= types_.size(element, where);
  if (total == kNone) return constant(VType::I64, static_cast<int64_t>(factor), l);
  if (factor == 1) return total;
  return op("mul", VType::I64, l, total, constant(VType::I64, static_cast<int64_t>(factor), l));
}

NodeId FunctionBuilder::pointee_size_node(QualType pointer_type, Loc l, SourceLocation where) {
  QualType pointee = pointer_type->getPointeeType();
  if (!pointee.isNull() && is_vla_type(ctx_, pointee)) return vla_size(pointee, l, where);
  return constant(VType::I64, static_cast<int64_t>(types_.pointee_size(pointer_type, where)), l);
}

bool FunctionBuilder::points_to_vla(QualType pointer_type) const {
  QualType pointee = pointer_type->getPointeeType();
  return !pointee.isNull() && is_vla_type(ctx_, pointee);
}

NodeId FunctionBuilder::vla_sizeof(const UnaryExprOrTypeTraitExpr* e) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  std::vector<NodeId> list;
  QualType t;
  if (e->isArgumentType()) {
    t = e->getArgumentType();
    evaluate_vla_sizes(t, list, where);
  } else {
    t = e->getArgumentExpr()->getType();
    NodeId effect = discard(e->getArgumentExpr(), false);
    if (effect != kNone) list.push_back(effect);
  }
  NodeId size = vla_size(t, l, where);
  NodeId before = statements(list, l);
  return before == kNone ? size : seq(before, size, l);
}

NodeId FunctionBuilder::vla_local(const VarDecl* vd, std::vector<NodeId>& out) {
  SourceLocation where = vd->getLocation();
  Loc l = loc(where);
  QualType t = vd->getType();
  if (cleanup_function(vd)) unsupported(where, "cleanup attribute on a variable length array");
  if (ctx_.getDeclAlign(vd).getQuantity() > static_cast<int64_t>(kStackAlign))
    unsupported(where, "variable length array aligned to more than 16 bytes");
  std::string name = vd->getNameAsString();
  NodeId saved = variable(name + ".sp", 8, 8, l);
  out.push_back(store(VType::Ptr, false, saved, add(Op::AstStackSave, l, {}, {}), l));
  vla_saves_.emplace(vd, saved);
  NodeId address = variable(name + ".addr", 8, 8, l);
  NodeId storage = add(Op::AstAlloca, l, {}, {vla_size(t, l, where)});
  out.push_back(store(VType::Ptr, false, address, storage, l));
  locals_[vd] = Local{address, true};
  return address;
}

NodeId FunctionBuilder::stack_restore(const VarDecl* vd, Loc l) {
  return add(Op::AstStackRestore, l, {}, {load(VType::Ptr, false, vla_saves_.at(vd), l)});
}

NodeId FunctionBuilder::alloca_call(const CallExpr* c, unsigned id) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  if (id == Builtin::BI__builtin_alloca_with_align) {
    Expr::EvalResult bits;
    if (c->getNumArgs() != 2 || !c->getArg(1)->EvaluateAsInt(bits, ctx_))
      unsupported(where, "__builtin_alloca_with_align without a constant alignment");
    if (bits.Val.getInt().getZExtValue() > kStackAlign * 8)
      unsupported(where, "__builtin_alloca_with_align to more than 128 bits");
  }
  const Expr* size = c->getArg(0);
  NodeId bytes = convert(rvalue(size), scalar(size), {VType::I64, false}, l);
  return add(Op::AstAlloca, l, {}, {bytes});
}

NodeId FunctionBuilder::frame_builtin(const CallExpr* c, unsigned id) {
  SourceLocation where = c->getExprLoc();
  bool frame = id == Builtin::BI__builtin_frame_address;
  const char* name = frame ? "__builtin_frame_address" : "__builtin_return_address";
  Expr::EvalResult level;
  if (c->getNumArgs() != 1 || !c->getArg(0)->EvaluateAsInt(level, ctx_))
    unsupported(where, std::string(name) + " without a constant level");
  if (level.Val.getInt() != 0) unsupported(where, std::string(name) + " of a level other than 0");
  return add(frame ? Op::AstFrameAddress : Op::AstReturnAddress, loc(where), {}, {});
}

}  // namespace pl::c2ast
