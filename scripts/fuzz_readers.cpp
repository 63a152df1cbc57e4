// fuzz_readers.cpp - libFuzzer target for the three readers (run by
// scripts/fuzz-readers; not a test).
//
// Each input is read as a module (the encoding detected from its bytes, as
// every tool does). Bad input must end in a FormatError; anything else
// escaping, a crash or a sanitizer report is a bug. Input that reads is then
// written in each encoding and read back: the module must come back equal
// (the lossless round trip of FORMAT.md), or the target aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "encoding/format.h"

namespace {

[[noreturn]] void fail(const char* what, pl::Encoding e) {
  std::fprintf(stderr, "fuzz_readers: %s through %s\n", what, std::string(pl::encoding_name(e)).c_str());
  std::abort();
}

void check_round_trip(const pl::Module& m) {
  for (pl::Encoding e : {pl::Encoding::Binary, pl::Encoding::Json, pl::Encoding::Text}) {
    std::string bytes;
    try {
      bytes = pl::write_module_to_string(m, e);
    } catch (const pl::FormatError&) {
      continue;  // the writer refuses what it cannot encode (checked names, types)
    }
    pl::Module back;
    try {
      back = pl::read_module_from_string(bytes, "round-trip");
    } catch (const pl::FormatError& err) {
      std::fprintf(stderr, "%s\n", pl::format_diagnostic("round-trip", err.diagnostic()).c_str());
      fail("a written module does not read back", e);
    }
    if (!(back == m)) fail("the module changed in a round trip", e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pl::Module m;
  try {
    m = pl::read_module_from_string(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const pl::FormatError&) {
    return 0;
  }
  check_round_trip(m);
  return 0;
}
