// passes.h - the entry points of sonopt's passes (one file each, named after
// the pass) and the pieces several passes share. The pass table that
// declares them (order, triggers, -O levels) is in sonopt.cpp.
//
// Every entry point takes one son-level function and the module header and
// returns the number of changes it made (0: the function is unchanged, byte
// for byte).
#pragma once

#include <array>
#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "graph.h"
#include "ir/ir.h"
#include "tool/pass_manager.h"

namespace pl::sonopt {

size_t idealize(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t gvn(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t load_forward(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t split_copy(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t scalar_replace(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t dead_store(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t libcalls(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t heap_to_stack(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t printf_fold(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope);
size_t licm(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope);
size_t loop_idiom(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope);
size_t iv_reduce(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t exit_values(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t unroll(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t unroll_partial(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t vectorize(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t tail_recurse(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t inline_recursive(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t inline_calls(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope);
size_t const_call(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope);
size_t constant_p(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope);
size_t if_convert(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t implied_conds(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t sccp(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t simplify_cfg(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t dce(Function& fn, const ModuleHeader& header, FunctionCache& cache);
size_t test_miscompile(Function& fn, const ModuleHeader& header, FunctionCache& cache);

// simplify_cfg.cpp: an `if`'s live projs, proj 0 (true side) and proj 1
// (false side); kNone for a side it has not.
std::array<NodeId, 2> if_projs(const Graph& g, NodeId branch);

// simplify_cfg.cpp: the empty side of an `if` behind its proj `p` (nothing
// hangs off p but the edge): the edge node a region lists (p itself, or a
// lone jump off p) and that region; {kNone, kNone} when the side is not
// empty.
std::pair<NodeId, NodeId> empty_side(const Graph& g, NodeId p);

// dce.cpp: removes what cannot run or matters to nothing, on a Graph other
// passes hold: unreachable blocks (an `if` on a constant reaches only one
// side), the region inputs and phi inputs of edges from them, every node
// that reaches no root (terminators, stores, calls, volatile accesses, and
// divisions that may trap, in reachable blocks), then turns each `if` on a
// constant into a `jump`. Returns the number of changes. `blocks`, when
// given, is g's SonCfg, built before edits that added, removed or rewired
// no control node (it saves building it again).
struct SonCfg;
size_t sweep_dead(Graph& g, const SonCfg* blocks = nullptr);

// inline.cpp: drops the internal functions no external function or data
// relocation reaches through the symbols functions name (a call, any
// symaddr); returns how many.
// `scope.changed` is carried over to the functions kept.
size_t drop_unreferenced(std::vector<Function>& fns, const ModuleHeader& header, ModuleScope& scope);

// inline.cpp, shared with inline-recursive: what keeps a function out of
// inlining (an alloca, frameaddress or returnaddress; no return at all),
// whether a call's arguments and result have the callee's types, the
// highest label number a function's label addresses use (`symaddr f + k`
// and the module's relocations f + k), and the splice of a copy of
// `callee` in place of `call` (the header of inline.cpp): the copy's label
// addresses are the caller's numbered after `labels`, which then counts
// them; returns where each callee node went (kNone: its returns).
bool has_alloca(const Function& fn);
bool has_return(const Function& fn);
bool arguments_fit(const Graph& g, NodeId call, const Function& callee);
int64_t last_label_number(const Function& fn, const ModuleHeader& header);
std::vector<NodeId> splice(Graph& g, NodeId call, const Function& callee, WalkMarks& marks, const std::string& caller,
                           int64_t& labels);

// const_call.cpp: the names of the module's pure functions (its header,
// step 1: no memory access of any kind, only calls to pure functions
// defined here). A pure function may still trap or run forever.
// The functions whose calls read and write no memory: those const_call
// proves so, and those declared `const` (hint const, on a definition that
// is not weak or on an extern).
std::set<std::string, std::less<>> pure_function_names(const std::vector<Function>& fns, const ModuleHeader& header);
// A fingerprint of a set of names (ModuleScope::facts): FNV-1a over them, in
// order, never 0.
uint64_t fingerprint(const std::set<std::string, std::less<>>& names);

// dce.cpp: whether nodes of this opcode are effects (dce's roots besides
// terminators and trapping divisions): stores, copies, calls, volatile
// accesses, va_start and va_arg.
bool is_effect(OpId op);
// dce.cpp: whether node n must run even if nothing reads it: an effect, or
// a division that may trap (dce's roots besides terminators).
bool must_run(const Graph& g, NodeId n);
// Whether a division node may trap (its divisor is not a constant that is
// neither 0 nor, for sdiv/srem, -1).
bool division_may_trap(const Graph& g, NodeId n);

}  // namespace pl::sonopt
