// long_double.cpp - long double in C expressions (issue 18; FORMAT.md 7,
// "long double (f80)").
//
// Design. A long double is the x87 80-bit format in a 16-byte, 16-aligned
// object, and the IR has no 80-bit values: an f80 lives in memory, and every
// operation on it names addresses (ast:f80.arith ... ast:f80.to, which
// ast2cfg makes the memory operations f80.arith ... f80.to). So c2ast treats
// a long double as it treats a struct (Types::is_aggregate): a variable, a
// member, an array element or a parameter is an object, the value of a long
// double expression is the address of an object holding it (VType::F80,
// whose IR type is ptr), assignment, initialization and argument passing
// copy the object, a result comes back through the hidden result pointer
// (whose `sret(16,16,x)` class tells son-lower-x64 to return it in st(0), as
// System V does). What is new here is the arithmetic:
//
//   - each operation writes its result to a fresh hidden temporary `.ld`
//     (16 bytes, 16-aligned) and yields its address: + - * / are
//     ast:f80.arith, unary minus ast:f80.unary "neg"; the comparisons
//     ast:f80.cmp with the predicates of float and double (== foeq, !=
//     fune, < folt ...), as are truth tests (fune x, 0.0) and ! (foeq);
//   - constants are read-only data items of their 10 bytes (`.ldconst.N`,
//     one per value), exactly the value clang computed;
//   - conversions, as gcc -O0's x87 code: from float and double fld (exact),
//     to them fstp (rounded to nearest even); from an integer fild of a
//     signed i32 (char, short and their unsigned forms, int) or i64 (long,
//     unsigned int zero-extended), and unsigned long as gcc does it: fild
//     of its bits as a signed number, plus 2^64 when that is negative; to an
//     integer fistp with truncation, of i32 for char, short and int (then
//     truncated), of i64 for long and unsigned int, and for unsigned long
//     the value below 2^63 as is, else the value minus 2^63 with the top
//     bit set again (gcc calls __fixunsxfdi, which computes the same);
//   - compound assignment and ++/-- compute into a temporary and copy its
//     10 bytes to the object (ast:f80.unary "copy"); a postfix form first
//     copies the old value to `.old`;
//   - a value used several times is first copied to a temporary: the ast is
//     a tree, and only variables are shared between its nodes.
// _Complex long double is complex.cpp's: two such objects in one, each
// part computed with these nodes.
#include <cstring>
#include <limits>

#include "c2ast.h"

