// text_format.cpp - the printable encoding: streaming reader, writer, and the
// node-line printer the verifier uses for context (grammar: schema/FORMAT.md,
// section "Printable encoding").
//
// Design
//   The format is line-oriented: every construct (header line, pipeline
//   opener, node line, block opener, arrow line, closing brace) is exactly one
//   line, and `#` outside a string starts a comment that runs to the end of
//   the line. JSON strings cannot hold a raw newline, so a line is always a
//   complete unit.
//
//   Reader. LineSource pulls one line at a time from the ByteSource
//   (window()/fill()/consume(); a view is used only until the next fill()).
//   Cursor is a hand-written lexer over one line; every error it raises is a
//   FormatError at line:col with the line's text as context. The header is
//   read by the factory, up to the first `pipeline` line (kept as an owned
//   copy). Each pipeline is parsed by a FunctionParser that holds only that
//   function's data and resolves it when the closing `}` is read:
//     1. every referenced label and block number must be defined (forward
//        references are recorded with their position and the text of their
//        line, so the error has full context even though the line is gone);
//     2. labels -> ids: if the labels are exactly 0..n-1 they are the ids,
//        otherwise ids are the labels' ranks in ascending order (an explicit
//        map; never creation order); every reference - control, inputs,
//        `^bN`/`bN`, cfg, dominance - goes through this one map;
//     3. blocks whose first line is not a start/region node (the seed's
//        style) get a synthesized block node with id n, n+1, ... in block
//        order: `start` for b0, `region` otherwise, whose control inputs are
//        the last node line of each predecessor block, predecessors taken in
//        block order and once per `->` occurrence;
//     4. foreign opcodes are renumbered into first-use order by node id, the
//        order every encoding produces, so the text round-trips exactly;
//     5. check_structure() runs before the function is yielded.
//   Labels and block numbers are looked up in an IndexMap: a dense vector for
//   keys up to about twice the number of entries (amortised O(1)), a hash map
//   above that, so a single huge label never allocates in proportion to it.
//
//   Writer. Each function is printed into one string (nodes outside blocks
//   first, in id order; then each block with its block node first, followed
//   by its `->`, `=>`, `~>` lines), written to the sink and flushed. It runs
//   check_structure() first so that it never indexes out of range.
//
// Departures from the seed (002) and its original parser, on purpose:
//   comments anywhere; literals are any JSON value (strings with spaces,
//   commas, `#`); merges of any number of predecessors; arguments strictly in
//   the order control, literals, inputs (an item out of order is an error,
//   not a guess); frontier is a flat list; the seed's `block bN {` spelling
//   is accepted as well as `bN {`. Two additions keep every structurally
//   valid function printable losslessly: `bN node iK {` names a block node
//   whose opcode is not start/region, and the body lines `cfg` / `dominance`
//   mark sections that have no blocks.
//
// Invariants relied on: structural validity of what the writer is given
// (checked); the opcode lexical class of valid_opcode_name(); Literal's
// to_json() for every literal kind (strings and integers are printed by fast
// paths that produce identical text). Strings and numbers are lexed by
// json_lex (shared with the JSON reader) on the line, RangeEnd::Line, and so
// are array and object literals (json_lex::read_nested): a number must then
// end at a byte that cannot continue a token; one that underflows is rounded
// to a subnormal or zero, as in the JSON reader.
#include "encoding/text_format.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/abi.h"
#include "encoding/decimal.h"
#include "ir/error.h"
#include "encoding/format.h"
#include "encoding/io.h"
#include "ir/ir.h"
#include "encoding/json_lex.h"
#include "ir/literal.h"
#include "ir/opcodes.h"
#include "x64/x64.h"

namespace pl {

namespace {

constexpr uint32_t kMaxIndex = 0xFFFFFFFEu;  // largest node label / block number
constexpr uint32_t kBlockRef = 0xFFFFFFFFu;  // placeholder for a `bN` reference
constexpr size_t kContextWidth = 160;        // longest context line in a diagnostic

// ============================================================================
// Lexical classes
// ============================================================================

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
// NAME identifiers: [A-Za-z_.$][A-Za-z0-9_.$]*
bool is_name_start(char c) { return is_alpha(c) || c == '_' || c == '.' || c == '$'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }
// OPCODE: [A-Za-z_.][A-Za-z0-9_.:-]*
bool is_op_start(char c) { return is_alpha(c) || c == '_' || c == '.'; }
bool is_op_char(char c) { return is_op_start(c) || is_digit(c) || c == ':' || c == '-'; }
// Level and type words: [A-Za-z0-9_-]+
bool is_word_char(char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '-'; }
// Characters that may continue a token (used to reject `12abc`, `truex`).
bool is_token_char(char c) { return is_name_char(c) || c == ':' || c == '-' || c == '+'; }

// Words of the grammar. The writer quotes a name equal to one of them, so
// that `data internal ...` and the like never need look-ahead to read.
constexpr std::string_view kKeywords[] = {
    "module", "file",     "extern", "function",  "data", "internal", "readonly", "size", "align", "init",
    "reloc",  "pipeline", "cfg",    "dominance", "node", "block",    "void",     "true", "false", "null",
    // symbol attributes (append_attrs)
    "weak", "visibility", "used", "section", "alias", "constructor", "destructor", "hint",
    "common", "tls", "tlsmodel"};

bool is_keyword(std::string_view s) {
  return std::find(std::begin(kKeywords), std::end(kKeywords), s) != std::end(kKeywords);
}

// A name the writer may print without quotes.
bool is_plain_name(std::string_view s) {
  if (s.empty() || !is_name_start(s[0])) return false;
  for (char c : s)
    if (!is_name_char(c)) return false;
  return !is_keyword(s);
}

// ============================================================================
// Writer helpers
// ============================================================================

void append_u64(std::string& out, uint64_t v) { append_decimal(out, v); }
void append_i64(std::string& out, int64_t v) { append_decimal(out, v); }

// ASCII without characters JSON escapes: printed between quotes as is, which
// is exactly what nlohmann::json::dump() prints for it.
bool needs_no_escape(std::string_view s) {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"' || c == '\\') return false;
  }
  return true;
}

// `s` as a JSON string literal, as nlohmann::json::dump() writes it. Invalid
// UTF-8 throws nlohmann::json::type_error unless `lenient` (then U+FFFD).
void append_json_string(std::string& out, std::string_view s, bool lenient) {
  if (needs_no_escape(s)) {
    out += '"';
    out += s;
    out += '"';
    return;
  }
  auto handler = lenient ? nlohmann::json::error_handler_t::replace : nlohmann::json::error_handler_t::strict;
  out += nlohmann::json(std::string(s)).dump(-1, ' ', false, handler);
}

// A name (function, data, extern, reloc symbol): bare if it is an identifier
// and not a keyword, otherwise quoted.
void append_name(std::string& out, std::string_view name, const Where& where) {
  if (is_plain_name(name)) {
    out += name;
    return;
  }
  try {
    append_json_string(out, name, false);
  } catch (const nlohmann::json::exception&) {
    throw FormatError(where, "name is not valid utf-8");
  }
}

void append_literal(std::string& out, const Literal& lit, bool lenient) {
  switch (lit.kind()) {
    case Literal::Kind::Int: append_i64(out, lit.as_int()); return;
    case Literal::Kind::String: append_json_string(out, lit.as_string(), lenient); return;
    case Literal::Kind::Float: out += float_spelling(lit.bits()); return;  // inf, nan(0x...) bare
    default: out += lit.to_json(); return;
  }
}

bool is_block_op(OpId op) { return op == Start || op == Region; }

// Node `id` as the writer prints it (no indentation, no newline). A string
// literal that is not UTF-8 throws FormatError unless `lenient`.
void append_node(std::string& out, const Function& fn, NodeId id, bool lenient) {
  const Node& n = fn.nodes[id];
  out += 'i';
  append_u64(out, id);
  out += " = ";
  out += fn.op_name(n.op);
  char sep = ' ';
  auto separate = [&] {
    if (sep == ',') out += ',';
    out += ' ';
    sep = ',';
  };
  for (NodeId c : n.control) {
    separate();
    out += "^i";
    append_u64(out, c);
  }
  for (const Literal& lit : n.literals) {
    separate();
    try {
      append_literal(out, lit, lenient);
    } catch (const nlohmann::json::exception&) {
      throw FormatError(Where::in(fn.name, node_name(id)), "string literal is not valid utf-8");
    }
  }
  for (NodeId in : n.inputs) {
    separate();
    out += 'i';
    append_u64(out, in);
  }
  if (!n.place.none()) {
    out += " in ";
    out += x64::place_name(n.place);
  }
  if (n.loc.valid()) {
    out += " @";
    append_u64(out, n.loc.file);
    out += ':';
    append_u64(out, n.loc.line);
    out += ':';
    append_u64(out, n.loc.col);
  }
}

// `(i32, ptr, ...) -> i32`. Types that the grammar cannot carry are refused.
void append_signature(std::string& out, const Signature& sig, const Where& where) {
  out += '(';
  for (size_t i = 0; i < sig.params.size(); ++i) {
    std::string problem = param_type_problem(sig.params[i], i);
    if (!problem.empty()) throw FormatError(where, "signature has an invalid parameter type: " + problem);
    if (i) out += ", ";
    out += sig.params[i];
  }
  if (sig.variadic) out += sig.params.empty() ? "..." : ", ...";
  out += ") -> ";
  if (sig.result != "void" && !is_value_type(sig.result))
    throw FormatError(where, "signature has unknown result type '" + sig.result + "'");
  out += sig.result;
}

void append_hex(std::string& out, std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (char c : bytes) {
    auto u = static_cast<unsigned char>(c);
    out += kDigits[u >> 4];
    out += kDigits[u & 15];
  }
}

// The symbol attributes that differ from the default, each ` WORD [VALUE]`
// (FORMAT.md section 6, `attrs`), in a fixed order.
void append_attrs(std::string& out, const SymbolAttrs& a, const Where& where) {
  if (a.weak) out += " weak";
  if (a.visibility != Visibility::Default) {
    out += " visibility ";
    out += visibility_name(a.visibility);
  }
  if (a.used) out += " used";
  if (a.common) out += " common";
  if (a.tls) out += " tls";
  if (a.tls_model != TlsModel::Auto) {
    out += " tlsmodel \"";
    out += tls_model_name(a.tls_model);
    out += '"';
  }
  if (!a.section.empty()) {
    out += " section ";
    try {
      append_json_string(out, a.section, false);
    } catch (const nlohmann::json::exception&) {
      throw FormatError(where, "section name is not valid utf-8");
    }
  }
  if (!a.alias.empty()) {
    out += " alias ";
    append_name(out, a.alias, where);
  }
  if (a.constructor != SymbolAttrs::kNone) {
    out += " constructor ";
    append_u64(out, static_cast<uint64_t>(a.constructor));
  }
  if (a.destructor != SymbolAttrs::kNone) {
    out += " destructor ";
    append_u64(out, static_cast<uint64_t>(a.destructor));
  }
  for (int b = 0; b < kNumHints; ++b) {
    if (!(a.hints & (1u << b))) continue;
    out += " hint ";
    out += hint_name(b);
  }
}

void append_data_item(std::string& out, const DataItem& d) {
  const Where where = Where::in("", "data '" + d.name + "'");
  out += "data ";
  if (d.linkage == Linkage::Internal) out += "internal ";
  if (d.readonly) out += "readonly ";
  append_name(out, d.name, where);
  out += " size ";
  append_u64(out, d.size);
  out += " align ";
  append_u64(out, d.align);
  if (!d.init.empty()) {
    out += " init x\"";
    append_hex(out, d.init);
    out += '"';
  }
  for (const Reloc& r : d.relocs) {
    out += " reloc ";
    append_u64(out, r.offset);
    out += ' ';
    append_name(out, r.symbol, where);
    if (r.addend < 0) {
      out += '-';
      append_u64(out, uint64_t{0} - static_cast<uint64_t>(r.addend));
    } else {
      out += '+';
      append_u64(out, static_cast<uint64_t>(r.addend));
    }
  }
  append_attrs(out, d.attrs, where);
  out += '\n';
}

void append_extern(std::string& out, const Extern& e) {
  const Where where = Where::in("", "extern '" + e.name + "'");
  out += e.kind == ExternKind::Function ? "extern function " : "extern data ";
  append_name(out, e.name, where);
  if (e.signature) {
    if (e.kind != ExternKind::Function) throw FormatError(where, "an extern data item cannot have a signature");
    append_signature(out, *e.signature, where);
  }
  append_attrs(out, e.attrs, where);
  out += '\n';
}

void append_file_line(std::string& out, size_t i, const std::string& name) {
  out += "file ";
  append_u64(out, i);
  out += ' ';
  try {
    append_json_string(out, name, false);
  } catch (const nlohmann::json::exception&) {
    throw FormatError(Where{}, "file name #" + std::to_string(i) + " is not valid utf-8");
  }
  out += '\n';
}

void append_header(std::string& out, const ModuleHeader& h) {
  out += "module ";
  out += level_name(h.level);
  out += '\n';
  for (size_t i = 0; i < h.files.size(); ++i) append_file_line(out, i, h.files[i]);
  for (const Extern& e : h.externs) append_extern(out, e);
  for (const DataItem& d : h.data) append_data_item(out, d);
  for (size_t i = 0; i < h.toplevel_asm.size(); ++i) {
    out += "asm ";
    try {
      append_json_string(out, h.toplevel_asm[i], false);
    } catch (const nlohmann::json::exception&) {
      throw FormatError(Where{}, "file-scope asm #" + std::to_string(i) + " is not valid utf-8");
    }
    out += '\n';
  }
  if (!h.debug.empty()) {
    out += "debug ";
    out += debug_to_json(h.debug);
    out += '\n';
  }
}

// `  bN -> bX, bY` style line: `indices` are block indexes.
void append_arrow(std::string& out, uint32_t block, std::string_view arrow, const std::vector<uint32_t>& indices) {
  out += "  b";
  append_u64(out, block);
  out += ' ';
  out += arrow;
  for (size_t i = 0; i < indices.size(); ++i) {
    out += i ? ", b" : " b";
    append_u64(out, indices[i]);
  }
  out += '\n';
}

class FunctionPrinter {
 public:
  FunctionPrinter(const Function& fn, std::string& out) : fn_(fn), out_(out) {}

