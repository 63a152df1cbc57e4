// tool.cpp - the shared tool contract (see tool.h for what every tool does).
//
// Error mapping: FormatError -> its diagnostic, exit 1; VerifyFailed -> every
// diagnostic plus a count, exit 1; CLI11 parse errors -> exit 2; bad_alloc ->
// "out of memory", exit 1; any other exception -> "internal error" with the
// command line to reproduce it, exit 3. Fatal signals print the same
// reproduction line (async-signal-safe writes only) before dying.
#include "tool/tool.h"

#include <unistd.h>

#include <csignal>
#include <cstring>
#include <iostream>
#include <new>

namespace pl {

int split_at_double_dash(int argc, char** argv, std::vector<std::string>& after) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      after.assign(argv + i + 1, argv + argc);
      return i;
    }
  }
  return argc;
}

namespace {

// The command line, kept for the crash handler. Written once in main()
// before any signal can be raised by our code; read only by the handler.
char g_crash_banner[4096];

void write_stderr(const char* text) {
  size_t n = std::strlen(text);
  while (n > 0) {
    ssize_t w = ::write(2, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<size_t>(w);
  }
}

// The handler each fatal signal had before ours: SIG_DFL in a plain run, the
// sanitizer's or libFuzzer's in scripts/fuzz-stage's targets (which must
// still see the crash to save the input). Written in main() before any
// signal can be raised by our code.
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
struct sigaction g_previous_action[NSIG];

extern "C" void on_fatal_signal(int sig) {
  write_stderr(g_crash_banner);
  ::sigaction(sig, &g_previous_action[sig], nullptr);
  std::raise(sig);
}

}  // namespace

std::string shell_quote(const std::string& arg) {
  bool plain = !arg.empty() && arg.find_first_not_of(
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == std::string::npos;
  if (plain) return arg;
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string shell_join(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) line += (line.empty() ? "" : " ") + shell_quote(a);
  return line;
}

namespace {

void install_crash_handler(const std::string& tool, const std::string& cmd) {
  std::string banner = tool + ": internal error (crash). Please report it with the input and this command:\n  " +
                       cmd + "\n";
  std::strncpy(g_crash_banner, banner.c_str(), sizeof(g_crash_banner) - 1);
  struct sigaction ours {};
  ours.sa_handler = on_fatal_signal;
  sigemptyset(&ours.sa_mask);
  for (int sig : kFatalSignals) {
    struct sigaction previous {};
    ::sigaction(sig, &ours, &previous);
    // A second Tool in one process (a fuzz target calls main per input)
    // keeps the first one's record of what came before. An inherited
    // SIG_IGN would let the crash go on: the default action replaces it.
    if (previous.sa_handler == on_fatal_signal) continue;
    if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN) previous.sa_handler = SIG_DFL;
    g_previous_action[sig] = previous;
  }
}

}  // namespace

Tool::Tool(ToolInfo info) : info_(std::move(info)), app_(info_.summary, info_.name) {
  if (info_.has_input)
    app_.add_option("input", input_path_,
                    info_.module_input ? "Input module (any encoding, detected), - for stdin"
                                       : "Input file, - for stdin")
        ->capture_default_str();
  app_.add_option("-o,--output", output_path_,
                  info_.has_output ? "Output file, - for stdout" : "Also write the module to this file (- for stdout)");
  if (info_.formats.empty())
    app_.add_option("-f,--format", encoding_name_,
                    "Output encoding: json, bin or text (default: bin, or text when writing to a terminal)")
        ->check(CLI::IsMember({"json", "bin", "text"}));
  else
    app_.add_option("-f,--format", encoding_name_, info_.formats_help)->check(CLI::IsMember(info_.formats));
  app_.add_flag("--force", force_, "Write binary output even to a terminal");
  app_.add_flag("--verify,!--no-verify", verify_,
                "Check input and output against their level contract (default: on)");
  if (info_.module_input)
    app_.add_flag("!--no-verify-input", verify_input_,
                  "Check only the output: for a pipe whose producer checked what it wrote (pipecc runs its stages "
                  "so, and every module is still checked once)");
  app_.set_version_flag("--version", info_.name + " " PIPE_VERSION);
  app_.footer("Example:\n" + info_.example +
              "\n\nExit status: 0 success, 1 bad input (diagnostic on stderr), 2 bad usage, 3 internal error.");
}

Tool::~Tool() = default;

const std::string& Tool::input_display_name() const {
  static const std::string stdin_name = "<stdin>";
  return input_path_ == "-" ? stdin_name : input_path_;
}

std::string Tool::output_display_name() const { return output_path_ == "-" ? "<stdout>" : output_path_; }

Encoding Tool::output_encoding() const {
  if (!encoding_name_.empty()) return *parse_encoding(encoding_name_);
  return output_ && output_->is_terminal() ? Encoding::Text : Encoding::Binary;
}

void Tool::report(const Diagnostic& d, const std::string& file) const {
  std::cerr << info_.name << ": " << format_diagnostic(file, d) << "\n";
}

void Tool::report_all(const std::vector<Diagnostic>& diags, const std::string& file) const {
  for (const Diagnostic& d : diags) report(d, file);
}

ModuleReader& Tool::open_input(Level expected) {
  ModuleReader& in = open_input();
  Level found = in.header().level;
  if (found != expected)
    throw FormatError(Where{}, "expected a module at level '" + std::string(level_name(expected)) +
                                   "', found level '" + std::string(level_name(found)) + "'");
  return in;
}

ModuleReader& Tool::open_input() {
  if (!info_.module_input) throw std::logic_error(info_.name + ": open_input() on a tool whose input is not a module");
  source_ = std::make_unique<ByteSource>(ByteSource::open(input_path_));
  reader_ = open_reader(*source_);
  if (verify_ && verify_input_) {
    input_verifier_ = std::make_unique<ModuleVerifier>(reader_->header());
    if (!input_verifier_->header_diagnostics().empty())
      throw VerifyFailed(input_verifier_->header_diagnostics(), "input");
  }
  return *reader_;
}

// ---- Module pieces ----
void Tool::verify_input_pieces() {
  if (!input_verifier_ || !reader_) return;
  const std::vector<ModulePiece>& pieces = reader_->pieces();
  for (; input_pieces_verified_ < pieces.size(); ++input_pieces_verified_) {
    std::vector<Diagnostic> diags = input_verifier_->piece(pieces[input_pieces_verified_]);
    if (!diags.empty()) throw VerifyFailed(std::move(diags), "input");
  }
}

void Tool::forward_input_pieces() {
  if (!reader_ || !writer_) return;
  const std::vector<ModulePiece>& pieces = reader_->pieces();
  for (; input_pieces_forwarded_ < pieces.size(); ++input_pieces_forwarded_)
    write_piece(pieces[input_pieces_forwarded_]);
}

void Tool::merged_input_pieces() {
  if (reader_) input_pieces_forwarded_ = reader_->pieces().size();
}

void Tool::write_piece(const ModulePiece& piece) {
  if (piece.empty()) return;
  append_piece(*output_header_, piece);
  if (output_verifier_) {
    std::vector<Diagnostic> diags = output_verifier_->piece(piece);
    if (!diags.empty()) throw VerifyFailed(std::move(diags), "output");
  }
  writer_->piece(piece);
}

void Tool::verify_input(const Function& fn) {
  verify_input_pieces();
  if (!input_verifier_) return;
  std::vector<Diagnostic> diags = input_verifier_->function(fn);
  if (!diags.empty()) throw VerifyFailed(std::move(diags), "input");
}

ModuleWriter& Tool::open_output(const ModuleHeader& header, bool verify_output) {
  output_ = std::make_unique<OutputFile>(output_path_);
  if (output_->is_terminal() && output_encoding() == Encoding::Binary && !force_)
    throw UsageError("refusing to write binary output to a terminal; use -f text, -o FILE or --force");
  output_header_ = std::make_unique<ModuleHeader>(header);
  if (verify_ && verify_output) {
    output_verifier_ = std::make_unique<ModuleVerifier>(*output_header_);
    if (!output_verifier_->header_diagnostics().empty())
      throw VerifyFailed(output_verifier_->header_diagnostics(), "output");
  }
  writer_ = make_writer(output_encoding(), *output_);
  writer_->begin(*output_header_);
  return *writer_;
}

void Tool::write(const Function& fn) {
  forward_input_pieces();
  if (output_verifier_) {
    std::vector<Diagnostic> diags = output_verifier_->function(fn);
    if (!diags.empty()) throw VerifyFailed(std::move(diags), "output");
  }
  writer_->function(fn);
}

void Tool::finish_output() {
  verify_input_pieces();
  forward_input_pieces();
  if (input_verifier_ && !input_verifier_ended_) {
    input_verifier_ended_ = true;
    std::vector<Diagnostic> diags = input_verifier_->end();
    if (!diags.empty()) throw VerifyFailed(std::move(diags), "input");
  }
  if (output_verifier_) {
    std::vector<Diagnostic> diags = output_verifier_->end();
    if (!diags.empty()) throw VerifyFailed(std::move(diags), "output");
  }
  if (writer_) writer_->end();
  if (output_) output_->commit();
}

int Tool::main(int argc, char** argv, const std::function<void(Tool&)>& body) {
  argv_.assign(argv, argv + argc);
  install_crash_handler(info_.name, shell_join(argv_));
  try {
    app_.parse(argc, argv);
    if (app_.count("--output")) output_path_given_ = true;
  } catch (const CLI::ParseError& e) {
    int code = app_.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    body(*this);
    return 0;
  } catch (const FormatError& e) {
    report(e.diagnostic(), input_display_name());
  } catch (const VerifyFailed& e) {
    const std::string& file = e.stage() == "input" ? input_display_name() : output_display_name();
    report_all(e.diagnostics(), file);
    std::cerr << info_.name << ": " << e.diagnostics().size() << " error" << (e.diagnostics().size() == 1 ? "" : "s")
              << " in the " << e.stage() << " module"
              << (e.stage() == "output" ? " (a bug in this tool: please report it with the input)" : "") << "\n";
  } catch (const AlreadyReported&) {
  } catch (const UsageError& e) {
    std::cerr << info_.name << ": error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << info_.name << ": error: out of memory\n";
  } catch (const std::runtime_error& e) {
    std::cerr << info_.name << ": error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << info_.name << ": internal error: " << e.what()
              << "\nPlease report it with the input and this command:\n  " << shell_join(argv_) << "\n";
    return 3;
  }
  return 1;
}

}  // namespace pl
