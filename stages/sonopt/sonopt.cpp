// sonopt - the sea-of-nodes optimizer: reads a `son` module, writes a `son`
// module that means the same and runs fewer nodes.
//
// The passes are declared once, in kPasses below (seed 003's "define
// compilation-pass"): name, the lowest -O level that runs it, what it must
// run before and after, what it triggers again when it changes something,
// and its entry point (one file per pass, named after it). The pass manager
// (common/tool/pass_manager.h) computes the schedule from these declarations and
// runs rounds to a fixpoint; every flag of it (-O, --passes, --list-passes,
// --print-after, --print-changed, --verify-each, --bisect-limit, --stats)
// is described there. Functions stream one at a time unless a scheduled pass
// needs the whole module (inline does, at -O1 and -O2); then each function gets the
// function passes as it arrives, on the machine's cores, and the module
// passes run once all are in (pass_manager.h, "run_module" and "Threads").
// A function's def-use lists and blocks are kept between applications that
// change nothing (graph.h, FunctionCache).
//
// The passes, in schedule order:
//   licm          whole module: loop-invariant loads and calls to pure
//                 functions leave their loop (-O2)
//   loop-idiom    whole module: a loop that stores one byte value over
//                 consecutive addresses becomes a memset call (-O2)
//   exit-values   values a loop only computes (counters, sums, pointers
//                 walked to the end) become closed forms after it, by scalar
//                 evolution (scev.h), and a loop left without effects whose
//                 trip count is known goes (-O2)
//   unroll        full unrolling of small loops with a constant trip count
//                 (-O2)
//   vectorize     innermost loops over arrays of i32, i64, f32, f64 whose
//                 trip count is a constant multiple of the lane count and
//                 whose accesses provably do not overlap: 16-byte vectors,
//                 2 or 4 iterations per trip (-O2; gcc's "very cheap" cost
//                 model; integer sums too, float ones never)
//   iv-reduce     induction-variable strength reduction, test replacement
//                 (-O2)
//   unroll-partial  small innermost loops with a constant trip count run
//                 their body 2 or 4 times per trip (-O2; after iv-reduce,
//                 so the copies step its pointers)
//                 (the loop passes come first so that the clean-up they
//                 trigger runs in the same round)
//   tail-recurse  a return of a self call, or of its result plus a value,
//                 loops back to the start with an accumulator (-O2)
//   printf-fold   whole module: printf, fprintf (and their _chk and va_list
//                 forms), fputs and sprintf of constant formats become puts,
//                 putchar, fputs, fputc, fwrite, memcpy or nothing, as gcc
//                 folds them (-O1)
//   idealize      constant folding (common/ir/eval.h), identities, canonical
//                 operand order, reassociation, strength reduction
//   gvn           global value numbering by hash-consing (seed 000)
//   libcalls      calls to C library functions by name (an extern, not
//                 defined here): strlen, strcmp, strncmp, memcmp, strchr,
//                 strrchr, memchr, abs, labs, llabs of constants fold;
//                 memcpy, memmove and memset of a constant size up to 32
//                 bytes, strcpy and stpcpy of short literals become a copy
//                 or stores (-O2)
//   heap-to-stack malloc and calloc whose address does not escape: deleted
//                 with their free when nothing reads them, else stack slots
//                 of up to 128 bytes (-O2), which
//   split-copy    copies between private slots become per-field loads and
//                 stores (-O2), so that
//   scalar-replace  private stack slots become values, per field (-O1, as
//                 gcc's -O1 runs SRA: a local array or struct read back
//                 after a call, c-torture's pure-1, is a value there)
//   load-forward  store-to-load forwarding, redundant loads (-O2)
//   dead-store    overwritten stores, stores to the frame before return (-O2)
//   implied-conds a branch on a condition a dominating branch on the same
//                 two operands decides becomes a branch on a constant;
//                 x / 2^k and x % 2^k where a dominating branch showed x's
//                 low k bits zero become ashr and 0
//   sccp          Wegman-Zadeck conditional constant propagation (-O2)
//   if-convert    an if whose empty sides only pick a merge's integer
//                 values becomes selects, cmov in the back end (-O2)
//   simplify-cfg  trivial phis, single-input regions, empty diamonds
//   dce           unreachable blocks, branches on constants, dead nodes
//   inline-recursive  a self-recursive function's remaining self calls
//                 become copies of its body, level by level (deeper loops
//                 first) up to 8 levels and a size budget, once (-O2; gcc's
//                 recursive inlining)
//   const-call    whole module: calls to pure functions with constant
//                 arguments evaluated at compile time (seed 000; -O2;
//                 before inline, so a call it can evaluate is not copied)
//   inline        whole module: what gcc inlines at the level: always_inline
//                 functions, small ones declared `inline`, internal ones
//                 whose copies cost no more than the body they let go
//                 (called once) at -O1, and any small function at -O2
//                 (then the function passes run again on the result)
//   constant-p    whole module: each __builtin_constant_p still open after
//                 inline's first application is 1 if its operand folds to a
//                 constant, else 0 (-O1 and -O2; idealize answers 1 for a
//                 constant operand; c2ast answers 0 at -O0)
// and test-miscompile, a deliberately wrong pass for the bisect test.
//
// Departure from seed 003: no visit: option (every pass here visits a
// function; a module pass would take them all), no print-before?/check-
// before? per pass (the flags apply to every pass), and a pass changing
// something triggers passes by name only (triggered-by: is the same edge
// written at the other end).
#include "tool/pass_manager.h"
#include "passes.h"
#include "tool/tool.h"

