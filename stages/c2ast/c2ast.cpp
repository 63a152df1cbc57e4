// c2ast - the C front end: C source -> an `ast`-level module.
//
//   c2ast FILE.c|- [-I DIR]... [-D NAME[=VALUE]]... [-U NAME]... [-std=STD]
//         [-o OUT|-] [-f json|bin|text] [--force] [--verify|--no-verify]
//
// clang 14, used as a library in this process (no `-ast-dump=json`),
// preprocesses, parses and type-checks the file through its driver (so the
// system headers and clang's resource directory are found as `clang -c`
// would find them), with -std=gnu11 unless -std says otherwise and with
// warnings off. Clang's errors are printed as `c2ast: FILE:LINE:COL: error:
// MESSAGE` and stop the run (exit 1). Then ModuleBuilder (module.cpp) walks
// the typed AST of what the translation unit defines and builds the module
// (FORMAT.md section 3, "G. The ast level", is the contract with ast2cfg):
// functions as `ast:` trees, globals, static locals and string literals as
// data items, externs for what is used but not defined. C outside the
// supported subset stops with `c2ast: FILE:LINE:COL: error: unsupported:
// WHAT`, exit 1, and no output file (the output is opened only once the
// whole module is built: its header - data and externs - comes first in
// every encoding and is known only at the end).
//
// clang and the conversion run on a thread with a large stack, and the
// conversion moves to a fresh one when that runs low (stack.cpp), so deeply
// nested C cannot overflow it.
//
// For pipecc (the cc driver), c2ast also takes clang driver options after
// `--` (the preprocessor's -include -isystem -M..., -W..., -pedantic: clang
// honours them in process), `-E` (write the preprocessed text, or with -M/-MM
// the dependencies, to -o: the same preprocessor and predefined macros as
// the compile; with `--directives-only` gcc's -fdirectives-only text, see
// DirectivesOnlyAction; with `--working-directory` gcc's marker of the
// directory, which the -g compile of such text takes for DW_AT_comp_dir,
// see compilation_directory) and `--cc-diagnostics` (diagnostics as clang prints them:
// `FILE:LINE:COL: error: ...` at the start of the line, the source line and
// a caret, notes, and clang's default warnings, tuned by -W/-w; the
// "unsupported" errors in the same form). Without it warnings stay off and
// errors are `c2ast: FILE:LINE:COL: error: ...` lines.
#include <dlfcn.h>

#include <climits>
#include <cstdlib>
#include <iostream>

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Config/config.h>
#include <clang/Basic/TargetInfo.h>
#include <clang/Driver/Driver.h>
#include <clang/Frontend/CompilerInstance.h>
#include <filesystem>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Rewrite/Frontend/Rewriters.h>
#include <llvm/Support/CrashRecoveryContext.h>

#include "c2ast.h"
#include "tool/tool.h"

namespace pl::c2ast {
namespace {

struct Options {
  std::vector<std::string> includes, defines, undefines;
  std::string standard = "gnu11";
  std::vector<std::string> clang_args;  // clang driver options after `--`
  bool preprocess_only = false;         // -E
  bool directives_only = false;         // --directives-only (with -E): gcc's -fdirectives-only
  bool working_directory = false;       // --working-directory (with -E): gcc's -fworking-directory marker
  bool cc_diagnostics = false;          // --cc-diagnostics
  bool debug = false;                   // -g: the debug sections
  // -finstrument-functions-exclude-file-list= and -function-list= (gcc's;
  // clang has no such options; -finstrument-functions itself goes to clang)
  std::vector<std::string> instrument_exclude_files, instrument_exclude_functions;
  std::string output = "-";             // -o, for -E
  ModuleStream* stream = nullptr;       // where the module streams (not with -g); null: returned whole
};

// clang's installation: the resource directory (stddef.h, stdarg.h, ...)
// sits next to the library this program is linked with.
std::string clang_binary_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&clang::driver::Driver::GetResourcesPath), &info) && info.dli_fname) {
    char resolved[PATH_MAX];
    if (realpath(info.dli_fname, resolved)) {
      std::string lib = resolved;  // <prefix>/lib/libclang-cpp.so.14
      size_t slash = lib.rfind('/');
      if (slash != std::string::npos) {
        std::string libdir = lib.substr(0, slash);
        slash = libdir.rfind('/');
        if (slash != std::string::npos) return libdir.substr(0, slash) + "/bin/clang";
      }
    }
  }
  return "/usr/lib/llvm-14/bin/clang";
}

