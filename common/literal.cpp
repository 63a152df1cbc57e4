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

// A long text: one heap block holding its size, then its bytes.
void Literal::set_text(std::string_view text) {
  if (text.size() <= kInlineText) {
    len_ = static_cast<uint8_t>(text.size());
    if (!text.empty()) std::memcpy(bytes_, text.data(), text.size());
    return;
  }
  const size_t size = text.size();
  char* block = static_cast<char*>(::operator new(sizeof size + size));
  std::memcpy(block, &size, sizeof size);
  std::memcpy(block + sizeof size, text.data(), size);
  std::memcpy(bytes_ + kPayloadAt, &block, sizeof block);
  len_ = kHeapText;
}

void Literal::copy_from(const Literal& o) {
  kind_ = o.kind_;
  if (o.len_ == kHeapText) {
    set_text(o.text());
  } else {
    len_ = o.len_;
    std::memcpy(bytes_, o.bytes_, sizeof bytes_);
  }
}

void Literal::release_block() noexcept {
  ::operator delete(const_cast<char*>(load_ptr()));
  len_ = 0;
}

bool operator==(const Literal& a, const Literal& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case Literal::Kind::Null: return true;
    case Literal::Kind::Bool:
    case Literal::Kind::Int:
    case Literal::Kind::UInt: return a.load_bits() == b.load_bits();
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
