// options.cpp - reading pipecc's command line with clang 14's driver option
// table (options.h).
//
// Algorithm: @files are expanded (GNU quoting, as gcc and clang do), the
// preprocessor pass-throughs are unwrapped (`-Wp,-MD,f.d` is `-MD -MF f.d`,
// as both gcc and clang read it; any other `-Wp,A,B` and `-Xpreprocessor A`
// are A and B given directly), pipecc's own long options are taken out, and
// the rest is parsed by clang::driver::getDriverOptTable() with the flags of
// clang's gcc-compatible driver (no cl.exe or cc1-only options). So every
// option gcc or clang accepts is known by its exact spelling, its argument
// kind (-I DIR, -IDIR, -Wl,a,b, -Xlinker x) and its group; an unknown one is
// an error that names it and clang's nearest spelling.
//
// Each parsed option then meets one decision, first match wins:
//  1. implemented here (a switch below): modes, -o, -x, -O*, -g*, the -M
//     family, inputs, identity questions;
//  2. the decision table kDecisions: `front end` (handed to c2ast's clang:
//     preprocessor, language, warnings and diagnostics formatting, which
//     clang honours in process), `link` (kept in order with the inputs for
//     the linking cc), `note` (accepted: it cannot change what our code
//     means, with the reason, printed by -v), `refuse` (it would change the
//     meaning and we do not provide it: exit 2 naming it);
//  3. the group defaults at the end of the table: clang's list of ignored gcc
//     optimisation switches is a note, any other -f or -m option is refused
//     by name, -W is front end, the link group is link.
// Nothing is silently dropped. `pipecc --help-options` prints the table.
#include "options.h"

#include <algorithm>
#include <filesystem>
#include <string_view>

#include <clang/Driver/Options.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Option/Arg.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>
#include <llvm/Option/Option.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/StringSaver.h>

#include "tool/tool.h"

