// depfile.cpp - the depfiles of -MD/-MMD/-M -MF in gcc's layout (issue 20:
// "depfiles byte-compatible with gcc's").
//
// clang (in c2ast) finds the dependencies; this only lays them out as gcc
// 12's mkdeps.cc does, so a build that compares or post-processes depfiles
// sees gcc's bytes: the rule's words are written with a column count; a
// word that would pass column 72 starts a new line after " \", and a
// continuation line starts with one space (clang: two spaces and its own
// width); with -MP every dependency but the first (the source) gets a
// phony rule `NAME:` on the next line (clang puts a blank line before
// each). Words keep clang's quoting (`\ ` for a space, `$$`, `\#`), which
// is gcc's. gcc pre-includes /usr/include/stdc-predef.h, so lists it right
// after the source; clang reaches it through features.h, and it is moved to
// gcc's place. What cannot be made equal: clang's own headers (stddef.h,
// stdarg.h ... under /usr/lib/llvm-14) stand where gcc's are.
#include "depfile.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "encoding/io.h"


namespace pl::pipecc {

namespace {

constexpr size_t kColumns = 72;  // gcc's deps_write (c-opts.cc)
constexpr const char* kPredef = "/usr/include/stdc-predef.h";

// The words of a Make line: split at unescaped blanks, escapes kept.
std::vector<std::string> words(std::string_view line) {
  std::vector<std::string> out;
  std::string word;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '\\' && i + 1 < line.size()) {
      word += c;
      word += line[++i];
    } else if (c == ' ' || c == '\t') {
      if (!word.empty()) out.push_back(std::move(word)), word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

class Writer {
 public:
  void name(const std::string& w) {
    if (column_) {
      if (column_ + w.size() > kColumns) {
        out_ << " \\\n";
        column_ = 0;
      }
      ++column_;
      out_ << ' ';
    }
    column_ += w.size();
    out_ << w;
  }
  void colon() {
    out_ << ':';
    ++column_;
  }
  std::ostringstream& out() { return out_; }

 private:
  std::ostringstream out_;
  size_t column_ = 0;
};

}  // namespace

std::string gcc_depfile(std::string_view text) {
  // Joined continuation lines, then the rule (the first line) and the
  // phony rules (every other non-blank line, `NAME:`).
  std::string joined;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      joined += ' ';
      ++i;
    } else {
      joined += text[i];
    }
  }
  std::vector<std::string> lines;
  std::istringstream in(joined);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back(line);
  if (lines.empty()) throw std::runtime_error("empty depfile");
  std::vector<std::string> rule = words(lines[0]);
  std::vector<std::string> targets, deps;
  bool after_colon = false;
  for (std::string& w : rule) {
    if (after_colon) {
      deps.push_back(std::move(w));
    } else if (w.back() == ':' && (w.size() < 2 || w[w.size() - 2] != '\\')) {
      w.pop_back();
      if (!w.empty()) targets.push_back(std::move(w));
      after_colon = true;
    } else {
      targets.push_back(std::move(w));
    }
  }
  if (!after_colon || targets.empty()) throw std::runtime_error("no rule in the depfile");
  // gcc pre-includes stdc-predef.h before the source's first line; clang
  // reaches it through features.h. It goes where gcc lists it.
  auto predef = std::find(deps.begin(), deps.end(), std::string(kPredef));
  if (predef != deps.end() && deps.size() > 1) {
    std::string moved = *predef;
    deps.erase(predef);
    deps.insert(deps.begin() + 1, moved);
  }
  Writer wr;
  for (const std::string& t : targets) wr.name(t);
  wr.colon();
  for (const std::string& d : deps) wr.name(d);
  wr.out() << '\n';
  for (size_t i = 1; i < lines.size(); ++i) {  // -MP's phony targets: checked, then written in gcc's order
    std::vector<std::string> phony = words(lines[i]);
    if (phony.size() != 1 || phony[0].back() != ':') throw std::runtime_error("unexpected line in the depfile");
  }
  if (lines.size() > 1)
    for (size_t i = 1; i < deps.size(); ++i) wr.out() << deps[i] << ":\n";
  return wr.out().str();
}

void rewrite_depfile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return;
  std::stringstream buffer;
  buffer << f.rdbuf();
  std::string text;
  try {
    text = gcc_depfile(buffer.str());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  OutputFile out(path);  // written beside it and renamed into place
  out.write(text);
  out.commit();
}

}  // namespace pl::pipecc
