// pipecc - a cc-compatible driver: C through every stage of the toolchain,
// each stage its own process joined to the next by a pipe.
//
//   pipecc [gcc/clang options] FILE... ; pipecc --help-options for what it
//   does with each option (options.cpp: clang 14's driver option table).
//
// What it runs. For each C file (.c, or .i already preprocessed) one
// pipeline (stage table below):
//   c2ast --cc-diagnostics f.c -- CLANG-OPTIONS | ast2cfg | cfg2ssa | ssa2son
//     | sonopt -ON | son-lower-x64 | son2cfg | cfgopt -ON | regalloc-x64
//     | codegen-x64 -f obj -o f.o
// (sonopt and cfgopt only at -O1 and above), with the binary encoding
// between stages; every stage streams one function at a time, so the stages
// work on different functions at once on several cores. CLANG-OPTIONS are
// the preprocessor, language and warning options (-I -D -include -isystem
// -std= -W... -MD -MF ...), which clang honours in process in c2ast: the
// predefined macros, the headers found and the depfile are clang 14's. .S
// files go through the same preprocessor (`c2ast -E -- -x
// assembler-with-cpp`) into the assembler (`cc -c -x assembler -`), .s files
// to the assembler, and the link is done by the system's cc as the linker
// driver (crt files, libc), with the objects and linker options in command
// line order. -E (and -M, -MM) runs `c2ast -E`: the preprocessor of the
// compile, not the system cc's; the rules of -M and -MM (to -o or stdout)
// and every depfile are laid out as gcc's (depfile.cpp).
//
// Identity (identity.cpp): pipecc presents itself as what its front end is,
// a GNU-compatible clang 14 (clang's predefined macros; CMake and meson
// identify Clang 14 and pass clang's flags, which the option table knows).
// --version also names the toolchain build (a hash over every stage's
// executable and clang's libraries), the key for ccache's compiler_check.
//
// Decisions:
//  - Every pipeline is printed by -### as one shell line a user can paste,
//    cut at any `|` and extend with pipe-fmt or pipe-run; -v prints the
//    version, the notes on accepted options without effect, and each line,
//    then runs it (the link's cc gets -v too, so build systems see the
//    linker's command line). --save-temps and --print-after insert `tee
//    FILE` into that same line (the intermediate is the binary encoding the
//    next stage reads); --print-after then prints the saved stage output in
//    the printable form (pipe-fmt -f text) on stderr, like LLVM's
//    -print-after. --stop-after=STAGE ends the pipeline at STAGE, which
//    writes -o (text for a name ending in .txt, JSON for .json, else binary).
//  - Diagnostics: C diagnostics are clang's (`FILE:LINE:COL: error: ...`,
//    source line, caret, warnings). Each stage's stderr is collected and
//    only the failing stage's (and those before it) reach the user, as the
//    stage wrote them, so a C error in c2ast is not followed by "empty
//    input" from ast2cfg. Exit status 1 for bad input, 3 (with the pipeline
//    that reproduces it) when a stage failed any other way (pipeline.h).
//  - Depfiles (-MD, -MMD, also as -Wp,-MD,F): written by clang in c2ast
//    during the compile, named as gcc names them: -MF, else the -o name with
//    .d for its suffix (-c, -S, -E), else the input's stem .d; the target is
//    -MT/-MQ, else the object (-o, or the stem .o).
//  - --view=FILE.html also runs pipe-view on the (one) C file with the same
//    front-end flags and -O level: one HTML page with every stage and pass.
//  - Verification: every stage checks the module it writes (the tool
//    contract's default), and every stage after c2ast runs with
//    --no-verify-input, since its input is the previous stage's output,
//    already checked: each module of the pipe is verified once instead of
//    twice (the verifier, the ra-x64 allocation checker above all, was a
//    third of the pipeline's time). --verify-inputs checks both ends.
//  - The stages are found next to pipecc's own executable, else in the
//    directory they were built in (stage_directory: an icecream
//    environment runs pipecc as /usr/bin/gcc in a chroot without /proc).
//  - gcc's -fpreprocessed and -fdirectives-only (options.h) are
//    implemented, so icecream's gcc mode compiles remotely: the client runs
//    `pipecc -E -fdirectives-only` (c2ast --directives-only: includes and
//    conditionals done, macros unexpanded, every definition written first)
//    and the remote `pipecc -x c -fpreprocessed -fdirectives-only -` on that
//    text (clang -x cpp-output -undef: the text's own macros only).
#include <fcntl.h>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <string>
#include <vector>

