// json_format.cpp - the JSON encoding: a streaming reader and writer.
//
// Reader. A hand-written pull lexer (Lexer) walks the input straight from
// the ByteSource, and a typed parser (JsonReader) asks it for exactly what
// the format expects at each point ("an array of node ids", "a string for
// 'opcode'"), so no JSON DOM is ever built for the module. The factory reads
// the top-level keys up to the `[` of `functions` (the header); each next()
// then parses one function object, runs check_structure() on it and hands it
// out, holding nothing else. After the `]`, only `}` and whitespace may
// follow; a header key found there is reported as out of order. A top-level
// object with `nodes` (and no `functions`) is a bare graph: it is read whole
// by the factory and yielded as the single function "" whose level is
// infer_bare_level().
//
// Lexer invariants:
//   - win_ is src_.window() as of the last fill()/consume() (refreshed even
//     when fill() fails: it may compact first); every position
//     is an index into it (pos_), never a pointer, because fill() moves the
//     bytes. Bytes before pos_ are handed back to the source (consume) only
//     between array items, so a token never straddles a consume.
//   - line_/line_start_ (absolute offset of the current line's first byte)
//     are updated only in skip_ws() and, for the blanks inside an array or
//     object literal, in count_lines(); this is sound because a newline can
//     only appear in whitespace: raw control characters in strings are
//     errors. Columns are byte columns, 1-based.
//   - depth_ counts the open arrays and objects of the format's structure;
//     opening one beyond json_lex::kMaxDepth is an error. An array or object
//     literal counts its own depth (json_lex::read_nested, which bounds its
//     recursion, the only recursive part), from the literal, as the
//     printable and binary readers do.
//   - Strings and numbers are lexed by json_lex (shared with the printable
//     reader) on the window: a string cut by the window's end is resumed
//     after a refill; a number is lexed once the window holds all of it and
//     the byte after it. Strings are validated as UTF-8 (RFC 8259 requires
//     it), so every string in a module read from JSON can be written back by
//     any encoding (nlohmann's dump() would throw on invalid UTF-8).
//
// Literals: scalars become typed Literals; arrays and objects are read by
// json_lex::read_nested (shared with the printable reader) on the window,
// grown until it holds the whole literal, and stored as their canonical
// compact text, the text all three encodings carry. Integers must fit int64
// or uint64 (exactness); floats must be finite, and one that underflows
// rounds (json_lex.h); a key given twice in a literal object is an error.
//
// Writer. Deterministic and diff-friendly: module keys one per line, each
// extern, data item, node and cfg/dominance block on its own line, 2-space
// indentation, `functions` last. Strings are escaped exactly as nlohmann's
// dump() escapes them (ensure_ascii off), and floats use nlohmann's
// shortest round-trip form, so literal text matches Literal::to_json().
// Output is buffered and handed to the sink in chunks; the sink is flushed
// after every function so a downstream stage can start on it.
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "encoding/decimal.h"
#include "ir/error.h"
#include "encoding/format.h"
#include "encoding/json_lex.h"
#include "x64/x64.h"

