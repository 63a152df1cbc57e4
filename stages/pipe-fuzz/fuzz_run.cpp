// fuzz_run.cpp - one run of pipe-fuzz: an input, its reference behaviour, the
// pipe run twice, and the checks (see pipe-fuzz.cpp for the whole tool).
//
// Input and reference by input level:
//   cfg ssa son  a runnable program (generate_runnable.h); the reference is
//                pipe-run on the input itself;
//   son-x64 cfg-x64 ra-x64 (while pipe-gen cannot write them): a runnable
//                son program through the feeder stages (Config::feeder),
//                each of which must exit 0 and keep its behaviour; the
//                reference is pipe-run on the fed input (on the son
//                program when pipe-run cannot run the fed level);
//   c            a csmith program, or with --gen cgen a pipe-cgen program (one
//                to three files; see cgen_command); the reference is gcc's
//                build of it; a pipe-cgen program's gcc -O0 and -O2 builds
//                must agree (they differ only if the generator wrote
//                undefined behaviour, a pipe-cgen bug reported as such);
//   ast          the same program through c2ast (a program c2ast refuses is
//                skipped: it is not the stage under test).
// When the pipe is pipecc alone (Config::native), pipecc compiles the C
// files to a program with the pipe's arguments, the program runs natively
// and is compared with gcc's build; there is no module to verify, and one
// compile per run (the determinism check is left to the module pipes).
// Checks, in order, each a failure of its own: every stage exits 0; each
// stage's output reads and verifies at its level; the second run writes the
// same bytes as the first (stage by stage); pipe-run on the last output
// prints the same stdout and exits with the same status as the reference
// (skipped when pipe-run cannot run the output's level). When the last
// stage writes an ELF object (codegen-x64), the system's cc links it and the
// program runs instead: machine code is checked by running it. On a behaviour
// difference pipe-run also runs each intermediate output, to name the first
// stage whose output behaves differently.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "encoding/format.h"
#include "fuzz.h"
#include "gen/generate_runnable.h"
#include "tool/subprocess.h"
#include "check/verify.h"

namespace pl::fuzz {

namespace {

struct Behaviour {
  int status = 0;
  std::string out;
  bool operator==(const Behaviour&) const = default;
};

const char* kCsmithFlags[] = {"--no-float", "--no-bitfields", "--no-packed-struct", "--max-funcs", "5",
                              "--max-block-depth", "3", "--max-expr-complexity", "6"};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path);
}

// The last lines of a process's stderr, indented, for a report.
std::string tail(const std::string& text, size_t max_lines = 12) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  size_t first = lines.size() > max_lines ? lines.size() - max_lines : 0;
  std::string out;
  for (size_t i = first; i < lines.size(); ++i) out += "    " + lines[i] + "\n";
  return out;
}

std::string stage_name(const std::vector<std::string>& argv) {
  std::string name = argv[0];
  size_t slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

std::string show(const Behaviour& b) {
  size_t lines = static_cast<size_t>(std::count(b.out.begin(), b.out.end(), '\n'));
  return "exit " + std::to_string(b.status) + ", " + std::to_string(lines) + " lines of stdout";
}

// Where two outputs first differ, with the two lines before it, for the report.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream ia(a), ib(b);
  std::string la, lb, before[2];
  for (int line = 1;; ++line) {
    bool ga = static_cast<bool>(std::getline(ia, la)), gb = static_cast<bool>(std::getline(ib, lb));
    if (!ga && !gb) return "";
    if (!ga || !gb || la != lb) {
      std::string out = "  first difference at stdout line " + std::to_string(line) + ":\n";
      for (const std::string& l : before)
        if (!l.empty()) out += "    both:   " + l + "\n";
      return out + "    first:  " + (ga ? la : "<end of output>") + "\n    second: " + (gb ? lb : "<end of output>") +
             "\n";
    }
    before[0] = before[1];
    before[1] = la;
  }
}

// pipe-run on a module: its behaviour, or false when pipe-run cannot run its
// level (an output at a level the interpreter does not know yet).
bool run_module(const Config& config, const std::string& path, Behaviour& b, std::string& problem) {
  ProcessResult r = run_process({{config.pipe_run, path}, "", "", config.timeout});
  if (r.timed_out || r.exec_failed) {
    problem = "pipe-run " + r.describe();
    return false;
  }
  if (r.status == 1 && r.err.find("pipe-run runs modules at") != std::string::npos) return false;
  b = {r.status, r.out};
  if (r.status == 70 || r.status == 1 || r.status == 3) problem = tail(r.err, 6);
  return true;
}

// Whether `path` holds an ELF object (codegen-x64's output), not a module.
bool is_object_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
}