namespace pl::pipecc {

const char* const kUsage =
    "usage: pipecc [-c|-S|-E|-M|-MM] [-O0|-O1|-O2|-O3|-Os|-Oz|-Og|-Ofast] [-g] [-I DIR] [-D NAME[=V]] [-U NAME]\n"
    "              [-include F] [-isystem DIR] [-std=STD] [-W...] [-MD|-MMD] [-MF F] [-MT T] [-MQ T] [-MP]\n"
    "              [-x c|cpp-output|assembler|assembler-with-cpp|none] [-o OUT] FILE...|- [@FILE]\n"
    "              [-L DIR] [-l LIB] [-Wl,ARGS] [-Xlinker ARG] [-shared] [-static] ...\n"
    "              [-###] [-v] [--save-temps[=DIR]] [--print-after=STAGE] [--stop-after=STAGE]\n"
    "              [--view=FILE.html] [--verify-inputs] [--check-each] [--help-options]\n"
    "       pipecc --version | -v | -dumpversion | -dumpmachine | -print-prog-name=P | -print-file-name=F\n"
    "              | -print-search-dirs | -print-libgcc-file-name | -print-multiarch\n"
    "\n"
    "Compiles C through the toolchain's stages, each its own process joined to the next by a pipe\n"
    "(c2ast | ast2cfg | cfg2ssa | ssa2son | sonopt | son-lower-x64 | son2cfg | cfgopt | regalloc-x64 |\n"
    "codegen-x64); .s files go to the assembler, .S files through clang's preprocessor (in c2ast) to the\n"
    "assembler, and .o, .a and libraries to the link, which the system's cc drives. -### prints the shell\n"
    "pipelines instead of running them. The command line is gcc's and clang's (clang 14's option table):\n"
    "--help-options lists what pipecc does with each option.\n"
    "Each stage checks the module it writes against its level's contract; the next stage then skips\n"
    "checking it again (--no-verify-input) unless --verify-inputs is given. --check-each runs sonopt and\n"
    "cfgopt with --check-each: the program under pipe-run after every pass application that changed it.\n";

namespace {

namespace opts = clang::driver::options;
using llvm::opt::Arg;

enum class Kind { Frontend, Link, Note, Refuse };

struct Decision {
  unsigned id;  // an option or a group (matches() covers both)
  Kind kind;
  const char* why;  // for Note and Refuse: the reason, printed
};

constexpr const char* kPic =
    "executable code, PIE or not, is what pipecc makes by default (RIP-relative data, PLT calls, GOT loads of "
    "other objects' data, local-exec and initial-exec thread-local access); -fPIC/-fpic make shared-library code";
constexpr const char* kOptSwitch = "an optimisation switch: it cannot change what the program computes";
constexpr const char* kGccIgnored = "a gcc optimisation switch that clang ignores too";
constexpr const char* kHardening =
    "hardening pipecc does not add: the code means the same, without that protection";
constexpr const char* kUnwind = "every function gets call frame information (.eh_frame) anyway";
constexpr const char* kFastMath =
    "changes nothing: it permits value-changing floating-point rewrites, pipecc makes none and keeps IEEE "
    "semantics (__FAST_MATH__ stays undefined; no flush-to-zero start-up code is linked)";

// The decisions, first match wins; group defaults last.
const Decision kDecisions[] = {
    // -- handed to clang's front end in c2ast (the preprocessor, the language, warnings, diagnostics)
    {opts::OPT_undef, Kind::Frontend, nullptr},
    {opts::OPT_nostdinc, Kind::Frontend, nullptr},
    {opts::OPT_nostdlibinc, Kind::Frontend, nullptr},
    {opts::OPT_nobuiltininc, Kind::Frontend, nullptr},
    {opts::OPT_I_Group, Kind::Frontend, nullptr},
    {opts::OPT_clang_i_Group, Kind::Frontend, nullptr},
    {opts::OPT_Preprocessor_Group, Kind::Frontend, nullptr},  // -D -U -P -C (the -M family is implemented first)
    {opts::OPT_d_Group, Kind::Frontend, nullptr},             // -dM -dD -dI (with -E)
    {opts::OPT_std_EQ, Kind::Frontend, nullptr},
    {opts::OPT_ansi, Kind::Frontend, nullptr},
    {opts::OPT_trigraphs, Kind::Frontend, nullptr},
    {opts::OPT_w, Kind::Frontend, nullptr},
    {opts::OPT_pedantic, Kind::Frontend, nullptr},
    {opts::OPT_pedantic_errors, Kind::Frontend, nullptr},
    {opts::OPT_W_Group, Kind::Frontend, nullptr},  // -Wall -Werror -Wno-x -Werror=x ...
    {opts::OPT_W_value_Group, Kind::Frontend, nullptr},
    {opts::OPT_fcolor_diagnostics, Kind::Frontend, nullptr},
    {opts::OPT_fno_color_diagnostics, Kind::Frontend, nullptr},
    {opts::OPT_fdiagnostics_color, Kind::Frontend, nullptr},
    {opts::OPT_fdiagnostics_color_EQ, Kind::Frontend, nullptr},
    {opts::OPT_fno_diagnostics_color, Kind::Frontend, nullptr},
    {opts::OPT_fdiagnostics_show_option, Kind::Frontend, nullptr},
    {opts::OPT_fno_diagnostics_show_option, Kind::Frontend, nullptr},
    {opts::OPT_fcaret_diagnostics, Kind::Frontend, nullptr},
    {opts::OPT_fno_caret_diagnostics, Kind::Frontend, nullptr},
    {opts::OPT_fshow_column, Kind::Frontend, nullptr},
    {opts::OPT_fno_show_column, Kind::Frontend, nullptr},
    {opts::OPT_fmessage_length_EQ, Kind::Frontend, nullptr},
    {opts::OPT_ferror_limit_EQ, Kind::Frontend, nullptr},
    {opts::OPT_fmacro_backtrace_limit_EQ, Kind::Frontend, nullptr},
    {opts::OPT_fdiagnostics_format_EQ, Kind::Frontend, nullptr},
    {opts::OPT_fmacro_prefix_map_EQ, Kind::Frontend, nullptr},  // __FILE__, in clang's preprocessor
    {opts::OPT_fsigned_char, Kind::Frontend, nullptr},    // char's signedness comes from clang's types
    {opts::OPT_fno_signed_char, Kind::Frontend, nullptr},
    {opts::OPT_funsigned_char, Kind::Frontend, nullptr},
    {opts::OPT_fno_unsigned_char, Kind::Frontend, nullptr},
    {opts::OPT_fbuiltin, Kind::Frontend, nullptr},
    {opts::OPT_fno_builtin, Kind::Frontend, nullptr},
    {opts::OPT_fno_builtin_, Kind::Frontend, nullptr},
    {opts::OPT_ffreestanding, Kind::Frontend, nullptr},
    {opts::OPT_fdollars_in_identifiers, Kind::Frontend, nullptr},
    {opts::OPT_fno_dollars_in_identifiers, Kind::Frontend, nullptr},
    {opts::OPT_fmath_errno, Kind::Frontend, nullptr},
    {opts::OPT_fno_math_errno, Kind::Frontend, nullptr},
    {opts::OPT_fgnu_keywords, Kind::Frontend, nullptr},
    {opts::OPT_fno_gnu_keywords, Kind::Frontend, nullptr},
    {opts::OPT_fasm, Kind::Frontend, nullptr},
    {opts::OPT_fno_asm, Kind::Frontend, nullptr},

    // -- accepted: cannot change what the code means
    {opts::OPT_pipe, Kind::Note, "the stages always run joined by pipes"},
    {opts::OPT_fPIE, Kind::Note, kPic},
    {opts::OPT_fpie, Kind::Note, kPic},
    {opts::OPT_fno_PIC, Kind::Note, kPic},
    {opts::OPT_fno_pic, Kind::Note, kPic},
    {opts::OPT_fno_PIE, Kind::Note, kPic},
    {opts::OPT_fno_pie, Kind::Note, kPic},
    {opts::OPT_fplt, Kind::Note, "calls to other objects' functions go through the PLT"},
    {opts::OPT_fno_plt, Kind::Note, "calls to other objects' functions go through the PLT: the binding is the same"},
    {opts::OPT_fvisibility_EQ, Kind::Frontend, nullptr},  // the definitions' visibility (c2ast)
    {opts::OPT_fvisibility_inlines_hidden, Kind::Note, "a C++ option: nothing in C"},
    // canaries: c2ast marks the functions by gcc's rules (stack_protect.cpp),
    // codegen-x64 places and checks them (frame.h); clang defines __SSP__...
    {opts::OPT_fstack_protector, Kind::Frontend, nullptr},
    {opts::OPT_fstack_protector_strong, Kind::Frontend, nullptr},
    {opts::OPT_fstack_protector_all, Kind::Frontend, nullptr},
    {opts::OPT_fno_stack_protector, Kind::Frontend, nullptr},

    {opts::OPT_fasynchronous_unwind_tables, Kind::Note, kUnwind},
    {opts::OPT_fno_asynchronous_unwind_tables, Kind::Note, kUnwind},
    {opts::OPT_funwind_tables, Kind::Note, kUnwind},
    {opts::OPT_fno_unwind_tables, Kind::Note, kUnwind},
    {opts::OPT_fexceptions, Kind::Note, "in C only unwind tables, which every function has"},
    {opts::OPT_fno_exceptions, Kind::Note, "no exceptions in C"},
    {opts::OPT_momit_leaf_frame_pointer, Kind::Note,
     "with -fno-omit-frame-pointer leaf functions keep the rbp chain too (as with -mno-omit-leaf-frame-pointer)"},
    {opts::OPT_mno_omit_leaf_frame_pointer, Kind::Note, "with -fno-omit-frame-pointer every function keeps it"},
    {opts::OPT_fwrapv, Kind::Note,
     "what pipecc does: the IR has no signed-overflow assumptions (no nsw), arithmetic wraps"},
    {opts::OPT_fno_wrapv, Kind::Note, "arithmetic wraps anyway (a stronger guarantee)"},
    {opts::OPT_fno_strict_overflow, Kind::Note, "what pipecc does: arithmetic wraps"},
    {opts::OPT_fstrict_overflow, Kind::Note, "arithmetic wraps anyway"},
    {opts::OPT_fno_strict_aliasing, Kind::Note,
     "what pipecc does: alias analysis uses base objects and offsets, never types"},
    {opts::OPT_fstrict_aliasing, Kind::Note, "alias analysis never uses types (a stronger guarantee)"},
    {opts::OPT_fno_delete_null_pointer_checks, Kind::Note,
     "what pipecc does: no null check is removed because of a dereference"},
    {opts::OPT_fdelete_null_pointer_checks, Kind::Note, kOptSwitch},
    // tentative definitions as common symbols (c2ast data.cpp, the data
    // attribute `common`, codegen-x64's .comm); the last of the two wins
    {opts::OPT_fcommon, Kind::Frontend, nullptr},
    {opts::OPT_fno_common, Kind::Frontend, nullptr},
    {opts::OPT_fdebug_prefix_map_EQ, Kind::Note, "debug line tables keep the paths as written"},
    {opts::OPT_ffile_prefix_map_EQ, Kind::Frontend, nullptr},  // __FILE__; debug paths: see parse()
    // calls to __cyg_profile_func_enter/_exit: clang's code generation
    // option, which c2ast reads (instrument.cpp); gcc's exclusion lists
    // (clang has none) are read before the table, see parse_options
    {opts::OPT_finstrument_functions, Kind::Frontend, nullptr},
    // gnu89 `inline`/`extern inline`: clang's language option, and c2ast
    // emits a function exactly when clang's linkage rules say it is defined
    {opts::OPT_fgnu89_inline, Kind::Frontend, nullptr},
    {opts::OPT_fno_gnu89_inline, Kind::Frontend, nullptr},
    {opts::OPT_Qn, Kind::Note, "no .comment section is written"},  // -fno-ident
    {opts::OPT_Qy, Kind::Note, "no .comment section is written"},  // -fident
    {opts::OPT_fsemantic_interposition, Kind::Note, kOptSwitch},
    {opts::OPT_fno_semantic_interposition, Kind::Note, kOptSwitch},
    {opts::OPT_fmerge_all_constants, Kind::Note, kOptSwitch},
    {opts::OPT_fno_merge_all_constants, Kind::Note, kOptSwitch},
    // only always_inline functions are inlined: c2ast marks the others
    // noinline (clang's driver gives it OnlyAlwaysInlining)
    {opts::OPT_fno_inline, Kind::Frontend, nullptr},
    {opts::OPT_finline_functions, Kind::Note, kOptSwitch},
    {opts::OPT_fno_inline_functions, Kind::Note, kOptSwitch},
    {opts::OPT_finline_hint_functions, Kind::Note, kOptSwitch},
    {opts::OPT_funroll_loops, Kind::Note, kOptSwitch},
    {opts::OPT_fno_unroll_loops, Kind::Note, kOptSwitch},
    {opts::OPT_fvectorize, Kind::Note, kOptSwitch},
    {opts::OPT_fno_vectorize, Kind::Note, kOptSwitch},
    {opts::OPT_fslp_vectorize, Kind::Note, kOptSwitch},
    {opts::OPT_fno_slp_vectorize, Kind::Note, kOptSwitch},
    {opts::OPT_fjump_tables, Kind::Note, kOptSwitch},
    {opts::OPT_fno_jump_tables, Kind::Note, kOptSwitch},
    {opts::OPT_fzero_initialized_in_bss, Kind::Note, kOptSwitch},
    {opts::OPT_fno_zero_initialized_in_bss, Kind::Note, kOptSwitch},
    {opts::OPT_fverbose_asm, Kind::Note, "the assembly of -S is codegen-x64's"},
    {opts::OPT_fno_verbose_asm, Kind::Note, "the assembly of -S is codegen-x64's"},
    {opts::OPT_frecord_command_line, Kind::Note, "the command line is not recorded in the object"},
    {opts::OPT_fno_record_command_line, Kind::Note, "the command line is not recorded in the object"},
    {opts::OPT_fno_lto, Kind::Note, "no link-time optimisation: what pipecc does"},
    {opts::OPT_fno_sanitize_EQ, Kind::Note, "no sanitizer is on"},
    {opts::OPT_fno_profile_arcs, Kind::Note, "no profiling: what pipecc does"},
    {opts::OPT_fno_fast_math, Kind::Note, "IEEE semantics: what pipecc stands for"},
    {opts::OPT_fno_finite_math_only, Kind::Note, "IEEE semantics"},
    {opts::OPT_fno_unsafe_math_optimizations, Kind::Note, "IEEE semantics"},
    {opts::OPT_m64, Kind::Note, "x86-64 is the only target"},
    {opts::OPT_march_EQ, Kind::Note,
     "the code is baseline x86-64 (no SSE3 and later), which every x86-64 CPU runs; clang's feature macros "
     "(__AVX2__ ...) stay undefined, so C code takes its baseline paths"},
    {opts::OPT_mtune_EQ, Kind::Note, "instruction selection does not tune for CPUs"},
    {opts::OPT_mfpmath_EQ, Kind::Note, "SSE is the x86-64 floating-point unit"},
    {opts::OPT_msse, Kind::Note, "part of baseline x86-64"},
    {opts::OPT_msse2, Kind::Note, "part of baseline x86-64"},
    {opts::OPT_g_flags_Group, Kind::Note, "fine-tunes debug information; pipecc writes DWARF 4 (types, variables, line tables)"},
    {opts::OPT_gz, Kind::Note, "debug sections are not compressed"},
    {opts::OPT_gz_EQ, Kind::Note, "debug sections are not compressed"},

    // -- refused: they would change what the code means or what is produced
    {opts::OPT_gsplit_dwarf, Kind::Refuse, "split DWARF (.dwo files) is not written"},
    {opts::OPT_fshort_enums, Kind::Refuse, "enums are int-sized"},
    {opts::OPT_fshort_wchar, Kind::Refuse, "wchar_t is int"},
    {opts::OPT_fpack_struct_EQ, Kind::Refuse, "struct layout is the psABI's"},
    {opts::OPT_fms_extensions, Kind::Refuse, "Microsoft extensions are not supported"},
    {opts::OPT_ffast_math, Kind::Note, kFastMath},
    {opts::OPT_funsafe_math_optimizations, Kind::Note, kFastMath},
    {opts::OPT_ffinite_math_only, Kind::Note, kFastMath},
    {opts::OPT_fassociative_math, Kind::Note, kFastMath},
    {opts::OPT_freciprocal_math, Kind::Note, kFastMath},
    {opts::OPT_ftrapv, Kind::Refuse, "overflow traps are not generated (arithmetic wraps)"},
    {opts::OPT_fsanitize_EQ, Kind::Refuse, "sanitizers are not implemented"},
    {opts::OPT_coverage, Kind::Refuse, "coverage instrumentation is not implemented"},
    {opts::OPT_fprofile_arcs, Kind::Refuse, "coverage instrumentation is not implemented"},
    {opts::OPT_ftest_coverage, Kind::Refuse, "coverage instrumentation is not implemented"},
    {opts::OPT_fprofile_generate, Kind::Refuse, "profile instrumentation is not implemented"},
    {opts::OPT_fprofile_instr_generate, Kind::Refuse, "profile instrumentation is not implemented"},
    {opts::OPT_flto, Kind::Refuse, "link-time optimisation is not implemented (objects are machine code)"},
    {opts::OPT_flto_EQ, Kind::Refuse, "link-time optimisation is not implemented (objects are machine code)"},
    {opts::OPT_fopenmp, Kind::Refuse, "OpenMP is not implemented"},
    {opts::OPT_pg, Kind::Refuse, "gprof instrumentation (mcount calls) is not implemented"},
    {opts::OPT_emit_llvm, Kind::Refuse, "pipecc does not produce LLVM IR (--stop-after=STAGE saves its own)"},
    {opts::OPT_Xclang, Kind::Refuse, "pipecc is not clang: cc1 options do not apply"},
    {opts::OPT_B, Kind::Refuse, "the stages are found next to pipecc; -B prefixes are not searched"},
    {opts::OPT_m32, Kind::Refuse, "x86-64 (LP64) is the only target"},
    {opts::OPT_mx32, Kind::Refuse, "x86-64 (LP64) is the only target"},
    {opts::OPT_m16, Kind::Refuse, "x86-64 (LP64) is the only target"},
    {opts::OPT_traditional_cpp, Kind::Refuse, "clang's preprocessor has no traditional mode"},

    // -- the link (kept in order with the inputs for the linking cc)
    {opts::OPT_static, Kind::Link, nullptr},
    {opts::OPT_static_libgcc, Kind::Link, nullptr},
    {opts::OPT_static_pie, Kind::Link, nullptr},
    {opts::OPT_shared, Kind::Link, nullptr},
    {opts::OPT_nostdlib, Kind::Link, nullptr},
    {opts::OPT_nostartfiles, Kind::Link, nullptr},
    {opts::OPT_nodefaultlibs, Kind::Link, nullptr},
    {opts::OPT_nolibc, Kind::Link, nullptr},
    {opts::OPT_rdynamic, Kind::Link, nullptr},
    {opts::OPT_pie, Kind::Link, nullptr},
    {opts::OPT_no_pie, Kind::Link, nullptr},
    {opts::OPT_Xlinker, Kind::Link, nullptr},
    {opts::OPT_z, Kind::Link, nullptr},
    {opts::OPT_s, Kind::Link, nullptr},
    {opts::OPT_u, Kind::Link, nullptr},
    {opts::OPT_T, Kind::Link, nullptr},
    {opts::OPT_fuse_ld_EQ, Kind::Link, nullptr},
    {opts::OPT_static_libstdcxx, Kind::Link, nullptr},
    {opts::OPT_Wl_COMMA, Kind::Link, nullptr},
    {opts::OPT_l, Kind::Link, nullptr},
    {opts::OPT_L, Kind::Link, nullptr},

    // -- group defaults
    {opts::OPT_clang_ignored_gcc_optimization_f_Group, Kind::Note, kGccIgnored},
    {opts::OPT_clang_ignored_f_Group, Kind::Note, "an option clang ignores"},
    {opts::OPT_clang_ignored_m_Group, Kind::Note, "an option clang ignores"},
    {opts::OPT_clang_ignored_legacy_options_Group, Kind::Note, "an option clang ignores"},
    {opts::OPT_f_Group, Kind::Refuse, "not implemented by pipecc"},
    {opts::OPT_f_clang_Group, Kind::Refuse, "not implemented by pipecc"},
    {opts::OPT_m_Group, Kind::Refuse, "a target option pipecc does not implement (the target is baseline x86-64)"},
    {opts::OPT_Link_Group, Kind::Link, nullptr},
};

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Frontend: return "front end";
    case Kind::Link: return "link";
    case Kind::Note: return "accepted";
    case Kind::Refuse: return "refused";
  }
  return "";
}

