// pipe-reduce - shrink a module while a command still finds it interesting
// (delta debugging, as llvm-reduce does it).
//
//   pipe-reduce --test 'CMD' FILE -o SMALL [-f text]
//
// The test is `/bin/sh -c 'CMD "$@"' sh CANDIDATE`: CMD with the candidate
// file (in FILE's encoding) as its last argument; exit 0 means "still
// interesting". FILE itself must be interesting. Passes, repeated until a
// whole round changes nothing:
//   functions  drop functions (a dropped function becomes an extern, so
//              references to it stay valid), in chunks of halving size;
//   data       drop data items (they become data externs), then externs
//              nothing refers to;
//   branches   fold each `if` to a jump to one side; unreachable blocks go;
//   blocks     merge a block entered by a single jump into the block above;
//   nodes      in chunks of halving size (ddmin): make nodes `undefined`
//              (ssa and later), make typed values `const T 0` (also
//              constants with other values), bypass a node (its uses take
//              one of its inputs, or a call's memory proj the call's memory).
// After each edit, nodes nothing live uses are removed. Each candidate must
// verify at the module's level before the test runs, so every step keeps
// the module valid. The result is renumbered canonically.
//
// Departures: no instruction-level simplifications beyond these (operand
// swapping, merging of blocks); the ast level is refused (its tree rules
// need edits of their own).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>

#include "encoding/format.h"
#include "reduce.h"
#include "ir/renumber.h"
#include "tool/subprocess.h"
#include "tool/tool.h"

namespace fs = std::filesystem;
using namespace pl;

