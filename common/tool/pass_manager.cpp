// pass_manager.cpp - the declarative pass manager (see pass_manager.h for the
// declarations, the schedule and the flags).
#include "tool/pass_manager.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <iostream>
#include <mutex>
#include <queue>
#include <shared_mutex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include <CLI/CLI.hpp>

#include "tool/check_each.h"
#include "encoding/format.h"
#include "view/graph_diff.h"
#include "tool/tool.h"
#include "check/verify.h"

namespace pl {

namespace {

std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::string join(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ",") + std::string(n);
  return out;
}

// The printable form of one function, without the module header.
std::string function_text(const Function& fn, const ModuleHeader& header) {
  StringSink sink;
  std::unique_ptr<ModuleWriter> writer = make_text_writer(sink);
  writer->begin(header);
  sink.text.clear();
  writer->function(fn);
  return sink.text;
}

// The exception of the lowest index among those thrown on several threads:
// the one the serial order would have met first.
class FirstError {
 public:
  void record(size_t index, std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    if (index < at_) {
      at_ = index;
      error_ = std::move(error);
    }
  }
  void rethrow_if_any() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  size_t at_ = std::string::npos;
  std::exception_ptr error_;
};

}  // namespace

PassManager::PassManager(std::string tool, std::vector<PassDecl> passes, Level level)
    : tool_(std::move(tool)), passes_(std::move(passes)), level_(level) {
  for (size_t i = 0; i < passes_.size(); ++i) {
    const PassDecl& p = passes_[i];
    if ((p.function_pass == nullptr) == (p.module_pass == nullptr))
      throw std::logic_error("pass '" + std::string(p.name) + "' needs exactly one entry point");
    for (size_t j = 0; j < i; ++j)
      if (passes_[j].name == p.name) throw std::logic_error("pass '" + std::string(p.name) + "' is declared twice");
  }
  triggers_.assign(passes_.size(), {});
  for (size_t i = 0; i < passes_.size(); ++i) {
    for (std::string_view t : passes_[i].triggers) triggers_[i].push_back(index_of(t));
    for (std::string_view t : passes_[i].triggered_by) triggers_[index_of(t)].push_back(i);
    for (std::string_view t : passes_[i].before) index_of(t);
    for (std::string_view t : passes_[i].after) index_of(t);
  }
  order_ = topological_order();
  stats_by_pass_.assign(passes_.size(), {});
  threads_ = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
}

size_t PassManager::index_of(std::string_view name) const {
  for (size_t i = 0; i < passes_.size(); ++i)
    if (passes_[i].name == name) return i;
  throw std::logic_error("the pass table names an undeclared pass '" + std::string(name) + "'");
}

// Kahn's algorithm over the before/after edges; among the passes ready at
// once, the one declared first goes first.
std::vector<size_t> PassManager::topological_order() const {
  size_t n = passes_.size();
  std::vector<std::vector<size_t>> succ(n);
  std::vector<size_t> indegree(n, 0);
  auto edge = [&](size_t a, size_t b) {
    succ[a].push_back(b);
    ++indegree[b];
  };
  for (size_t i = 0; i < n; ++i) {
    for (std::string_view b : passes_[i].before) edge(i, index_of(b));
    for (std::string_view a : passes_[i].after) edge(index_of(a), i);
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i)
    if (indegree[i] == 0) ready.push(i);
  std::vector<size_t> order;
  while (!ready.empty()) {
    size_t p = ready.top();
    ready.pop();
    order.push_back(p);
    for (size_t s : succ[p])
      if (--indegree[s] == 0) ready.push(s);
  }
  if (order.size() != n) {
    std::string cycle;
    for (size_t i = 0; i < n; ++i)
      if (indegree[i] != 0) cycle += (cycle.empty() ? "" : ", ") + std::string(passes_[i].name);
    throw std::logic_error("the pass table's before/after constraints form a cycle among: " + cycle);
  }
  return order;
}

std::vector<size_t> PassManager::schedule_for(int level) const {
  std::vector<size_t> out;
  for (size_t p : order_)
    if (passes_[p].min_level <= level) out.push_back(p);
  return out;
}

