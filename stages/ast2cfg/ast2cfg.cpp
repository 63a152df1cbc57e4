// ast2cfg - the ast level to the cfg level: the seed's "AST to SSA-less CFG".
//
// Reads an `ast` module (FORMAT.md, G), writes a `cfg` module with the same
// header (level cfg), one function at a time: each function is verified at
// the ast level, translated by lower_ast_function() (lower_ast.cpp: the
// algorithm, what lives in slots and what in memory, where this departs from
// the seed) and verified at the cfg level as it is written. Blocks come in
// reverse postorder, nodes numbered block by block (cfg_builder.h). No
// dominance section is written: cfg2ssa computes its own.
#include "lower_ast.h"
#include "tool/tool.h"

int main(int argc, char** argv) {
  pl::Tool tool({"ast2cfg", "Translate an ast module into a cfg module (blocks, ssa: slots, memory in slot 0).",
                 "  c2ast f.c | ast2cfg | cfg2ssa | ssa2son\n"
                 "  ast2cfg f.ast.txt -f text                # print the cfg of a hand-written ast module"});
  bool vars_in_memory = false;
  tool.cli().add_flag("--vars-in-memory", vars_in_memory,
                      "Keep every variable the debug section names in a stackslot (pipecc -g -O0)");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    pl::ModuleReader& in = t.open_input(pl::Level::Ast);
    pl::ModuleHeader out_header = in.header();
    out_header.level = pl::Level::Cfg;
    t.open_output(out_header);
    pl::Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      t.write(pl::lower_ast_function(fn, vars_in_memory));
    }
    t.finish_output();
  });
}
