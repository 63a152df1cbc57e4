// pipe-diff - compare two modules as graphs (graph_diff.h): renumbered
// nodes, reordered nodes and reordered blocks are equal; what changed is
// printed with both sides' node lines and source locations.
//
//   pipe-diff A B [--ignore-locations] [--brief] [--no-verify]
//
// Functions are matched by name, data and externs by name. Exit status, as
// diff(1): 0 equal, 1 different, 2 trouble (bad usage, or an input that does
// not read or verify), 3 internal error.
#include <iostream>
#include <map>

#include "encoding/format.h"
#include "view/graph_diff.h"
#include "tool/tool.h"

namespace {

pl::Module read_checked(const std::string& path, bool verify) {
  pl::ByteSource src = pl::ByteSource::open(path);
  pl::Module m = pl::read_module(src);
  if (!verify) return m;
  pl::ModuleVerifier verifier(m.header);
  std::vector<pl::Diagnostic> diags = verifier.header_diagnostics();
  for (const pl::Function& fn : m.functions)
    for (pl::Diagnostic& d : verifier.function(fn)) diags.push_back(std::move(d));
  for (pl::Diagnostic& d : verifier.end()) diags.push_back(std::move(d));
  if (!diags.empty()) throw pl::VerifyFailed(diags, path);
  return m;
}

// Prints the differences; true if there are any.
bool diff_modules(const pl::Module& a, const pl::Module& b, const pl::DiffOptions& options, bool brief,
                  const std::string& name_a, const std::string& name_b) {
  std::string out;
  for (const std::string& line : pl::diff_headers(a.header, b.header)) out += "header: " + line + "\n";
  std::map<std::string, const pl::Function*> in_b;
  for (const pl::Function& fn : b.functions) in_b[fn.name] = &fn;
  std::map<std::string, bool> seen;
  for (const pl::Function& fa : a.functions) {
    seen[fa.name] = true;
    auto it = in_b.find(fa.name);
    if (it == in_b.end()) {
      out += "function '" + fa.name + "': only in A\n";
      continue;
    }
    pl::FunctionDiff d = pl::diff_functions(fa, *it->second, options);
    if (!d.equal()) out += "function '" + fa.name + "':\n" + pl::format_function_diff(fa, *it->second, d);
  }
  for (const pl::Function& fb : b.functions)
    if (!seen.count(fb.name)) out += "function '" + fb.name + "': only in B\n";
  if (!out.empty() && !brief) std::cout << "--- " << name_a << "\n+++ " << name_b << "\n" << out;
  return !out.empty();
}

}  // namespace

int main(int argc, char** argv) {
  pl::Tool tool({"pipe-diff", "Compare two modules as graphs (numbering and node/block order do not count).",
                 "  pipe-diff before.bin after.bin\n"
                 "  pipe-fmt --renumber a.txt -o b.txt; pipe-diff a.txt b.txt   # equal: exit 0",
                 /*has_output=*/false, /*has_input=*/false});
  std::string path_a, path_b;
  pl::DiffOptions options;
  bool brief = false;
  tool.cli().add_option("A", path_a, "First module")->required();
  tool.cli().add_option("B", path_b, "Second module")->required();
  tool.cli().add_flag("--ignore-locations", options.ignore_locations, "Source locations do not count");
  tool.cli().add_flag("-q,--brief", brief, "Print nothing; only the exit status tells");
  bool different = false;
  int status = tool.main(argc, argv, [&](pl::Tool& t) {
    pl::Module a = read_checked(path_a, t.verify_enabled());
    pl::Module b = read_checked(path_b, t.verify_enabled());
    different = diff_modules(a, b, options, brief, path_a, path_b);
  });
  if (status == 1) return 2;  // bad input is trouble, as in diff(1); 1 means "different"
  if (status == 0 && different) return 1;
  return status;
}
