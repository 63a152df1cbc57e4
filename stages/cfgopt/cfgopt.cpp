// cfgopt - the optimizer of ordered blocks: reads a `cfg-x64` module (son2cfg's
// output), writes a `cfg-x64` module that means the same and jumps less.
// Seed 002's optional "optimizations on CFG" stage, between son2cfg and
// regalloc-x64 (pipecc runs it at -O1 and above).
//
// The passes are declared once, in pass_table() below, and scheduled by the
// same declarative pass manager as sonopt (common/tool/pass_manager.h, seed 003):
// -O0/-O1/-O2, --passes, --list-passes, --print-after, --print-changed,
// --verify-each, --bisect-limit, --stats, all described there; the tool's
// main is common/pass_manager's optimizer_main, shared with sonopt.
//
// The passes, in schedule order (one file each, named after the pass):
//   reuse-flags          a branch on a setcc'd boolean reads the flags of
//                        the compare that made it (-O2)
//   thread-jumps         an edge whose phi constants decide the next
//                        block's branch goes straight to its target (-O2)
//   loop-rotate          a loop whose header only tests a phi against zero
//                        is tested at the bottom, where the latch's
//                        arithmetic leaves the flags (-O2)
//   remove-empty-blocks  blocks holding only a jump are bypassed
//   merge-blocks         a block and its only successor, whose only
//                        predecessor it is, become one
//   peephole             jcc to one block -> jump, cmpi x, 0 -> test x, x,
//                        redundant zero extensions, flagsof of a lone
//                        and -> test
//   flags-from-arith     a test of an arithmetic result against zero goes:
//                        its user reads the flags the arithmetic left
//                        (x64:flagsof)
//   invert-branches      the likely successor falls through or is the
//                        taken one (Ball-Larus loop and return heuristics)
// and test-miscompile, a deliberately wrong pass for the bisect test.
//
// Every pass keeps the cfg-x64 contract (FORMAT.md section 3 C and 8: the
// dominance section exact, flags right before their only user), which
// --verify-each checks after every application. Edits go through
// cfg_edit.h, which removes unreachable blocks and dead nodes, renumbers in
// the old order and recomputes dominance, so a pass that changes nothing
// leaves the function byte-identical.
#include "tool/pass_manager.h"
#include "passes.h"
#include "tool/tool.h"

namespace pl::cfgopt {

namespace {

std::vector<PassDecl> pass_table() {
  return {
      {.name = "reuse-flags",
       .summary = "a re-test of a setcc'd boolean reads the flags of the compare that made it",
       .min_level = 2,
       .before = {"thread-jumps"},
       .triggers = {"thread-jumps", "peephole"},
       .function_pass = reuse_flags},
      {.name = "thread-jumps",
       .summary = "an edge whose phi constants decide the next block's jcc goes straight to its target",
       .min_level = 2,
       .before = {"remove-empty-blocks"},
       .triggers = {"remove-empty-blocks", "merge-blocks", "peephole"},
       .function_pass = thread_jumps},
      {.name = "loop-rotate",
       .summary = "a loop header that only tests a phi against zero moves its test to the latch, where the flags are free",
       .min_level = 2,
       .before = {"remove-empty-blocks"},
       .after = {"thread-jumps"},
       .triggers = {"flags-from-arith"},
       .function_pass = loop_rotate},
      {.name = "remove-empty-blocks",
       .summary = "edges into a block that only jumps go straight to its successor",
       .min_level = 1,
       .before = {"merge-blocks"},
       .triggers = {"thread-jumps", "merge-blocks", "peephole"},
       .function_pass = remove_empty_blocks},
      {.name = "merge-blocks",
       .summary = "a block ending in a jump absorbs its successor when it is that block's only predecessor",
       .min_level = 1,
       .before = {"peephole"},
       .triggers = {"thread-jumps"},
       .function_pass = merge_blocks},
      {.name = "peephole",
       .summary = "jcc to one block -> jump, cmpi x,0 -> test x,x, zero extensions of zero-extended values, "
                  "flagsof of a lone and -> test",
       .min_level = 1,
       .before = {"invert-branches"},
       .triggers = {"remove-empty-blocks", "merge-blocks"},
       .function_pass = peephole},
      {.name = "flags-from-arith",
       .summary = "test v,v after the add/and/... defining v -> x64:flagsof: the user reads the flags it left",
       .min_level = 1,
       .before = {"invert-branches"},
       .after = {"peephole"},
       .triggers = {"peephole"},
       .triggered_by = {"merge-blocks"},
       .function_pass = flags_from_arith},
      {.name = "invert-branches",
       .summary = "conditional jumps inverted so the likely successor falls through (or is the taken one)",
       .min_level = 1,
       .triggered_by = {"thread-jumps", "remove-empty-blocks", "merge-blocks", "peephole"},
       .function_pass = invert_branches},
      {.name = "test-miscompile",
       .summary = "deliberately wrong (the first jcc's condition is negated): for testing --bisect-limit",
       .min_level = PassDecl::kTestOnly,
       .function_pass = test_miscompile},
  };
}

}  // namespace

}  // namespace pl::cfgopt

int main(int argc, char** argv) {
  return pl::optimizer_main({"cfgopt", "The optimizer of ordered blocks (cfg-x64 -> cfg-x64).",
                             "  son2cfg f.son-x64 | cfgopt -O2 | regalloc-x64\n"
                             "  cfgopt f.cfg-x64 --passes=thread-jumps,merge-blocks --print-changed -f text\n"
                             "  cfgopt --list-passes"},
                            pl::cfgopt::pass_table(), pl::Level::CfgX64, argc, argv);
}
