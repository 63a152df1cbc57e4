// bench_formats.cpp - read and write throughput of the three encodings
// (run by scripts/bench-formats; a benchmark, not a test).
//
// For modules of 10k, 100k and 1M nodes from the generator (son level, 10
// functions, source locations on some nodes), it times writing the module to
// memory and reading it back with the streaming reader (best of N runs), and
// prints MB/s, nodes/s and ns/node (to see linear growth) per encoding.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "encoding/format.h"
#include "gen/generate.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

size_t count_nodes(const pl::Module& m) {
  size_t n = 0;
  for (const pl::Function& f : m.functions) n += f.nodes.size();
  return n;
}

struct Timing {
  double write_s = 1e9, read_s = 1e9;
  size_t bytes = 0;
};

// Writes into a sink whose buffer keeps its capacity between runs, as a
// file or pipe sink does (OutputFile reuses one buffer): best-of-N then
// measures encoding, not the page faults of a freshly grown string.
Timing measure(const pl::Module& m, pl::Encoding e, int runs) {
  Timing t;
  pl::StringSink sink;
  std::string bytes;
  for (int r = 0; r < runs + 1; ++r) {  // the first run warms the buffer
    sink.text.clear();
    auto t0 = Clock::now();
    auto writer = pl::make_writer(e, sink);
    writer->begin(m.header);
    for (const pl::Function& f : m.functions) writer->function(f);
    writer->end();
    if (r > 0) t.write_s = std::min(t.write_s, seconds_since(t0));
  }
  bytes = sink.text;
  t.bytes = bytes.size();
  for (int r = 0; r < runs; ++r) {
    pl::ByteSource src = pl::ByteSource::from_string("bench", bytes);
    auto t0 = Clock::now();
    auto reader = pl::open_reader(src);
    pl::Function fn;
    size_t functions = 0;
    while (reader->next(fn)) ++functions;
    t.read_s = std::min(t.read_s, seconds_since(t0));
    if (functions != m.functions.size()) std::fprintf(stderr, "bench: function count mismatch\n");
  }
  return t;
}

}  // namespace

// pipe-bench-formats [RUNS [ENCODING...]]: best of RUNS (default 3), for
// the named encodings only (json, bin, text; default all three).
int main(int argc, char** argv) {
  int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  std::vector<pl::Encoding> encodings;
  for (int i = 2; i < argc; ++i) {
    auto e = pl::parse_encoding(argv[i]);
    if (!e) {
      std::fprintf(stderr, "usage: pipe-bench-formats [RUNS [json|bin|text...]]\n");
      return 2;
    }
    encodings.push_back(*e);
  }
  if (encodings.empty()) encodings = {pl::Encoding::Binary, pl::Encoding::Json, pl::Encoding::Text};
  std::printf("| nodes | encoding | size MB | write MB/s | read MB/s | write Mnodes/s | read Mnodes/s | "
              "read+write s | ns/node (r+w) |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (uint64_t target : {10'000ull, 100'000ull, 1'000'000ull}) {
    pl::GenerateOptions opts;
    opts.seed = 42;
    opts.level = pl::Level::Son;
    opts.functions = 10;
    opts.nodes = target;
    pl::Module m = pl::generate_module(opts);
    double nodes = static_cast<double>(count_nodes(m));
    for (pl::Encoding e : encodings) {
      Timing t = measure(m, e, runs);
      double mb = static_cast<double>(t.bytes) / 1e6;
      std::printf("| %.0f | %s | %.2f | %.0f | %.0f | %.2f | %.2f | %.4f | %.0f |\n", nodes,
                  std::string(pl::encoding_name(e)).c_str(), mb, mb / t.write_s, mb / t.read_s,
                  nodes / t.write_s / 1e6, nodes / t.read_s / 1e6, t.write_s + t.read_s,
                  (t.write_s + t.read_s) / nodes * 1e9);
      std::fflush(stdout);
    }
  }
}
