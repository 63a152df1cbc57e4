// check_each.cpp - see check_each.h.
#include "tool/check_each.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "ir/error.h"
#include "encoding/format.h"
#include "tool/subprocess.h"

namespace pl {

namespace {

constexpr int kRuntimeErrorStatus = 70;  // pipe-run's (stages/pipe-run/run.h)

std::string temp_path() {
  const char* dir = std::getenv("TMPDIR");
  std::string templ = std::string(dir && *dir ? dir : "/tmp") + "/pipe-check-each-XXXXXX";
  int fd = mkstemp(templ.data());
  if (fd < 0) throw std::runtime_error("--check-each: cannot create a temporary file in " + templ);
  close(fd);
  return templ;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::string quoted_line(std::string_view line) {
  if (line.size() > 80) return "'" + std::string(line.substr(0, 77)) + "...'";
  return "'" + std::string(line) + "'";
}

// "stdout differs at line 3: ..." for one stream; "" if equal.
std::string stream_difference(const char* name, const std::string& a, const std::string& b) {
  if (a == b) return "";
  std::vector<std::string_view> la = lines_of(a), lb = lines_of(b);
  size_t i = 0;
  while (i < la.size() && i < lb.size() && la[i] == lb[i]) ++i;
  std::string out = std::string(name) + " differs at line " + std::to_string(i + 1) + ": ";
  out += i < la.size() ? quoted_line(la[i]) : std::string("(end)");
  out += " before, ";
  out += i < lb.size() ? quoted_line(lb[i]) : std::string("(end)");
  return out + " after";
}

}  // namespace

std::string describe_difference(const Behaviour& reference, const Behaviour& now) {
  std::string out;
  auto add = [&](const std::string& part) {
    if (part.empty()) return;
    out += (out.empty() ? "" : "; ") + part;
  };
  if (reference.status != now.status)
    add("exit status " + std::to_string(reference.status) + " before, " + std::to_string(now.status) +
        (now.status == kRuntimeErrorStatus ? " (a runtime error)" : "") + " after");
  add(stream_difference("stdout", reference.out, now.out));
  add(stream_difference("stderr", reference.err, now.err));
  return out;
}

BehaviourCheck::BehaviourCheck(std::string tool, double timeout, bool skip_unrunnable)
    : tool_(std::move(tool)),
      timeout_(timeout),
      path_(temp_path()),
      pipe_run_(sibling_tool("pipe-run")),
      skip_unrunnable_(skip_unrunnable) {}

BehaviourCheck::~BehaviourCheck() { unlink(path_.c_str()); }

BehaviourCheck::Run BehaviourCheck::run(const std::vector<const Function*>& fns, const ModuleHeader& header) const {
  write_module_file(path_, Encoding::Binary, header, fns);
  ProcessSpec spec;
  spec.argv = {pipe_run_, path_};
  spec.timeout_seconds = timeout_;
  ProcessResult r = run_process(spec);
  if (r.exec_failed) r = run_process(spec);  // once more: a loaded machine can fail a fork or exec
  Run out;
  out.behaviour = {r.status, r.out, r.err};
  // pipe-run's own failures (bad module, usage, internal error: statuses 1
  // to 3 with its diagnostic) are not the program's behaviour; a program
  // may exit 1 itself, or die by a signal (abort()), and that is behaviour.
  bool tool_failed = r.status >= 1 && r.status <= 3 && r.err.starts_with("pipe-run: ") &&
                     r.err.find(" error: ") != std::string::npos && r.err.find("runtime error") == std::string::npos;
  if (r.timed_out || r.exec_failed || tool_failed)
    out.problem = "pipe-run " + r.describe() + (r.err.empty() ? "" : ": " + r.err.substr(0, r.err.find('\n')));
  return out;
}

void BehaviourCheck::take_reference(const std::vector<const Function*>& fns, const ModuleHeader& header) {
  Run r = run(fns, header);
  if (r.problem.empty() && r.behaviour.status == kRuntimeErrorStatus)
    r.problem = "a runtime error: " + r.behaviour.err.substr(0, r.behaviour.err.find('\n'));
  has_reference_ = true;
  if (!r.problem.empty() && skip_unrunnable_) {
    std::cerr << tool_ << ": warning: --check-each: the input does not run cleanly under pipe-run (" << r.problem
              << "); no pass application is checked\n";
    skipped_ = true;
    return;
  }
  if (!r.problem.empty())
    throw FormatError(Where(), "--check-each: the input does not run cleanly under pipe-run, so it cannot serve as "
                               "the reference (" + r.problem + ")");
  reference_ = std::move(r.behaviour);
}

void BehaviourCheck::check(const std::vector<const Function*>& fns, const ModuleHeader& header, const std::string& what,
                           uint64_t application) {
  if (skipped_) return;
  Run r = run(fns, header);
  std::string difference = describe_difference(reference_, r.behaviour);
  if (r.problem.empty() && difference.empty()) return;
  std::string how = r.problem.empty() ? difference : r.problem;
  throw std::logic_error("--check-each: " + what + " changed what the program does: " + how +
                         ". Reproduce with --bisect-limit=" + std::to_string(application) + " (and " +
                         std::to_string(application - 1) + " to see the module right before it)");
}

}  // namespace pl
