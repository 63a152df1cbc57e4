// pipe-fuzz - fuzz one stage, or a pipe of stages, with random programs.
//
//   pipe-fuzz [--seed N] [--runs N | --time S] [--keep DIR] [--level L]
//             [--nodes N] [--functions N] [--no-float] [--timeout S]
//             [--gen csmith|cgen [--gen-arg ARG]...]
//             -- STAGE [ARGS] ['|' STAGE [ARGS]]...
//
// Run k (k = 0, 1, ...) uses seed N + k: it makes an input for the first
// stage's input level (fuzz_run.cpp: a runnable program from pipe-gen's
// generator at cfg, ssa and son, with f32/f64 values unless --no-float; at son-x64, cfg-x64 and ra-x64, while
// pipe-gen cannot write them, a runnable son program through the stages
// that make that level (feeder_for); a csmith program for c2ast, csmith
// through c2ast at ast; with --gen cgen a pipe-cgen program instead, the
// programs csmith never writes), runs the pipe twice and checks that every stage exits 0,
// that every output verifies, that both runs write the same bytes, and that
// pipe-run on the last output behaves as the input does (same stdout, same
// exit status). The seed alone decides the input, on any machine, so
// `pipe-fuzz --seed S --runs 1 ...` replays run S exactly.
//
// `pipe-fuzz [--gen cgen] -- pipecc -O2` compiles the C program (one to
// three files) natively with pipecc and runs it against gcc's build.
//
// The input level: --level, else `c` when the first stage is c2ast or pipecc, else
// asked of the stage itself: a tiny son module goes in, and a stage that
// reads another level says so (Tool::open_input(Level)'s "expected a module
// at level 'X'"); a stage that accepts it reads son. So a new stage plugs in
// without a table here.
//
// Each failure is printed with the command that replays it and saved under
// --keep DIR (default pipe-fuzz-failures) as seed-S/: the input, each
// stage's output, report.txt and replay.sh (which exits 1 while the failure
// reproduces). A progress line shows runs, failures, skips and speed.
// Exit status: 0 no failure, 1 failures found, 2 usage, 3 internal error.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "encoding/format.h"
#include "fuzz.h"
#include "gen/generate_runnable.h"
#include "tool/subprocess.h"
#include "tool/tool.h"

namespace fs = std::filesystem;
using pl::fuzz::Config;

namespace {

struct Options {
  uint64_t seed = 1;
  uint64_t runs = 0;
  double time = 0;
  std::string keep = "pipe-fuzz-failures";
  std::string level;
};

// The stages of the pipe given after `--`: its words split at each `|`.
std::vector<std::vector<std::string>> parse_pipe(const std::vector<std::string>& words) {
  std::vector<std::vector<std::string>> pipe(1);
  for (const std::string& w : words) {
    if (w == "|") pipe.emplace_back();
    else pipe.back().push_back(w);
  }
  for (const auto& stage : pipe)
    if (stage.empty()) throw pl::UsageError("an empty stage in the pipe (give: -- STAGE [ARGS] ['|' STAGE ...])");
  return pipe;
}

// A stage or tool: beside pipe-fuzz, else in PATH; a usage error if neither.
std::string program(const std::string& name) {
  std::string found = pl::find_program(pl::sibling_tool(name));
  if (found.empty()) throw pl::UsageError("cannot find the program '" + name + "' (beside pipe-fuzz or in PATH)");
  return found;
}

std::string basename_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The level the first stage reads (see the header comment).
std::string probe_level(const Config& config, const std::string& dir) {
  const std::vector<std::string>& stage = config.pipe[0];
  if (basename_of(stage[0]) == "c2ast" || basename_of(stage[0]) == "pipecc") return "c";
  pl::RunnableOptions tiny{1, pl::Level::Son, 1, 20};
  std::string probe = dir + "/probe.bin";
  std::ofstream(probe, std::ios::binary) << pl::write_module_to_string(pl::generate_runnable_module(tiny),
                                                                       pl::Encoding::Binary);
  pl::ProcessResult r = pl::run_process({stage, probe, dir + "/probe.out", config.timeout});
  const std::string marker = "expected a module at level '";
  size_t at = r.err.find(marker);
  if (at != std::string::npos) {
    size_t begin = at + marker.size();
    return r.err.substr(begin, r.err.find('\'', begin) - begin);
  }
  if (r.status == 0) return "son";
  throw pl::UsageError("cannot tell which level " + stage[0] + " reads (on a son module it said " + r.describe() +
                       ": " + r.err.substr(0, 300) + "); give --level");
}

// The stages that make a module at `level` from a runnable son program
// (fuzz.h, Config::feeder); empty when there are none, or one is not built.
std::vector<std::vector<std::string>> feeder_for(const std::string& level) {
  std::vector<std::string> names;
  if (level == "son-x64") names = {"son-lower-x64"};
  else if (level == "cfg-x64") names = {"son-lower-x64", "son2cfg"};
  else if (level == "ra-x64") names = {"son-lower-x64", "son2cfg", "regalloc-x64"};
  std::vector<std::vector<std::string>> feeder;
  for (const std::string& name : names) {
    std::string found = pl::find_program(pl::sibling_tool(name));
    if (found.empty()) return {};
    feeder.push_back({found});
  }
  return feeder;
}

class Fuzzer {
 public:
  Fuzzer(Config config, Options options, std::string self)
      : config_(std::move(config)), options_(std::move(options)), self_(std::move(self)) {}
  int run();