// An object file's behaviour: linked by the system's cc into a program,
// which runs. False (with `problem`) when it does not link or run.
bool run_object(const Config& config, const std::string& object, Behaviour& b, std::string& problem) {
  std::string exe = object + ".exe";
  ProcessResult link = run_process({{"cc", object, "-o", exe}, "", "", config.timeout});
  if (link.status != 0 || link.timed_out) {
    problem = "cc " + link.describe() + ":\n" + tail(link.err, 6);
    return false;
  }
  ProcessResult r = run_process({{exe}, "", "", config.timeout});
  if (r.timed_out || r.exec_failed) {
    problem = exe + " " + r.describe();
    return false;
  }
  b = {r.status, r.out};
  return true;
}

// Reads and verifies a module file; returns the first diagnostics, or "".
std::string verify_file(const std::string& path) {
  std::string shown = path.substr(path.rfind('/') + 1);  // as saved with the failure
  try {
    ByteSource src = ByteSource::open(path);
    std::unique_ptr<ModuleReader> reader = open_reader(src);
    ModuleVerifier verifier(reader->header());
    std::vector<Diagnostic> diags = verifier.header_diagnostics();
    Function fn;
    size_t pieces_done = 0;  // module pieces, checked as they arrive
    auto take_pieces = [&] {
      for (; pieces_done < reader->pieces().size(); ++pieces_done)
        for (Diagnostic& d : verifier.piece(reader->pieces()[pieces_done])) diags.push_back(std::move(d));
    };
    while (reader->next(fn)) {
      take_pieces();
      for (Diagnostic& d : verifier.function(fn)) diags.push_back(std::move(d));
      fn = Function();
    }
    take_pieces();
    for (Diagnostic& d : verifier.end()) diags.push_back(std::move(d));
    std::string out;
    for (size_t i = 0; i < diags.size() && i < 5; ++i) out += "    " + format_diagnostic(shown, diags[i]) + "\n";
    return out;
  } catch (const FormatError& e) {
    return "    " + format_diagnostic(shown, e.diagnostic()) + "\n";
  }
}

class Run {
 public:
  Run(const Config& config, uint64_t seed, std::string dir) : config_(config), seed_(seed), dir_(std::move(dir)) {}
  RunResult go();

 private:
  bool make_input();
  bool feed();
  bool reference_behaviour();
  bool run_pipe(int pass);
  bool check_outputs();
  void check_behaviour();
  void blame_stage();
  std::string output(int pass, size_t stage) const {
    return dir_ + "/out" + std::to_string(pass) + "." + std::to_string(stage) + "." + stage_name(config_.pipe[stage]);
  }
  std::vector<std::string> stage_argv(size_t stage) const;
  void fail(std::string what, std::string detail = "") {
    result_.outcome = Outcome::Fail;
    result_.what = std::move(what);
    result_.detail = std::move(detail);
  }
  void skip(std::string why) {
    result_.outcome = Outcome::Skip;
    result_.what = std::move(why);
  }

  const Config& config_;
  uint64_t seed_;
  std::string dir_;
  std::string input_;
  std::vector<std::string> sources_;  // the C files to compile (level c)
  Behaviour want_;
  Behaviour original_;  // the generated program's, when fed
  RunResult result_;
};

bool Run::make_input() {
  if (config_.level == "c" || config_.level == "ast") {
    std::string c_file = dir_ + "/input.c", error;
    if (config_.generator == "cgen") {
      ProcessResult r = run_process({cgen_command(config_, seed_, c_file), "", "", config_.timeout});
      if (r.status != 0) {
        fail("pipe-cgen failed on seed " + std::to_string(seed_), r.describe() + "\n" + tail(r.err));
        return false;
      }
      std::istringstream list(r.out);
      for (std::string line; std::getline(list, line);) sources_.push_back(line);
      for (const auto& entry : std::filesystem::directory_iterator(dir_))
        if (entry.path().extension() == ".c") result_.files.push_back(entry.path().string());
      std::sort(result_.files.begin(), result_.files.end());
    } else {
      if (!make_csmith_program(seed_, c_file, error)) {
        fail("csmith failed on seed " + std::to_string(seed_), error);
        return false;
      }
      sources_ = {c_file};
      result_.files.push_back(c_file);
    }
    input_ = c_file;
    if (config_.level == "c") return true;
    input_ = dir_ + "/input.ast.bin";
    ProcessResult r = run_process({{config_.c2ast, "-I", kCsmithInclude, c_file, "-o", input_}, "", "", config_.timeout});
    if (r.status != 0) {
      skip("c2ast does not take this csmith program (" + r.describe() + ")");
      return false;
    }
    result_.files.push_back(input_);
    return true;
  }
  std::string generated = config_.feeder.empty() ? config_.level : "son";
  RunnableOptions opts{seed_, *parse_level(generated), config_.functions, config_.nodes, config_.floats};
  input_ = dir_ + "/input." + generated + ".bin";
  write_file(input_, write_module_to_string(generate_runnable_module(opts), Encoding::Binary));
  result_.files.push_back(input_);
  return feed();
}

