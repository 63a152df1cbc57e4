// json_lex.cpp - JSON strings and numbers for the JSON and printable readers
// and nested array/object literals for both (see json_lex.h).
#include "encoding/json_lex.h"

#include "ir/error.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <system_error>
#include <utility>

#include <nlohmann/json.hpp>

namespace pl::json_lex {

namespace {

using Code = Error::Code;

bool is_digit(int c) { return c >= '0' && c <= '9'; }

// Byte i of text, or -1 past its end.
int byte_at(std::string_view text, size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : -1; }

bool fail(Error& err, Code code, size_t at, size_t unit, std::string message) {
  err.code = code;
  err.at = at;
  err.unit = unit;
  err.message = std::move(message);
  return false;
}

// The range ended at `at` inside the token; the caller resumes at `resume`.
bool truncated(Error& err, size_t& pos, size_t at, size_t resume) {
  pos = resume;
  return fail(err, Code::Truncated, at, resume, {});
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Length of a UTF-8 sequence from its lead byte (0: not a lead byte) and
// the range of its second byte (which excludes overlongs, surrogates and
// code points above U+10FFFF); the other continuation bytes are 0x80-0xBF.
size_t utf8_lead(int lead, int& lo, int& hi) {
  lo = 0x80;
  hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) {
    if (lead == 0xE0) lo = 0xA0;
    if (lead == 0xED) hi = 0x9F;
    return 3;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
    return 4;
  }
  return 0;
}

// Four hex digits at pos (after `\u`) of the escape starting at `esc`.
bool hex4(std::string_view text, size_t pos, RangeEnd end, size_t esc, size_t& resume, uint32_t& value,
          Error& err) {
  if (end == RangeEnd::Window && pos + 4 > text.size()) return truncated(err, resume, pos, esc);
  value = 0;
  for (size_t i = pos; i < pos + 4; ++i) {
    int h = hex_value(byte_at(text, i));
    if (h < 0) return fail(err, Code::Hex, i, esc, "invalid \\u escape: expected 4 hex digits");
    value = value * 16 + static_cast<uint32_t>(h);
  }
  return true;
}

// The escape at pos (a backslash), decoded onto `out`; pos moves past it.
bool escape(std::string_view text, size_t& pos, RangeEnd end, std::string& out, Error& err) {
  const size_t esc = pos;
  // Even on a line, a string that ends in a backslash is a string left open.
  if (esc + 1 >= text.size()) return truncated(err, pos, esc, esc);
  switch (text[esc + 1]) {
    case '"': out += '"'; break;
    case '\\': out += '\\'; break;
    case '/': out += '/'; break;
    case 'b': out += '\b'; break;
    case 'f': out += '\f'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    case 't': out += '\t'; break;
    case 'u': {
      size_t i = esc + 2;
      uint32_t cp = 0;
      if (!hex4(text, i, end, esc, pos, cp, err)) return false;
      const std::string_view first = text.substr(i, 4);
      i += 4;
      if (cp >= 0xDC00 && cp <= 0xDFFF)
        return fail(err, Code::Surrogate, esc, esc,
                    "invalid \\u escape: \\u" + std::string(first) + " is a low surrogate without a high one before it");
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        auto unpaired_high = [&] {
          return fail(err, Code::Surrogate, esc, esc,
                      "invalid \\u escape: \\u" + std::string(first) + " is a high surrogate without a low one after it");
        };
        if (end == RangeEnd::Window && i + 2 > text.size()) return truncated(err, pos, i, esc);
        if (byte_at(text, i) != '\\' || byte_at(text, i + 1) != 'u') return unpaired_high();
        i += 2;
        uint32_t low = 0;
        if (!hex4(text, i, end, esc, pos, low, err)) return false;
        i += 4;
        if (low < 0xDC00 || low > 0xDFFF) return unpaired_high();
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      append_utf8(out, cp);
      pos = i;
      return true;
    }
    default:
      return fail(err, Code::Escape, esc, esc,
                  "invalid escape in string (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
  }
  pos = esc + 2;
  return true;
}

// The UTF-8 sequence at pos (lead byte >= 0x80), validated and copied.
bool utf8_sequence(std::string_view text, size_t& pos, RangeEnd end, std::string& out, Error& err) {
  int lo = 0, hi = 0;
  const size_t len = utf8_lead(static_cast<unsigned char>(text[pos]), lo, hi);
  if (len == 0) return fail(err, Code::Utf8, pos, pos, "invalid utf-8 in string");
  if (end == RangeEnd::Window && pos + len > text.size()) return truncated(err, pos, pos, pos);
  if (utf8_length(text, pos) == 0) return fail(err, Code::Utf8, pos, pos, "invalid utf-8 in string");
  out.append(text.data() + pos, len);
  pos += len;
  return true;
}

}  // namespace

bool valid_utf8(std::string_view text) {
  for (size_t pos = 0; pos < text.size();) {
    if (static_cast<unsigned char>(text[pos]) < 0x80) {
      ++pos;
      continue;
    }
    const size_t len = utf8_length(text, pos);
    if (len == 0) return false;
    pos += len;
  }
  return true;
}

size_t utf8_length(std::string_view text, size_t pos) {
  int lo = 0, hi = 0;
  const size_t len = utf8_lead(byte_at(text, pos), lo, hi);
  for (size_t k = 1; k < len; ++k) {
    const int c = byte_at(text, pos + k);
    if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xBF)) return 0;
  }
  return len;
}