void PassManager::add_options(CLI::App& app) {
  app.add_option("-O", opt_level_, "Optimization level: -O0 (no pass), -O1, -O2 (default)")->check(CLI::Range(0, 2));
  app.add_option("--passes", passes_flag_,
                 "Run exactly these passes, in this order, once each (comma-separated; see --list-passes)");
  app.add_flag("--list-passes", list_passes_, "List the declared passes and the schedule of each -O level, then exit");
  app.add_option("--print-after", print_after_,
                 "Print each function (printable form, to stderr) after every application of PASS, or of any pass "
                 "with 'all'");
  app.add_flag("--print-changed", print_changed_,
               "Print what each pass application changed, as a graph diff of the function before and after it "
               "(pipe-diff's matching; with --print-after: only that pass's applications)");
  app.add_flag("--verify-each", verify_each_, "Run the verifier after every pass application");
  app.add_option("--bisect-limit", bisect_limit_,
                 "Apply only the first N pass applications and name application N on stderr");
  app.add_flag("--stats", stats_, "Print time, nodes before/after and changes per pass to stderr");
  app.add_option("--dump-changed", dump_dir_,
                 "Write the whole module (printable form) after every pass application that changed something, to "
                 "DIR/NNNNN-PASS.txt (NNNNN: the application number); reads the whole module first")
      ->check(CLI::ExistingDirectory);
  app.add_flag("--check-each", check_each_,
               "Run main of the module under pipe-run before the passes and after every application that changed "
               "something; stop at the first that changes stdout, stderr or the exit status, naming it and its "
               "--bisect-limit number (reads the whole module)");
  app.add_option("--check-timeout", check_timeout_, "Seconds each --check-each run of pipe-run may take")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--check-unrunnable", check_unrunnable_,
                 "When the input does not run cleanly under pipe-run: 'error' (bad input) or 'skip' (a warning, "
                 "and --check-each checks nothing)")
      ->capture_default_str()
      ->check(CLI::IsMember({"error", "skip"}));
}

PassManager::~PassManager() = default;

void PassManager::prepare() {
  if (check_each_) check_ = std::make_unique<BehaviourCheck>(tool_, check_timeout_, check_unrunnable_ == "skip");
  if (!print_after_.empty() && print_after_ != "all") {
    bool known = false;
    for (const PassDecl& p : passes_) known = known || p.name == print_after_;
    if (!known) throw UsageError("--print-after: unknown pass '" + print_after_ + "' (see --list-passes)");
  }
  if (passes_flag_.empty() && !explicit_passes_) {
    schedule_ = schedule_for(opt_level_);
    scheduled_.assign(passes_.size(), false);
    for (size_t p : schedule_) scheduled_[p] = true;
    return;
  }
  explicit_passes_ = true;
  schedule_.clear();
  for (std::string_view name : split_commas(passes_flag_)) {
    bool found = false;
    for (size_t i = 0; i < passes_.size() && !found; ++i)
      if (passes_[i].name == name) {
        schedule_.push_back(i);
        found = true;
      }
    if (!found) throw UsageError("--passes: unknown pass '" + std::string(name) + "' (see --list-passes)");
  }
}

void PassManager::list(std::ostream& out) const {
  out << "passes (declaration order):\n";
  for (const PassDecl& p : passes_) {
    out << "  " << p.name << "  [" << (p.min_level == PassDecl::kTestOnly ? std::string("test only")
                                                                          : "-O" + std::to_string(p.min_level))
        << ", " << (p.module_pass ? "module" : "function") << "]  " << p.summary << "\n";
    if (!p.after.empty()) out << "      after: " << join(p.after) << "\n";
    if (!p.before.empty()) out << "      before: " << join(p.before) << "\n";
    if (!p.triggers.empty()) out << "      triggers: " << join(p.triggers) << "\n";
    if (!p.triggered_by.empty()) out << "      triggered by: " << join(p.triggered_by) << "\n";
  }
  for (int level = 0; level <= 2; ++level) {
    out << "schedule at -O" << level << ":";
    for (size_t p : schedule_for(level)) out << " " << passes_[p].name;
    out << "\n";
  }
}

bool PassManager::needs_module() const {
  if (!dump_dir_.empty()) return true;
  for (size_t p : schedule_)
    if (passes_[p].module_pass) return true;
  return false;
}

void PassManager::run(std::vector<Function>& fns, ModuleHeader& header) {
  if (explicit_passes_) {
    // --passes: each listed position once, in order, no triggers.
    for (size_t p : schedule_) {
      if (passes_[p].module_pass) {
        if (fns.empty()) continue;
        ModuleScope scope;
        scope.dirty.assign(fns.size(), true);
        scope.level = opt_level_;
        apply(p, fns, 0, header, 1, &scope, nullptr);
        continue;
      }
      for (size_t f = 0; f < fns.size(); ++f) {
        FunctionCache cache;  // (one application per function and pass: nothing to share)
        apply(p, fns, f, header, 1, nullptr, &cache);
      }
    }
    return;
  }
  RunState st = start_run();
  for (size_t f = 0; f < fns.size(); ++f) add_function(st);
  rounds(fns, header, st, 0, fns.size(), true);
}

