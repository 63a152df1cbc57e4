// dot.h - Graphviz drawings of modules (pipe-dot, pipe-view).
//
// Every level draws the same way: one cluster per function; at the cfg
// levels one nested cluster per block, in block order; edges run from a
// value's producer to its user and are told apart by kind: control (red,
// bold), memory (blue, dashed), value (black). Each node's label is its
// printable line (text_format.h) without the id; its tooltip is its source
// location and that line of the source file when the file can be read, and
// its SVG id is `f<function index>_i<node id>` (so a page can find it).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace pl {

// Lines of the module's source files, read on demand (file index -> lines;
// empty when the file cannot be read).
class SourceLines {
 public:
  explicit SourceLines(std::vector<std::string> files, std::string dir = "")
      : files_(std::move(files)), dir_(std::move(dir)) {}
  // The text of LINE (1-based) of file FILE, or "".
  const std::string& line(uint32_t file, uint32_t line);

 private:
  std::vector<std::string> files_;
  std::string dir_;
  std::map<uint32_t, std::vector<std::string>> cache_;
};

// Kind of the value a node's input `index` carries: 'c' control (for
// control inputs), 'm' memory, 'v' value (also when it cannot be told).
char input_edge_kind(const Function& fn, NodeId user, size_t index);

// The DOT text of one function as a cluster (no surrounding graph).
std::string function_dot(const Function& fn, uint32_t fn_index, SourceLines& sources);
// A whole drawing: `digraph` with every function.
std::string module_dot(const Module& m, SourceLines& sources);

// A string as a DOT quoted string ("..." with escapes).
std::string dot_quote(const std::string& text);

}  // namespace pl
