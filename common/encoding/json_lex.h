// json_lex.h - JSON lexing shared by the JSON reader (json_format.cpp) and
// the printable reader (text_format.cpp), whose node literals are JSON
// values.
//
// What is shared. Both readers read JSON strings, numbers and array/object
// literals with these functions, so the two encodings accept the same
// literals, give them the same canonical text and report the same errors:
//   - strings: every JSON escape, \uXXXX with surrogate pairs combined (a
//     lone or reversed surrogate is an error), raw bytes validated as UTF-8;
//   - numbers: the JSON grammar (no leading zeros, no '+', no bare '.'),
//     then an exact value;
//   - array and object literals (read_nested): nested at most kMaxDepth
//     levels counted from the literal itself, duplicate keys an error,
//     stored as their canonical text;
//   - utf8_length() (the printable reader's diagnostic context) and
//     hex_value() (the JSON reader's `init` bytes).
// The canonical text of an array or object literal is the compact dump() of
// an nlohmann::json built from exact pieces (integers inserted as int64 or
// uint64, floats as finite doubles, decoded strings): keys sorted, no
// spaces, floats in shortest round-trip form, strings escaped as dump()
// escapes them. It is the text every encoding carries and
// Literal::to_json() returns. The JSON reader hands read_nested() the
// window of its ByteSource, growing it until the literal is whole; the
// printable reader hands it the literal's line (its `#` comments end it).
//
// Invariants.
//   - Exact integers: an integer token is an int64, or a uint64 above
//     INT64_MAX (Number::Kind::UInt); anything else is an error, never a
//     rounded double.
//   - Finite floats: a token with a fraction or exponent is a double; one
//     that overflows is an error. One that underflows reads as the nearest
//     double (a subnormal or zero, as any JSON parser rounds), flagged
//     Number::underflow; both readers accept it.
//   - UTF-8: a decoded string is valid UTF-8 (no overlong forms, no
//     surrogates, nothing above U+10FFFF), so every encoding can write it
//     back (nlohmann's dump() throws on invalid UTF-8). Raw bytes below 0x20
//     are errors (they must be escaped); 0x7F is allowed.
//   - Positions are byte offsets into the range given (the caller turns them
//     into line:col). Each function works on a contiguous range with an
//     index `pos`, never a pointer, so a streaming caller may refill (move)
//     the bytes between calls.
//
// Ranges and their end. The printable reader lexes one whole line
// (RangeEnd::Line): nothing lies beyond it, so a token that runs into the end
// is an error where it stands ("expected 4 hex digits, found end of line"),
// except a string or literal left open, which is Truncated. The JSON reader
// lexes the window of a ByteSource (RangeEnd::Window): whenever the token
// needs bytes beyond the range the result is Truncated, with `pos` set where
// to resume once the window holds more (the reader refills and calls again,
// or at the end of the input reports "unexpected end of input" at Error::at).
// The window only grows while a token is read (bytes are released between
// array items only), so offsets stay valid across a refill.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pl::json_lex {

// Deepest nesting of arrays and objects a reader accepts.
inline constexpr int kMaxDepth = 128;

enum class RangeEnd : uint8_t {
  Line,    // the range is all there is; bytes past its end read as none
  Window,  // more input may follow; a token cut by the end is Truncated
};

struct Error {
  enum class Code : uint8_t {
    Truncated,  // the range ended inside the token (see RangeEnd)
    Escape,     // unknown escape letter
    Hex,        // \u not followed by 4 hex digits
    Surrogate,  // unpaired \u surrogate
    Control,    // raw control character in a string
    Utf8,       // invalid UTF-8 in a string
    Number,     // number grammar (a digit expected)
    Range,      // number out of range (integer beyond 64 bits, float overflow)
    Syntax,     // read_nested: a token the grammar does not allow there
    Duplicate,  // read_nested: a key given twice in one object
    Depth,      // read_nested: nested deeper than kMaxDepth
  };
  Code code = Code::Truncated;
  // The offending byte (a '-' without digits: the '-'; Truncated: where the
  // missing bytes start). The printable reader reports errors here.
  size_t at = 0;
  // Start of the escape (the first of a surrogate pair), UTF-8 sequence or
  // number token the error is in. The JSON reader reports errors here.
  size_t unit = 0;
  std::string message;  // empty for Truncated
};