void PassManager::run_module(const std::function<bool(Function&)>& next, std::vector<Function>& fns,
                             ModuleHeader& header) {
  // --passes has no rounds to start early; --dump-changed writes whole
  // modules, so it needs every function before the first application.
  if (explicit_passes_ || !dump_dir_.empty()) {
    Function fn;
    while (next(fn)) fns.push_back(std::move(fn));
    run(fns, header);
    return;
  }
  RunState st = start_run();
  if (parallel_ok()) {
    std::vector<FunctionCache> caches;
    std::vector<std::vector<uint8_t>> left = early_rounds_parallel(next, fns, header, caches);
    for (size_t f = 0; f < fns.size(); ++f) {
      add_function(st);
      for (size_t p = 0; p < passes_.size(); ++p)
        if (!passes_[p].module_pass) st.pending[p][f] = left[f][p];
      st.caches[f] = std::move(caches[f]);
    }
  } else {
    Function fn;
    while (next(fn)) {
      fns.push_back(std::move(fn));
      add_function(st);
      rounds(fns, header, st, fns.size() - 1, fns.size(), false);
    }
  }
  rounds(fns, header, st, 0, fns.size(), true);
}

// An application of function pass p outside the serial order (threads):
// no number, no printing, no stats; --verify-each and the cache as apply().
size_t PassManager::apply_unnumbered(size_t p, Function& fn, const ModuleHeader& header,
                                     FunctionCache& cache) const {
  size_t changes = passes_[p].function_pass(fn, header, cache);
  if (verify_each_) verify_after(p, fn, header);
  if (changes > 0) cache.clear();
  return changes;
}

namespace {

// ---- Module pieces ----
// Lets run_module's reading thread append a module piece to the header that
// the early rounds' workers read: a worker holds it shared for one pass
// application, the reader exclusively while it appends (new applications
// wait while the reader waits, so it is not starved). One per process:
// sonopt runs one module.
class HeaderGate {
 public:
  void lock_shared();
  void unlock_shared();
  void lock();
  void unlock();

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  size_t readers_ = 0;
  bool writer_ = false;
};

HeaderGate header_gate;

void HeaderGate::lock_shared() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !writer_; });
  ++readers_;
}

void HeaderGate::unlock_shared() {
  std::lock_guard lock(mutex_);
  if (--readers_ == 0) changed_.notify_all();
}

void HeaderGate::lock() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !writer_; });
  writer_ = true;
  changed_.wait(lock, [&] { return readers_ == 0; });
}

void HeaderGate::unlock() {
  std::lock_guard lock(mutex_);
  writer_ = false;
  changed_.notify_all();
}

// Appends a module piece to `header` while run_module may be running
// function passes that read it on other threads. A function's passes see at
// least the pieces before it, which declare every data item and extern it
// names; what they look up is by those names, so a later piece in view
// changes nothing (the output stays byte-identical).
void add_piece_to(ModuleHeader& header, const ModulePiece& piece) {
  std::lock_guard lock(header_gate);
  append_piece(header, piece);
}

}  // namespace

// The function passes' rounds on one function, as rounds() runs them on a
// one-function range without module passes (the same applications in the
// same order), without the bookkeeping the serial-order flags need.
// Returns the function passes still pending when kMaxRounds ran out.
std::vector<uint8_t> PassManager::function_rounds(Function& fn, const ModuleHeader& header, FunctionCache& cache,
                                                  uint64_t& applications) const {
  std::vector<uint8_t> pending(passes_.size(), 0);
  for (size_t p : schedule_)
    if (!passes_[p].module_pass) pending[p] = 1;
  for (int round = 1; round <= kMaxRounds; ++round) {
    bool any = false;
    for (size_t p : schedule_) {
      if (passes_[p].module_pass || !pending[p]) continue;
      pending[p] = 0;
      any = true;
      ++applications;
      size_t changes;
      {
        std::shared_lock lock(header_gate);  // (a module piece may be arriving)
        changes = apply_unnumbered(p, fn, header, cache);
      }
      if (changes == 0) continue;
      for (size_t t : triggers_[p])
        if (scheduled_[t] && !passes_[t].module_pass) pending[t] = 1;
    }
    if (!any) break;
  }
  return pending;
}