namespace pl {

namespace {

using json_lex::kMaxDepth;
using json_lex::Number;

constexpr size_t kReleaseBytes = size_t{1} << 16;  // consume() granularity
constexpr size_t kWriteChunk = size_t{1} << 16;    // sink write granularity
constexpr uint64_t kMaxId = 0xFFFFFFFFull;

struct Pos {
  uint32_t line = 1;
  uint32_t col = 1;
};

bool is_digit(int c) { return c >= '0' && c <= '9'; }
bool is_alnum(int c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

std::string quote(std::string_view s) { return quote_for_message(s); }

// ---- lexer ------------------------------------------------------------------

class Lexer {
 public:
  explicit Lexer(ByteSource& src) : src_(src), win_(src.window()) {}

  // ---- positions and errors ----
  Pos pos_at(size_t index) const {
    uint64_t col = src_.offset() + index - line_start_ + 1;
    return {line_, static_cast<uint32_t>(std::min<uint64_t>(col, std::numeric_limits<uint32_t>::max()))};
  }
  // Position of the next token.
  Pos here() {
    skip_ws();
    return pos_at(pos_);
  }
  Pos key_pos() const { return key_pos_; }

  [[noreturn]] void fail(Pos p, const std::string& msg) const { throw FormatError(Where::at(p.line, p.col), msg); }
  [[noreturn]] void fail_eof() {
    skip_ws();
    fail(pos_at(pos_), "unexpected end of input");
  }
  // The input ended inside a token, at window index `at`.
  [[noreturn]] void fail_eof_at(size_t at) {
    pos_ = at;
    fail_eof();
  }
  // "<expected>, found <next token>" at the next token; at the end of the
  // input, "unexpected end of input".
  [[noreturn]] void fail_found(const std::string& expected) {
    if (peek() < 0) fail_eof();
    fail(pos_at(pos_), expected + ", found " + describe_next());
  }

  // Next non-blank byte (not consumed), or -1 at the end of the input.
  int peek() {
    skip_ws();
    return pos_ < win_.size() ? static_cast<unsigned char>(win_[pos_]) : -1;
  }

  // After the last value: only whitespace may follow.
  void expect_end(std::string_view what) {
    if (peek() >= 0)
      fail(pos_at(pos_), "expected the end of input after " + std::string(what) + ", found " + describe_next());
  }

  // ---- structure ----
  void open_object(std::string_view what) {
    if (peek() != '{') fail_found("expected an object for " + std::string(what));
    enter();
  }
  void open_array(std::string_view what) {
    if (peek() != '[') fail_found("expected an array for " + std::string(what));
    enter();
  }

  // Advances to the next key of an open object and reads it into `key`
  // (and key_pos()), consuming the `:`; false (object closed) at `}`.
  bool next_key(bool& first, std::string& key, std::string_view what) {
    int c = peek();
    if (c == '}') return leave();
    if (first) {
      first = false;
    } else {
      if (c != ',') fail_found("expected ',' or '}' in " + std::string(what));
      ++pos_;
      c = peek();
    }
    if (c != '"') fail_found("expected a key string in " + std::string(what));
    key_pos_ = pos_at(pos_);
    read_string(key);
    if (peek() != ':') fail_found("expected ':' after key " + quote(key));
    ++pos_;
    return true;
  }

  // Advances to the next item of an open array; false (array closed) at `]`.
  bool next_item(bool& first, std::string_view what) {
    release();
    int c = peek();
    if (c == ']') return leave();
    if (first) {
      first = false;
      if (c < 0) fail_eof();
      return true;
    }
    if (c != ',') fail_found("expected ',' or ']' in " + std::string(what));
    ++pos_;
    c = peek();
    if (c == ']') fail(pos_at(pos_), "expected a value after ',' in " + std::string(what) + ", found ']'");
    if (c < 0) fail_eof();
    return true;
  }

  // ---- scalars ----
  // Reads the string token at the next position (caller checked peek()=='"').
  void read_string(std::string& out) {
    out.clear();
    ++pos_;  // opening quote
    json_lex::Error err;
    while (!json_lex::read_string(win_, pos_, json_lex::RangeEnd::Window, out, err)) {
      if (err.code != json_lex::Error::Code::Truncated) fail(pos_at(err.unit), err.message);
      if (!refill()) fail_eof_at(err.at);
      // pos_ is where the cut escape or sequence starts: read on from there.
    }
  }

  // A JSON number token (caller checked that it starts with '-' or a digit).
  Number read_number() {
    // The whole token in the window, and the byte after it unless the input
    // ends first, as json_lex::scan_number needs.
    size_t end = pos_;
    while (has(end) && json_lex::is_number_char(win_[end])) ++end;
    json_lex::NumberToken token;
    json_lex::Number n;
    json_lex::Error err;
    if (!json_lex::scan_number(win_, pos_, json_lex::RangeEnd::Window, token, err) ||
        !json_lex::number_value(win_, token, n, err)) {
      if (err.code == json_lex::Error::Code::Truncated) fail_eof_at(err.at);
      fail(pos_at(err.unit), err.message);
    }
    return n;
  }

  // An array or object literal (caller checked peek() is '[' or '{'): its
  // canonical text, by json_lex::read_nested on the window, exactly as the
  // printable reader reads it. The literal's depth counts from itself, not
  // from the top-level object. Most literals lie whole in the window and are
  // read in one pass; one cut by the window's end is read again once
  // hold_literal() has grown the window to hold all of it (a linear scan, so
  // a long literal costs at most three passes, never one per refill).
  std::string read_nested() {
    const size_t start = pos_;
    std::string out;
    json_lex::Error err;
    bool held = false;
    for (;;) {
      size_t pos = start;
      if (json_lex::read_nested(win_, pos, json_lex::RangeEnd::Window, out, err)) {
        count_lines(start, pos);
        pos_ = pos;
        return out;
      }
      if (err.code != json_lex::Error::Code::Truncated) fail(pos_after(start, err.unit), err.message);
      if (!held) {
        held = true;
        hold_literal(start);
      } else if (!refill()) {
        fail(pos_after(start, err.at), "unexpected end of input");
      }
    }
  }

  // true / false / null (caller checked the first letter).
  void read_word(std::string_view word) {
    const Pos p = pos_at(pos_);
    size_t end = pos_;
    while (end - pos_ < 16 && has(end) && is_alnum(static_cast<unsigned char>(win_[end]))) ++end;
    const bool at_eof = !has(end);  // may refill: take views of win_ only after it
    std::string_view got = win_.substr(pos_, end - pos_);
    if (got == word) {
      pos_ = end;
      return;
    }
    if (at_eof && word.substr(0, got.size()) == got) fail_eof();
    fail(p, "unknown word " + quote(got) + " (expected true, false or null)");
  }

  // A node id: a non-negative integer below 2^32.
  NodeId read_id() {
    int c = peek();
    const Pos p = pos_at(pos_);
    if (c == '-') fail(p, "node id must be a non-negative integer");
    if (!is_digit(c)) fail_found("expected a node id (a non-negative integer)");
    uint64_t v = 0;
    if (c == '0') {
      ++pos_;
    } else {
      for (int d = cur(); is_digit(d); d = cur()) {
        if (v <= kMaxId) v = v * 10 + static_cast<uint64_t>(d - '0');
        ++pos_;
      }
    }
    c = cur();
    if (c == '.' || c == 'e' || c == 'E') fail(p, "node id must be a non-negative integer");
    if (v > kMaxId) fail(p, "node id out of range (must be below 2^32)");
    return static_cast<NodeId>(v);
  }

 private:
  // fill() may move the bytes even when it finds the end of the input.
  bool refill() {
    bool more = src_.fill();
    win_ = src_.window();
    return more;
  }
  // Is win_[i] available (filling as needed)?
  bool has(size_t i) {
    while (i >= win_.size())
      if (!refill()) return false;
    return true;
  }
  // Byte at pos_ or -1 at the end (no whitespace skipping).
  int cur() { return has(pos_) ? static_cast<unsigned char>(win_[pos_]) : -1; }

  // Refills until the window holds the whole literal at `start`: up to its
  // closing bracket (found by tracking strings and nesting), a bracket
  // opened beyond the depth limit (read_nested stops there), or the end of
  // the input. Nothing is released meanwhile, so indexes stay valid.
  void hold_literal(size_t start) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = start;; ++i) {
      if (!has(i)) return;
      const char c = win_[i];
      if (in_string) {
        if (c == '\\') ++i;  // the escaped byte is skipped
        else if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        if (++depth > kMaxDepth) return;
      } else if ((c == ']' || c == '}') && --depth == 0) {
        return;
      }
    }
  }

  // Position of window index `at`, which lies after pos_ = `from` with
  // possibly newlines in between (a literal spans lines).
  Pos pos_after(size_t from, size_t at) const {
    size_t line_begin = std::string_view::npos;
    uint32_t lines = 0;
    for (size_t i = from; i < at && i < win_.size(); ++i) {
      if (win_[i] == '\n') {
        ++lines;
        line_begin = i + 1;
      }
    }
    if (lines == 0) return pos_at(at);
    uint64_t col = at - line_begin + 1;
    return {line_ + lines, static_cast<uint32_t>(std::min<uint64_t>(col, std::numeric_limits<uint32_t>::max()))};
  }

