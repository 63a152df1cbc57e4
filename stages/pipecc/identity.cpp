// identity.cpp - pipecc's answers to "what are you" (identity.h).
//
// Decision: pipecc presents itself as what its front end is, a
// GNU-compatible clang 14: the predefined macros are clang's (c2ast parses
// with clang 14 in process: __clang_major__ 14, __GNUC__ 4, __GNUC_MINOR__
// 2), so CMake identifies "Clang 14.0.6" from them and meson from
// --version's first version number (clang's, first on the line, with the
// word clang) and both pass clang's flags, which pipecc's option table (also
// clang 14's) knows. -dumpversion answers clang's version, -dumpmachine and
// -print-target-triple clang's default target, -print-prog-name= of a
// program in pipecc's own directory (pipecc, a stage) its path, as clang
// answers for its own programs. The questions about the link (any other
// -print-prog-name=, -print-file-name=, -print-search-dirs,
// -print-libgcc-file-name, -print-multiarch) go to the system cc, because it
// is pipecc's linker driver: its answers are the files and programs the link
// uses.
//
// The build identifier in --version covers every program and library that
// decides what an object contains, so a cache keyed on --version
// (ccache's compiler_check = %compiler% --version) never serves an object
// from a rebuilt stage. It hashes file identity (size, modification time,
// inode), not contents: it costs a few stat calls, and a rebuild always
// gives a new modification time.
#include "identity.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <clang/Basic/Version.inc>
#include <clang/Driver/Options.h>
#include <llvm/Support/Host.h>

#include "pipeline.h"

namespace pl::pipecc {

std::string cc_path() {
  const char* cc = std::getenv("PIPECC_LINKER");
  return cc && *cc ? cc : "/usr/bin/cc";
}

namespace {

struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void add(const void* data, size_t n) {
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
  }
  void add(const std::string& s) { add(s.data(), s.size() + 1); }
  template <class T>
  void add_value(T v) { add(&v, sizeof v); }
};

void add_file(Fnv& f, const std::string& path) {
  f.add(path);
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return f.add_value<int64_t>(-1);  // missing: part of the identity too
  f.add_value<int64_t>(st.st_size);
  f.add_value<int64_t>(st.st_mtim.tv_sec);
  f.add_value<int64_t>(st.st_mtim.tv_nsec);
  f.add_value<uint64_t>(st.st_ino);
}

std::string library_of(const void* symbol) {
  Dl_info info{};
  if (dladdr(symbol, &info) && info.dli_fname) return info.dli_fname;
  return "";
}

std::string target_triple() { return llvm::sys::getDefaultTargetTriple(); }

// Runs `cc QUESTION` with its stdout as pipecc's.
int ask_cc(const std::string& question) {
  Pipeline p{{{"cc", {cc_path(), question}}}};
  return run(p).status;
}

}  // namespace

std::string build_id(const std::string& tool_dir) {
  Fnv f;
  f.add(PIPE_VERSION);
  for (const StageSpec& s : kStages) add_file(f, tool_dir + "/" + s.name);
  add_file(f, tool_dir + "/pipecc");
  add_file(f, library_of(reinterpret_cast<const void*>(&clang::driver::getDriverOptTable)));
  add_file(f, library_of(reinterpret_cast<const void*>(&llvm::sys::getDefaultTargetTriple)));
  add_file(f, cc_path());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(f.h));
  return hex;
}

std::string version_text(const std::string& tool_dir) {
  std::string stages;
  for (const StageSpec& s : kStages) stages += (stages.empty() ? "" : " | ") + std::string(s.name);
  return std::string("pipecc (clang ") + CLANG_VERSION_STRING + " front end) " + PIPE_VERSION +
         ", toolchain build " + build_id(tool_dir) + "\n" +
         "Target: " + target_triple() + "\n" +
         "Thread model: posix\n" +
         "InstalledDir: " + tool_dir + "\n" +
         "Compatible with: GNU-compatible clang " + CLANG_VERSION_STRING +
         " (clang's predefined macros and option table)\n" +
         "Stages: " + stages + "\n" +
         "Linker driver and assembler: " + cc_path() + "\n";
}

int answer_query(const Options& o, const std::string& tool_dir) {
  switch (o.query) {
    case Query::Version: std::cout << version_text(tool_dir); return 0;
    case Query::VerboseAlone: std::cerr << version_text(tool_dir); return 0;
    case Query::DumpVersion:
    case Query::DumpFullVersion: std::cout << CLANG_VERSION_STRING << "\n"; return 0;
    case Query::DumpMachine:
    case Query::PrintTargetTriple: std::cout << target_triple() << "\n"; return 0;
    case Query::PrintProgName: {
      // As clang: a program of the toolchain's own directory (pipecc itself,
      // a stage) by its path; icecc-create-env asks so for the compiler to
      // pack. Any other program is the linker driver's.
      std::string own = tool_dir + "/" + o.query_arg;
      struct stat st;
      if (o.query_arg.find('/') == std::string::npos && !o.query_arg.empty() && stat(own.c_str(), &st) == 0 &&
          S_ISREG(st.st_mode) && (st.st_mode & S_IXUSR)) {
        std::cout << own << "\n";
        return 0;
      }
      std::cout.flush();
      return ask_cc("-print-prog-name=" + o.query_arg);
    }
    case Query::PrintFileName: std::cout.flush(); return ask_cc("-print-file-name=" + o.query_arg);
    case Query::PrintSearchDirs: std::cout.flush(); return ask_cc("-print-search-dirs");
    case Query::PrintLibgcc: std::cout.flush(); return ask_cc("-print-libgcc-file-name");
    case Query::PrintMultiarch: std::cout.flush(); return ask_cc("-print-multiarch");
    case Query::None: break;
  }
  return 0;
}

}  // namespace pl::pipecc
