// tool.h - the contract every tool of the toolchain shares.
//
//   tool [INPUT|-] [-o OUTPUT|-] [-f json|bin|text] [--force]
//        [--verify|--no-verify] [--no-verify-input] [--help] [--version]
//
// - INPUT defaults to stdin ("-"); its encoding is detected from its bytes.
//   A tool whose input is not a module (c2ast reads C: ToolInfo::module_input
//   = false) reads input_path() itself; everything else stays the same.
// - OUTPUT defaults to stdout; a file is written atomically (temp + rename),
//   so a failed run leaves no file behind.
// - -f picks the output encoding. Default: `bin`, or `text` when the output is
//   a terminal. An explicit `-f bin` to a terminal is refused without --force.
// - --verify (default) checks the input and the output against their level
//   contracts (verify.h); --no-verify skips both; --no-verify-input skips
//   the input's (for a pipe whose producer checked its output: pipecc runs
//   its stages so, and then every module in its pipe is checked once).
// - Exit status: 0 success; 1 bad input (diagnostics on stderr as
//   `tool: FILE:LINE:COL: error: ...`, `FILE: byte N`, or the function and
//   node `iN` / block `bN`); 2 bad usage; 3 internal error (a bug: the
//   message asks to report it and prints the command line to reproduce it).
//
// A stage is written as:
//   int main(int argc, char** argv) {
//     pl::Tool tool({"cfg2ssa", "builds SSA form", "c2ast f.c | ast2cfg | cfg2ssa | ssa2son"});
//     return tool.main(argc, argv, [&](pl::Tool& t) {
//       pl::ModuleReader& in = t.open_input();
//       pl::ModuleHeader out_header = in.header(); out_header.level = pl::Level::Ssa;
//       pl::ModuleWriter& out = t.open_output(out_header);
//       pl::Function fn;
//       while (in.next(fn)) { t.verify_input(fn); build_ssa(fn); t.write(fn); }
//       t.finish_output();  // (write and finish_output pass the module pieces on)
//     });
//   }
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "ir/error.h"
#include "encoding/format.h"
#include "encoding/io.h"
#include "check/verify.h"

namespace pl {

struct ToolInfo {
  std::string name;     // "pipe-fmt"
  std::string summary;  // one line
  std::string example;  // example pipeline(s) for --help
  bool has_output = true;         // tools like pipe-verify: output only with -o
  bool has_input = true;          // generators (pipe-gen) read nothing
  bool module_input = true;       // false: INPUT is not a module (c2ast reads C);
                                  // the tool reads input_path() itself
  // -f's choices when the output is not a module (codegen-x64: asm, obj;
  // the first is the default) and their help; empty: json, bin, text.
  std::vector<std::string> formats;
  std::string formats_help;
};

// Thrown by a tool that has already printed its diagnostics (c2ast prints
// clang's, each naming its own file): exit 1, nothing more is printed.
class AlreadyReported : public std::runtime_error {
 public:
  AlreadyReported() : std::runtime_error("diagnostics already reported") {}
};

// A usage error found after parsing (exit 2), e.g. binary to a terminal.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown by Tool::verify_* when the verifier finds violations.
class VerifyFailed : public std::runtime_error {
 public:
  explicit VerifyFailed(std::vector<Diagnostic> diags, std::string stage)
      : std::runtime_error("verification failed"), diags_(std::move(diags)), stage_(std::move(stage)) {}
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  const std::string& stage() const { return stage_; }  // "input" or "output"

 private:
  std::vector<Diagnostic> diags_;
  std::string stage_;
};

// `arg` quoted for a POSIX shell (unchanged when it needs no quoting), so a
// printed command line can be pasted back into a shell.
std::string shell_quote(const std::string& arg);
// The words of `argv`, each quoted by shell_quote, joined by spaces.
std::string shell_join(const std::vector<std::string>& argv);

// For tools that take a command or program arguments after `--`: the words
// after the first `--` go to `after`; returns the count of words before it
// (argc when there is none), for the tool's own option parser.
int split_at_double_dash(int argc, char** argv, std::vector<std::string>& after);

class Tool {
 public:
  explicit Tool(ToolInfo info);
  ~Tool();
  CLI::App& cli() { return app_; }
  const ToolInfo& info() const { return info_; }

