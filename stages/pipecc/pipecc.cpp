// pipecc - a cc-compatible driver: C through every stage of the toolchain,
// each stage its own process joined to the next by a pipe.
//
//   pipecc [-c|-S|-E] [-O0..-O3|-Os] [-g] [-I..] [-D..] [-U..] [-std=..] [-w]
//          [-W..] [-o OUT] FILE... [-L..] [-l..] [-Wl,..]
//          [-###] [-v] [--save-temps[=DIR]] [--print-after=STAGE] [--stop-after=STAGE]
//          [--view=FILE.html] [--verify-inputs]
//
// What it runs. For each .c file one pipeline (stage table below):
//   c2ast FLAGS f.c | ast2cfg | cfg2ssa | ssa2son | sonopt -ON | son-lower-x64
//     | son2cfg | cfgopt -ON | regalloc-x64 | codegen-x64 -f obj -o f.o
// (sonopt and cfgopt only at -O1 and above), with the binary encoding
// between stages; every stage streams one function at a time, so the stages
// work on different functions at once on several cores. .s files go to the
// assembler (`cc -c`), and the link is done by the system's cc as the linker
// driver (crt files, libc), with the objects, then -L/-l/-Wl options. -E
// runs `cc -E` (c2ast parses in process and writes no preprocessed text).
//
// Decisions:
//  - Every pipeline is printed by -### as one shell line a user can paste,
//    cut at any `|` and extend with pipe-fmt or pipe-run; -v prints it too,
//    then runs it. --save-temps and --print-after insert `tee FILE` into that
//    same line (the intermediate is the binary encoding the next stage
//    reads); --print-after then prints the saved stage output in the
//    printable form (pipe-fmt -f text) on stderr, like LLVM's -print-after.
//    --stop-after=STAGE ends the pipeline at STAGE, which writes -o (text for
//    a name ending in .txt, JSON for .json, else binary).
//  - Diagnostics: each stage's stderr is collected and only the failing
//    stage's (and those before it) reach the user, as the stage wrote them,
//    so a C error in c2ast is not followed by "empty input" from ast2cfg.
//    Exit status 1 for bad input, 3 (with the pipeline that reproduces it)
//    when a stage failed any other way (pipeline.h).
//  - --view=FILE.html also runs pipe-view on the (one) C file with the same
//    front-end flags and -O level: one HTML page with every stage and pass.
//  - Verification: every stage checks the module it writes (the tool
//    contract's default), and every stage after c2ast runs with
//    --no-verify-input, since its input is the previous stage's output,
//    already checked: each module of the pipe is verified once instead of
//    twice (the verifier, the ra-x64 allocation checker above all, was a
//    third of the pipeline's time). --verify-inputs checks both ends.
//  - The stages are found next to pipecc's own executable.
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "options.h"
#include "pipeline.h"
#include "tool.h"

namespace pl::pipecc {

namespace {

namespace fs = std::filesystem;

struct StageSpec {
  const char* name;
  int min_opt_level;  // the stage runs at this -O level and above
};
// The pipeline of stages, in order (README, "The pieces").
constexpr StageSpec kStages[] = {
    {"c2ast", 0},   {"ast2cfg", 0}, {"cfg2ssa", 0}, {"ssa2son", 0},      {"sonopt", 1},
    {"son-lower-x64", 0}, {"son2cfg", 0}, {"cfgopt", 1}, {"regalloc-x64", 0}, {"codegen-x64", 0},
};

bool is_stage(const std::string& name) {
  for (const StageSpec& s : kStages)
    if (name == s.name) return true;
  return false;
}

std::string stage_list() {
  std::string out;
  for (const StageSpec& s : kStages) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out;
}

std::string extension(const std::string& path) { return fs::path(path).extension().string(); }
std::string stem(const std::string& path) { return fs::path(path).stem().string(); }

struct Driver {
  Options opt;
  std::string tool_dir;  // where the stages live
  std::string temp_dir;  // for objects of a link and temporaries; removed at the end
  std::vector<std::string> printed;  // files to print (--print-after) after each pipeline

  std::string tool(const std::string& name) const { return tool_dir + "/" + name; }

  const std::string& temp() {
    if (temp_dir.empty()) {
      std::string pattern = (fs::temp_directory_path() / "pipecc-XXXXXX").string();
      if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory");
      temp_dir = pattern;
    }
    return temp_dir;
  }