namespace pl::c2ast {

using namespace clang;

static_assert(sizeof(long double) == 16 && __LDBL_MANT_DIG__ == 64, "c2ast runs on x86-64: long double is x87");

namespace {

std::string x87_bytes(long double v) {
  char bytes[10];
  std::memcpy(bytes, &v, sizeof bytes);
  return std::string(bytes, sizeof bytes);
}

}  // namespace

std::string ModuleBuilder::f80_constant(const std::string& bytes) {
  auto found = f80_constants_.find(bytes);
  if (found != f80_constants_.end()) return found->second;
  DataItem item;
  item.name = new_name(".ldconst." + std::to_string(f80_constants_.size()));
  item.linkage = Linkage::Internal;
  item.readonly = true;
  item.size = 16;
  item.align = 16;
  item.init = bytes;
  f80_constants_.emplace(bytes, item.name);
  header_.data.push_back(item);
  return item.name;
}

NodeId FunctionBuilder::f80_temp(Loc l) { return variable(".ld", 16, 16, l); }

NodeId FunctionBuilder::f80_constant(const llvm::APFloat& value, Loc l) {
  llvm::APFloat wide = value;
  bool lost = false;
  wide.convert(llvm::APFloat::x87DoubleExtended(), llvm::APFloat::rmNearestTiesToEven, &lost);
  llvm::APInt bits = wide.bitcastToAPInt();
  uint64_t mantissa = bits.extractBitsAsZExtValue(64, 0), sign_exponent = bits.extractBitsAsZExtValue(16, 64);
  char bytes[10];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(mantissa >> (8 * i));
  bytes[8] = static_cast<char>(sign_exponent);
  bytes[9] = static_cast<char>(sign_exponent >> 8);
  return symaddr(module_.f80_constant(std::string(bytes, sizeof bytes)), l);
}

NodeId FunctionBuilder::f80_constant(long double value, Loc l) { return symaddr(module_.f80_constant(x87_bytes(value)), l); }

NodeId FunctionBuilder::f80_arith(const char* name, NodeId a, NodeId b, Loc l) {
  return add(Op::AstF80Arith, l, {Literal::string(name)}, {f80_temp(l), a, b});
}

NodeId FunctionBuilder::f80_unary(const char* name, NodeId a, Loc l) {
  return add(Op::AstF80Unary, l, {Literal::string(name)}, {f80_temp(l), a});
}

NodeId FunctionBuilder::f80_compare(const char* predicate, NodeId a, NodeId b, Loc l) {
  return add(Op::AstF80Cmp, l, {Literal::string(predicate)}, {a, b});
}

NodeId FunctionBuilder::f80_copy(NodeId dst, NodeId src, Loc l) {
  return add(Op::AstF80Unary, l, {Literal::string("copy")}, {dst, src});
}

NodeId FunctionBuilder::f80_convert(NodeId v, Scalar from, Scalar to, Loc l) {
  if (from.vt == to.vt) return v;
  auto to_f80 = [&](VType t, NodeId x) {
    return add(Op::AstF80From, l, {Literal::string(vtype_name(t))}, {f80_temp(l), x});
  };
  auto from_f80 = [&](VType t, NodeId x) { return add(Op::AstF80To, l, {Literal::string(vtype_name(t))}, {x}); };
  if (to.vt == VType::F80) {
    switch (from.vt) {
      case VType::F32:
      case VType::F64: return to_f80(from.vt, v);
      case VType::I8:
      case VType::I16: return to_f80(VType::I32, conversion(from.is_signed ? "sext" : "zext", from.vt, VType::I32, l, v));
      case VType::I32:
        if (from.is_signed) return to_f80(VType::I32, v);
        return to_f80(VType::I64, conversion("zext", VType::I32, VType::I64, l, v));
      case VType::I64: {
        if (from.is_signed) return to_f80(VType::I64, v);
        // fild reads the bits as signed: 2^64 too little when the top bit is set.
        Reused x = reuse(v, VType::I64, l);
        NodeId t = f80_temp(l);
        NodeId loaded = add(Op::AstF80From, l, {Literal::string("i64")}, {t, x.first});
        NodeId negative = op("slt", VType::I64, l, again(x, l), constant(VType::I64, 0, l));
        NodeId adjusted = f80_arith("add", t, f80_constant(18446744073709551616.0L, l), l);
        return seq(loaded, add(Op::AstCond, l, {Literal::string("ptr")}, {negative, adjusted, t}), l);
      }
      default: break;
    }
  } else if (from.vt == VType::F80) {
    switch (to.vt) {
      case VType::F32:
      case VType::F64: return from_f80(to.vt, v);
      case VType::I8:
      case VType::I16: return conversion("trunc", VType::I32, to.vt, l, from_f80(VType::I32, v));
      case VType::I32:
        if (to.is_signed) return from_f80(VType::I32, v);
        return conversion("trunc", VType::I64, VType::I32, l, from_f80(VType::I64, v));
      case VType::I64: {
        if (to.is_signed) return from_f80(VType::I64, v);
        NodeId x = f80_temp(l);
        NodeId held = f80_copy(x, v, l);
        NodeId two63 = f80_constant(9223372036854775808.0L, l);
        NodeId small = f80_compare("folt", x, two63, l);
        NodeId low = from_f80(VType::I64, f80_arith("sub", x, f80_constant(9223372036854775808.0L, l), l));
        NodeId high = op("xor", VType::I64, l, low, constant(VType::I64, std::numeric_limits<int64_t>::min(), l));
        return seq(held, add(Op::AstCond, l, {Literal::string("i64")}, {small, from_f80(VType::I64, x), high}), l);
      }
      default: break;
    }
  }
  throw CError{SourceLocation(), std::string("unsupported: conversion from ") + vtype_name(from.vt) + " to " +
                                     vtype_name(to.vt) + " (long double)"};
}

NodeId FunctionBuilder::f80_arithmetic(BinaryOperatorKind opcode, NodeId a, NodeId b, Loc l, SourceLocation where) {
  switch (opcode) {
    case BO_Add: return f80_arith("add", a, b, l);
    case BO_Sub: return f80_arith("sub", a, b, l);
    case BO_Mul: return f80_arith("mul", a, b, l);
    case BO_Div: return f80_arith("div", a, b, l);
    case BO_EQ: return f80_compare("foeq", a, b, l);
    case BO_NE: return f80_compare("fune", a, b, l);
    case BO_LT: return f80_compare("folt", a, b, l);
    case BO_LE: return f80_compare("fole", a, b, l);
    case BO_GT: return f80_compare("fogt", a, b, l);
    case BO_GE: return f80_compare("foge", a, b, l);
    default: break;
  }
  unsupported(where, std::string("operator '") + BinaryOperator::getOpcodeStr(opcode).str() + "' on long double values");
}

NodeId FunctionBuilder::f80_compound_assignment(const CompoundAssignOperator* e) {
  SourceLocation where = e->getOperatorLoc();
  Loc l = loc(where);
  NodeId first = kNone;  // the right operand first when it has side effects (expressions.cpp)
  NodeId rhs = compound_right_operand(e->getRHS(), first, l);
  TwoUses at = address_twice(e->getLHS(), l);
  BinaryOperatorKind opcode = BinaryOperator::getOpForCompoundAssignment(e->getOpcode());
  NodeId value = arithmetic(opcode, e->getComputationLHSType(), e->getRHS()->getType(), at.first, rhs, l, where);
  return seq(first, seq(at.setup, f80_copy(at.second, value, l), l), l);
}

NodeId FunctionBuilder::f80_increment(const UnaryOperator* u, bool value_used) {
  Loc l = loc(u->getOperatorLoc());
  bool postfix = u->isPostfix() && value_used;
  TwoUses at = address_twice(u->getSubExpr(), l);
  NodeId one = f80_constant(1.0L, l);
  const char* name = u->isIncrementOp() ? "add" : "sub";
  if (!postfix) return seq(at.setup, f80_copy(at.second, f80_arith(name, at.first, one, l), l), l);
  NodeId saved = f80_temp(l);
  NodeId keep = f80_copy(saved, at.first, l);
  NodeId update = f80_copy(at.second, f80_arith(name, saved, one, l), l);
  return seq(at.setup, seq(keep, seq(update, saved, l), l), l);
}

}  // namespace pl::c2ast