// run_module's early rounds on threads_ threads: this thread reads the
// functions and queues them, the workers take them in arrival order (each
// function's rounds read and write only it, so the result is the serial
// one). Functions sit in a deque, whose elements stay put as it grows, and
// are moved into `fns` at the end. An error is the one of the lowest
// function: workers stop taking functions after one (every lower one was
// already taken, so it is still found), and this thread stops reading; a
// reading error stands only when no function before it failed, as in the
// serial order.
std::vector<std::vector<uint8_t>> PassManager::early_rounds_parallel(const std::function<bool(Function&)>& next,
                                                                     std::vector<Function>& fns,
                                                                     const ModuleHeader& header,
                                                                     std::vector<FunctionCache>& caches) {
  std::deque<Function> arrived;
  std::deque<std::vector<uint8_t>> left;
  std::deque<FunctionCache> cached;
  std::mutex mutex;
  std::condition_variable ready;
  size_t taken = 0;
  bool done = false;
  std::atomic<bool> failed{false};
  FirstError error;
  std::atomic<uint64_t> applications{0};
  auto work = [&] {
    uint64_t count = 0;
    for (;;) {
      Function* fn;
      std::vector<uint8_t>* out;
      FunctionCache* cache;
      size_t f;
      {
        std::unique_lock lock(mutex);
        ready.wait(lock, [&] { return taken < arrived.size() || done || failed; });
        if (failed || taken == arrived.size()) break;
        f = taken++;
        fn = &arrived[f];
        out = &left[f];
        cache = &cached[f];
      }
      try {
        *out = function_rounds(*fn, header, *cache, count);
      } catch (...) {
        error.record(f, std::current_exception());
        {
          std::lock_guard lock(mutex);  // (a waiter checks `failed` under it)
          failed = true;
        }
        ready.notify_all();
      }
    }
    applications += count;
  };
  std::vector<std::thread> workers;
  for (size_t k = 0; k < threads_; ++k) workers.emplace_back(work);
  auto stop = [&] {
    {
      std::lock_guard lock(mutex);
      done = true;
    }
    ready.notify_all();
    for (std::thread& t : workers) t.join();
    workers.clear();
  };
  std::exception_ptr read_error;
  try {
    Function fn;
    while (!failed && next(fn)) {
      std::lock_guard lock(mutex);
      arrived.push_back(std::move(fn));
      left.emplace_back();
      cached.emplace_back();
      ready.notify_one();
    }
  } catch (...) {
    read_error = std::current_exception();
  }
  stop();
  applications_ += applications;
  error.rethrow_if_any();
  if (read_error) std::rethrow_exception(read_error);
  fns.reserve(fns.size() + arrived.size());
  for (Function& fn : arrived) fns.push_back(std::move(fn));
  caches.assign(std::make_move_iterator(cached.begin()), std::make_move_iterator(cached.end()));
  return {std::make_move_iterator(left.begin()), std::make_move_iterator(left.end())};
}

PassManager::RunState PassManager::start_run() const {
  RunState st;
  st.pending.assign(passes_.size(), {});
  st.module_pending.assign(passes_.size(), false);
  st.started_at.assign(passes_.size(), 0);
  st.facts.assign(passes_.size(), 0);
  for (size_t p : schedule_)
    if (passes_[p].module_pass) st.module_pending[p] = true;
  return st;
}

// A new function: every scheduled function pass is pending on it.
void PassManager::add_function(RunState& st) const {
  for (size_t p = 0; p < passes_.size(); ++p) st.pending[p].push_back(false);
  for (size_t p : schedule_)
    if (!passes_[p].module_pass) st.pending[p].back() = true;
  st.changed_at.push_back(0);
  st.caches.emplace_back();
}

void PassManager::mark_triggers(size_t p, size_t f, RunState& st) const {
  st.changed_at[f] = applications_;
  for (size_t t : triggers_[p]) {
    if (!scheduled_[t]) continue;  // (-O1: a trigger of an -O2 pass is dropped)
    if (passes_[t].module_pass)
      st.module_pending[t] = true;
    else
      st.pending[t][f] = true;
  }
}

void PassManager::rounds(std::vector<Function>& fns, ModuleHeader& header, RunState& st, size_t first, size_t last,
                         bool with_module) {
  for (int round = 1; round <= kMaxRounds; ++round) {
    bool any = false;
    for (size_t i = 0; i < schedule_.size();) {
      size_t p = schedule_[i];
      if (passes_[p].module_pass) {
        ++i;
        if (!with_module || fns.empty() || !st.module_pending[p]) continue;
        st.module_pending[p] = false;
        any = true;
        apply_module_pass(p, fns, header, st, round);
        last = fns.size();  // it may have dropped functions
        continue;
      }
      // A segment: the function passes up to the next module pass.
      size_t end = i;
      while (end < schedule_.size() && !passes_[schedule_[end]].module_pass) ++end;
      if (last - first > 1 && parallel_ok())
        any |= run_segment_parallel(i, end, fns, header, st, first, last);
      else
        any |= run_segment(i, end, fns, header, st, first, last, round);
      i = end;
    }
    if (!any) break;
  }
}

// Pass by pass, function by function: the order --bisect-limit numbers,
// --print-* print and --stats time.
bool PassManager::run_segment(size_t begin, size_t end, std::vector<Function>& fns, ModuleHeader& header,
                              RunState& st, size_t first, size_t last, int round) {
  bool any = false;
  for (size_t i = begin; i < end; ++i) {
    size_t p = schedule_[i];
    for (size_t f = first; f < last; ++f) {
      if (!st.pending[p][f]) continue;
      st.pending[p][f] = false;
      any = true;
      if (apply(p, fns, f, header, round, nullptr, &st.caches[f]) > 0) mark_triggers(p, f, st);
    }
  }
  return any;
}