  // Accounts for the newlines in win_[from, to) (blanks inside a literal).
  void count_lines(size_t from, size_t to) {
    const char* p = win_.data() + from;
    const char* end = win_.data() + to;
    while (const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p))) {
      p = static_cast<const char*>(nl) + 1;
      ++line_;
      line_start_ = src_.offset() + static_cast<uint64_t>(p - win_.data());
    }
  }

  void skip_ws() {
    for (;;) {
      if (pos_ == win_.size() && !refill()) return;
      char c = win_[pos_];
      if (static_cast<unsigned char>(c) > ' ') return;  // the common case
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '\n') {
        ++pos_;
        ++line_;
        line_start_ = src_.offset() + pos_;
      } else {
        return;
      }
    }
  }

  // Hands the bytes already parsed back to the source (streamed input keeps
  // only the unparsed part).
  void release() {
    if (pos_ < kReleaseBytes) return;
    src_.consume(pos_);
    win_ = src_.window();
    pos_ = 0;
  }

  void enter() {
    if (++depth_ > kMaxDepth)
      fail(pos_at(pos_), "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    ++pos_;
  }
  bool leave() {
    --depth_;
    ++pos_;
    return false;
  }

  std::string describe_next() {
    int c = peek();
    if (c < 0) return "end of input";
    switch (c) {
      case '{': return "an object";
      case '[': return "an array";
      case '"': return "a string";
      case '-': return "a number";
      default: break;
    }
    if (is_digit(c)) return "a number";
    if (is_alnum(c)) {
      size_t end = pos_;
      while (end - pos_ < 16 && has(end) && is_alnum(static_cast<unsigned char>(win_[end]))) ++end;
      return quote(win_.substr(pos_, end - pos_));
    }
    if (c >= 0x21 && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
    static constexpr char kHex[] = "0123456789abcdef";
    return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15];
  }

  ByteSource& src_;
  std::string_view win_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint64_t line_start_ = 0;
  int depth_ = 0;
  Pos key_pos_;
};

// ---- reader -------------------------------------------------------------------

template <size_t N>
int key_index(const std::array<std::string_view, N>& keys, std::string_view key) {
  for (size_t i = 0; i < N; ++i)
    if (keys[i] == key) return static_cast<int>(i);
  return -1;
}

constexpr uint32_t bit(int index) { return uint32_t{1} << index; }

enum HeaderKey { kFormat, kVersion, kLevel, kFiles, kExterns, kData, kHeaderDebug, kAsm };
constexpr std::array<std::string_view, 8> kHeaderKeys = {"format", "version", "level", "files",
                                                         "externs", "data", "debug", "asm"};
enum FunctionKey { kName, kLinkage, kSignature, kNodes, kCfg, kDominance, kFunctionAttrs, kFunctionDebug };
constexpr std::array<std::string_view, 8> kFunctionKeys = {"name",  "linkage",   "signature", "nodes",
                                                           "cfg",   "dominance", "attrs",     "debug"};
enum NodeKey { kOpcode, kControl, kLiterals, kInputs, kPlace, kLoc };
constexpr std::array<std::string_view, 6> kNodeKeys = {"opcode", "control", "literals", "inputs", "place", "loc"};
enum BlockKey { kBlockNode, kSuccessors, kBlockNodes };
constexpr std::array<std::string_view, 3> kBlockKeys = {"node", "successors", "nodes"};
enum DomKey { kDomNode, kParent, kFrontier };
constexpr std::array<std::string_view, 3> kDomKeys = {"node", "parent", "frontier"};
enum SigKey { kParams, kResult, kVariadic };
constexpr std::array<std::string_view, 3> kSigKeys = {"params", "result", "variadic"};
enum ExternKey { kExternName, kKind, kExternSignature, kExternAttrs };
constexpr std::array<std::string_view, 4> kExternKeys = {"name", "kind", "signature", "attrs"};
enum DataKey { kDataName, kDataLinkage, kSize, kAlign, kReadonly, kInit, kRelocs, kDataAttrs };
constexpr std::array<std::string_view, 8> kDataKeys = {"name", "linkage", "size",   "align",
                                                       "readonly", "init", "relocs", "attrs"};
enum AttrKey { kWeak, kVisibility, kUsed, kSection, kAlias, kConstructor, kDestructor, kHints, kCommon, kTls, kTlsModel };
constexpr std::array<std::string_view, 11> kAttrKeys = {"weak",        "visibility", "used",  "section",
                                                        "alias",       "constructor", "destructor", "hints",
                                                        "common",      "tls",        "tls_model"};
// A module piece's keys (an element {"piece": {...}} of 'functions').
enum PieceKey { kPieceFiles, kPieceExterns, kPieceData };
constexpr std::array<std::string_view, 3> kPieceKeys = {"files", "externs", "data"};
enum RelocKey { kOffset, kSymbol, kAddend };
constexpr std::array<std::string_view, 3> kRelocKeys = {"offset", "symbol", "addend"};

class JsonReader final : public ModuleReader {
 public:
  explicit JsonReader(ByteSource& src) : lex_(src) { read_top(); }

  bool next(Function& fn) override {
    switch (state_) {
      case State::Done: return false;
      case State::Bare:
        fn = std::move(bare_);
        bare_ = Function();
        state_ = State::Done;
        return true;
      case State::Functions: break;
    }
    if (!lex_.next_item(first_function_, "'functions'")) {
      finish_module();
      state_ = State::Done;
      return false;
    }
    for (;;) {
      fn = Function();
      if (read_function_or_piece(fn)) break;
      if (!lex_.next_item(first_function_, "'functions'")) {
        finish_module();
        state_ = State::Done;
        return false;
      }
    }
    check_structure(header_, fn);
    return true;
  }

 private:
  enum class State { Functions, Bare, Done };

  [[noreturn]] void fail(Pos p, const std::string& msg) const { lex_.fail(p, msg); }

  // Records key `index` of an object as seen; a second sighting is an error.
  void mark(uint32_t& seen, int index, std::string_view what) const {
    if (seen & bit(index)) fail(lex_.key_pos(), "duplicate key " + quote(key_) + " in " + std::string(what));
    seen |= bit(index);
  }
  template <size_t N>
  int known_key(const std::array<std::string_view, N>& keys, std::string_view what) const {
    int k = key_index(keys, key_);
    if (k < 0) fail(lex_.key_pos(), "unknown key " + quote(key_) + " in " + std::string(what));
    return k;
  }
  void require(uint32_t seen, int index, std::string_view key, std::string_view what, Pos start) const {
    if (!(seen & bit(index))) fail(start, "missing key '" + std::string(key) + "' in " + std::string(what));
  }

