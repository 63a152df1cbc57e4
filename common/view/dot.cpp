// dot.cpp - Graphviz drawings (see dot.h).
#include "view/dot.h"

#include <fstream>
#include <set>

#include "encoding/text_format.h"

namespace pl {

namespace {

// The kind a node produces, following projs and phis ('v' when unknown).
char produced_kind(const Function& fn, NodeId id, std::set<NodeId>& seen) {
  if (!seen.insert(id).second) return 'v';
  const Node& n = fn.nodes[id];
  if (n.op >= kNumOps) return 'v';
  std::string_view res = op_info(n.op).results;
  if (n.op == Proj && !n.inputs.empty() && !n.literals.empty() && n.literals[0].is_int()) {
    const Node& tuple = fn.nodes[n.inputs[0]];
    if (tuple.op >= kNumOps) return 'v';
    std::string_view tres = op_info(tuple.op).results;
    int64_t i = n.literals[0].as_int();
    char letter = i >= 0 ? shape_letter(tres, static_cast<size_t>(i)) : '\0';
    return letter ? letter : 'v';
  }
  if (res == "m" || res == "v" || res == "c") return res[0];
  if ((n.op == Phi || n.op == SsaPhi) && !n.inputs.empty())
    for (NodeId x : n.inputs) {
      char k = produced_kind(fn, x, seen);
      if (k == 'm') return 'm';
    }
  return 'v';
}

std::string node_id(uint32_t fn_index, NodeId id) { return "f" + std::to_string(fn_index) + "_i" + std::to_string(id); }

std::string node_style(const Function& fn, NodeId id) {
  const Node& n = fn.nodes[id];
  if (n.op >= kNumOps) return "shape=box, style=\"filled,dotted\", fillcolor=\"#eeeeee\"";
  const OpInfo& info = op_info(n.op);
  if (info.has(BLOCK)) return "shape=box, style=\"filled,bold\", fillcolor=\"#fff2a8\"";
  if (info.has(TERMINATOR)) return "shape=box, style=filled, fillcolor=\"#ffc89a\"";
  if (info.has(PHI)) return "shape=hexagon, style=filled, fillcolor=\"#e3d4f7\"";
  if (info.has(MEMORY)) return "shape=box, style=\"filled,rounded\", fillcolor=\"#cfe3ff\"";
  if (info.has(PINNED)) return "shape=box, style=\"filled,rounded\", fillcolor=\"#f0f0f0\"";
  return "shape=ellipse";
}

std::string edge_style(char kind) {
  switch (kind) {
    case 'c': return "color=\"#cc0000\", style=bold";
    case 'm': return "color=\"#1f5fbf\", style=dashed";
    default: return "color=black";
  }
}

}  // namespace

const std::string& SourceLines::line(uint32_t file, uint32_t line) {
  static const std::string empty;
  auto it = cache_.find(file);
  if (it == cache_.end()) {
    std::vector<std::string> lines;
    if (file < files_.size()) {
      std::string path = files_[file];
      if (!dir_.empty() && !path.starts_with("/")) path = dir_ + "/" + path;
      std::ifstream in(path);
      for (std::string l; std::getline(in, l);) lines.push_back(l);
    }
    it = cache_.emplace(file, std::move(lines)).first;
  }
  return line >= 1 && line <= it->second.size() ? it->second[line - 1] : empty;
}

char input_edge_kind(const Function& fn, NodeId user, size_t index) {
  const Node& n = fn.nodes[user];
  if (n.op >= kNumOps || index >= n.inputs.size()) return 'v';
  char letter = shape_letter(op_info(n.op).inputs, index);
  if (letter == 'm' || letter == 'v') return letter;
  std::set<NodeId> seen;
  return produced_kind(fn, n.inputs[index], seen);
}

std::string dot_quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') out += "\\n";
    else out += c;
  }
  return out + "\"";
}

std::string function_dot(const Function& fn, uint32_t fn_index, SourceLines& sources) {
  std::string out = "  subgraph cluster_f" + std::to_string(fn_index) + " {\n    label=" +
                    dot_quote(fn.name.empty() ? "(unnamed)" : fn.name) + ";\n    style=rounded; color=\"#888888\";\n";
  auto node_text = [&](NodeId id) {
    std::string line = print_node_line(fn, id);
    std::string label = line.substr(line.find(" = ") + 3);
    const Loc& loc = fn.nodes[id].loc;
    if (loc.valid()) label = label.substr(0, label.rfind(" @"));  // the location goes to the tooltip
    std::string tooltip = line;
    if (loc.valid()) {
      const std::string& src = sources.line(loc.file, loc.line);
      tooltip = "line " + std::to_string(loc.line) + ":" + std::to_string(loc.col) +
                (src.empty() ? "" : ": " + src) + "\n" + line;
    }
    std::string id_text = node_id(fn_index, id);
    return "    " + id_text + " [label=" + dot_quote("i" + std::to_string(id) + ": " + label) + ", tooltip=" +
           dot_quote(tooltip) + ", id=" + dot_quote(id_text) + ", " + node_style(fn, id) + "];\n";
  };
  std::vector<bool> drawn(fn.nodes.size(), false);
  if (fn.cfg) {
    for (size_t b = 0; b < fn.cfg->blocks.size(); ++b) {
      const Block& blk = fn.cfg->blocks[b];
      out += "    subgraph cluster_f" + std::to_string(fn_index) + "_b" + std::to_string(b) + " {\n      label=" +
             dot_quote("b" + std::to_string(b)) + "; style=filled; fillcolor=\"#fafafa\"; color=\"#bbbbbb\";\n";
      out += "  " + node_text(blk.node);
      drawn[blk.node] = true;
      for (NodeId id : blk.nodes) {
        out += "  " + node_text(id);
        drawn[id] = true;
      }
      out += "    }\n";
    }
  }
  for (NodeId id = 0; id < fn.nodes.size(); ++id)
    if (!drawn[id]) out += node_text(id);
  for (NodeId id = 0; id < fn.nodes.size(); ++id) {
    const Node& n = fn.nodes[id];
    for (NodeId c : n.control)
      out += "    " + node_id(fn_index, c) + " -> " + node_id(fn_index, id) + " [" + edge_style('c') + "];\n";
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      std::string label = n.inputs.size() > 1 ? ", headlabel=" + dot_quote(std::to_string(i)) + ", labelfontsize=8" : "";
      out += "    " + node_id(fn_index, n.inputs[i]) + " -> " + node_id(fn_index, id) + " [" +
             edge_style(input_edge_kind(fn, id, i)) + label + "];\n";
    }
  }
  return out + "  }\n";
}

std::string module_dot(const Module& m, SourceLines& sources) {
  std::string out = "digraph module {\n  graph [fontname=\"monospace\", rankdir=TB, tooltip=" +
                    dot_quote(std::string("level ") + std::string(level_name(m.header.level))) +
                    "];\n  node [fontname=\"monospace\", fontsize=10];\n  edge [arrowsize=0.6];\n";
  for (uint32_t f = 0; f < m.functions.size(); ++f) out += function_dot(m.functions[f], f, sources);
  return out + "}\n";
}

}  // namespace pl
