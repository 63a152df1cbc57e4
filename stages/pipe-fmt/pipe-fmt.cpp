// pipe-fmt - convert a module between the JSON, binary and printable
// encodings, optionally renumbering its nodes canonically (renumber.h) or
// keeping only some functions. It streams: one function in memory at a time.
#include <set>
#include <sstream>

#include "renumber.h"
#include "tool.h"

namespace {

std::set<std::string> split_names(const std::string& list) {
  std::set<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) names.insert(name);
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  pl::Tool tool({"pipe-fmt", "Convert a module between encodings (json, bin, text), print it, renumber it.",
                 "  pipe-fmt examples/formats/loop.json -f text          # print\n"
                 "  pipe-fmt loop.txt -f bin -o loop.bin                 # text -> binary\n"
                 "  c2ast f.c | ast2cfg | pipe-fmt -f json --renumber     # inspect a stage"});
  bool renumber = false;
  std::string only;
  tool.cli().add_flag("--renumber", renumber, "Renumber nodes canonically (blocks in order; defs before uses)");
  tool.cli().add_option("--only", only, "Keep only these functions (comma-separated names)");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    std::set<std::string> keep = split_names(only);
    pl::ModuleReader& in = t.open_input();
    t.open_output(in.header());
    pl::Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      if (!keep.empty() && !keep.count(fn.name)) continue;
      if (renumber) pl::renumber_canonical(fn);
      t.write(fn);
    }
    t.finish_output();
  });
}
