// literal.cpp - Literal construction and its JSON text.
#include "literal.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace pl {

Literal Literal::unsigned_integer(uint64_t v) {
  if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return integer(static_cast<int64_t>(v));
  return Literal(Value(v));
}

Literal Literal::floating(double v) {
  if (!std::isfinite(v)) throw std::invalid_argument("literal is not a finite number");
  return Literal(Value(v));
}

std::string Literal::to_json() const {
  switch (kind()) {
    case Kind::Null: return "null";
    case Kind::Bool: return as_bool() ? "true" : "false";
    case Kind::Int: return std::to_string(as_int());
    case Kind::UInt: return std::to_string(as_uint());
    case Kind::Float: return nlohmann::json(as_float()).dump();
    case Kind::String: return nlohmann::json(as_string()).dump();
    case Kind::Json: return as_json();
  }
  return "null";
}

}  // namespace pl