// Runs the feeder stages on the generated son program; each must exit 0 and
// keep the program's behaviour (else the failure names the feeding stage).
bool Run::feed() {
  if (config_.feeder.empty()) return true;
  Behaviour& original = original_;
  std::string problem;
  if (!run_module(config_, input_, original, problem) || !problem.empty()) {
    fail("the generated input does not run cleanly under pipe-run (a pipe-gen --runnable bug)", problem);
    return false;
  }
  for (size_t s = 0; s < config_.feeder.size(); ++s) {
    std::string out = dir_ + "/feed" + std::to_string(s) + "." + stage_name(config_.feeder[s]) + ".bin";
    ProcessResult r = run_process({config_.feeder[s], input_, out, config_.timeout});
    result_.files.push_back(out);
    if (r.status != 0 || r.timed_out) {
      fail("feeding stage " + stage_name(config_.feeder[s]) + " " + r.describe(), tail(r.err));
      return false;
    }
    input_ = out;
    Behaviour fed;
    if (run_module(config_, input_, fed, problem) && !(fed == original)) {
      fail("feeding stage " + stage_name(config_.feeder[s]) + " changed the program's behaviour",
           "  first: the generated program: " + show(original) + "\n  second: after " +
               stage_name(config_.feeder[s]) + ": " + show(fed) + "\n" + first_difference(original.out, fed.out));
      return false;
    }
  }
  return true;
}

bool Run::reference_behaviour() {
  if (config_.level == "c" || config_.level == "ast") {
    bool cgen = config_.generator == "cgen";
    for (const char* opt : {"-O0", "-O2"}) {
      std::string exe = dir_ + "/native" + opt;
      std::vector<std::string> argv{"gcc", "-std=gnu11", opt, "-w", "-I", kCsmithInclude};
      argv.insert(argv.end(), sources_.begin(), sources_.end());
      argv.insert(argv.end(), {"-o", exe});
      ProcessResult cc = run_process({argv, "", "", config_.timeout});
      if (cc.status != 0) {
        if (cgen) fail("gcc cannot build the pipe-cgen program (a pipe-cgen bug)", tail(cc.err));
        else skip("gcc cannot build the csmith program");
        return false;
      }
      // csmith programs that loop for long are skipped; pipe-cgen's end in
      // milliseconds, and a loaded machine must not make them look broken.
      ProcessResult run = run_process({{exe}, "", "", cgen ? config_.timeout : 2.0});
      if (run.timed_out || run.status != 0) {
        if (cgen) fail("gcc's " + std::string(opt) + " build " + run.describe() + " (a pipe-cgen bug)");
        else skip("gcc's build " + run.describe());
        return false;
      }
      Behaviour b{run.status, run.out};
      if (std::string(opt) == "-O0") want_ = b;
      if (!cgen) return true;  // csmith programs: gcc -O0 alone, as before
      if (!(b == want_)) {
        fail("gcc -O0 and gcc -O2 disagree on the pipe-cgen program (undefined behaviour: a pipe-cgen bug)",
             first_difference(want_.out, b.out));
        return false;
      }
    }
    return true;
  }
  std::string problem;
  bool ran = run_module(config_, input_, want_, problem);
  if (!ran && !config_.feeder.empty() && problem.empty()) {  // a fed level pipe-run does not run
    want_ = original_;
    return true;
  }
  if (!ran || !problem.empty()) {
    fail("the generated input does not run cleanly under pipe-run (a pipe-gen --runnable bug)", problem);
    return false;
  }
  return true;
}

std::vector<std::string> Run::stage_argv(size_t stage) const {
  std::vector<std::string> argv = config_.pipe[stage];
  if (stage == 0 && config_.level == "c") {
    argv.insert(argv.begin() + 1, {"-I", kCsmithInclude});
    // The main file comes on stdin; the files it includes sit beside it.
    if (!config_.native) argv.insert(argv.begin() + 1, {"-I", dir_});
  }
  if (config_.native) {  // pipecc [ARGS] -w SOURCES -o PROGRAM
    argv.push_back("-w");
    argv.insert(argv.end(), sources_.begin(), sources_.end());
    argv.insert(argv.end(), {"-o", output(1, 0)});
  }
  return argv;
}

