// sibling_calls.h - sibling calls (codegen-x64 --sibling-calls, which pipecc
// passes at -O2, never at -O0): `return f(args);` leaves the function by
// `jmp f` after the epilogue instead of `call f` + epilogue + `ret`, as gcc
// -O2 does (-foptimize-sibling-calls). The callee returns straight to our
// caller; the stack does not grow (mutual recursion runs in constant
// stack).
//
// Where it is decided, and why here: the ra-x64 graph keeps the ordinary
// x64:call and x64:ret (every stage, the verifier and pipe-run see the same
// call and return, which mean exactly what the jump does: a sibling call
// is a choice of machine code, not of meaning), and only the code
// generator knows the two things the jump needs that the earlier stages
// do not fix: which register holds the callee of an x64:callind (it must
// survive the epilogue) and what the frame holds. gcc also decides at
// expansion time (calls.cc), with the candidates marked earlier.
//
// An x64:ret becomes the jump of the x64:call or x64:callind C before it
// when, in one block (find_sibling_calls):
//   C, then only C's projs and restores of callee-saved registers (an
//   x64:reload of the prologue's save of an x64:entryreg into its own
//   register), then the x64:ret, whose memory input is C's memory and whose
//   value, if any, is C's own result in the same register class (rax: proj
//   1 with no xmm mask; xmm0: proj 3 with mask 1); the callee of an
//   x64:callind is not in a callee-saved register nor r11 (the epilogue
//   writes them; rax is kept off a variadic callee already).
// The restores then run before the callee instead of after it: they write
// only callee-saved registers, which hold nothing the call reads; the
// arguments are in caller-saved ones.
// The whole function keeps its calls when the callee could see or need its
// frame (gcc's conditions in tree-tailcall.cc and calls.cc, conservatively):
//   - a stack argument anywhere (an x64:outarg: the outgoing area is in the
//     frame the jump frees), a 16-byte vector argument or result (x64:call's
//     vector pairs go through that area too), a dynamic stack (x64:alloca,
//     x64:stacksave);
//   - the address of a stack slot or of an incoming stack argument used as
//     a value (an x64:lea of an x64:stackslot or x64:argslot, or one read
//     by anything but a memory operand): a callee could be handed a
//     pointer into the frame (a local's address, a va_list, a by-value
//     aggregate's copy); a struct result the callee would build in our
//     frame is such an address too;
//   - a call to setjmp, sigsetjmp, savectx, vfork or getcontext (leading
//     underscores aside: gcc's returns-twice names): a longjmp back into
//     this activation needs its frame while a callee runs;
//   - the function is stack-protected (the canary's check would have to
//     run before the jump; gcc does that, we keep the call).
// A call whose result is converted, stored or otherwise used before the
// return (an sret result stored from rax/rdx, a _Bool's `and 1`, an x87
// result's fstpt) has instructions between it and the x64:ret and stays a
// call.
#pragma once

#include <unordered_map>

#include "ir/ir.h"

namespace pl::x64 {

// x64:ret node -> the x64:call/x64:callind it jumps to instead, for the
// function (level ra-x64) as it will be emitted.
std::unordered_map<NodeId, NodeId> find_sibling_calls(const Function& fn);

}  // namespace pl::x64
