// options.h - pipecc's command line: the whole gcc/clang command line, read
// with clang 14's own driver option table (options.cpp has the decision for
// every option).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pl::pipecc {

enum class Mode {
  Link, Compile /* -c */, Assemble /* -S */, Preprocess /* -E, -M, -MM */,
  SyntaxOnly /* -fsyntax-only: c2ast's checks and clang's diagnostics, no output */
};

// What an input is, from `-x LANG` or its name (gcc's rules).
enum class Lang {
  C,          // .c, -x c: the whole pipeline
  CppOutput,  // .i, -x cpp-output: C already preprocessed (distcc's remote compiles)
  Asm,        // .s, -x assembler: the assembler
  AsmCpp,     // .S .sx, -x assembler-with-cpp: clang's preprocessor, then the assembler
  Linker,     // .o .a .so and anything else: the link
};

struct Input {
  std::string path;  // "-" = stdin
  Lang lang = Lang::C;
};

// The link line in command-line order: an input (its object once compiled)
// or a linker option, as gcc keeps them (`main.o -lm` is not `-lm main.o`).
struct LinkItem {
  std::string arg;  // a linker option, or empty for an input
  int input = -1;   // index into Options::inputs
};

// Questions a build system asks without compiling (identity.cpp).
enum class Query {
  None, Version, DumpVersion, DumpFullVersion, DumpMachine, PrintProgName, PrintFileName, PrintSearchDirs,
  PrintLibgcc, PrintMultiarch, PrintTargetTriple, VerboseAlone
};

struct Options {
  Mode mode = Mode::Link;
  std::string output;      // -o; empty = cc's default
  int opt_level = 0;       // the pipe's level: 0, 1 or 2 (options.cpp maps -O* onto it)
  std::string opt_flag;    // the -O flag as written (for notes)
  bool function_sections = false;  // -ffunction-sections
  bool data_sections = false;      // -fdata-sections
  std::string cf_protection = "none";  // -fcf-protection[=KIND]
  bool stack_clash = false;            // -fstack-clash-protection
  bool frame_pointer = false;          // -fno-omit-frame-pointer
  // -f[no-]optimize-sibling-calls; unset: at -O2 (as gcc), never at -O0.
  std::optional<bool> sibling_calls;
  bool sibling_calls_on() const { return opt_level > 0 && sibling_calls.value_or(opt_level >= 2); }
  bool pic = false;  // -fPIC/-fpic (the last of them and -fPIE/-fpie/-fno-pic... wins): son-lower-x64 --pic
  bool debug = false;      // -g (any level but -g0): line tables
  // gcc's -fpreprocessed: the C inputs are preprocessed text (as .i files
  // are; icecream's remote compiles), so -D, -U, -I and -include do not apply.
  bool preprocessed = false;
  // gcc's -fdirectives-only (the last of it and -fno-directives-only wins):
  // with -E only the directives are processed, macros are not expanded and
  // the macro definitions come first (c2ast --directives-only); a
  // preprocessed input is compiled with the macros it defines and no
  // predefined ones (clang's -undef).
  bool directives_only = false;
  // gcc's -fworking-directory / -fno-working-directory (unset: on with -g):
  // -E text names the directory it was made in (`# 1 "DIR//"`), which the
  // -g compile of the text records (c2ast --working-directory).
  std::optional<bool> working_directory;
  // clang driver arguments for c2ast (its front end, in process): -I -D -U
  // -include -isystem ... -std= -ansi -pedantic -W... -w, and -M options.
  std::vector<std::string> frontend_args;
  // c2ast's own options for gcc's options clang lacks (the
  // -finstrument-functions exclusion lists).
  std::vector<std::string> c2ast_args;
  // The -M family, as c2ast's clang takes it (-MD/-MMD completed with -MF and
  // -MT per input by the driver: gcc's default names).
  bool dep_md = false, dep_mmd = false, dep_m = false, dep_mm = false;
  std::string dep_file;                     // -MF
  std::vector<std::string> dep_target_args;  // -MT X / -MQ X, in order
  std::vector<std::string> dep_other_args;   // -MP -MG
  std::vector<std::string> asm_args;   // -Wa,/-Xassembler for .s/.S inputs
  std::vector<std::string> link_args;  // linker options (also in link_items)
  std::vector<LinkItem> link_items;
  std::vector<Input> inputs;
  std::vector<std::string> notes;  // options accepted without effect, each with why (printed under -v)
  Query query = Query::None;
  std::string query_arg;  // -print-prog-name=X, -print-file-name=X
  bool print_only = false;  // -###
  bool verbose = false;     // -v
  std::optional<std::string> save_temps;  // --save-temps[=DIR] ("" = next to the output)
  std::string print_after;  // --print-after=STAGE
  std::string stop_after;   // --stop-after=STAGE
  std::string view;         // --view=FILE.html: pipe-view's page of the compile
  bool verify_inputs = false;  // --verify-inputs: stages check their input too
  bool check_each = false;     // --check-each: sonopt and cfgopt run the program after every pass application
};

// Parses argv (without argv[0]), @files expanded. Throws UsageError naming
// an unknown option (with clang's nearest spelling), a missing argument, or
// an option whose meaning pipecc does not provide.
Options parse_options(const std::vector<std::string>& args);

// The decision table as text (pipecc --help-options): every option pipecc
// treats specially and the group defaults for the rest.
std::string describe_option_decisions();

extern const char* const kUsage;

}  // namespace pl::pipecc