#include "identity.h"
#include "depfile.h"
#include "options.h"
#include "pipeline.h"
#include "tool/tool.h"

namespace pl::pipecc {

namespace {

namespace fs = std::filesystem;

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
std::string stem(const std::string& path) { return path == "-" ? "-" : fs::path(path).stem().string(); }
// The path with its suffix replaced (gcc's rule for the depfile from -o).
std::string with_suffix(const std::string& path, const std::string& suffix) {
  return fs::path(path).replace_extension(suffix).string();
}

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

  // -MD/-MMD for one input whose product is `out` (gcc's names: see the
  // header); -M/-MM as given. Empty without dependency options.
  std::vector<std::string> dependency_args(const Input& in, const std::string& out) const {
    std::vector<std::string> a;
    if (opt.dep_m || opt.dep_mm) {
      a.push_back(opt.dep_mm ? "-MM" : "-M");
      if (!opt.dep_file.empty()) a.insert(a.end(), {"-MF", opt.dep_file});
    } else if (opt.dep_md || opt.dep_mmd) {
      a.push_back(opt.dep_mmd ? "-MMD" : "-MD");
      bool named_output = !opt.output.empty() && opt.mode != Mode::Link;
      std::string file = !opt.dep_file.empty() ? opt.dep_file
                         : named_output         ? with_suffix(opt.output, ".d")
                                                : stem(in.path) + ".d";
      a.insert(a.end(), {"-MF", file});
      if (opt.dep_target_args.empty()) {
        // gcc: the object; with -E the object a compile would write (stem.o).
        std::string target = named_output && opt.mode != Mode::Preprocess ? out : stem(in.path) + ".o";
        a.insert(a.end(), {"-MQ", target});
      }
    } else {
      return a;
    }
    a.insert(a.end(), opt.dep_target_args.begin(), opt.dep_target_args.end());
    a.insert(a.end(), opt.dep_other_args.begin(), opt.dep_other_args.end());
    return a;
  }

  // After `in` compiled (or preprocessed) to `out`: the depfile clang wrote,
  // in gcc's layout (depfile.cpp).
  void finish_depfile(const Input& in, const std::string& out) const {
    if (opt.print_only || in.lang == Lang::CppOutput) return;
    std::vector<std::string> a = dependency_args(in, out);
    auto mf = std::find(a.begin(), a.end(), "-MF");
    if (mf != a.end() && std::next(mf) != a.end() && *std::next(mf) != "-") rewrite_depfile(*std::next(mf));
  }

