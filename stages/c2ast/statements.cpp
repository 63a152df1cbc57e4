// statements.cpp - C statements -> ast-level statement trees.
//
// The mapping is one to one (FORMAT.md G): compound statements are
// `ast:block`s, an expression statement is the expression (evaluated for
// its effects, see discard()), a declaration its initializing stores. A
// `for` without a condition gets `ast:const "i32" 1`, a missing init or step
// `ast:nop`. `case N:` carries N converted to the type of the (promoted)
// switch value, as a signed or unsigned C value; a GNU case range one
// `ast:case` per value, or when it spans more than 65,536 values a label
// that a range test before the switch jumps to (switch_statement). Labels, case and default labels wrap the statement they
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
  scope(s, list);
  close_scope();
  return block(list, loc(s->getLBracLoc()));
}

void FunctionBuilder::scope(const CompoundStmt* s, std::vector<NodeId>& out) {
  size_t depth = cleanups_.size();
  for (const Stmt* child : s->body()) out.push_back(statement(child));
  end_scope(depth, loc(s->getRBracLoc()), out);
}

// A loop: `break` and `continue` inside leave the scopes entered since.
// The variables a `for` init declares are in a scope around the loop.
NodeId FunctionBuilder::loop(const Stmt* s) {
  Loc l = loc(s->getBeginLoc());
  size_t outer = cleanups_.size();
  NodeId init = kNone;
  const auto* for_statement = dyn_cast<ForStmt>(s);
  if (for_statement) {  // the scope of the init's declarations (debug information)
    open_scope(for_statement->getBeginLoc(), for_statement->getEndLoc());
    init = statement_or_nop(for_statement->getInit(), l);
  }
  break_depths_.push_back(cleanups_.size());
  continue_depths_.push_back(cleanups_.size());
  NodeId node = kNone;
  if (const auto* w = dyn_cast<WhileStmt>(s)) {
    NodeId cond = condition(w->getCond());
    node = add(Op::AstWhile, l, {}, {cond, statement_or_nop(w->getBody(), l)});
  } else if (const auto* d = dyn_cast<DoStmt>(s)) {
    NodeId body = statement_or_nop(d->getBody(), l);
    node = add(Op::AstDo, l, {}, {body, condition(d->getCond())});
  } else {
    const auto* f = cast<ForStmt>(s);
    NodeId cond = f->getCond() ? condition(f->getCond()) : constant(VType::I32, 1, l);
    NodeId step = f->getInc() ? discard(f->getInc(), true) : kNone;
    if (step == kNone) step = nop(l);
    node = add(Op::AstFor, l, {}, {init, cond, step, statement_or_nop(f->getBody(), l)});
  }
  break_depths_.pop_back();
  continue_depths_.pop_back();
  if (for_statement) close_scope();
  if (cleanups_.size() == outer) return node;
  std::vector<NodeId> list{node};
  end_scope(outer, l, list);
  return block(list, l);
}