  // ---- typed values ----
  void read_string(std::string& out, std::string_view what) {
    if (lex_.peek() != '"') lex_.fail_found("expected a string for " + std::string(what));
    lex_.read_string(out);
  }
  bool read_bool(std::string_view what) {
    int c = lex_.peek();
    if (c != 't' && c != 'f') lex_.fail_found("expected true or false for " + std::string(what));
    lex_.read_word(c == 't' ? "true" : "false");
    return c == 't';
  }
  Number read_integer(std::string_view what, Pos& p) {
    int c = lex_.peek();
    p = lex_.here();
    if (c != '-' && !is_digit(c)) lex_.fail_found("expected an integer for " + std::string(what));
    Number n = lex_.read_number();
    if (n.kind == Number::Kind::Float) fail(p, std::string(what) + " must be an integer");
    return n;
  }
  uint64_t read_u64(std::string_view what, uint64_t max = std::numeric_limits<uint64_t>::max()) {
    Pos p;
    Number n = read_integer(what, p);
    if (n.kind == Number::Kind::Int && n.i < 0) fail(p, std::string(what) + " must be a non-negative integer");
    uint64_t v = n.kind == Number::Kind::UInt ? n.u : static_cast<uint64_t>(n.i);
    if (v > max) fail(p, std::string(what) + " out of range (at most " + std::to_string(max) + ")");
    return v;
  }
  int64_t read_i64(std::string_view what) {
    Pos p;
    Number n = read_integer(what, p);
    if (n.kind == Number::Kind::UInt) fail(p, std::string(what) + " out of range (must fit int64)");
    return n.i;
  }
  template <typename IdList>  // std::vector<NodeId> or a node's SmallVec
  void read_ids(IdList& out, std::string_view what) {
    lex_.open_array(what);
    bool first = true;
    while (lex_.next_item(first, what)) out.push_back(lex_.read_id());
  }
  void read_strings(std::vector<std::string>& out, std::string_view what) {
    lex_.open_array(what);
    bool first = true;
    while (lex_.next_item(first, what)) read_string(out.emplace_back(), what);
  }
  Linkage read_linkage() {
    Pos p = lex_.here();
    read_string(word_, "'linkage'");
    auto linkage = parse_linkage(word_);
    if (!linkage) fail(p, "unknown linkage " + quote(word_) + " (expected 'external' or 'internal')");
    return *linkage;
  }

  // ---- literals ----
  Literal read_literal() {
    int c = lex_.peek();
    switch (c) {
      case '"': {
        std::string s;
        lex_.read_string(s);
        return Literal::string(std::move(s));
      }
      case '[':
      case '{': {
        const Pos at = lex_.here();
        std::string text = lex_.read_nested();
        try {
          return literal_from_json_text(text);  // {"float":"inf"} is a Float
        } catch (const std::invalid_argument& e) {
          fail(at, e.what());
        }
      }
      case 't': lex_.read_word("true"); return Literal::boolean(true);
      case 'f': lex_.read_word("false"); return Literal::boolean(false);
      case 'n': lex_.read_word("null"); return Literal::null();
      default: break;
    }
    if (c != '-' && !is_digit(c)) lex_.fail_found("expected a literal value");
    Number n = lex_.read_number();
    switch (n.kind) {
      case Number::Kind::Int: return Literal::integer(n.i);
      case Number::Kind::UInt: return Literal::unsigned_integer(n.u);
      case Number::Kind::Float: return Literal::floating(n.d);
    }
    return Literal::null();
  }

  // ---- header ----
  void read_top() {
    const Pos start = lex_.here();
    lex_.open_object("the module");
    bool first = true;
    uint32_t header_seen = 0, function_seen = 0;
    Function bare;
    while (lex_.next_key(first, key_, "module")) {
      const Pos kp = lex_.key_pos();
      if (key_ == "functions") {
        if (function_seen) fail(kp, "unexpected key 'functions' in a bare graph (it has function keys)");
        require(header_seen, kLevel, "level", "module (it must come before 'functions')", kp);
        lex_.open_array("'functions'");
        state_ = State::Functions;
        return;
      }
      if (int h = key_index(kHeaderKeys, key_); h >= 0) {
        if (function_seen) fail(kp, "unexpected key " + quote(key_) + " in a bare graph");
        mark(header_seen, h, "module");
        read_header_key(static_cast<HeaderKey>(h));
        continue;
      }
      if (int f = key_index(kFunctionKeys, key_); f >= 0) {
        if (header_seen)
          fail(kp, "unexpected key " + quote(key_) + " in a module (its functions go in 'functions')");
        mark(function_seen, f, "bare graph");
        read_function_key(static_cast<FunctionKey>(f), bare);
        continue;
      }
      fail(kp, "unknown key " + quote(key_) + " in module");
    }
    if (!header_seen && !function_seen)
      fail(start, "expected key 'functions' (a module) or 'nodes' (a bare graph) in the top-level object");
    if (header_seen) fail(start, "missing key 'functions' in module");
    require(function_seen, kNodes, "nodes", "bare graph", start);
    lex_.expect_end("the graph");
    check_structure(header_, bare);
    header_.level = infer_bare_level(bare);
    bare_ = std::move(bare);
    state_ = State::Bare;
  }

  void read_header_key(HeaderKey key) {
    const Pos p = lex_.here();
    switch (key) {
      case kFormat:
        read_string(word_, "'format'");
        if (word_ != "pipe") fail(p, "unknown format " + quote(word_) + " (expected 'pipe')");
        return;
      case kVersion: {
        Pos vp;
        Number n = read_integer("'version'", vp);
        if (n.kind != Number::Kind::Int || n.i != 1)
          fail(p, "unsupported version " +
                      (n.kind == Number::Kind::Int ? std::to_string(n.i) : std::to_string(n.u)) +
                      " (this reader reads version 1)");
        return;
      }
      case kLevel: {
        read_string(word_, "'level'");
        auto level = parse_level(word_);
        if (!level) fail(p, "unknown level " + quote(word_));
        header_.level = *level;
        return;
      }
      case kFiles: read_strings(header_.files, "'files'"); return;
      case kAsm: read_strings(header_.toplevel_asm, "'asm'"); return;
      case kExterns: {
        lex_.open_array("'externs'");
        bool first = true;
        while (lex_.next_item(first, "'externs'")) read_extern(header_.externs.emplace_back());
        return;
      }
      case kData: {
        lex_.open_array("'data'");
        bool first = true;
        while (lex_.next_item(first, "'data'")) read_data_item(header_.data.emplace_back());
        return;
      }
      case kHeaderDebug: {
        const Pos at = lex_.here();
        if (lex_.peek() != '{') fail(at, "'debug' must be an object");
        std::string text = lex_.read_nested();
        try {
          header_.debug = module_debug_from_json(text);
        } catch (const std::runtime_error& e) {
          fail(at, e.what());
        }
        return;
      }
    }
  }

