// expect.cpp - branch probabilities from the C source (issue 19; FORMAT.md
// section 7, "Branch probabilities"; common/ir/probability.h).
//
// What gcc 12 predicts from the source, and c2ast writes as `ast:expect p
// v` around the value a condition tests (ast2cfg gives p to the branch
// that tests v, through `!`, `== 0`, `!= 0` and widening conversions):
//   - `__builtin_expect(e, c)` with a constant c: e == c with gcc's
//     builtin-expect-probability, 90% (predict.c's PRED_BUILTIN_EXPECT),
//     so e is non-zero with 90% when c is non-zero, 10% when c is 0 (the
//     kernel's likely(x), `__builtin_expect(!!(x), 1)`, and unlikely(x));
//     `__builtin_expect_with_probability(e, c, q)` with q instead of 90%
//     (clang has checked that q is a constant in [0, 1]); a c that is not
//     a constant predicts nothing (gcc's expr_expected_value gives up too);
//   - `__builtin_expect(e, c) == k` and `!=` with constants c and k (in
//     either order): the comparison holds with 90% when it holds for e ==
//     c, else with 10% (gcc folds the comparison of the expected value);
//     k == 0 needs nothing here: ast2cfg reads `== 0` of an ast:expect;
//   - an `if` whose arm cannot finish (its statements call a noreturn
//     function: abort, exit, __builtin_unreachable, __builtin_trap, a
//     function declared noreturn or _Noreturn) or calls a `cold` function
//     goes to that arm with gcc's PROB_VERY_UNLIKELY (0.04%: predict.def's
//     PRED_NORETURN and PRED_COLD_FUNCTION), the other way when it is the
//     else arm; both arms so: nothing. Only calls that are statements of
//     the arm itself (or its return value) count, not calls under another
//     condition: gcc's predictor marks the blocks that the call
//     post-dominates, the same set for such straight-line arms.
// Departures: gcc combines several predictors on one branch (Dempster-
// Shafer); c2ast writes one, the outermost ast:expect around the tested
// value winning in ast2cfg, an explicit one over the noreturn/cold arms. No
// hint for the loop heuristics (Ball-Larus' loop and return predictors are
// cfgopt's invert-branches) nor for switch.
#include "c2ast.h"

#include <clang/AST/Attr.h>
#include <clang/Basic/Builtins.h>

#include "ir/probability.h"