bool Run::run_pipe(int pass) {
  if (config_.native && pass == 2) return true;  // one compile per run (see the header)
  std::string in = input_;
  for (size_t s = 0; s < config_.pipe.size(); ++s) {
    std::string out = output(pass, s);
    ProcessResult r =
        run_process({stage_argv(s), config_.native ? "" : in, config_.native ? "" : out, config_.timeout});
    if (pass == 1) result_.files.push_back(out);
    if (r.status != 0 || r.timed_out) {
      fail(stage_name(config_.pipe[s]) + " " + r.describe(), tail(r.err));
      return false;
    }
    in = out;
  }
  return true;
}

bool Run::check_outputs() {
  if (config_.native) return true;
  for (size_t s = 0; s < config_.pipe.size(); ++s) {
    if (s + 1 == config_.pipe.size() && is_object_file(output(1, s))) break;  // machine code: run, not verified
    std::string diags = verify_file(output(1, s));
    if (!diags.empty()) {
      fail(stage_name(config_.pipe[s]) + "'s output does not verify", diags);
      return false;
    }
  }
  for (size_t s = 0; s < config_.pipe.size(); ++s) {
    if (read_file(output(1, s)) != read_file(output(2, s))) {
      result_.files.push_back(output(2, s));
      fail(stage_name(config_.pipe[s]) + " is not deterministic: two runs on the same input wrote different bytes");
      return false;
    }
  }
  return true;
}

// Names the first stage whose output behaves unlike the reference.
void Run::blame_stage() {
  for (size_t s = 0; s + 1 < config_.pipe.size(); ++s) {
    Behaviour b;
    std::string problem;
    if (run_module(config_, output(1, s), b, problem) && !(b == want_)) {
      result_.detail += "  the first stage whose output differs: " + stage_name(config_.pipe[s]) + "\n";
      return;
    }
  }
}

void Run::check_behaviour() {
  Behaviour got;
  std::string problem;
  size_t last = config_.pipe.size() - 1;
  bool object = is_object_file(output(1, last));
  std::string runner = config_.native ? "pipecc's build" : object ? "the linked output" : "pipe-run on the output";
  if (config_.native) {
    ProcessResult r = run_process({{output(1, last)}, "", "", config_.timeout});
    if (r.timed_out || r.exec_failed) {
      fail(runner + " " + r.describe());
      return;
    }
    got = {r.status, r.out};
  } else if (object ? !run_object(config_, output(1, last), got, problem)
                    : !run_module(config_, output(1, last), got, problem)) {
    if (!problem.empty()) fail(runner + ": " + problem);
    return;  // a level pipe-run does not run: nothing to compare
  }
  if (got == want_) return;
  std::string reference = config_.level == "c" || config_.level == "ast" ? "gcc's build" : "pipe-run on the input";
  fail("behaviour differs: " + reference + " vs " + runner,
       "  first: " + reference + ": " + show(want_) + "\n  second: " + runner + ": " + show(got) + "\n" +
           first_difference(want_.out, got.out) + (problem.empty() ? "" : "  pipe-run said:\n" + problem));
  blame_stage();
}

RunResult Run::go() {
  if (!make_input() || !reference_behaviour()) return result_;
  if (!run_pipe(1) || !run_pipe(2) || !check_outputs()) return result_;
  check_behaviour();
  return result_;
}

}  // namespace

bool make_csmith_program(uint64_t seed, const std::string& path, std::string& error) {
  std::vector<std::string> argv{"csmith", "--seed", std::to_string(seed)};
  argv.insert(argv.end(), std::begin(kCsmithFlags), std::end(kCsmithFlags));
  argv.insert(argv.end(), {"-o", path});
  ProcessResult r = run_process({argv, "", "", 60});
  error = r.describe() + "\n" + tail(r.err);
  return r.status == 0;
}

std::vector<std::string> cgen_command(const Config& config, uint64_t seed, const std::string& path) {
  std::vector<std::string> argv{config.cgen, "--seed", std::to_string(seed)};
  if (std::find(config.gen_args.begin(), config.gen_args.end(), "--files") == config.gen_args.end()) {
    unsigned files = 1 + seed % 3;
    bool unity = !config.native || (seed / 3) % 2 == 1;
    if (files > 1) argv.insert(argv.end(), {"--files", std::to_string(files)});
    if (files > 1 && unity) argv.push_back("--unity");
  }
  argv.insert(argv.end(), config.gen_args.begin(), config.gen_args.end());
  argv.insert(argv.end(), {"-o", path, "--print-sources"});
  return argv;
}

RunResult fuzz_one(const Config& config, uint64_t seed, const std::string& dir) { return Run(config, seed, dir).go(); }

}  // namespace pl::fuzz