const llvm::opt::OptTable& table() { return clang::driver::getDriverOptTable(); }
// clang's gcc-compatible driver: no cl.exe, cc1-only or Flang-only options.
constexpr unsigned kExcluded = opts::CLOption | opts::NoDriverOption | opts::FlangOnlyOption;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t comma = s.find(',', start);
    out.emplace_back(s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

// @files (GNU quoting, relative to the current directory, nested).
std::vector<std::string> expand_response_files(const std::vector<std::string>& args) {
  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver(alloc);
  llvm::SmallVector<const char*, 64> argv;
  for (const std::string& a : args) argv.push_back(saver.save(a).data());
  // An unreadable @file stays as it is (gcc then treats it as an input file).
  llvm::cl::ExpandResponseFiles(saver, llvm::cl::TokenizeGNUCommandLine, argv);
  return {argv.begin(), argv.end()};
}

// -Wp,-MD,F and -Wp,-MMD,F are -MD/-MMD -MF F (cpp's spelling, used by
// Kbuild); other -Wp,A,B and -Xpreprocessor A are the options themselves.
std::vector<std::string> unwrap_preprocessor_args(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (starts_with(a, "-Wp,")) {
      std::vector<std::string> parts = split_commas(std::string_view(a).substr(4));
      size_t first = 0;
      if (parts.size() >= 2 && (parts[0] == "-MD" || parts[0] == "-MMD")) {
        out.insert(out.end(), {parts[0], "-MF", parts[1]});
        first = 2;
      }
      out.insert(out.end(), parts.begin() + static_cast<long>(first), parts.end());
    } else if (a == "-Xpreprocessor") {
      if (i + 1 >= args.size()) throw UsageError("missing argument to '-Xpreprocessor'");
      out.push_back(args[++i]);
    } else {
      out.push_back(a);
    }
  }
  return out;
}