bool read_string(std::string_view text, size_t& pos, RangeEnd end, std::string& out, Error& err) {
  const char* data = text.data();
  const size_t n = text.size();
  for (;;) {
    size_t run = pos;
    while (run < n) {
      unsigned char c = static_cast<unsigned char>(data[run]);
      if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
      ++run;
    }
    out.append(data + pos, run - pos);
    pos = run;
    if (pos == n) return truncated(err, pos, n, n);  // the string is still open
    const unsigned char c = static_cast<unsigned char>(data[pos]);
    if (c == '"') {
      ++pos;
      return true;
    }
    if (c < 0x20)
      return fail(err, Code::Control, pos, pos, "control character in string (write it as an escape such as \\n or \\u00XX)");
    if (!(c == '\\' ? escape(text, pos, end, out, err) : utf8_sequence(text, pos, end, out, err))) return false;
  }
}

bool scan_number(std::string_view text, size_t& pos, RangeEnd end, NumberToken& token, Error& err) {
  const size_t start = pos;
  token = NumberToken{start, start, false, false};
  // A digit must be at pos: an error at `at`, or Truncated at the end of a window.
  auto need_digit = [&](size_t at, const char* what) {
    if (end == RangeEnd::Window && pos >= text.size()) return truncated(err, pos, pos, start);
    if (is_digit(byte_at(text, pos))) return true;
    return fail(err, Code::Number, at, start, std::string("invalid number: expected a digit ") + what);
  };
  if (byte_at(text, pos) == '-') {
    token.negative = true;
    ++pos;
    if (!need_digit(start, "after '-'")) return false;
  }
  if (byte_at(text, pos) == '0') {
    ++pos;
  } else {
    while (is_digit(byte_at(text, pos))) ++pos;
  }
  if (byte_at(text, pos) == '.') {
    token.is_float = true;
    ++pos;
    if (!need_digit(pos, "after '.'")) return false;
    while (is_digit(byte_at(text, pos))) ++pos;
  }
  if (byte_at(text, pos) == 'e' || byte_at(text, pos) == 'E') {
    token.is_float = true;
    ++pos;
    if (byte_at(text, pos) == '+' || byte_at(text, pos) == '-') ++pos;
    if (!need_digit(pos, "in the exponent")) return false;
    while (is_digit(byte_at(text, pos))) ++pos;
  }
  token.end = pos;
  return true;
}