  void print() {
    index_blocks();
    print_opener();
    if (!fn_.debug.empty()) {
      out_ += "  debug ";
      out_ += debug_to_json(fn_.debug);
      out_ += '\n';
    }
    if (fn_.cfg && fn_.cfg->blocks.empty()) out_ += "  cfg\n";
    if (fn_.dominance && fn_.dominance->blocks.empty()) out_ += "  dominance\n";
    for (NodeId id = 0; id < fn_.nodes.size(); ++id)
      if (!placed_[id]) print_node("  ", id);
    if (fn_.cfg)
      for (uint32_t b = 0; b < fn_.cfg->blocks.size(); ++b) print_block(b);
    out_ += "}\n";
  }

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  void index_blocks() {
    placed_.assign(fn_.nodes.size(), 0);
    block_of_.assign(fn_.nodes.size(), kNone);
    if (!fn_.cfg) return;
    const auto& blocks = fn_.cfg->blocks;
    for (uint32_t b = 0; b < blocks.size(); ++b) {
      block_of_[blocks[b].node] = b;
      placed_[blocks[b].node] = 1;
      for (NodeId id : blocks[b].nodes) placed_[id] = 1;
    }
    if (!fn_.dominance) return;
    children_.assign(blocks.size(), {});
    for (uint32_t b = 0; b < blocks.size(); ++b) {
      const auto& parent = fn_.dominance->blocks[b].parent;
      if (parent) children_[block_of_[*parent]].push_back(b);
    }
  }

  void print_opener() {
    if (fn_.linkage == Linkage::Internal) out_ += "internal ";
    out_ += "pipeline";
    const Where where = Where::in(fn_.name, "");
    if (!fn_.name.empty() || fn_.signature != Signature{} || !fn_.attrs.is_default()) {
      out_ += ' ';
      append_name(out_, fn_.name, where);
      append_signature(out_, fn_.signature, where);
    }
    append_attrs(out_, fn_.attrs, where);
    out_ += " {\n";
  }

  void print_node(std::string_view indent, NodeId id) {
    out_ += indent;
    append_node(out_, fn_, id, false);
    out_ += '\n';
  }

  std::vector<uint32_t> block_indexes(const std::vector<NodeId>& nodes) const {
    std::vector<uint32_t> out;
    out.reserve(nodes.size());
    for (NodeId id : nodes) out.push_back(block_of_[id]);
    return out;
  }

  void print_block(uint32_t b) {
    const Block& block = fn_.cfg->blocks[b];
    out_ += "  b";
    append_u64(out_, b);
    if (!is_block_op(fn_.nodes[block.node].op)) {
      out_ += " node i";
      append_u64(out_, block.node);
    }
    out_ += " {\n";
    print_node("    ", block.node);
    for (NodeId id : block.nodes) print_node("    ", id);
    out_ += "  }\n";
    if (!block.successors.empty()) append_arrow(out_, b, "->", block_indexes(block.successors));
    if (!fn_.dominance) return;
    append_arrow(out_, b, "=>", children_[b]);
    const auto& frontier = fn_.dominance->blocks[b].frontier;
    if (!frontier.empty()) append_arrow(out_, b, "~>", block_indexes(frontier));
  }

  const Function& fn_;
  std::string& out_;
  std::vector<char> placed_;                    // node is a block node or block member
  std::vector<uint32_t> block_of_;              // block node -> block index
  std::vector<std::vector<uint32_t>> children_; // dominator-tree children per block
};

class TextWriter final : public ModuleWriter {
 public:
  explicit TextWriter(ByteSink& sink) : sink_(sink) {}

  void begin(const ModuleHeader& header) override {
    files_.files = header.files;
    files_.debug = header.debug;
    std::string out;
    append_header(out, header);
    sink_.write(out);
    sink_.flush();
  }

  void function(const Function& fn) override {
    check_structure(files_, fn);
    out_.clear();
    out_ += '\n';
    FunctionPrinter(fn, out_).print();
    sink_.write(out_);
    sink_.flush();
  }

  // ---- Module pieces: its file, extern and data lines after a blank line ----
  void piece(const ModulePiece& p) override {
    if (p.empty()) return;
    out_.clear();
    out_ += '\n';
    for (const std::string& file : p.files) {
      append_file_line(out_, files_.files.size(), file);
      files_.files.push_back(file);
    }
    for (const Extern& e : p.externs) append_extern(out_, e);
    for (const DataItem& d : p.data) append_data_item(out_, d);
    sink_.write(out_);
  }

