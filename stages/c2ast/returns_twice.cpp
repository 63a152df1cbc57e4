// returns_twice.cpp - functions that call setjmp and the other functions
// that may return twice (issue 19).
//
// A call to setjmp returns a second time when longjmp is called with its
// buffer, with the callee-saved registers and stack pointer setjmp saved and
// every other register clobbered; the compiler's view of the function (its
// SSA values, their registers and spill slots, what its optimizer proved
// about memory) does not include that second return. C (7.13.2.1) still
// guarantees the values of the locals that are volatile or not modified
// between the setjmp and the longjmp.
//
// Which callees return twice: those with __attribute__((returns_twice))
// (clang gives setjmp, _setjmp, sigsetjmp, __sigsetjmp, savectx, vfork and
// getcontext the attribute as library builtins), and, as gcc's
// special_function_p does, any function named setjmp, sigsetjmp, savectx,
// vfork, getcontext or qsetjmp after dropping a leading `_` or `__`, and
// gcc's __builtin_setjmp (vla.cpp, whose receiver is reached with every
// register but rbp and rsp clobbered, as longjmp's). A call
// through a function pointer is not recognized (nor is it by gcc unless the
// callee is known).
//
// What a function that calls one gets (the approach gcc's manual calls the
// safe one, and the brief's "every local's address taken"):
//   - every read and write of its locals is volatile (FunctionBuilder::load,
//     store, bitload, bitstore when the address is a local variable's,
//     directly or plus offsets): no local lives in a register, ast2cfg
//     keeps each one in a stackslot and no optimizer forwards, removes,
//     moves or scalar-replaces an access, so after the second return every
//     local holds what was last stored to it, modified or not;
//   - the function is never inlined (the `noinline` hint): inlined, its
//     setjmp would return twice into a caller whose locals are in registers
//     (gcc does not inline such functions either).
// Values that are not locals (compiler temporaries inside one expression)
// never live across the call: C allows setjmp only as a whole expression
// statement, a whole controlling expression, or compared to a constant
// there (7.13.1.1).
#include "c2ast.h"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace pl::c2ast {

using namespace clang;

bool returns_twice(const FunctionDecl* fd) {
  for (const Decl* d : fd->redecls())
    if (d->hasAttr<ReturnsTwiceAttr>()) return true;
  if (!fd->getIdentifier()) return false;
  llvm::StringRef name = fd->getName();
  if (name.startswith("__"))
    name = name.drop_front(2);
  else if (name.startswith("_"))
    name = name.drop_front(1);
  return name == "setjmp" || name == "sigsetjmp" || name == "savectx" || name == "vfork" ||
         name == "getcontext" || name == "qsetjmp" || name == "builtin_setjmp";
}

namespace {

class ReturnsTwiceCalls : public RecursiveASTVisitor<ReturnsTwiceCalls> {
 public:
  bool VisitCallExpr(CallExpr* c) {
    if (const FunctionDecl* callee = c->getDirectCallee(); callee && returns_twice(callee)) found = true;
    return !found;
  }
  bool found = false;
};

}  // namespace

bool calls_returns_twice(const FunctionDecl* fd) {
  if (!fd->getBody()) return false;
  ReturnsTwiceCalls v;
  v.TraverseStmt(fd->getBody());
  return v.found;
}

bool FunctionBuilder::local_address(NodeId address) const {
  // A local's ast:var, or it plus or minus offsets (members, elements).
  for (int depth = 0; depth < 64; ++depth) {
    const Node& n = fn_.nodes[address];
    if (n.op == Op::AstVar) return true;
    if (n.op != Op::AstOp || n.inputs.size() != 2 || n.literals.size() < 2 || n.literals[1].kind() != Literal::Kind::String ||
        n.literals[1].as_string() != "ptr")
      return false;
    std::string_view name = n.literals[0].as_string();
    if (name != "add" && name != "sub") return false;
    // The pointer operand of `add ptr`: c2ast writes the base first, except
    // for `index + pointer` (arithmetic()), whose index is not an address.
    NodeId a = n.inputs[0], b = n.inputs[1];
    if (local_address(b)) return true;
    address = a;
  }
  return false;
}

}  // namespace pl::c2ast
