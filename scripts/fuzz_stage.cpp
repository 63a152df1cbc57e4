// fuzz_stage.cpp - libFuzzer target for one stage, in process (run by
// scripts/fuzz-stage; built per stage as pipe-fuzz-stage-<name> in the
// -DPIPE_FUZZ=ON build, beside pipe-fuzz-readers).
//
// How the stage gets in: CMakeLists.txt compiles the stage's own sources
// with coverage, and its main object with `main` renamed to
// pipe_stage_main (objcopy --redefine-sym), so the target calls the real
// tool, command line, reader, verifier and writer included, exactly as a
// user runs it: `STAGE IN -o OUT -f bin [PIPE_FUZZ_STAGE_ARGS]`.
//
// Each input is read as a module (any encoding). Input that does not read,
// is at a level the stage does not take (PIPE_FUZZ_STAGE_LEVELS), or does
// not verify at its level is rejected (return -1: libFuzzer keeps it out of
// the corpus), so the stage only sees valid input. Then the stage must exit
// 0 (the tool contract: valid input in, verified output out; the tool
// verifies its own output and exits 3 when it does not verify); any other
// exit status, a crash or a sanitizer report is a finding, saved by
// libFuzzer with the input that caused it.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "encoding/format.h"
#include "check/verify.h"

// The stage's main, renamed by objcopy: an unmangled symbol.
extern "C" int pipe_stage_main(int argc, char** argv);

namespace {

bool stage_takes(pl::Level level) {
  std::string levels = PIPE_FUZZ_STAGE_LEVELS;  // "son son-x64"
  std::string name(pl::level_name(level));
  for (size_t at = 0; at < levels.size();) {
    size_t end = levels.find(' ', at);
    if (end == std::string::npos) end = levels.size();
    if (levels.compare(at, end - at, name) == 0) return true;
    at = end + 1;
  }
  return false;
}

bool valid(const pl::Module& m) {
  if (!stage_takes(m.header.level)) return false;
  std::vector<pl::Diagnostic> diags;
  pl::ModuleVerifier verifier(m.header);
  if (!verifier.header_diagnostics().empty()) return false;
  for (const pl::Function& fn : m.functions)
    if (!verifier.function(fn).empty()) return false;
  return verifier.end().empty();
}

const std::string& work_dir() {
  static const std::string dir = [] {
    char pattern[] = "/tmp/pipe-fuzz-stage.XXXXXX";
    if (!::mkdtemp(pattern)) std::abort();
    return std::string(pattern);
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pl::Module m;
  try {
    m = pl::read_module_from_string(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const pl::FormatError&) {
    return -1;
  }
  if (!valid(m)) return -1;
  std::string in = work_dir() + "/in.bin", out = work_dir() + "/out.bin";
  {
    std::FILE* f = std::fopen(in.c_str(), "wb");
    if (!f) std::abort();
    std::string bytes = pl::write_module_to_string(m, pl::Encoding::Binary);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  std::vector<std::string> args{PIPE_FUZZ_STAGE_NAME, in, "-o", out, "-f", "bin"};
  for (std::string extra = PIPE_FUZZ_STAGE_ARGS; !extra.empty();) {
    size_t end = extra.find(' ');
    args.push_back(extra.substr(0, end));
    extra = end == std::string::npos ? "" : extra.substr(end + 1);
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int status = pipe_stage_main(static_cast<int>(args.size()), argv.data());
  ::unlink(out.c_str());
  if (status != 0) {
    std::fprintf(stderr, "fuzz_stage: %s exited %d on a valid module (level %s)\n", PIPE_FUZZ_STAGE_NAME, status,
                 std::string(pl::level_name(m.header.level)).c_str());
    std::abort();
  }
  return 0;
}