// "c2ast: FILE:LINE:COL: error: MESSAGE" at the place clang itself would
// point to (inside a macro: where its text was written).
// `prefix`: "c2ast: " first (c2ast's own form); pipecc's --cc-diagnostics
// form starts with the place, as clang's diagnostics do.
void print_error(const clang::SourceManager* sm, clang::SourceLocation loc, const std::string& message,
                 bool prefix = true) {
  std::string where;
  if (sm && loc.isValid()) {
    clang::PresumedLoc p = sm->getPresumedLoc(sm->getFileLoc(loc));
    if (p.isValid())
      where = std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn()) +
              ": ";
  }
  std::cerr << (prefix ? "c2ast: " : "") << where << "error: " << message << "\n";
}

// c2ast's diagnostics: errors only, one line each; with `cc` (pipecc's
// --cc-diagnostics) every diagnostic goes to clang's printer instead (source
// line, caret, warnings). Either way an attribute clang drops is refused.
class PrintErrors : public clang::DiagnosticConsumer {
 public:
  explicit PrintErrors(clang::DiagnosticConsumer* cc = nullptr) : cc_(cc) {}
  // Unknown attributes reported as errors (clang's own count misses them:
  // they are warnings to clang).
  unsigned unknown_attributes_ = 0;
  void BeginSourceFile(const clang::LangOptions& lang, const clang::Preprocessor* pp) override {
    if (cc_) cc_->BeginSourceFile(lang, pp);
  }
  void EndSourceFile() override {
    if (cc_) cc_->EndSourceFile();
  }
  void finish() override {
    if (cc_) cc_->finish();
  }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    llvm::SmallString<256> message;
    if (info.getID() == clang::diag::warn_unknown_attribute_ignored) {
      // An attribute clang does not know is dropped: refused unless it is
      // one of gcc's that change nothing (attributes.cpp).
      info.FormatDiagnostic(message);
      std::string text = message.str().str();
      size_t open = text.find('\''), close = text.rfind('\'');
      std::string name = open != std::string::npos && close > open ? text.substr(open + 1, close - open - 1) : text;
      if (name.size() > 4 && name.compare(0, 2, "__") == 0 && name.compare(name.size() - 2, 2, "__") == 0)
        name = name.substr(2, name.size() - 4);
      if (unknown_attribute_is_harmless(name)) return;
      ++unknown_attributes_;
      print_error(info.hasSourceManager() ? &info.getSourceManager() : nullptr, info.getLocation(),
                  "unsupported: attribute '" + name + "'", /*prefix=*/cc_ == nullptr);
      return;
    }
    if (cc_) {
      cc_->HandleDiagnostic(level, info);
      return;
    }
    if (level < clang::DiagnosticsEngine::Error) return;
    info.FormatDiagnostic(message);
    print_error(info.hasSourceManager() ? &info.getSourceManager() : nullptr, info.getLocation(), message.str().str());
  }

 private:
  clang::DiagnosticConsumer* cc_;
};

// What the conversion gives back through clang's frames (no exception
// crosses them: clang is built without exception support).
struct Result {
  std::optional<Module> module;
  bool failed = false;
  std::exception_ptr error;
};

// gcc's -fworking-directory marker: in preprocessed text made with -g, the
// second line `# 1 "DIR//"` names the directory it was preprocessed in.
constexpr llvm::StringLiteral kWorkingDirectoryEnd = "//\"";

std::string working_directory_marker() {
  return "# 1 \"" + std::filesystem::current_path().string() + kWorkingDirectoryEnd.str() + "\n";
}

// The compilation's directory (DW_AT_comp_dir): the one preprocessed text
// names (a remote compile of distcc or icecream: the client's), else the
// current one.
std::string compilation_directory(const clang::SourceManager& sm) {
  llvm::StringRef text = sm.getBufferData(sm.getMainFileID());
  if (text.startswith("# ")) {
    llvm::StringRef second = text.split('\n').second.split('\n').first;
    if (second.consume_front("# 1 \"") && second.consume_back(kWorkingDirectoryEnd) && !second.empty())
      return second.str();
  }
  return std::filesystem::current_path().string();
}