bool number_value(std::string_view text, const NumberToken& token, Number& out, Error& err) {
  const char* first = text.data() + token.start;
  const char* last = text.data() + token.end;
  out = Number();
  if (token.is_float) {
    out.kind = Number::Kind::Float;
    auto [ptr, ec] = std::from_chars(first, last, out.d);
    (void)ptr;
    if (ec == std::errc::result_out_of_range) {
      // Overflow or underflow: strtod tells which (underflow is a tiny or
      // zero value).
      out.d = std::strtod(std::string(first, last).c_str(), nullptr);
      if (!std::isfinite(out.d))
        return fail(err, Code::Range, token.start, token.start,
                    "number is out of range of a 64-bit float (it must be finite)");
      out.underflow = true;
    } else if (ec != std::errc()) {
      return fail(err, Code::Range, token.start, token.start, "invalid number");
    }
    return true;
  }
  uint64_t mag = 0;
  auto [ptr, ec] = std::from_chars(first + (token.negative ? 1 : 0), last, mag);
  (void)ptr;
  constexpr uint64_t kMinMag = uint64_t{1} << 63;  // |INT64_MIN|
  if (token.negative) {
    if (ec != std::errc() || mag > kMinMag)
      return fail(err, Code::Range, token.start, token.start, "integer is out of range (below -2^63)");
    out.i = mag == kMinMag ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(mag);
    return true;
  }
  if (ec != std::errc()) return fail(err, Code::Range, token.start, token.start, "integer is out of range (above 2^64-1)");
  if (mag <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    out.i = static_cast<int64_t>(mag);
  } else {
    out.kind = Number::Kind::UInt;
    out.u = mag;
  }
  return true;
}

// ---- nested literals ----------------------------------------------------------

