// generate.h - random valid modules, for the property tests and benchmarks.
//
// generate_function() builds a function that passes the verifier at the
// requested level (son, cfg, ssa, son-x64 or cfg-x64): a random CFG of blocks with if/jump/
// return terminators (merges of any number of predecessors, loops),
// pure arithmetic, loads/stores/calls threaded through memory, phis at
// merges, literals of every JSON kind on foreign-free opcodes, source
// locations. The same seed always gives the same module.
#pragma once

#include <cstdint>
#include <random>

#include "ir/ir.h"

namespace pl {

// A number in [0, n) from `rng`, the same on every machine and standard
// library (std::uniform_int_distribution's algorithm is the library's own,
// so a seed would not replay across them): rejection of the 2^64 mod n
// lowest values, then the remainder.
inline uint64_t pick_below(std::mt19937_64& rng, uint64_t n) {
  uint64_t threshold = (0 - n) % n;
  uint64_t x;
  do x = rng();
  while (x < threshold);
  return x % n;
}

struct GenerateOptions {
  uint64_t seed = 1;
  Level level = Level::Son;     // son, cfg, ssa, son-x64 or cfg-x64
  uint32_t functions = 1;
  uint64_t nodes = 1000;        // approximate total over all functions
  bool exotic = false;          // add foreign nodes with literals of every kind
  // cfg-x64 only: register pressure of the kinds that have broken
  // regalloc-x64 (issues 17 and 22): merges whose phis outnumber the
  // registers, fed by constants (x64:movi, x64:lea of a symbol) made in
  // each predecessor, and variadic calls through a pointer loaded right
  // before the call.
  bool pressure = false;
  // f32 and f64 values beside the integers (a float pool per block: float
  // parameters and results, constants with special values, arithmetic,
  // conversions both ways, compares into the integer pool, float phis,
  // loads and stores of floats) and long double operations through 16-byte
  // stack slots (f80.* and x64:f80.*), at every level. Off, a seed gives the
  // module it gave before floats.
  bool floats = false;
};

ModuleHeader generate_header(const GenerateOptions& opts);
// Function `index` of the module (deterministic in seed and index).
Function generate_function(const GenerateOptions& opts, uint32_t index);
Module generate_module(const GenerateOptions& opts);

}  // namespace pl