// Converts the translation unit once clang has parsed it without errors.
class Converter : public clang::ASTConsumer {
 public:
  Converter(Result& out, bool cc_diagnostics, bool debug, Instrumentation instrumentation, bool common,
            ModuleStream* stream)
      : out_(out), cc_diagnostics_(cc_diagnostics), debug_(debug), instrumentation_(std::move(instrumentation)),
        common_(common), stream_(debug ? nullptr : stream) {}
  // gcc's `#pragma scalar_storage_order` (storage_order.cpp): each struct
  // and union, as clang completes it, gets the order in force.
  void set_storage_order_pragma(const StorageOrderPragma* pragma) { storage_order_pragma_ = pragma; }
  // -fno-inline above -O0: only always_inline functions may be inlined.
  void set_only_always_inline(bool only) { only_always_inline_ = only; }
  void HandleTagDeclDefinition(clang::TagDecl* tag) override {
    apply_storage_order_pragma(storage_order_pragma_, tag->getASTContext(), tag);
  }
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    if (const auto* p = dynamic_cast<const PrintErrors*>(ctx.getDiagnostics().getClient()); p && p->unknown_attributes_)
      return;
    try {
      if (ctx.getTargetInfo().getTriple().getArch() != llvm::Triple::x86_64) {
        print_error(nullptr, {}, "the target is not x86-64: " + ctx.getTargetInfo().getTriple().str());
        out_.failed = true;
        return;
      }
      ModuleBuilder builder(ctx, debug_, instrumentation_, common_);
      builder.set_only_always_inline(only_always_inline_);
      out_.module = builder.build(stream_);
      if (debug_) out_.module->header.debug.comp_dir = compilation_directory(ctx.getSourceManager());
    } catch (const CError& e) {
      if (cc_diagnostics_) {  // through clang's printer: source line and caret
        clang::DiagnosticsEngine& diags = ctx.getDiagnostics();
        diags.Report(e.loc, diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")) << e.message;
      } else {
        print_error(&ctx.getSourceManager(), e.loc, e.message);
      }
      out_.failed = true;
    } catch (...) {
      out_.error = std::current_exception();
    }
  }

 private:
  Result& out_;
  bool cc_diagnostics_;
  bool debug_;
  Instrumentation instrumentation_;
  bool common_;  // -fcommon
  ModuleStream* stream_;
  const StorageOrderPragma* storage_order_pragma_ = nullptr;
  bool only_always_inline_ = false;
};

// An action whose preprocessor answers __has_builtin, __has_attribute,
// __has_feature and __has_extension from our tables (builtins.cpp): the
// macros go at the end of clang's predefines, a system buffer, so
// redefining the builtin macros draws no warning, and -E, -M and the
// compile see the same answers.
template <class Base>
class WithOurFeatureTests : public Base {
 public:
  using Base::Base;

 protected:
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    if (!Base::BeginSourceFileAction(ci)) return false;
    clang::Preprocessor& pp = ci.getPreprocessor();
    pp.setPredefines(pp.getPredefines() + feature_test_predefines(ci.getLangOpts()));
    return true;
  }
};

// -E --directives-only, gcc's -E -fdirectives-only: the directives are
// processed and the macros are not expanded. The included files' text
// takes the place of each #include and the conditionals are decided
// (clang's -frewrite-includes: the directive stays, commented out, beside a
// line marker), every #define stays as written. The macro definitions the
// source did not write come first, as gcc writes them: the predefined ones
// (a system section, `<built-in>`) and those of -D and -U (`<command
// line>`), so the text compiles to the same program with no predefined
// macros at all (-fpreprocessed -fdirectives-only: clang's -undef on
// preprocessed input, pipecc's side). The text opens with the source's line
// marker, so a compile of it names the source (module.cpp), as gcc's does.
// -include files are part of the rewritten text (clang enters them from
// the predefines, so their #include lines are left out of the definitions).
class DirectivesOnlyAction : public clang::PreprocessorFrontendAction {
 public:
  explicit DirectivesOnlyAction(bool working_directory) : working_directory_(working_directory) {}

