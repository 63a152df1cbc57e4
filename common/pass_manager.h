// pass_manager.h - a declarative pass manager (seed 003's "define
// compilation-pass"), shared by the optimizing stages (sonopt now, cfgopt
// later). It knows nothing about any level: a pass is a function over a
// pl::Function (or over every function of the module) that returns how many
// changes it made.
//
// Each pass is declared once, in one table (a std::vector<PassDecl> the
// stage owns), with:
//   name, summary       what --list-passes shows;
//   min_level           the lowest -O level that runs it (kTestOnly: never
//                       at any -O level, only when --passes names it);
//   before / after      ordering constraints ("run this pass before X");
//   triggers /          if this pass changed something, X runs again (and
//   triggered_by        the reverse: X changing something reruns this pass);
//   function_pass or    the entry point: per function (the module streams one
//   module_pass         function at a time) or over the whole module.
//
// The schedule is computed, never hand-ordered: a topological order of ALL
// declared passes over the before/after edges (Kahn's algorithm, ties broken
// by declaration order, so it is deterministic; a cycle or an unknown name is
// a bug in the table, reported as an internal error), filtered to the passes
// the -O level enables (so a constraint through a disabled pass still holds).
// Then rounds run to a fixpoint: round 1 runs every scheduled pass; a pass
// that reports changes marks the passes it triggers as pending (for that
// function; a module pass marks every function); each later round runs, in
// schedule order, only the pending passes; at most kMaxRounds rounds.
// Unlike the seed, a triggered pass later in the order still runs in the same
// round, and one earlier in the order in the next round.
//
// `--passes=a,b,c` replaces the schedule: exactly those passes, in that order
// (repeats allowed), one round, no triggers, so a test sees exactly one
// application of each.
//
// Flags (add_options): -O0/-O1/-O2 (default -O2), --passes, --list-passes,
// --print-after=PASS|all (the function after each application of PASS),
// --print-changed (what each application changed, as a graph diff of the
// function before and after it: common/graph_diff.h, the matching pipe-diff
// uses, so renumbering is not a change), --verify-each, --bisect-limit=N,
// --stats, --dump-changed=DIR (the whole module, printable form, after every
// application that changed something, to DIR/NNNNN-PASS.txt with NNNNN the
// application number: each file is a runnable module, so a test can run
// every intermediate state; it makes the stage read the whole module). A "pass application" is one run of one pass on one function (or
// of a module pass on the module); applications are numbered from 1 in the
// order they happen. --bisect-limit=N runs the first N and skips the rest
// (a skipped application reports no change), and names application N on
// stderr, so a miscompile bisects to one application. Printing and stats go
// to stderr; the module output is never affected by them.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "ir.h"

namespace pl {

struct ToolInfo;

using FunctionPassFn = size_t (*)(Function& fn, const ModuleHeader& header);
// A module pass may add to the header (an extern for a library function it
// calls: loop-idiom's memset); the header is written after the passes ran.
using ModulePassFn = size_t (*)(std::vector<Function>& fns, ModuleHeader& header);

struct PassDecl {
  static constexpr int kTestOnly = 99;  // only through --passes (test passes)
  std::string_view name;
  std::string_view summary;
  int min_level = 1;
  std::vector<std::string_view> before;
  std::vector<std::string_view> after;
  std::vector<std::string_view> triggers;
  std::vector<std::string_view> triggered_by;
  FunctionPassFn function_pass = nullptr;  // exactly one of the two is set
  ModulePassFn module_pass = nullptr;
};

class PassManager {
 public:
  static constexpr int kMaxRounds = 8;

  // `level` is the level of the functions the passes transform (for
  // --verify-each and --print-*). Checks the table (names unique, every
  // before/after/trigger names a declared pass, exactly one entry point, no
  // ordering cycle): a bad table throws std::logic_error.
  PassManager(std::string tool, std::vector<PassDecl> passes, Level level);

  void add_options(CLI::App& app);
  // After parsing: resolves --passes and -O into the schedule. An unknown
  // pass name or a bad -O is a UsageError (exit 2).
  void prepare();

  bool list_requested() const { return list_passes_; }
  // The table and the schedule at each -O level (for --list-passes).
  void list(std::ostream& out) const;
  // Whether the schedule holds a module pass (then the stage must read the
  // whole module and call run() once on every function).
  bool needs_module() const;
  // Runs the schedule on `fns` (one function when streaming).
  void run(std::vector<Function>& fns, ModuleHeader& header);
  // Prints --stats and the --bisect-limit summary to stderr.
  void finish();

  const std::vector<size_t>& schedule() const { return schedule_; }

 private:
  struct Stats {
    uint64_t applications = 0, changed = 0, changes = 0, nodes_before = 0, nodes_after = 0;
    double seconds = 0;
  };
  size_t index_of(std::string_view name) const;
  std::vector<size_t> topological_order() const;
  std::vector<size_t> schedule_for(int level) const;
  // One application of pass p to fns[f] (or to all, for a module pass);
  // returns its number of changes (0 when --bisect-limit skips it).
  size_t apply(size_t p, std::vector<Function>& fns, size_t f, ModuleHeader& header, int round);
  void after_application(size_t p, const Function& fn, const ModuleHeader& header, size_t changes, int round);
  void print_changes(size_t p, const std::vector<Function>& before, const std::vector<Function>& fns, size_t f,
                     const ModuleHeader& header, size_t changes, int round) const;
  void dump_module(size_t p, uint64_t number, const std::vector<Function>& fns, const ModuleHeader& header) const;

  std::string tool_;
  std::vector<PassDecl> passes_;
  std::vector<std::vector<size_t>> triggers_;  // pass -> passes it reruns
  Level level_;
  std::vector<size_t> order_;                  // topological order of every pass

  // Flags.
  int opt_level_ = 2;
  std::string passes_flag_;
  bool list_passes_ = false;
  std::string print_after_;
  bool print_changed_ = false;
  bool verify_each_ = false;
  std::optional<uint64_t> bisect_limit_;
  bool stats_ = false;
  std::string dump_dir_;

  std::vector<size_t> schedule_;
  bool explicit_passes_ = false;
  uint64_t applications_ = 0;
  std::vector<Stats> stats_by_pass_;
};

// The whole main() of an optimizing stage (sonopt, cfgopt): the tool
// contract of common/tool.h plus the flags above; reads a module at `level`,
// verifies each function, runs the schedule (one function at a time, or the
// whole module when a scheduled pass needs it) and writes the module at the
// same level. Returns the exit status.
int optimizer_main(const ToolInfo& info, std::vector<PassDecl> passes, Level level, int argc, char** argv);

}  // namespace pl