namespace pl::sonopt {

namespace {

std::vector<PassDecl> pass_table() {
  return {
      {.name = "inline",
       .summary = "whole module: always_inline, small `inline` and once-called internal functions (-O1, as gcc -O1), "
                  "any small function (-O2), under a budget",
       .min_level = 1,
       .after = {"dce"},
       .triggers = {"inline", "idealize", "gvn", "scalar-replace", "load-forward", "dead-store", "sccp", "simplify-cfg",
                    "dce"},
       .module_pass = inline_calls},
      {.name = "constant-p",
       .summary = "whole module: __builtin_constant_p (constant_p) answered once inlining is done: 1 if it folds, else 0",
       .min_level = 1,
       .after = {"inline"},
       .triggers = {"idealize", "gvn", "sccp", "if-convert", "simplify-cfg", "dce", "inline"},
       .module_pass = constant_p},
      {.name = "const-call",
       .summary = "whole module: calls to pure functions with constant arguments evaluated (cached, step budget)",
       .min_level = 2,
       .before = {"inline"},
       .after = {"dce"},
       .triggers = {"idealize", "gvn", "sccp", "simplify-cfg", "dce", "inline"},
       .triggered_by = {"idealize", "sccp"},
       .module_pass = const_call},
      {.name = "printf-fold",
       .summary = "whole module: printf/fprintf/fputs/sprintf of constant formats become puts, putchar, fputs, fwrite, memcpy",
       .min_level = 1,
       .before = {"idealize"},
       .triggers = {"idealize", "gvn", "libcalls", "simplify-cfg", "dce"},
       .triggered_by = {"inline", "idealize", "gvn", "sccp", "const-call"},
       .module_pass = printf_fold},
      {.name = "idealize",
       .summary = "constant folding, algebraic identities, canonical operands, reassociation, strength reduction",
       .min_level = 1,
       .before = {"gvn"},
       .triggers = {"gvn", "scalar-replace", "load-forward", "simplify-cfg", "dce"},
       .function_pass = idealize},
      {.name = "gvn",
       .summary = "global value numbering by hash-consing (pure nodes, phis, dominating loads and divisions)",
       .min_level = 1,
       .triggers = {"idealize", "scalar-replace", "load-forward", "simplify-cfg", "dce"},
       .function_pass = gvn},
      {.name = "libcalls",
       .summary = "C library calls by name: strlen/strcmp/memcmp/strchr/abs of constants folded, small memcpy/memset/strcpy inline",
       .min_level = 2,
       .before = {"split-copy"},
       .after = {"gvn"},
       .triggers = {"idealize", "gvn", "split-copy", "scalar-replace", "load-forward", "dead-store", "sccp",
                    "simplify-cfg", "dce"},
       .triggered_by = {"inline", "idealize", "gvn", "load-forward", "sccp", "const-call"},
       .function_pass = libcalls},
      {.name = "heap-to-stack",
       .summary = "malloc/calloc whose address does not escape: deleted with its free if unread, else a stack slot",
       .min_level = 2,
       .before = {"split-copy"},
       .after = {"libcalls"},
       .triggers = {"idealize", "gvn", "split-copy", "scalar-replace", "load-forward", "dead-store", "sccp",
                    "simplify-cfg", "dce"},
       .triggered_by = {"inline", "idealize", "gvn", "libcalls", "load-forward", "dead-store", "sccp", "dce"},
       .function_pass = heap_to_stack},
      {.name = "split-copy",
       .summary = "a copy between two private stack slots becomes a load and a store per field",
       .min_level = 2,
       .before = {"scalar-replace"},
       .after = {"gvn"},
       .triggers = {"scalar-replace", "load-forward", "dead-store"},
       // every pass that deletes code: a slot whose last other use went is
       // only now a candidate (csmith 81004: sccp folded a branch away, and a
       // second -O2 run split the copy the first left)
       .triggered_by = {"inline", "idealize", "gvn", "dead-store", "sccp", "simplify-cfg", "dce"},
       .function_pass = split_copy},
      {.name = "scalar-replace",
       .summary = "stack slots whose address never escapes become values, one per field (SSA over memory states)",
       .min_level = 1,
       .after = {"gvn"},
       // sccp: a slot's stores become values, and a constant stored before
       // a loop then reaches its phis, which only sccp's optimism resolves.
       .triggers = {"idealize", "gvn", "load-forward", "sccp", "simplify-cfg", "dce"},
       .function_pass = scalar_replace},
      {.name = "load-forward",
       .summary = "store-to-load forwarding and redundant loads, over base objects and offsets (volatile untouched)",
       .min_level = 2,
       .after = {"scalar-replace"},
       .triggers = {"idealize", "gvn", "dead-store", "sccp", "simplify-cfg", "dce"},
       .function_pass = load_forward},
      {.name = "dead-store",
       .summary = "stores overwritten before any read, stores to this frame's slots before a return (volatile untouched)",
       .min_level = 2,
       .after = {"load-forward"},
       .triggers = {"scalar-replace", "load-forward", "sccp", "dce"},
       .triggered_by = {"simplify-cfg"},
       .function_pass = dead_store},
      {.name = "licm",
       .summary = "whole module: loop-invariant loads no store of the loop may write, and pure calls, run once before the loop",
       .min_level = 2,
       .before = {"idealize"},
       .triggers = {"gvn", "load-forward"},
       .triggered_by = {"inline", "idealize", "gvn", "scalar-replace", "load-forward", "sccp", "simplify-cfg", "dce"},
       .module_pass = licm},
      {.name = "loop-idiom",
       .summary = "whole module: a loop storing one byte value over consecutive addresses becomes a memset call",
       .min_level = 2,
       .before = {"unroll", "iv-reduce", "idealize"},
       .after = {"licm"},
       .triggers = {"unroll", "idealize", "gvn", "load-forward", "dead-store", "sccp", "simplify-cfg", "dce"},
       .triggered_by = {"inline", "idealize", "gvn", "scalar-replace", "sccp", "simplify-cfg", "dce"},
       .module_pass = loop_idiom},
      {.name = "exit-values",
       .summary = "values a loop only computes become closed forms after it (scalar evolution); the loop goes",
       .min_level = 2,
       .before = {"unroll", "iv-reduce", "idealize"},
       .after = {"licm", "loop-idiom"},
       .triggers = {"idealize", "gvn", "sccp", "simplify-cfg", "dce"},
       .triggered_by = {"inline", "idealize", "gvn", "scalar-replace", "load-forward", "sccp", "simplify-cfg", "dce"},
       .function_pass = exit_values},
      {.name = "unroll",
       .summary = "loops of one body block with a constant trip count, T * size under a budget, fully unrolled",
       .min_level = 2,
       .before = {"iv-reduce", "idealize"},
       .after = {"licm"},
       .triggers = {"idealize", "gvn", "split-copy", "scalar-replace", "load-forward", "dead-store", "sccp",
                    "simplify-cfg", "dce"},
       .triggered_by = {"inline", "idealize", "gvn", "scalar-replace", "sccp", "simplify-cfg", "dce"},
       .function_pass = unroll},
      {.name = "vectorize",
       .summary = "innermost loops over arrays of i32/i64/f32/f64 with a trip count a multiple of the lanes: "
                  "16-byte vectors (SSE2), 2 or 4 iterations per trip",
       .min_level = 2,
       .before = {"iv-reduce", "unroll-partial", "idealize"},
       .after = {"licm", "loop-idiom", "exit-values", "unroll"},
       .triggers = {"idealize", "gvn", "licm", "sccp", "simplify-cfg", "dce"},
       .triggered_by = {"inline", "idealize", "gvn", "licm", "scalar-replace", "load-forward", "sccp", "simplify-cfg",
                        "dce"},
       .function_pass = vectorize},
      {.name = "iv-reduce",
       .summary = "an address base + i*size over a counter i becomes a pointer stepping by size*step; exit test on it",
       .min_level = 2,
       .before = {"idealize"},
       .after = {"licm"},
       .triggers = {"idealize", "gvn", "dce"},
       .triggered_by = {"inline", "idealize", "gvn", "licm", "scalar-replace", "sccp", "simplify-cfg", "dce"},
       .function_pass = iv_reduce},
      {.name = "unroll-partial",
       .summary = "innermost loops of one body with a constant trip count T: the body 2 to 16 times per trip (k | T)",
       .min_level = 2,
       .before = {"idealize"},
       .after = {"iv-reduce"},
       .triggers = {"idealize", "gvn", "scalar-replace", "load-forward", "dead-store", "sccp", "simplify-cfg", "dce"},
       .triggered_by = {"iv-reduce", "unroll", "inline", "sccp", "simplify-cfg"},
       .function_pass = unroll_partial},
      {.name = "tail-recurse",
       .summary = "a return of a self call (plus a value) loops back to the function's start, with an accumulator",
       .min_level = 2,
       .before = {"idealize"},
       .after = {"iv-reduce"},
       .triggers = {"idealize", "gvn", "load-forward", "sccp", "simplify-cfg", "dce", "unroll", "iv-reduce"},
       .triggered_by = {"inline", "sccp", "simplify-cfg", "dce"},
       .function_pass = tail_recurse},
      {.name = "inline-recursive",
       .summary = "a self-recursive function's self calls become copies of its body, up to 8 levels, once",
       .min_level = 2,
       // After the clean-up, so the copies are of a clean body, and after
       // tail-recurse, so the self calls it turns into a loop are not copied.
       .after = {"tail-recurse", "dce"},
       .triggers = {"idealize", "gvn", "scalar-replace", "load-forward", "dead-store", "sccp", "if-convert",
                    "simplify-cfg", "dce"},
       .function_pass = inline_recursive},
      {.name = "implied-conds",
       .summary = "a branch whose condition a dominating branch on the same two operands decides; "
                  "x / 2^k and x % 2^k exact where a dominating branch tested x's low bits",
       .min_level = 1,
       .before = {"sccp", "simplify-cfg"},
       .after = {"gvn"},
       .triggers = {"idealize", "gvn", "sccp", "simplify-cfg", "dce"},
       .triggered_by = {"idealize", "gvn", "sccp", "simplify-cfg", "dce"},
       .function_pass = implied_conds},
      {.name = "if-convert",
       .summary = "a branch whose empty sides only pick a merge's integer values becomes selects (cmov)",
       .min_level = 2,
       .before = {"simplify-cfg"},
       .after = {"sccp", "implied-conds"},
       .triggers = {"idealize", "gvn", "simplify-cfg", "dce"},
       // (any pass that takes a pinned node off a side can empty it: licm's hoisted loads, const-call's
       // folded calls, dead stores, forwarded loads, replaced slots)
       .triggered_by = {"idealize", "gvn", "scalar-replace", "load-forward", "dead-store", "sccp", "simplify-cfg",
                        "dce", "licm", "const-call", "inline"},
       .function_pass = if_convert},
      {.name = "sccp",
       .summary = "sparse conditional constant propagation (Wegman-Zadeck); folds branches, drops dead blocks",
       .min_level = 2,
       .after = {"gvn"},
       .triggers = {"idealize", "gvn", "scalar-replace", "load-forward", "simplify-cfg"},
       .function_pass = sccp},
      {.name = "simplify-cfg",
       .summary = "trivial phis, single-input regions, empty diamonds",
       .min_level = 1,
       .after = {"sccp"},
       .triggers = {"idealize", "gvn", "load-forward", "dce"},
       .function_pass = simplify_cfg},
      {.name = "dce",
       .summary = "unreachable blocks, branches on constants, nodes that reach no effect, return or control",
       .min_level = 1,
       .after = {"simplify-cfg"},
       .triggers = {"simplify-cfg", "scalar-replace"},
       .function_pass = dce},
      {.name = "test-miscompile",
       .summary = "deliberately wrong (the first add becomes a sub): for testing --bisect-limit",
       .min_level = PassDecl::kTestOnly,
       .function_pass = test_miscompile},
  };
}

}  // namespace

}  // namespace pl::sonopt

int main(int argc, char** argv) {
  return pl::optimizer_main({"sonopt", "The sea-of-nodes optimizer (son -> son).",
                             "  ssa2son f.ssa | sonopt -O2 | pipe-run\n"
                             "  sonopt f.son --passes=idealize,gvn --print-changed -f text\n"
                             "  sonopt --list-passes"},
                            pl::sonopt::pass_table(), pl::Level::Son, argc, argv);
}
