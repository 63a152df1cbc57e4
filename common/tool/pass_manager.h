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
// function; a module pass marks them for the functions it says it changed,
// ModuleScope); each later round runs, in schedule order, only the pending
// passes; at most kMaxRounds rounds. Unlike the seed, a triggered pass later
// in the order still runs in the same round, and one earlier in the order in
// the next round.
//
// When the schedule holds a module pass, the stage reads the whole module,
// but it need not wait for it (run_module): each function, as it arrives,
// gets the rounds of the function passes alone, to their fixpoint (module
// passes are pending for the whole module anyway), so that work overlaps
// the stages before it in the pipe; then rounds run over the module as
// above, module passes included, starting from what each function still
// has pending. Round 1 over the whole module would instead run licm and
// loop-idiom (first in the schedule) before the function passes, so the
// two orders are not byte-identical; both end at a fixpoint. (Stopping the
// early rounds after one would spare the work on functions inline then
// drops, but leaves the rounds after the module passes, which nothing
// overlaps, more to do: slower on the benchmark's long functions.)
//
// Threads. Function passes on different functions share nothing (a pass
// reads and writes its function and reads the header), so the early rounds
// run on the machine's cores (at most 4) as functions arrive, a round's
// function passes over the module run function by function on them, and a
// module pass may visit functions on them (ModuleScope::change_each). Each
// function sees exactly the applications the serial order gives it, so the
// module comes out byte-identical (tested); only the numbering of the
// applications differs, so the flags that show it (--stats, --print-after,
// --print-changed, --dump-changed, --bisect-limit) keep the serial order.
// Between applications each function keeps a FunctionCache (below).
// (Departure from the seed, whose passes run one at a time: the -O2
// pipeline's target, 30,000 lines in under a second on 2 cores, needs both.)
//
// `--passes=a,b,c` replaces the schedule: exactly those passes, in that order
// (repeats allowed), one round, no triggers, so a test sees exactly one
// application of each.
//
// Flags (add_options): -O0/-O1/-O2 (default -O2), --passes, --list-passes,
// --print-after=PASS|all (the function after each application of PASS),
// --print-changed (what each application changed, as a graph diff of the
// function before and after it: common/view/graph_diff.h, the matching pipe-diff
// uses, so renumbering is not a change), --verify-each, --bisect-limit=N,
// --stats, --dump-changed=DIR (the whole module, printable form, after every
// application that changed something, to DIR/NNNNN-PASS.txt with NNNNN the
// application number: each file is a runnable module, so a test can run
// every intermediate state; it makes the stage read the whole module),
// --check-each (runs main of the whole module under pipe-run before the
// first application and after every one that changed something, and stops
// at the first whose stdout, stderr or exit status differ, naming it and
// its --bisect-limit number: common/tool/check_each.h; reads the whole module;
// --check-timeout=S bounds each run; --check-unrunnable=skip only warns
// when the input itself does not run cleanly; the passes run in the order they run
// without it, so --bisect-limit=N reproduces application N alone). A "pass application" is one run of one pass on one function (or
// of a module pass on the module); applications are numbered from 1 in the
// order they happen. --bisect-limit=N runs the first N and skips the rest
// (a skipped application reports no change), and names application N on
// stderr, so a miscompile bisects to one application. Printing and stats go
// to stderr; the module output is never affected by them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.h"

namespace CLI {
class App;
}

