// types.cpp - C types as the IR sees them (FORMAT.md, "G. The ast level").
//
// Integer types map by width: _Bool and the char types to i8 (_Bool holds 0
// or 1), short to i16, int and enums (their underlying type) to i32, long
// and long long to i64, pointers to ptr; float to f32 and double to f64
// (issue 18; FLT_EVAL_METHOD 0: each operation in its own type, as gcc on
// x86-64 computes with SSE2); long double is the x87 80-bit format in a
// 16-byte, 16-aligned object that, like a struct, is represented by its
// address (VType::F80, IR type ptr; long_double.cpp) and travels as a
// `ptr byval(16,16,x)` argument and a `ptr sret(16,16,x)` result (classes
// X87 X87UP: on the stack, and back in st(0); a struct holding a long
// double is MEMORY, `m`, except a struct of one long double, `x`, as gcc
// classifies it); _Complex long double, two of them in a 32-byte object,
// is `ptr byval(32,16,c)` and `ptr sret(32,16,c)` (COMPLEX_X87: on the
// stack, and back in st(0) and st(1); a struct holding one is `m`). Signedness does not survive into
// the IR: c2ast uses it to pick each operation. Structs, unions, arrays and
// functions are represented by their address (ptr). Signatures carry the
// System V ABI attributes (FORMAT.md section 8): char, short and _Bool
// parameters are `i8`/`i16` with `signext` or `zeroext` by the C type's
// signedness (_Bool: zeroext), a struct or union parameter is `ptr
// byval(SIZE,ALIGN)`, the hidden result pointer `ptr sret(SIZE,ALIGN)`.
// _Complex T is an aggregate of two T (real, imaginary: complex.cpp), so it
// is represented, passed and classified as `struct { T re, im; }` is.
// Sizes, alignments and
// member offsets are clang's (ASTRecordLayout, SysV x86-64; bit-fields in
// bitfields.cpp); so are the
// rules for what is unsupported: _Float16, __float128,
// _Complex of refused types (__int128, _Float16 ...), vectors of other
// elements than integers and float/double (vectors.cpp), _Atomic stop the
// translation with "unsupported: ..." at the construct that needs them.
// __int128 and unsigned __int128 are 16-byte, 16-aligned aggregates here
// (is_aggregate; their operations are int128.cpp's), classified INTEGER,
// INTEGER by flatten_scalars.
#include "c2ast.h"

#include <clang/AST/RecordLayout.h>

