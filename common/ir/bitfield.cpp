// bitfield.cpp - decode_bitfield (bitfield.h).
#include "ir/bitfield.h"

namespace pl {

namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

unsigned int_type_bits(std::string_view t) {
  return t == "i8" ? 8 : t == "i16" ? 16 : t == "i32" ? 32 : t == "i64" ? 64 : 0;
}

}  // namespace

std::optional<BitFieldAccess> decode_bitfield(const Node& n, std::string& why) {
  const auto& lit = n.literals;
  auto is_count = [&](size_t i) { return lit[i].kind() == Literal::Kind::UInt || (lit[i].kind() == Literal::Kind::Int && lit[i].as_int() >= 0); };
  if (lit.size() != 5 || lit[0].kind() != Literal::Kind::String || lit[1].kind() != Literal::Kind::String ||
      !is_count(2) || !is_count(3) || !is_count(4)) {
    why = "the literals must be the field type, \"signed\" or \"unsigned\", and three non-negative integers";
    return std::nullopt;
  }
  auto count = [&](size_t i) { return lit[i].kind() == Literal::Kind::UInt ? lit[i].as_uint() : static_cast<uint64_t>(lit[i].as_int()); };
  BitFieldAccess a;
  a.type = std::string(lit[0].as_string());
  unsigned bits = int_type_bits(a.type);
  if (bits == 0) {
    why = "the field type " + quoted(a.type) + " is not i8, i16, i32 or i64";
    return std::nullopt;
  }
  std::string_view sign = lit[1].as_string();
  if (sign != "signed" && sign != "unsigned") {
    why = "literal 1 must be \"signed\" or \"unsigned\", found " + quoted(sign);
    return std::nullopt;
  }
  a.is_signed = sign == "signed";
  a.unit = count(2);
  a.offset = count(3);
  uint64_t width = count(4);
  if (width == 0 || width > bits) {
    why = "the width " + std::to_string(width) + " is not 1 to " + std::to_string(bits) + " (the bits of " +
          quoted(a.type) + ")";
    return std::nullopt;
  }
  if (a.unit > (uint64_t{1} << 40) || a.offset > 8 * a.unit || width > 8 * a.unit - a.offset) {
    why = "the field (bits " + std::to_string(a.offset) + " and up, " + std::to_string(width) +
          " wide) does not fit in its " + std::to_string(a.unit) + "-byte unit";
    return std::nullopt;
  }
  a.width = static_cast<unsigned>(width);
  a.is_volatile = n.op == Op::AstBitLoadV || n.op == Op::AstBitStoreV;
  return a;
}

}  // namespace pl