namespace pl {

struct ToolInfo;
class BehaviourCheck;

// Derived data a stage keeps for one function between pass applications
// (sonopt: its Graph's def-use lists and its blocks and dominators), valid
// for the function exactly as it is: a round runs many applications in a
// row that change nothing, and each would otherwise build them again. The
// pass manager clears it after every application that reports a change (a
// module pass's: every function's), and a pass clears it the moment it
// edits the function (sonopt's Graph does on its first edit). Not copied
// with anything: it belongs to the one run.
struct FunctionCache {
  std::shared_ptr<void> data;
  void clear() { data.reset(); }
};

using FunctionPassFn = size_t (*)(Function& fn, const ModuleHeader& header, FunctionCache& cache);

// What a module pass is told of the module, and tells back, so that its
// later applications need not visit every function (with it, a round that
// changed three functions costs a module pass three functions, not the
// module).
struct ModuleScope {
  // In: dirty[f] says fns[f] changed (by any pass, this one included) since
  // this pass's previous application began; all true on its first. A pass
  // may skip a clean function when what it would do there depends only on
  // that function and on module facts recorded in `facts` (below) that have
  // not changed; otherwise it visits every function.
  std::vector<bool> dirty;
  // In/out: the fingerprint of the module facts the pass's previous
  // application depended on (licm: the set of pure functions), 0 before the
  // first; the pass stores this application's.
  uint64_t facts = 0;
  // Out: changed[f] says the application changed fns[f] (the vector as the
  // pass leaves it: functions it dropped need no entry). The pass manager
  // reruns the passes it triggers on those functions only.
  std::vector<bool> changed;
  // In: the -O level of the run (with --passes too: -O2 unless -O says
  // otherwise), for a pass whose policy follows it as gcc's does (inline).
  int level = 2;
  void mark_changed(size_t f) {
    if (changed.size() <= f) changed.resize(f + 1, false);
    changed[f] = true;
  }
  // Runs body(f), which changes only fns[f] and returns its number of
  // changes, on every function that changed since this pass last ran, or
  // on every function when `module_facts` (what the pass depends on beyond
  // each function) differ from last time's; records them in `facts`, marks
  // what body changed, returns the sum. On `threads` threads when the pass
  // manager runs rounds on threads (no flag shows the order), else in
  // order: the outcome is the same.
  size_t change_each(size_t n, uint64_t module_facts, const std::function<size_t(size_t)>& body);
  size_t threads = 1;
  // fns[f]'s FunctionCache, for a pass that reads a function through the
  // same analyses function passes keep (null when the run keeps none).
  std::vector<FunctionCache>* caches = nullptr;
  FunctionCache* cache(size_t f) const { return caches && f < caches->size() ? &(*caches)[f] : nullptr; }
};

// Calls body(i) for every i in [first, last) on up to `threads` threads,
// each taking the next index; after all stopped, rethrows the exception of
// the lowest index that threw (the ones after it may not have run).
void parallel_for(size_t threads, size_t first, size_t last, const std::function<void(size_t)>& body);

// A module pass may add to the header (an extern for a library function it
// calls: loop-idiom's memset); the header is written after the passes ran.
using ModulePassFn = size_t (*)(std::vector<Function>& fns, ModuleHeader& header, ModuleScope& scope);

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
  ~PassManager();
  PassManager(const PassManager&) = delete;
  PassManager& operator=(const PassManager&) = delete;

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
  // Runs the schedule on the module that `next` yields one function at a
  // time (false at its end), leaving it in `fns`: see "run_module" above.
  void run_module(const std::function<bool(Function&)>& next, std::vector<Function>& fns, ModuleHeader& header);
  // Prints --stats and the --bisect-limit summary to stderr.
  void finish();

  const std::vector<size_t>& schedule() const { return schedule_; }

  // --check-each runs the whole module; a stage that hands the passes part
  // of it at a time (streaming) says what the rest is: `view` gets the
  // functions a run is working on and appends pointers to every function of
  // the module, in module order. Without a view the working functions are
  // the module.
  using ModuleView = std::function<void(const std::vector<Function>& working, std::vector<const Function*>& out)>;
  bool check_each() const { return check_each_; }
  void set_module_view(ModuleView view) { module_view_ = std::move(view); }

