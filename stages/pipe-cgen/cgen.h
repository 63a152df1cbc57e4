// cgen.h - pipe-cgen's program generator (see pipe-cgen.cpp for the tool).
//
// generate.cpp writes a C program from a seed: a main file with the
// checksum, the inputs and main, and "groups", each a small family of
// functions exercising one kind of code csmith never writes (recursion,
// loops with computed trip counts and early exits, calls through pointers,
// variadic calls and va_list passing, switches, deep struct copies,
// attributes), reached through one external entry `u32 cg_gK(u32, u32)`
// that main calls and whose result goes into the checksum.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pl::cgen {

// The kinds of group; each can be switched off.
struct Features {
  bool recursion = true;
  bool loops = true;
  bool pointers = true;  // calls through function pointers
  bool varargs = true;   // variadic functions, va_list passing, va_copy
  bool switches = true;
  bool structs = true;      // deep struct copies, by value, through pointers
  bool attributes = true;   // GCC attributes (alias, weak, constructor, cleanup, ...)
  // Variadic calls through function pointers too (issue 17 item 4: the
  // callee must stay out of rax, which the call's al overwrites).
  bool indirect_variadic = true;
};

struct Options {
  uint64_t seed = 1;
  Features features;
  unsigned groups = 0;  // 0: the seed picks 6 to 10
  unsigned files = 1;   // translation units the groups are spread over
  bool unity = false;   // files > 1: the main file #includes the others
};

struct SourceFile {
  std::string name;  // file name (no directory)
  std::string text;
  bool compiled;  // false: reached only through #include (unity)
};

// The program for `options`; files[0] is the main file, named `main_name`,
// the others are named after it (prog.c: prog-2.c, prog-3.c, ...). The same
// options give the same bytes on every machine.
std::vector<SourceFile> generate_program(const Options& options, const std::string& main_name);

}  // namespace pl::cgen
