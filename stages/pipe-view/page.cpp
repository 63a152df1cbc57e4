// page.cpp - the HTML page of pipe-view (view.h).
//
// One self-contained file (no external script, style or font): a header
// with the step navigation (previous/next buttons, a list of the steps,
// the arrow keys, `#step=K` in the address), the C source on the left, and
// for the current step its printable text beside its drawing (the last
// step, codegen-x64's assembly, is text only).
//
// Colour matching: every source line that some node came from gets a
// colour (class `L<line>` sets the custom property --c; hues spread by the
// golden angle so neighbouring lines differ). Text rows and drawn nodes
// carry `data-line` and the same class, and are filled with that colour;
// only locations in the C file itself count (not headers). Hovering (or
// clicking) a source line marks it and every node of the current step that
// came from it (class `hot`); hovering a node marks its source line and the
// other nodes from that line, the same node in the text and in the drawing.
//
// Drawings: common/view/dot.h's DOT through Graphviz's `dot -Tsvg`, inlined; the
// ids Graphviz writes are prefixed with the step (`s3_`), and each node's
// group gets data-node (its dot.h id `f<function>_i<node>`), data-line and
// the classes. A step with more than PageOptions::graph_limit nodes is shown
// as text only (Graphviz takes too long on huge graphs).
//
// Changes: a step whose previous step is at the same level (sonopt's pass
// applications) marks, with class `chg`, the nodes that graph_diff.h finds
// added or changed against the previous step (function by function, by
// name); a function new in the step is marked whole.
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "view/dot.h"
#include "view/graph_diff.h"
#include "tool/subprocess.h"
#include "encoding/text_format.h"
#include "view.h"