 protected:
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    // clang's predefines, before c2ast adds its feature tests (which the
    // compile of the text adds again: WithOurFeatureTests).
    predefines_ = ci.getPreprocessor().getPredefines();
    return true;
  }

  void ExecuteAction() override {
    clang::CompilerInstance& ci = getCompilerInstance();
    std::unique_ptr<llvm::raw_pwrite_stream> os = ci.createDefaultOutputFile(true, getCurrentFileOrBufferName());
    if (!os) return;
    // The main file as clang's line markers name it (stdin: <stdin>).
    const clang::SourceManager& sm = ci.getSourceManager();
    *os << "# 1 \"" << sm.getPresumedLoc(sm.getLocForStartOfFile(sm.getMainFileID())).getFilename() << "\"\n";
    if (working_directory_) *os << working_directory_marker();
    *os << definitions(predefines_);
    clang::RewriteIncludesInInput(ci.getPreprocessor(), os.get(), ci.getPreprocessorOutputOpts());
  }

 private:
  // The #define and #undef lines of clang's predefines buffer, under the
  // markers of its two parts (`<built-in>`, `<command line>`).
  static std::string definitions(llvm::StringRef predefines) {
    std::string out = "# 1 \"<built-in>\" 3\n";
    llvm::SmallVector<llvm::StringRef, 0> lines;
    predefines.split(lines, '\n');
    for (llvm::StringRef line : lines) {
      if (line.startswith("#define ") || line.startswith("#undef ")) out += line.str() + "\n";
      else if (line.contains("\"<command line>\"")) out += "# 1 \"<command line>\"\n";
    }
    return out;
  }

  bool working_directory_;
  std::string predefines_;
};

// -E with --working-directory (pipecc -E -g): clang's preprocessed text
// with gcc's working-directory marker after its first line marker.
class PrintWithWorkingDirectoryAction : public clang::PreprocessorFrontendAction {
 protected:
  void ExecuteAction() override {
    clang::CompilerInstance& ci = getCompilerInstance();
    std::unique_ptr<llvm::raw_pwrite_stream> os = ci.createDefaultOutputFile(true, getCurrentFileOrBufferName());
    if (!os) return;
    std::string text;
    llvm::raw_string_ostream printed(text);
    clang::DoPrintPreprocessedInput(ci.getPreprocessor(), &printed, ci.getPreprocessorOutputOpts());
    printed.flush();
    size_t first_line = text.find('\n');
    if (text.starts_with("# ") && first_line != std::string::npos)
      text.insert(first_line + 1, working_directory_marker());
    *os << text;
  }
};

class ConvertAction : public clang::ASTFrontendAction {
 public:
  ConvertAction(Result& out, const Options& options) : out_(out), options_(options) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    Instrumentation instrumentation;  // -finstrument-functions reaches clang's code generation options
    instrumentation.on = ci.getCodeGenOpts().InstrumentFunctions;
    instrumentation.exclude_files = options_.instrument_exclude_files;
    instrumentation.exclude_functions = options_.instrument_exclude_functions;
    // clang's driver turns -fcommon/-fno-common (the last wins) into NoCommon.
    auto converter = std::make_unique<Converter>(out_, options_.cc_diagnostics, options_.debug,
                                                 std::move(instrumentation), !ci.getCodeGenOpts().NoCommon,
                                                 options_.stream);
    converter->set_storage_order_pragma(install_storage_order_pragma(ci.getPreprocessor()));
    // gcc's -fno-inline: "do not expand any functions inline apart from
    // those marked with the always_inline attribute"; clang's driver makes
    // it OnlyAlwaysInlining (as it does -O0, where sonopt inlines nothing).
    const clang::CodeGenOptions& cg = ci.getCodeGenOpts();
    converter->set_only_always_inline(cg.OptimizationLevel > 0 &&
                                      cg.getInlining() == clang::CodeGenOptions::OnlyAlwaysInlining);
    return converter;
  }

 private:
  Result& out_;
  const Options& options_;
};

