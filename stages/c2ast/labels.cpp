// labels.cpp - GNU C labels as values and computed goto (`&&label`,
// `goto *p`, label differences in static initializers), issue 19.
//
// The representation. The labels of a function f whose address is taken
// anywhere in f (an `&&L` in its body, its static locals' initializers
// included) are numbered 1, 2, ... in source order (address_taken_labels());
// `&&L` is the address of f's symbol plus L's number: `ast:op add ptr
// (ast:symaddr f) (ast:const i64 k)`. So a label's address is a link-time
// constant (a relocation `f + k` in a static initializer such as
// `static void *tbl[] = {&&a, &&b}`), the difference of two labels of one
// function is the integer constant k_a - k_b (`static const int off[] =
// {&&a - &&b}`), and label addresses of different functions never compare
// equal (each function's are inside its own code, as a function with k
// address-taken labels is longer than k bytes). Arithmetic on them (`&&base
// + off[i]`, the dispatch of CPython's and Lua's interpreters and of
// c-torture's comp-goto-1) is ordinary pointer arithmetic.
//
// `goto *p` becomes a chain of tests of the label number, `p - f` (kept in
// a temporary): `if (n == 1) goto L1; else if (n == 2) goto L2; ...`, one
// plain `ast:goto` per address-taken label (through the cleanups of the
// scopes it leaves, as a goto does); the last label is the final else (a
// `goto *p` to anything but one of f's labels is undefined, gcc's manual
// says). An if chain, not an ast:switch, because a computed goto may sit in
// a statement expression, where case labels may not. (A `goto *p` in a
// function that takes no label's address is refused, by clang itself and
// again here.) Everything below c2ast
// sees ordinary ifs, gotos and pointer arithmetic, so computed goto
// works through every level and in pipe-run without an IR opcode of its
// own.
//
// Inlining. gcc inlines a function that takes label addresses, and each
// inlined copy's labels are labels of the caller, with addresses of their
// own (c-torture's 990208-1 stores `&&here` of one inline function from two
// callers and expects two different addresses). sonopt's inline renames a
// copy's `symaddr callee + k` (k >= 1: in the callee's own code that is
// only ever a label's address) to `symaddr caller + base + k`, base above
// every label number the caller uses (stages/sonopt/inline.cpp, "Label
// addresses"). What that renaming cannot follow, gcc does not inline
// either (tree-inline.cc, copy_forbidden and inline_forbidden_p): a
// function with a computed goto (its chain subtracts the callee's own
// address) and one that stores a label's address in a static initializer
// (the relocation f + k stays the callee's). Such a function gets the
// noinline hint (labels_forbid_inlining(), called by FunctionBuilder).
//
// Departure from gcc: gcc's label values are code addresses and its
// dispatch one indirect jump (`jmp *reg`); ours is a compare chain, as
// ast2cfg makes of a switch (linear in the number of address-taken labels).
// The value of `&&L` is only good for computed goto, comparison and
// arithmetic with other label values (gcc's documented uses): calling it or
// reading through it is undefined, as with gcc.
//
// Next (issue 19, not done): one indirect jump. The plan: (1) an opcode
// `labeladdr f k` for `&&L` (so the inliner renames a node that says what it
// is, not the pattern symaddr + k, and a verifier rule can check that it
// names its own function); (2) a terminator `ijump` (son: a tuple of one
// control per address-taken label, read through proj k, as `if` through
// proj 0/1; cfg: a block with one successor per label; x64: `x64:ijump`,
// `jmp *reg`); (3) each address-taken label gets a landing block whose only
// predecessor is the ijump (no ijump edge is critical: regalloc-x64's phi
// moves go into the landing block, son2cfg never splits one), tagged with
// the label's number k, a name that survives every renumbering (a block
// index or a node id does not), and labeladdr f k resolves to the landing
// block tagged k; (4) codegen-x64 emits the tag as a local code label
// (`.Lf$k`), a data relocation f + k becomes one to that label (relocations
// need a kind for a function's local code labels), and a label difference
// in a static initializer a difference the assembler resolves (k_a - k_b
// is then no longer the value); pipe-run maps f + k back to the tagged
// block; (5) verifier: every ijump successor is a landing block with a
// distinct tag, each landing block's only predecessor is the ijump (rules
// U, V, W); (6) sonopt: gvn and dce as for `if`; simplify-cfg folds an
// ijump on a known labeladdr into a jump; inline keeps refusing a function
// with an ijump, as gcc; a landing block stays while its labeladdr lives.
// `asm goto` is the same multi-successor terminator with an asm in front.
#include "c2ast.h"