struct Parser {
  Options o;
  std::optional<Lang> forced;  // -x in effect
  bool saw_stdin = false;

  void note(const Arg& a, const llvm::opt::ArgList& args, const char* why) {
    std::string line = "'" + a.getAsString(args) + "' accepted: " + why;
    if (std::find(o.notes.begin(), o.notes.end(), line) == o.notes.end()) o.notes.push_back(line);
  }

  static std::vector<std::string> rendered(const Arg& a, const llvm::opt::ArgList& args) {
    std::string spelling = a.getSpelling().str();
    if ((spelling == "-I" || spelling == "-D" || spelling == "-U") && a.getNumValues() == 1)
      return {spelling + a.getValue()};  // -IDIR, as cc writes it
    llvm::opt::ArgStringList out;
    a.render(args, out);
    return {out.begin(), out.end()};
  }

  void input(const std::string& path) {
    Lang lang = Lang::Linker;
    if (forced) lang = *forced;
    else if (path == "-") lang = Lang::C, saw_stdin = true;
    else {
      std::string ext = std::filesystem::path(path).extension().string();
      if (ext == ".c") lang = Lang::C;
      else if (ext == ".i") lang = Lang::CppOutput;
      else if (ext == ".s") lang = Lang::Asm;
      else if (ext == ".S" || ext == ".sx") lang = Lang::AsmCpp;
      else if (ext == ".h")
        throw UsageError("'" + path + "': a header as input (a precompiled header) is not supported");
      else
        for (const char* cxx : {".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C", ".ii", ".m", ".mi", ".mm", ".M",
                                ".f", ".f90", ".F", ".F90", ".for", ".go", ".d", ".ads", ".adb"})
          if (ext == cxx) throw UsageError("'" + path + "': pipecc compiles C only");
    }
    o.link_items.push_back({"", static_cast<int>(o.inputs.size())});
    o.inputs.push_back({path, lang});
  }

