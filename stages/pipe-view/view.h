// view.h - the pieces of pipe-view (see pipe-view.cpp for the tool).
//
//   steps.cpp  runs the stages on the C file and collects every step: each
//              stage's output, and with sonopt each pass application that
//              changed something (through --print-changed and --bisect-limit),
//              and last the machine code as codegen-x64's assembly
//   page.cpp   the self-contained HTML page: source, text and drawing per
//              step, colour-matched by source line, changes highlighted
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"

namespace pl::view {

// One step of the compile: a module, the assembly codegen-x64 writes, or a
// stage that failed.
struct Step {
  std::string title;    // "ssa2son", "sonopt: gvn on 'main' (application 7)"
  std::string stage;    // the program that made it
  std::string command;  // how to make it again (a shell line)
  Module module;
  std::string failure;  // non-empty: the stage failed; its stderr
  std::string assembly;  // non-empty: the step is codegen-x64's GNU assembly (with -g: .loc lines), no module
};

struct Config {
  std::string c_file;
  std::vector<std::string> frontend_args;  // -I/-D/-U for c2ast
  int opt_level = 2;                       // sonopt -O (0: no sonopt)
  std::string stop_after;                  // last stage ("" = every stage found)
  size_t max_pass_steps = 60;              // sonopt pass applications shown
  double timeout = 120;                    // seconds per process
};

// Runs the pipeline; the steps in order. The first step is c2ast's (a C
// error there is a usage of bad input: FormatError-like, thrown as
// AlreadyReported after printing). A later failing stage ends the list with
// a failure step.
std::vector<Step> collect_steps(const Config& config, const std::string& work_dir);

struct PageOptions {
  size_t graph_limit = 1500;  // no drawing for a step with more nodes
};

// The whole page.
std::string render_page(const std::string& c_file, const std::string& source, const std::vector<Step>& steps,
                        const PageOptions& options);

}  // namespace pl::view
