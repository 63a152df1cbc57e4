// literal.h - a node literal: any JSON value, stored typed.
//
// Scalars (null, bool, integers, finite doubles, strings) are stored as
// themselves so the binary encoding and the stages read them without parsing.
// Arrays and objects are stored as their compact JSON text (Kind::Json),
// which all three encodings carry unchanged. Integers that fit int64 are Int;
// larger non-negative ones are UInt, so every JSON integer is exact.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace pl {

struct JsonText {
  std::string text;  // compact JSON of an array or object
  bool operator==(const JsonText&) const = default;
};

class Literal {
 public:
  enum class Kind : uint8_t { Null, Bool, Int, UInt, Float, String, Json };

  Literal() = default;
  static Literal null() { return Literal(); }
  static Literal boolean(bool v) { return Literal(Value(v)); }
  static Literal integer(int64_t v) { return Literal(Value(v)); }
  // Values <= INT64_MAX are stored as Int, so equal numbers compare equal.
  static Literal unsigned_integer(uint64_t v);
  // Throws std::invalid_argument if v is not finite (JSON has no NaN/inf).
  static Literal floating(double v);
  static Literal string(std::string v) { return Literal(Value(std::move(v))); }
  // `text` must be the compact JSON of an array or object.
  static Literal json(std::string text) { return Literal(Value(JsonText{std::move(text)})); }

  Kind kind() const { return static_cast<Kind>(value_.index()); }
  bool is_int() const { return kind() == Kind::Int || kind() == Kind::UInt; }
  bool as_bool() const { return std::get<bool>(value_); }
  int64_t as_int() const { return std::get<int64_t>(value_); }
  uint64_t as_uint() const { return std::get<uint64_t>(value_); }
  double as_float() const { return std::get<double>(value_); }
  const std::string& as_string() const { return std::get<std::string>(value_); }
  const std::string& as_json() const { return std::get<JsonText>(value_).text; }

  // The literal as compact JSON text (the printable form uses this).
  std::string to_json() const;

  bool operator==(const Literal&) const = default;

 private:
  using Value = std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string, JsonText>;
  explicit Literal(Value v) : value_(std::move(v)) {}
  Value value_;
};


}  // namespace pl