namespace pl::c2ast {

using namespace clang;

namespace {

// gcc's PROB_VERY_UNLIKELY: REG_BR_PROB_BASE / 2000 - 1 of 10000.
constexpr uint32_t kProbVeryUnlikely = 858993;  // 0.0004 * 2^31

const CallExpr* expect_call(const Expr* e, const ASTContext& ctx) {
  const auto* c = dyn_cast<CallExpr>(e->IgnoreParenImpCasts());
  if (!c) return nullptr;
  const FunctionDecl* f = c->getDirectCallee();
  if (!f) return nullptr;
  unsigned id = f->getBuiltinID();
  if (id == 0 || builtin_family(ctx.BuiltinInfo, id) != BuiltinFamily::Expect) return nullptr;
  return c;
}

// The probability that `__builtin_expect...(e, c, ...)` finds e == c
// (gcc's 90%, or the given one), if c is a constant.
std::optional<uint32_t> expect_hit(const CallExpr* c, const ASTContext& ctx, llvm::APSInt& expected) {
  Expr::EvalResult r;
  if (c->getNumArgs() < 2 || !c->getArg(1)->EvaluateAsInt(r, ctx)) return std::nullopt;
  expected = r.Val.getInt();
  if (c->getNumArgs() < 3) return kProbLikely;
  llvm::APFloat q(0.0);
  if (!c->getArg(2)->EvaluateAsFloat(q, ctx)) return std::nullopt;
  bool lost = false;
  q.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return probability_from_fraction(q.convertToDouble());
}

}  // namespace

NodeId FunctionBuilder::expect_builtin(const CallExpr* c) {
  Loc l = loc(c->getExprLoc());
  NodeId value = rvalue(c->getArg(0));
  // c is evaluated for its effects only (q is a constant: clang checks it).
  NodeId effects = c->getArg(1)->HasSideEffects(ctx_) ? discard(c->getArg(1), false) : kNone;
  llvm::APSInt expected;
  if (std::optional<uint32_t> hit = expect_hit(c, ctx_, expected)) {
    uint32_t p = expected.getBoolValue() ? *hit : invert_probability(*hit);
    value = add(Op::AstExpect, l, {Literal::integer(p)}, {value});
  }
  return seq(effects, value, l);
}

std::optional<uint32_t> FunctionBuilder::expected_comparison(const BinaryOperator* b) {
  if (b->getOpcode() != BO_EQ && b->getOpcode() != BO_NE) return std::nullopt;
  const Expr* side[2] = {b->getLHS(), b->getRHS()};
  for (int i = 0; i < 2; ++i) {
    const CallExpr* c = expect_call(side[i], ctx_);
    Expr::EvalResult k;
    if (!c || side[1 - i]->HasSideEffects(ctx_) || !side[1 - i]->EvaluateAsInt(k, ctx_)) continue;
    llvm::APSInt expected;
    std::optional<uint32_t> hit = expect_hit(c, ctx_, expected);
    if (!hit) return std::nullopt;
    llvm::APSInt kv = k.Val.getInt();
    if (kv.isZero()) return std::nullopt;  // ast2cfg reads `== 0` and `!= 0` of the ast:expect
    bool equal = llvm::APSInt::compareValues(expected.extend(128), kv.extend(128)) == 0;
    return equal == (b->getOpcode() == BO_EQ) ? *hit : invert_probability(*hit);
  }
  return std::nullopt;
}

NodeId FunctionBuilder::expect_value(NodeId v, std::optional<uint32_t> p, Loc l) {
  if (!p || v == kNone) return v;
  return add(Op::AstExpect, l, {Literal::integer(*p)}, {v});
}

namespace {

bool cold_callee(const FunctionDecl* f) {
  if (!f) return false;
  if (f->isNoReturn() || f->hasAttr<ColdAttr>()) return true;
  unsigned id = f->getBuiltinID();
  return id == Builtin::BI__builtin_unreachable || id == Builtin::BI__builtin_trap;
}

// Does statement s (an arm, or a statement of one) call a noreturn or cold
// function as a statement of its own, or in its return value?
bool cold_statement(const Stmt* s) {
  if (!s) return false;
  if (const auto* r = dyn_cast<ReturnStmt>(s)) s = r->getRetValue();
  const auto* e = dyn_cast_or_null<Expr>(s);
  if (!e) return false;
  e = e->IgnoreParenCasts();
  const auto* c = dyn_cast<CallExpr>(e);
  return c && cold_callee(c->getDirectCallee());
}

}  // namespace

bool FunctionBuilder::cold_arm(const Stmt* arm) {
  if (const auto* block = dyn_cast_or_null<CompoundStmt>(arm)) {
    for (const Stmt* s : block->body())
      if (cold_statement(s)) return true;
    return false;
  }
  return cold_statement(arm);
}

NodeId FunctionBuilder::arm_hint(NodeId cond, const Stmt* then, const Stmt* otherwise, Loc l) {
  bool cold_then = cold_arm(then), cold_else = otherwise && cold_arm(otherwise);
  // An explicit __builtin_expect on the condition wins (gcc's
  // PRED_BUILTIN_EXPECT is a first-match predictor).
  if (cold_then == cold_else || ast_branch_probability(fn_, cond)) return cond;
  return expect_value(cond, cold_then ? kProbVeryUnlikely : invert_probability(kProbVeryUnlikely), l);
}

}  // namespace pl::c2ast