  // Where --save-temps puts the intermediates of `source`.
  std::string temp_file_for(const std::string& source, const std::string& stage) {
    std::string dir = opt.save_temps && !opt.save_temps->empty() ? *opt.save_temps : ".";
    return dir + "/" + stem(source) + "." + stage + ".bin";
  }

  std::vector<std::string> stage_args(const StageSpec& s, const std::string& source) const {
    std::vector<std::string> a{tool(s.name)};
    std::string name = s.name;
    if (name == "c2ast") {
      a.insert(a.end(), opt.frontend_args.begin(), opt.frontend_args.end());
      a.push_back(source);
    }
    if (name == "sonopt" || name == "cfgopt") a.push_back("-O" + std::to_string(opt.opt_level > 2 ? 2 : opt.opt_level));
    // The stage before verified this stage's input as its own output, in
    // this pipe: checking it again would double the verifier's work.
    if (name != "c2ast" && !opt.verify_inputs) a.push_back("--no-verify-input");
    return a;
  }

  static std::string format_for(const std::string& path) {
    std::string ext = extension(path);
    return ext == ".txt" ? "text" : ext == ".json" ? "json" : "bin";
  }

  // The pipeline that compiles `source` into `out` (an object, or assembly
  // with -S, or the --stop-after stage's module).
  Pipeline compile_pipeline(const std::string& source, const std::string& out) {
    Pipeline p;
    for (const StageSpec& s : kStages) {
      if (opt.opt_level < s.min_opt_level) continue;
      Command c{s.name, stage_args(s, source)};
      bool last = opt.stop_after == s.name || std::string(s.name) == "codegen-x64";
      if (last) {
        if (std::string(s.name) == "codegen-x64") {
          c.argv.insert(c.argv.end(), {"-f", opt.mode == Mode::Assemble ? "asm" : "obj"});
          if (opt.debug) c.argv.push_back("-g");
        } else {
          c.argv.insert(c.argv.end(), {"-f", format_for(out)});
        }
        c.argv.insert(c.argv.end(), {"-o", out});
        p.commands.push_back(std::move(c));
        break;
      }
      p.commands.push_back(std::move(c));
      bool save = opt.save_temps.has_value();
      bool print = opt.print_after == s.name;
      if (save || print) {
        std::string file = save ? temp_file_for(source, s.name) : temp() + "/" + stem(source) + "." + s.name + ".bin";
        p.commands.push_back({"tee", {"/usr/bin/tee", file}});
        if (print) printed.push_back(file);
      }
    }
    return p;
  }

  int run_pipeline(const Pipeline& p) {
    if (opt.print_only || opt.verbose) std::cerr << shell_line(p) << "\n";
    if (opt.print_only) return 0;
    for (const Command& c : p.commands)
      if (access(c.argv[0].c_str(), X_OK) != 0)
        throw std::runtime_error("stage '" + c.name + "' is not built (no executable " + c.argv[0] + ")");
    int status = run(p).status;
    if (status == 0) status = print_saved();
    printed.clear();
    return status;
  }

  int print_saved() {
    for (const std::string& file : printed) {
      Pipeline fmt{{{"pipe-fmt", {tool("pipe-fmt"), file, "-f", "text"}}}, 2};
      if (int s = run(fmt).status) return s;
    }
    return 0;
  }

  int run_command(const std::vector<std::string>& argv, const std::string& name) {
    return run_pipeline(Pipeline{{{name, argv}}});
  }

  static std::string cc_path() {
    const char* cc = std::getenv("PIPECC_LINKER");
    return cc && *cc ? cc : "/usr/bin/cc";
  }

  int preprocess() {
    for (const std::string& in : opt.inputs) {
      std::vector<std::string> argv{cc_path(), "-E"};
      argv.insert(argv.end(), opt.frontend_args.begin(), opt.frontend_args.end());
      argv.push_back(in);
      if (!opt.output.empty()) argv.insert(argv.end(), {"-o", opt.output});
      if (int s = run_command(argv, "cc -E")) return s;
    }
    return 0;
  }

