// error.h - errors in input, with the location a diagnostic needs.
//
// Every reader and the verifier report bad input by throwing FormatError (or
// collecting Diagnostics). Tools catch it at the top (tool.h) and print
//   tool: FILE:LINE:COL: error: MESSAGE          (text and JSON positions)
//   tool: FILE: byte N: error: MESSAGE           (binary positions)
//   tool: FILE: function 'f': i7: error: MESSAGE (graph entities)
// then exit 1.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pl {

struct Where {
  uint32_t line = 0;                 // 1-based; 0 = unknown
  uint32_t col = 0;                  // 1-based; 0 = unknown
  std::optional<uint64_t> byte;      // byte offset (binary input)
  std::string function;              // function name, if the error is in one
  std::string entity;                // "i7", "b2", "data 'x'", "extern 'f'"

  static Where at(uint32_t line, uint32_t col) { Where w; w.line = line; w.col = col; return w; }
  static Where at_byte(uint64_t offset) { Where w; w.byte = offset; return w; }
  static Where in(std::string function, std::string entity) {
    Where w; w.function = std::move(function); w.entity = std::move(entity); return w;
  }
};

struct Diagnostic {
  Where where;
  std::string message;
  std::string context;  // optional: the offending line, printed below
};

// "FILE:LINE:COL: error: MESSAGE" (see the header comment); `file` may be
// empty. Ends without a newline; context lines follow indented.
std::string format_diagnostic(const std::string& file, const Diagnostic& d);

class FormatError : public std::runtime_error {
 public:
  FormatError(Where where, const std::string& message, std::string context = {})
      : std::runtime_error(message), diag_{std::move(where), message, std::move(context)} {}
  const Diagnostic& diagnostic() const { return diag_; }
  Diagnostic& diagnostic() { return diag_; }

 private:
  Diagnostic diag_;
};

// A piece of input as it appears in a message: in single quotes, cut after
// 60 bytes ("..."), control bytes shown as '?', so a diagnostic stays on one
// line whatever the input holds.
std::string quote_for_message(std::string_view text);

// Node and block names as printed: "i7", "b2".
std::string node_name(uint32_t id);
std::string block_name(uint32_t index);

}  // namespace pl