namespace pl::view {

namespace {

namespace fs = std::filesystem;

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The index of the C file among the module's files, or -1.
int main_file_index(const ModuleHeader& h, const std::string& c_file) {
  for (size_t i = 0; i < h.files.size(); ++i)
    if (h.files[i] == c_file) return static_cast<int>(i);
  std::string name = fs::path(c_file).filename().string();
  for (size_t i = 0; i < h.files.size(); ++i)
    if (fs::path(h.files[i]).filename().string() == name) return static_cast<int>(i);
  return -1;
}

// The C source line node `id` came from, or 0.
uint32_t source_line(const Function& fn, NodeId id, int main_file) {
  const Loc& loc = fn.nodes[id].loc;
  return loc.valid() && static_cast<int>(loc.file) == main_file ? loc.line : 0;
}

// The nodes of each function (by index) that the step added or changed.
using Marks = std::vector<std::set<NodeId>>;

Marks changed_nodes(const Step* previous, const Step& step) {
  Marks marks(step.module.functions.size());
  if (!previous || !previous->failure.empty() || previous->module.header.level != step.module.header.level)
    return marks;
  std::map<std::string, const Function*> before;
  for (const Function& f : previous->module.functions) before[f.name] = &f;
  for (size_t f = 0; f < step.module.functions.size(); ++f) {
    const Function& fn = step.module.functions[f];
    auto it = before.find(fn.name);
    if (it == before.end()) {
      for (NodeId id = 0; id < fn.nodes.size(); ++id) marks[f].insert(id);
      continue;
    }
    for (const NodeDiff& d : diff_functions(*it->second, fn).nodes)
      if (d.kind != NodeDiff::Kind::Removed) marks[f].insert(d.b);
  }
  return marks;
}

// class="..." and data-* attributes of a node (text row or drawn node).
std::string node_attributes(const Function& fn, uint32_t f, NodeId id, int main_file, const Marks& marks,
                            const std::string& base_class) {
  uint32_t line = source_line(fn, id, main_file);
  std::string cls = base_class;
  if (line) cls += " L" + std::to_string(line);
  if (marks[f].count(id)) cls += " chg";
  std::string out = "class=\"" + cls + "\" data-node=\"f" + std::to_string(f) + "_i" + std::to_string(id) + "\"";
  if (line) out += " data-line=\"" + std::to_string(line) + "\"";
  return out;
}

std::string text_panel(const Module& m, int main_file, const Marks& marks) {
  std::string out = "<div class=\"text\">";
  for (uint32_t f = 0; f < m.functions.size(); ++f) {
    const Function& fn = m.functions[f];
    out += "<div class=\"fn\">function " + escape(fn.name) + "</div>\n";
    auto row = [&](NodeId id, bool indent) {
      out += "<div " + node_attributes(fn, f, id, main_file, marks, indent ? "row in" : "row") + ">" +
             escape(print_node_line(fn, id)) + "</div>\n";
    };
    std::vector<bool> shown(fn.nodes.size(), false);
    if (fn.cfg) {
      for (const Block& blk : fn.cfg->blocks) {
        row(blk.node, false);
        shown[blk.node] = true;
        for (NodeId id : blk.nodes) {
          row(id, true);
          shown[id] = true;
        }
      }
    }
    for (NodeId id = 0; id < fn.nodes.size(); ++id)
      if (!shown[id]) row(id, false);
  }
  return out + "</div>\n";
}

// The machine code (codegen-x64 -f asm -g): each instruction takes the
// source line of the `.loc` before it when that names the C file (`.file N
// "path"` says which number it has); labels and directives carry no line,
// and the `.loc` lines themselves are left out (their lines are the colours).
struct AssemblyRow {
  std::string text;
  uint32_t line = 0;
};

std::vector<AssemblyRow> assembly_rows(const std::string& assembly, const std::string& c_file) {
  std::vector<AssemblyRow> rows;
  std::set<std::string> main_numbers;
  std::string c_name = fs::path(c_file).filename().string();
  uint32_t current = 0;
  for (const std::string& raw : split_lines(assembly)) {
    std::istringstream words(raw);
    std::string first;
    words >> first;
    if (first == ".file") {
      std::string number, path;
      words >> number >> path;
      if (!path.empty() && path.front() == '"') {
        path = path.substr(1, path.size() - 2);
        if (path == c_file || fs::path(path).filename().string() == c_name) main_numbers.insert(number);
      }
    }
    if (first == ".loc") {
      std::string number;
      uint32_t line = 0;
      words >> number >> line;
      current = main_numbers.count(number) ? line : 0;
      continue;
    }
    bool instruction = !first.empty() && first[0] != '.' && first.back() != ':' && first[0] != '#';
    rows.push_back({raw, instruction ? current : 0});
  }
  return rows;
}

size_t instruction_count(const std::vector<AssemblyRow>& rows) {
  size_t n = 0;
  for (const AssemblyRow& r : rows) {
    std::string_view t = r.text;
    size_t at = t.find_first_not_of(" \t");
    if (at != std::string_view::npos && t[at] != '.' && t.back() != ':' && t[at] != '#') ++n;
  }
  return n;
}

std::string assembly_panel(const std::vector<AssemblyRow>& rows) {
  std::string out = "<div class=\"text wide\">";
  for (const AssemblyRow& r : rows) {
    std::string attrs = r.line ? " class=\"row L" + std::to_string(r.line) + "\" data-line=\"" +
                                     std::to_string(r.line) + "\""
                               : " class=\"row\"";
    out += "<div" + attrs + ">" + escape(r.text) + "</div>\n";
  }
  return out + "</div>\n";
}

// dot's SVG made unique in the page and matched to the source (header).
std::string adapt_svg(const std::string& svg, size_t step, const Module& m, int main_file, const Marks& marks) {
  size_t begin = svg.find("<svg");
  if (begin == std::string::npos) return "";
  std::string prefix = "s" + std::to_string(step) + "_";
  std::string out;
  out.reserve(svg.size() + svg.size() / 4);
  const std::string group = "<g id=\"", node_tail = "\" class=\"node\">";
  for (size_t at = begin; at < svg.size();) {
    size_t next = svg.find("id=\"", at);
    if (next == std::string::npos) {
      out.append(svg, at, std::string::npos);
      break;
    }
    bool is_group = next >= 3 && svg.compare(next - 3, group.size(), group) == 0;
    size_t id_begin = next + 4, id_end = svg.find('"', id_begin);
    std::string id = svg.substr(id_begin, id_end - id_begin);
    uint32_t f = 0, i = 0;
    char tail = 0;
    if (is_group && svg.compare(id_end, node_tail.size(), node_tail) == 0 &&
        std::sscanf(id.c_str(), "f%u_i%u%c", &f, &i, &tail) == 2 && f < m.functions.size() &&
        i < m.functions[f].nodes.size()) {
      out.append(svg, at, next - at);
      out += "id=\"" + prefix + id + "\" " + node_attributes(m.functions[f], f, i, main_file, marks, "node") + ">";
      at = id_end + node_tail.size();
      continue;
    }
    out.append(svg, at, id_begin - at);
    out += prefix;
    at = id_begin;
  }
  return out;
}

size_t node_count(const Module& m) {
  size_t n = 0;
  for (const Function& f : m.functions) n += f.nodes.size();
  return n;
}

std::string graph_panel(const Step& step, size_t k, int main_file, const Marks& marks, const PageOptions& options) {
  size_t nodes = node_count(step.module);
  if (nodes > options.graph_limit)
    return "<div class=\"graph\"><p class=\"note\">" + std::to_string(nodes) +
           " nodes: no drawing above --graph-limit " + std::to_string(options.graph_limit) + "</p></div>\n";
  std::string dot_program = find_program("dot");
  if (dot_program.empty())
    return "<div class=\"graph\"><p class=\"note\">no drawing: Graphviz's dot is not installed</p></div>\n";
  SourceLines sources(step.module.header.files);  // named as c2ast was given them
  char dir_template[] = "/tmp/pipe-view.XXXXXX";
  if (!::mkdtemp(dir_template)) throw std::runtime_error("cannot create a temporary directory");
  std::string dot_file = std::string(dir_template) + "/g.dot";
  {
    std::ofstream(dot_file) << module_dot(step.module, sources);
  }
  ProcessResult r = run_process({{dot_program, "-Tsvg", dot_file}, "", "", 300, size_t{1} << 30});
  fs::remove_all(dir_template);
  if (r.status != 0)
    return "<div class=\"graph\"><p class=\"note\">dot failed (" + escape(r.describe()) + "): " + escape(r.err) +
           "</p></div>\n";
  return "<div class=\"graph\">" + adapt_svg(r.out, k, step.module, main_file, marks) + "</div>\n";
}

// The colour of a source line: hues spread by the golden angle.
std::string line_colour(uint32_t line) {
  double hue = std::fmod(line * 137.508, 360.0);
  char buf[64];
  std::snprintf(buf, sizeof buf, "hsl(%.0f, 80%%, 82%%)", hue);
  return buf;
}

constexpr const char* kStyle = R"CSS(
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.35 sans-serif; color: #222; }
header { position: sticky; top: 0; z-index: 2; background: #f4f4f4; border-bottom: 1px solid #ccc; padding: 6px 10px;
         display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
header h1 { font-size: 15px; margin: 0 12px 0 0; }
#stepsel { max-width: 48ch; }
#pos { color: #555; min-width: 6ch; }
.legend span { padding: 0 6px; margin-left: 4px; border-radius: 3px; }
main { display: grid; grid-template-columns: minmax(260px, 1fr) 3fr; height: calc(100vh - 44px); }
#source { overflow: auto; border-right: 1px solid #ccc; font: 12px/1.4 monospace; padding: 4px 0; }
.src { white-space: pre; padding: 0 6px; cursor: default; }
.src .ln { display: inline-block; width: 4ch; color: #888; text-align: right; margin-right: 1ch; }
.step { display: none; height: 100%; grid-template-rows: auto 1fr; grid-template-columns: minmax(320px, 2fr) 3fr; }
.step.cur { display: grid; }
.stephead { grid-column: 1 / 3; padding: 4px 8px; background: #fafafa; border-bottom: 1px solid #ddd; }
.stephead code { font-size: 11px; color: #555; word-break: break-all; }
.text { overflow: auto; font: 12px/1.35 monospace; border-right: 1px solid #ddd; padding: 4px 0; }
.text.wide { grid-column: 1 / 3; }
.fn { font-weight: bold; padding: 6px 6px 2px; }
.row { white-space: pre; padding: 0 6px; border-left: 4px solid transparent; }
.row.in { padding-left: 3ch; }
.graph { overflow: auto; padding: 4px; }
.graph svg { display: block; }
.note { color: #666; font-style: italic; padding: 8px; }
.failure { grid-column: 1 / 3; color: #a00; white-space: pre-wrap; padding: 8px; margin: 0; }
[data-line] { background: var(--c); }
g.node[data-line] ellipse, g.node[data-line] polygon, g.node[data-line] path { fill: var(--c); }
.row.chg { border-left-color: #d00; font-weight: bold; }
g.node.chg ellipse, g.node.chg polygon, g.node.chg path { stroke: #d00; stroke-width: 2.5px; }
.hot { outline: 2px solid #000; outline-offset: -1px; }
g.node.hot ellipse, g.node.hot polygon, g.node.hot path { stroke: #000; stroke-width: 3.5px; }
.self { text-decoration: underline; }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
  "use strict";
  var steps = Array.prototype.slice.call(document.querySelectorAll(".step"));
  var sel = document.getElementById("stepsel"), pos = document.getElementById("pos");
  var cur = 0;
  function clearHot() {
    document.querySelectorAll(".hot, .self").forEach(function (e) { e.classList.remove("hot", "self"); });
  }
  function mark(line, node) {
    clearHot();
    if (line) {
      document.querySelectorAll('#source [data-line="' + line + '"]').forEach(function (e) { e.classList.add("hot"); });
      steps[cur].querySelectorAll('[data-line="' + line + '"]').forEach(function (e) { e.classList.add("hot"); });
    }
    if (node) steps[cur].querySelectorAll('[data-node="' + node + '"]').forEach(function (e) { e.classList.add("self"); });
  }
  function show(k) {
    if (!steps.length) return;
    k = Math.max(0, Math.min(steps.length - 1, k));
    steps[cur].classList.remove("cur");
    cur = k;
    steps[cur].classList.add("cur");
    sel.value = String(k);
    pos.textContent = (k + 1) + " / " + steps.length;
    clearHot();
    if (history.replaceState) history.replaceState(null, "", "#step=" + k);
  }
  document.getElementById("prev").addEventListener("click", function () { show(cur - 1); });
  document.getElementById("next").addEventListener("click", function () { show(cur + 1); });
  sel.addEventListener("change", function () { show(parseInt(sel.value, 10)); });
  document.addEventListener("keydown", function (e) {
    if (e.target === sel) return;
    if (e.key === "ArrowRight" || e.key === "j") show(cur + 1);
    else if (e.key === "ArrowLeft" || e.key === "k") show(cur - 1);
  });
  function onPoint(e) {
    var t = e.target.closest ? e.target.closest("[data-line], [data-node]") : null;
    if (!t) return;
    mark(t.getAttribute("data-line"), t.getAttribute("data-node"));
  }
  ["mouseover", "click"].forEach(function (type) {
    document.getElementById("source").addEventListener(type, onPoint);
    document.getElementById("steps").addEventListener(type, onPoint);
  });
  var m = /#step=(\d+)/.exec(location.hash);
  show(m ? parseInt(m[1], 10) : 0);
})();
)JS";

}  // namespace

std::string render_page(const std::string& c_file, const std::string& source, const std::vector<Step>& steps,
                        const PageOptions& options) {
  // Every source line some node came from, for the colours.
  std::set<uint32_t> used;
  for (const Step& s : steps) {
    for (const AssemblyRow& r : assembly_rows(s.assembly, c_file))
      if (r.line) used.insert(r.line);
    int main_file = main_file_index(s.module.header, c_file);
    for (const Function& fn : s.module.functions)
      for (NodeId id = 0; id < fn.nodes.size(); ++id)
        if (uint32_t line = source_line(fn, id, main_file)) used.insert(line);
  }
  std::string title = "pipe-view: " + fs::path(c_file).filename().string();
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                    escape(title) + "</title>\n<style>" + kStyle;
  for (uint32_t line : used) out += ".L" + std::to_string(line) + " { --c: " + line_colour(line) + "; }\n";
  out += "</style>\n</head>\n<body>\n<header><h1>" + escape(title) +
         "</h1><button id=\"prev\" title=\"previous step (left arrow)\">&#9664; prev</button>"
         "<select id=\"stepsel\">";
  for (size_t k = 0; k < steps.size(); ++k)
    out += "<option value=\"" + std::to_string(k) + "\">" + std::to_string(k + 1) + ". " + escape(steps[k].title) +
           "</option>";
  out += "</select><button id=\"next\" title=\"next step (right arrow)\">next &#9654;</button><span id=\"pos\"></span>"
         "<span class=\"legend\">hover a source line or a node; "
         "<span style=\"border-left:4px solid #d00\">changed by this step</span></span></header>\n<main>\n";

  out += "<section id=\"source\">\n";
  std::vector<std::string> lines = split_lines(source);
  for (uint32_t n = 1; n <= lines.size(); ++n) {
    std::string attrs = used.count(n) ? " L" + std::to_string(n) + "\" data-line=\"" + std::to_string(n) : "";
    out += "<div class=\"src" + attrs + "\"><span class=\"ln\">" + std::to_string(n) + "</span>" +
           escape(lines[n - 1]) + "</div>\n";
  }
  out += "</section>\n<section id=\"steps\">\n";
  for (size_t k = 0; k < steps.size(); ++k) {
    const Step& s = steps[k];
    out += "<div class=\"step\" id=\"step" + std::to_string(k) + "\" data-title=\"" + escape(s.title) +
           "\"><div class=\"stephead\"><b>" + escape(s.title) + "</b>";
    std::vector<AssemblyRow> asm_rows = assembly_rows(s.assembly, c_file);
    if (s.failure.empty() && !s.assembly.empty())
      out += " &middot; x86-64 assembly &middot; " + std::to_string(instruction_count(asm_rows)) + " instructions";
    else if (s.failure.empty())
      out += " &middot; level " + escape(level_name(s.module.header.level)) + " &middot; " +
             std::to_string(node_count(s.module)) + " nodes";
    out += "<br><code>" + escape(s.command) + "</code></div>\n";
    if (!s.failure.empty()) {
      out += "<pre class=\"failure\">" + escape(s.failure) + "</pre></div>\n";
      continue;
    }
    if (!s.assembly.empty()) {
      out += assembly_panel(asm_rows) + "</div>\n";
      continue;
    }
    int main_file = main_file_index(s.module.header, c_file);
    Marks marks = changed_nodes(k ? &steps[k - 1] : nullptr, s);
    out += text_panel(s.module, main_file, marks);
    out += graph_panel(s, k, main_file, marks, options);
    out += "</div>\n";
  }
  out += "</section>\n</main>\n<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace pl::view
