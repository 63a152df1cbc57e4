// identity.h - what pipecc says it is: --version, -v, -dumpversion and the
// other questions build systems ask a cc (identity.cpp), and the stage
// table the driver runs and the build identifier covers.
#pragma once

#include <string>

#include "options.h"

namespace pl::pipecc {

struct StageSpec {
  const char* name;
  int min_opt_level;  // the stage runs at this -O level and above
};
// The pipeline of stages, in order (README, "The pieces").
inline constexpr StageSpec kStages[] = {
    {"c2ast", 0},         {"ast2cfg", 0}, {"cfg2ssa", 0}, {"ssa2son", 0},      {"sonopt", 1},
    {"son-lower-x64", 0}, {"son2cfg", 0}, {"cfgopt", 1},  {"regalloc-x64", 0}, {"codegen-x64", 0},
};

// The system's cc, pipecc's linker driver and assembler ($PIPECC_LINKER
// overrides /usr/bin/cc).
std::string cc_path();

// A hash of every stage executable, pipecc itself and the clang and LLVM
// libraries they load (size, modification time and inode of each): changes
// whenever any of them is rebuilt or replaced.
std::string build_id(const std::string& tool_dir);

// --version's text (also printed first by -v).
std::string version_text(const std::string& tool_dir);

// Answers options.query on stdout (or stderr for -v alone); the exit status.
int answer_query(const Options& options, const std::string& tool_dir);

}  // namespace pl::pipecc