  void read_signature(Signature& sig) {
    lex_.open_object("'signature'");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "signature")) {
      int k = known_key(kSigKeys, "signature");
      mark(seen, k, "signature");
      switch (static_cast<SigKey>(k)) {
        case kParams: read_strings(sig.params, "'params'"); break;
        case kResult: read_string(sig.result, "'result'"); break;
        case kVariadic: sig.variadic = read_bool("'variadic'"); break;
      }
    }
  }

  void read_extern(Extern& ext) {
    const Pos start = lex_.here();
    lex_.open_object("an extern");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "extern")) {
      int k = known_key(kExternKeys, "extern");
      mark(seen, k, "extern");
      const Pos p = lex_.here();
      switch (static_cast<ExternKey>(k)) {
        case kExternName: read_string(ext.name, "'name'"); break;
        case kKind:
          read_string(word_, "'kind'");
          if (word_ == "function") {
            ext.kind = ExternKind::Function;
          } else if (word_ == "data") {
            ext.kind = ExternKind::Data;
          } else {
            fail(p, "unknown extern kind " + quote(word_) + " (expected 'function' or 'data')");
          }
          break;
        case kExternSignature: read_signature(ext.signature.emplace()); break;
        case kExternAttrs: read_attrs(ext.attrs); break;
      }
    }
    require(seen, kExternName, "name", "extern", start);
    require(seen, kKind, "kind", "extern", start);
  }

  void read_data_item(DataItem& item) {
    const Pos start = lex_.here();
    lex_.open_object("a data item");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "data item")) {
      int k = known_key(kDataKeys, "data item");
      mark(seen, k, "data item");
      switch (static_cast<DataKey>(k)) {
        case kDataName: read_string(item.name, "'name'"); break;
        case kDataLinkage: item.linkage = read_linkage(); break;
        case kSize: item.size = read_u64("'size'"); break;
        case kAlign: item.align = static_cast<uint32_t>(read_u64("'align'", kMaxId)); break;
        case kReadonly: item.readonly = read_bool("'readonly'"); break;
        case kInit: read_init(item.init); break;
        case kRelocs: {
          lex_.open_array("'relocs'");
          bool first_reloc = true;
          while (lex_.next_item(first_reloc, "'relocs'")) read_reloc(item.relocs.emplace_back());
          break;
        }
        case kDataAttrs: read_attrs(item.attrs); break;
      }
    }
    require(seen, kDataName, "name", "data item", start);
    require(seen, kSize, "size", "data item", start);
  }

  // The symbol attributes object (FORMAT.md section 4): every key optional.
  void read_attrs(SymbolAttrs& attrs) {
    lex_.open_object("'attrs'");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "attrs")) {
      int k = known_key(kAttrKeys, "attrs");
      mark(seen, k, "attrs");
      const Pos p = lex_.here();
      switch (static_cast<AttrKey>(k)) {
        case kWeak: attrs.weak = read_bool("'weak'"); break;
        case kVisibility: {
          read_string(word_, "'visibility'");
          auto v = parse_visibility(word_);
          if (!v) fail(p, "unknown visibility " + quote(word_) + " (expected default, hidden, protected or internal)");
          attrs.visibility = *v;
          break;
        }
        case kUsed: attrs.used = read_bool("'used'"); break;
        case kCommon: attrs.common = read_bool("'common'"); break;
        case kTls: attrs.tls = read_bool("'tls'"); break;
        case kTlsModel: {
          read_string(word_, "'tls_model'");
          auto m = parse_tls_model(word_);
          if (!m || *m == TlsModel::Auto)
            fail(p, "unknown tls_model " + quote(word_) +
                        " (expected global-dynamic, local-dynamic, initial-exec or local-exec)");
          attrs.tls_model = *m;
          break;
        }
        case kSection: read_string(attrs.section, "'section'"); break;
        case kAlias: read_string(attrs.alias, "'alias'"); break;
        case kConstructor: attrs.constructor = static_cast<int32_t>(read_u64("'constructor'", 65535)); break;
        case kDestructor: attrs.destructor = static_cast<int32_t>(read_u64("'destructor'", 65535)); break;
        case kHints: {
          lex_.open_array("'hints'");
          bool first_hint = true;
          while (lex_.next_item(first_hint, "'hints'")) {
            const Pos hp = lex_.here();
            read_string(word_, "'hints'");
            auto h = parse_hint(word_);
            if (!h) fail(hp, "unknown function hint " + quote(word_));
            attrs.hints |= *h;
          }
          break;
        }
      }
    }
  }

  void read_init(std::string& out) {
    const Pos p = lex_.here();
    read_string(word_, "'init'");
    if (word_.size() % 2) fail(p, "'init' must have an even number of hex digits");
    out.clear();
    out.reserve(word_.size() / 2);
    for (size_t i = 0; i < word_.size(); i += 2) {
      int hi = json_lex::hex_value(static_cast<unsigned char>(word_[i]));
      int lo = json_lex::hex_value(static_cast<unsigned char>(word_[i + 1]));
      if (hi < 0 || lo < 0) fail(p, "'init' must be hex digits");
      out += static_cast<char>(hi * 16 + lo);
    }
  }

  void read_reloc(Reloc& reloc) {
    const Pos start = lex_.here();
    lex_.open_object("a relocation");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "relocation")) {
      int k = known_key(kRelocKeys, "relocation");
      mark(seen, k, "relocation");
      switch (static_cast<RelocKey>(k)) {
        case kOffset: reloc.offset = read_u64("'offset'"); break;
        case kSymbol: read_string(reloc.symbol, "'symbol'"); break;
        case kAddend: reloc.addend = read_i64("'addend'"); break;
      }
    }
    require(seen, kOffset, "offset", "relocation", start);
    require(seen, kSymbol, "symbol", "relocation", start);
  }

  // ---- functions ----
  // ---- Module pieces ----
  // An element of 'functions': a function (true), or a module piece
  // `{"piece": {...}}` (false), which goes into header_ and pieces_.
  bool read_function_or_piece(Function& fn) {
    const Pos start = lex_.here();
    lex_.open_object("a function");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "function")) {
      if (seen == 0 && key_ == "piece") {
        read_piece();
        if (lex_.next_key(first, key_, "piece element"))
          fail(lex_.key_pos(), "unexpected key " + quote(key_) + " after 'piece' (a piece element holds that key alone)");
        return false;
      }
      if (key_ == "piece") fail(lex_.key_pos(), "unexpected key 'piece' in function (a piece is an element of its own)");
      int k = key_index(kFunctionKeys, key_);
      if (k < 0 && key_index(kHeaderKeys, key_) >= 0)
        fail(lex_.key_pos(), "unexpected key " + quote(key_) + " in function (it is a module key)");
      k = known_key(kFunctionKeys, "function");
      mark(seen, k, "function");
      read_function_key(static_cast<FunctionKey>(k), fn);
    }
    require(seen, kName, "name", "function", start);
    require(seen, kNodes, "nodes", "function", start);
    return true;
  }

  void read_piece() {
    ModulePiece piece;
    lex_.open_object("'piece'");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "piece")) {
      int k = known_key(kPieceKeys, "piece");
      mark(seen, k, "piece");
      switch (static_cast<PieceKey>(k)) {
        case kPieceFiles: read_strings(piece.files, "'files'"); break;
        case kPieceExterns: {
          lex_.open_array("'externs'");
          bool first_item = true;
          while (lex_.next_item(first_item, "'externs'")) read_extern(piece.externs.emplace_back());
          break;
        }
        case kPieceData: {
          lex_.open_array("'data'");
          bool first_item = true;
          while (lex_.next_item(first_item, "'data'")) read_data_item(piece.data.emplace_back());
          break;
        }
      }
    }
    add_piece(std::move(piece));
  }

  void read_function_key(FunctionKey key, Function& fn) {
    switch (key) {
      case kName: read_string(fn.name, "'name'"); return;
      case kLinkage: fn.linkage = read_linkage(); return;
      case kSignature: read_signature(fn.signature); return;
      case kNodes: {
        lex_.open_array("'nodes'");
        bool first = true;
        while (lex_.next_item(first, "'nodes'")) read_node(fn, fn.nodes.emplace_back());
        return;
      }
      case kCfg: {
        Cfg& cfg = fn.cfg.emplace();
        read_blocks_section("'cfg'", [&] { read_block(cfg.blocks.emplace_back()); });
        return;
      }
      case kDominance: {
        Dominance& dom = fn.dominance.emplace();
        read_blocks_section("'dominance'", [&] { read_dom_block(dom.blocks.emplace_back()); });
        return;
      }
      case kFunctionAttrs: read_attrs(fn.attrs); return;
      case kFunctionDebug: {
        const Pos at = lex_.here();
        if (lex_.peek() != '{') fail(at, "'debug' must be an object");
        std::string text = lex_.read_nested();
        try {
          fn.debug = function_debug_from_json(text);
        } catch (const std::runtime_error& e) {
          fail(at, e.what());
        }
        return;
      }
    }
  }

  void read_node(Function& fn, Node& node) {
    const Pos start = lex_.here();
    lex_.open_object("a node");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "node")) {
      int k = known_key(kNodeKeys, "node");
      mark(seen, k, "node");
      switch (static_cast<NodeKey>(k)) {
        case kOpcode:
          read_string(word_, "'opcode'");
          node.op = fn.intern_op(word_);
          break;
        case kControl: read_ids(node.control, "'control'"); break;
        case kLiterals: {
          lex_.open_array("'literals'");
          bool first_literal = true;
          while (lex_.next_item(first_literal, "'literals'")) node.literals.push_back(read_literal());
          break;
        }
        case kInputs: read_ids(node.inputs, "'inputs'"); break;
        case kPlace: read_place(node.place); break;
        case kLoc: read_loc(node.loc); break;
      }
    }
    require(seen, kOpcode, "opcode", "node", start);
  }

  // "rax", "s3" (x64.h place_name); absent = no place.
  void read_place(Place& place) {
    const Pos start = lex_.here();
    read_string(word_, "'place'");
    std::optional<Place> p = x64::parse_place(word_);
    if (!p) fail(start, "unknown place '" + word_ + "' (a register such as \"rax\", or a spill slot \"sN\")");
    place = *p;
  }

  void read_loc(Loc& loc) {
    const Pos start = lex_.here();
    lex_.open_array("'loc'");
    uint32_t parts[3] = {0, 0, 0};
    size_t count = 0;
    bool first = true;
    while (lex_.next_item(first, "'loc'")) {
      if (count == 3) fail(start, "'loc' must be [file, line, col]");
      parts[count++] = static_cast<uint32_t>(read_u64("a 'loc' entry", kMaxId));
    }
    if (count != 3) fail(start, "'loc' must be [file, line, col]");
    if (parts[1] == 0) fail(start, "'loc' line must be at least 1 (leave 'loc' out for no location)");
    loc = Loc{parts[0], parts[1], parts[2]};
  }

  // `{"blocks": [ ... ]}`, calling read_one for each block.
  template <typename ReadOne>
  void read_blocks_section(std::string_view what, ReadOne read_one) {
    const Pos start = lex_.here();
    lex_.open_object(what);
    bool first = true;
    bool seen_blocks = false;
    while (lex_.next_key(first, key_, what)) {
      if (key_ != "blocks") fail(lex_.key_pos(), "unknown key " + quote(key_) + " in " + std::string(what));
      if (seen_blocks) fail(lex_.key_pos(), "duplicate key 'blocks' in " + std::string(what));
      seen_blocks = true;
      lex_.open_array("'blocks'");
      bool first_block = true;
      while (lex_.next_item(first_block, "'blocks'")) read_one();
    }
    if (!seen_blocks) fail(start, "missing key 'blocks' in " + std::string(what));
  }

  void read_block(Block& block) {
    const Pos start = lex_.here();
    lex_.open_object("a cfg block");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "cfg block")) {
      int k = known_key(kBlockKeys, "cfg block");
      mark(seen, k, "cfg block");
      switch (static_cast<BlockKey>(k)) {
        case kBlockNode: block.node = lex_.read_id(); break;
        case kSuccessors: read_ids(block.successors, "'successors'"); break;
        case kBlockNodes: read_ids(block.nodes, "'nodes'"); break;
      }
    }
    require(seen, kBlockNode, "node", "cfg block", start);
  }

  void read_dom_block(DomBlock& block) {
    const Pos start = lex_.here();
    lex_.open_object("a dominance block");
    bool first = true;
    uint32_t seen = 0;
    while (lex_.next_key(first, key_, "dominance block")) {
      int k = known_key(kDomKeys, "dominance block");
      mark(seen, k, "dominance block");
      switch (static_cast<DomKey>(k)) {
        case kDomNode: block.node = lex_.read_id(); break;
        case kParent:
          if (lex_.peek() == 'n') {
            lex_.read_word("null");
            block.parent.reset();
          } else {
            block.parent = lex_.read_id();
          }
          break;
        case kFrontier: read_frontier(block.frontier); break;
      }
    }
    require(seen, kDomNode, "node", "dominance block", start);
  }

  void read_frontier(std::vector<NodeId>& out) {
    lex_.open_array("'frontier'");
    bool first = true;
    while (lex_.next_item(first, "'frontier'")) {
      if (lex_.peek() == '[')
        fail(lex_.here(), "'frontier' is a flat list of block node ids, found a nested array");
      out.push_back(lex_.read_id());
    }
  }

  // After the `]` of `functions`: the rest of the top-level object.
  void finish_module() {
    bool first = false;
    while (lex_.next_key(first, key_, "module")) {
      const Pos kp = lex_.key_pos();
      if (key_ == "functions") fail(kp, "duplicate key 'functions' in module");
      if (key_index(kHeaderKeys, key_) >= 0)
        fail(kp, "header key " + quote(key_) + " must come before 'functions' (the module is read as a stream)");
      if (key_index(kFunctionKeys, key_) >= 0)
        fail(kp, "unexpected key " + quote(key_) + " in a module (its functions go in 'functions')");
      fail(kp, "unknown key " + quote(key_) + " in module");
    }
    lex_.expect_end("the module");
  }

  Lexer lex_;
  State state_ = State::Done;
  bool first_function_ = true;
  Function bare_;
  std::string key_;   // current key (reused: no allocation per key)
  std::string word_;  // scratch for enum-like strings and opcodes
};

