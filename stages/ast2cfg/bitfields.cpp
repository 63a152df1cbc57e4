// bitfields.cpp - ast:bitload and ast:bitstore as masked loads and stores
// of the field's unit (FORMAT.md G, "Bit-fields"; c2ast's bitfields.cpp
// says how the unit is chosen: the bytes of the field's C11 memory
// location, which a write may read and write back and nothing else).
//
// Which accesses (bitfield_pieces): a unit of 1, 2, 4 or 8 bytes is read
// and written whole, by every field in it (as clang's code generator does:
// all the fields of a run then share one access of one type, so sonopt's
// scalar-replace can keep the unit in a register). In other units the
// bytes holding the field's bits, [lo, hi), are covered by one access of
// the smallest width W in 1, 2, 4, 8 bytes not below hi - lo, placed at a
// multiple of W from the unit's start when that stays inside the unit
// (gcc's choice of an aligned mode), else anywhere inside the unit that
// covers [lo, hi). When no access of W bytes
// fits in the unit (a packed 3-byte unit, or a 64-bit field spread over 9
// bytes), the bytes [lo, hi) are split greedily into 8, 4, 2 and 1-byte
// pieces, none leaving [lo, hi). A field never makes an access outside its
// unit.
//
// The arithmetic runs in a working type of 32 bits, or 64 when a piece or
// the field's type is 64 bits wide:
//   read:  each piece is loaded, zero-extended, shifted down to its bits,
//          masked, and shifted up to its place in the field (or-ed
//          together); a signed field is then sign-extended from its width
//          (shl, ashr); a single piece with a signed field is the shl and
//          ashr alone;
//   write: each piece is loaded, its field bits cleared with a constant
//          mask, the value's bits for it or-ed in, and stored back; a piece
//          the field covers entirely is stored without reading it. The
//          value of the write is the value truncated to the width and
//          extended back (shl + ashr, or a mask), in the field's type.
// Volatile fields use load.volatile and store.volatile for every piece.
#include "bitfields.h"

#include <algorithm>

namespace pl {

namespace {

unsigned type_bits(const std::string& type) {
  if (type == "i8") return 8;
  if (type == "i16") return 16;
  if (type == "i32") return 32;
  return 64;
}

std::string int_type(unsigned bits) { return "i" + std::to_string(bits); }

uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

class Lowering {
 public:
  Lowering(const BitFieldAccess& field, BitFieldEmitter& out)
      : field_(field), out_(out), pieces_(bitfield_pieces(field.unit, field.offset, field.width)) {
    unsigned widest = type_bits(field.type);
    for (const BitFieldPiece& p : pieces_) widest = std::max(widest, 8 * p.bytes);
    work_ = widest > 32 ? 64 : 32;
    work_type_ = int_type(work_);
  }

  NodeId load(NodeId unit) {
    NodeId value = kNoValue;
    if (pieces_.size() == 1 && field_.is_signed) {
      // One piece: move the field to the top, then shift it down with its sign.
      const BitFieldPiece& p = pieces_[0];
      value = shift(Op::Shl, widen(read(unit, p), 8 * p.bytes), work_ - p.bit - field_.width);
      value = shift(Op::AShr, value, work_ - field_.width);
      return narrow(value);
    }
    for (const BitFieldPiece& p : pieces_) {
      NodeId x = shift(Op::LShr, widen(read(unit, p), 8 * p.bytes), p.bit);
      if (p.bit + p.bits < 8 * p.bytes) x = mask(x, low_mask(p.bits));
      x = shift(Op::Shl, x, p.field_bit);
      value = value == kNoValue ? x : out_.pure(Op::Or, {type_lit()}, {value, x});
    }
    if (field_.is_signed) value = extend_sign(value);
    return narrow(value);
  }

  NodeId store(NodeId unit, NodeId v) {
    NodeId wide = widen(v, type_bits(field_.type));
    for (const BitFieldPiece& p : pieces_) {
      NodeId part = shift(Op::LShr, wide, p.field_bit);
      std::string access = int_type(8 * p.bytes);
      NodeId address = piece_address(unit, p);
      if (p.bit == 0 && p.bits == 8 * p.bytes) {  // the piece is all field
        out_.store(access, address, narrow_to(part, 8 * p.bytes));
        continue;
      }
      part = shift(Op::Shl, mask(part, low_mask(p.bits)), p.bit);
      NodeId old = widen(out_.load(access, address), 8 * p.bytes);
      NodeId kept = mask(old, ~(low_mask(p.bits) << p.bit));
      NodeId updated = out_.pure(Op::Or, {type_lit()}, {kept, part});
      out_.store(access, address, narrow_to(updated, 8 * p.bytes));
    }
    if (field_.width == type_bits(field_.type)) return v;
    NodeId result = field_.is_signed ? extend_sign(wide) : mask(wide, low_mask(field_.width));
    return narrow(result);
  }

