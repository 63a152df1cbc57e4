// bitfields.cpp - bit-fields: their storage units, reads and writes
// (FORMAT.md G, "Bit-fields").
//
// Layout. Where each bit-field sits is clang's ASTRecordLayout, which on
// x86-64 is the System V layout gcc uses (checked against gcc's offsetof and
// sizeof by tests/c/struct_bitfield_*.c): a field goes at the next free bit
// unless it would straddle a boundary of its declared type's alignment, in
// which case it starts at the next such boundary; an unnamed field takes
// its bits but no part in the alignment of the record; a zero-width field
// moves the next field to a boundary of its type; packed records
// (`__attribute__((packed))`, `#pragma pack`) let fields straddle. A
// bit-field's value type is its declared type's (int fields are signed,
// enum fields signed as the enum's underlying type is, _Bool a 0-or-1 i8).
//
// The unit. Reads and writes of a bit-field are masked loads and stores
// that stay inside its unit: the bytes of the C11 memory location the field
// belongs to (C11 3.14: a maximal run of adjacent bit-fields of non-zero
// width), from the byte holding the run's first bit up to the next member
// of the record that is not in the run (or the end of the record), so the
// unit also covers the padding after the run. This is gcc's rule for
// x86-64 (the "bit region" of DECL_BIT_FIELD_REPRESENTATIVE, which gcc uses
// since 4.7 so that a store to a bit-field never writes a neighbouring
// member another thread may own): a write to a bit-field reads and writes
// back the bytes of its own run, never a byte of another member. In a union
// every member starts at 0 and the unit is the whole union. Which accesses
// inside the unit read and write the field (one naturally aligned 1, 2, 4
// or 8-byte access when one fits in the unit, else pieces) is ast2cfg's
// choice (stages/ast2cfg/bitfields.cpp).
//
// Expressions. address() of a bit-field lvalue is the address of its unit
// (member() offsets the base by the unit's offset), so the assignment
// operators' one evaluation of the address (address_twice) works
// unchanged; lvalue_load and lvalue_store turn the access into an
// ast:bitload or ast:bitstore when the lvalue is a bit-field. The value of
// an assignment to a bit-field is the value the field holds afterwards (the
// stored value truncated to the width, sign- or zero-extended), which
// ast:bitstore yields. clang rejects what C forbids: `&s.b`, `sizeof s.b`,
// `_Alignof`, `typeof` of a bit-field.
//
// Bit-fields wider than int. gcc gives a bit-field of N bits a type of N
// bits, which the integer promotions turn into int when N is at most int's
// width (clang does the same) and leave alone otherwise: arithmetic on an
// `unsigned long long b : 40` happens in 40 bits, so `x.b << 32` drops the
// bits above 40 and `x.b + 1` wraps at 2^40 (c-torture's pr32244-1 and
// pr34971 test it). clang types such an expression as the declared type;
// gcc_precision() recovers gcc's precision of an integer expression (a
// wide bit-field's width; for + - * / % & | ^ the larger of the operands',
// an int operand counting 32; for shifts the left operand's; for unary -
// and ~ the operand's; the type's width for everything else), and
// wide_bitfield_wrap() reduces the result of an arithmetic operator to it
// (zero- or sign-extended by the type's signedness) when it is narrower than
// the result's type.
//
// Initializers: a local's bit-field member is an ast:bitstore (initializers.cpp
// calls initialize_bitfield); a constant's bits are packed into its bytes by
// data.cpp's ConstantWriter::bits.
#include "c2ast.h"

#include <clang/AST/RecordLayout.h>