  void language(const std::string& x) {
    if (x == "none") forced.reset();
    else if (x == "c") forced = Lang::C;
    else if (x == "cpp-output") forced = Lang::CppOutput;
    else if (x == "assembler") forced = Lang::Asm;
    else if (x == "assembler-with-cpp") forced = Lang::AsmCpp;
    else throw UsageError("'-x " + x + "': pipecc compiles C only (-x c, cpp-output, assembler, "
                          "assembler-with-cpp, none)");
  }

  void optimization(const std::string& level, const std::string& spelled) {
    o.opt_flag = spelled;
    if (level == "0") o.opt_level = 0;
    else if (level.empty() || level == "1" || level == "g") o.opt_level = 1;  // -Og: the cheap passes
    else if (level == "s" || level == "z" || level == "fast" ||
             (!level.empty() && std::all_of(level.begin(), level.end(), ::isdigit)))
      o.opt_level = 2;  // -O2 and above, -Os, -Oz, -Ofast: every pass pipecc has
    else throw UsageError("invalid optimization level '" + spelled + "'");
  }

  // clang reads UTF-8 only (gcc would convert other charsets to UTF-8).
  void input_charset(const Arg& a, const llvm::opt::ArgList& args) {
    std::string v = llvm::StringRef(a.getValue()).lower();
    if (v != "utf-8" && v != "utf8")
      throw UsageError("'" + a.getAsString(args) + "' is not supported: source files are read as UTF-8 only");
    note(a, args, "source files are read as UTF-8");
  }