 private:
  std::string replay_command(uint64_t seed) const;
  void save_failure(uint64_t seed, const pl::fuzz::RunResult& r);
  void progress(bool final);

  Config config_;
  Options options_;
  std::string self_;
  uint64_t runs_ = 0, failures_ = 0, skipped_ = 0;
  std::chrono::steady_clock::time_point begin_ = std::chrono::steady_clock::now(), last_progress_ = begin_;
  bool terminal_ = ::isatty(2);
  std::set<std::string> skip_reasons_;
};

std::string Fuzzer::replay_command(uint64_t seed) const {
  std::vector<std::string> argv{self_, "--seed", std::to_string(seed), "--runs", "1", "--level", config_.level};
  if (config_.generator != "csmith" && (config_.level == "c" || config_.level == "ast")) {
    argv.insert(argv.end(), {"--gen", config_.generator});
    for (const std::string& a : config_.gen_args) argv.push_back("--gen-arg=" + a);
  }
  if (config_.level != "c" && config_.level != "ast") {
    argv.insert(argv.end(), {"--nodes", std::to_string(config_.nodes), "--functions", std::to_string(config_.functions)});
    if (!config_.floats) argv.push_back("--no-float");
  }
  argv.insert(argv.end(), {"--timeout", std::to_string(static_cast<long>(config_.timeout)), "--keep",
                           fs::absolute(options_.keep).string(), "--"});
  for (size_t s = 0; s < config_.pipe.size(); ++s) {
    if (s > 0) argv.push_back("|");
    argv.insert(argv.end(), config_.pipe[s].begin(), config_.pipe[s].end());
  }
  return pl::shell_join(argv);
}

void Fuzzer::save_failure(uint64_t seed, const pl::fuzz::RunResult& r) {
  fs::path dir = fs::path(options_.keep) / ("seed-" + std::to_string(seed));
  fs::create_directories(dir);
  for (const std::string& f : r.files)
    if (fs::exists(f)) fs::copy_file(f, dir / fs::path(f).filename(), fs::copy_options::overwrite_existing);
  std::string replay = replay_command(seed);
  std::string generate;
  if (config_.generator == "cgen" && (config_.level == "c" || config_.level == "ast")) {
    std::vector<std::string> argv = pl::fuzz::cgen_command(config_, seed, "input.c");
    argv[0] = "pipe-cgen";
    generate = "generate: " + pl::shell_join(argv) + "\n";
  }
  std::ofstream(dir / "report.txt") << "seed " << seed << ": " << r.what << "\n" << r.detail << generate
                                    << "replay: " << replay << "\n";
  fs::path script = dir / "replay.sh";
  std::ofstream(script) << "#!/bin/sh\n# pipe-fuzz failure, seed " << seed << ": " << r.what
                        << "\n# Exits 1 while the failure reproduces (the files here are this run's).\nexec " << replay
                        << "\n";
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
  if (terminal_) std::cerr << "\r\033[K";
  std::cerr << "pipe-fuzz: seed " << seed << ": FAIL: " << r.what << "\n"
            << r.detail << "  saved in " << dir.string() << "/\n  replay: " << replay << "\n";
}

void Fuzzer::progress(bool final) {
  auto now = std::chrono::steady_clock::now();
  if (!final && now - last_progress_ < std::chrono::seconds(terminal_ ? 1 : 10)) return;
  last_progress_ = now;
  double seconds = std::chrono::duration<double>(now - begin_).count();
  char speed[32];
  std::snprintf(speed, sizeof speed, "%.1f", seconds > 0 ? static_cast<double>(runs_) / seconds : 0.0);
  std::string line = "pipe-fuzz: " + std::to_string(runs_) + " runs, " + std::to_string(failures_) + " failures, " +
                     std::to_string(skipped_) + " skipped, " + speed + " runs/s";
  if (terminal_) std::cerr << "\r\033[K" << line << (final ? "\n" : "") << std::flush;
  else std::cerr << line << "\n";
}

int Fuzzer::run() {
  fs::path work = fs::temp_directory_path() / ("pipe-fuzz." + std::to_string(::getpid()));
  fs::create_directories(work);
  if (config_.level.empty()) config_.level = probe_level(config_, work.string());
  if (config_.level != "c" && config_.level != "ast" && !pl::runnable_level(*pl::parse_level(config_.level))) {
    config_.feeder = feeder_for(config_.level);
    if (config_.feeder.empty()) {
      fs::remove_all(work);
      throw pl::UsageError(config_.pipe[0][0] + " reads level '" + config_.level +
                           "', for which pipe-fuzz has no program generator yet");
    }
  }
  if (config_.level == "ast" && config_.c2ast.empty()) {
    fs::remove_all(work);
    throw pl::UsageError("inputs at level ast come from csmith through c2ast, and c2ast is not found");
  }
  auto deadline = begin_ + std::chrono::duration<double>(options_.time);
  for (uint64_t k = 0;; ++k) {
    if (options_.time > 0 ? std::chrono::steady_clock::now() >= deadline : k >= options_.runs) break;
    uint64_t seed = options_.seed + k;
    fs::path dir = work / ("run-" + std::to_string(seed));
    fs::create_directories(dir);
    pl::fuzz::RunResult r = pl::fuzz::fuzz_one(config_, seed, dir.string());
    ++runs_;
    if (r.outcome == pl::fuzz::Outcome::Fail) {
      ++failures_;
      save_failure(seed, r);
    } else if (r.outcome == pl::fuzz::Outcome::Skip) {
      ++skipped_;
      if (skip_reasons_.insert(r.what).second) {
        if (terminal_) std::cerr << "\r\033[K";
        std::cerr << "pipe-fuzz: seed " << seed << " skipped: " << r.what << " (said once per reason)\n";
      }
    }
    fs::remove_all(dir);
    progress(false);
  }
  progress(true);
  fs::remove_all(work);
  return failures_ ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> pipe_words;
  int tool_argc = pl::split_at_double_dash(argc, argv, pipe_words);
  pl::Tool tool({"pipe-fuzz", "Fuzz a stage or a pipe of stages with random programs; save each failure with its replay.",
                 "  pipe-fuzz --runs 200 -- cfg2ssa\n"
                 "  pipe-fuzz --time 60 --seed 1000 -- ast2cfg '|' cfg2ssa '|' ssa2son\n"
                 "  pipe-fuzz --runs 20 -- c2ast '|' ast2cfg    # csmith programs against gcc\n"
                 "  pipe-fuzz --gen cgen --runs 50 -- pipecc -O2  # pipe-cgen programs, native, against gcc",
                 /*has_output=*/false, /*has_input=*/false});
  Options options;
  Config config;
  tool.cli().add_option("--seed", options.seed, "Seed of the first run (run k uses seed + k)")->capture_default_str();
  auto* runs = tool.cli().add_option("--runs", options.runs, "Number of runs (default 100)");
  tool.cli().add_option("--time", options.time, "Run for this many seconds instead")->excludes(runs)
      ->check(CLI::PositiveNumber);
  tool.cli().add_option("--keep", options.keep, "Directory for failures")->capture_default_str();
  tool.cli().add_option("--level", options.level,
                        "Input level: c, ast, cfg, ssa, son, son-x64, cfg-x64 or ra-x64 (default: ask the stage)")
      ->check(CLI::IsMember({"c", "ast", "cfg", "ssa", "son", "son-x64", "cfg-x64", "ra-x64"}));
  tool.cli().add_option("--nodes", config.nodes, "Approximate nodes per generated program")
      ->check(CLI::Range(uint64_t{10}, uint64_t{1} << 24))->capture_default_str();
  bool no_float = false;
  tool.cli().add_flag("--no-float", no_float,
                      "Generated programs without f32/f64 values (the programs seeds gave before them)");
  tool.cli().add_option("--functions", config.functions, "Functions per generated program")
      ->check(CLI::Range(1u, 100u))->capture_default_str();
  tool.cli().add_option("--timeout", config.timeout, "Seconds each process may take")
      ->check(CLI::PositiveNumber)->capture_default_str();
  tool.cli().add_option("--gen", config.generator, "C programs from csmith or cgen (pipe-cgen)")
      ->check(CLI::IsMember({"csmith", "cgen"}))->capture_default_str();
  tool.cli().add_option("--gen-arg", config.gen_args, "An argument for pipe-cgen (repeatable): --gen-arg=--attributes")
      ->allow_extra_args(false);
  return tool.main(tool_argc, argv, [&](pl::Tool&) {
    if (pipe_words.empty()) throw pl::UsageError("no stage to fuzz: give -- STAGE [ARGS]");
    if (options.runs == 0 && options.time == 0) options.runs = 100;
    config.pipe = parse_pipe(pipe_words);
    for (auto& stage : config.pipe) stage[0] = program(stage[0]);
    config.level = options.level;
    config.floats = !no_float;
    config.pipe_run = program("pipe-run");
    config.c2ast = pl::find_program(pl::sibling_tool("c2ast"));
    config.native = basename_of(config.pipe[0][0]) == "pipecc";
    if (config.native && config.pipe.size() > 1)
      throw pl::UsageError("pipecc writes a program, which no stage reads: fuzz it alone (-- pipecc -O2)");
    if (config.generator == "cgen") config.cgen = program("pipe-cgen");
    if (!config.gen_args.empty() && config.generator != "cgen") throw pl::UsageError("--gen-arg needs --gen cgen");
    std::string self = pl::own_directory() + "/pipe-fuzz";
    int status = Fuzzer(config, options, self).run();
    if (status != 0) throw pl::AlreadyReported();
  });
}
