// opcodes.cpp - the opcode table (rows in opcodes.def) and shape helpers.
#include "opcodes.h"

#include <string>
#include <unordered_map>

namespace pl {

namespace {

constexpr OpInfo kTable[] = {
#define OP(e, name, lits, ins, res, ctrl, flags, levels) {name, lits, ins, res, ctrl, flags, levels},
#include "opcodes.def"
#undef OP
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == kNumOps);

const std::unordered_map<std::string_view, OpId>& name_index() {
  static const auto* index = [] {
    auto* m = new std::unordered_map<std::string_view, OpId>();
    for (OpId i = 0; i < kNumOps; ++i) m->emplace(kTable[i].name, i);
    return m;
  }();
  return *index;
}

bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '.'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == ':'; }

// A shape is letters with an optional trailing '*' or '?' on the last one.
struct ShapeParts {
  std::string_view fixed;  // letters that must all be present
  char repeat = '\0';      // letter repeated 0+ times ('*')
  char optional = '\0';    // letter present 0 or 1 times ('?')
};

ShapeParts split_shape(std::string_view shape) {
  ShapeParts p;
  if (!shape.empty() && (shape.back() == '*' || shape.back() == '?') && shape.size() >= 2) {
    char letter = shape[shape.size() - 2];
    (shape.back() == '*' ? p.repeat : p.optional) = letter;
    p.fixed = shape.substr(0, shape.size() - 2);
  } else {
    p.fixed = shape;
  }
  return p;
}

}  // namespace

const OpInfo& op_info(OpId op) { return kTable[op]; }

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

bool shape_accepts(std::string_view shape, size_t count) {
  ShapeParts p = split_shape(shape);
  if (p.repeat) return count >= p.fixed.size();
  if (p.optional) return count == p.fixed.size() || count == p.fixed.size() + 1;
  return count == p.fixed.size();
}

char shape_letter(std::string_view shape, size_t index) {
  ShapeParts p = split_shape(shape);
  if (index < p.fixed.size()) return p.fixed[index];
  if (p.repeat) return p.repeat;
  if (p.optional && index == p.fixed.size()) return p.optional;
  return '\0';
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