 private:
  struct Stats {
    uint64_t applications = 0, changed = 0, changes = 0, nodes_before = 0, nodes_after = 0;
    double seconds = 0;
  };
  // The pending passes and change records of one run (run, run_module).
  struct RunState {
    std::vector<std::vector<uint8_t>> pending;  // function pass -> function -> must (re)run (bytes: threads
                                                // write different functions' flags at once)
    std::vector<bool> module_pending;        // module pass -> must (re)run
    std::vector<uint64_t> changed_at;        // function -> number of the application that last changed it (0: none)
    std::vector<uint64_t> started_at;        // module pass -> number of its last application (0: none yet)
    std::vector<uint64_t> facts;             // module pass -> ModuleScope::facts of its last application
    std::vector<FunctionCache> caches;       // function -> its cache
  };
  RunState start_run() const;
  void add_function(RunState& st) const;
  // Rounds to a fixpoint (at most kMaxRounds) over functions [first, last)
  // of fns; module passes only when `with_module` (then over all of fns).
  void rounds(std::vector<Function>& fns, ModuleHeader& header, RunState& st, size_t first, size_t last,
              bool with_module);
  // One application of module pass p with its ModuleScope from `st`; marks
  // what it triggers and carries `st` over the functions it dropped.
  size_t apply_module_pass(size_t p, std::vector<Function>& fns, ModuleHeader& header, RunState& st, int round);
  void mark_triggers(size_t p, size_t f, RunState& st) const;
  // The function passes schedule_[begin, end) over functions [first, last):
  // serially, or on threads_ threads when no flag shows the order
  // (parallel_ok). Both return whether any application ran.
  bool run_segment(size_t begin, size_t end, std::vector<Function>& fns, ModuleHeader& header, RunState& st,
                   size_t first, size_t last, int round);
  bool run_segment_parallel(size_t begin, size_t end, std::vector<Function>& fns, const ModuleHeader& header,
                            RunState& st, size_t first, size_t last);
  bool parallel_ok() const;
  size_t apply_unnumbered(size_t p, Function& fn, const ModuleHeader& header, FunctionCache& cache) const;
  std::vector<uint8_t> function_rounds(Function& fn, const ModuleHeader& header, FunctionCache& cache,
                                       uint64_t& applications) const;
  // Returns each function's pending passes; fills `caches`.
  std::vector<std::vector<uint8_t>> early_rounds_parallel(const std::function<bool(Function&)>& next,
                                                          std::vector<Function>& fns, const ModuleHeader& header,
                                                          std::vector<FunctionCache>& caches);
  // --verify-each after pass p changed fn: a broken contract is an internal error.
  void verify_after(size_t p, const Function& fn, const ModuleHeader& header) const;
  size_t index_of(std::string_view name) const;
  std::vector<size_t> topological_order() const;
  std::vector<size_t> schedule_for(int level) const;
  // One application of pass p to fns[f] (or to all, for a module pass);
  // returns its number of changes (0 when --bisect-limit skips it).
  size_t apply(size_t p, std::vector<Function>& fns, size_t f, ModuleHeader& header, int round,
               ModuleScope* scope, FunctionCache* cache);
  std::vector<const Function*> module_now(const std::vector<Function>& working) const;
  std::string checked_application(size_t p, const std::vector<Function>& fns, size_t f, uint64_t number, int round,
                                  const ModuleScope* scope) const;
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
  bool check_each_ = false;
  double check_timeout_ = 60;
  std::string check_unrunnable_ = "error";
  std::unique_ptr<BehaviourCheck> check_;  // --check-each: made by prepare()
  ModuleView module_view_;
  std::optional<uint64_t> bisect_limit_;
  bool stats_ = false;
  std::string dump_dir_;

  std::vector<size_t> schedule_;
  std::vector<bool> scheduled_;  // pass -> in schedule_ (the rounds' triggers only reach these)
  // Threads for the rounds over the whole module (run_segment_parallel): the
  // machine's cores, at most 4.
  size_t threads_ = 1;  // set by the constructor
  bool explicit_passes_ = false;
  uint64_t applications_ = 0;
  std::vector<Stats> stats_by_pass_;
};

// The whole main() of an optimizing stage (sonopt, cfgopt): the tool
// contract of common/tool/tool.h plus the flags above; reads a module at `level`,
// verifies each function, runs the schedule (one function at a time, or the
// whole module when a scheduled pass needs it) and writes the module at the
// same level. Returns the exit status.
int optimizer_main(const ToolInfo& info, std::vector<PassDecl> passes, Level level, int argc, char** argv);

}  // namespace pl