  void end() override { sink_.flush(); }

 private:
  ByteSink& sink_;
  ModuleHeader files_;  // only `files` and `debug` are kept: check_structure needs them
  std::string out_;
};

// ============================================================================
// Reader: lines and the lexer
// ============================================================================

// The offending line as diagnostic context: control characters shown as '?',
// long lines cut to a window around `pos`.
std::string context_text(std::string_view line, size_t pos) {
  size_t begin = 0;
  size_t end = line.size();
  if (line.size() > kContextWidth) {
    begin = pos > kContextWidth / 2 ? pos - kContextWidth / 2 : 0;
    begin = std::min(begin, line.size() - kContextWidth);
    end = begin + kContextWidth;
  }
  std::string out = begin > 0 ? "..." : "";
  for (size_t i = begin; i < end; ++i) {
    auto u = static_cast<unsigned char>(line[i]);
    if (u >= 0x80) {
      size_t len = json_lex::utf8_length(line, i);
      if (len == 0 || i + len > end) {
        out += '?';
      } else {
        out.append(line.substr(i, len));
        i += len - 1;
      }
      continue;
    }
    out += u == '\t' ? ' ' : (u < 0x20 || u == 0x7f) ? '?' : line[i];
  }
  if (end < line.size()) out += "...";
  return out;
}

// One line at a time from a ByteSource, never holding more than the current
// line plus what the source buffers.
class LineSource {
 public:
  explicit LineSource(ByteSource& src) : src_(src) {}

  // The next line without its '\n' (and a trailing '\r'); false at the end.
  // The view is valid until the next call.
  bool next(std::string_view& line) {
    size_t scanned = 0;
    for (;;) {
      std::string_view w = src_.window();
      const void* nl = scanned < w.size() ? std::memchr(w.data() + scanned, '\n', w.size() - scanned) : nullptr;
      if (nl) {
        size_t len = static_cast<size_t>(static_cast<const char*>(nl) - w.data());
        line = w.substr(0, len);
        src_.consume(len + 1);
        break;
      }
      scanned = w.size();
      if (!src_.fill()) {
        w = src_.window();
        if (w.empty()) return false;
        line = w;
        src_.consume(w.size());
        break;
      }
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (number_ < UINT32_MAX) ++number_;
    return true;
  }

  uint32_t number() const { return number_; }  // of the line last returned

 private:
  ByteSource& src_;
  uint32_t number_ = 0;
};

uint32_t column_of(size_t pos) { return pos >= UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(pos + 1); }

// Lexer over one line. Positions are byte offsets into the line; errors
// report them as 1-based columns.
class Cursor {
 public:
  Cursor(std::string_view text, uint32_t line) : text_(text), line_(line) {}