// The clang driver command line for `path` (clang's own argument order:
// the last -x and -std before the file win, so the options after `--` can
// override the defaults).
std::vector<std::string> clang_command_line(const std::string& path, const Options& options) {
  std::string clang_path = clang_binary_path();
  std::vector<std::string> args = {clang_path, options.preprocess_only ? "-E" : "-fsyntax-only", "-x", "c",
                                   "-std=" + options.standard};
  if (!options.cc_diagnostics) args.insert(args.end(), {"-w", "-fno-color-diagnostics", "-fno-caret-diagnostics"});
  // clang's driver would warn about options a preprocess-only run leaves
  // unused (and createInvocationFromCommandLine adds -fsyntax-only to -E).
  else args.push_back("-Qunused-arguments");
  args.push_back("-resource-dir=" + clang::driver::Driver::GetResourcesPath(clang_path, CLANG_RESOURCE_DIR));
  for (const std::string& d : options.includes) args.push_back("-I" + d);
  for (const std::string& d : options.defines) args.push_back("-D" + d);
  for (const std::string& u : options.undefines) args.push_back("-U" + u);
  args.insert(args.end(), options.clang_args.begin(), options.clang_args.end());
  if (options.preprocess_only && options.output != "-") args.insert(args.end(), {"-o", options.output});
  args.push_back(path);
  return args;
}

// Parses `path` ("-" = stdin) and converts it (or with -E preprocesses it);
// nullopt after printing the errors (and with -E after success: `ok` says).
std::optional<Module> compile(const std::string& path, const Options& options, bool& ok) {
  ok = false;
  std::vector<std::string> args = clang_command_line(path, options);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());

  PrintErrors printer;
  clang::TextDiagnosticPrinter driver_printer(llvm::errs(), new clang::DiagnosticOptions);
  driver_printer.setPrefix("pipecc");
  clang::DiagnosticConsumer& driver_consumer =
      options.cc_diagnostics ? static_cast<clang::DiagnosticConsumer&>(driver_printer) : printer;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> driver_diags = clang::CompilerInstance::createDiagnostics(
      new clang::DiagnosticOptions, &driver_consumer, /*ShouldOwnClient=*/false);
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocationFromCommandLine(argv, driver_diags);
  if (!invocation || driver_consumer.getNumErrors() > 0) {
    if (driver_consumer.getNumErrors() == 0) print_error(nullptr, {}, "cannot set up clang for this command line");
    return std::nullopt;
  }
  clang::CompilerInstance ci;
  ci.setInvocation(std::move(invocation));
  clang::TextDiagnosticPrinter cc_printer(llvm::errs(), &ci.getDiagnosticOpts());
  PrintErrors compile_printer(options.cc_diagnostics ? &cc_printer : nullptr);
  ci.createDiagnostics(&compile_printer, /*ShouldOwnClient=*/false);
  // -w silences warnings, but an attribute clang drops must be seen: as a
  // remark, which -w leaves alone (PrintErrors decides).
  ci.getDiagnostics().setSeverity(clang::diag::warn_unknown_attribute_ignored, clang::diag::Severity::Remark, {});
  if (options.preprocess_only) {
    std::unique_ptr<clang::FrontendAction> action;
    if (ci.getFrontendOpts().ProgramAction == clang::frontend::RunPreprocessorOnly)
      action = std::make_unique<WithOurFeatureTests<clang::PreprocessOnlyAction>>();  // -M, -MM: dependencies only
    else if (options.directives_only)
      action = std::make_unique<WithOurFeatureTests<DirectivesOnlyAction>>(options.working_directory);
    else if (options.working_directory)
      action = std::make_unique<WithOurFeatureTests<PrintWithWorkingDirectoryAction>>();
    else
      action = std::make_unique<WithOurFeatureTests<clang::PrintPreprocessedAction>>();
    ok = ci.ExecuteAction(*action) && !ci.getDiagnostics().hasErrorOccurred();
    return std::nullopt;
  }
  Result result;
  WithOurFeatureTests<ConvertAction> action(result, options);
  ci.ExecuteAction(action);
  if (result.error) std::rethrow_exception(result.error);
  if (ci.getDiagnostics().hasErrorOccurred() || compile_printer.unknown_attributes_ > 0 || result.failed)
    return std::nullopt;
  ok = true;
  return std::move(result.module);
}

// clang recurses over expression trees too: it runs on a large stack.
std::optional<Module> compile_on_large_stack(const std::string& path, const Options& options, bool& ok) {
  std::optional<Module> result;
  run_on_new_stack([&] { result = compile(path, options, ok); });
  return result;
}