bool PassManager::parallel_ok() const {
  return threads_ > 1 && !bisect_limit_ && print_after_.empty() && !print_changed_ && dump_dir_.empty() && !stats_ &&
         !check_each_;
}

// Function by function, each running the segment's pending passes in
// schedule order, on threads_ threads taking functions as they come. A
// function pass reads and writes only its function (and reads the header),
// and within one segment what a pass triggers on f is all that decides what
// runs next on f, so this runs exactly the applications run_segment would,
// each on the same input: the module comes out the same. Only their
// numbering differs, which is why the flags that show it keep the serial
// order (parallel_ok).
bool PassManager::run_segment_parallel(size_t begin, size_t end, std::vector<Function>& fns,
                                       const ModuleHeader& header, RunState& st, size_t first, size_t last) {
  const uint64_t stamp = applications_ + 1;  // changed_at of what changes here: after every module pass start so far
  const size_t n = passes_.size();
  std::vector<uint8_t> module_triggers((last - first) * n, 0);  // per function, so no two threads share a flag
  std::vector<uint64_t> applications(last - first, 0);
  parallel_for(threads_, first, last, [&](size_t f) {
    for (size_t i = begin; i < end; ++i) {
      size_t p = schedule_[i];
      if (!st.pending[p][f]) continue;
      st.pending[p][f] = false;
      ++applications[f - first];
      if (apply_unnumbered(p, fns[f], header, st.caches[f]) == 0) continue;
      st.changed_at[f] = stamp;
      for (size_t t : triggers_[p]) {
        if (!scheduled_[t]) continue;
        if (passes_[t].module_pass)
          module_triggers[(f - first) * n + t] = 1;
        else
          st.pending[t][f] = true;
      }
    }
  });
  bool any = false;
  for (size_t k = 0; k < applications.size(); ++k) {
    applications_ += applications[k];
    any |= applications[k] > 0;
    for (size_t t = 0; t < n; ++t)
      if (module_triggers[k * n + t]) st.module_pending[t] = true;
  }
  return any;
}

size_t ModuleScope::change_each(size_t n, uint64_t module_facts, const std::function<size_t(size_t)>& body) {
  bool all = module_facts != facts;
  facts = module_facts;
  std::vector<size_t> counts(n, 0);
  parallel_for(threads, 0, n, [&](size_t f) {
    if (all || f >= dirty.size() || dirty[f]) counts[f] = body(f);
  });
  size_t changes = 0;
  for (size_t f = 0; f < n; ++f) {
    if (counts[f] > 0) mark_changed(f);
    changes += counts[f];
  }
  return changes;
}

void parallel_for(size_t threads, size_t first, size_t last, const std::function<void(size_t)>& body) {
  if (threads <= 1 || last - first <= 1) {
    for (size_t i = first; i < last; ++i) body(i);
    return;
  }
  std::atomic<size_t> next{first};
  std::atomic<bool> failed{false};
  FirstError error;
  auto work = [&] {
    for (size_t i; !failed.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < last;) {
      try {
        body(i);
      } catch (...) {
        error.record(i, std::current_exception());
        failed = true;
      }
    }
  };
  std::vector<std::thread> helpers;
  for (size_t k = 1; k < std::min(threads, last - first); ++k) helpers.emplace_back(work);
  work();
  for (std::thread& t : helpers) t.join();
  error.rethrow_if_any();
}