  // Options implemented here; false when the table decides.
  bool implemented(const Arg& a, const llvm::opt::ArgList& args) {
    const llvm::opt::Option& opt = a.getOption();
    switch (opt.getID()) {
      case opts::OPT_INPUT: input(a.getValue()); return true;
      case opts::OPT_x: language(a.getValue()); return true;
      case opts::OPT_o: o.output = a.getValue(); return true;
      case opts::OPT_c: o.mode = Mode::Compile; return true;
      case opts::OPT_fsyntax_only: o.mode = Mode::SyntaxOnly; return true;
      case opts::OPT_S: o.mode = Mode::Assemble; return true;
      case opts::OPT_E: o.mode = Mode::Preprocess; return true;
      case opts::OPT_M: o.mode = Mode::Preprocess, o.dep_m = true; return true;
      case opts::OPT_MM: o.mode = Mode::Preprocess, o.dep_mm = true; return true;
      case opts::OPT_MD: o.dep_md = true; return true;
      case opts::OPT_MMD: o.dep_mmd = true; return true;
      case opts::OPT_MF: o.dep_file = a.getValue(); return true;
      case opts::OPT_MT: o.dep_target_args.insert(o.dep_target_args.end(), {"-MT", a.getValue()}); return true;
      case opts::OPT_MQ: o.dep_target_args.insert(o.dep_target_args.end(), {"-MQ", a.getValue()}); return true;
      case opts::OPT_MP: o.dep_other_args.push_back("-MP"); return true;
      case opts::OPT_MG: o.dep_other_args.push_back("-MG"); return true;
      case opts::OPT_MV: throw UsageError("'-MV' (NMake depfiles) is not supported");
      case opts::OPT_finput_charset_EQ: input_charset(a, args); return true;
      case opts::OPT_O0: optimization("0", "-O0"); return true;
      case opts::OPT_O4: optimization("4", "-O4"); return true;
      case opts::OPT_Ofast: optimization("fast", "-Ofast"); return true;
      case opts::OPT_O: optimization(a.getValue(), a.getAsString(args)); return true;
      case opts::OPT_g0: o.debug = false; return true;
      case opts::OPT_fcf_protection: o.cf_protection = "full"; return true;  // codegen-x64 --cf-protection
      case opts::OPT_fcf_protection_EQ: {
        std::string v = a.getValue();
        if (v != "none" && v != "branch" && v != "return" && v != "full")
          throw UsageError("'" + a.getAsString(args) + "': the kinds are none, branch, return and full");
        o.cf_protection = v;
        return true;
      }
      case opts::OPT_fPIC:  // shared-library code: son-lower-x64 --pic (GOT for preemptible symbols, dynamic TLS)
      case opts::OPT_fpic: o.pic = true; return true;
      case opts::OPT_fPIE: case opts::OPT_fpie: case opts::OPT_fno_PIC: case opts::OPT_fno_pic:
      case opts::OPT_fno_PIE: case opts::OPT_fno_pie:
        o.pic = false;
        note(a, args, kPic);
        return true;
      case opts::OPT_fno_omit_frame_pointer: o.frame_pointer = true; return true;  // regalloc-x64, codegen-x64
      case opts::OPT_fomit_frame_pointer: o.frame_pointer = false; return true;
      // son-lower-x64 --sibling-calls (by default at -O2; never at -O0)
      case opts::OPT_foptimize_sibling_calls: o.sibling_calls = true; return true;
      case opts::OPT_fno_optimize_sibling_calls: o.sibling_calls = false; return true;
      case opts::OPT_fstack_clash_protection: o.stack_clash = true; return true;  // codegen-x64 --stack-clash-protection
      case opts::OPT_fno_stack_clash_protection: o.stack_clash = false; return true;
      case opts::OPT_ffunction_sections: o.function_sections = true; return true;  // codegen-x64 --function-sections
      case opts::OPT_fno_function_sections: o.function_sections = false; return true;
      case opts::OPT_fdata_sections: o.data_sections = true; return true;  // codegen-x64 --data-sections
      case opts::OPT_fno_data_sections: o.data_sections = false; return true;
      case opts::OPT__HASH_HASH_HASH: o.print_only = true; return true;
      case opts::OPT_v:  // clang's -v in c2ast prints the header search list (CMake and distcc's pump read it)
        o.verbose = true;
        o.frontend_args.push_back("-v");
        return true;
      case opts::OPT__version: o.query = Query::Version; return true;
      case opts::OPT_dumpversion: o.query = Query::DumpVersion; return true;
      case opts::OPT_dumpmachine: o.query = Query::DumpMachine; return true;
      case opts::OPT_print_prog_name_EQ: o.query = Query::PrintProgName, o.query_arg = a.getValue(); return true;
      case opts::OPT_print_file_name_EQ: o.query = Query::PrintFileName, o.query_arg = a.getValue(); return true;
      case opts::OPT_print_search_dirs: o.query = Query::PrintSearchDirs; return true;
      case opts::OPT_print_libgcc_file_name: o.query = Query::PrintLibgcc; return true;
      case opts::OPT_print_multiarch: o.query = Query::PrintMultiarch; return true;
      case opts::OPT_print_target_triple: o.query = Query::PrintTargetTriple; return true;
      case opts::OPT_print_effective_triple: o.query = Query::PrintTargetTriple; return true;
      case opts::OPT_pthread:  // the preprocessor's view (clang's) and the link
        o.frontend_args.push_back("-pthread");
        o.link_args.push_back("-pthread");
        o.link_items.push_back({"-pthread"});
        return true;
      case opts::OPT_Wa_COMMA:
        for (const char* v : a.getValues()) o.asm_args.push_back(std::string("-Wa,") + v);
        return true;
      case opts::OPT_Xassembler: o.asm_args.push_back(std::string("-Wa,") + a.getValue()); return true;
      case opts::OPT__param: {  // gcc's tuning parameters (icecream's remote compiles pass ggc-min-*)
        std::string v = a.getValue();
        if (starts_with(v, "ssp-buffer-size=") && v != "ssp-buffer-size=8")
          throw UsageError("'" + a.getAsString(args) + "' is not supported: -fstack-protector guards char arrays "
                           "of 8 bytes or more, gcc's default");
        note(a, args, "a gcc tuning parameter (heuristics, its own memory use): pipecc's passes have none");
        return true;
      }
      case opts::OPT_mcmodel_EQ:
        if (std::string_view(a.getValue()) != "small")
          throw UsageError("'" + a.getAsString(args) + "': only the small code model is implemented");
        note(a, args, "the small code model: what pipecc does");
        return true;
      case opts::OPT__sysroot_EQ:  // the headers (clang) and the libraries (the link)
        o.frontend_args.push_back(a.getAsString(args));
        o.link_args.push_back(a.getAsString(args));
        o.link_items.push_back({a.getAsString(args)});
        return true;
      default: break;
    }
    if (opt.matches(opts::OPT_g_Group) || opt.matches(opts::OPT_gN_Group) || opt.matches(opts::OPT_ggdbN_Group)) {
      if (!opt.matches(opts::OPT_g_flags_Group)) {
        o.debug = true;
        return true;
      }
    }
    return false;
  }