  // c2ast's command line for `in` (preprocess: -E to `out`, "-" = stdout).
  std::vector<std::string> c2ast_args(const Input& in, const std::string& product, bool preprocess) const {
    std::vector<std::string> a{tool("c2ast"), "--cc-diagnostics"};
    if (preprocess) a.push_back("-E");
    // gcc's -E -fdirectives-only (c2ast's DirectivesOnlyAction); -M and -MM
    // write only the rule.
    if (preprocess && opt.directives_only && opt.mode == Mode::Preprocess && !opt.dep_m && !opt.dep_mm &&
        in.lang == Lang::C)
      a.push_back("--directives-only");
    // gcc's -fworking-directory, implied by -g, not with -P: the text names
    // the directory it was made in, and a remote -g compile of it (distcc,
    // icecream) records that directory, as a local compile does.
    if (preprocess && opt.working_directory.value_or(opt.debug) && opt.mode == Mode::Preprocess && !opt.dep_m &&
        !opt.dep_mm && in.lang == Lang::C &&
        std::find(opt.frontend_args.begin(), opt.frontend_args.end(), "-P") == opt.frontend_args.end())
      a.push_back("--working-directory");
    if (opt.debug && !preprocess) a.push_back("-g");  // the debug section (types, variables)
    if (!preprocess) a.insert(a.end(), opt.c2ast_args.begin(), opt.c2ast_args.end());
    a.push_back(in.path);
    std::vector<std::string> clang = opt.frontend_args;
    if (in.lang == Lang::CppOutput) clang.insert(clang.end(), {"-x", "cpp-output"});
    // Text of -E -fdirectives-only: its own definitions are the macros, as
    // gcc's -fpreprocessed -fdirectives-only takes them (no predefined ones;
    // clang's driver drops -undef for preprocessed input, its cc1 takes it).
    if (in.lang == Lang::CppOutput && opt.directives_only) clang.insert(clang.end(), {"-Xclang", "-undef"});
    if (in.lang == Lang::AsmCpp) clang.insert(clang.end(), {"-x", "assembler-with-cpp"});
    // The -O flag as written: clang's predefined macros follow it (__OPTIMIZE__,
    // __OPTIMIZE_SIZE__, __NO_INLINE__), as in a gcc or clang compile.
    // -Ofast is -O3 here: its -ffast-math (and __FAST_MATH__) is not applied.
    if (!opt.opt_flag.empty()) clang.push_back(opt.opt_flag == "-Ofast" ? "-O3" : opt.opt_flag);
    // clang colours its diagnostics on a terminal; c2ast's stderr is a memfd
    // (pipeline.h), so pipecc asks for colour when its own stderr is one.
    bool color_given = std::any_of(clang.begin(), clang.end(), [](const std::string& f) {
      return f.find("color") != std::string::npos;
    });
    if (!color_given && isatty(2)) clang.push_back("-fcolor-diagnostics");
    if (in.lang != Lang::CppOutput) {
      std::vector<std::string> deps = dependency_args(in, product);
      clang.insert(clang.end(), deps.begin(), deps.end());
    }
    if (!clang.empty()) {
      a.push_back("--");
      a.insert(a.end(), clang.begin(), clang.end());
    }
    return a;
  }

  std::vector<std::string> stage_args(const StageSpec& s, const Input& in, const std::string& out) const {
    std::string name = s.name;
    if (name == "c2ast") return c2ast_args(in, out, false);
    std::vector<std::string> a{tool(s.name)};
    if (name == "sonopt" || name == "cfgopt") {
      a.push_back("-O" + std::to_string(opt.opt_level));
      // Programs pipe-run cannot run (a C library function it lacks) are
      // compiled, unchecked, with a warning.
      if (opt.check_each) a.insert(a.end(), {"--check-each", "--check-unrunnable=skip"});
    }
    // The stage before verified this stage's input as its own output, in
    // this pipe: checking it again would double the verifier's work.
    if (!opt.verify_inputs) a.push_back("--no-verify-input");
    // -g -O0: every variable in memory (as gcc -O0 keeps them), where a
    // debugger reads and writes it at any statement.
    if (name == "ast2cfg" && opt.debug && opt.opt_level == 0) a.push_back("--vars-in-memory");
    if (name == "regalloc-x64" && opt.frame_pointer) a.push_back("--frame-pointer");  // rbp stays free
    if (name == "son-lower-x64" && opt.pic) a.push_back("--pic");  // -fPIC/-fpic: shared-library code
    return a;
  }

  static std::string format_for(const std::string& path) {
    std::string ext = extension(path);
    return ext == ".txt" ? "text" : ext == ".json" ? "json" : "bin";
  }

  Pipeline reading(const Input& in) const {
    Pipeline p;
    if (in.path == "-") p.in_fd = 0;
    return p;
  }

