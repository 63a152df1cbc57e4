// literal.h - a node literal: any JSON value, stored typed.
//
// Scalars (null, bool, integers, finite doubles, strings) are stored as
// themselves so the binary encoding and the stages read them without parsing.
// Arrays and objects are stored as their compact JSON text (Kind::Json),
// which all three encodings carry unchanged. Integers that fit int64 are Int;
// larger non-negative ones are UInt, so every JSON integer is exact.
//
// A Literal is 12 bytes (a function holds millions): a kind byte, then either
// an 8-byte payload (bool, integers, double bits) or a text. Texts of up to
// kInlineText bytes (type names such as "i32", short symbols) are stored in
// the literal itself; longer ones in a heap block the literal owns. So the
// common literal needs no allocation, and copying, moving and destroying one
// are a few byte copies. as_string() and as_json() return views into the
// literal: valid while it lives and is not assigned to.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>

#include "small_vec.h"

namespace pl {

class Literal {
 public:
  enum class Kind : uint8_t { Null, Bool, Int, UInt, Float, String, Json };
  // Texts up to this many bytes live inside the literal.
  static constexpr size_t kInlineText = 10;

  Literal() noexcept = default;
  Literal(const Literal& o) {
    if (o.len_ == kHeapText) [[unlikely]] {
      copy_from(o);
      return;
    }
    kind_ = o.kind_;
    len_ = o.len_;
    std::memcpy(bytes_, o.bytes_, sizeof bytes_);
  }
  Literal(Literal&& o) noexcept { steal(o); }
  Literal& operator=(const Literal& o) {
    if (this != &o) {
      Literal copy(o);
      free_text();
      steal(copy);
    }
    return *this;
  }
  Literal& operator=(Literal&& o) noexcept {
    if (this != &o) {
      free_text();
      steal(o);
    }
    return *this;
  }
  ~Literal() { free_text(); }

  static Literal null() { return Literal(); }
  static Literal boolean(bool v) { return Literal(Kind::Bool, v ? 1 : 0); }
  static Literal integer(int64_t v) { return Literal(Kind::Int, static_cast<uint64_t>(v)); }
  // Values <= INT64_MAX are stored as Int, so equal numbers compare equal.
  static Literal unsigned_integer(uint64_t v);
  // Throws std::invalid_argument if v is not finite (JSON has no NaN/inf).
  static Literal floating(double v);
  static Literal string(std::string_view v) { return Literal(Kind::String, v); }
  // `text` must be the compact JSON of an array or object.
  static Literal json(std::string_view text) { return Literal(Kind::Json, text); }

  Kind kind() const { return kind_; }
  bool is_int() const { return kind_ == Kind::Int || kind_ == Kind::UInt; }
  // Each accessor throws std::bad_variant_access if the kind is not its own.
  bool as_bool() const { return payload(Kind::Bool) != 0; }
  int64_t as_int() const { return static_cast<int64_t>(payload(Kind::Int)); }
  uint64_t as_uint() const { return payload(Kind::UInt); }
  double as_float() const {
    uint64_t v = payload(Kind::Float);
    double d;
    std::memcpy(&d, &v, sizeof d);
    return d;
  }
  std::string_view as_string() const { return text(Kind::String); }
  std::string_view as_json() const { return text(Kind::Json); }

  // The 8-byte payload of a Bool (0/1), Int, UInt or Float (IEEE bits)
  // literal, as the binary encoding stores it; 0 for the other kinds.
  uint64_t bits() const {
    if (kind_ == Kind::Null || kind_ == Kind::String || kind_ == Kind::Json) return 0;
    return load_bits();
  }
  // The text of a String or Json literal (no kind check).
  std::string_view text() const {
    if (len_ != kHeapText) return {reinterpret_cast<const char*>(bytes_), len_};
    const char* block = load_ptr();
    size_t size;
    std::memcpy(&size, block, sizeof size);
    return {block + sizeof size, size};
  }

  // For hash tables: a String or Json text of at most kInlineText bytes as
  // two words (its bytes zero-padded in `lo` and the low bytes of `hi`, its
  // length in the top byte of `hi`): equal keys, equal texts. False for a
  // longer text or another kind.
  bool short_text_key(uint64_t& lo, uint64_t& hi) const {
    if (len_ == kHeapText || (kind_ != Kind::String && kind_ != Kind::Json)) return false;
    uint16_t rest;
    std::memcpy(&lo, bytes_, sizeof lo);
    std::memcpy(&rest, bytes_ + 8, sizeof rest);
    if (len_ < 8) lo &= ~(~uint64_t{0} << (8 * len_));
    if (len_ <= 8) rest = 0;
    else if (len_ == 9) rest &= 0xFF;
    hi = rest | (uint64_t{len_} << 56);
    return true;
  }

  // The literal as compact JSON text (the printable form uses this).
  std::string to_json() const;

  friend bool operator==(const Literal& a, const Literal& b);

 private:
  static constexpr uint8_t kHeapText = 0xFF;  // len_ of a text in a heap block
  static constexpr size_t kPayloadAt = 2;     // bytes_ offset of the payload / pointer

  Literal(Kind kind, uint64_t bits) : kind_(kind) { std::memcpy(bytes_ + kPayloadAt, &bits, sizeof bits); }
  Literal(Kind kind, std::string_view text) : kind_(kind) { set_text(text); }

  uint64_t load_bits() const {
    uint64_t v;
    std::memcpy(&v, bytes_ + kPayloadAt, sizeof v);
    return v;
  }
  const char* load_ptr() const {
    const char* p;
    std::memcpy(&p, bytes_ + kPayloadAt, sizeof p);
    return p;
  }
  uint64_t payload(Kind want) const {
    if (kind_ != want) throw std::bad_variant_access();
    return load_bits();
  }
  std::string_view text(Kind want) const {
    if (kind_ != want) throw std::bad_variant_access();
    return text();
  }
  void set_text(std::string_view text);  // kind_ already set; no text owned
  void copy_from(const Literal& o);
  void steal(Literal& o) noexcept {
    kind_ = o.kind_;
    len_ = o.len_;
    std::memcpy(bytes_, o.bytes_, sizeof bytes_);
    o.kind_ = Kind::Null;
    o.len_ = 0;
  }
  void free_text() noexcept {
    if (len_ == kHeapText) release_block();
  }
  void release_block() noexcept;

  Kind kind_ = Kind::Null;
  uint8_t len_ = 0;  // inline text length, or kHeapText
  unsigned char bytes_[10] = {};
};

static_assert(sizeof(Literal) == 12);

// Moving a Literal and destroying the source is a byte copy.
template <>
struct is_trivially_relocatable<Literal> : std::true_type {};

}  // namespace pl
