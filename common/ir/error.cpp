// error.cpp - diagnostic text.
#include "ir/error.h"

namespace pl {

std::string format_diagnostic(const std::string& file, const Diagnostic& d) {
  const Where& w = d.where;
  std::string out = file;
  if (w.line) {
    out += ":" + std::to_string(w.line);
    if (w.col) out += ":" + std::to_string(w.col);
  } else if (w.byte) {
    out += ": byte " + std::to_string(*w.byte);
  }
  // Header entities ("data 'x'", "extern 'f'") belong to no function; an
  // anonymous function's nodes are named by the node alone.
  if (!w.function.empty()) out += ": function '" + w.function + "'";
  if (!w.entity.empty()) out += ": " + w.entity;
  out += ": error: " + d.message;
  if (!d.context.empty()) out += "\n    " + d.context;
  return out;
}

std::string quote_for_message(std::string_view text) {
  constexpr size_t kMax = 60;
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < kMax; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    out += c < 0x20 || c == 0x7F ? '?' : static_cast<char>(c);
  }
  if (text.size() > kMax) out += "...";
  return out + "'";
}

std::string node_name(uint32_t id) { return "i" + std::to_string(id); }
std::string block_name(uint32_t index) { return "b" + std::to_string(index); }

}  // namespace pl