namespace pl::c2ast {

using namespace clang;

BitFieldLayout Types::bitfield(const FieldDecl* field, SourceLocation where) const {
  check(field->getType(), where);
  if (is_int128(field->getType()))
    unsupported(where, "bit-field '" + field->getNameAsString() + "' of 128-bit integer type " + describe(field->getType()));
  const RecordDecl* record = field->getParent();
  const ASTRecordLayout& layout = ctx_.getASTRecordLayout(record);
  uint64_t record_size = static_cast<uint64_t>(layout.getSize().getQuantity());
  BitFieldLayout out;
  out.type = scalar(field->getType(), where);
  out.width = field->getBitWidthValue(ctx_);
  uint64_t bit = layout.getFieldOffset(field->getFieldIndex());
  if (record->isUnion()) {
    out.unit_offset = 0;
    out.unit_size = record_size;
    out.bit_offset = bit;
    return out;
  }
  // The run of non-zero-width bit-fields holding `field` (C11's memory
  // location), and the first member after it that takes room.
  std::vector<const FieldDecl*> fields(record->field_begin(), record->field_end());
  auto takes_bits = [&](const FieldDecl* f) { return f->isBitField() && f->getBitWidthValue(ctx_) != 0; };
  auto offset_of = [&](const FieldDecl* f) { return layout.getFieldOffset(f->getFieldIndex()); };
  size_t k = field->getFieldIndex();
  size_t first = k, after = k + 1;
  while (first > 0 && takes_bits(fields[first - 1])) --first;
  while (after < fields.size() && (takes_bits(fields[after]) || fields[after]->isBitField())) {
    if (!takes_bits(fields[after])) {  // a zero-width field ends the run
      while (after < fields.size() && fields[after]->isBitField() && !takes_bits(fields[after])) ++after;
      break;
    }
    ++after;
  }
  uint64_t end = after < fields.size() ? std::min(record_size, offset_of(fields[after]) / 8) : record_size;
  out.unit_offset = offset_of(fields[first]) / 8;
  uint64_t field_end = (bit + out.width + 7) / 8;
  out.unit_size = std::max(end, field_end) - out.unit_offset;
  out.bit_offset = bit - 8 * out.unit_offset;
  return out;
}

const FieldDecl* FunctionBuilder::bitfield_of(const Expr* lvalue) {
  if (!lvalue->refersToBitField()) return nullptr;
  return lvalue->getSourceBitField();
}

namespace {

LiteralList bitfield_literals(const BitFieldLayout& f) {
  return {Literal::string(vtype_name(f.type.vt)), Literal::string(f.type.is_signed ? "signed" : "unsigned"),
          Literal::unsigned_integer(f.unit_size), Literal::unsigned_integer(f.bit_offset),
          Literal::unsigned_integer(f.width)};
}

}  // namespace

NodeId FunctionBuilder::bitload(const BitFieldLayout& field, bool is_volatile, NodeId unit, Loc l) {
  is_volatile = is_volatile || (locals_in_memory_ && local_address(unit));
  return add(is_volatile ? Op::AstBitLoadV : Op::AstBitLoad, l, bitfield_literals(field), {unit});
}

NodeId FunctionBuilder::bitstore(const BitFieldLayout& field, bool is_volatile, NodeId unit, NodeId value, Loc l) {
  is_volatile = is_volatile || (locals_in_memory_ && local_address(unit));
  return add(is_volatile ? Op::AstBitStoreV : Op::AstBitStore, l, bitfield_literals(field), {unit, value});
}

NodeId FunctionBuilder::lvalue_load(const Expr* lvalue, VType t, bool is_volatile, NodeId address, Loc l) {
  if (reversed_scalar(lvalue)) return reversed_load(lvalue, t, is_volatile, address, l);  // storage_order.cpp
  if (const FieldDecl* field = bitfield_of(lvalue))
    return bitload(types_.bitfield(field, lvalue->getExprLoc()), is_volatile, address, l);
  return load(t, is_volatile, address, l);
}

NodeId FunctionBuilder::lvalue_store(const Expr* lvalue, VType t, bool is_volatile, NodeId address, NodeId value,
                                     Loc l) {
  if (reversed_scalar(lvalue)) return reversed_store(lvalue, t, is_volatile, address, value, l);  // storage_order.cpp
  if (const FieldDecl* field = bitfield_of(lvalue))
    return bitstore(types_.bitfield(field, lvalue->getExprLoc()), is_volatile, address, value, l);
  return store(t, is_volatile, address, value, l);
}

unsigned FunctionBuilder::gcc_precision(const Expr* e) const {
  e = e->IgnoreParens();
  QualType t = e->getType();
  if (!t->isIntegerType()) return 0;
  unsigned bits = static_cast<unsigned>(ctx_.getTypeSize(t));
  if (bits <= 32) return bits;
  if (const auto* c = dyn_cast<ImplicitCastExpr>(e)) {
    const Expr* sub = c->getSubExpr();
    if (c->getCastKind() == CK_LValueToRValue) {
      if (const FieldDecl* f = bitfield_of(sub)) return std::min(bits, f->getBitWidthValue(ctx_));
      return bits;
    }
    if (c->getCastKind() == CK_IntegralCast && sub->getType()->isIntegerType())
      return std::min(bits, gcc_precision(sub));
    return bits;
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    switch (b->getOpcode()) {
      case BO_Add: case BO_Sub: case BO_Mul: case BO_Div: case BO_Rem:
      case BO_And: case BO_Or: case BO_Xor:
        return std::max(gcc_precision(b->getLHS()), gcc_precision(b->getRHS()));
      case BO_Shl: case BO_Shr: return gcc_precision(b->getLHS());
      default: return bits;
    }
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Not || u->getOpcode() == UO_Plus)
      return gcc_precision(u->getSubExpr());
  }
  return bits;
}

NodeId FunctionBuilder::wide_bitfield_wrap(const Expr* e, NodeId value) {
  QualType t = e->getType();
  if (!t->isIntegerType() || ctx_.getTypeSize(t) != 64) return value;
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    switch (b->getOpcode()) {
      case BO_Add: case BO_Sub: case BO_Mul: case BO_Shl: break;
      default: return value;  // cannot leave the operands' precision (or is not arithmetic)
    }
  }
  unsigned precision = gcc_precision(e);
  if (precision == 0 || precision >= 64 || precision <= 32) return value;
  Loc l = loc(e->getExprLoc());
  auto amount = static_cast<int64_t>(64 - precision);
  if (t->isSignedIntegerType()) {
    NodeId up = op("shl", VType::I64, l, value, constant(VType::I64, amount, l));
    return op("ashr", VType::I64, l, up, constant(VType::I64, amount, l));
  }
  return op("and", VType::I64, l, value, constant(VType::I64, static_cast<int64_t>((uint64_t{1} << precision) - 1), l));
}

void FunctionBuilder::initialize_bitfield(NodeId var, uint64_t at, const FieldDecl* field, const Expr* init,
                                          std::vector<NodeId>& out, bool& needs_zero) {
  SourceLocation where = init->getExprLoc();
  Loc l = loc(where);
  if (isa<ImplicitValueInitExpr>(init->IgnoreParens())) {
    needs_zero = true;
    return;
  }
  BitFieldLayout layout = types_.bitfield(field, where);
  NodeId value = rvalue(init);
  if (big_endian_record(field->getParent())) {  // storage_order.cpp
    if (field->getType().isVolatileQualified())
      unsupported(where, "volatile bit-field of a struct with reverse scalar storage order");
    out.push_back(reversed_bitstore(layout, offset(var, at + layout.unit_offset, l), value, l, where));
    return;
  }
  out.push_back(bitstore(layout, field->getType().isVolatileQualified(), offset(var, at + layout.unit_offset, l),
                         value, l));
}

}  // namespace pl::c2ast