// ---- writer -------------------------------------------------------------------

void put_uint(std::string& out, uint64_t v) { append_decimal(out, v); }
void put_int(std::string& out, int64_t v) { append_decimal(out, v); }

// A JSON string, escaped as nlohmann::json::dump() escapes it (ensure_ascii
// off): the two-letter escapes, \u00xx for other control bytes, everything
// else (including non-ASCII bytes) unchanged.
void put_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

template <typename IdList>  // std::vector<NodeId> or a node's SmallVec
void put_ids(std::string& out, const IdList& ids) {
  out += '[';
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) out += ", ";
    put_uint(out, ids[i]);
  }
  out += ']';
}

void put_literal(std::string& out, const Literal& lit) {
  switch (lit.kind()) {
    case Literal::Kind::Null: out += "null"; return;
    case Literal::Kind::Bool: out += lit.as_bool() ? "true" : "false"; return;
    case Literal::Kind::Int: put_int(out, lit.as_int()); return;
    case Literal::Kind::UInt: put_uint(out, lit.as_uint()); return;
    case Literal::Kind::Float: out += lit.to_json(); return;
    case Literal::Kind::String: put_string(out, lit.as_string()); return;
    case Literal::Kind::Json: out += lit.as_json(); return;
  }
}

void put_signature(std::string& out, const Signature& sig) {
  out += "{\"params\": [";
  for (size_t i = 0; i < sig.params.size(); ++i) {
    if (i) out += ", ";
    put_string(out, sig.params[i]);
  }
  out += "], \"result\": ";
  put_string(out, sig.result);
  out += ", \"variadic\": ";
  out += sig.variadic ? "true" : "false";
  out += '}';
}

