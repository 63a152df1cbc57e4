// literal.cpp - Literal construction, its texts, and its JSON text.
#include "literal.h"

#include <cmath>
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
  if (!std::isfinite(v)) throw std::invalid_argument("literal is not a finite number");
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
    case Literal::Kind::Float: return a.as_float() == b.as_float();
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
    case Kind::Float: return nlohmann::json(as_float()).dump();
    case Kind::String: return nlohmann::json(std::string(as_string())).dump();
    case Kind::Json: return std::string(as_json());
  }
  return "null";
}

}  // namespace pl