  // Parses the command line and runs `body`, mapping errors to exit codes.
  int main(int argc, char** argv, const std::function<void(Tool&)>& body);

  // ---- inside body ----
  // Opens INPUT, detects its encoding, reads the header, verifies the header
  // if --verify. Throws FormatError / VerifyFailed. Not for tools whose
  // input is not a module (ToolInfo::module_input false).
  ModuleReader& open_input();
  // open_input() for a stage that reads one level: a module at another level
  // is refused with "expected a module at level 'X', found level 'Y'".
  ModuleReader& open_input(Level expected);
  // Verifies one input function against the input header's level.
  void verify_input(const Function& fn);
  // Opens OUTPUT with the chosen encoding and writes the header. With
  // verify_output false the output is never verified (pipe-verify writes
  // through what it has just checked).
  ModuleWriter& open_output(const ModuleHeader& header, bool verify_output = true);
  // Verifies `fn` against the output header's level (if --verify), writes it.
  void write(const Function& fn);
  // Runs the cross-function checks, ends the module and commits the file.
  void finish_output();

  // ---- Module pieces (FORMAT.md section 1, "Module pieces") ----
  // write() and finish_output() first pass on the input's pieces not yet
  // passed on (each appended to the output header, verified, written), so
  // a stage that writes each function it reads passes them through in
  // order with nothing to do. A stage that collects the whole module and
  // writes the input's header() at the end calls merged_input_pieces()
  // before open_output(): its header already holds them.
  void merged_input_pieces();
  // For a producer (c2ast): writes a piece of its own (verified as above).
  void write_piece(const ModulePiece& piece);

  bool verify_enabled() const { return verify_; }
  // Whether the input is verified (function by function in verify_input).
  bool input_verified() const { return verify_ && verify_input_; }
  bool output_requested() const { return output_path_given_; }
  Encoding output_encoding() const;
  // -f's value as given ("" when not given).
  const std::string& format_name() const { return encoding_name_; }
  bool force() const { return force_; }
  const std::string& input_path() const { return input_path_; }
  // -o's value ("-" when not given), for tools whose output is not a module.
  const std::string& output_path() const { return output_path_; }
  const std::string& input_display_name() const;

  // Prints "tool: FILE...: error: ..." to stderr.
  void report(const Diagnostic& d, const std::string& file) const;
  void report_all(const std::vector<Diagnostic>& diags, const std::string& file) const;

 private:
  ToolInfo info_;
  CLI::App app_;
  std::string input_path_ = "-";
  std::string output_path_ = "-";
  bool output_path_given_ = false;
  std::string encoding_name_;
  bool force_ = false;
  bool verify_ = true;
  bool verify_input_ = true;  // --no-verify-input clears it
  std::vector<std::string> argv_;

  std::unique_ptr<ByteSource> source_;
  std::unique_ptr<ModuleReader> reader_;
  std::unique_ptr<ModuleVerifier> input_verifier_;
  std::unique_ptr<OutputFile> output_;
  std::unique_ptr<ModuleWriter> writer_;
  std::unique_ptr<ModuleHeader> output_header_;
  std::unique_ptr<ModuleVerifier> output_verifier_;
  bool input_verifier_ended_ = false;
  size_t input_pieces_verified_ = 0;   // reader_->pieces() given to input_verifier_
  size_t input_pieces_forwarded_ = 0;  // reader_->pieces() written or merged
  void verify_input_pieces();
  void forward_input_pieces();
  std::string output_display_name() const;
};

}  // namespace pl
