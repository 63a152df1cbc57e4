// literal.cpp - Literal construction, its texts, and its JSON text.
#include "ir/literal.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace pl {

Literal Literal::unsigned_integer(uint64_t v) {
  if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return integer(static_cast<int64_t>(v));
  return Literal(Kind::UInt, v);
}

Literal Literal::floating(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return Literal(Kind::Float, bits);
}

// A short text in the literal (zero-padded); a long one in a heap block
// holding its size, then its bytes.
void Literal::set_text(Kind kind, std::string_view text) {
  if (text.size() <= kInlineText) {
    unsigned char bytes[12] = {};
    bytes[0] = static_cast<unsigned char>(kind);
    bytes[1] = static_cast<unsigned char>(text.size());
    if (!text.empty()) std::memcpy(bytes + kTextAt, text.data(), text.size());
    uint32_t header;
    uint64_t payload;
    std::memcpy(&header, bytes, sizeof header);
    std::memcpy(&payload, bytes + kPayloadAt, sizeof payload);
    store_header(header);
    store_payload(payload);
    return;
  }
  const size_t size = text.size();
  char* block = static_cast<char*>(::operator new(sizeof size + size));
  std::memcpy(block, &size, sizeof size);
  std::memcpy(block + sizeof size, text.data(), size);
  store_header(static_cast<uint32_t>(kind) | uint32_t{kHeapText} << 8);
  uint64_t address;
  std::memcpy(&address, &block, sizeof address);
  store_payload(address);
}

void Literal::copy_from(const Literal& o) {
  if (o.len() == kHeapText) {
    set_text(o.kind(), o.text());
  } else {
    store_header(o.load_header());
    store_payload(o.load_payload());
  }
}

void Literal::release_block() noexcept {
  ::operator delete(const_cast<char*>(load_ptr()));
  store_header(0);
}

bool operator==(const Literal& a, const Literal& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Literal::Kind::Null: return true;
    case Literal::Kind::Bool:
    case Literal::Kind::Int:
    case Literal::Kind::UInt: return a.load_payload() == b.load_payload();
    case Literal::Kind::Float: return a.load_payload() == b.load_payload();  // bits: -0.0 != 0.0
    case Literal::Kind::String:
    case Literal::Kind::Json: return a.text() == b.text();
  }
  return false;
}

std::string Literal::to_json() const {
  switch (kind()) {
    case Kind::Null: return "null";
    case Kind::Bool: return as_bool() ? "true" : "false";
    case Kind::Int: return std::to_string(as_int());
    case Kind::UInt: return std::to_string(as_uint());
    case Kind::Float:
      if (!std::isfinite(as_float())) return "{\"float\":\"" + float_spelling(bits()) + "\"}";
      return float_spelling(bits());
    case Kind::String: return nlohmann::json(std::string(as_string())).dump();
    case Kind::Json: return std::string(as_json());
  }
  return "null";
}

namespace {

constexpr uint64_t kMantissa = 0x000FFFFFFFFFFFFFull;
constexpr uint64_t kExponent = 0x7FF0000000000000ull;
constexpr uint64_t kSign = 0x8000000000000000ull;
constexpr uint64_t kQuiet = 0x0008000000000000ull;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// "inf", "nan", "nan(0xM)" without a sign.
std::optional<uint64_t> parse_special(std::string_view t) {
  if (t == "inf") return kExponent;
  if (t == "nan") return kExponent | kQuiet;
  if (!t.starts_with("nan(0x") || !t.ends_with(")")) return std::nullopt;
  std::string_view digits = t.substr(6, t.size() - 7);
  if (digits.empty() || digits.size() > 13) return std::nullopt;
  uint64_t m = 0;
  for (char c : digits) {
    if (!is_hex_digit(c)) return std::nullopt;
    m = m * 16 + static_cast<uint64_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  if (m == 0 || m > kMantissa) return std::nullopt;  // 0 would be infinity
  return kExponent | m;
}

}  // namespace

std::string float_spelling(uint64_t bits) {
  const std::string sign = (bits & kSign) ? "-" : "";
  if ((bits & kExponent) == kExponent) {
    const uint64_t m = bits & kMantissa;
    if (m == 0) return sign + "inf";
    if (m == kQuiet) return sign + "nan";
    return sign + "nan(" + hex(m) + ")";
  }
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return nlohmann::json(d).dump();  // shortest round trip, "-0.0", "1.0"
}

std::optional<uint64_t> parse_float_spelling(std::string_view text) {
  bool negative = text.starts_with('-');
  std::string_view t = negative ? text.substr(1) : text;
  const uint64_t sign = negative ? kSign : 0;
  if (t.empty()) return std::nullopt;
  if (std::optional<uint64_t> special = parse_special(t)) return sign | *special;
  double d = 0;
  if (t.starts_with("0x") || t.starts_with("0X")) {
    std::string_view h = t.substr(2);
    if (h.empty() || (!is_hex_digit(h[0]) && h[0] != '.')) return std::nullopt;
    if (h.find_first_of("pP") == std::string_view::npos) return std::nullopt;  // C99: the exponent is required
    auto [ptr, ec] = std::from_chars(h.data(), h.data() + h.size(), d, std::chars_format::hex);
    if (ptr != h.data() + h.size() || (ec != std::errc() && ec != std::errc::result_out_of_range)) return std::nullopt;
    if (ec == std::errc::result_out_of_range) return std::nullopt;
  } else {
    if (t.find_first_of(".eE") == std::string_view::npos || !(t[0] >= '0' && t[0] <= '9')) return std::nullopt;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), d, std::chars_format::general);
    if (ptr != t.data() + t.size()) return std::nullopt;
    if (ec == std::errc::result_out_of_range) {
      // Underflow rounds (to a subnormal or zero) as strtod does; overflow
      // is an error: write inf.
      d = std::strtod(std::string(t).c_str(), nullptr);
      if (!std::isfinite(d)) return std::nullopt;
    } else if (ec != std::errc()) {
      return std::nullopt;
    }
  }
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return sign | bits;
}

// An object whose one key is "float" (the canonical text sorts keys, so
// it starts with that key; the parse settles whether it is the only one).
bool is_float_object(std::string_view canonical) {
  if (!canonical.starts_with("{\"float\":")) return false;
  nlohmann::json j = nlohmann::json::parse(canonical, nullptr, false);
  return j.is_object() && j.size() == 1;
}

Literal literal_from_json_text(std::string_view canonical) {
  if (!is_float_object(canonical)) return Literal::json(canonical);
  const nlohmann::json value = nlohmann::json::parse(canonical, nullptr, false)["float"];
  std::optional<uint64_t> bits;
  if (value.is_string()) bits = parse_float_spelling(value.get<std::string>());
  if (!bits)
    throw std::invalid_argument("invalid floating-point spelling in " + std::string(canonical) +
                                " (expected inf, -inf, nan, -nan, nan(0xM), a decimal or a hex float)");
  return Literal::float_bits(*bits);
}

}  // namespace pl
