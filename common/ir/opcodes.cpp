// opcodes.cpp - the opcode table (rows in opcodes.def) and shape helpers.
#include "ir/opcodes.h"

#include <string>
#include <unordered_map>

namespace pl {

namespace {

const std::unordered_map<std::string_view, OpId>& name_index() {
  static const auto* index = [] {
    auto* m = new std::unordered_map<std::string_view, OpId>();
    for (OpId i = 0; i < kNumOps; ++i) m->emplace(kOpTable[i].name, i);
    return m;
  }();
  return *index;
}

bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '.'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == ':'; }

}  // namespace

std::optional<OpId> find_op(std::string_view name) {
  auto it = name_index().find(name);
  if (it == name_index().end()) return std::nullopt;
  return it->second;
}

bool valid_opcode_name(std::string_view name) {
  if (name.empty() || !is_name_start(name[0])) return false;
  for (char c : name)
    if (!is_name_char(c)) return false;
  auto colon = name.find(':');
  return colon == std::string_view::npos || (colon > 0 && colon + 1 < name.size());
}

std::string shape_count_text(std::string_view shape) {
  ShapeParts p = split_shape(shape);
  std::string n = std::to_string(p.fixed.size());
  if (p.repeat) return "at least " + n;
  if (p.optional) return n + " or " + std::to_string(p.fixed.size() + 1);
  return n;
}

bool control_accepts(std::string_view control, size_t count) {
  if (control == "+") return count >= 1;
  if (control == "1") return count == 1;
  return count == 0;
}

}  // namespace pl
