// instrument.cpp - -finstrument-functions: calls to the profiling hooks at
// every entry and exit of a function, as gcc places them (issue 19).
//
// gcc's meaning (gcc.texi, "Program Instrumentation Options"): right after
// entry, an instrumented function calls
//     __cyg_profile_func_enter(void *this_fn, void *call_site)
// and right before each return
//     __cyg_profile_func_exit(void *this_fn, void *call_site)
// where this_fn is the function's own address and call_site its return
// address (`__builtin_return_address(0)`). The exit call comes after the
// returned value is computed (a scalar is kept in a temporary while it
// runs, as for cleanups; a struct result is copied out first) and after
// the cleanups of the scopes the return leaves; falling off the end of the
// body makes it too. A function that does not return (exit, longjmp)
// makes no exit call, as with gcc.
//
// Which functions: every function definition c2ast converts, except those
// with `__attribute__((no_instrument_function))` on any declaration, those
// defined in a file whose path contains one of the substrings of
// -finstrument-functions-exclude-file-list=, and those whose name contains
// one of the substrings of -finstrument-functions-exclude-function-list=
// (gcc matches both lists as substrings). gcc also instruments functions
// it inlines (the inlined body keeps its calls, with the inlined function's
// address): here the calls are part of the function's ast, so an inlined
// copy keeps them too; sonopt does not inline a function that reads its
// return address, so instrumented functions stay out of line, which gives
// the same calls with the same this_fn (only call_site, the caller's return
// address in gcc's inlined copy, differs).
#include "c2ast.h"

#include <clang/AST/Attr.h>

namespace pl::c2ast {

using namespace clang;

bool Instrumentation::instruments(const FunctionDecl* fd, const SourceManager& sm) const {
  if (!on) return false;
  for (const FunctionDecl* d : fd->redecls())
    if (d->hasAttr<NoInstrumentFunctionAttr>()) return false;
  std::string name = fd->getNameAsString();
  for (const std::string& s : exclude_functions)
    if (!s.empty() && name.find(s) != std::string::npos) return false;
  PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(fd->getLocation()));
  std::string file = p.isValid() ? p.getFilename() : "";
  for (const std::string& s : exclude_files)
    if (!s.empty() && file.find(s) != std::string::npos) return false;
  return true;
}

// __cyg_profile_func_enter or _exit (this function's address, its return address).
NodeId FunctionBuilder::profile_call(bool enter, Loc l) {
  const char* hook = enter ? "__cyg_profile_func_enter" : "__cyg_profile_func_exit";
  std::string callee = module_.profile_hook(hook);
  NodeId this_fn = symaddr(fn_.name, l);
  NodeId call_site = add(Op::AstReturnAddress, l, {}, {});
  return add(Op::AstCall, l, {Literal::string("void")}, {symaddr(callee, l), this_fn, call_site});
}

}  // namespace pl::c2ast
