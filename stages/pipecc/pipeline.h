// pipeline.h - running a shell-style pipeline of processes (pipecc).
#pragma once

#include <string>
#include <vector>

namespace pl::pipecc {

// One process: argv[0] is the program's path; `name` is what diagnostics
// call it (the stage name).
struct Command {
  std::string name;
  std::vector<std::string> argv;
};

// cmd1 | cmd2 | ... ; the first reads nothing (stdin is /dev/null) unless
// in_fd says (pipecc's stdin for the input `-`), the last writes wherever its
// own arguments say (stdout is out_fd: pipecc's, or the -E output file).
struct Pipeline {
  std::vector<Command> commands;
  int out_fd = 1;   // the last command's stdout
  int in_fd = -1;   // the first command's stdin; -1: /dev/null
  std::string out_redirect;  // shown as `>> FILE` by shell_line when out_fd is a file
};

// The pipeline as one line a POSIX shell runs the same way.
std::string shell_line(const Pipeline& p);

// The status of a pipeline whose output went to a pipe that its reader
// closed: pipecc then dies of SIGPIPE, quietly, as a filter does.
constexpr int kOutputClosed = 128 + 13;

struct RunResult {
  int status = 0;        // 0, 1 (bad input), 3 (internal error) or kOutputClosed
};

// Runs every command at once, joined by pipes, and waits for all of them.
// Each command's stderr is collected; then the first command that failed
// (a command killed by SIGPIPE only because a later one stopped reading did
// not fail) is the culprit: the stderr of every command up to it is copied
// to pipecc's stderr in pipeline order, and nothing of the commands after it
// (they failed because their input ended early). A culprit that exited 1
// reported bad input: status 1. Anything else (another exit status, a
// signal) is an internal error: pipecc says which stage and prints the
// pipeline that reproduces it: status 3. Before all that: when the last
// command failed and pipecc's output (out_fd) is a pipe nobody reads any
// more, the status is kOutputClosed and nothing is printed.
RunResult run(const Pipeline& p);

}  // namespace pl::pipecc
