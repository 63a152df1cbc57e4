// gnu_expressions.cpp - GNU C expressions beyond ISO C (issue 19, "GNU C"):
//
//   ({ s1; ...; e; })   a statement expression used as a value: the
//                       statements, then e's value (c2ast's scope rules
//                       apply: a cleanup declared inside runs after e is
//                       computed, e kept in a hidden temporary meanwhile);
//                       jumps out of it (break, goto, return) leave the
//                       enclosing expression unfinished, as with gcc;
//   a ?: b              a evaluated once, kept in a temporary, then
//                       `ast:cond (a != 0) a b` over the kept value;
//   (union U)x          a cast to a union: a fresh `.union` object whose
//                       member of x's type (clang's target union field,
//                       always at offset 0) holds x; the rest of the bytes
//                       are unspecified, as in gcc.
// Case ranges (`case 1 ... 5:`) are statements: see labelled() in
// statements.cpp.
#include "c2ast.h"

#include <clang/AST/RecursiveASTVisitor.h>

namespace pl::c2ast {

using namespace clang;

namespace {

// The first label, case or default inside a statement: the ast level has
// them as statements only, and a value's statement expression is an
// expression (ast2cfg would need a label inside an expression).
const Stmt* first_label_inside(const Stmt* body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Stmt* found = nullptr;
    bool VisitLabelStmt(LabelStmt* s) { return note(s); }
    bool VisitSwitchCase(SwitchCase* s) { return note(s); }
    bool note(const Stmt* s) {
      found = s;
      return false;
    }
  } finder;
  finder.TraverseStmt(const_cast<Stmt*>(body));
  return finder.found;
}

}  // namespace

NodeId FunctionBuilder::statement_expression(const StmtExpr* e) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  const CompoundStmt* body = e->getSubStmt();
  const auto* last = body->body_empty() ? nullptr : dyn_cast<Expr>(body->body_back());
  if (!last) unsupported(where, "statement expression whose last statement is not an expression, used as a value");
  if (const Stmt* label = first_label_inside(body))
    unsupported(label->getBeginLoc(), isa<LabelStmt>(label) ? "label inside a statement expression used as a value"
                                                            : "switch case inside a statement expression used as a value");
  QualType t = e->getType();
  size_t depth = cleanups_.size();
  std::vector<NodeId> list;
  for (const Stmt* s : body->body())
    if (s != body->body_back()) list.push_back(statement(s));
  NodeId value = Types::is_aggregate(t) ? object(last) : rvalue(last);
  if (cleanups_.size() > depth) {
    if (Types::is_aggregate(t)) unsupported(where, "statement expression of struct type with a cleanup inside");
    Reused kept = reuse(value, scalar(e).vt, l);
    list.push_back(kept.first);
    end_scope(depth, loc(body->getRBracLoc()), list);
    value = again(kept, l);
  }
  return seq(statements(list, l), value, l);
}

NodeId FunctionBuilder::omitted_middle(const BinaryConditionalOperator* c) {
  SourceLocation where = c->getQuestionLoc();
  Loc l = loc(where);
  QualType t = c->getType();
  if (t->isVoidType() || Types::is_aggregate(t)) unsupported(where, "'?:' with an omitted middle operand of this type");
  const Expr* common = c->getCommon();
  Scalar from = scalar(common), to = scalar(c);
  Reused kept = reuse(rvalue(common), from.vt, l);
  NodeId test = to_bool(again(kept, l), from.vt, l);
  NodeId yes = convert(again(kept, l), from, to, l);
  NodeId no = rvalue(c->getFalseExpr());
  return seq(kept.first, add(Op::AstCond, l, {Literal::string(vtype_name(to.vt))}, {test, yes, no}), l);
}

NodeId FunctionBuilder::union_cast(const CastExpr* c) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  QualType u = c->getType();
  const Expr* sub = c->getSubExpr();
  QualType member = sub->getType();
  NodeId object_var = variable(".union", types_.size(u, where), types_.align(u), l);
  if (Types::is_aggregate(member))
    return copy(types_.size(member, where), types_.align(member), object_var, object(sub), l);
  Scalar s = scalar(sub);
  return seq(store(s.vt, false, object_var, rvalue(sub), l), object_var, l);
}

}  // namespace pl::c2ast