void put_node(std::string& out, const Function& fn, const Node& node) {
  out += "{\"opcode\": ";
  put_string(out, fn.op_name(node.op));
  out += ", \"control\": ";
  put_ids(out, node.control);
  out += ", \"literals\": [";
  for (size_t i = 0; i < node.literals.size(); ++i) {
    if (i) out += ", ";
    put_literal(out, node.literals[i]);
  }
  out += "], \"inputs\": ";
  put_ids(out, node.inputs);
  if (!node.place.none()) {
    out += ", \"place\": ";
    put_string(out, x64::place_name(node.place));
  }
  if (node.loc.valid()) {
    out += ", \"loc\": [";
    put_uint(out, node.loc.file);
    out += ", ";
    put_uint(out, node.loc.line);
    out += ", ";
    put_uint(out, node.loc.col);
    out += ']';
  }
  out += '}';
}

// `, "attrs": {...}` with the attributes that differ from the default, or
// nothing when none does.
void put_attrs(std::string& out, const SymbolAttrs& a) {
  if (a.is_default()) return;
  out += ", \"attrs\": {";
  const char* sep = "";
  auto key = [&](const char* k) {
    out += sep;
    out += '"';
    out += k;
    out += "\": ";
    sep = ", ";
  };
  if (a.weak) key("weak"), out += "true";
  if (a.visibility != Visibility::Default) key("visibility"), put_string(out, visibility_name(a.visibility));
  if (a.used) key("used"), out += "true";
  if (a.common) key("common"), out += "true";
  if (a.tls) key("tls"), out += "true";
  if (a.tls_model != TlsModel::Auto) key("tls_model"), put_string(out, tls_model_name(a.tls_model));
  if (!a.section.empty()) key("section"), put_string(out, a.section);
  if (!a.alias.empty()) key("alias"), put_string(out, a.alias);
  if (a.constructor != SymbolAttrs::kNone) key("constructor"), put_uint(out, static_cast<uint64_t>(a.constructor));
  if (a.destructor != SymbolAttrs::kNone) key("destructor"), put_uint(out, static_cast<uint64_t>(a.destructor));
  if (a.hints) {
    key("hints");
    out += '[';
    const char* hsep = "";
    for (int b = 0; b < kNumHints; ++b)
      if (a.hints & (1u << b)) out += hsep, put_string(out, hint_name(b)), hsep = ", ";
    out += ']';
  }
  out += '}';
}

void put_extern(std::string& out, const Extern& ext) {
  out += "{\"name\": ";
  put_string(out, ext.name);
  out += ext.kind == ExternKind::Function ? ", \"kind\": \"function\"" : ", \"kind\": \"data\"";
  if (ext.signature) {
    out += ", \"signature\": ";
    put_signature(out, *ext.signature);
  }
  put_attrs(out, ext.attrs);
  out += '}';
}

