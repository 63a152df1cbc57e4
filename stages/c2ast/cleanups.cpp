// cleanups.cpp - __attribute__((cleanup(f))): a call f(&v) at every exit
// from the scope of the local variable v (issue 17, item 3).
//
// GCC's meaning (gcc.texi, "Common Variable Attributes"; clang's CodeGen
// does the same): when v goes out of scope, f is called with v's address;
// several variables of one scope are cleaned up in reverse order of their
// declarations. Going out of scope is every way control leaves it:
//
//   * falling off the end of the compound statement that declares v (or of
//     the `for` whose init declares it),
//   * `break` and `continue` to a loop or switch outside the scope,
//   * `return`, after the returned value is computed (a scalar result is
//     kept in a hidden temporary while the cleanups run, so a cleanup
//     that writes v does not change what `return v;` returns; a struct
//     result is copied through the hidden pointer first),
//   * `goto` to a label outside the scope, forwards or backwards (a
//     backwards jump to before v's declaration leaves v's scope too).
//
// A variable length array is a pending cleanup too: its call is the
// `ast:stackrestore` of the stack saved before it (vla.cpp).
//
// Entering a cleanup variable's scope other than through its declaration
// (a goto or case label past it) is an error clang reports; longjmp runs
// no cleanups, as with gcc.
//
// The algorithm. c2ast's statement trees are converted in source order, so
// the variables whose cleanups are pending at a statement form a stack
// (`cleanups_`), pushed at each declaration and popped at the end of its
// scope. An exit to a target whose pending stack has depth d runs the calls
// for cleanups_[d..] innermost first, then jumps: the node for the exit
// becomes `ast:block (call..., jump)`. The depth of a loop or switch is
// recorded when it is entered (`break_depths_`, `continue_depths_`); the
// depth of a label is found by a walk over the function's statements that
// mirrors the conversion's scopes (label_depth(); run once, the first time
// a goto leaves a scope with pending cleanups). Clang's jump checks make
// the label's pending list a prefix of the goto's, which is checked.
//
// The call has the callee's own signature (f may take `void *` or a pointer
// to a compatible type; both are a `ptr` here) and its result, if any, is
// ignored; a callee returning a struct or union is refused by name.
#include "c2ast.h"

#include <clang/AST/Attr.h>

namespace pl::c2ast {

using namespace clang;

const FunctionDecl* cleanup_function(const VarDecl* vd) {
  const auto* a = vd->getAttr<CleanupAttr>();
  return a ? a->getFunctionDecl() : nullptr;
}

NodeId FunctionBuilder::cleanup_call(const VarDecl* vd, Loc l) {
  if (vla_saves_.count(vd)) return stack_restore(vd, l);
  const FunctionDecl* f = cleanup_function(vd);
  SourceLocation where = vd->getAttr<CleanupAttr>()->getLocation();
  QualType result = f->getReturnType();
  if (Types::is_aggregate(result)) unsupported(where, "cleanup function returning a struct or union");
  LiteralList literals{Literal::string(types_.result_type(result, where))};
  const auto* proto = f->getType()->getAs<FunctionProtoType>();
  if (!proto || proto->isVariadic()) {
    std::vector<std::string> params;
    if (proto)
      for (QualType p : proto->getParamTypes()) params.push_back(types_.param_type(p, where));
    if (!proto) params.push_back("ptr");
    literals.push_back(Literal::string(param_list_string(params, true)));
  }
  NodeId callee = symaddr(module_.symbol(f, where), l);
  NodeId call = add(Op::AstCall, l, std::move(literals), {callee, locals_.at(vd).var});
  return call;
}

void FunctionBuilder::push_cleanup(const VarDecl* vd) {
  if ((cleanup_function(vd) && locals_.count(vd)) || vla_saves_.count(vd)) cleanups_.push_back(vd);
}

void FunctionBuilder::run_cleanups(size_t depth, Loc l, std::vector<NodeId>& out) {
  for (size_t i = cleanups_.size(); i-- > depth;) out.push_back(cleanup_call(cleanups_[i], l));
}

void FunctionBuilder::end_scope(size_t depth, Loc l, std::vector<NodeId>& out) {
  run_cleanups(depth, l, out);
  cleanups_.resize(depth);
}

NodeId FunctionBuilder::leave_scopes(size_t depth, NodeId jump, Loc l) {
  if (cleanups_.size() <= depth) return jump;
  std::vector<NodeId> list;
  run_cleanups(depth, l, list);
  list.push_back(jump);
  return block(list, l);
}

size_t FunctionBuilder::label_depth(const LabelDecl* label, SourceLocation goto_at) {
  if (!label_cleanups_) label_cleanups_ = pending_cleanups_at_labels(fd_->getBody());
  auto found = label_cleanups_->find(label);
  if (found == label_cleanups_->end()) unsupported(goto_at, "goto to a label inside an expression");
  const std::vector<const VarDecl*>& at_label = found->second;
  bool prefix = at_label.size() <= cleanups_.size() &&
                std::equal(at_label.begin(), at_label.end(), cleanups_.begin());
  if (!prefix) unsupported(goto_at, "goto into the scope of a variable with a cleanup attribute or a variable length array");
  return at_label.size();
}

// The walk mirrors compound(), declarations() and the `for` case of
// statement_node(): a scope is a compound statement or a `for` statement;
// a declaration pushes its cleanup variables. Iterative (an explicit stack
// of enter and leave steps), as statements nest arbitrarily deep.
std::unordered_map<const LabelDecl*, std::vector<const VarDecl*>> pending_cleanups_at_labels(const Stmt* body) {
  std::unordered_map<const LabelDecl*, std::vector<const VarDecl*>> at_label;
  std::vector<const VarDecl*> pending;
  struct Step {
    const Stmt* enter = nullptr;  // null: leave a scope, back to `depth`
    size_t depth = 0;
  };
  std::vector<Step> steps{{body, 0}};
  while (!steps.empty()) {
    Step step = steps.back();
    steps.pop_back();
    if (!step.enter) {
      pending.resize(step.depth);
      continue;
    }
    const Stmt* s = step.enter;
    if (const auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* decl : d->decls())
        if (const auto* vd = dyn_cast<VarDecl>(decl);
            vd && vd->hasLocalStorage() && (cleanup_function(vd) || is_vla_type(vd->getASTContext(), vd->getType())))
          pending.push_back(vd);
      continue;  // initializers hold no labels c2ast accepts (statement expressions there are values)
    }
    if (const auto* l = dyn_cast<LabelStmt>(s)) at_label[l->getDecl()] = pending;
    if (isa<CompoundStmt>(s) || isa<ForStmt>(s)) steps.push_back({nullptr, pending.size()});
    size_t first_child = steps.size();
    for (const Stmt* child : s->children())
      if (child) steps.push_back({child, 0});
    std::reverse(steps.begin() + static_cast<std::ptrdiff_t>(first_child), steps.end());
  }
  return at_label;
}

}  // namespace pl::c2ast
