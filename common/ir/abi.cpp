// abi.cpp - parameter types with ABI attributes and call parameter lists
// (see abi.h). Only the canonical spelling is accepted, so a string that
// parses prints back as itself.
#include "ir/abi.h"

#include <array>

#include "ir/ir.h"

namespace pl {

namespace {

constexpr std::array<std::string_view, 5> kAttrNames = {"", "signext", "zeroext", "byval", "sret"};

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// A decimal without sign or leading zeros that fits 64 bits.
std::optional<uint64_t> parse_decimal(std::string_view text) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

bool fail(std::string* problem, std::string message) {
  if (problem) *problem = std::move(message);
  return false;
}

// `(SIZE,ALIGN)` of byval and sret.
bool parse_size_align(std::string_view whole, std::string_view args, ParamType& type, std::string* problem) {
  auto bad = [&](const std::string& why) { return fail(problem, quoted(whole) + ": " + why); };
  if (args.size() < 2 || args.front() != '(' || args.back() != ')')
    return bad("expected (SIZE,ALIGN) after '" + std::string(param_attr_name(type.attr)) + "'");
  args = args.substr(1, args.size() - 2);
  size_t comma = args.find(',');
  if (comma == std::string_view::npos) return bad("expected (SIZE,ALIGN) with a comma and no spaces");
  std::optional<uint64_t> size = parse_decimal(args.substr(0, comma));
  std::optional<uint64_t> align = parse_decimal(args.substr(comma + 1));
  if (!size) return bad("the size must be a decimal number without sign, spaces or leading zeros");
  if (!align) return bad("the alignment must be a decimal number without sign, spaces or leading zeros");
  if (*size == 0) return bad("the size must be positive");
  if (*align > UINT32_MAX || (*align & (*align - 1)) != 0 || *align == 0)
    return bad("the alignment must be a power of two below 2^32");
  type.size = *size;
  type.align = *align;
  return true;
}

std::optional<ParamAttr> find_attr(std::string_view name) {
  for (size_t i = 1; i < kAttrNames.size(); ++i)
    if (kAttrNames[i] == name) return static_cast<ParamAttr>(i);
  return std::nullopt;
}

}  // namespace

std::string_view param_attr_name(ParamAttr attr) { return kAttrNames[static_cast<size_t>(attr)]; }

std::optional<ParamType> parse_param_type(std::string_view text, std::string* problem) {
  size_t space = text.find(' ');
  ParamType type;
  type.value_type = std::string(text.substr(0, space));
  if (!is_value_type(type.value_type)) {
    fail(problem, quoted(text) + " does not start with a value type (i1, i8, i16, i32, i64, ptr, f32 or f64)");
    return std::nullopt;
  }
  if (space == std::string_view::npos) return type;
  std::string_view rest = text.substr(space + 1);
  size_t paren = rest.find('(');
  std::optional<ParamAttr> attr = find_attr(rest.substr(0, paren));
  if (!attr) {
    fail(problem, quoted(text) + ": unknown ABI attribute " + quoted(rest.substr(0, paren)) +
                      " (expected signext, zeroext, byval(SIZE,ALIGN) or sret(SIZE,ALIGN), after one space)");
    return std::nullopt;
  }
  type.attr = *attr;
  bool extension = *attr == ParamAttr::SignExt || *attr == ParamAttr::ZeroExt;
  if (extension) {
    if (paren != std::string_view::npos) {
      fail(problem, quoted(text) + ": '" + std::string(param_attr_name(*attr)) + "' takes no arguments");
      return std::nullopt;
    }
    if (type.value_type != "i8" && type.value_type != "i16") {
      fail(problem, quoted(text) + ": '" + std::string(param_attr_name(*attr)) + "' applies only to i8 and i16");
      return std::nullopt;
    }
    return type;
  }
  if (type.value_type != "ptr") {
    fail(problem, quoted(text) + ": '" + std::string(param_attr_name(*attr)) + "' applies only to ptr");
    return std::nullopt;
  }
  std::string_view args = paren == std::string_view::npos ? std::string_view() : rest.substr(paren);
  if (!parse_size_align(text, args, type, problem)) return std::nullopt;
  return type;
}

std::string param_type_problem(std::string_view text, size_t index) {
  std::string problem;
  std::optional<ParamType> type = parse_param_type(text, &problem);
  if (!type) return problem;
  if (type->attr == ParamAttr::SRet && index != 0)
    return quoted(text) + ": 'sret' is valid only on parameter 0 (the hidden result pointer)";
  return "";
}

std::string param_type_string(const ParamType& type) {
  std::string out = type.value_type;
  if (type.attr == ParamAttr::None) return out;
  out += ' ';
  out += param_attr_name(type.attr);
  if (type.attr == ParamAttr::ByVal || type.attr == ParamAttr::SRet)
    out += "(" + std::to_string(type.size) + "," + std::to_string(type.align) + ")";
  return out;
}

std::string_view param_value_type(std::string_view text) { return text.substr(0, text.find(' ')); }

std::optional<ParamList> parse_param_list(std::string_view text, std::string* problem) {
  auto bad = [&](const std::string& why) -> std::optional<ParamList> {
    fail(problem, "parameter list " + quoted(text) + ": " + why);
    return std::nullopt;
  };
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return bad("expected '(' TYPE, TYPE, ... ')' (the types separated by \", \", '...' last when variadic)");
  std::string_view inner = text.substr(1, text.size() - 2);
  ParamList list;
  if (inner.empty()) return list;
  for (;;) {
    size_t comma = inner.find(", ");
    std::string_view item = inner.substr(0, comma);
    if (item == "...") {
      if (comma != std::string_view::npos) return bad("'...' must be last");
      list.variadic = true;
      return list;
    }
    std::string why = param_type_problem(item, list.params.size());
    if (!why.empty()) return bad("parameter " + std::to_string(list.params.size()) + ": " + why);
    list.params.emplace_back(item);
    if (comma == std::string_view::npos) return list;
    inner = inner.substr(comma + 2);
  }
}

std::string param_list_string(const std::vector<std::string>& params, bool variadic) {
  std::string out = "(";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) out += ", ";
    out += params[i];
  }
  if (variadic) out += params.empty() ? "..." : ", ...";
  out += ')';
  return out;
}

}  // namespace pl