  void decide(const Arg& a, const llvm::opt::ArgList& args) {
    for (const Decision& d : kDecisions) {
      if (!a.getOption().matches(d.id)) continue;
      switch (d.kind) {
        case Kind::Frontend: {
          std::vector<std::string> r = rendered(a, args);
          o.frontend_args.insert(o.frontend_args.end(), r.begin(), r.end());
          if (a.getOption().matches(opts::OPT_ffile_prefix_map_EQ))
            note(a, args, "applied to __FILE__ by clang's preprocessor; debug line tables keep the paths as written");
          return;
        }
        case Kind::Link: {
          std::vector<std::string> r = rendered(a, args);
          for (std::string& s : r) {
            o.link_args.push_back(s);
            o.link_items.push_back({s});
          }
          return;
        }
        case Kind::Note: note(a, args, d.why); return;
        case Kind::Refuse: throw UsageError("'" + a.getAsString(args) + "' is not supported: " + d.why);
      }
    }
    throw UsageError("'" + a.getAsString(args) + "' is not supported by pipecc");
  }
};

}  // namespace

Options parse_options(const std::vector<std::string>& raw) {
  std::vector<std::string> args = unwrap_preprocessor_args(expand_response_files(raw));
  Parser p;
  // pipecc's own options (clang's -save-temps=cwd|obj is not ours: --save-temps=DIR).
  std::vector<std::string> rest;
  for (const std::string& a : args) {
    if (a == "--save-temps" || a == "-save-temps") p.o.save_temps = "";
    else if (starts_with(a, "--save-temps=")) p.o.save_temps = a.substr(13);
    else if (starts_with(a, "--print-after=")) p.o.print_after = a.substr(14);
    else if (starts_with(a, "--stop-after=")) p.o.stop_after = a.substr(13);
    else if (starts_with(a, "--view=")) p.o.view = a.substr(7);
    else if (a == "--verify-inputs") p.o.verify_inputs = true;
    else if (a == "--check-each") p.o.check_each = true;
    else if (a == "-dumpfullversion") p.o.query = Query::DumpFullVersion;  // gcc's; clang 14 lacks it
    // gcc's preprocessing modes, clang 14 lacks them (icecream's gcc mode
    // uses them: -E -fdirectives-only on the client, -fpreprocessed
    // -fdirectives-only on the remote)
    else if (a == "-fpreprocessed") p.o.preprocessed = true;
    else if (a == "-fdirectives-only") p.o.directives_only = true;
    else if (a == "-fno-directives-only") p.o.directives_only = false;
    else if (a == "-fworking-directory") p.o.working_directory = true;
    else if (a == "-fno-working-directory") p.o.working_directory = false;
    // gcc's; clang 14 lacks them: c2ast applies them with -finstrument-functions
    else if (starts_with(a, "-finstrument-functions-exclude-file-list="))
      p.o.c2ast_args.push_back("--instrument-exclude-file-list=" + a.substr(41));
    else if (starts_with(a, "-finstrument-functions-exclude-function-list="))
      p.o.c2ast_args.push_back("--instrument-exclude-function-list=" + a.substr(45));
    else rest.push_back(a);
  }
  std::vector<const char*> argv;
  for (const std::string& a : rest) argv.push_back(a.c_str());
  unsigned missing_index = 0, missing_count = 0;
  llvm::opt::InputArgList parsed = table().ParseArgs(argv, missing_index, missing_count, 0, kExcluded);
  if (missing_count)
    throw UsageError("missing argument to '" + std::string(parsed.getArgString(missing_index)) + "'");
  for (const Arg* a : parsed) {
    if (a->getOption().matches(opts::OPT__DASH_DASH)) {  // `--`: the rest are inputs
      for (const char* v : a->getValues()) p.input(v);
      continue;
    }
    if (a->getOption().getKind() == llvm::opt::Option::UnknownClass || a->getOption().hasFlag(opts::Unsupported)) {
      std::string spelled = a->getAsString(parsed), nearest;
      std::string msg = "unknown option '" + spelled + "'";
      if (table().findNearest(spelled, nearest, 0, kExcluded) <= 1) msg += "; did you mean '" + nearest + "'?";
      throw UsageError(msg);
    }
    if (!p.implemented(*a, parsed)) p.decide(*a, parsed);
  }
  if (p.saw_stdin && p.o.mode != Mode::Preprocess)
    throw UsageError("-E or -x required when input is from standard input");
  if (p.o.preprocessed) {
    for (Input& in : p.o.inputs)
      if (in.lang == Lang::C) in.lang = Lang::CppOutput;
    if (p.o.mode == Mode::Preprocess)
      throw UsageError("'-fpreprocessed' with -E, -M or -MM: the input is preprocessed already");
  }
  if (p.o.directives_only && p.o.mode != Mode::Preprocess && !p.o.preprocessed &&
      std::none_of(p.o.inputs.begin(), p.o.inputs.end(), [](const Input& in) { return in.lang == Lang::CppOutput; }))
    p.o.notes.push_back("'-fdirectives-only' accepted: it changes -E and the compile of preprocessed input; "
                        "this compile preprocesses fully, as gcc's does");
  // glibc's _FORTIFY_SOURCE wrappers need __builtin_object_size and the
  // __builtin___*_chk calls, which c2ast does not implement: the macro is
  // undefined again after the user's -D (hardening absent, meaning the same).
  for (const std::string& a : p.o.frontend_args)
    if (starts_with(a, "-D_FORTIFY_SOURCE")) {
      p.o.frontend_args.push_back("-U_FORTIFY_SOURCE");
      p.o.notes.push_back("'" + a + "' accepted: " + kHardening + " (glibc's fortified wrappers need "
                          "__builtin_object_size, which c2ast lacks: _FORTIFY_SOURCE is undefined again)");
      break;
    }
  if (p.o.dep_md && p.o.dep_mmd) p.o.dep_md = false;  // -MMD: both given, the user headers only
  if (p.o.inputs.empty() && p.o.query == Query::None) {
    // `cc -Wl,--version` (meson's linker detection): the linker answers.
    if (p.o.mode == Mode::Link && !p.o.link_items.empty()) return p.o;
    if (p.o.verbose) p.o.query = Query::VerboseAlone;
    else throw UsageError("no input files");
  }
  return p.o;
}