namespace pl::c2ast {

using namespace clang;

void unsupported(SourceLocation loc, const std::string& what) { throw CError{loc, "unsupported: " + what}; }

const char* vtype_name(VType t) {
  switch (t) {
    case VType::I8: return "i8";
    case VType::I16: return "i16";
    case VType::I32: return "i32";
    case VType::I64: return "i64";
    case VType::Ptr: return "ptr";
    case VType::F32: return "f32";
    case VType::F64: return "f64";
    case VType::F80: return "ptr";  // long double: its value is its object's address
  }
  return "?";
}

unsigned vtype_bits(VType t) {
  switch (t) {
    case VType::I8: return 8;
    case VType::I16: return 16;
    case VType::I32: return 32;
    case VType::I64: return 64;
    case VType::Ptr: return 64;
    case VType::F32: return 32;
    case VType::F64: return 64;
    case VType::F80: return 64;
  }
  return 0;
}

std::string Types::describe(QualType t) {
  std::string written = t.getAsString();
  std::string canonical = t.getCanonicalType().getAsString();
  std::string out = "'" + written + "'";
  if (canonical != written) out += " (aka '" + canonical + "')";
  return out;
}

void Types::check(QualType t, SourceLocation where) const {
  if (t.isNull()) return;
  const Type* c = t.getCanonicalType().getTypePtr();
  // Look through arrays and pointers only as far as the type is used here:
  // a pointer to double is fine until something reads the double.
  while (const auto* array = dyn_cast<ArrayType>(c)) c = array->getElementType().getCanonicalType().getTypePtr();
  if (const auto* b = dyn_cast<BuiltinType>(c); b && b->isFloatingPoint() && b->getKind() != BuiltinType::Float &&
                                                 b->getKind() != BuiltinType::Double &&
                                                 b->getKind() != BuiltinType::LongDouble) {
    unsupported(where, "floating point type " + describe(t));
  }
  if (const auto* complex = dyn_cast<ComplexType>(c)) {  // complex.cpp
    QualType element = complex->getElementType().getCanonicalType();
    const auto* b = dyn_cast<BuiltinType>(element.getTypePtr());
    bool supported = b && (b->getKind() == BuiltinType::Float || b->getKind() == BuiltinType::Double ||
                           b->getKind() == BuiltinType::LongDouble ||
                           (b->isInteger() && ctx_.getTypeSize(element) <= 64));
    if (!supported) unsupported(where, "complex type " + describe(t));
  }
  if (const auto* vector = dyn_cast<VectorType>(c)) {  // vectors.cpp
    QualType element = vector->getElementType().getCanonicalType();
    const auto* b = dyn_cast<BuiltinType>(element.getTypePtr());
    bool supported = b && !b->isBooleanType() &&
                     (b->getKind() == BuiltinType::Float || b->getKind() == BuiltinType::Double ||
                      (b->isInteger() && ctx_.getTypeSize(element) <= 64));
    if (!supported) unsupported(where, "vector type " + describe(t));
  }
  if (const auto* a = dyn_cast<AtomicType>(c)) {  // atomics.cpp: integers and pointers of 1 to 8 bytes
    QualType v = a->getValueType().getCanonicalType();
    uint64_t bytes = v->isIncompleteType() ? 0 : ctx_.getTypeSize(v) / 8;
    if (!(v->isIntegralOrEnumerationType() || v->isPointerType()) || !(bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8))
      unsupported(where, "atomic type " + describe(t));
  }
  if (c->isBlockPointerType()) unsupported(where, "block pointer type " + describe(t));
  if (const auto* b = dyn_cast<BuiltinType>(c)) {
    if (b->isFixedPointType()) unsupported(where, "fixed point type " + describe(t));
  }
  if (isa<BitIntType>(c)) unsupported(where, "_BitInt type " + describe(t));
}

Scalar Types::scalar(QualType t, SourceLocation where) const {
  check(t, where);
  // An __int128's value is its address (int128.cpp): a use that wants it
  // as one IR value is one int128.cpp does not handle.
  if (is_int128(t)) unsupported(where, "128-bit integer type " + describe(t) + " here");
  const Type* c = t.getCanonicalType().getTypePtr();
  if (const auto* a = dyn_cast<AtomicType>(c)) return scalar(a->getValueType(), where);  // atomics.cpp
  if (c->isPointerType() || c->isArrayType() || c->isFunctionType() || c->isRecordType() || c->isNullPtrType() ||
      c->isAnyComplexType() || c->isVectorType())
    return {VType::Ptr, false};
  if (c->isIntegralOrEnumerationType()) {
    QualType integer = t.getCanonicalType();
    if (const auto* e = dyn_cast<EnumType>(c)) {
      const EnumDecl* ed = e->getDecl();
      integer = ed->isComplete() ? ed->getIntegerType() : ctx_.IntTy;
    }
    bool is_signed = integer->isSignedIntegerType();
    switch (ctx_.getTypeSize(integer)) {
      case 8: return {VType::I8, is_signed};
      case 16: return {VType::I16, is_signed};
      case 32: return {VType::I32, is_signed};
      case 64: return {VType::I64, is_signed};
      default: break;
    }
  }
  if (const auto* b = dyn_cast<BuiltinType>(c)) {
    if (b->getKind() == BuiltinType::Float) return {VType::F32, true};
    if (b->getKind() == BuiltinType::Double) return {VType::F64, true};
    if (b->getKind() == BuiltinType::LongDouble) return {VType::F80, true};
  }
  if (c->isVoidType()) unsupported(where, "use of a void value");
  unsupported(where, "type " + describe(t));
}

bool Types::is_aggregate(QualType t) {
  return t->isRecordType() || t->isAnyComplexType() || t->isVectorType() || is_int128(t) || is_long_double(t);
}
bool Types::is_long_double(QualType t) { return t->isSpecificBuiltinType(BuiltinType::LongDouble); }

Scalar Types::complex_element(QualType t, SourceLocation where) const {
  return scalar(t->castAs<ComplexType>()->getElementType(), where);
}

uint64_t Types::size(QualType t, SourceLocation where) const {
  check(t, where);
  // A VLA's size is a run-time value (vla.cpp); a place asking for a
  // constant one is a use of it we do not support yet.
  if (is_vla_type(ctx_, t)) unsupported(where, "variable length array type " + describe(t) + " here");
  if (t->isIncompleteType()) {
    // An incomplete array (`int a[];` at file scope) becomes one element.
    if (const auto* array = ctx_.getAsIncompleteArrayType(t)) return size(array->getElementType(), where);
    unsupported(where, "incomplete type " + describe(t));
  }
  return static_cast<uint64_t>(ctx_.getTypeSizeInChars(t).getQuantity());
}

uint32_t Types::align(QualType t) const {
  if (t->isIncompleteType()) {
    if (const auto* array = ctx_.getAsIncompleteArrayType(t)) return align(array->getElementType());
    return 1;
  }
  return static_cast<uint32_t>(ctx_.getTypeAlignInChars(t).getQuantity());
}

uint64_t Types::pointee_size(QualType pointer_type, SourceLocation where) const {
  QualType pointee = pointer_type->getPointeeType();
  if (pointee.isNull()) unsupported(where, "pointer arithmetic on " + describe(pointer_type));
  if (pointee->isVoidType() || pointee->isFunctionType()) return 1;
  return size(pointee, where);
}

uint64_t Types::field_offset(const FieldDecl* field, SourceLocation where) const {
  if (field->isBitField()) unsupported(where, "bit-field '" + field->getNameAsString() + "'");
  const ASTRecordLayout& layout = ctx_.getASTRecordLayout(field->getParent());
  return layout.getFieldOffset(field->getFieldIndex()) / 8;
}

std::string Types::result_type(QualType result, SourceLocation where) const {
  if (result->isVoidType() || is_aggregate(result)) return "void";
  return vtype_name(scalar(result, where).vt);
}

// `ptr byval(SIZE,ALIGN[,CLASSES])` or `ptr sret(SIZE,ALIGN[,CLASSES])` for
// an aggregate: its System V classification (common/ir/abi.h,
// classify_aggregate) from its scalar members, which flatten_scalars lists
// with their bit offsets: nested records and unions member by member at
// clang's layout offsets, arrays element by element, bit-fields with their
// declared width (zero-width ones and flexible array members contribute
// nothing). An empty struct (a GNU extension, size 0) has no eightbytes:
// System V passes nothing for it, as gcc does.
void Types::flatten_scalars(QualType t, uint64_t bit_offset, std::vector<AbiScalar>& out,
                            SourceLocation where) const {
  t = t.getCanonicalType();
  if (const auto* array = dyn_cast<ConstantArrayType>(t.getTypePtr())) {
    uint64_t count = array->getSize().getZExtValue();
    uint64_t element_bits = 8 * size(array->getElementType(), where);
    for (uint64_t i = 0; i < count; ++i) flatten_scalars(array->getElementType(), bit_offset + i * element_bits, out, where);
    return;
  }
  if (t->isIncompleteArrayType()) return;  // a flexible array member
  if (const auto* complex = dyn_cast<ComplexType>(t.getTypePtr())) {  // two scalars: real, imaginary
    QualType element = complex->getElementType();
    uint64_t element_bits = 8 * size(element, where);
    flatten_scalars(element, bit_offset, out, where);
    flatten_scalars(element, bit_offset + element_bits, out, where);
    return;
  }
  if (const auto* vector = dyn_cast<VectorType>(t.getTypePtr())) {
    // gcc classifies a vector by its mode: 8 bytes SSE, 16 bytes SSE SSEUP
    // (one xmm register), smaller ones by their elements (V4QI: INTEGER).
    uint64_t bytes = size(t, where);
    if (bytes == 8 || bytes == 16) {
      out.push_back(AbiScalar{bit_offset, 8 * bytes, true, false, true});
      return;
    }
    QualType element = vector->getElementType();
    uint64_t element_bits = 8 * size(element, where);
    for (unsigned i = 0; i < vector->getNumElements(); ++i)
      flatten_scalars(element, bit_offset + i * element_bits, out, where);
    return;
  }
  if (is_int128(t)) {  // two INTEGER eightbytes, as gcc classifies it
    out.push_back(AbiScalar{bit_offset, 64, false, false});
    out.push_back(AbiScalar{bit_offset + 64, 64, false, false});
    return;
  }
  if (const RecordDecl* record = t->getAsRecordDecl()) {
    const ASTRecordLayout& layout = ctx_.getASTRecordLayout(record);
    for (const FieldDecl* field : record->fields()) {
      uint64_t at = bit_offset + layout.getFieldOffset(field->getFieldIndex());
      if (field->isBitField())
        out.push_back(AbiScalar{at, field->getBitWidthValue(ctx_), false, true});
      else
        flatten_scalars(field->getType(), at, out, where);
    }
    return;
  }
  out.push_back(AbiScalar{bit_offset, 8 * size(t, where), t->isRealFloatingType(), false});
}

std::string Types::aggregate_classes(QualType t, SourceLocation where) const {
  check(t, where);
  uint64_t bytes = size(t, where);
  std::vector<AbiScalar> scalars;
  if (bytes <= 16) flatten_scalars(t, 0, scalars, where);
  // _Complex long double itself (never an aggregate holding one, which is
  // MEMORY above 16 bytes) is COMPLEX_X87: in memory, returned in st(0), st(1).
  if (const auto* complex = t->getAs<ComplexType>(); complex && is_long_double(complex->getElementType()))
    return std::string(1, kComplexX87Class);
  std::string classes = classify_aggregate(bytes, scalars);
  // A long double member makes the classes X87 X87UP (gcc: MEMORY but for
  // a lone long double, which is returned in st(0)): `x`, or `m`.
  for (const AbiScalar& s : scalars)
    if (s.floating && s.bits == 128 && !s.vector) classes.assign(1, scalars.size() == 1 && bytes == 16 ? 'x' : 'm');
  return classes;
}

// A 16-byte vector (or a struct or union of one) is classes `su`, SSE
// SSEUP: one xmm register, which son-lower-x64 moves through memory at the
// call boundary (abi.cpp).
std::string Types::aggregate_param(QualType t, ParamAttr attr, SourceLocation where) const {
  std::string classes = aggregate_classes(t, where);
  return param_type_string(ParamType{"ptr", attr, size(t, where), align(t), classes});
}

std::string Types::param_type(QualType param, SourceLocation where) const {
  if (is_aggregate(param)) return aggregate_param(param, ParamAttr::ByVal, where);
  Scalar s = scalar(param, where);
  std::string type = vtype_name(s.vt);
  if (s.vt == VType::I8 || s.vt == VType::I16) type += s.is_signed ? " signext" : " zeroext";
  return type;
}

std::string Types::result_pointer(QualType result, SourceLocation where) const {
  return aggregate_param(result, ParamAttr::SRet, where);
}

std::optional<Signature> Types::signature(QualType function_type, SourceLocation where) const {
  const auto* proto = function_type->getAs<FunctionProtoType>();
  if (!proto) return std::nullopt;
  Signature sig;
  QualType result = proto->getReturnType();
  if (is_aggregate(result)) sig.params.push_back(result_pointer(result, where));
  sig.result = result_type(result, where);
  for (QualType param : proto->getParamTypes()) sig.params.push_back(param_type(param, where));
  sig.variadic = proto->isVariadic();
  return sig;
}

}  // namespace pl::c2ast
