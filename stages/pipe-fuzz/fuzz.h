// fuzz.h - the pieces of pipe-fuzz (see pipe-fuzz.cpp for the tool).
//
//   pipe-fuzz.cpp  command line, the input level, the run loop, progress,
//                  saving failures with their replay command
//   fuzz_run.cpp   one run: make the input, its reference behaviour, run the
//                  pipe twice, check exit status, verifier, determinism and
//                  behaviour
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pl::fuzz {

inline constexpr const char* kCsmithInclude = "/usr/include/csmith";

// What a run of pipe-fuzz does, fixed for all runs.
struct Config {
  std::vector<std::vector<std::string>> pipe;  // stages; argv[0] resolved
  std::string level;        // input level: "c", "ast", or a module level
  // For a level pipe-gen cannot write (son-x64, cfg-x64, ra-x64 until it
  // can): the stages that make it from a runnable son program, e.g.
  // {son-lower-x64, son2cfg} for cfg-x64 (empty: pipe-gen writes `level`).
  std::vector<std::vector<std::string>> feeder;
  uint32_t functions = 3;   // runnable-program size (module levels)
  uint64_t nodes = 300;
  bool floats = true;       // f32/f64 values in them (--no-float: the programs from before)
  double timeout = 30;      // seconds per process
  std::string pipe_run;     // resolved tools
  std::string c2ast;
  // C inputs (levels c and ast): "csmith", or "cgen" (pipe-cgen, resolved
  // in cgen, with gen_args added to its command line).
  std::string generator = "csmith";
  std::string cgen;
  std::vector<std::string> gen_args;
  // The pipe is pipecc alone: it compiles the C files to a program, which
  // runs natively (no module to verify; one compile per run).
  bool native = false;
};

enum class Outcome { Pass, Skip, Fail };

struct RunResult {
  Outcome outcome = Outcome::Pass;
  std::string what;     // one line: "ssa2son exited 3", "behaviour differs ..."
  std::string detail;   // more lines (stderr tails, the two behaviours)
  std::vector<std::string> files;  // files of the run worth keeping
};

// One run with `seed` in the empty directory `dir`.
RunResult fuzz_one(const Config& config, uint64_t seed, const std::string& dir);

// The csmith program for `seed` written to `path`; false if csmith failed.
bool make_csmith_program(uint64_t seed, const std::string& path, std::string& error);

// pipe-cgen's command line for `seed` writing `path` (its parts beside it):
// the seed also picks one, two or three files, joined by #include (always
// when the pipe starts with c2ast, which reads one file) or compiled
// separately, unless gen_args give --files.
std::vector<std::string> cgen_command(const Config& config, uint64_t seed, const std::string& path);

}  // namespace pl::fuzz