std::string describe_option_decisions() {
  std::string out =
      "Implemented by pipecc: -c -S -E -fsyntax-only -M -MM -MD -MMD -MF -MT -MQ -MP -MG -o -x -O0 -O -O1 -Og (pipe -O1)\n"
      "  -O2 -O3 -O4 -Os -Oz -Ofast (pipe -O2, IEEE floating point kept) -g... (DWARF 4 debug information) -g0 -### -v\n"
      "  -pthread -Wa, -Xassembler (.s/.S inputs) -Wp, -Xpreprocessor (unwrapped) @FILE --sysroot=\n"
      "  -mcmodel=small -ffunction-sections -fdata-sections (and -fno-: a section per function, per data item)\n"
      "  -fcf-protection[=none|branch|return|full] (endbr64 at each function, the CET property note)\n"
      "  -fstack-clash-protection (and -fno-: stack pages probed one at a time, frames and alloca)\n"
      "  -fno-omit-frame-pointer -fomit-frame-pointer (the rbp chain in every function, or only where needed)\n"
      "  -foptimize-sibling-calls -fno-optimize-sibling-calls (return f(x) as a jump; on at -O2, never at -O0)\n"
      "  -finstrument-functions-exclude-file-list= -finstrument-functions-exclude-function-list= (gcc's\n"
      "  substrings: the functions -finstrument-functions leaves out)\n"
      "  -fpreprocessed (gcc's: the C inputs are preprocessed text) -fdirectives-only -fno-directives-only (gcc's:\n"
      "  -E processes the directives only, macros unexpanded, definitions first; preprocessed input is compiled\n"
      "  with the macros it defines) -fworking-directory -fno-working-directory (gcc's: with -E, on by default with\n"
      "  -g, the text names its directory for the compile's DW_AT_comp_dir) --param NAME=VALUE (gcc's tuning\n"
      "  parameters: none apply)\n"
      "  --version -dumpversion -dumpfullversion -dumpmachine -print-prog-name=\n"
      "  -print-file-name= -print-search-dirs -print-libgcc-file-name -print-multiarch -print-target-triple\n"
      "Every other option of clang 14's driver table, first match wins:\n";
  for (const Decision& d : kDecisions) {
    const llvm::opt::Option o = table().getOption(d.id);
    std::string name = o.getKind() == llvm::opt::Option::GroupClass ? "any " + o.getName().str()
                                                                     : o.getPrefixedName();
    out += "  " + name + ": " + kind_name(d.kind);
    if (d.why) out += std::string(" (") + d.why + ")";
    out += "\n";
  }
  out += "  anything else: refused, naming the option\n";
  return out;
}

}  // namespace pl::pipecc