namespace {

class Reducer {
 public:
  Reducer(Module m, std::string test, Encoding encoding, double timeout, bool quiet)
      : m_(std::move(m)), test_(std::move(test)), encoding_(encoding), timeout_(timeout), quiet_(quiet) {
    dir_ = fs::temp_directory_path() / ("pipe-reduce." + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  ~Reducer() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  bool interesting(const Module& candidate);
  void run();
  Module& result() { return m_; }

 private:
  bool valid(const Module& candidate) const;
  bool try_candidate(Module candidate);
  bool reduce_functions();
  bool reduce_data();
  bool reduce_branches();
  bool merge_blocks();
  bool reduce_nodes(size_t f);
  // Applies `edit` to the nodes in [begin, end) of the candidate list;
  // false if it changed nothing.
  using NodeEdit = std::function<bool(Function&, NodeId)>;
  bool ddmin_nodes(size_t f, const NodeEdit& edit);
  bool ddmin_delete(size_t f);
  size_t total_nodes(const Module& m) const {
    size_t n = 0;
    for (const Function& fn : m.functions) n += fn.nodes.size();
    return n;
  }
  void progress(const std::string& pass);

  Module m_;
  std::string test_;
  Encoding encoding_;
  double timeout_;
  bool quiet_;
  bool verbose_ = std::getenv("PIPE_REDUCE_DEBUG") != nullptr;  // why candidates fail
  fs::path dir_;
  uint64_t tests_ = 0;
};

bool Reducer::valid(const Module& candidate) const {
  std::vector<Diagnostic> diags;
  try {
    ModuleVerifier verifier(candidate.header);
    diags = verifier.header_diagnostics();
    for (const Function& fn : candidate.functions) {
      check_structure(candidate.header, fn);
      if (diags.empty()) diags = verifier.function(fn);
    }
    if (diags.empty()) diags = verifier.end();
  } catch (const FormatError& e) {
    diags.push_back(e.diagnostic());
  }
  if (!diags.empty() && verbose_) std::cerr << "pipe-reduce: invalid candidate: " << format_diagnostic("", diags[0]) << "\n";
  return diags.empty();
}

bool Reducer::interesting(const Module& candidate) {
  std::string path = (dir_ / "candidate").string();
  std::ofstream(path, std::ios::binary) << write_module_to_string(candidate, encoding_);
  ++tests_;
  ProcessResult r = run_process({{"/bin/sh", "-c", test_ + " \"$@\"", "sh", path}, "", "", timeout_, 1 << 16});
  if (verbose_) std::cerr << "pipe-reduce: test " << r.describe() << "\n" << r.err;
  return r.status == 0 && !r.timed_out;
}

// The candidate without the nodes it left unused, else as it is (the test
// may care about a node nothing uses); each only if it is still valid.
bool Reducer::try_candidate(Module candidate) {
  for (bool unused_too : {true, false}) {
    Module c = candidate;
    bool ok = true;
    for (Function& fn : c.functions) ok = ok && reduce::remove_dead(fn, unused_too);
    if (!ok) {
      if (verbose_) std::cerr << "pipe-reduce: candidate keeps a use of a removed node\n";
      continue;
    }
    if (c == m_ || !valid(c)) continue;
    if (interesting(c)) {
      m_ = std::move(c);
      return true;
    }
  }
  return false;
}

void Reducer::progress(const std::string& pass) {
  if (quiet_) return;
  std::cerr << "pipe-reduce: " << pass << ": " << m_.functions.size() << " functions, " << total_nodes(m_)
            << " nodes, " << m_.header.data.size() << " data (" << tests_ << " tests)\n";
}

// Names a module's functions, data and relocations refer to.
std::set<std::string> referenced(const Module& m) {
  std::set<std::string> names;
  for (const Function& fn : m.functions)
    for (const Node& n : fn.nodes)
      if (n.op == SymAddr && !n.literals.empty() && n.literals[0].kind() == Literal::Kind::String)
        names.insert(std::string(n.literals[0].as_string()));
  for (const DataItem& d : m.header.data)
    for (const Reloc& r : d.relocs) names.insert(r.symbol);
  return names;
}

bool Reducer::reduce_functions() {
  bool any = false;
  for (size_t chunk = std::max<size_t>(1, m_.functions.size() / 2); chunk >= 1; chunk /= 2) {
    for (size_t i = 0; i < m_.functions.size();) {
      Module c = m_;
      size_t end = std::min(c.functions.size(), i + chunk);
      for (size_t k = i; k < end; ++k)
        c.header.externs.push_back({c.functions[k].name, ExternKind::Function, std::nullopt});
      c.functions.erase(c.functions.begin() + static_cast<std::ptrdiff_t>(i),
                        c.functions.begin() + static_cast<std::ptrdiff_t>(end));
      if (try_candidate(std::move(c))) any = true;
      else i = end;
    }
    if (chunk == 1) break;
  }
  return any;
}

bool Reducer::reduce_data() {
  bool any = false;
  for (size_t i = 0; i < m_.header.data.size();) {
    Module c = m_;
    c.header.externs.push_back({c.header.data[i].name, ExternKind::Data, std::nullopt});
    c.header.data.erase(c.header.data.begin() + static_cast<std::ptrdiff_t>(i));
    if (try_candidate(std::move(c))) any = true;
    else ++i;
  }
  std::set<std::string> used = referenced(m_);
  Module c = m_;
  std::erase_if(c.header.externs, [&](const Extern& e) { return !used.count(e.name); });
  if (c.header.externs.size() != m_.header.externs.size() && try_candidate(std::move(c))) any = true;
  return any;
}

bool Reducer::reduce_branches() {
  bool any = false;
  for (size_t f = 0; f < m_.functions.size(); ++f) {
    for (NodeId n = 0; n < m_.functions[f].nodes.size(); ++n) {
      if (m_.functions[f].nodes[n].op != If) continue;
      for (int keep : {0, 1}) {
        Module c = m_;
        if (reduce::fold_branch(c.functions[f], n, keep) && try_candidate(std::move(c))) {
          any = true;
          n = 0;  // ids moved; start over (each success removes an `if`)
          break;
        }
      }
    }
  }
  return any;
}

bool Reducer::merge_blocks() {
  bool any = false;
  for (size_t f = 0; f < m_.functions.size(); ++f) {
    for (NodeId n = 0; n < m_.functions[f].nodes.size(); ++n) {
      if (m_.functions[f].nodes[n].op != Region) continue;
      Module c = m_;
      if (reduce::merge_block(c.functions[f], n) && try_candidate(std::move(c))) {
        any = true;
        n = 0;  // ids moved; start over (each success removes a block)
      }
    }
  }
  return any;
}

bool Reducer::ddmin_nodes(size_t f, const NodeEdit& edit) {
  bool any = false;
  for (size_t chunk = std::max<size_t>(1, m_.functions[f].nodes.size() / 2);; chunk /= 2) {
    for (size_t i = 0; i < m_.functions[f].nodes.size();) {
      Module c = m_;
      Function& fn = c.functions[f];
      bool changed = false;
      for (size_t k = i; k < std::min(fn.nodes.size(), i + chunk); ++k) changed |= edit(fn, static_cast<NodeId>(k));
      if (changed && try_candidate(std::move(c))) any = true;
      else i += chunk;
    }
    if (chunk <= 1) break;
  }
  return any;
}

bool Reducer::ddmin_delete(size_t f) {
  bool any = false;
  for (size_t chunk = std::max<size_t>(1, m_.functions[f].nodes.size() / 2);; chunk /= 2) {
    for (size_t i = 0; i < m_.functions[f].nodes.size();) {
      Module c = m_;
      Function& fn = c.functions[f];
      std::vector<bool> keep(fn.nodes.size(), true);
      for (size_t k = i; k < std::min(fn.nodes.size(), i + chunk); ++k) keep[k] = false;
      if (fn.cfg)
        for (const Block& b : fn.cfg->blocks) keep[b.node] = true;
      if (reduce::remove_nodes(fn, keep) && try_candidate(std::move(c))) any = true;
      else i += chunk;
    }
    if (chunk <= 1) break;
  }
  return any;
}

bool Reducer::reduce_nodes(size_t f) {
  Level level = m_.header.level;
  bool has_undefined = level != Level::Cfg;
  auto leaf = [](const Node& n) { return n.inputs.empty() && n.control.empty(); };
  auto value_or_memory = [](const Function& fn, NodeId id) {
    const Node& n = fn.nodes[id];
    if (n.op >= kNumOps) return false;
    std::string_view res = op_info(n.op).results;
    if (n.op == Proj) {
      const Node& tuple = fn.nodes[n.inputs[0]];
      return tuple.op != If;
    }
    return res == "v" || res == "m" || res == "x";
  };
  bool any = false;
  if (has_undefined)
    any |= ddmin_nodes(f, [&](Function& fn, NodeId id) {
      const Node& n = fn.nodes[id];
      if (leaf(n) || n.op == Param || n.op == EntryMem || !value_or_memory(fn, id) || (n.op >= kNumOps)) return false;
      if (op_info(n.op).has(BLOCK) || op_info(n.op).has(TERMINATOR)) return false;
      reduce::make_undefined(fn, id, level);
      return true;
    });
  any |= ddmin_nodes(f, [&](Function& fn, NodeId id) {
    const Node& n = fn.nodes[id];
    std::optional<std::string> type = reduce::value_type(fn, id);
    if (!type) return false;
    bool zero_const = n.op == Const && n.literals.size() == 2 && n.literals[1].is_int() &&
                      n.literals[1].kind() == Literal::Kind::Int && n.literals[1].as_int() == 0;
    if (zero_const || n.op == Param) return false;
    reduce::make_constant(fn, id, *type);
    return true;
  });
  any |= ddmin_nodes(f, [&](Function& fn, NodeId id) {
    // Bypass: memory operations pass their memory input on, a call's memory
    // proj the call's memory input, a pure value or a phi one of its inputs.
    const Node& n = fn.nodes[id];
    if (n.op >= kNumOps) return false;
    if (n.op == Proj) {
      const Node& tuple = fn.nodes[n.inputs[0]];
      bool memory = n.literals[0].is_int() && n.literals[0].as_int() == 0 && (tuple.op == Call || tuple.op == LoadV);
      return memory && !tuple.inputs.empty() && reduce::replace_uses(fn, id, tuple.inputs[0]);
    }
    if (n.op == Store || n.op == StoreV || n.op == Copy) return reduce::replace_uses(fn, id, n.inputs[0]);
    bool pure_value = op_info(n.op).has(PURE) && op_info(n.op).results == "v";
    if (!pure_value && n.op != Phi && n.op != SsaPhi) return false;
    for (NodeId x : n.inputs)
      if (x != id && reduce::replace_uses(fn, id, x)) return true;
    return false;
  });
  // Unused nodes, removed outright.
  any |= ddmin_delete(f);
  return any;
}

void Reducer::run() {
  progress("start");
  for (bool changed = true; changed;) {
    changed = reduce_functions();
    progress("functions");
    changed |= reduce_data();
    progress("data");
    changed |= reduce_branches();
    progress("branches");
    changed |= merge_blocks();
    progress("blocks");
    for (size_t f = 0; f < m_.functions.size(); ++f) changed |= reduce_nodes(f);
    progress("nodes");
  }
  for (Function& fn : m_.functions) renumber_canonical(fn);
}

}  // namespace

int main(int argc, char** argv) {
  Tool tool({"pipe-reduce", "Shrink a module while a test command still exits 0 on it (delta debugging).",
             "  pipe-reduce --test 'pipe-run' crash.bin -o small.txt -f text\n"
             "  pipe-reduce --test './still-wrong.sh' big.bin -o small.bin   # gets the candidate as $1"});
  std::string test;
  double timeout = 30;
  bool quiet = false;
  tool.cli().add_option("--test", test, "Interestingness command; the candidate file is its last argument")
      ->required();
  tool.cli().add_option("--timeout", timeout, "Seconds the test may take (longer: not interesting)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  tool.cli().add_flag("-q,--quiet", quiet, "No progress lines");
  return tool.main(argc, argv, [&](Tool& t) {
    ModuleReader& in = t.open_input();
    Module m;
    m.header = in.header();
    if (m.header.level == Level::Ast)
      throw FormatError(Where(), "pipe-reduce works on the graph levels (cfg and later); this module is at 'ast'");
    Function fn;
    while (in.next(fn)) {
      t.verify_input(fn);
      m.functions.push_back(std::move(fn));
      fn = Function();
    }
    m.header = in.header();  // with the module pieces
    t.merged_input_pieces();
    ByteSource probe = ByteSource::open(t.input_path() == "-" ? "/dev/null" : t.input_path());
    Encoding encoding = t.input_path() == "-" ? Encoding::Binary : detect_encoding(probe);
    Reducer reducer(std::move(m), test, encoding, timeout, quiet);
    if (!reducer.interesting(reducer.result()))
      throw FormatError(Where(), "the input is not interesting: the test does not exit 0 on it");
    reducer.run();
    t.open_output(reducer.result().header);
    for (const Function& f : reducer.result().functions) t.write(f);
    t.finish_output();
  });
}