// CLI11 reads `-std=c11` as a bundle of short flags; c2ast accepts clang's
// spelling by rewriting it to `--std=c11` first.
std::vector<char*> clang_style_arguments(int argc, char** argv, std::vector<std::string>& storage) {
  storage.assign(argv, argv + argc);
  for (std::string& a : storage)
    if (a.rfind("-std=", 0) == 0) a = "-" + a;
  std::vector<char*> out;
  for (std::string& a : storage) out.push_back(a.data());
  return out;
}

}  // namespace
}  // namespace pl::c2ast

int main(int argc, char** argv) {
  using namespace pl::c2ast;
  pl::ToolInfo info{"c2ast", "C front end: parse and type-check a C file with clang, write its ast-level module.",
                    "  c2ast prog.c -f text                              # print the ast module\n"
                    "  c2ast prog.c | ast2cfg | cfg2ssa | ssa2son | pipe-run\n"
                    "  c2ast -I include -D NDEBUG -std=c99 prog.c -o prog.ast"};
  info.module_input = false;
  pl::Tool tool(info);
  Options options;
  CLI::App& cli = tool.cli();
  cli.add_option("-I", options.includes, "Add a directory to the include search path")->allow_extra_args(false);
  cli.add_option("-D", options.defines, "Define a macro: NAME or NAME=VALUE")->allow_extra_args(false);
  cli.add_option("-U", options.undefines, "Undefine a macro")->allow_extra_args(false);
  cli.add_option("--std", options.standard, "C standard, as clang's -std= (also written -std=STD)")
      ->capture_default_str();
  cli.add_flag("-E", options.preprocess_only,
               "Preprocess only: write clang's preprocessed text (or with -M/-MM after --, the dependencies) to -o");
  cli.add_flag("--directives-only", options.directives_only,
               "With -E: gcc's -fdirectives-only: #include and conditionals processed, macros not expanded, the "
               "predefined and command-line macro definitions written first");
  cli.add_flag("--working-directory", options.working_directory,
               "With -E: gcc's -fworking-directory: a second line marker `# 1 \"DIR//\"` names the current "
               "directory, which a -g compile of the text records as the compilation directory");
  cli.add_flag("-g", options.debug,
               "Debug information: the C types, each function's variables and scopes (FORMAT.md \"Debug information\")");
  cli.add_flag("--cc-diagnostics", options.cc_diagnostics,
               "Diagnostics as clang prints them (source line, caret, notes, warnings) without the c2ast: prefix");
  cli.add_option("--instrument-exclude-file-list", options.instrument_exclude_files,
                 "With -finstrument-functions (after --): functions defined in files whose path contains one of "
                 "these comma-separated substrings are not instrumented (gcc's "
                 "-finstrument-functions-exclude-file-list=)")
      ->delimiter(',')->allow_extra_args(false);
  cli.add_option("--instrument-exclude-function-list", options.instrument_exclude_functions,
                 "With -finstrument-functions: functions whose name contains one of these comma-separated substrings "
                 "are not instrumented (gcc's -finstrument-functions-exclude-function-list=)")
      ->delimiter(',')->allow_extra_args(false);
  // clang driver options after `--` (pipecc passes -include, -isystem, -M..., -W... so).
  argc = pl::split_at_double_dash(argc, argv, options.clang_args);
  std::vector<std::string> storage;
  std::vector<char*> args = clang_style_arguments(argc, argv, storage);
  return tool.main(static_cast<int>(args.size()), args.data(), [&](pl::Tool& t) {
    const std::string& path = t.input_path();
    if (path != "-") pl::ByteSource::open(path);  // "cannot open" in the toolchain's words
    options.output = t.output_path();
    // The module streams out as it is converted (module pieces), so the
    // next stage starts on the first function while this one converts the
    // rest; with -g it is written whole at the end.
    struct ToolStream final : ModuleStream {
      explicit ToolStream(pl::Tool& tool) : t(tool) {}
      void header(const pl::ModuleHeader& h) override { t.open_output(h); }
      void piece(const pl::ModulePiece& p) override { t.write_piece(p); }
      void function(const pl::Function& fn) override { t.write(fn); }
      pl::Tool& t;
    } stream(t);
    options.stream = &stream;
    bool ok = false;
    std::optional<pl::Module> module = compile_on_large_stack(path, options, ok);
    if (options.preprocess_only && ok) return;
    if (!module) throw pl::AlreadyReported();
    if (options.debug) {
      t.open_output(module->header);
      for (const pl::Function& fn : module->functions) t.write(fn);
    }
    t.finish_output();
  });
}
