// subprocess.h - run another program with a time limit (pipe-fuzz runs the
// stages under test, pipe-reduce its "still interesting" command).
//
// The child gets its own process group, so a timeout kills the program and
// everything it started (a shell script's children included). stdin comes
// from a file (or /dev/null), stdout goes to a file or is captured, stderr is
// captured (up to a limit; the rest is dropped).
#pragma once

#include <string>
#include <vector>

#include "tool/tool.h"

namespace pl {

struct ProcessSpec {
  std::vector<std::string> argv;   // argv[0] is looked up in PATH if it has no '/'
  std::string stdin_path;          // empty: /dev/null
  std::string stdout_path;         // empty: captured into ProcessResult::out
  double timeout_seconds = 0;      // 0: none
  size_t capture_limit = 1 << 20;  // bytes kept of each captured stream
};

struct ProcessResult {
  int status = 0;          // exit status; 128 + N when killed by signal N
  bool timed_out = false;  // killed after timeout_seconds
  bool exec_failed = false;  // the program could not be started (status 127 and a "cannot run" message in err)
  std::string out, err;
  double seconds = 0;
  // "exit 3", "killed by signal 11", "timed out after 30 s", "could not run"
  std::string describe() const;
};

ProcessResult run_process(const ProcessSpec& spec);

// The directory holding the running executable (from /proc/self/exe), so a
// tool finds its sibling tools (pipe-fuzz finds pipe-run) in a build tree.
std::string own_directory();
// `name` if it has a '/', else own_directory()/name if that exists, else name
// (left to PATH).
std::string sibling_tool(const std::string& name);

// The program argv[0] of a ProcessSpec would run: `name` if it has a '/'
// and is executable, else the first executable `name` in PATH; "" if none.
std::string find_program(const std::string& name);

// shell_quote and shell_join (command lines for people) live in tool.h.

}  // namespace pl
