// statements.cpp - C statements -> ast-level statement trees.
//
// The mapping is one to one (FORMAT.md G): compound statements are
// `ast:block`s, an expression statement is the expression (evaluated for
// its effects, see discard()), a declaration its initializing stores. A
// `for` without a condition gets `ast:const "i32" 1`, a missing init or step
// `ast:nop`. `case N:` carries N converted to the type of the (promoted)
// switch value, as a signed or unsigned C value; `case` ranges are
// unsupported. Labels, case and default labels wrap the statement they
// label: `case 1: case 2: s` is `ast:case 1 (ast:case 2 (s))`.
//
// else-if chains and runs of labels are walked with explicit stacks (clang
// builds both without recursing, so they can be arbitrarily long); other
// nesting recurses through deep().
//
// main() is converted like every function: falling off its end is left to
// ast2cfg, which returns 0 there (C11 5.1.2.2.3); c2ast adds no `return`.
#include "c2ast.h"

namespace pl::c2ast {

using namespace clang;

NodeId FunctionBuilder::statement(const Stmt* s) {
  return deep([&] { return statement_node(s); });
}

NodeId FunctionBuilder::statement_or_nop(const Stmt* s, Loc l) {
  NodeId n = s ? statement(s) : kNone;
  return n == kNone ? nop(l) : n;
}

NodeId FunctionBuilder::compound(const CompoundStmt* s) {
  std::vector<NodeId> list;
  open_scope(s->getLBracLoc(), s->getRBracLoc());
  for (const Stmt* child : s->body()) list.push_back(statement(child));
  close_scope();
  return block(list, loc(s->getLBracLoc()));
}

NodeId FunctionBuilder::statement_node(const Stmt* s) {
  SourceLocation where = s->getBeginLoc();
  Loc l = loc(where);
  if (const auto* e = dyn_cast<Expr>(s)) return discard(e, true);
  switch (s->getStmtClass()) {
    case Stmt::CompoundStmtClass: return compound(cast<CompoundStmt>(s));
    case Stmt::NullStmtClass: return nop(l);
    case Stmt::DeclStmtClass: return declarations(cast<DeclStmt>(s));
    case Stmt::IfStmtClass: return if_chain(cast<IfStmt>(s));
    case Stmt::WhileStmtClass: {
      const auto* w = cast<WhileStmt>(s);
      NodeId cond = rvalue(w->getCond());
      return add(Op::AstWhile, l, {}, {cond, statement_or_nop(w->getBody(), l)});
    }
    case Stmt::DoStmtClass: {
      const auto* d = cast<DoStmt>(s);
      NodeId body = statement_or_nop(d->getBody(), l);
      return add(Op::AstDo, l, {}, {body, rvalue(d->getCond())});
    }
    case Stmt::ForStmtClass: {
      const auto* f = cast<ForStmt>(s);
      open_scope(f->getBeginLoc(), f->getEndLoc());
      NodeId init = statement_or_nop(f->getInit(), l);
      NodeId cond = f->getCond() ? rvalue(f->getCond()) : constant(VType::I32, 1, l);
      NodeId step = f->getInc() ? discard(f->getInc(), true) : kNone;
      if (step == kNone) step = nop(l);
      NodeId body = statement_or_nop(f->getBody(), l);
      close_scope();
      return add(Op::AstFor, l, {}, {init, cond, step, body});
    }
    case Stmt::BreakStmtClass: return add(Op::AstBreak, l, {}, {});
    case Stmt::ContinueStmtClass: return add(Op::AstContinue, l, {}, {});
    case Stmt::ReturnStmtClass: return return_statement(cast<ReturnStmt>(s));
    case Stmt::SwitchStmtClass: return switch_statement(cast<SwitchStmt>(s));
    case Stmt::CaseStmtClass:
    case Stmt::DefaultStmtClass:
    case Stmt::LabelStmtClass: return labelled(s);
    case Stmt::GotoStmtClass:
      return add(Op::AstGoto, l, {Literal::string(cast<GotoStmt>(s)->getLabel()->getName().str())}, {});
    case Stmt::AttributedStmtClass: return statement(cast<AttributedStmt>(s)->getSubStmt());
    case Stmt::IndirectGotoStmtClass: unsupported(where, "computed goto");
    case Stmt::GCCAsmStmtClass:
    case Stmt::MSAsmStmtClass: unsupported(where, "inline assembly");
    default: break;
  }
  unsupported(where, std::string("statement '") + s->getStmtClassName() + "'");
}

NodeId FunctionBuilder::if_chain(const IfStmt* first) {
  // if (a) x else if (b) y else z: conditions and branches in source order,
  // then the ast:if nodes from the innermost out.
  std::vector<const IfStmt*> chain;
  for (const IfStmt* s = first; s; s = dyn_cast_or_null<IfStmt>(s->getElse())) chain.push_back(s);
  std::vector<std::pair<NodeId, NodeId>> arms;
  for (const IfStmt* s : chain) {
    NodeId cond = rvalue(s->getCond());
    arms.emplace_back(cond, statement_or_nop(s->getThen(), loc(s->getBeginLoc())));
  }
  const Stmt* last_else = chain.back()->getElse();
  NodeId otherwise = last_else ? statement_or_nop(last_else, loc(last_else->getBeginLoc())) : kNone;
  for (size_t i = chain.size(); i-- > 0;) {
    InputList inputs{arms[i].first, arms[i].second};
    if (otherwise != kNone) inputs.push_back(otherwise);
    otherwise = add(Op::AstIf, loc(chain[i]->getBeginLoc()), {}, std::move(inputs));
  }
  return otherwise;
}

NodeId FunctionBuilder::labelled(const Stmt* first) {
  // A run of labels (`case 1: case 2: ... s`) is walked with a stack.
  std::vector<const Stmt*> labels;
  const Stmt* s = first;
  for (;;) {
    if (const auto* c = dyn_cast<CaseStmt>(s)) {
      labels.push_back(c);
      s = c->getSubStmt();
    } else if (const auto* d = dyn_cast<DefaultStmt>(s)) {
      labels.push_back(d);
      s = d->getSubStmt();
    } else if (const auto* l = dyn_cast<LabelStmt>(s)) {
      labels.push_back(l);
      s = l->getSubStmt();
    } else {
      break;
    }
  }
  NodeId inner = statement_or_nop(s, loc(s->getBeginLoc()));
  for (size_t i = labels.size(); i-- > 0;) {
    const Stmt* label = labels[i];
    SourceLocation where = label->getBeginLoc();
    Loc l = loc(where);
    if (const auto* c = dyn_cast<CaseStmt>(label)) {
      if (c->caseStmtIsGNURange()) unsupported(where, "case range");
      if (switches_.empty()) unsupported(where, "case label outside a switch");
      Scalar t = switches_.back();
      llvm::APSInt value = c->getLHS()->EvaluateKnownConstInt(ctx_).extOrTrunc(vtype_bits(t.vt));
      Literal lit = t.is_signed ? Literal::integer(value.getSExtValue()) : Literal::unsigned_integer(value.getZExtValue());
      inner = add(Op::AstCase, l, {std::move(lit)}, {inner});
    } else if (isa<DefaultStmt>(label)) {
      inner = add(Op::AstDefault, l, {}, {inner});
    } else {
      inner = add(Op::AstLabel, l, {Literal::string(cast<LabelStmt>(label)->getName())}, {inner});
    }
  }
  return inner;
}

NodeId FunctionBuilder::switch_statement(const SwitchStmt* s) {
  Loc l = loc(s->getBeginLoc());
  const Expr* cond = s->getCond();
  Scalar t = scalar(cond);
  NodeId value = rvalue(cond);
  switches_.push_back(t);
  NodeId body = statement_or_nop(s->getBody(), l);
  switches_.pop_back();
  return add(Op::AstSwitch, l, {Literal::string(vtype_name(t.vt))}, {value, body});
}

NodeId FunctionBuilder::return_statement(const ReturnStmt* s) {
  Loc l = loc(s->getBeginLoc());
  const Expr* value = s->getRetValue();
  if (!value) return add(Op::AstReturn, l, {}, {});
  if (return_address_ != kNone) {  // a struct or union result: copy it through the hidden pointer
    QualType t = fd_->getReturnType();
    SourceLocation where = value->getExprLoc();
    NodeId dst = load(VType::Ptr, false, return_address_, l);
    NodeId result = copy(types_.size(t, where), types_.align(t), dst, object(value), l);
    return block({result, add(Op::AstReturn, l, {}, {})}, l);
  }
  if (fd_->getReturnType()->isVoidType())  // `return f();` in a void function (GNU)
    return block({discard(value, true), add(Op::AstReturn, l, {}, {})}, l);
  return add(Op::AstReturn, l, {}, {rvalue(value)});
}

NodeId FunctionBuilder::declarations(const DeclStmt* s) {
  std::vector<NodeId> list;
  for (const Decl* d : s->decls()) {
    if (const auto* vd = dyn_cast<VarDecl>(d)) {
      list.push_back(local_variable(vd));
    } else if (const auto* td = dyn_cast<TypedefNameDecl>(d)) {
      types_.check(td->getUnderlyingType(), td->getLocation());
    }
  }
  return statements(list, loc(s->getBeginLoc()));
}

}  // namespace pl::c2ast