namespace {

bool is_alnum(int c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_blank(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Longest run of word bytes read for a keyword or a message.
constexpr size_t kWordMax = 16;

std::string quote(std::string_view s) { return quote_for_message(s); }

// One array or object literal over text, recursively; the depth is bounded
// by kMaxDepth, so is the recursion. Every member function returns false with
// err_ set on an error. Truncated errors (the range ended first) have `at`
// where the missing bytes start and `unit` at the innermost construct left
// open: a string's quote, or an array's or object's bracket.
class Nested {
 public:
  Nested(std::string_view text, RangeEnd end, char comment, Error& err)
      : text_(text), end_(end), comment_(comment), err_(err) {}

  size_t pos = 0;

  // The array or object at pos (text[pos] is '[' or '{'), `depth` the number
  // of arrays and objects it is inside.
  bool structure(nlohmann::json& out, int depth) {
    const size_t open = pos;
    if (depth >= kMaxDepth)
      return fail(Code::Depth, open, "literal is nested deeper than " + std::to_string(kMaxDepth) + " levels");
    ++pos;
    return text_[open] == '[' ? array(out, open, depth + 1) : object(out, open, depth + 1);
  }

 private:
  bool fail(Code code, size_t at, std::string message) { return json_lex::fail(err_, code, at, at, std::move(message)); }
  // The range ended at `at` inside the construct opened at `open`.
  bool cut(size_t at, size_t open) {
    err_.code = Code::Truncated;
    err_.at = at;
    err_.unit = open;
    err_.message.clear();
    return false;
  }

  // Skips blanks; false (Truncated) if the range ends first, or, on a line, a
  // comment starts.
  bool next(size_t open) {
    while (pos < text_.size() && is_blank(static_cast<unsigned char>(text_[pos]))) ++pos;
    if (pos == text_.size() || (comment_ != '\0' && text_[pos] == comment_)) return cut(pos, open);
    return true;
  }

  // "<expected>, found <the token at pos>" at pos (next() has succeeded).
  bool fail_found(const std::string& expected, size_t open) {
    const int c = static_cast<unsigned char>(text_[pos]);
    std::string found;
    switch (c) {
      case '{': found = "an object"; break;
      case '[': found = "an array"; break;
      case '"': found = "a string"; break;
      case '-': found = "a number"; break;
      default:
        if (is_digit(c)) {
          found = "a number";
        } else if (is_alnum(c)) {
          size_t end = pos;
          while (end - pos < kWordMax && end < text_.size() && is_alnum(static_cast<unsigned char>(text_[end]))) ++end;
          if (end_ == RangeEnd::Window && end - pos < kWordMax && end == text_.size()) return cut(end, open);
          found = quote(text_.substr(pos, end - pos));
        } else if (c >= 0x21 && c < 0x7F) {
          found = std::string("'") + static_cast<char>(c) + "'";
        } else {
          static constexpr char kHex[] = "0123456789abcdef";
          found = std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15];
        }
    }
    return fail(Code::Syntax, pos, expected + ", found " + found);
  }

  bool array(nlohmann::json& out, size_t open, int depth) {
    out = nlohmann::json::array();
    auto& items = out.get_ref<nlohmann::json::array_t&>();
    if (!next(open)) return false;
    if (text_[pos] == ']') {
      ++pos;
      return true;
    }
    for (;;) {
      if (!value(items.emplace_back(), open, depth)) return false;
      if (!next(open)) return false;
      const char c = text_[pos];
      if (c == ']') {
        ++pos;
        return true;
      }
      if (c != ',') return fail_found("expected ',' or ']' in a literal array", open);
      ++pos;
      if (!next(open)) return false;
      if (text_[pos] == ']') return fail(Code::Syntax, pos, "expected a value after ',' in a literal array, found ']'");
    }
  }

  bool object(nlohmann::json& out, size_t open, int depth) {
    out = nlohmann::json::object();
    auto& members = out.get_ref<nlohmann::json::object_t&>();
    if (!next(open)) return false;
    if (text_[pos] == '}') {
      ++pos;
      return true;
    }
    std::string key;
    for (;;) {
      if (text_[pos] != '"') return fail_found("expected a key string in a literal object", open);
      const size_t key_at = pos;
      key.clear();
      if (!string(key)) return false;
      auto [slot, inserted] = members.try_emplace(key);
      if (!inserted) return fail(Code::Duplicate, key_at, "duplicate key " + quote(key) + " in a literal object");
      if (!next(open)) return false;
      if (text_[pos] != ':') return fail_found("expected ':' after key " + quote(key), open);
      ++pos;
      if (!value(slot->second, open, depth)) return false;
      if (!next(open)) return false;
      const char c = text_[pos];
      if (c == '}') {
        ++pos;
        return true;
      }
      if (c != ',') return fail_found("expected ',' or '}' in a literal object", open);
      ++pos;
      if (!next(open)) return false;
    }
  }

  // Any value, after blanks, inside the construct opened at `open`.
  bool value(nlohmann::json& out, size_t open, int depth) {
    if (!next(open)) return false;
    const int c = static_cast<unsigned char>(text_[pos]);
    switch (c) {
      case '[':
      case '{': return structure(out, depth);
      case '"': {
        std::string s;
        if (!string(s)) return false;
        out = std::move(s);
        return true;
      }
      case 't': return word("true", true, out, open);
      case 'f': return word("false", false, out, open);
      case 'n': return word("null", nullptr, out, open);
      default: break;
    }
    if (c != '-' && !is_digit(c)) return fail_found("expected a JSON value", open);
    NumberToken token;
    Number n;
    if (!scan_number(text_, pos, end_, token, err_)) return err_.code == Code::Truncated ? cut(err_.at, open) : false;
    // In a window, the byte after the number decides where it ends.
    if (end_ == RangeEnd::Window && pos == text_.size()) return cut(pos, open);
    if (!number_value(text_, token, n, err_)) return false;
    switch (n.kind) {
      case Number::Kind::Int: out = n.i; break;
      case Number::Kind::UInt: out = n.u; break;
      case Number::Kind::Float: out = n.d; break;
    }
    return true;
  }

  // The string at pos (its opening quote), decoded onto `out`.
  bool string(std::string& out) {
    const size_t quote_at = pos++;
    if (read_string(text_, pos, end_, out, err_)) return true;
    if (err_.code == Code::Truncated) err_.unit = quote_at;
    return false;
  }

  // true / false / null (pos at its first letter).
  template <typename T>
  bool word(std::string_view expected, T value, nlohmann::json& out, size_t open) {
    size_t end = pos;
    while (end - pos < kWordMax && end < text_.size() && is_alnum(static_cast<unsigned char>(text_[end]))) ++end;
    const std::string_view got = text_.substr(pos, end - pos);
    if (end_ == RangeEnd::Window && end == text_.size() && got.size() < kWordMax) return cut(end, open);
    if (got != expected) return fail(Code::Syntax, pos, "unknown word " + quote(got) + " (expected true, false or null)");
    pos = end;
    out = value;
    return true;
  }

  std::string_view text_;
  RangeEnd end_;
  char comment_;
  Error& err_;
};

}  // namespace

bool read_nested(std::string_view text, size_t& pos, RangeEnd end, std::string& out, Error& err, char comment) {
  Nested parser(text, end, comment, err);
  parser.pos = pos;
  nlohmann::json value;
  if (!parser.structure(value, 0)) return false;
  // Integers are int64/uint64 and floats finite, so nothing rounds; strings
  // and keys are valid UTF-8, so dump() does not throw.
  out = value.dump();
  pos = parser.pos;
  return true;
}

}  // namespace pl::json_lex
