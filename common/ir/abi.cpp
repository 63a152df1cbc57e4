// abi.cpp - parameter types with ABI attributes and call parameter lists
// (see abi.h). Only the canonical spelling is accepted, so a string that
// parses prints back as itself.
#include "ir/abi.h"

#include <algorithm>
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

bool valid_classes(std::string_view classes, uint64_t size) {
  if (is_x87(classes)) return size == 16;
  if (is_complex_x87(classes)) return size == 32;
  if (in_memory(classes)) return size > 0;
  if (size > 16 || classes.size() != (size + 7) / 8) return false;
  if (classes.find_first_not_of("insu") != std::string_view::npos) return false;
  for (size_t k = 0; k < classes.size(); ++k)  // SSEUP only continues an SSE register
    if (classes[k] == 'u' && (k == 0 || classes[k - 1] != 's')) return false;
  return true;
}

// `(SIZE,ALIGN)` or `(SIZE,ALIGN,CLASSES)` of byval and sret.
bool parse_size_align(std::string_view whole, std::string_view args, ParamType& type, std::string* problem) {
  auto bad = [&](const std::string& why) { return fail(problem, quoted(whole) + ": " + why); };
  if (args.size() < 2 || args.front() != '(' || args.back() != ')')
    return bad("expected (SIZE,ALIGN) after '" + std::string(param_attr_name(type.attr)) + "'");
  args = args.substr(1, args.size() - 2);
  size_t comma = args.find(',');
  if (comma == std::string_view::npos) return bad("expected (SIZE,ALIGN) with a comma and no spaces");
  size_t second = args.find(',', comma + 1);
  std::string_view align_text = args.substr(comma + 1, second == std::string_view::npos ? second : second - comma - 1);
  std::optional<uint64_t> size = parse_decimal(args.substr(0, comma));
  std::optional<uint64_t> align = parse_decimal(align_text);
  if (!size) return bad("the size must be a decimal number without sign, spaces or leading zeros");
  if (!align) return bad("the alignment must be a decimal number without sign, spaces or leading zeros");
  if (*align > UINT32_MAX || (*align & (*align - 1)) != 0 || *align == 0)
    return bad("the alignment must be a power of two below 2^32");
  type.size = *size;
  type.align = *align;
  type.classes = default_classes(*size);
  if (second == std::string_view::npos) return true;
  std::string_view classes = args.substr(second + 1);
  if (!valid_classes(classes, *size))
    return bad("the classes must be 'm' (MEMORY), 'x' (X87 X87UP: 16 bytes), 'c' (COMPLEX_X87: 32 bytes) or, up to 16 bytes, one letter per eightbyte: i (INTEGER), "
               "s (SSE), u (SSEUP, after an s), n (NO_CLASS)");
  if (classes == type.classes) return bad("the classes '" + std::string(classes) + "' are the default: leave them out");
  type.classes = std::string(classes);
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
  if (type.attr == ParamAttr::ByVal || type.attr == ParamAttr::SRet) {
    out += "(" + std::to_string(type.size) + "," + std::to_string(type.align);
    if (!type.classes.empty() && type.classes != default_classes(type.size)) out += "," + type.classes;
    out += ")";
  }
  return out;
}

std::string_view param_value_type(std::string_view text) { return text.substr(0, text.find(' ')); }

std::optional<ParamList> parse_param_list(std::string_view text, std::string* problem) {
  auto bad = [&](const std::string& why) -> std::optional<ParamList> {
    fail(problem, "parameter list " + quoted(text) + ": " + why);
    return std::nullopt;
  };
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return bad("expected '(' TYPE, TYPE, ... ')' (the types separated by \", \", '...' after the fixed ones when "
               "variadic)");
  std::string_view inner = text.substr(1, text.size() - 2);
  ParamList list;
  if (inner.empty()) return list;
  for (;;) {
    size_t comma = inner.find(", ");
    std::string_view item = inner.substr(0, comma);
    if (item == "...") {
      if (list.variadic) return bad("'...' twice");
      list.variadic = true;
    } else if (list.variadic) {
      std::string why = param_type_problem(item, 1);
      if (!why.empty()) return bad("variadic argument " + std::to_string(list.varargs.size()) + ": " + why);
      list.varargs.emplace_back(item);
    } else {
      std::string why = param_type_problem(item, list.params.size());
      if (!why.empty()) return bad("parameter " + std::to_string(list.params.size()) + ": " + why);
      list.params.emplace_back(item);
    }
    if (comma == std::string_view::npos) return list;
    inner = inner.substr(comma + 2);
  }
}

std::string param_list_string(const std::vector<std::string>& params, bool variadic,
                              const std::vector<std::string>& varargs) {
  std::string out = "(";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) out += ", ";
    out += params[i];
  }
  if (variadic) out += params.empty() ? "..." : ", ...";
  for (const std::string& v : varargs) out += ", " + v;
  out += ')';
  return out;
}

// ---- classification ---------------------------------------------------------

std::string default_classes(uint64_t size) {
  if (size > 16) return std::string(1, kMemoryClass);
  return std::string((size + 7) / 8, static_cast<char>(EightbyteClass::Integer));
}

std::string classify_aggregate(uint64_t size, const std::vector<AbiScalar>& scalars) {
  if (size > 16) return std::string(1, kMemoryClass);
  std::string classes((size + 7) / 8, static_cast<char>(EightbyteClass::NoClass));
  for (const AbiScalar& s : scalars) {
    if (s.bits == 0) continue;  // an unnamed zero-width bit-field
    if (!s.bitfield && s.bit_offset % s.bits != 0) return std::string(1, kMemoryClass);  // misaligned
    auto cls = s.floating ? EightbyteClass::Sse : EightbyteClass::Integer;
    for (uint64_t word = s.bit_offset / 64; word <= (s.bit_offset + s.bits - 1) / 64 && word < classes.size(); ++word) {
      if (s.vector && word > s.bit_offset / 64) cls = EightbyteClass::SseUp;
      char& c = classes[word];
      bool weaker = c == static_cast<char>(EightbyteClass::NoClass) ||
                    (c == static_cast<char>(EightbyteClass::SseUp) && cls != EightbyteClass::SseUp);
      if (weaker || cls == EightbyteClass::Integer) c = static_cast<char>(cls);
    }
  }
  for (size_t k = 0; k < classes.size(); ++k)
    if (classes[k] == 'u' && (k == 0 || classes[k - 1] != 's')) classes[k] = 's';
  return classes;
}

size_t count_class(std::string_view classes, EightbyteClass c) {
  if (in_memory(classes)) return 0;
  return static_cast<size_t>(std::count(classes.begin(), classes.end(), static_cast<char>(c)));
}

}  // namespace pl