#include <clang/AST/RecursiveASTVisitor.h>

namespace pl::c2ast {

using namespace clang;

namespace {

// Does the body hold a computed goto, or a label's address in the
// initializer of a static local? (The function is then never inlined.)
class InliningForbidden : public RecursiveASTVisitor<InliningForbidden> {
 public:
  bool VisitIndirectGotoStmt(IndirectGotoStmt*) {
    found = true;
    return false;
  }
  bool VisitVarDecl(VarDecl* v) {
    if (v->isStaticLocal() && v->getInit() && takes_label_address(v->getInit())) found = true;
    return !found;
  }
  bool found = false;

 private:
  static bool takes_label_address(Stmt* s) {
    struct Finder : RecursiveASTVisitor<Finder> {
      bool found = false;
      bool VisitAddrLabelExpr(AddrLabelExpr*) {
        found = true;
        return false;
      }
    } finder;
    finder.TraverseStmt(s);
    return finder.found;
  }
};

class AddressTakenLabels : public RecursiveASTVisitor<AddressTakenLabels> {
 public:
  explicit AddressTakenLabels(std::vector<const LabelDecl*>& out) : out_(out) {}
  bool VisitAddrLabelExpr(AddrLabelExpr* e) {
    const LabelDecl* label = e->getLabel();
    if (seen_.insert(label).second) out_.push_back(label);
    return true;
  }

 private:
  std::vector<const LabelDecl*>& out_;
  std::unordered_set<const LabelDecl*> seen_;
};

}  // namespace

// (Declared where it is called, in function.cpp.)
bool labels_forbid_inlining(const FunctionDecl* fd) {
  if (!fd->getBody()) return false;
  InliningForbidden visitor;
  visitor.TraverseStmt(fd->getBody());
  return visitor.found;
}

const std::vector<const LabelDecl*>& ModuleBuilder::address_taken_labels(const FunctionDecl* fd) {
  fd = fd->getDefinition() ? fd->getDefinition() : fd;
  auto [it, fresh] = labels_.try_emplace(fd);
  if (fresh && fd->getBody()) AddressTakenLabels(it->second).TraverseStmt(fd->getBody());
  return it->second;
}

const FunctionDecl* ModuleBuilder::label_function(const LabelDecl* label, SourceLocation use) {
  const auto* fd = dyn_cast_or_null<FunctionDecl>(label->getDeclContext());
  if (!fd) unsupported(use, "address of a label outside a function");
  return fd;
}

int64_t ModuleBuilder::label_number(const LabelDecl* label, SourceLocation use) {
  const std::vector<const LabelDecl*>& labels = address_taken_labels(label_function(label, use));
  for (size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == label) return static_cast<int64_t>(i + 1);
  unsupported(use, "address of the label '" + label->getName().str() + "' not found in its function");
}

NodeId FunctionBuilder::label_address(const AddrLabelExpr* e) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  const LabelDecl* label = e->getLabel();
  std::string symbol = module_.symbol(module_.label_function(label, where), where);
  return offset(symaddr(symbol, l), static_cast<uint64_t>(module_.label_number(label, where)), l);
}

NodeId FunctionBuilder::computed_goto(const IndirectGotoStmt* s) {
  SourceLocation where = s->getGotoLoc();
  Loc l = loc(where);
  const std::vector<const LabelDecl*>& labels = module_.address_taken_labels(fd_);
  if (labels.empty()) unsupported(where, "computed goto in a function that takes no label's address");
  std::vector<NodeId> out;
  NodeId target = rvalue(s->getTarget());
  NodeId number = hold(VType::I64, op("sub", VType::I64, l, target, symaddr(module_.symbol(fd_, where), l)), out, l);
  auto jump_to = [&](const LabelDecl* label) {
    NodeId jump = add(Op::AstGoto, l, {Literal::string(label->getName().str())}, {});
    return cleanups_.empty() ? jump : leave_scopes(label_depth(label, where), jump, l);
  };
  // if (n == 1) goto L1; else if (n == 2) goto L2; ... else goto Llast;
  // (an if chain, not an ast:switch: a computed goto may be inside a
  // statement expression, where no case label may be)
  NodeId chain = jump_to(labels.back());
  for (size_t i = labels.size() - 1; i-- > 0;) {
    NodeId n = load(VType::I64, false, number, l);
    NodeId is = op("eq", VType::I64, l, n, constant(VType::I64, static_cast<int64_t>(i + 1), l));
    chain = add(Op::AstIf, l, {}, {is, jump_to(labels[i]), chain});
  }
  out.push_back(chain);
  return block(out, l);
}

}  // namespace pl::c2ast
