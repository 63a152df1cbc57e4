// generate_runnable.h - random runnable programs, for differential fuzzing.
//
// generate.h makes modules that verify; this makes modules that also *run*:
// `main` terminates, has no undefined behaviour pipe-run could see or a later
// stage could exploit, and prints what it computes, so that pipe-run on a
// stage's input and on its output must print the same and exit alike (the
// technique of csmith and Cranelift's fuzzgen). pipe-fuzz feeds them to the
// stages; `pipe-gen --runnable` writes one. The same seed always gives the
// same module, on any machine.
#pragma once

#include <cstdint>

#include "ir/ir.h"

namespace pl {

struct RunnableOptions {
  uint64_t seed = 1;
  Level level = Level::Son;  // cfg, ssa or son
  uint32_t functions = 3;    // main and functions-1 helpers
  uint64_t nodes = 300;      // approximate total over all functions
  // f32 and f64 values too (generate_runnable.cpp says which nodes); off,
  // the random stream and so every program is what it was before floats.
  bool floats = true;
};

// True for the levels generate_runnable_*() can write.
bool runnable_level(Level level);

ModuleHeader generate_runnable_header(const RunnableOptions& opts);
// Function `index` of the module: 0 is `main`, the others `fN`.
Function generate_runnable_function(const RunnableOptions& opts, uint32_t index);
Module generate_runnable_module(const RunnableOptions& opts);

}  // namespace pl