 private:
  Literal type_lit() const { return Literal::string(work_type_); }
  NodeId constant(uint64_t value) {
    // The value as the working type's bits, read as a signed integer.
    int64_t v = work_ == 64 ? static_cast<int64_t>(value) : static_cast<int32_t>(static_cast<uint32_t>(value));
    return out_.pure(Op::Const, {type_lit(), Literal::integer(v)}, {});
  }
  NodeId shift(Op op, NodeId x, unsigned count) {
    if (count == 0) return x;
    return out_.pure(op, {type_lit()}, {x, constant(count)});
  }
  NodeId mask(NodeId x, uint64_t m) { return out_.pure(Op::And, {type_lit()}, {x, constant(m & low_mask(work_))}); }
  NodeId extend_sign(NodeId x) {
    if (field_.width >= work_) return x;
    return shift(Op::AShr, shift(Op::Shl, x, work_ - field_.width), work_ - field_.width);
  }
  // A value of `bits` bits zero-extended to the working type.
  NodeId widen(NodeId x, unsigned bits) {
    if (bits >= work_) return x;
    return out_.pure(Op::ZExt, {Literal::string(int_type(bits)), type_lit()}, {x});
  }
  NodeId narrow_to(NodeId x, unsigned bits) {
    if (bits >= work_) return x;
    return out_.pure(Op::Trunc, {type_lit(), Literal::string(int_type(bits))}, {x});
  }
  NodeId narrow(NodeId x) { return narrow_to(x, type_bits(field_.type)); }
  NodeId piece_address(NodeId unit, const BitFieldPiece& p) {
    if (p.byte == 0) return unit;
    NodeId offset = out_.pure(Op::Const, {Literal::string("i64"), Literal::integer(static_cast<int64_t>(p.byte))}, {});
    return out_.pure(Op::Add, {Literal::string("ptr")}, {unit, offset});
  }
  NodeId read(NodeId unit, const BitFieldPiece& p) { return out_.load(int_type(8 * p.bytes), piece_address(unit, p)); }

  static constexpr NodeId kNoValue = UINT32_MAX;
  const BitFieldAccess& field_;
  BitFieldEmitter& out_;
  std::vector<BitFieldPiece> pieces_;
  unsigned work_ = 32;
  std::string work_type_;
};

}  // namespace

std::vector<BitFieldPiece> bitfield_pieces(uint64_t unit, uint64_t offset, unsigned width) {
  uint64_t lo = offset / 8, hi = (offset + width + 7) / 8;
  auto piece = [&](uint64_t byte, unsigned bytes) {
    uint64_t first = std::max(offset, 8 * byte), end = std::min(offset + width, 8 * (byte + bytes));
    return BitFieldPiece{byte, bytes, static_cast<unsigned>(first - 8 * byte), static_cast<unsigned>(first - offset),
                         static_cast<unsigned>(end - first)};
  };
  if (unit == 1 || unit == 2 || unit == 4 || unit == 8) return {piece(0, static_cast<unsigned>(unit))};
  for (unsigned w : {1u, 2u, 4u, 8u}) {
    if (w < hi - lo) continue;
    if (w > unit) break;
    // Starts s with s <= lo, s + w >= hi, s + w <= unit.
    uint64_t low = hi >= w ? hi - w : 0, high = std::min(lo, unit - w);
    if (low > high) break;
    uint64_t aligned = lo - lo % w;
    return {piece(aligned >= low && aligned <= high ? aligned : high, w)};
  }
  std::vector<BitFieldPiece> pieces;
  for (uint64_t byte = lo; byte < hi;) {
    unsigned w = 8;
    while (w > hi - byte) w /= 2;
    pieces.push_back(piece(byte, w));
    byte += w;
  }
  return pieces;
}

NodeId lower_bitload(const BitFieldAccess& field, NodeId unit, BitFieldEmitter& out) { return Lowering(field, out).load(unit); }

NodeId lower_bitstore(const BitFieldAccess& field, NodeId unit, NodeId value, BitFieldEmitter& out) {
  return Lowering(field, out).store(unit, value);
}

}  // namespace pl