// break, continue and goto, through the cleanups of the scopes they leave.
NodeId FunctionBuilder::jump(const Stmt* s) {
  SourceLocation where = s->getBeginLoc();
  Loc l = loc(where);
  if (isa<BreakStmt>(s)) {
    if (break_depths_.empty()) unsupported(where, "break outside a loop or switch");
    return leave_scopes(break_depths_.back(), add(Op::AstBreak, l, {}, {}), l);
  }
  if (isa<ContinueStmt>(s)) {
    if (continue_depths_.empty()) unsupported(where, "continue outside a loop");
    return leave_scopes(continue_depths_.back(), add(Op::AstContinue, l, {}, {}), l);
  }
  const LabelDecl* label = cast<GotoStmt>(s)->getLabel();
  NodeId node = add(Op::AstGoto, l, {Literal::string(label->getName().str())}, {});
  return cleanups_.empty() ? node : leave_scopes(label_depth(label, where), node, l);
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
    case Stmt::WhileStmtClass:
    case Stmt::DoStmtClass:
    case Stmt::ForStmtClass: return loop(s);
    case Stmt::BreakStmtClass:
    case Stmt::ContinueStmtClass:
    case Stmt::GotoStmtClass: return jump(s);
    case Stmt::ReturnStmtClass: return return_statement(cast<ReturnStmt>(s));
    case Stmt::SwitchStmtClass: return switch_statement(cast<SwitchStmt>(s));
    case Stmt::CaseStmtClass:
    case Stmt::DefaultStmtClass:
    case Stmt::LabelStmtClass: return labelled(s);
    case Stmt::AttributedStmtClass: return statement(cast<AttributedStmt>(s)->getSubStmt());
    case Stmt::IndirectGotoStmtClass: return computed_goto(cast<IndirectGotoStmt>(s));
    case Stmt::GCCAsmStmtClass: return asm_statement(cast<GCCAsmStmt>(s));
    case Stmt::MSAsmStmtClass: unsupported(where, "Microsoft-style inline assembly");
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
    NodeId cond = arm_hint(condition(s->getCond()), s->getThen(), s->getElse(), loc(s->getBeginLoc()));  // expect.cpp
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
      if (switches_.empty()) unsupported(where, "case label outside a switch");
      Scalar t = switches_.back();
      auto value_of = [&](const Expr* e) {
        llvm::APSInt v = e->EvaluateKnownConstInt(ctx_).extOrTrunc(vtype_bits(t.vt));
        v.setIsSigned(t.is_signed);
        return v;
      };
      llvm::APSInt low = value_of(c->getLHS());
      llvm::APSInt high = c->caseStmtIsGNURange() ? value_of(c->getRHS()) : low;
      // A GNU case range `case LOW ... HIGH:` is one ast:case per value
      // (none when HIGH < LOW, as in gcc), innermost the highest; a range
      // of more values is a label that a test before the switch jumps to
      // (switch_statement).
      constexpr uint64_t kMaxRange = 65536;
      if (high >= low && (high - low).getZExtValue() >= kMaxRange) {
        std::string name = ".case_range." + std::to_string(wide_range_count_++);
        wide_ranges_.back().push_back({name, low, high});
        inner = add(Op::AstLabel, l, {Literal::string(name)}, {inner});
        continue;
      }
      for (llvm::APSInt v = high; high >= low && v >= low; --v) {
        Literal lit = t.is_signed ? Literal::integer(v.getSExtValue()) : Literal::unsigned_integer(v.getZExtValue());
        inner = add(Op::AstCase, l, {std::move(lit)}, {inner});
        if (v == low) break;
      }
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
  if (Types::is_int128(cond->getType())) unsupported(cond->getBeginLoc(), "switch on a 128-bit integer");
  Scalar t = scalar(cond);
  NodeId value = rvalue(cond);
  switches_.push_back(t);
  wide_ranges_.emplace_back();
  break_depths_.push_back(cleanups_.size());
  NodeId body = statement_or_nop(s->getBody(), l);
  break_depths_.pop_back();
  switches_.pop_back();
  std::vector<WideRange> ranges = std::move(wide_ranges_.back());
  wide_ranges_.pop_back();
  if (ranges.empty()) return add(Op::AstSwitch, l, {Literal::string(vtype_name(t.vt))}, {value, body});
  // Wide case ranges: the value is kept, and each range is tested first,
  // `(unsigned)(value - LOW) <= HIGH - LOW`, jumping to its statement's
  // label; clang has checked that no case value falls in two labels and
  // that the jump enters no variable's scope, as for the case label.
  std::vector<NodeId> out;
  NodeId kept = hold(t.vt, value, out, l);
  for (const WideRange& r : ranges) {
    llvm::APSInt span = r.high - r.low;
    NodeId offset_in = op("sub", t.vt, l, load(t.vt, false, kept, l), constant(t, r.low, l));
    NodeId inside = op("ule", t.vt, l, offset_in, constant({t.vt, false}, span, l));
    out.push_back(add(Op::AstIf, l, {}, {inside, add(Op::AstGoto, l, {Literal::string(r.label)}, {})}));
  }
  out.push_back(add(Op::AstSwitch, l, {Literal::string(vtype_name(t.vt))}, {load(t.vt, false, kept, l), body}));
  return block(out, l);
}

// A return leaves every scope: the value is computed, then the pending
// cleanups run (cleanups.cpp), then the function returns.
NodeId FunctionBuilder::return_statement(const ReturnStmt* s) {
  Loc l = loc(s->getBeginLoc());
  const Expr* value = s->getRetValue();
  std::vector<NodeId> list;
  NodeId result = kNone;
  if (!value) {
  } else if (return_address_ != kNone) {  // a struct or union result: copy it through the hidden pointer
    QualType t = fd_->getReturnType();
    SourceLocation where = value->getExprLoc();
    NodeId dst = load(VType::Ptr, false, return_address_, l);
    list.push_back(Types::is_int128(t) ? int128_store(dst, object(value), l)
                                       : copy(types_.size(t, where), types_.align(t), dst, object(value), l));
  } else if (fd_->getReturnType()->isVoidType()) {  // `return f();` in a void function (GNU)
    list.push_back(discard(value, true));
  } else if (cleanups_.empty() && !instrumented_) {
    result = rvalue(value);
  } else {  // keep the value while the cleanups and the profiling hook run
    Reused kept = reuse(rvalue(value), scalar(value).vt, l);
    list.push_back(kept.first);
    result = again(kept, l);
  }
  run_cleanups(0, l, list);
  if (instrumented_) list.push_back(profile_call(false, l));
  list.push_back(add(Op::AstReturn, l, {}, result == kNone ? InputList{} : InputList{result}));
  return statements(list, l);
}

NodeId FunctionBuilder::declarations(const DeclStmt* s) {
  std::vector<NodeId> list;
  for (const Decl* d : s->decls()) {
    if (const auto* vd = dyn_cast<VarDecl>(d)) {
      list.push_back(local_variable(vd));
      push_cleanup(vd);
    } else if (const auto* td = dyn_cast<TypedefNameDecl>(d)) {
      types_.check(td->getUnderlyingType(), td->getLocation());
      if (td->getUnderlyingType()->isVariablyModifiedType())
        evaluate_vla_sizes(td->getUnderlyingType(), list, td->getLocation());
    }
  }
  return statements(list, loc(s->getBeginLoc()));
}

}  // namespace pl::c2ast
