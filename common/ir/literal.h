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
// literal (a short text is inside it): valid while the literal lives where
// it is and is not assigned to, like a reference to it (a node vector that
// grows moves its nodes, and their literals with them).
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "ir/small_vec.h"

namespace pl {

class Literal {
 public:
  enum class Kind : uint8_t { Null, Bool, Int, UInt, Float, String, Json };
  // Texts up to this many bytes live inside the literal.
  static constexpr size_t kInlineText = 10;

  Literal() noexcept {
    store_header(0);
    store_payload(0);
  }
  Literal(const Literal& o) {
    if (o.len() == kHeapText) [[unlikely]] {
      copy_from(o);
      return;
    }
    store_header(o.load_header());
    store_payload(o.load_payload());
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
  // Any double, its bits kept exactly (-0.0, infinities, NaN payloads).
  static Literal floating(double v);
  static Literal float_bits(uint64_t bits) { return Literal(Kind::Float, bits); }
  static Literal string(std::string_view v) { return Literal(Kind::String, v); }
  // `text` must be the compact JSON of an array or object.
  static Literal json(std::string_view text) { return Literal(Kind::Json, text); }

  Kind kind() const { return static_cast<Kind>(raw_[0]); }
  bool is_int() const { return kind() == Kind::Int || kind() == Kind::UInt; }
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
    const Kind k = kind();
    if (k == Kind::Null || k == Kind::String || k == Kind::Json) return 0;
    return load_payload();
  }
  // The text of a String or Json literal (no kind check).
  std::string_view text() const {
    if (len() != kHeapText) return {reinterpret_cast<const char*>(raw_ + kTextAt), len()};
    const char* block = load_ptr();
    size_t size;
    std::memcpy(&size, block, sizeof size);
    return {block + sizeof size, size};
  }

  // For hash tables: a String or Json text of at most kInlineText bytes
  // packed in two words (its length and bytes, zero-padded): equal keys,
  // equal texts. False for a longer text or another kind.
  bool short_text_key(uint64_t& lo, uint64_t& hi) const {
    const Kind k = kind();
    if (len() == kHeapText || (k != Kind::String && k != Kind::Json)) return false;
    lo = load_payload();  // text bytes 2..9 (zero beyond the length)
    hi = load_header() >> 8;  // the length, then text bytes 0..1
    return true;
  }

  // Whether the literal whose bytes start at `bytes` has its text in a heap
  // block (for containers testing storage without a branch on whether it
  // holds a live literal).
  static bool raw_owns_text(const unsigned char* bytes) { return bytes[1] == kHeapText; }

  // The literal as compact JSON text (the printable form uses this). A Float
  // that is not finite is the object {"float":"SPELLING"} (float_spelling);
  // a finite one the shortest decimal that reads back to the same bits.
  std::string to_json() const;

  friend bool operator==(const Literal& a, const Literal& b);

 private:
  // Layout, 12 bytes: raw_[0] the kind, raw_[1] the inline text length or
  // kHeapText, raw_[2..12) an inline text (zero-padded: equal texts, equal
  // bytes), or raw_[4..12) the payload or the heap block's address. Every
  // copy moves the header word raw_[0..4) and the payload word raw_[4..12)
  // as two whole words, as every constructor stores them, so a literal made
  // and then moved at once is forwarded from the store buffer, not stalled.
  static constexpr uint8_t kHeapText = 0xFF;
  static constexpr size_t kTextAt = 2;
  static constexpr size_t kPayloadAt = 4;

  Literal(Kind kind, uint64_t bits) {
    store_header(static_cast<uint32_t>(kind));
    store_payload(bits);
  }
  Literal(Kind kind, std::string_view text) { set_text(kind, text); }

  uint8_t len() const { return raw_[1]; }
  uint32_t load_header() const {
    uint32_t h;
    std::memcpy(&h, raw_, sizeof h);
    return h;
  }
  void store_header(uint32_t h) { std::memcpy(raw_, &h, sizeof h); }
  uint64_t load_payload() const {
    uint64_t v;
    std::memcpy(&v, raw_ + kPayloadAt, sizeof v);
    return v;
  }
  void store_payload(uint64_t v) { std::memcpy(raw_ + kPayloadAt, &v, sizeof v); }
  const char* load_ptr() const {
    const char* p;
    std::memcpy(&p, raw_ + kPayloadAt, sizeof p);
    return p;
  }
  uint64_t payload(Kind want) const {
    if (kind() != want) throw std::bad_variant_access();
    return load_payload();
  }
  std::string_view text(Kind want) const {
    if (kind() != want) throw std::bad_variant_access();
    return text();
  }
  void set_text(Kind kind, std::string_view text);  // owns no text yet
  void copy_from(const Literal& o);
  void steal(Literal& o) noexcept {
    store_header(o.load_header());
    store_payload(o.load_payload());
    o.store_header(0);  // null, owns nothing
  }
  void free_text() noexcept {
    if (len() == kHeapText) release_block();
  }
  void release_block() noexcept;

  unsigned char raw_[12];
};

static_assert(sizeof(Literal) == 12);

// ---- floating literals (FORMAT.md 2, "Floating-point literals") ----------------
// The spelling of a double: the shortest round-trip decimal for a finite
// number (always with a fraction or an exponent: "1.0", "-0.0", "1e+300"),
// "inf" / "-inf", "nan" (0x7FF8000000000000) / "-nan" (0xFFF8000000000000),
// and any other NaN as "nan(0xM)" / "-nan(0xM)", M its 52-bit mantissa
// field in hex.
std::string float_spelling(uint64_t bits);
// The bits of a spelling: the forms above, any decimal with a fraction or an
// exponent (rounded to nearest even), and C99 hex floats ("0x1.8p+1",
// "-0x1p-1074"). nullopt if `text` is none of these.
std::optional<uint64_t> parse_float_spelling(std::string_view text);
// JSON carries a non-finite float as the object {"float":"SPELLING"}. Given
// the canonical text of a JSON array or object: the Float literal it stands
// for, or the Json literal itself. Throws std::invalid_argument for an object
// of that form whose spelling is not one.
Literal literal_from_json_text(std::string_view canonical);
// Whether canonical JSON text has the {"float":...} form.
bool is_float_object(std::string_view canonical);

// Moving a Literal and destroying the source is a byte copy.
template <>
struct is_trivially_relocatable<Literal> : std::true_type {};

// Only a literal with its text in a heap block owns anything.
template <>
struct may_own_resources<Literal> {
  static bool test(const unsigned char* bytes) { return Literal::raw_owns_text(bytes); }
};

}  // namespace pl