size_t PassManager::apply_module_pass(size_t p, std::vector<Function>& fns, ModuleHeader& header, RunState& st,
                                      int round) {
  ModuleScope scope;
  scope.dirty.resize(fns.size());
  for (size_t f = 0; f < fns.size(); ++f) scope.dirty[f] = st.changed_at[f] >= st.started_at[p];
  scope.facts = st.facts[p];
  scope.level = opt_level_;
  std::vector<std::string> names;
  names.reserve(fns.size());
  for (const Function& fn : fns) names.push_back(fn.name);
  st.started_at[p] = applications_ + 1;  // the number apply() gives this application
  if (parallel_ok()) scope.threads = threads_;
  scope.caches = &st.caches;
  size_t changes = apply(p, fns, 0, header, round, &scope, nullptr);
  st.facts[p] = scope.facts;
  // Carry the per-function state over the functions the pass dropped (or,
  // in principle, added or reordered), matching them by name.
  bool same = names.size() == fns.size();
  for (size_t f = 0; same && f < fns.size(); ++f) same = names[f] == fns[f].name;
  if (!same) {
    std::unordered_map<std::string_view, size_t> old_index;
    for (size_t f = 0; f < names.size(); ++f) old_index.emplace(names[f], f);
    RunState carried = st;
    for (size_t q = 0; q < passes_.size(); ++q) carried.pending[q].assign(fns.size(), false);
    carried.changed_at.assign(fns.size(), applications_);
    carried.caches.assign(fns.size(), FunctionCache{});
    for (size_t f = 0; f < fns.size(); ++f) {
      auto it = old_index.find(fns[f].name);
      if (it == old_index.end()) {  // a new function: everything is pending on it
        for (size_t q : schedule_)
          if (!passes_[q].module_pass) carried.pending[q][f] = true;
        continue;
      }
      for (size_t q = 0; q < passes_.size(); ++q) carried.pending[q][f] = st.pending[q][it->second];
      carried.changed_at[f] = st.changed_at[it->second];
      carried.caches[f] = std::move(st.caches[it->second]);
    }
    st = std::move(carried);
  }
  if (changes == 0) return 0;
  // Whatever it said, no function's cache is trusted after a module pass
  // changed something (they are few; a function it changed without saying
  // so must not keep lists of its old graph).
  for (FunctionCache& c : st.caches) c.clear();
  // A pass that changed something without saying where changed everything.
  bool said = false;
  for (bool c : scope.changed) said = said || c;
  for (size_t f = 0; f < fns.size(); ++f)
    if (!said || (f < scope.changed.size() && scope.changed[f])) mark_triggers(p, f, st);
  for (size_t t : triggers_[p])
    if (scheduled_[t] && passes_[t].module_pass) st.module_pending[t] = true;
  return changes;
}

size_t PassManager::apply(size_t p, std::vector<Function>& fns, size_t f, ModuleHeader& header, int round,
                          ModuleScope* scope, FunctionCache* cache) {
  const PassDecl& pass = passes_[p];
  uint64_t number = ++applications_;
  Function& fn = fns[f];
  std::string target = pass.module_pass ? std::string("the module") : "function '" + fn.name + "'";
  if (bisect_limit_) {
    if (number > *bisect_limit_) return 0;
    if (number == *bisect_limit_)
      std::cerr << tool_ << ": bisect: application " << number << " is " << pass.name << " on " << target
                << " (round " << round << "); later applications are skipped\n";
  }
  Stats& s = stats_by_pass_[p];
  uint64_t before = 0;
  if (pass.module_pass)
    for (const Function& g : fns) before += g.nodes.size();
  else
    before = fn.nodes.size();
  // --print-changed shows what the application changed as a graph diff
  // (common/view/graph_diff.h, pipe-diff's matching), so it keeps a copy of what
  // the pass is about to transform.
  std::vector<Function> snapshot;
  if (print_changed_ && (print_after_.empty() || print_after_ == "all" || print_after_ == pass.name)) {
    if (pass.module_pass)
      snapshot = fns;
    else
      snapshot.push_back(fn);
  }
  if (check_ && !check_->has_reference()) check_->take_reference(module_now(fns), header);
  auto start = std::chrono::steady_clock::now();
  size_t changes = pass.module_pass ? pass.module_pass(fns, header, *scope) : pass.function_pass(fns[f], header, *cache);
  if (changes > 0 && cache) cache->clear();
  s.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t after = 0;
  if (pass.module_pass)
    for (const Function& g : fns) after += g.nodes.size();
  else
    after = fn.nodes.size();
  ++s.applications;
  s.changed += changes > 0;
  s.changes += changes;
  s.nodes_before += before;
  s.nodes_after += after;
  if (changes > 0 && !dump_dir_.empty()) dump_module(p, number, fns, header);
  if (changes > 0 && check_)
    check_->check(module_now(fns), header, checked_application(p, fns, f, number, round, scope), number);
  if (changes > 0 && !snapshot.empty()) print_changes(p, snapshot, fns, pass.module_pass ? fns.size() : f, header,
                                                     changes, round);
  if (pass.module_pass) {
    for (const Function& g : fns) after_application(p, g, header, changes, round);
  } else {
    after_application(p, fns[f], header, changes, round);
  }
  return changes;
}

std::vector<const Function*> PassManager::module_now(const std::vector<Function>& working) const {
  std::vector<const Function*> out;
  if (module_view_) {
    module_view_(working, out);
  } else {
    for (const Function& fn : working) out.push_back(&fn);
  }
  return out;
}

// "pass 'licm' (application 12, round 2) on function 'f'" (a module pass:
// the functions it says it changed).
std::string PassManager::checked_application(size_t p, const std::vector<Function>& fns, size_t f, uint64_t number,
                                             int round, const ModuleScope* scope) const {
  std::string out = "pass '" + std::string(passes_[p].name) + "' (application " + std::to_string(number) + ", round " +
                    std::to_string(round) + ") on ";
  if (!passes_[p].module_pass) return out + "function '" + fns[f].name + "'";
  std::string names;
  if (scope)
    for (size_t g = 0; g < scope->changed.size() && g < fns.size(); ++g)
      if (scope->changed[g]) names += (names.empty() ? "'" : ", '") + fns[g].name + "'";
  return out + "the module" + (names.empty() ? "" : " (changing " + names + ")");
}