void put_data_item(std::string& out, const DataItem& item) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "{\"name\": ";
  put_string(out, item.name);
  out += ", \"linkage\": ";
  put_string(out, linkage_name(item.linkage));
  out += ", \"size\": ";
  put_uint(out, item.size);
  out += ", \"align\": ";
  put_uint(out, item.align);
  out += ", \"readonly\": ";
  out += item.readonly ? "true" : "false";
  out += ", \"init\": \"";
  for (char ch : item.init) {
    unsigned char c = static_cast<unsigned char>(ch);
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  out += "\", \"relocs\": [";
  for (size_t i = 0; i < item.relocs.size(); ++i) {
    const Reloc& r = item.relocs[i];
    if (i) out += ", ";
    out += "{\"offset\": ";
    put_uint(out, r.offset);
    out += ", \"symbol\": ";
    put_string(out, r.symbol);
    out += ", \"addend\": ";
    put_int(out, r.addend);
    out += '}';
  }
  out += ']';
  put_attrs(out, item.attrs);
  out += '}';
}

void put_block(std::string& out, const Block& b) {
  out += "{\"node\": ";
  put_uint(out, b.node);
  out += ", \"successors\": ";
  put_ids(out, b.successors);
  out += ", \"nodes\": ";
  put_ids(out, b.nodes);
  out += '}';
}

void put_dom_block(std::string& out, const DomBlock& b) {
  out += "{\"node\": ";
  put_uint(out, b.node);
  out += ", \"parent\": ";
  if (b.parent) {
    put_uint(out, *b.parent);
  } else {
    out += "null";
  }
  out += ", \"frontier\": ";
  put_ids(out, b.frontier);
  out += '}';
}

class JsonWriter final : public ModuleWriter {
 public:
  explicit JsonWriter(ByteSink& sink) : sink_(sink) {}

  void begin(const ModuleHeader& h) override {
    out_ += "{\n  \"format\": \"pipe\",\n  \"version\": 1,\n  \"level\": ";
    put_string(out_, level_name(h.level));
    out_ += ",\n  \"files\": [";
    for (size_t i = 0; i < h.files.size(); ++i) {
      if (i) out_ += ", ";
      put_string(out_, h.files[i]);
    }
    out_ += "],\n  \"externs\": ";
    put_lines(h.externs, "  ", [&](const Extern& e) { put_extern(out_, e); });
    out_ += ",\n  \"data\": ";
    put_lines(h.data, "  ", [&](const DataItem& d) { put_data_item(out_, d); });
    if (!h.debug.empty()) {
      out_ += ",\n  \"debug\": ";
      out_ += debug_to_json(h.debug);
    }
    if (!h.toplevel_asm.empty()) {
      out_ += ",\n  \"asm\": [";
      for (size_t i = 0; i < h.toplevel_asm.size(); ++i) {
        if (i) out_ += ", ";
        put_string(out_, h.toplevel_asm[i]);
      }
      out_ += ']';
    }
    out_ += ",\n  \"functions\": [";
    drain_if_big();
  }

  void function(const Function& fn) override {
    out_ += any_function_ ? ",\n    {\n      \"name\": " : "\n    {\n      \"name\": ";
    any_function_ = true;
    put_string(out_, fn.name);
    out_ += ",\n      \"linkage\": ";
    put_string(out_, linkage_name(fn.linkage));
    out_ += ",\n      \"signature\": ";
    put_signature(out_, fn.signature);
    if (!fn.attrs.is_default()) {
      out_ += ",\n      \"attrs\": ";
      std::string attrs;
      put_attrs(attrs, fn.attrs);
      out_.append(attrs, 11, std::string::npos);  // without its leading `, "attrs": `
    }
    out_ += ",\n      \"nodes\": ";
    put_lines(fn.nodes, "      ", [&](const Node& n) { put_node(out_, fn, n); });
    if (fn.cfg) {
      out_ += ",\n      \"cfg\": {\n        \"blocks\": ";
      put_lines(fn.cfg->blocks, "        ", [&](const Block& b) { put_block(out_, b); });
      out_ += "\n      }";
    }
    if (fn.dominance) {
      out_ += ",\n      \"dominance\": {\n        \"blocks\": ";
      put_lines(fn.dominance->blocks, "        ", [&](const DomBlock& b) { put_dom_block(out_, b); });
      out_ += "\n      }";
    }
    if (!fn.debug.empty()) {
      out_ += ",\n      \"debug\": ";
      out_ += debug_to_json(fn.debug);
    }
    out_ += "\n    }";
    drain();
    sink_.flush();
  }

  // ---- Module pieces ----
  void piece(const ModulePiece& p) override {
    if (p.empty()) return;
    out_ += any_function_ ? ",\n    {\"piece\": {" : "\n    {\"piece\": {";
    any_function_ = true;
    const char* sep = "\n      ";
    if (!p.files.empty()) {
      out_ += sep;
      sep = ",\n      ";
      out_ += "\"files\": [";
      for (size_t i = 0; i < p.files.size(); ++i) {
        if (i) out_ += ", ";
        put_string(out_, p.files[i]);
      }
      out_ += ']';
    }
    if (!p.externs.empty()) {
      out_ += sep;
      sep = ",\n      ";
      out_ += "\"externs\": ";
      put_lines(p.externs, "      ", [&](const Extern& e) { put_extern(out_, e); });
    }
    if (!p.data.empty()) {
      out_ += sep;
      out_ += "\"data\": ";
      put_lines(p.data, "      ", [&](const DataItem& d) { put_data_item(out_, d); });
    }
    out_ += "\n    }}";
    drain_if_big();
  }

  void end() override {
    out_ += any_function_ ? "\n  ]\n}\n" : "]\n}\n";
    drain();
    sink_.flush();
  }

 private:
  // `[]`, or `[` + one item per line indented by `indent` + 2 + `]` at
  // `indent`.
  template <typename T, typename Put>
  void put_lines(const std::vector<T>& items, std::string_view indent, Put put) {
    if (items.empty()) {
      out_ += "[]";
      return;
    }
    out_ += '[';
    for (size_t i = 0; i < items.size(); ++i) {
      out_ += i ? ",\n" : "\n";
      out_ += indent;
      out_ += "  ";
      put(items[i]);
      drain_if_big();
    }
    out_ += '\n';
    out_ += indent;
    out_ += ']';
  }

  void drain_if_big() {
    if (out_.size() >= kWriteChunk) drain();
  }
  void drain() {
    if (out_.empty()) return;
    sink_.write(out_);
    out_.clear();
  }

  ByteSink& sink_;
  std::string out_;
  bool any_function_ = false;
};

}  // namespace

std::unique_ptr<ModuleReader> make_json_reader(ByteSource& src) { return std::make_unique<JsonReader>(src); }

std::unique_ptr<ModuleWriter> make_json_writer(ByteSink& sink) { return std::make_unique<JsonWriter>(sink); }

}  // namespace pl