  // The pipeline that compiles C `in` into `out` (an object, or assembly
  // with -S, or the --stop-after stage's module).
  Pipeline compile_pipeline(const Input& in, const std::string& out) {
    Pipeline p = reading(in);
    for (const StageSpec& s : kStages) {
      if (opt.opt_level < s.min_opt_level) continue;
      Command c{s.name, stage_args(s, in, out)};
      bool last = opt.stop_after == s.name || std::string(s.name) == "codegen-x64";
      if (last) {
        if (std::string(s.name) == "codegen-x64") {
          c.argv.insert(c.argv.end(), {"-f", opt.mode == Mode::Assemble ? "asm" : "obj"});
          if (opt.debug) c.argv.push_back("-g");
          if (opt.function_sections) c.argv.push_back("--function-sections");
          if (opt.data_sections) c.argv.push_back("--data-sections");
          if (opt.cf_protection != "none") c.argv.push_back("--cf-protection=" + opt.cf_protection);
          if (opt.stack_clash) c.argv.push_back("--stack-clash-protection");
          if (opt.frame_pointer) c.argv.push_back("--frame-pointer");
          if (opt.sibling_calls_on()) c.argv.push_back("--sibling-calls");  // return f(x): jmp f
          c.argv.insert(c.argv.end(), {"-o", out});
        } else {
          // c2ast's own options go before its `--` (clang's options follow it).
          auto own_end = std::find(c.argv.begin(), c.argv.end(), "--");
          c.argv.insert(own_end, {"-f", format_for(out), "-o", out});
        }
        p.commands.push_back(std::move(c));
        break;
      }
      p.commands.push_back(std::move(c));
      bool save = opt.save_temps.has_value();
      bool print = opt.print_after == s.name;
      if (save || print) {
        std::string file =
            save ? temp_file_for(in.path, s.name) : temp() + "/" + stem(in.path) + "." + s.name + ".bin";
        p.commands.push_back({"tee", {"/usr/bin/tee", file}});
        if (print) printed.push_back(file);
      }
    }
    return p;
  }

  // An assembly input into an object: .S through clang's preprocessor first.
  Pipeline assemble_pipeline(const Input& in, const std::string& out) const {
    Pipeline p = reading(in);
    std::vector<std::string> as{cc_path(), "-c"};
    as.insert(as.end(), opt.asm_args.begin(), opt.asm_args.end());
    if (opt.debug) as.push_back("-g");
    if (in.lang == Lang::AsmCpp) {
      p.commands.push_back({"c2ast -E", c2ast_args(in, out, true)});
      as.insert(as.end(), {"-x", "assembler", "-", "-o", out});
    } else {
      as.insert(as.end(), {"-x", "assembler", in.path, "-o", out});
    }
    p.commands.push_back({"as", as});
    return p;
  }