  // -c and -S: one output per input, next to the working directory (cc's rule).
  int compile_only() {
    if (!opt.output.empty() && opt.inputs.size() > 1)
      throw UsageError("-o with -c, -S or --stop-after needs exactly one input file");
    for (const std::string& in : opt.inputs) {
      std::string ext = extension(in);
      std::string out = !opt.output.empty() ? opt.output
                        : !opt.stop_after.empty() ? stem(in) + "." + opt.stop_after + ".bin"
                        : stem(in) + (opt.mode == Mode::Assemble ? ".s" : ".o");
      int s = 0;
      if (ext == ".c") s = run_pipeline(compile_pipeline(in, out));
      else if ((ext == ".s" || ext == ".S") && opt.mode == Mode::Compile)
        s = run_command({cc_path(), "-c", in, "-o", out}, "as");
      else throw UsageError("'" + in + "': nothing to do with this file here");
      if (s) return s;
    }
    return 0;
  }

  int link() {
    std::vector<std::string> objects;
    for (const std::string& in : opt.inputs) {
      std::string ext = extension(in);
      if (ext == ".c" || ext == ".s" || ext == ".S") {
        std::string obj = temp() + "/" + stem(in) + "-" + std::to_string(objects.size()) + ".o";
        int s = ext == ".c" ? run_pipeline(compile_pipeline(in, obj))
                            : run_command({cc_path(), "-c", in, "-o", obj}, "as");
        if (s) return s;
        objects.push_back(obj);
      } else {
        objects.push_back(in);  // .o, .a, .so and anything else the linker knows
      }
    }
    std::vector<std::string> argv{cc_path(), "-o", opt.output.empty() ? "a.out" : opt.output};
    argv.insert(argv.end(), objects.begin(), objects.end());
    argv.insert(argv.end(), opt.link_args.begin(), opt.link_args.end());
    return run_command(argv, "cc (link)");
  }

  int main() {
    for (const std::string& in : opt.inputs)
      if (!opt.print_only && !fs::exists(in)) {
        std::cerr << "pipecc: error: " << in << ": no such file\n";
        return 1;
      }
    for (const std::string* s : {&opt.stop_after, &opt.print_after})
      if (!s->empty() && !is_stage(*s)) throw UsageError("unknown stage '" + *s + "' (the stages: " + stage_list() + ")");
    if (opt.mode == Mode::Preprocess) return preprocess();
    if (!opt.view.empty())
      if (int s = view()) return s;
    if (opt.mode != Mode::Link || !opt.stop_after.empty()) return compile_only();
    return link();
  }

  // --view: pipe-view's page of the one C file.
  int view() {
    std::vector<std::string> c_files;
    for (const std::string& in : opt.inputs)
      if (extension(in) == ".c") c_files.push_back(in);
    if (c_files.size() != 1) throw UsageError("--view needs exactly one .c input file");
    std::vector<std::string> argv{tool("pipe-view"), "-O" + std::to_string(std::min(opt.opt_level, 2))};
    for (const std::string& a : opt.frontend_args)  // "-Ivalue" (options.cpp); pipe-view takes -I/-D/-U only
      if (a.size() > 2 && (a.starts_with("-I") || a.starts_with("-D") || a.starts_with("-U")))
        argv.insert(argv.end(), {a.substr(0, 2), a.substr(2)});
    argv.insert(argv.end(), {c_files[0], "-o", opt.view});
    return run_command(argv, "pipe-view");
  }

  ~Driver() {
    std::error_code ec;
    if (!temp_dir.empty()) fs::remove_all(temp_dir, ec);
  }
};

std::string own_directory(const char* argv0) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) self = fs::absolute(argv0);
  return self.parent_path().string();
}

}  // namespace

}  // namespace pl::pipecc

int main(int argc, char** argv) {
  using namespace pl::pipecc;
  std::vector<std::string> args(argv + 1, argv + argc);
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--version") {
      std::cout << "pipecc " << PIPE_VERSION << "\n";
      return 0;
    }
  }
  try {
    int status;
    {
      Driver d{parse_options(args), own_directory(argv[0])};
      status = d.main();
    }  // its temporary files are gone
    if (status == kOutputClosed) {
      std::signal(SIGPIPE, SIG_DFL);
      std::raise(SIGPIPE);
    }
    return status;
  } catch (const pl::UsageError& e) {
    std::cerr << "pipecc: error: " << e.what() << "\n" << kUsage;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pipecc: internal error: " << e.what() << "\n";
    return 3;
  }
}
