// pipe-cgen - write a random C program of the kinds csmith never writes:
// recursion (accumulators, ?: and if forms, mutual, non-tail, several base
// cases, signed sums), loops with computed trip counts and early exits
// (break, continue, return, goto out of nested loops), calls through
// function pointers (tables, returned pointers, pointers in structs),
// variadic functions (va_list passed on, va_copy, calls through pointers,
// arguments on the stack, vsnprintf), switch-heavy code (dense, sparse,
// signed, characters, nested, in loops), deep struct copies (by value,
// returned, through pointers, in arrays and globals), programs split over
// several files or joined by `#include "part.c"` (unity builds), and GCC
// attributes (constructor, cleanup left by every kind of exit, alias, weak,
// section, aligned, packed, always_inline; --no-attributes leaves them out). The generator is generate.cpp (cgen.h).
//
//   pipe-cgen [--seed N] [-o FILE.c|-] [--groups N] [--files N [--unity]]
//             [--no KINDS | --only KINDS] [--no-attributes] [--print-sources]
//
// The program has no undefined behaviour (generate.cpp says how), always
// terminates in milliseconds, and prints a checksum of every value it
// computes after each group and at the end, like csmith's; gcc -O0, gcc -O2
// and gcc -fsanitize=undefined,address builds print the same
// (tests/test_cgen.py checks it on its seeds). The same options give the
// same bytes on every machine.
//
// Why our own: Debian packages no other C program generator than csmith
// (yarpgen, ldrgen, Orange are not packaged), csmith leaves exactly these
// constructs out, and a tool of the toolchain runs from pipe-fuzz without
// Python.
//
// With --files N (N > 1) the program is N files named after -o (prog.c,
// prog-2.c, ...); each group's functions live in one file and main calls
// each group's external entry. With --unity prog.c #includes the others and
// is the only file to compile. --print-sources prints the files to compile,
// one per line (for scripts and pipe-fuzz).
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cgen.h"
#include "encoding/io.h"
#include "tool/tool.h"

namespace {

// Sets the kinds named in the comma-separated `list` to `value`.
void set_kinds(pl::cgen::Features& f, const std::string& list, bool value) {
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (name == "recursion")
      f.recursion = value;
    else if (name == "loops")
      f.loops = value;
    else if (name == "pointers")
      f.pointers = value;
    else if (name == "varargs")
      f.varargs = value;
    else if (name == "switches")
      f.switches = value;
    else if (name == "structs")
      f.structs = value;
    else if (name == "attributes")
      f.attributes = value;
    else
      throw pl::UsageError("unknown kind '" + name +
                           "' (kinds: recursion, loops, pointers, varargs, switches, structs, attributes)");
  }
}

}  // namespace

int main(int argc, char** argv) {
  pl::Tool tool({.name = "pipe-cgen",
                 .summary = "Write a random C program without undefined behaviour of the kinds csmith never writes.",
                 .example = "  pipe-cgen --seed 7 -o prog.c && gcc prog.c && ./a.out\n"
                            "  pipe-cgen --seed 7 --files 3 -o dir/prog.c --print-sources | xargs pipecc -O2\n"
                            "  pipe-cgen --seed 7 --only recursion,loops --groups 20 | c2ast - | ast2cfg | ...\n"
                            "  pipe-fuzz --gen cgen --runs 100 -- pipecc -O2",
                 .has_output = true,
                 .has_input = false,
                 .module_input = false,
                 .formats = {"c"},
                 .formats_help = "Output: c (C source, the only choice)"});
  pl::cgen::Options options;
  std::string no, only;
  bool print_sources = false;
  tool.cli().add_option("--seed", options.seed, "Random seed")->capture_default_str();
  tool.cli()
      .add_option("--groups", options.groups, "Groups of functions (default: the seed picks 6 to 10)")
      ->check(CLI::Range(1u, 1000u));
  tool.cli()
      .add_option("--files", options.files, "Spread the program over N files (-o names them)")
      ->check(CLI::Range(1u, 16u))
      ->capture_default_str();
  tool.cli().add_flag("--unity", options.unity, "With --files: the main file #includes the others");
  auto* no_opt = tool.cli().add_option(
      "--no", no,
      "Kinds of group to leave out, comma-separated: recursion, loops, pointers, varargs, switches, structs, attributes");
  tool.cli().add_option("--only", only, "Only these kinds of group, comma-separated")->excludes(no_opt);
  tool.cli().add_flag("--attributes,!--no-attributes", options.features.attributes,
                      "Groups with GCC attributes (constructor, cleanup, alias, weak, section, aligned, packed, "
                      "always_inline, ...): on by default, like the kind `attributes` of --no and --only");
  tool.cli().add_flag("--indirect-variadic,!--no-indirect-variadic", options.features.indirect_variadic,
                      "Call variadic functions through pointers too (the default; --no-indirect-variadic: "
                      "only directly)");
  tool.cli().add_flag("--print-sources", print_sources, "Print the files to compile, one per line (needs -o)");
  return tool.main(argc, argv, [&](pl::Tool& t) {
    if (!no.empty()) set_kinds(options.features, no, false);
    if (!only.empty()) {
      pl::cgen::Features given = options.features;
      options.features = {false, false, false, false, false, false, false, given.indirect_variadic};
      set_kinds(options.features, only, true);
    }
    if (options.unity && options.files < 2) throw pl::UsageError("--unity needs --files 2 or more");
    bool to_stdout = t.output_path() == "-";
    if (to_stdout && (options.files > 1 || print_sources))
      throw pl::UsageError("--files and --print-sources need -o FILE.c (the files are named after it)");
    std::filesystem::path out = t.output_path();
    std::vector<pl::cgen::SourceFile> files;
    try {
      files = pl::cgen::generate_program(options, to_stdout ? "prog.c" : out.filename().string());
    } catch (const std::invalid_argument& e) {
      throw pl::UsageError(e.what());
    }
    // Parts first, the main file last: a failed run leaves no main file.
    std::vector<std::unique_ptr<pl::OutputFile>> written;
    for (size_t i = files.size(); i-- > 0;) {
      std::string path = to_stdout ? "-" : (out.parent_path() / files[i].name).string();
      written.push_back(std::make_unique<pl::OutputFile>(path));
      written.back()->write(files[i].text);
    }
    for (auto& w : written) w->commit();
    if (print_sources)
      for (const auto& f : files)
        if (f.compiled) std::cout << (out.parent_path() / f.name).string() << "\n";
  });
}