  Pipeline object_pipeline(const Input& in, const std::string& out) {
    return in.lang == Lang::Asm || in.lang == Lang::AsmCpp ? assemble_pipeline(in, out) : compile_pipeline(in, out);
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

  static void warn_unused(const Input& in, const char* what) {
    std::cerr << "pipecc: warning: " << in.path << ": " << what << "\n";
  }

  // -E, -M, -MM: every input through c2ast -E, one after the other, to -o
  // (or stdout).
  int preprocess() {
    int out_fd = 1;
    if (!opt.output.empty() && opt.output != "-" && !opt.print_only) {
      out_fd = open(opt.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (out_fd < 0) throw std::runtime_error("cannot write " + opt.output + ": " + std::strerror(errno));
    }
    int status = 0;
    for (const Input& in : opt.inputs) {
      if (in.lang == Lang::Linker || in.lang == Lang::Asm) {
        warn_unused(in, "input unused because preprocessing only");
        continue;
      }
      if (in.lang == Lang::CppOutput) throw UsageError("'" + in.path + "' is already preprocessed");
      Pipeline p = reading(in);
      p.commands.push_back({"c2ast -E", c2ast_args(in, opt.output, true)});
      p.out_fd = out_fd;
      if (out_fd != 1) p.out_redirect = opt.output;
      if (rules_to_output() && !opt.print_only) {
        if ((status = dependencies_in_gcc_layout(p, out_fd))) break;
        continue;
      }
      if ((status = run_pipeline(p))) break;
      finish_depfile(in, opt.output);
    }
    if (out_fd != 1) {
      close(out_fd);
      if (status) unlink(opt.output.c_str());
    }
    return status;
  }

  // -M/-MM without -MF: the rule goes to -o or stdout, in gcc's layout as a
  // depfile does (depfile.cpp), so clang's text is caught in a temporary
  // file first.
  bool rules_to_output() const { return (opt.dep_m || opt.dep_mm) && opt.dep_file.empty(); }

  int dependencies_in_gcc_layout(Pipeline p, int out_fd) {
    std::string caught = temp() + "/deps.mk";
    int fd = open(caught.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error("cannot write " + caught + ": " + std::strerror(errno));
    p.out_fd = fd;
    int status = run_pipeline(p);
    close(fd);
    if (status) return status;
    std::ifstream f(caught, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (text.empty()) return 0;
    std::string rule = gcc_depfile(text);
    for (size_t done = 0; done < rule.size();) {
      ssize_t n = ::write(out_fd, rule.data() + done, rule.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EPIPE) return kOutputClosed;
      if (n < 0) throw std::runtime_error(std::string("cannot write the dependencies: ") + std::strerror(errno));
      done += static_cast<size_t>(n);
    }
    return 0;
  }

  // -fsyntax-only: c2ast parses, checks and converts each C file (so C we
  // do not support is reported too), the module goes nowhere.
  int syntax_only() {
    for (const Input& in : opt.inputs) {
      if (in.lang != Lang::C && in.lang != Lang::CppOutput) continue;
      Pipeline p = reading(in);
      std::vector<std::string> argv = c2ast_args(in, "/dev/null", false);
      size_t dash = std::find(argv.begin(), argv.end(), "--") - argv.begin();
      argv.insert(argv.begin() + static_cast<long>(dash), {"-o", "/dev/null"});
      p.commands.push_back({"c2ast", argv});
      if (int s = run_pipeline(p)) return s;
    }
    return 0;
  }

  // -c and -S: one output per input, next to the working directory (cc's rule).
  int compile_only() {
    size_t products = 0;
    for (const Input& in : opt.inputs) products += in.lang != Lang::Linker;
    if (!opt.output.empty() && products > 1)
      throw UsageError("-o with -c, -S or --stop-after needs exactly one input file");
    for (const Input& in : opt.inputs) {
      if (in.lang == Lang::Linker) {
        warn_unused(in, "linker input file unused because linking not done");
        continue;
      }
      bool c = in.lang == Lang::C || in.lang == Lang::CppOutput;
      if (!c && (opt.mode == Mode::Assemble || !opt.stop_after.empty()))
        throw UsageError("'" + in.path + "': assembly input with -S or --stop-after: nothing to do");
      std::string out = !opt.output.empty()      ? opt.output
                        : !opt.stop_after.empty() ? stem(in.path) + "." + opt.stop_after + ".bin"
                                                  : stem(in.path) + (opt.mode == Mode::Assemble ? ".s" : ".o");
      if (int s = run_pipeline(object_pipeline(in, out))) return s;
      finish_depfile(in, out);
    }
    return 0;
  }

  int link() {
    std::vector<std::string> objects(opt.inputs.size());
    for (size_t i = 0; i < opt.inputs.size(); ++i) {
      const Input& in = opt.inputs[i];
      if (in.lang == Lang::Linker) {
        objects[i] = in.path;  // .o, .a, .so and anything else the linker knows
        continue;
      }
      objects[i] = temp() + "/" + (in.path == "-" ? std::string("stdin") : stem(in.path)) + "-" +
                   std::to_string(i) + ".o";
      if (int s = run_pipeline(object_pipeline(in, objects[i]))) return s;
      finish_depfile(in, objects[i]);
    }
    std::vector<std::string> argv{cc_path()};
    if (opt.verbose) argv.push_back("-v");  // the linker's command line, which build systems read
    if (!opt.inputs.empty() || !opt.output.empty())  // else a question to the linker (-Wl,--version)
      argv.insert(argv.end(), {"-o", opt.output.empty() ? "a.out" : opt.output});
    for (const LinkItem& item : opt.link_items) argv.push_back(item.input >= 0 ? objects[item.input] : item.arg);
    return run_command(argv, "cc (link)");
  }

  int main() {
    for (const Input& in : opt.inputs)
      if (!opt.print_only && in.path != "-" && !fs::exists(in.path)) {
        std::cerr << "pipecc: error: " << in.path << ": no such file\n";
        return 1;
      }
    for (const std::string* s : {&opt.stop_after, &opt.print_after})
      if (!s->empty() && !is_stage(*s)) throw UsageError("unknown stage '" + *s + "' (the stages: " + stage_list() + ")");
    bool c_input = false;
    for (const Input& in : opt.inputs) c_input |= in.lang == Lang::C || in.lang == Lang::CppOutput;
    if (c_input && opt.mode != Mode::Preprocess)
      for (const std::string& a : opt.asm_args)
        if (a != "-Wa,--noexecstack")
          throw UsageError("'" + a + "': pipecc writes the objects of C files itself (codegen-x64, LLVM's MC layer); "
                           "assembler options apply to .s/.S inputs only");
    if (opt.verbose) {
      std::cerr << version_text(tool_dir);
      for (const std::string& n : opt.notes) std::cerr << "pipecc: note: " << n << "\n";
    }
    if (opt.mode == Mode::Preprocess) return preprocess();
    if (opt.mode == Mode::SyntaxOnly) return syntax_only();
    if (!opt.view.empty())
      if (int s = view()) return s;
    if (opt.mode != Mode::Link || !opt.stop_after.empty()) return compile_only();
    return link();
  }

  // --view: pipe-view's page of the one C file.
  int view() {
    std::vector<std::string> c_files;
    for (const Input& in : opt.inputs)
      if (in.lang == Lang::C) c_files.push_back(in.path);
    if (c_files.size() != 1) throw UsageError("--view needs exactly one .c input file");
    std::vector<std::string> argv{tool("pipe-view"), "-O" + std::to_string(opt.opt_level)};
    for (const std::string& a : opt.frontend_args)  // pipe-view takes -I/-D/-U only
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

// pipecc's own executable: /proc/self/exe, else (no /proc, as in the
// chroot of an icecream remote compile) argv[0] as a path or found on PATH.
fs::path own_executable(const std::string& argv0) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) return self;
  if (argv0.find('/') != std::string::npos) return fs::absolute(argv0, ec);
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t colon = std::min(dirs.find(':', start), dirs.size());
    fs::path candidate = fs::path(colon == start ? "." : dirs.substr(start, colon - start)) / argv0;
    if (access(candidate.c_str(), X_OK) == 0) return fs::absolute(candidate, ec);
    start = colon + 1;
  }
  return fs::absolute(argv0, ec);
}

// Where the stages are: next to pipecc's own executable; else, as gcc falls
// back from the prefix relative to itself to the libexec directory it was
// configured with, the directory they were built in (PIPE_STAGE_DIR). An
// icecream environment made by icecc-create-env holds pipecc as
// /usr/bin/gcc and the stages (its --addfile) at their own paths.
std::string stage_directory(const std::string& argv0) {
  std::string own = own_executable(argv0).parent_path().string();
#ifdef PIPE_STAGE_DIR
  if (access((own + "/c2ast").c_str(), X_OK) != 0 && access(PIPE_STAGE_DIR "/c2ast", X_OK) == 0)
    return PIPE_STAGE_DIR;
#endif
  return own;
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
    if (a == "--help-options") {
      std::cout << describe_option_decisions();
      return 0;
    }
  }
  try {
    Options options = parse_options(args);
    std::string dir = stage_directory(argv[0]);
    if (options.query != Query::None) return answer_query(options, dir);
    int status;
    {
      Driver d{std::move(options), dir};
      status = d.main();
    }  // its temporary files are gone
    if (status == kOutputClosed) {
      std::signal(SIGPIPE, SIG_DFL);
      std::raise(SIGPIPE);
    }
    return status;
  } catch (const pl::UsageError& e) {
    std::cerr << "pipecc: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pipecc: internal error: " << e.what() << "\n";
    return 3;
  }
}