// Reads a string token whose opening quote is at pos - 1, appending the
// decoded bytes to `out`. True at the closing quote, with pos just after it.
// False with `err` set otherwise; on Truncated, everything before pos has
// been appended and pos is where to resume (the start of a cut escape or
// UTF-8 sequence, or the end of the range).
bool read_string(std::string_view text, size_t& pos, RangeEnd end, std::string& out, Error& err);

// A number token as scanned: text[start, end).
struct NumberToken {
  size_t start = 0;
  size_t end = 0;
  bool negative = false;
  bool is_float = false;  // has a fraction or an exponent
};

// Scans the number token at pos (text[pos] is '-' or a digit), leaving pos
// after it. It stops at the first byte that cannot continue the number and
// does not look at that byte further (`01` scans as `0`). With
// RangeEnd::Window the caller must have the whole token in the range, plus
// the byte after it unless the input ends there (see is_number_char):
// Truncated then means the input ends inside the token.
bool scan_number(std::string_view text, size_t& pos, RangeEnd end, NumberToken& token, Error& err);

struct Number {
  enum class Kind : uint8_t { Int, UInt, Float };
  Kind kind = Kind::Int;
  bool underflow = false;  // Float: rounded to a subnormal or zero (accepted)
  int64_t i = 0;           // Kind::Int
  uint64_t u = 0;          // Kind::UInt (above INT64_MAX)
  double d = 0;            // Kind::Float (finite)
};

// The value of a scanned token (see the invariants); a Range error at
// token.start otherwise.
bool number_value(std::string_view text, const NumberToken& token, Number& out, Error& err);

// Reads the array or object literal at pos (text[pos] is '[' or '{'): true
// with its canonical text (see the header comment) in `out` and pos just
// after its closing bracket. The literal may nest kMaxDepth levels counting
// itself (a bracket opened deeper is a Depth error at that bracket). Blanks
// are JSON's (space, tab, CR, LF). With `comment` non-zero, that byte
// outside a string ends the range like its end (the printable reader's `#`).
// On an error `err` is set and `out` and pos are unspecified: every error
// but Truncated has at == unit, the offending byte (for a key given twice,
// its opening quote), except string and number errors, which are as
// read_string() and number_value() give them. Truncated means the range
// (or a comment) ended inside the literal: `at` is where the missing bytes
// start, `unit` the innermost construct still open (a string's quote, or an
// array's or object's bracket). Messages are the readers' diagnostics:
// "expected ',' or ']' in a literal array, found 'x'", "duplicate key 'a' in
// a literal object", "literal is nested deeper than 128 levels", ...
// The work is bounded by the range: recursion by kMaxDepth, and a range cut
// short is Truncated as soon as the parse reaches its end (for a window: the
// caller grows it until the literal is whole, then calls again).
bool read_nested(std::string_view text, size_t& pos, RangeEnd end, std::string& out, Error& err,
                 char comment = '\0');

// Bytes that may continue a number token: a caller with RangeEnd::Window
// has the whole token once it holds the run of these and the byte after it.
inline bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Length of the valid UTF-8 sequence at text[pos] (a lead byte >= 0x80), or
// 0 if it is invalid or cut by the end of text.
size_t utf8_length(std::string_view text, size_t pos);

// Is all of text valid UTF-8 (what JSON strings, and so every encoding's
// strings, must be)?
bool valid_utf8(std::string_view text);

// 0-15 for a hex digit (either case), -1 otherwise.
inline int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace pl::json_lex