// --print-changed: one header per function the application changed, then
// the graph diff of that function before and after it (functions matched by
// name; one the pass removed or added is named as such).
void PassManager::print_changes(size_t p, const std::vector<Function>& before, const std::vector<Function>& fns,
                                size_t f, const ModuleHeader& header, size_t changes, int round) const {
  const PassDecl& pass = passes_[p];
  auto title = [&](const std::string& name) {
    return "# " + std::string(pass.name) + " changed '" + name + "' (application " + std::to_string(applications_) +
           ", round " + std::to_string(round) + ", " + std::to_string(changes) + " change" +
           (changes == 1 ? "" : "s") + ")\n";
  };
  auto find = [](const std::vector<Function>& in, const std::string& name) -> const Function* {
    for (const Function& g : in)
      if (g.name == name) return &g;
    return nullptr;
  };
  std::string out;
  std::vector<const Function*> after;
  if (f < fns.size())
    after.push_back(&fns[f]);
  else
    for (const Function& g : fns) after.push_back(&g);
  for (const Function* b : after) {
    const Function* a = find(before, b->name);
    if (!a) {
      out += title(b->name) + "function added\n" + function_text(*b, header);
      continue;
    }
    FunctionDiff diff = diff_functions(*a, *b);
    if (!diff.equal()) out += title(b->name) + format_function_diff(*a, *b, diff);
  }
  for (const Function& a : before)
    if (!find(fns, a.name)) out += title(a.name) + "function removed\n";
  std::cerr << out;
}

void PassManager::after_application(size_t p, const Function& fn, const ModuleHeader& header, size_t changes,
                                    int round) {
  const PassDecl& pass = passes_[p];
  bool selected = print_after_ == "all" || print_after_ == pass.name;
  if (selected && !print_changed_)
    std::cerr << "# after " << pass.name << " on '" << fn.name << "' (application " << applications_ << ", round "
              << round << ", " << changes << " change" << (changes == 1 ? "" : "s") << ")\n"
              << function_text(fn, header);
  if (verify_each_) verify_after(p, fn, header);
}

void PassManager::verify_after(size_t p, const Function& fn, const ModuleHeader& header) const {
  std::vector<Diagnostic> diags;
  verify_function(header, fn, level_, diags);
  if (diags.empty()) return;
  std::string text;
  for (const Diagnostic& d : diags) text += "\n  " + format_diagnostic("", d);
  throw std::logic_error("--verify-each: pass '" + std::string(passes_[p].name) + "' (application " +
                         std::to_string(applications_) + ") broke the " + std::string(level_name(level_)) +
                         " contract of function '" + fn.name + "':" + text);
}

void PassManager::dump_module(size_t p, uint64_t number, const std::vector<Function>& fns,
                              const ModuleHeader& header) const {
  char name[32];
  std::snprintf(name, sizeof name, "%05llu-", static_cast<unsigned long long>(number));
  std::vector<const Function*> all;
  for (const Function& fn : fns) all.push_back(&fn);
  write_module_file(dump_dir_ + "/" + name + std::string(passes_[p].name) + ".txt", Encoding::Text, header, all);
}

void PassManager::finish() {
  if (bisect_limit_ && *bisect_limit_ > applications_)
    std::cerr << tool_ << ": bisect: limit " << *bisect_limit_ << " is beyond the last application (" << applications_
              << "); nothing was skipped\n";
  if (!stats_) return;
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line, "%-20s %8s %8s %8s %12s %12s %10s\n", "pass", "applied", "changed", "changes",
                "nodes before", "nodes after", "ms");
  out << line;
  Stats total;
  for (size_t p : order_) {
    const Stats& s = stats_by_pass_[p];
    if (s.applications == 0) continue;
    std::snprintf(line, sizeof line, "%-20s %8llu %8llu %8llu %12llu %12llu %10.3f\n",
                  std::string(passes_[p].name).c_str(), static_cast<unsigned long long>(s.applications),
                  static_cast<unsigned long long>(s.changed), static_cast<unsigned long long>(s.changes),
                  static_cast<unsigned long long>(s.nodes_before), static_cast<unsigned long long>(s.nodes_after),
                  s.seconds * 1000);
    out << line;
    total.applications += s.applications;
    total.changed += s.changed;
    total.changes += s.changes;
    total.seconds += s.seconds;
  }
  std::snprintf(line, sizeof line, "%-20s %8llu %8llu %8llu %12s %12s %10.3f\n", "total",
                static_cast<unsigned long long>(total.applications), static_cast<unsigned long long>(total.changed),
                static_cast<unsigned long long>(total.changes), "", "", total.seconds * 1000);
  out << line;
  std::cerr << tool_ << ": stats\n" << out.str();
}

