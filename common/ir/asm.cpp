// asm.cpp - inline assembly operands and templates (asm.h).
#include "ir/asm.h"

#include <stdexcept>

namespace pl {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::optional<int64_t> parse_int(std::string_view s) {
  if (s.empty()) return std::nullopt;
  bool neg = s[0] == '-';
  if (neg) s.remove_prefix(1);
  if (s.empty() || s.size() > 19) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > static_cast<uint64_t>(INT64_MAX) + (neg ? 1 : 0)) return std::nullopt;
  return neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
}

bool is_register_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || is_digit(c))) return false;
  return true;
}

}  // namespace

std::optional<AsmOperand> parse_asm_operand(std::string_view text, bool x64, std::string& why) {
  AsmOperand op;
  std::vector<std::string_view> parts;
  for (size_t at = 0; at <= text.size();) {
    size_t sp = text.find(' ', at);
    if (sp == std::string_view::npos) sp = text.size();
    parts.push_back(text.substr(at, sp - at));
    at = sp + 1;
  }
  auto fail = [&](std::string w) -> std::optional<AsmOperand> {
    why = "operand '" + std::string(text) + "': " + w;
    return std::nullopt;
  };
  if (parts.size() < 2) return fail("expected a constraint and a type");
  std::string_view c = parts[0];
  if (!c.empty() && (c[0] == '=' || c[0] == '+')) {
    op.output = true;
    op.inout = c[0] == '+';
    c.remove_prefix(1);
    if (!c.empty() && c[0] == '&') {
      op.early = true;
      c.remove_prefix(1);
    }
  }
  if (c.empty()) return fail("no constraint class");
  if (c == "r" || c == "Q" || c == "x" || c == "m" || c == "i") {
    op.cls = c[0];
  } else if (c.size() > 2 && c.front() == '{' && c.back() == '}' && is_register_name(c.substr(1, c.size() - 2))) {
    op.cls = '{';
    op.fixed = std::string(c.substr(1, c.size() - 2));
  } else if (std::optional<int64_t> n = parse_int(c); n && *n >= 0 && c[0] != '-') {
    if (op.output) return fail("a matching constraint is an input's");
    op.cls = 'N';
    op.match = static_cast<int>(*n);
  } else {
    return fail("unknown constraint class '" + std::string(c) + "'");
  }
  if (op.cls == 'i' && op.output) return fail("an immediate cannot be an output");
  if (op.cls == 'i') {
    std::optional<int64_t> v = parse_int(parts[1]);
    if (!v) return fail("an immediate's value must be an integer");
    op.imm = *v;
    if (parts.size() != 2) return fail("an immediate has no register");
    return op;
  }
  std::optional<ValueType> t = parse_value_type(parts[1]);
  if (!t || *t == ValueType::I1) return fail("'" + std::string(parts[1]) + "' is not an operand type");
  op.type = *t;
  if (op.cls == 'm' && op.type != ValueType::Ptr) return fail("a memory operand's type is ptr (its address)");
  if (op.cls == 'x' && !is_float(op.type)) return fail("an xmm operand is f32 or f64");
  if (op.cls != 'x' && op.cls != '{' && op.cls != 'N' && is_float(op.type))
    return fail("a floating-point operand needs an xmm register (x)");
  if (x64) {
    if (parts.size() != 3 || !is_register_name(parts[2])) return fail("expected the chosen register after the type");
    op.reg = std::string(parts[2]);
  } else if (parts.size() != 2) {
    return fail("a register is chosen only at the x64 levels");
  }
  return op;
}

std::string asm_operand_text(const AsmOperand& op, bool x64) {
  std::string s;
  if (op.output) s += op.inout ? "+" : "=";
  if (op.early) s += "&";
  switch (op.cls) {
    case '{': s += "{" + op.fixed + "}"; break;
    case 'N': s += std::to_string(op.match); break;
    default: s += op.cls;
  }
  s += ' ';
  if (op.cls == 'i') return s + std::to_string(op.imm);
  s += value_type_name(op.type);
  if (x64) s += " " + op.reg;
  return s;
}

std::vector<AsmOperand> asm_operands(const Node& n) {
  std::vector<AsmOperand> ops;
  bool x64 = n.op == X64Asm;
  for (size_t i = kAsmFirstOperand; i < n.literals.size(); ++i) {
    std::string why;
    std::optional<AsmOperand> op = parse_asm_operand(n.literals[i].as_string(), x64, why);
    if (!op) throw std::runtime_error(why);
    ops.push_back(std::move(*op));
  }
  return ops;
}

bool asm_is_volatile(const Node& n) { return n.literals[kAsmFlags].as_string() == "volatile"; }

