// options.cpp - parsing pipecc's cc-compatible command line (options.h).
//
// Options are matched the way cc matches them: `-I DIR` and `-IDIR` are the
// same, `-Wl,a,b` goes to the linker, every `-W...` warning option is
// accepted (and dropped: the stages have no warnings to tune), `-f` options
// about code generation that we always satisfy (position-independent code)
// are accepted; anything else unknown is a usage error that names it.
#include "options.h"

#include <array>
#include <string_view>

#include "tool.h"

namespace pl::pipecc {

const char* const kUsage =
    "usage: pipecc [-c|-S|-E] [-O0|-O1|-O2|-O3|-Os] [-g] [-I DIR] [-D NAME[=V]] [-U NAME] [-std=STD] [-w] [-W...]\n"
    "              [-o OUT] FILE... [-L DIR] [-l LIB] [-Wl,ARGS]\n"
    "              [-###] [-v] [--save-temps[=DIR]] [--print-after=STAGE] [--stop-after=STAGE]\n"
    "              [--view=FILE.html] [--verify-inputs]\n"
    "\n"
    "Compiles C through the toolchain's stages, each its own process joined to the next by a pipe\n"
    "(c2ast | ast2cfg | cfg2ssa | ssa2son | sonopt | son-lower-x64 | son2cfg | cfgopt | regalloc-x64 |\n"
    "codegen-x64); .s files go to the assembler and .o, .a and libraries to the link, which the system's\n"
    "cc drives. -### prints the shell pipelines instead of running them.\n"
    "Each stage checks the module it writes against its level's contract; the next stage then skips\n"
    "checking it again (--no-verify-input) unless --verify-inputs is given.\n";

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// -f options that describe what we always do, or that do not change meaning.
constexpr std::array<std::string_view, 12> kAcceptedF = {
    "-fPIC", "-fpic", "-fPIE", "-fpie", "-fno-common", "-fno-strict-aliasing", "-fno-omit-frame-pointer",
    "-fomit-frame-pointer", "-fwrapv", "-fno-builtin", "-fdiagnostics-color=never", "-fno-exceptions"};

struct Parser {
  const std::vector<std::string>& args;
  size_t i = 0;
  Options o;

  // The argument of `-X ARG` / `-XARG`.
  std::string value(std::string_view flag) {
    const std::string& a = args[i];
    if (a.size() > flag.size()) return a.substr(flag.size());
    if (i + 1 >= args.size()) throw UsageError("missing argument to '" + std::string(flag) + "'");
    return args[++i];
  }

  void option(const std::string& a) {
    if (a == "-c") o.mode = Mode::Compile;
    else if (a == "-S") o.mode = Mode::Assemble;
    else if (a == "-E") o.mode = Mode::Preprocess;
    else if (starts_with(a, "-o")) o.output = value("-o");
    else if (a == "-O" || a == "-O1") o.opt_level = 1;
    else if (a == "-O0") o.opt_level = 0;
    else if (a == "-O2" || a == "-Os" || a == "-Oz") o.opt_level = 2;
    else if (a == "-O3") o.opt_level = 3;
    else if (a == "-g" || a == "-ggdb" || a == "-g1" || a == "-g2" || a == "-g3") o.debug = true;
    else if (a == "-g0") o.debug = false;
    else if (starts_with(a, "-I") || starts_with(a, "-D") || starts_with(a, "-U")) {
      std::string flag = a.substr(0, 2);
      o.frontend_args.push_back(flag + value(flag));
    } else if (starts_with(a, "-std=")) o.frontend_args.push_back(a);
    else if (starts_with(a, "-Wl,")) o.link_args.push_back(a);
    else if (starts_with(a, "-W") || a == "-w") return;  // warnings: accepted (c2ast never warns)
    else if (starts_with(a, "-L") || starts_with(a, "-l")) {
      std::string flag = a.substr(0, 2);
      o.link_args.push_back(flag + value(flag));
    } else if (a == "-pthread" || a == "-static" || a == "-shared" || a == "-rdynamic" || a == "-pie" ||
               a == "-no-pie") o.link_args.push_back(a);
    else if (a == "-###") o.print_only = true;
    else if (a == "-v") o.verbose = true;
    else if (a == "--save-temps" || a == "-save-temps") o.save_temps = "";
    else if (starts_with(a, "--save-temps=")) o.save_temps = a.substr(13);
    else if (starts_with(a, "--print-after=")) o.print_after = a.substr(14);
    else if (starts_with(a, "--stop-after=")) o.stop_after = a.substr(13);
    else if (starts_with(a, "--view=")) o.view = a.substr(7);
    else if (a == "--verify-inputs") o.verify_inputs = true;
    else {
      for (std::string_view f : kAcceptedF)
        if (a == f) return;
      throw UsageError("unknown option '" + a + "'");
    }
  }
};

}  // namespace

Options parse_options(const std::vector<std::string>& args) {
  Parser p{args};
  for (; p.i < args.size(); ++p.i) {
    const std::string& a = args[p.i];
    if (a.size() > 1 && a[0] == '-') p.option(a);
    else p.o.inputs.push_back(a);
  }
  if (p.o.inputs.empty()) throw UsageError("no input files");
  return p.o;
}

}  // namespace pl::pipecc