namespace {

// Debug information (FORMAT.md "Debug information"): the passes may remove
// or move stores to a variable's stackslot (dead-store, licm, loop-idiom,
// ...), leaving its memory out of date at some statements. A debugger must
// never show a wrong value, so an optimized function's variables keep their
// names and types but lose their slots ("optimized out") in the output.
// The passes still see the slots (sonopt's scalar-replace binds the
// variable of a slot it turns into values); they go when the function is
// written.
void forget_variable_slots(Function& fn) { drop_debug_slots(fn.debug); }

void write_optimized(Tool& t, Function& fn) {
  forget_variable_slots(fn);
  t.write(fn);
}

// optimizer_main under --check-each: the whole module is read first (each
// check runs all of it), then the passes run exactly as they run on the
// stream (the same applications in the same order, so --bisect-limit=N
// without --check-each reproduces application N), with a module view that
// adds the functions not yet handed to the passes, or already written.
void check_each_main(Tool& t, ModuleReader& in, ModuleHeader& header, PassManager& passes) {
  std::vector<Function> all;
  for (Function fn; in.next(fn); fn = Function()) {
    t.verify_input(fn);
    all.push_back(std::move(fn));
  }
  for (const ModulePiece& piece : in.pieces()) append_piece(header, piece);  // module pieces: all in the header
  t.merged_input_pieces();
  size_t cursor = 0;  // all[cursor...] are not yet handed to the passes
  std::vector<Function> fns;
  if (passes.needs_module()) {
    passes.set_module_view([&](const std::vector<Function>& working, std::vector<const Function*>& out) {
      for (const Function& fn : working) out.push_back(&fn);
      for (size_t i = cursor; i < all.size(); ++i) out.push_back(&all[i]);
    });
    auto next = [&](Function& fn) {
      if (cursor == all.size()) return false;
      fn = std::move(all[cursor++]);
      return true;
    };
    passes.run_module(next, fns, header);
    t.open_output(header);
    for (Function& f : fns) write_optimized(t, f);
    return;
  }
  // Streaming: function k is the one working; all[0, k) are done (moved
  // back after their passes), all[k + 1...] still to come.
  passes.set_module_view([&](const std::vector<Function>& working, std::vector<const Function*>& out) {
    for (size_t i = 0; i + 1 < cursor; ++i) out.push_back(&all[i]);
    for (const Function& fn : working) out.push_back(&fn);
    for (size_t i = cursor; i < all.size(); ++i) out.push_back(&all[i]);
  });
  t.open_output(header);
  fns.resize(1);
  for (; cursor < all.size();) {
    fns[0] = std::move(all[cursor++]);
    passes.run(fns, header);
    write_optimized(t, fns[0]);
    all[cursor - 1] = std::move(fns[0]);
  }
}

}  // namespace

int optimizer_main(const ToolInfo& info, std::vector<PassDecl> table, Level level, int argc, char** argv) {
  Tool tool(info);
  PassManager passes(std::string(info.name), std::move(table), level);
  passes.add_options(tool.cli());
  return tool.main(argc, argv, [&](Tool& t) {
    passes.prepare();
    if (passes.list_requested()) {
      passes.list(std::cout);
      return;
    }
    ModuleReader& in = t.open_input(level);
    ModuleHeader header = in.header();
    std::vector<Function> fns;
    // Module pieces: into `header` as they arrive, before the function after them.
    size_t pieces_done = 0;
    auto take_pieces = [&] {
      for (; pieces_done < in.pieces().size(); ++pieces_done) add_piece_to(header, in.pieces()[pieces_done]);
    };
    if (passes.check_each()) {
      check_each_main(t, in, header, passes);
    } else if (passes.needs_module()) {
      auto next = [&](Function& fn) {
        bool more = in.next(fn);
        take_pieces();
        if (!more) return false;
        t.verify_input(fn);
        return true;
      };
      passes.run_module(next, fns, header);  // module passes may add externs: the header goes out after them
      t.merged_input_pieces();               // (the header holds them)
      t.open_output(header);
      for (Function& f : fns) write_optimized(t, f);
    } else {
      t.open_output(header);
      fns.resize(1);
      while (in.next(fns[0])) {
        take_pieces();  // (and Tool::write passes them on)
        t.verify_input(fns[0]);
        passes.run(fns, header);
        write_optimized(t, fns[0]);
      }
    }
    t.finish_output();
    passes.finish();
  });
}

}  // namespace pl