  std::string_view text() const { return text_; }
  uint32_t line() const { return line_; }
  size_t pos() const { return pos_; }
  char peek(size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  void advance(size_t n = 1) { pos_ = std::min(text_.size(), pos_ + n); }

  [[noreturn]] void fail_at(size_t pos, const std::string& message) const {
    throw FormatError(Where::at(line_, column_of(pos)), message, context_text(text_, pos));
  }
  [[noreturn]] void fail(const std::string& message) const { fail_at(pos_, message); }
  [[noreturn]] void fail_expected(std::string_view expected) {
    skip_space();
    fail("expected " + std::string(expected) + ", found " + found());
  }

  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  // End of line or start of a comment (after spaces).
  bool at_end() {
    skip_space();
    return pos_ == text_.size() || text_[pos_] == '#';
  }
  void expect_end(std::string_view expected) {
    if (!at_end()) fail_expected(expected);
  }

  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool accept(std::string_view s) {
    skip_space();
    if (text_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }
  void expect(char c, std::string_view expected) {
    if (!accept(c)) fail_expected(expected);
  }
  void expect(std::string_view s, std::string_view expected) {
    if (!accept(s)) fail_expected(expected);
  }

  // The run of letters at the cursor (after spaces), not consumed.
  std::string_view peek_word() {
    skip_space();
    size_t end = pos_;
    while (end < text_.size() && is_alpha(text_[end])) ++end;
    if (end < text_.size() && is_name_char(text_[end])) return {};  // longer identifier
    return text_.substr(pos_, end - pos_);
  }
  bool accept_word(std::string_view word) {
    if (peek_word() != word || word.empty()) return false;
    pos_ += word.size();
    return true;
  }
  void expect_word(std::string_view word) {
    if (!accept_word(word)) fail_expected("'" + std::string(word) + "'");
  }

  // What is at the cursor, for "expected X, found Y" messages.
  std::string found() const {
    if (pos_ >= text_.size()) return "end of line";
    char c = text_[pos_];
    if (c == '#') return "a comment";
    if (c == '"') return "a string";
    if (is_token_char(c)) {
      size_t end = pos_;
      while (end < text_.size() && end - pos_ < 32 && is_token_char(text_[end])) ++end;
      return "'" + std::string(text_.substr(pos_, end - pos_)) + "'";
    }
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
    static constexpr char kDigits[] = "0123456789abcdef";
    return std::string("byte 0x") + kDigits[u >> 4] + kDigits[u & 15];
  }

  // A run of word characters ([A-Za-z0-9_-]) at the cursor.
  std::string_view word() {
    skip_space();
    size_t start = pos_;
    while (pos_ < text_.size() && is_word_char(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // Unsigned decimal number no larger than `max`.
  uint64_t number(uint64_t max, std::string_view what) {
    skip_space();
    size_t start = pos_;
    if (!is_digit(peek())) fail_expected(what);
    uint64_t value = 0;
    bool overflow = false;
    while (is_digit(peek())) {
      unsigned d = static_cast<unsigned>(peek() - '0');
      if (value > (max - d) / 10) overflow = true;
      if (!overflow) value = value * 10 + d;
      ++pos_;
    }
    if (overflow)
      fail_at(start, "'" + std::string(text_.substr(start, pos_ - start)) + "' is too large for " + std::string(what) +
                         " (the limit is " + std::to_string(max) + ")");
    return value;
  }

  // `iN` / `bN` (prefix 'i' or 'b'), N <= kMaxIndex.
  uint32_t index(char prefix, std::string_view what) {
    skip_space();
    size_t start = pos_;
    if (peek() != prefix || !(is_digit(peek(1)) || peek(1) == '-')) fail_expected(what);
    ++pos_;
    if (peek() == '-') fail_at(start, "negative number in " + found_from(start) + " (expected " + std::string(what) + ")");
    uint64_t n = 0;
    bool overflow = false;
    while (is_digit(peek())) {
      n = n * 10 + static_cast<unsigned>(peek() - '0');
      if (n > kMaxIndex) overflow = true, n = kMaxIndex + uint64_t{1};
      ++pos_;
    }
    if (overflow)
      fail_at(start, "'" + std::string(text_.substr(start, pos_ - start)) + "' is too large (the limit is " +
                         std::string(1, prefix) + std::to_string(kMaxIndex) + ")");
    if (is_name_char(peek())) fail_at(start, "expected " + std::string(what) + ", found " + found_from(start));
    return static_cast<uint32_t>(n);
  }

  // NAME: an identifier or a JSON string.
  std::string name(std::string_view what) {
    skip_space();
    if (peek() == '"') return string_literal();
    if (!is_name_start(peek())) fail_expected(what);
    size_t start = pos_;
    while (is_name_char(peek())) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // OPCODE token; empty if none.
  std::string_view opcode() {
    skip_space();
    size_t start = pos_;
    if (!is_op_start(peek())) return {};
    while (is_op_char(peek())) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  std::string string_literal();
  Literal literal();
  Signature signature();
  std::string param_type(size_t index);
  std::string hex_bytes();

 private:
  std::string found_from(size_t start) const {
    size_t end = start;
    while (end < text_.size() && end - start < 32 && is_token_char(text_[end])) ++end;
    return "'" + std::string(text_.substr(start, std::max<size_t>(end - start, 1))) + "'";
  }
  Literal number_literal();
  Literal keyword_literal();
  std::optional<Literal> special_float_literal();
  Literal structured_literal();

  std::string_view text_;
  uint32_t line_;
  size_t pos_ = 0;
};

// A JSON string literal (cursor at the opening quote), decoded (json_lex).
std::string Cursor::string_literal() {
  skip_space();
  const size_t start = pos_;
  ++pos_;
  std::string out;
  json_lex::Error err;
  if (json_lex::read_string(text_, pos_, json_lex::RangeEnd::Line, out, err)) return out;
  switch (err.code) {
    case json_lex::Error::Code::Truncated: fail_at(start, "unterminated string (missing closing '\"')");
    case json_lex::Error::Code::Hex:
      pos_ = err.at;
      fail("expected 4 hex digits after \\u, found " + found());
    default: fail_at(err.at, err.message);
  }
}

// A JSON number: integers exact (int64, or uint64 above INT64_MAX), numbers
// with a fraction or exponent as finite doubles (an underflow rounds, as in
// the JSON reader).
Literal Cursor::number_literal() {
  const size_t start = pos_;
  if (std::optional<Literal> f = special_float_literal()) return *f;
  json_lex::NumberToken token;
  json_lex::Number n;
  json_lex::Error err;
  if (!json_lex::scan_number(text_, pos_, json_lex::RangeEnd::Line, token, err)) fail_at(err.at, err.message);
  if (is_token_char(peek()) || peek() == '.') fail_at(start, "invalid number " + found_from(start));
  if (!json_lex::number_value(text_, token, n, err)) fail_at(err.at, err.message);
  switch (n.kind) {
    case json_lex::Number::Kind::Int: return Literal::integer(n.i);
    case json_lex::Number::Kind::UInt: return Literal::unsigned_integer(n.u);
    case json_lex::Number::Kind::Float: break;
  }
  return Literal::floating(n.d);  // an underflow is rounded (json_lex.h)
}

// A floating literal JSON has no number for: `inf`, `nan`, `nan(0xM)`, each
// maybe after `-`, or a C99 hex float (`0x1.8p+1`); nullopt (cursor
// unmoved) if the text here is none of these.
std::optional<Literal> Cursor::special_float_literal() {
  const size_t start = pos_;
  size_t p = start + (peek() == '-' ? 1 : 0);
  std::string_view rest = text_.substr(p);
  bool hex = rest.starts_with("0x") || rest.starts_with("0X");
  if (!hex && !rest.starts_with("inf") && !rest.starts_with("nan")) return std::nullopt;
  while (p < text_.size() && (is_token_char(text_[p]) || text_[p] == '.' || text_[p] == '+' || text_[p] == '-' ||
                              (!hex && (text_[p] == '(' || text_[p] == ')'))))
    ++p;
  std::string_view w = text_.substr(start, p - start);
  std::optional<uint64_t> bits = parse_float_spelling(w);
  if (!bits)
    fail_at(start, "invalid floating-point literal '" + std::string(w) +
                       "' (expected inf, nan, nan(0xM), maybe after '-', or a hex float such as 0x1.8p+1)");
  pos_ = p;
  return Literal::float_bits(*bits);
}

Literal Cursor::keyword_literal() {
  const size_t start = pos_;
  if (std::optional<Literal> f = special_float_literal()) return *f;
  while (is_token_char(peek())) ++pos_;
  std::string_view w = text_.substr(start, pos_ - start);
  if (w == "true") return Literal::boolean(true);
  if (w == "false") return Literal::boolean(false);
  if (w == "null") return Literal::null();
  fail_at(start, "expected a literal, found " + found_from(start));
}

// An array or object literal, read by json_lex::read_nested on the line (a
// `#` outside a string starts a comment, which ends it): its canonical text,
// exactly as the JSON reader reads it. Errors are at the offending byte; a
// literal left open is reported at its innermost construct still open.
Literal Cursor::structured_literal() {
  size_t pos = pos_;
  std::string out;
  json_lex::Error err;
  if (json_lex::read_nested(text_, pos, json_lex::RangeEnd::Line, out, err, '#')) {
    const size_t start = pos_;
    pos_ = pos;
    try {
      return literal_from_json_text(out);  // {"float":"inf"} is a Float
    } catch (const std::invalid_argument& e) {
      fail_at(start, e.what());
    }
  }
  if (err.code != json_lex::Error::Code::Truncated) fail_at(err.at, err.message);
  switch (text_[err.unit]) {
    case '"': fail_at(err.unit, "unterminated string (missing closing '\"')");
    case '[': fail_at(err.unit, "unterminated array literal (missing ']')");
    default: fail_at(err.unit, "unterminated object literal (missing '}')");
  }
}

Literal Cursor::literal() {
  skip_space();
  char c = peek();
  if (c == '"') return Literal::string(string_literal());
  if (c == '-' || is_digit(c)) return number_literal();
  if (c == '[' || c == '{') return structured_literal();
  return keyword_literal();
}

// The rest of a `debug` line: one JSON object, the section (debug_info.h).
template <typename Section, typename Parse>
Section debug_section(Cursor& c, Parse parse) {
  c.skip_space();
  const size_t at = c.pos();
  if (c.peek() != '{') c.fail_expected("a JSON object after 'debug'");
  Literal lit = c.literal();
  c.expect_end("end of line after the debug section");
  try {
    return parse(lit.as_json());
  } catch (const std::runtime_error& e) {
    c.fail_at(at, e.what());
  }
}

// SIG: `(TYPE, ..., TYPE[, ...]) -> TYPE`.
Signature Cursor::signature() {
  Signature sig;
  expect('(', "'(' to start a signature");
  if (!accept(')')) {
    for (;;) {
      if (accept("...")) {
        sig.variadic = true;
        expect(')', "')' after '...'");
        break;
      }
      sig.params.push_back(param_type(sig.params.size()));
      if (accept(',')) continue;
      expect(')', "',' or ')' in the parameter list");
      break;
    }
  }
  expect("->", "'->' and the result type");
  size_t at = (skip_space(), pos_);
  std::string_view result = word();
  if (result.empty()) fail_expected("a result type");
  if (result != "void" && !is_value_type(result))
    fail_at(at, "unknown type '" + std::string(result) + "' (expected void, i1, i8, i16, i32, i64, ptr, f32 or f64)");
  sig.result = std::string(result);
  return sig;
}

// A parameter type: `TYPE [ATTRIBUTE]`, the attribute `signext`, `zeroext`,
// `byval(SIZE,ALIGN[,CLASSES])` or `sret(SIZE,ALIGN[,CLASSES])` (abi.h); blanks may separate the
// tokens, the result is the canonical string.
std::string Cursor::param_type(size_t index) {
  size_t at = (skip_space(), pos_);
  std::string_view value = word();
  if (value.empty()) fail_expected("a parameter type");
  if (!is_value_type(value))
    fail_at(at, value == "void" ? "'void' is only valid as a result type"
                                : "unknown type '" + std::string(value) + "' (expected i1, i8, i16, i32, i64, ptr, f32 or f64)");
  ParamType type{std::string(value)};
  skip_space();
  if (peek() == ',' || peek() == ')') return type.value_type;
  size_t attr_at = pos_;
  std::string_view attr = word();
  if (attr.empty()) fail_expected("',', ')' or an ABI attribute (signext, zeroext, byval, sret)");
  for (ParamAttr a : {ParamAttr::SignExt, ParamAttr::ZeroExt, ParamAttr::ByVal, ParamAttr::SRet})
    if (attr == param_attr_name(a)) type.attr = a;
  if (type.attr == ParamAttr::None)
    fail_at(attr_at, "unknown ABI attribute '" + std::string(attr) + "' (expected signext, zeroext, byval or sret)");
  if (type.attr == ParamAttr::ByVal || type.attr == ParamAttr::SRet) {
    expect('(', "'(' and the size and alignment: " + std::string(attr) + "(SIZE,ALIGN)");
    type.size = number(UINT64_MAX, "the size");
    expect(',', "',' and the alignment");
    type.align = number(UINT32_MAX, "the alignment");
    std::string classes;
    if (accept(',')) {
      skip_space();
      classes = std::string(word());
      if (classes.empty()) fail_expected("the eightbyte classes (m, or i, s and n per eightbyte)");
    }
    expect(')', "')' after the alignment");
    // Checked (and made canonical) by the parser of the one string.
    std::string text = param_type_string(type);
    if (!classes.empty()) text.insert(text.size() - 1, "," + classes);
    std::string problem = param_type_problem(text, index);
    if (!problem.empty()) fail_at(at, "invalid parameter type " + problem);
    return param_type_string(*parse_param_type(text));
  }
  std::string text = param_type_string(type);
  std::string problem = param_type_problem(text, index);
  if (!problem.empty()) fail_at(at, "invalid parameter type " + problem);
  return text;
}

// `x"HEX"` -> bytes.
std::string Cursor::hex_bytes() {
  skip_space();
  if (peek() != 'x' || peek(1) != '"') fail_expected("x\"HEX\" bytes");
  const size_t start = pos_;
  pos_ += 2;
  std::string out;
  for (;;) {
    if (pos_ >= text_.size()) fail_at(start, "unterminated init bytes (missing closing '\"')");
    if (peek() == '"') break;
    if (!is_hex(peek())) fail("expected a hex digit in init bytes, found " + found());
    if (!is_hex(peek(1))) {
      if (peek(1) == '"') fail("odd number of hex digits in init bytes");
      advance();
      fail("expected a hex digit in init bytes, found " + found());
    }
    auto nibble = [](char c) { return is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10; };
    out += static_cast<char>(nibble(peek()) * 16 + nibble(peek(1)));
    pos_ += 2;
  }
  ++pos_;
  return out;
}

// ============================================================================
// Reader: one function
// ============================================================================

// uint32 -> uint32 map for keys written in the input (labels, block
// numbers): a dense vector for keys up to about twice the number of entries,
// a hash map above, so one huge key (`i4000000000`) allocates nothing big and
// the usual dense numbering costs a vector index.
class IndexMap {
 public:
  std::optional<uint32_t> find(uint32_t key) const {
    if (key < dense_.size() && dense_[key]) return dense_[key] - 1;
    if (!sparse_.empty()) {
      auto it = sparse_.find(key);
      if (it != sparse_.end()) return it->second;
    }
    return std::nullopt;
  }

  // False (and no change) if `key` is already present. `value` < 2^32-1.
  bool insert(uint32_t key, uint32_t value) {
    if (find(key)) return false;
    ++count_;
    const uint64_t limit = 2 * uint64_t{count_} + 1024;
    if (key >= dense_.size() && key < limit)
      dense_.resize(std::min<uint64_t>(limit, std::max<uint64_t>(uint64_t{key} + 1, 2 * uint64_t{dense_.size()})));
    if (key < dense_.size())
      dense_[key] = value + 1;
    else
      sparse_.emplace(key, value);
    return true;
  }

 private:
  std::vector<uint32_t> dense_;  // key -> value + 1; 0 = absent
  std::unordered_map<uint32_t, uint32_t> sparse_;
  uint32_t count_ = 0;
};

// Where a reference was written; `text_at`/`text_len` locate its line's text
// in FunctionParser::ref_text_.
struct RefPos {
  uint32_t line = 0;
  size_t pos = 0;
  size_t text_at = 0;
  size_t text_len = 0;
};

struct BlockDraft {
  std::optional<uint32_t> named_node;  // from `bN node iK {`
  int64_t node = -1;                   // parse index of the block node; -1 = synthesize
  std::vector<uint32_t> members;       // parse indexes, in line order
  int64_t last = -1;                   // parse index of the last node line
  bool has_lines = false;
};

// A `bN -> ...`, `bN => ...` or `bN ~> ...` line.
enum Arrow : uint8_t { kSuccessors, kChildren, kFrontier };

struct ArrowSet {
  std::vector<uint32_t> targets[3];  // indexed by Arrow; block numbers
  uint8_t seen = 0;                  // bit per Arrow
};

// A reference to a label or block number not defined when it was read.
struct PendingRef {
  uint32_t key;  // label or block number
  RefPos at;
};

// A `bN` written as a node's control input or input, patched at the end.
struct BlockUse {
  uint32_t node;   // parse index
  bool control;    // in control (else inputs)
  uint32_t slot;   // index in that vector
  uint32_t block;
};

// The symbol attributes at the end of a data, extern or pipeline line:
// `weak`, `visibility V`, `used`, `common`, `tls`, `tlsmodel "M"`,
// `section "S"`, `alias NAME`,
// `constructor N`, `destructor N`, `hint H`, each at most once (a hint once
// per name), in any order.
void read_attrs(Cursor& c, SymbolAttrs& a) {
  uint32_t seen = 0;
  auto once = [&](int bit, std::string_view word) {
    if (seen & (1u << bit)) c.fail("attribute '" + std::string(word) + "' given twice");
    seen |= 1u << bit;
  };
  for (;;) {
    std::string_view w = c.peek_word();
    if (w == "weak") {
      once(0, w), c.accept_word(w), a.weak = true;
    } else if (w == "visibility") {
      once(1, w), c.accept_word(w);
      std::string v = c.name("a visibility (default, hidden, protected, internal)");
      auto vis = parse_visibility(v);
      if (!vis) c.fail("unknown visibility '" + v + "' (expected default, hidden, protected or internal)");
      a.visibility = *vis;
    } else if (w == "used") {
      once(2, w), c.accept_word(w), a.used = true;
    } else if (w == "common") {
      once(7, w), c.accept_word(w), a.common = true;
    } else if (w == "tls") {
      once(8, w), c.accept_word(w), a.tls = true;
    } else if (w == "tlsmodel") {
      once(9, w), c.accept_word(w);
      c.skip_space();
      if (c.peek() != '"') c.fail_expected("a quoted tls model (\"initial-exec\" ...)");
      std::string m = c.string_literal();
      auto model = parse_tls_model(m);
      if (!model || *model == TlsModel::Auto)
        c.fail("unknown tls model '" + m + "' (expected global-dynamic, local-dynamic, initial-exec or local-exec)");
      a.tls_model = *model;
    } else if (w == "section") {
      once(3, w), c.accept_word(w);
      c.skip_space();
      if (c.peek() != '"') c.fail_expected("a quoted section name");
      a.section = c.string_literal();
    } else if (w == "alias") {
      once(4, w), c.accept_word(w);
      a.alias = c.name("the alias's target name");
    } else if (w == "constructor") {
      once(5, w), c.accept_word(w);
      a.constructor = static_cast<int32_t>(c.number(65535, "a constructor priority (0 to 65535)"));
    } else if (w == "destructor") {
      once(6, w), c.accept_word(w);
      a.destructor = static_cast<int32_t>(c.number(65535, "a destructor priority (0 to 65535)"));
    } else if (w == "hint") {
      c.accept_word(w);
      std::string h = c.name("a function hint");
      auto bit = parse_hint(h);
      if (!bit) c.fail("unknown function hint '" + h + "'");
      if (a.hints & *bit) c.fail("hint '" + h + "' given twice");
      a.hints |= *bit;
    } else {
      return;
    }
  }
}

class FunctionParser {
 public:
  FunctionParser(const ModuleHeader& header, Function& fn) : header_(header), fn_(fn) {}

  // `[internal] pipeline [NAME [SIG]] {`
  void opener(Cursor& c) {
    opener_text_ = std::string(c.text());
    opener_line_ = c.line();
    c.skip_space();
    opener_pos_ = c.pos();
    if (c.accept_word("internal")) fn_.linkage = Linkage::Internal;
    c.expect_word("pipeline");
    c.skip_space();
    if (c.peek() != '{') {
      fn_.name = c.name("a pipeline name or '{'");
      c.skip_space();
      if (c.peek() == '(') fn_.signature = c.signature();
      read_attrs(c, fn_.attrs);
    }
    c.expect('{', "'{' to open the pipeline");
    c.expect_end("end of line after '{'");
  }

  // One non-blank body line; true when it was the pipeline's closing '}'.
  bool body_line(Cursor& c) {
    c.skip_space();
    char ch = c.peek();
    if (ch == '}') return close_brace(c);
    if (ch == 'i' && (is_digit(c.peek(1)) || c.peek(1) == '-')) {
      node_line(c);
      return false;
    }
    if (ch == 'b' && (is_digit(c.peek(1)) || c.peek(1) == '-')) {
      block_line(c);
      return false;
    }
    size_t at = c.pos();
    std::string_view w = c.peek_word();
    if (w == "block") {
      c.accept_word("block");
      block_line(c);
      return false;
    }
    if (w == "debug") {
      c.accept_word(w);
      if (!fn_.debug.empty()) c.fail_at(at, "a second 'debug' line in this pipeline");
      fn_.debug = debug_section<FunctionDebug>(c, function_debug_from_json);
      return false;
    }
    if (w == "cfg" || w == "dominance") {
      c.accept_word(w);
      c.expect_end("end of line after '" + std::string(w) + "'");
      if (w == "cfg") {
        cfg_declared_ = true;
      } else if (!dom_declared_) {
        dom_declared_ = true;
        dom_pos_ = remember(c, at);
      }
      return false;
    }
    if (w == "pipeline" || w == "internal")
      c.fail_at(at, "a new pipeline starts before " + (fn_.name.empty() ? "this one" : "'" + fn_.name + "'") +
                        " is closed (missing '}')");
    if (w == "module" || w == "file" || w == "extern" || w == "data" || w == "asm")
      c.fail_at(at, "'" + std::string(w) + "' header line inside a pipeline (header lines come before the first pipeline)");
    c.fail_expected("a node line 'iN = ...', a block 'bN {', an arrow line 'bN -> ...' or '}'");
  }

  // End of input before the closing brace.
  [[noreturn]] void fail_unclosed() const {
    if (open_block_)
      throw FormatError(Where::at(block_line_, column_of(block_pos_)),
                        "block b" + std::to_string(blocks_.size() - 1) + " is not closed (missing '}' before the end of input)",
                        context_text(block_text_, block_pos_));
    throw FormatError(Where::at(opener_line_, column_of(opener_pos_)),
                      "pipeline is not closed (missing '}' before the end of input)",
                      context_text(opener_text_, opener_pos_));
  }

  // Resolves references and fills the Function (see the file comment).
  void finish() {
    check_pending();
    std::vector<NodeId> id_of = assign_ids();
    std::vector<NodeId> block_node = assign_block_nodes(id_of);
    resolve_references(id_of, block_node);
    place_nodes(id_of);
    synthesize_block_nodes(id_of, block_node);
    build_cfg(id_of, block_node);
    build_dominance(block_node);
    order_foreign_ops();
    check_structure(header_, fn_);
  }

 private:
  // ---- lines ----------------------------------------------------------------

  bool close_brace(Cursor& c) {
    size_t at = c.pos();
    c.advance();
    c.expect_end("end of line after '}'");
    if (!open_block_) return true;
    const BlockDraft& b = blocks_.back();
    if (b.named_node && !b.has_lines)
      c.fail_at(at, "block b" + std::to_string(blocks_.size() - 1) + " names i" + std::to_string(*b.named_node) +
                        " as its node but has no node lines");
    open_block_ = false;
    return false;
  }

  // `bN {`, `bN node iK {`, or an arrow line `bN -> ...`.
  void block_line(Cursor& c) {
    c.skip_space();
    const size_t at = c.pos();
    const uint32_t number = c.index('b', "a block bN");
    c.skip_space();
    if (c.peek() == '{' || c.peek_word() == "node") {
      std::optional<uint32_t> named;
      if (c.accept_word("node")) named = c.index('i', "a node label iN after 'node'");
      c.expect('{', "'{' to open the block");
      c.expect_end("end of line after '{'");
      open_block(c, at, number, named);
      return;
    }
    if (c.accept("->")) return arrow_line(c, at, number, kSuccessors);
    if (c.accept("=>")) return arrow_line(c, at, number, kChildren);
    if (c.accept("~>")) return arrow_line(c, at, number, kFrontier);
    c.fail_expected("'{', 'node', '->', '=>' or '~>' after b" + std::to_string(number));
  }

  void open_block(Cursor& c, size_t at, uint32_t number, std::optional<uint32_t> named) {
    if (open_block_)
      c.fail_at(at, "block b" + std::to_string(number) + " starts inside block b" + std::to_string(blocks_.size() - 1) +
                        " (missing '}')");
    if (number != blocks_.size())
      c.fail_at(at, "expected block b" + std::to_string(blocks_.size()) + ", found b" + std::to_string(number) +
                        " (blocks are numbered 0, 1, 2, ... in order)");
    blocks_.emplace_back();
    blocks_.back().named_node = named;
    open_block_ = true;
    block_text_.assign(c.text());
    block_line_ = c.line();
    block_pos_ = at;
  }

  void arrow_line(Cursor& c, size_t at, uint32_t from, Arrow kind) {
    static constexpr const char* kArrowText[] = {"->", "=>", "~>"};
    note_block(c, at, from);
    ArrowSet& set = arrow_set(from);
    const auto bit = static_cast<uint8_t>(1u << kind);
    if (set.seen & bit)
      c.fail_at(at, "second 'b" + std::to_string(from) + " " + kArrowText[kind] + "' line (one per block)");
    set.seen |= bit;
    if (kind != kSuccessors) has_dominance_ = true;
    std::vector<uint32_t>& targets = set.targets[kind];
    if (c.at_end()) return;
    for (;;) {
      c.skip_space();
      const size_t target_at = c.pos();
      const uint32_t target = c.index('b', "a block bN");
      note_block(c, target_at, target);
      if (kind == kChildren) {
        if (!parent_of_.insert(target, from))
          c.fail_at(target_at, "b" + std::to_string(target) + " is already a child of b" +
                                   std::to_string(*parent_of_.find(target)) + " (a block has one immediate dominator)");
      }
      targets.push_back(target);
      if (!c.accept(',')) break;
    }
    c.expect_end("',' or end of line");
  }

  // `iN = OPCODE [ARGS] [@FILE:LINE:COL]`
  void node_line(Cursor& c) {
    c.skip_space();
    const size_t at = c.pos();
    const uint32_t label = c.index('i', "a node label iN");
    if (nodes_.size() >= kMaxIndex) c.fail_at(at, "too many nodes in one pipeline");
    const auto p = static_cast<uint32_t>(nodes_.size());
    if (!labels_.insert(label, p)) c.fail_at(at, "duplicate node label i" + std::to_string(label));
    max_label_ = std::max(max_label_, label);
    c.expect('=', "'=' after i" + std::to_string(label));
    c.skip_space();
    const size_t op_at = c.pos();
    std::string_view op = c.opcode();
    if (op.empty()) c.fail_expected("an opcode after '='");
    if (!valid_opcode_name(op))
      c.fail_at(op_at, "invalid opcode name '" + std::string(op) + "' (a ':' must separate a prefix from a name)");
    Node node;
    try {
      node.op = fn_.intern_op(op);
    } catch (const FormatError&) {
      c.fail_at(op_at, "too many distinct opcodes in one pipeline");
    }
    if (!c.at_end() && c.peek() != '@' && c.peek_word() != "in") arguments(c, p, node);
    if (c.accept_word("in")) node.place = place(c);
    if (c.accept('@')) node.loc = location(c);
    c.expect_end("',' or end of line");
    nodes_.push_back(std::move(node));
    labels_of_.push_back(label);
    place(c, at, p, label);
  }

  enum Phase { kControlPhase, kLiteralPhase, kInputPhase };

  // ARGS: control refs, then literals, then input refs, comma-separated.
  void arguments(Cursor& c, uint32_t p, Node& node) {
    static constexpr const char* kOrder = " (the order is: ^control, literals, inputs)";
    Phase phase = kControlPhase;
    for (;;) {
      c.skip_space();
      const char ch = c.peek();
      const bool is_ref = (ch == 'i' || ch == 'b') && (is_digit(c.peek(1)) || c.peek(1) == '-');
      if (ch == '^') {
        if (phase != kControlPhase)
          c.fail(std::string(phase == kLiteralPhase ? "control after literal" : "control after input") + kOrder);
        c.advance();
        reference(c, p, node.control, true);
      } else if (is_ref) {
        phase = kInputPhase;
        reference(c, p, node.inputs, false);
      } else if (ch == '"' || ch == '-' || ch == '[' || ch == '{' || is_digit(ch) || is_alpha(ch)) {
        if (phase == kInputPhase) c.fail(std::string("literal after input") + kOrder);
        phase = kLiteralPhase;
        node.literals.push_back(c.literal());
      } else {
        c.fail_expected("a ^control, a literal or an input iN");
      }
      if (!c.accept(',')) return;
      if (c.at_end() || c.peek() == '@' || c.peek_word() == "in") c.fail_expected("an argument after ','");
    }
  }

  // `iN` or `bN` (cursor at it) appended to `refs` of node `p`.
  template <typename IdList>  // the node's control or input list
  void reference(Cursor& c, uint32_t p, IdList& refs, bool control) {
    c.skip_space();
    const size_t at = c.pos();
    if (c.peek() == 'b') {
      const uint32_t block = c.index('b', "a block bN");
      note_block(c, at, block);
      block_uses_.push_back({p, control, static_cast<uint32_t>(refs.size()), block});
      refs.push_back(kBlockRef);
      return;
    }
    const uint32_t label = c.index('i', control ? "a control input ^iN or ^bN" : "an input iN or bN");
    if (!labels_.find(label)) pending_labels_.push_back({label, remember(c, at)});
    refs.push_back(label);
  }

  // A place after `in`: a register name or `sN` (ra-x64; x64.h place_name).
  Place place(Cursor& c) {
    c.skip_space();
    const size_t at = c.pos();
    std::string_view name = c.word();
    std::optional<Place> place = x64::parse_place(name);
    if (!place) {
      if (name.empty()) c.fail_expected("a place (a register such as rax, or a spill slot sN) after 'in'");
      c.fail_at(at, "unknown place '" + std::string(name) + "' (a register such as rax, or a spill slot sN)");
    }
    return *place;
  }

  // `@FILE:LINE:COL` (cursor after '@').
  Loc location(Cursor& c) {
    const size_t at = c.pos();
    if (!is_digit(c.peek())) c.fail_expected("a location FILE:LINE:COL after '@'");
    Loc loc;
    loc.file = static_cast<uint32_t>(c.number(UINT32_MAX, "a file number"));
    if (c.peek() != ':') c.fail_expected("':' and the line number");
    c.advance();
    if (!is_digit(c.peek())) c.fail_expected("a line number");
    loc.line = static_cast<uint32_t>(c.number(UINT32_MAX, "a line number"));
    if (c.peek() != ':') c.fail_expected("':' and the column number");
    c.advance();
    if (!is_digit(c.peek())) c.fail_expected("a column number");
    loc.col = static_cast<uint32_t>(c.number(UINT32_MAX, "a column number"));
    if (loc.line == 0) c.fail_at(at, "location line must be at least 1");
    if (loc.file >= header_.files.size())
      c.fail_at(at, "location names file " + std::to_string(loc.file) + ", but the module lists " +
                        std::to_string(header_.files.size()) + " files");
    return loc;
  }

  // Puts parse index `p` into the open block, if any.
  void place(Cursor& c, size_t at, uint32_t p, uint32_t label) {
    if (!open_block_) return;
    BlockDraft& b = blocks_.back();
    if (!b.has_lines) {
      b.has_lines = true;
      if (b.named_node) {
        if (*b.named_node != label)
          c.fail_at(at, "block b" + std::to_string(blocks_.size() - 1) + " names i" + std::to_string(*b.named_node) +
                            " as its node, so its first line must define it (found i" + std::to_string(label) + ")");
        b.node = p;
      } else if (is_block_op(nodes_[p].op)) {
        b.node = p;
      } else {
        b.members.push_back(p);
      }
    } else {
      b.members.push_back(p);
    }
    b.last = p;
  }

  // ---- references that may point forward -------------------------------------

  RefPos remember(const Cursor& c, size_t pos) {
    if (remembered_line_ != c.line() || ref_text_.empty()) {
      remembered_at_ = ref_text_.size();
      ref_text_.append(c.text());
      remembered_len_ = c.text().size();
      remembered_line_ = c.line();
    }
    return {c.line(), pos, remembered_at_, remembered_len_};
  }

  void note_block(const Cursor& c, size_t at, uint32_t block) {
    if (block < blocks_.size()) return;
    pending_blocks_.push_back({block, remember(c, at)});
  }

  [[noreturn]] void fail_ref(const RefPos& r, const std::string& message) const {
    std::string_view text = std::string_view(ref_text_).substr(r.text_at, r.text_len);
    throw FormatError(Where::at(r.line, column_of(r.pos)), message, context_text(text, r.pos));
  }

  // Pending references are in input order, so the first bad one is the
  // earliest.
  void check_pending() const {
    for (const PendingRef& ref : pending_labels_)
      if (!labels_.find(ref.key)) fail_ref(ref.at, "undefined node i" + std::to_string(ref.key));
    for (const PendingRef& ref : pending_blocks_)
      if (ref.key >= blocks_.size())
        fail_ref(ref.at, "undefined block b" + std::to_string(ref.key) + " (the pipeline has " +
                             std::to_string(blocks_.size()) + " blocks)");
    if (dom_declared_ && blocks_.empty() && !cfg_declared_)
      fail_ref(dom_pos_, "a 'dominance' line needs a cfg (block sections or a 'cfg' line)");
  }

  // ---- resolution ------------------------------------------------------------

  // Parse index -> node id: the labels themselves when they are exactly
  // 0..n-1, otherwise their ranks in ascending order.
  std::vector<NodeId> assign_ids() {
    const auto n = static_cast<uint32_t>(nodes_.size());
    std::vector<NodeId> id_of(n);
    identity_ = n == 0 || max_label_ == n - 1;  // n distinct labels, all < n
    if (identity_) {
      for (uint32_t p = 0; p < n; ++p) id_of[p] = labels_of_[p];
      return id_of;
    }
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return labels_of_[a] < labels_of_[b]; });
    for (uint32_t rank = 0; rank < n; ++rank) id_of[order[rank]] = rank;
    return id_of;
  }

  // Block index -> block node id; synthesized ones after all labelled nodes.
  std::vector<NodeId> assign_block_nodes(const std::vector<NodeId>& id_of) {
    std::vector<NodeId> block_node(blocks_.size());
    uint64_t next = nodes_.size();
    for (size_t b = 0; b < blocks_.size(); ++b) {
      if (blocks_[b].node >= 0) {
        block_node[b] = id_of[static_cast<size_t>(blocks_[b].node)];
      } else {
        if (next >= kBlockRef) throw FormatError(Where::in(fn_.name, block_name(static_cast<uint32_t>(b))), "too many nodes");
        block_node[b] = static_cast<NodeId>(next++);
        ++synthesized_;
      }
    }
    return block_node;
  }

  // Moves the parsed nodes to their ids (wholesale when already in order).
  void place_nodes(const std::vector<NodeId>& id_of) {
    const size_t n = nodes_.size();
    bool in_order = identity_;
    for (size_t p = 0; p < n && in_order; ++p) in_order = id_of[p] == p;
    if (in_order) {
      fn_.nodes = std::move(nodes_);
    } else {
      fn_.nodes.resize(n);
      for (size_t p = 0; p < n; ++p) fn_.nodes[id_of[p]] = std::move(nodes_[p]);
    }
    fn_.nodes.resize(n + synthesized_);
  }

  NodeId resolve_label(uint32_t label, const std::vector<NodeId>& id_of) const {
    return identity_ ? label : id_of[*labels_.find(label)];
  }

  void resolve_references(const std::vector<NodeId>& id_of, const std::vector<NodeId>& block_node) {
    if (!identity_) {
      for (Node& node : nodes_) {
        for (NodeId& ref : node.control)
          if (ref != kBlockRef) ref = resolve_label(ref, id_of);
        for (NodeId& ref : node.inputs)
          if (ref != kBlockRef) ref = resolve_label(ref, id_of);
      }
    }
    for (const BlockUse& use : block_uses_) {
      Node& node = nodes_[use.node];
      NodeId& ref = use.control ? node.control[use.slot] : node.inputs[use.slot];
      ref = block_node[use.block];
    }
  }

  ArrowSet& arrow_set(uint32_t block) {
    if (auto index = arrow_index_.find(block)) return arrow_sets_[*index];
    arrow_index_.insert(block, static_cast<uint32_t>(arrow_sets_.size()));
    return arrow_sets_.emplace_back();
  }

  const std::vector<uint32_t>& targets(uint32_t block, Arrow kind) const {
    static const std::vector<uint32_t> kEmpty;
    auto index = arrow_index_.find(block);
    return index ? arrow_sets_[*index].targets[kind] : kEmpty;
  }

  // Seed-style blocks: `start` for b0, `region` otherwise; control = the last
  // node line of each predecessor, in block order, once per `->` occurrence.
  void synthesize_block_nodes(const std::vector<NodeId>& id_of, const std::vector<NodeId>& block_node) {
    if (synthesized_ == 0) return;
    for (uint32_t b = 0; b < blocks_.size(); ++b)
      if (blocks_[b].node < 0) fn_.nodes[block_node[b]].op = b == 0 ? Start : Region;
    for (uint32_t from = 0; from < blocks_.size(); ++from) {
      const BlockDraft& pred = blocks_[from];
      const NodeId terminator = pred.last >= 0 ? id_of[static_cast<size_t>(pred.last)] : block_node[from];
      for (uint32_t to : targets(from, kSuccessors))
        if (blocks_[to].node < 0) fn_.nodes[block_node[to]].control.push_back(terminator);
    }
  }

  std::vector<NodeId> block_nodes_of(const std::vector<uint32_t>& blocks, const std::vector<NodeId>& block_node) const {
    std::vector<NodeId> out;
    out.reserve(blocks.size());
    for (uint32_t b : blocks) out.push_back(block_node[b]);
    return out;
  }

  void build_cfg(const std::vector<NodeId>& id_of, const std::vector<NodeId>& block_node) {
    if (blocks_.empty() && !cfg_declared_) return;
    Cfg& cfg = fn_.cfg.emplace();
    cfg.blocks.resize(blocks_.size());
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
      Block& block = cfg.blocks[b];
      block.node = block_node[b];
      block.successors = block_nodes_of(targets(b, kSuccessors), block_node);
      block.nodes.reserve(blocks_[b].members.size());
      for (uint32_t p : blocks_[b].members) block.nodes.push_back(id_of[p]);
    }
  }

  void build_dominance(const std::vector<NodeId>& block_node) {
    if (!has_dominance_ && !dom_declared_) return;
    Dominance& dom = fn_.dominance.emplace();
    dom.blocks.resize(blocks_.size());
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
      DomBlock& d = dom.blocks[b];
      d.node = block_node[b];
      if (auto parent = parent_of_.find(b)) d.parent = block_node[*parent];
      d.frontier = block_nodes_of(targets(b, kFrontier), block_node);
    }
  }

  // Foreign opcodes in first-use order by node id (the order the other
  // encodings produce), whatever the line order was.
  void order_foreign_ops() {
    const size_t k = fn_.foreign_ops.size();
    if (k < 2) return;
    constexpr OpId kUnset = 0xFFFF;
    std::vector<OpId> remap(k, kUnset);
    std::vector<std::string> ordered;
    ordered.reserve(k);
    for (Node& node : fn_.nodes) {
      if (node.op < kNumOps) continue;
      OpId& to = remap[node.op - kNumOps];
      if (to == kUnset) {
        to = static_cast<OpId>(kNumOps + ordered.size());
        ordered.push_back(std::move(fn_.foreign_ops[node.op - kNumOps]));
      }
      node.op = to;
    }
    fn_.foreign_ops = std::move(ordered);
  }

  const ModuleHeader& header_;
  Function& fn_;

  std::vector<Node> nodes_;           // in line order (parse index)
  std::vector<uint32_t> labels_of_;   // parse index -> label
  IndexMap labels_;                   // label -> parse index
  uint32_t max_label_ = 0;
  bool identity_ = true;

  std::vector<BlockDraft> blocks_;
  bool open_block_ = false;
  std::string block_text_;            // the open block's `bN {` line
  uint32_t block_line_ = 0;
  size_t block_pos_ = 0;
  uint32_t synthesized_ = 0;

  std::vector<ArrowSet> arrow_sets_;  // in order of first arrow line
  IndexMap arrow_index_;              // block number -> index in arrow_sets_
  IndexMap parent_of_;                // child block -> parent block (from `=>`)
  std::vector<BlockUse> block_uses_;
  bool has_dominance_ = false;
  bool cfg_declared_ = false;
  bool dom_declared_ = false;
  RefPos dom_pos_;

  // First use of each label/block not yet defined when it was referenced.
  std::vector<PendingRef> pending_labels_;
  std::vector<PendingRef> pending_blocks_;
  std::string ref_text_;              // texts of the lines holding those uses
  uint32_t remembered_line_ = 0;
  size_t remembered_at_ = 0;
  size_t remembered_len_ = 0;

  std::string opener_text_;
  uint32_t opener_line_ = 0;
  size_t opener_pos_ = 0;
};

// ============================================================================
// Reader: the module
// ============================================================================

enum HeaderRank { kModuleRank, kFileRank, kExternRank, kDataRank, kAsmRank, kDebugRank };

std::optional<HeaderRank> header_rank(std::string_view word) {
  if (word == "module") return kModuleRank;
  if (word == "file") return kFileRank;
  if (word == "extern") return kExternRank;
  if (word == "data") return kDataRank;
  if (word == "asm") return kAsmRank;
  if (word == "debug") return kDebugRank;
  return std::nullopt;
}

std::string level_list() {
  std::string out;
  for (int i = 0; i < kNumLevels; ++i) {
    if (i) out += i + 1 == kNumLevels ? " or " : ", ";
    out += level_name(static_cast<Level>(i));
  }
  return out;
}

class TextReader final : public ModuleReader {
 public:
  explicit TextReader(ByteSource& src) : lines_(src) { read_header(); }

  bool next(Function& fn) override {
    if (bare_pending_) {
      fn = std::move(bare_fn_);
      bare_pending_ = false;
      return true;
    }
    if (!have_opener_ && !find_opener()) return false;
    if (bare_) {
      Cursor c(opener_text_, opener_line_);
      c.skip_space();
      c.fail("a bare graph (no 'module' line) holds one pipeline; start the input with 'module LEVEL' to write more");
    }
    read_function(fn);
    return true;
  }

 private:
  // Header lines up to the first pipeline, which is kept in opener_text_.
  void read_header() {
    std::optional<HeaderRank> last;
    std::string_view line;
    while (lines_.next(line)) {
      Cursor c(line, lines_.number());
      if (c.at_end()) continue;
      const size_t at = c.pos();
      const std::string_view w = c.peek_word();
      if (is_opener(c)) {
        keep_opener(c);
        break;
      }
      std::optional<HeaderRank> rank = header_rank(w);
      if (!rank) top_level_error(c, true);
      if (*rank == kModuleRank && last) c.fail_at(at, "'module' line must be the first line");
      if (*rank != kModuleRank && !last)
        c.fail_at(at, "'" + std::string(w) + "' line needs a 'module LEVEL' line before it");
      if (last && *rank < *last)
        c.fail_at(at, "'" + std::string(w) + "' line out of order (header order: module, file, extern, data, asm, debug)");
      if (*rank == kDebugRank && *last == kDebugRank) c.fail_at(at, "a second 'debug' line (the header has one)");
      last = rank;
      header_line(c, *rank);
    }
    if (last) return;
    if (!have_opener_)
      throw FormatError(Where::at(lines_.number() + 1, 1), "empty input: expected 'module LEVEL' or 'pipeline {'");
    bare_ = true;
    read_function(bare_fn_);
    header_.level = infer_bare_level(bare_fn_);
    bare_pending_ = true;
  }

  void header_line(Cursor& c, HeaderRank rank) {
    switch (rank) {
      case kModuleRank: return module_line(c);
      case kFileRank: return file_line(c);
      case kExternRank: return extern_line(c);
      case kDataRank: return data_line(c);
      case kAsmRank: return asm_line(c);
      case kDebugRank:
        c.expect_word("debug");
        header_.debug = debug_section<ModuleDebug>(c, module_debug_from_json);
        return;
    }
  }

  void module_line(Cursor& c) {
    c.expect_word("module");
    c.skip_space();
    const size_t at = c.pos();
    std::string_view w = c.word();
    if (w.empty()) c.fail_expected("a level (" + level_list() + ")");
    auto level = parse_level(w);
    if (!level) c.fail_at(at, "unknown level '" + std::string(w) + "' (expected " + level_list() + ")");
    header_.level = *level;
    c.expect_end("end of line after the level");
  }

  void file_line(Cursor& c) {
    c.expect_word("file");
    c.skip_space();
    const size_t at = c.pos();
    uint64_t n = c.number(UINT32_MAX, "a file number");
    const size_t expected = header_.files.size() + (piece_ ? piece_->files.size() : 0);
    if (n != expected)
      c.fail_at(at, "expected file " + std::to_string(expected) + ", found file " + std::to_string(n) +
                        " (files are numbered 0, 1, 2, ... in order)");
    c.skip_space();
    if (c.peek() != '"') c.fail_expected("a quoted file name");
    (piece_ ? piece_->files : header_.files).push_back(c.string_literal());
    c.expect_end("end of line after the file name");
  }

  void asm_line(Cursor& c) {
    c.expect_word("asm");
    c.skip_space();
    if (c.peek() != '"') c.fail_expected("the assembly text as a quoted string");
    header_.toplevel_asm.push_back(c.string_literal());
    c.expect_end("end of line after the assembly text");
  }

  void extern_line(Cursor& c) {
    c.expect_word("extern");
    Extern e;
    if (c.accept_word("function")) {
      e.kind = ExternKind::Function;
      e.name = c.name("an extern function name");
      c.skip_space();
      if (c.peek() == '(') e.signature = c.signature();
      read_attrs(c, e.attrs);
    } else if (c.accept_word("data")) {
      e.kind = ExternKind::Data;
      e.name = c.name("an extern data name");
      read_attrs(c, e.attrs);
    } else {
      c.fail_expected("'function' or 'data' after 'extern'");
    }
    c.expect_end("end of line");
    (piece_ ? piece_->externs : header_.externs).push_back(std::move(e));
  }

  void data_line(Cursor& c) {
    c.expect_word("data");
    DataItem d;
    if (c.accept_word("internal")) d.linkage = Linkage::Internal;
    if (c.accept_word("readonly")) d.readonly = true;
    d.name = c.name("a data item name");
    c.expect_word("size");
    d.size = c.number(UINT64_MAX, "a size");
    c.expect_word("align");
    d.align = static_cast<uint32_t>(c.number(UINT32_MAX, "an alignment"));
    if (c.accept_word("init")) d.init = c.hex_bytes();
    while (c.accept_word("reloc")) d.relocs.push_back(reloc(c));
    read_attrs(c, d.attrs);
    c.expect_end(d.relocs.empty() && d.init.empty() ? "'init', 'reloc', an attribute or end of line"
                                                    : "'reloc', an attribute or end of line");
    (piece_ ? piece_->data : header_.data).push_back(std::move(d));
  }

  // `OFFSET NAME(+|-)ADDEND` after `reloc`.
  static Reloc reloc(Cursor& c) {
    Reloc r;
    r.offset = c.number(UINT64_MAX, "a relocation offset");
    r.symbol = c.name("a symbol name");
    bool negative = false;
    if (c.accept('-')) negative = true;
    else if (!c.accept('+')) c.fail_expected("'+' or '-' and the addend");
    c.skip_space();
    const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    const uint64_t magnitude = c.number(limit, "an addend");
    r.addend = negative ? static_cast<int64_t>(uint64_t{0} - magnitude) : static_cast<int64_t>(magnitude);
    return r;
  }

  static bool is_opener(Cursor& c) {
    std::string_view w = c.peek_word();
    return w == "pipeline" || w == "internal";
  }

  void keep_opener(const Cursor& c) {
    opener_text_.assign(c.text());
    opener_line_ = c.line();
    have_opener_ = true;
  }

  [[noreturn]] static void top_level_error(Cursor& c, bool in_header) {
    c.skip_space();
    const char ch = c.peek();
    if (ch == '}') c.fail("unexpected '}' (no pipeline or block is open)");
    if (ch == 'i' && (is_digit(c.peek(1)) || c.peek(1) == '-')) c.fail("node line outside a pipeline");
    if (ch == 'b' && (is_digit(c.peek(1)) || c.peek(1) == '-')) c.fail("block line outside a pipeline");
    if (in_header) c.fail_expected("a header line (module, file, extern, data, asm, debug) or 'pipeline'");
    std::string_view w = c.peek_word();
    if (header_rank(w))
      c.fail("'" + std::string(w) + "' line after a pipeline (between pipelines only the file, extern and data "
             "lines of a module piece may come)");
    c.fail_expected("'pipeline', a module piece's file, extern or data line, or end of input");
  }

  // Skips blank lines to the next pipeline opener; false at end of input.
  // ---- Module pieces ----: file, extern and data lines on the way (in
  // that order, as in the header) form one piece, added before the opener.
  bool find_opener() {
    std::string_view line;
    ModulePiece piece;
    std::optional<HeaderRank> last;
    piece_ = &piece;
    while (lines_.next(line)) {
      Cursor c(line, lines_.number());
      if (c.at_end()) continue;
      if (is_opener(c)) {
        piece_ = nullptr;
        add_piece(std::move(piece));
        keep_opener(c);
        return true;
      }
      const size_t at = c.pos();
      const std::string_view w = c.peek_word();
      std::optional<HeaderRank> rank = header_rank(w);
      if (!rank || (*rank != kFileRank && *rank != kExternRank && *rank != kDataRank)) top_level_error(c, false);
      if (bare_) c.fail_at(at, "'" + std::string(w) + "' line in a bare graph (a module piece needs a 'module' line)");
      if (last && *rank < *last)
        c.fail_at(at, "'" + std::string(w) + "' line out of order (a module piece's order: file, extern, data)");
      last = rank;
      header_line(c, *rank);
    }
    piece_ = nullptr;
    add_piece(std::move(piece));
    return false;
  }

  void read_function(Function& fn) {
    fn = Function{};
    FunctionParser parser(header_, fn);
    {
      Cursor c(opener_text_, opener_line_);
      parser.opener(c);
    }
    have_opener_ = false;
    std::string_view line;
    while (lines_.next(line)) {
      Cursor c(line, lines_.number());
      if (c.at_end()) continue;
      if (parser.body_line(c)) {
        parser.finish();
        return;
      }
    }
    parser.fail_unclosed();
  }

  LineSource lines_;
  std::string opener_text_;  // the `pipeline` line read ahead
  uint32_t opener_line_ = 0;
  bool have_opener_ = false;
  bool bare_ = false;          // no `module` line: one function, level inferred
  bool bare_pending_ = false;  // bare_fn_ not yet handed out
  Function bare_fn_;
  ModulePiece* piece_ = nullptr;  // where file, extern and data lines go between pipelines
};

}  // namespace

std::unique_ptr<ModuleReader> make_text_reader(ByteSource& src) { return std::make_unique<TextReader>(src); }

std::unique_ptr<ModuleWriter> make_text_writer(ByteSink& sink) { return std::make_unique<TextWriter>(sink); }

std::string print_node_line(const Function& fn, NodeId id) {
  if (id >= fn.nodes.size()) return node_name(id) + " = <no such node>";
  std::string out;
  append_node(out, fn, id, true);
  return out;
}

}  // namespace pl
