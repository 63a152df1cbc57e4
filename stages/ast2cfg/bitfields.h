// bitfields.h - lowering ast:bitload and ast:bitstore (ast2cfg; see
// bitfields.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/bitfield.h"
#include "ir/ir.h"

namespace pl {

// One access that reads or writes part of a field: `bytes` (1, 2, 4 or 8)
// bytes at byte `byte` of the unit hold `bits` bits of the field, from bit
// `field_bit` of the field, at bit `bit` of the access.
struct BitFieldPiece {
  uint64_t byte = 0;
  unsigned bytes = 0;
  unsigned bit = 0;
  unsigned field_bit = 0;
  unsigned bits = 0;
};

// The accesses that cover the field's bits, all inside the unit: the whole
// unit when it is 1, 2, 4 or 8 bytes, else one naturally aligned access
// when one fits, else as few as cover the bytes holding the field.
std::vector<BitFieldPiece> bitfield_pieces(uint64_t unit, uint64_t offset, unsigned width);

// What the lowering emits through: pure nodes, and loads and stores of the
// unit's bytes (plain or volatile, threaded through the memory state).
class BitFieldEmitter {
 public:
  virtual ~BitFieldEmitter() = default;
  virtual NodeId pure(Op op, LiteralList literals, InputList inputs) = 0;
  virtual NodeId load(const std::string& type, NodeId address) = 0;
  virtual void store(const std::string& type, NodeId address, NodeId value) = 0;
};

// The field's value (of the field's type, sign- or zero-extended from its
// width) read from the unit at `unit`.
NodeId lower_bitload(const BitFieldAccess& field, NodeId unit, BitFieldEmitter& out);
// Writes `value` (of the field's type) to the field, leaving every other
// bit of the unit as it was; returns the field's new value, as
// lower_bitload would read it.
NodeId lower_bitstore(const BitFieldAccess& field, NodeId unit, NodeId value, BitFieldEmitter& out);

}  // namespace pl
