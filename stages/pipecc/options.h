// options.h - pipecc's command line: what cc accepts that build systems use.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pl::pipecc {

enum class Mode { Link, Compile /* -c */, Assemble /* -S */, Preprocess /* -E */ };

struct Options {
  Mode mode = Mode::Link;
  std::string output;                      // -o; empty = cc's default
  int opt_level = 0;                       // -O0 .. -O3 (-Os counts as 2)
  bool debug = false;                      // -g
  std::vector<std::string> frontend_args;  // -I -D -U -std= -w, passed to c2ast (and cc -E)
  std::vector<std::string> link_args;      // -L -l -Wl, -pthread -static -shared, in order
  std::vector<std::string> inputs;         // files, in order
  bool print_only = false;                 // -###
  std::optional<std::string> save_temps;   // --save-temps[=DIR] ("" = next to the output)
  std::string print_after;                 // --print-after=STAGE
  std::string stop_after;                  // --stop-after=STAGE
  std::string view;                        // --view=FILE.html: pipe-view's page of the compile
  bool verbose = false;                    // -v: print each pipeline before running it
  bool verify_inputs = false;              // --verify-inputs: stages check their input too
};

// Parses argv (without argv[0]). Throws UsageError on an unknown option or a
// missing argument, naming the option.
Options parse_options(const std::vector<std::string>& args);

extern const char* const kUsage;

}  // namespace pl::pipecc
