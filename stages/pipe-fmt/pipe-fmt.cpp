// pipe-fmt - convert a module between the JSON, binary and printable
// encodings, optionally renumbering its nodes canonically (renumber.h).
// It streams: one function in memory at a time.
#include "ir/renumber.h"
#include "tool/tool.h"

int main(int argc, char** argv) {
  pl::Tool tool({"pipe-fmt", "Convert a module between encodings (json, bin, text), print it, renumber it.",
                 "  pipe-fmt examples/formats/sum.txt -f json -o sum.json   # text -> JSON\n"
                 "  pipe-fmt sum.json -o sum.bin                             # -> binary (the default)\n"
                 "  pipe-fmt sum.bin                                         # print (text on a terminal)\n"
                 "  pipe-gen --seed 7 | pipe-fmt --renumber -f text          # in a pipe"});
  bool renumber = false;
  tool.cli().add_flag("--renumber", renumber, "Renumber nodes canonically (blocks in order; defs before uses)");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    pl::ModuleReader& in = t.open_input();
    t.open_output(in.header());
    pl::Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      if (renumber) pl::renumber_canonical(fn);
      t.write(fn);
    }
    t.finish_output();
  });
}
