// json_lex.h - JSON scalar lexing shared by the JSON reader (json_format.cpp)
// and the printable reader (text_format.cpp), whose node literals are JSON
// values.
//
// What is shared. Both readers read JSON strings and numbers with these
// functions, so the two encodings accept the same scalars and report the
// same errors:
//   - strings: every JSON escape, \uXXXX with surrogate pairs combined (a
//     lone or reversed surrogate is an error), raw bytes validated as UTF-8;
//   - numbers: the JSON grammar (no leading zeros, no '+', no bare '.'),
//     then an exact value;
//   - kMaxDepth, the nesting limit of arrays and objects (both readers);
//   - utf8_length() (the printable reader's diagnostic context) and
//     hex_value() (the JSON reader's `init` bytes).
// Arrays and objects are not lexed here: each reader turns a literal array or
// object into an nlohmann::json and stores its compact dump(), the canonical
// text every encoding carries and Literal::to_json() returns (keys sorted,
// no spaces, floats in shortest round-trip form, strings escaped as dump()
// escapes them). The JSON reader builds that value from its own token stream
// with these functions (depth counted from the top-level object); the
// printable reader finds the literal's extent on its line (depth counted from
// the literal) and hands it to nlohmann::json::parse.
//
// Invariants.
//   - Exact integers: an integer token is an int64, or a uint64 above
//     INT64_MAX (Number::Kind::UInt); anything else is an error, never a
//     rounded double.
//   - Finite floats: a token with a fraction or exponent is a double; one
//     that overflows is an error. One that underflows reads as a tiny or
//     zero value, flagged Number::underflow (the JSON reader accepts it, as
//     JSON parsers do; the printable reader rejects it).
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
// except a string left open, which is Truncated. The JSON reader lexes the
// window of a ByteSource (RangeEnd::Window): whenever the token needs bytes
// beyond the range the result is Truncated, with `pos` set where to resume
// once the window holds more (the reader refills and calls again, or at the
// end of the input reports "unexpected end of input" at Error::at). The
// window only grows while a token is read (bytes are released between array
// items only), so offsets stay valid across a refill.
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
  bool underflow = false;  // Float: below the smallest double; d is 0 or tiny
  int64_t i = 0;           // Kind::Int
  uint64_t u = 0;          // Kind::UInt (above INT64_MAX)
  double d = 0;            // Kind::Float (finite)
};

// The value of a scanned token (see the invariants); a Range error at
// token.start otherwise.
bool number_value(std::string_view text, const NumberToken& token, Number& out, Error& err);

// Bytes that may continue a number token: a caller with RangeEnd::Window
// has the whole token once it holds the run of these and the byte after it.
inline bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Length of the valid UTF-8 sequence at text[pos] (a lead byte >= 0x80), or
// 0 if it is invalid or cut by the end of text.
size_t utf8_length(std::string_view text, size_t pos);

// 0-15 for a hex digit (either case), -1 otherwise.
inline int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace pl::json_lex
