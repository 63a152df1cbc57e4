// steps.cpp - run the stages on a C file and collect every step (view.h).
//
// The stages run as their own processes (found beside pipe-view, else in
// PATH), each reading the previous one's binary output from a file in the
// work directory: c2ast, ast2cfg, cfg2ssa, ssa2son, sonopt -ON (N > 0),
// son-lower-x64, son2cfg, cfgopt -ON, regalloc-x64, and codegen-x64 -f asm
// -g (the machine code as assembly text, its .loc lines tying instructions
// to source lines). An optimizer that is not built is left out; any other
// stage that is not built ends the list there (the stages after it read its
// level), so the page grows as stages land.
//
// sonopt pass by pass: one run with --print-changed names the pass
// applications that changed something ("# PASS changed 'F' (application
// N, ...)" on stderr, each followed by its graph diff); then `sonopt --bisect-limit=N` for each such N gives
// the module right after application N (the applications after N are
// skipped), so each pass step is a whole module a person can also make
// again by hand with the step's command.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>

#include "encoding/format.h"
#include "tool/subprocess.h"
#include "tool/tool.h"
#include "view.h"

namespace pl::view {

namespace {

namespace fs = std::filesystem;

struct StageSpec {
  const char* name;
  bool optimizer;  // takes -ON; left out when not built or at -O0
};
constexpr StageSpec kStages[] = {{"c2ast", false},   {"ast2cfg", false},       {"cfg2ssa", false},
                                 {"ssa2son", false}, {"sonopt", true},         {"son-lower-x64", false},
                                 {"son2cfg", false}, {"cfgopt", true},         {"regalloc-x64", false},
                                 {"codegen-x64", false}};

Module read_module_file(const std::string& path) {
  ByteSource src = ByteSource::open(path);
  return read_module(src);
}

class Collector {
 public:
  Collector(const Config& config, std::string dir) : config_(config), dir_(std::move(dir)) {}
  std::vector<Step> run();

 private:
  // Runs argv (input and output files appended by the caller); on success
  // adds a step with the module at `out`. False when the stage failed.
  bool stage_step(const std::string& title, const std::string& stage, std::vector<std::string> argv,
                  const std::string& out);
  bool optimizer_steps(const std::string& stage, const std::string& program);
  bool assembly_step(const std::string& program);
  std::string next_output(const std::string& stage) {
    return dir_ + "/" + std::to_string(counter_++) + "." + stage + ".bin";
  }

  const Config& config_;
  std::string dir_;
  std::vector<Step> steps_;
  std::string input_;  // the last good output
  int counter_ = 0;
};

bool Collector::stage_step(const std::string& title, const std::string& stage, std::vector<std::string> argv,
                           const std::string& out) {
  ProcessResult r = run_process({argv, "", "", config_.timeout});
  Step step;
  step.title = title;
  step.stage = stage;
  step.command = shell_join(argv);
  if (r.status != 0 || r.timed_out) {
    step.failure = stage + " " + r.describe() + "\n" + r.err;
    steps_.push_back(std::move(step));
    return false;
  }
  step.module = read_module_file(out);
  steps_.push_back(std::move(step));
  return true;
}

bool Collector::optimizer_steps(const std::string& stage, const std::string& program) {
  std::string opt = "-O" + std::to_string(config_.opt_level);
  std::string full = next_output(stage);
  std::vector<std::string> argv{program, opt, "--print-changed", input_, "-o", full, "-f", "bin"};
  ProcessResult r = run_process({argv, "", "", config_.timeout, size_t{64} << 20});
  if (r.status != 0 || r.timed_out) {
    Step step;  // (not aggregate-initialized: gcc 12 -O3 warns about the empty Module's strings)
    step.title = stage + " " + opt;
    step.stage = stage;
    step.command = shell_join(argv);
    step.failure = stage + " " + r.describe() + "\n" + r.err;
    steps_.push_back(std::move(step));
    return false;
  }
  // The applications that changed something, in order, with what they were.
  static const std::regex header(R"(^# (\S+) changed '(.*)' \(application (\d+),)");
  std::vector<std::pair<uint64_t, std::string>> changed;
  std::set<uint64_t> seen;
  size_t begin = 0;
  while (begin < r.err.size()) {
    size_t end = r.err.find('\n', begin);
    if (end == std::string::npos) end = r.err.size();
    std::smatch m;
    std::string line = r.err.substr(begin, end - begin);
    if (std::regex_search(line, m, header)) {
      uint64_t n = std::stoull(m[3]);
      if (seen.insert(n).second) changed.emplace_back(n, m[1].str() + " on '" + m[2].str() + "'");
    }
    begin = end + 1;
  }
  size_t shown = std::min(changed.size(), config_.max_pass_steps);
  for (size_t k = 0; k < shown; ++k) {
    std::string out = next_output(stage);
    std::vector<std::string> step_argv{program, opt, "--bisect-limit=" + std::to_string(changed[k].first), input_,
                                       "-o", out, "-f", "bin"};
    if (!stage_step(stage + " " + opt + ": " + changed[k].second + " (application " +
                        std::to_string(changed[k].first) + ")",
                    stage, step_argv, out))
      return false;
  }
  if (shown < changed.size() || changed.empty()) {
    std::string title = stage + " " + opt +
                        (changed.empty() ? " (no pass changed anything)"
                                         : " (the other " + std::to_string(changed.size() - shown) + " applications)");
    steps_.push_back({title, stage, shell_join({program, opt, input_}), read_module_file(full), ""});
  }
  input_ = full;
  return true;
}

// codegen-x64's output is not a module: the step keeps the assembly text.
bool Collector::assembly_step(const std::string& program) {
  std::string out = dir_ + "/" + std::to_string(counter_++) + ".codegen-x64.s";
  std::vector<std::string> argv{program, input_, "-f", "asm", "-g", "-o", out};
  ProcessResult r = run_process({argv, "", "", config_.timeout});
  Step step;
  step.title = "codegen-x64";
  step.stage = "codegen-x64";
  step.command = shell_join(argv);
  if (r.status != 0 || r.timed_out) {
    step.failure = "codegen-x64 " + r.describe() + "\n" + r.err;
    steps_.push_back(std::move(step));
    return false;
  }
  std::ifstream in(out, std::ios::binary);
  step.assembly.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (step.assembly.empty()) step.failure = "codegen-x64 wrote no assembly to " + out;
  steps_.push_back(std::move(step));
  return true;
}

std::vector<Step> Collector::run() {
  for (const StageSpec& spec : kStages) {
    std::string stage = spec.name;
    std::string program = find_program(sibling_tool(stage));
    if (spec.optimizer) {
      if (program.empty() || config_.opt_level == 0) continue;
      if (!optimizer_steps(stage, program)) break;
    } else if (stage == "codegen-x64") {
      if (program.empty() || !assembly_step(program)) break;
    } else {
      if (program.empty()) break;
      std::string out = next_output(stage);
      std::vector<std::string> argv{program};
      if (stage == "c2ast") {
        argv.insert(argv.end(), config_.frontend_args.begin(), config_.frontend_args.end());
        argv.push_back(config_.c_file);
      } else {
        argv.push_back(input_);
      }
      argv.insert(argv.end(), {"-o", out, "-f", "bin"});
      if (!stage_step(stage, stage, argv, out)) break;
      input_ = out;
    }
    if (stage == config_.stop_after) break;
  }
  return std::move(steps_);
}

}  // namespace

std::vector<Step> collect_steps(const Config& config, const std::string& work_dir) {
  return Collector(config, work_dir).run();
}

}  // namespace pl::view