std::vector<std::string> asm_clobbers(const Node& n) {
  std::vector<std::string> out;
  std::string_view s = n.literals[kAsmClobbers].as_string();
  for (size_t at = 0; at < s.size();) {
    size_t comma = s.find(',', at);
    if (comma == std::string_view::npos) comma = s.size();
    out.emplace_back(s.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

bool asm_clobbers_memory(const Node& n) {
  for (const std::string& c : asm_clobbers(n))
    if (c == "memory") return true;
  return false;
}

size_t asm_value_results(const std::vector<AsmOperand>& ops) {
  size_t k = 0;
  for (const AsmOperand& op : ops) k += op.yields_value();
  return k;
}

size_t asm_value_inputs(const std::vector<AsmOperand>& ops) {
  size_t k = 0;
  for (const AsmOperand& op : ops) k += op.reads_value();
  return k;
}

std::optional<std::vector<AsmPiece>> split_asm_template(std::string_view t, size_t operands, std::string& why) {
  std::vector<AsmPiece> out;
  auto text = [&](std::string_view s) {
    if (out.empty() || out.back().kind != AsmPiece::Kind::Text) out.push_back({});
    out.back().text += s;
  };
  for (size_t i = 0; i < t.size();) {
    size_t pct = t.find('%', i);
    if (pct == std::string_view::npos) pct = t.size();
    text(t.substr(i, pct - i));
    if (pct == t.size()) break;
    i = pct + 1;
    if (i < t.size() && (t[i] == '%' || t[i] == '{' || t[i] == '|' || t[i] == '}')) {
      text(t.substr(i, 1));
      ++i;
      continue;
    }
    if (i < t.size() && t[i] == '=') {
      out.push_back({AsmPiece::Kind::Unique, "", 0, 0});
      ++i;
      continue;
    }
    char modifier = 0;
    if (i < t.size() && std::string_view("bwkqhcnPa").find(t[i]) != std::string_view::npos) modifier = t[i++];
    size_t start = i;
    while (i < t.size() && is_digit(t[i])) ++i;
    if (i == start) {
      why = "'%" + std::string(modifier ? std::string(1, modifier) : "") +
            std::string(t.substr(start, start < t.size() ? 1 : 0)) +
            "' in the template is not an operand reference (%N, %bN %wN %kN %qN %hN %cN %nN %PN %aN, %%, %=)";
      return std::nullopt;
    }
    std::optional<int64_t> n = parse_int(t.substr(start, i - start));
    if (!n || static_cast<uint64_t>(*n) >= operands) {
      why = "the template refers to operand %" + std::string(t.substr(start, i - start)) + ", but there are " +
            std::to_string(operands) + " operand(s)";
      return std::nullopt;
    }
    out.push_back({AsmPiece::Kind::Operand, "", modifier, static_cast<size_t>(*n)});
  }
  return out;
}

std::string check_asm_literals(const Node& n, bool x64) {
  if (n.literals.size() < kAsmFirstOperand) return "needs its flags, template and clobbers literals";
  for (const Literal& lit : n.literals)
    if (lit.kind() != Literal::Kind::String) return "every literal is a string, found " + lit.to_json();
  std::string_view flags = n.literals[kAsmFlags].as_string();
  if (flags != "" && flags != "volatile") return "flags literal must be \"\" or \"volatile\"";
  std::vector<AsmOperand> ops;
  for (size_t i = kAsmFirstOperand; i < n.literals.size(); ++i) {
    std::string why;
    std::optional<AsmOperand> op = parse_asm_operand(n.literals[i].as_string(), x64, why);
    if (!op) return why;
    ops.push_back(std::move(*op));
  }
  bool inputs = false;
  for (size_t k = 0; k < ops.size(); ++k) {
    const AsmOperand& op = ops[k];
    if (op.output && inputs) return "operand " + std::to_string(k) + ": outputs come before inputs";
    inputs = inputs || !op.output;
    if (op.cls == 'N') {
      if (static_cast<size_t>(op.match) >= ops.size() || !ops[op.match].output || !ops[op.match].is_register() ||
          ops[op.match].inout)
        return "operand " + std::to_string(k) + ": matches operand " + std::to_string(op.match) +
               ", which is not a \"=\" register output";
      for (size_t j = 0; j < k; ++j)
        if (ops[j].cls == 'N' && ops[j].match == op.match)
          return "operand " + std::to_string(k) + ": output " + std::to_string(op.match) + " is matched twice";
      if (ops[op.match].early) return "operand " + std::to_string(k) + ": matches an early-clobber output";
    }
  }
  for (const std::string& c : asm_clobbers(n))
    if (c != "memory" && c != "cc" && !is_register_name(c)) return "clobber '" + c + "' is not memory, cc or a register";
  std::string why;
  if (!split_asm_template(n.literals[kAsmTemplate].as_string(), ops.size(), why)) return why;
  return "";
}

}  // namespace pl
