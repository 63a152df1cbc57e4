// data.cpp - data items: globals, static locals, string literals, constants.
//
// ConstantWriter lays an initializer out in bytes the way clang's code
// generator does for C (its ConstExprEmitter): clang's evaluator folds
// aggregates only in C++, so the writer walks the semantic InitListExpr
// itself - array elements at multiples of the element size, struct members
// at the offsets of clang's ASTRecordLayout (a bit-field's value as bits
// at its place in its unit, bitfields.cpp), a union's named member at 0,
// string literals as their bytes - and asks clang's constant evaluator
// (Expr::EvaluateAsRValue) for each scalar leaf. A folded value (APValue)
// is written the same way: integers little-endian in their size, arrays
// element by element (the "filler" stands for the elements not written),
// structs and unions as above. An address
// (an lvalue: a global, a function, a string literal, a file-scope compound
// literal, plus a byte offset) becomes a relocation of 8 bytes with that
// offset as addend; a null pointer or an integer cast to a pointer is
// plain bytes. Bytes are only written when non-zero, so `init` ends at the
// last non-zero byte (the format's "rest is zero") and a large zero-filled
// array costs nothing.
#include "c2ast.h"

#include <algorithm>

#include <clang/AST/APValue.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecordLayout.h>

namespace pl::c2ast {

using namespace clang;

class ConstantWriter {
 public:
  ConstantWriter(ModuleBuilder& module, SourceLocation where) : module_(module), where_(where) {}

  // Lays out `init` for an object of `type` at `offset`; false if a scalar
  // in it is not a constant.
  bool initializer(uint64_t offset, QualType type, const Expr* init);
  void value(uint64_t offset, QualType type, const APValue& v);
  void string(uint64_t offset, uint64_t size, const StringLiteral* literal);
  DataItem finish(uint64_t size, uint32_t align, bool readonly) {
    DataItem item;
    item.size = std::max(size, extent_);
    item.align = align;
    item.readonly = readonly;
    item.init = std::move(bytes_);
    item.relocs = std::move(relocs_);
    return item;
  }

 private:
  void bytes(uint64_t offset, const char* data, uint64_t n);
  void integer(uint64_t offset, uint64_t size, uint64_t bits);
  // A scalar of `type`: its bytes reversed in a big-endian record.
  void scalar_bits(uint64_t offset, QualType type, uint64_t size, uint64_t bits);
  // A bit-field of the record at `offset` (bitfields.cpp gives its layout;
  // `big_endian`: gcc's big-endian bit numbering, storage_order.cpp).
  void bits(uint64_t offset, const BitFieldLayout& field, uint64_t value, bool big_endian);
  bool bitfield_initializer(uint64_t offset, const FieldDecl* field, const Expr* init);
  void bitfield_value(uint64_t offset, const FieldDecl* field, const APValue& v);
  void address(uint64_t offset, uint64_t size, const APValue& v);
  void array(uint64_t offset, QualType type, const APValue& v);
  void record(uint64_t offset, QualType type, const APValue& v);
  bool initializer_list(uint64_t offset, QualType type, const InitListExpr* list);
  static bool is_zero(const APValue& v);

  ModuleBuilder& module_;
  SourceLocation where_;
  std::string bytes_;
  std::vector<Reloc> relocs_;
  // The end of a flexible array member's initializer, when it passes the
  // type's size (gcc's GNU extension: the object grows to hold it).
  uint64_t extent_ = 0;
  // Writing the members of a big-endian record (storage_order.cpp).
  bool reversed_ = false;
  struct Order {  // reversed_ for one record's members, restored after
    Order(bool& flag, bool value) : flag_(flag), saved_(flag) { flag_ = value; }
    ~Order() { flag_ = saved_; }
    bool& flag_;
    bool saved_;
  };
};

void ConstantWriter::bytes(uint64_t offset, const char* data, uint64_t n) {
  uint64_t end = n;
  while (end > 0 && data[end - 1] == 0) --end;
  if (end == 0) return;
  if (bytes_.size() < offset + end) bytes_.resize(offset + end, '\0');
  bytes_.replace(offset, end, data, end);
}

void ConstantWriter::integer(uint64_t offset, uint64_t size, uint64_t bits) {
  char little[8] = {};
  for (uint64_t i = 0; i < size && i < 8; ++i) little[i] = static_cast<char>((bits >> (8 * i)) & 0xFF);
  bytes(offset, little, size < 8 ? size : 8);
}

void ConstantWriter::scalar_bits(uint64_t offset, QualType type, uint64_t size, uint64_t bits) {
  if (reversed_ && reversible_scalar(type, module_.ctx(), where_)) {
    uint64_t swapped = 0;
    for (uint64_t i = 0; i < size; ++i) swapped |= ((bits >> (8 * i)) & 0xFF) << (8 * (size - 1 - i));
    bits = swapped;
  }
  integer(offset, size, bits);
}

void ConstantWriter::bits(uint64_t offset, const BitFieldLayout& field, uint64_t value, bool big_endian) {
  uint64_t first = offset + field.unit_offset;  // the unit's first byte
  for (unsigned i = 0; i < field.width; ++i) {
    if (((value >> i) & 1) == 0) continue;
    // Big-endian: value bit i is stream bit bit_offset + width - 1 - i,
    // counted from each byte's most significant bit.
    uint64_t bit = big_endian ? field.bit_offset + field.width - 1 - i : field.bit_offset + i;
    uint64_t at = first + bit / 8;
    unsigned in_byte = big_endian ? 7 - bit % 8 : bit % 8;
    if (bytes_.size() <= at) bytes_.resize(at + 1, '\0');
    bytes_[at] = static_cast<char>(static_cast<unsigned char>(bytes_[at]) | (1u << in_byte));
  }
}

bool ConstantWriter::bitfield_initializer(uint64_t offset, const FieldDecl* field, const Expr* init) {
  if (isa<ImplicitValueInitExpr>(init->IgnoreParens())) return true;
  Expr::EvalResult result;
  if (!init->EvaluateAsRValue(result, module_.ctx(), /*InConstantContext=*/true) || result.HasSideEffects)
    return false;
  bitfield_value(offset, field, result.Val);
  return true;
}

void ConstantWriter::bitfield_value(uint64_t offset, const FieldDecl* field, const APValue& v) {
  if (v.isAbsent() || v.isIndeterminate()) return;
  if (!v.isInt()) unsupported(where_, "constant of bit-field '" + field->getNameAsString() + "'");
  const llvm::APSInt& i = v.getInt();
  uint64_t value = i.isSigned() ? static_cast<uint64_t>(i.getSExtValue()) : i.getZExtValue();
  bits(offset, module_.types().bitfield(field, where_), value, big_endian_record(field->getParent()));
}

bool ConstantWriter::is_zero(const APValue& v) {
  switch (v.getKind()) {
    case APValue::None:
    case APValue::Indeterminate: return true;
    case APValue::Int: return v.getInt().isZero();
    case APValue::Float: return v.getFloat().isPosZero();  // -0.0 has its sign bit
    case APValue::ComplexInt: return v.getComplexIntReal().isZero() && v.getComplexIntImag().isZero();
    case APValue::ComplexFloat: return v.getComplexFloatReal().isPosZero() && v.getComplexFloatImag().isPosZero();
    case APValue::LValue: return v.getLValueBase().isNull() && v.getLValueOffset().isZero();
    default: return false;
  }
}

bool ConstantWriter::initializer(uint64_t offset, QualType type, const Expr* init) {
  // An _Atomic integer or pointer is laid out as its value type (atomics.cpp).
  if (const auto* a = type->getAs<AtomicType>()) type = a->getValueType();
  // (clang wraps the members of a file-scope compound literal in ConstantExprs)
  const Expr* bare = init->IgnoreParens();
  while (const auto* c = dyn_cast<ConstantExpr>(bare)) bare = c->getSubExpr()->IgnoreParens();
  if (isa<ImplicitValueInitExpr>(bare)) return true;
  if (type->isVectorType()) {  // vectors.cpp: clang's evaluator folds the whole vector
    Expr::EvalResult result;
    if (!bare->EvaluateAsRValue(result, module_.ctx(), /*InConstantContext=*/true) || result.HasSideEffects)
      return false;
    value(offset, type, result.Val);
    return true;
  }
  if (const auto* list = dyn_cast<InitListExpr>(bare)) return initializer_list(offset, type, list);
  if (const auto* literal = dyn_cast<StringLiteral>(bare); literal && type->isArrayType()) {
    string(offset, module_.types().size(type, where_), literal);
    return true;
  }
  if (const auto* compound = dyn_cast<CompoundLiteralExpr>(bare); compound && !type->isPointerType())
    return initializer(offset, type, compound->getInitializer());
  if (const auto* c = dyn_cast<CastExpr>(bare); c && c->getCastKind() == CK_NoOp && !type->isScalarType())
    return initializer(offset, type, c->getSubExpr());
  if (!type->isScalarType()) return false;
  Expr::EvalResult result;
  if (!init->EvaluateAsRValue(result, module_.ctx(), /*InConstantContext=*/true) || result.HasSideEffects)
    return false;
  value(offset, type, result.Val);
  return true;
}

bool ConstantWriter::initializer_list(uint64_t offset, QualType type, const InitListExpr* list) {
  unsigned count = list->getNumInits();
  if (list->isTransparent()) return initializer(offset, type, list->getInit(0));
  const Types& types = module_.types();
  if (const ArrayType* array = module_.ctx().getAsArrayType(type)) {
    QualType element = array->getElementType();
    uint64_t step = types.size(element, where_);
    for (unsigned i = 0; i < count; ++i)
      if (!initializer(offset + i * step, element, list->getInit(i))) return false;
    const Expr* filler = list->getArrayFiller();
    if (!filler || isa<ImplicitValueInitExpr>(filler)) return true;
    uint64_t total = types.size(type, where_) / (step ? step : 1);
    for (uint64_t i = count; i < total; ++i)
      if (!initializer(offset + i * step, element, filler)) return false;
    return true;
  }
  if (const RecordDecl* record = type->getAsRecordDecl()) {
    Order order(reversed_, big_endian_record(record));
    if (record->isUnion()) {
      const FieldDecl* field = list->getInitializedFieldInUnion();
      if (!field || count == 0) return true;
      if (field->isBitField()) return bitfield_initializer(offset, field, list->getInit(0));
      return initializer(offset, field->getType(), list->getInit(0));
    }
    unsigned i = 0;
    for (const FieldDecl* field : record->fields()) {
      if (field->getType()->isIncompleteArrayType()) {  // its initializer has the complete type
        if (i >= count) break;
        const Expr* init = list->getInit(i);
        if (isa<ImplicitValueInitExpr>(init) || init->getType()->isIncompleteArrayType()) break;  // none given
        uint64_t at = offset + types.field_offset(field, where_);
        if (!initializer(at, init->getType(), init)) return false;
        extent_ = std::max(extent_, at + types.size(init->getType(), where_));
        break;
      }
      if (field->isUnnamedBitfield()) continue;
      if (i >= count) break;
      if (field->isBitField()) {
        if (!bitfield_initializer(offset, field, list->getInit(i++))) return false;
        continue;
      }
      if (!initializer(offset + types.field_offset(field, where_), field->getType(), list->getInit(i++))) return false;
    }
    return true;
  }
  if (const auto* complex = type->getAs<ComplexType>(); complex && count == 2) {
    // clang's `{re, im}`: gcc drops the excess element (x + 0i; complex.cpp).
    return initializer(offset, complex->getElementType(), list->getInit(0));
  }
  return count == 0 || initializer(offset, type, list->getInit(0));  // a scalar in braces
}

void ConstantWriter::value(uint64_t offset, QualType type, const APValue& v) {
  if (const auto* a = type->getAs<AtomicType>()) type = a->getValueType();
  switch (v.getKind()) {
    case APValue::None:
    case APValue::Indeterminate: return;
    case APValue::Int: {
      const llvm::APSInt& i = v.getInt();
      uint64_t size = module_.types().size(type, where_);
      if (reversed_) reversible_scalar(type, module_.ctx(), where_);  // refuses what we do not reverse
      if (size == 16) {  // an __int128: its two halves, little-endian
        llvm::APSInt wide = i.extOrTrunc(128);
        integer(offset, 8, wide.extractBitsAsZExtValue(64, 0));
        integer(offset + 8, 8, wide.extractBitsAsZExtValue(64, 64));
        return;
      }
      uint64_t bits = i.isSigned() ? static_cast<uint64_t>(i.getSExtValue()) : i.getZExtValue();
      scalar_bits(offset, type, size, bits);
      return;
    }
    case APValue::Float: {
      // The exact bits, in the object's type (clang's value has its semantics).
      uint64_t size = module_.types().size(type, where_);
      if (reversed_) reversible_scalar(type, module_.ctx(), where_);  // refuses long double
      llvm::APFloat f = v.getFloat();
      bool lost = false;
      if (size == 16) {  // long double: the 10 bytes of the x87 format
        f.convert(llvm::APFloat::x87DoubleExtended(), llvm::APFloat::rmNearestTiesToEven, &lost);
        llvm::APInt x87 = f.bitcastToAPInt();
        integer(offset, 8, x87.extractBitsAsZExtValue(64, 0));
        integer(offset + 8, 2, x87.extractBitsAsZExtValue(16, 64));
        return;
      }
      f.convert(size == 4 ? llvm::APFloat::IEEEsingle() : llvm::APFloat::IEEEdouble(),
                llvm::APFloat::rmNearestTiesToEven, &lost);
      scalar_bits(offset, type, size, f.bitcastToAPInt().getZExtValue());
      return;
    }
    case APValue::ComplexInt:
    case APValue::ComplexFloat: {  // real then imaginary part, each of the element type (complex.cpp)
      if (reversed_) reversible_scalar(type, module_.ctx(), where_);  // refuses _Complex
      QualType element = type->castAs<ComplexType>()->getElementType();
      uint64_t step = module_.types().size(element, where_);
      bool is_int = v.isComplexInt();
      value(offset, element, is_int ? APValue(v.getComplexIntReal()) : APValue(v.getComplexFloatReal()));
      value(offset + step, element, is_int ? APValue(v.getComplexIntImag()) : APValue(v.getComplexFloatImag()));
      return;
    }
    case APValue::Vector: {  // vectors.cpp: the elements in order (never reversed, as gcc)
      Order native(reversed_, false);
      const auto* vector = type->castAs<VectorType>();
      QualType element = vector->getElementType();
      uint64_t step = module_.types().size(element, where_);
      for (unsigned i = 0; i < v.getVectorLength(); ++i) value(offset + i * step, element, v.getVectorElt(i));
      return;
    }
    case APValue::LValue: address(offset, module_.types().size(type, where_), v); return;
    case APValue::Array: array(offset, type, v); return;
    case APValue::Struct:
    case APValue::Union: record(offset, type, v); return;
    case APValue::AddrLabelDiff: {  // labels.cpp: the difference of the labels' numbers
      const LabelDecl* a = v.getAddrLabelDiffLHS()->getLabel();
      const LabelDecl* b = v.getAddrLabelDiffRHS()->getLabel();
      int64_t diff = module_.label_number(a, where_) - module_.label_number(b, where_);
      scalar_bits(offset, type, module_.types().size(type, where_), static_cast<uint64_t>(diff));
      return;
    }
    default: break;
  }
  module_.types().check(type, where_);
  unsupported(where_, "constant of type " + Types::describe(type));
}

void ConstantWriter::address(uint64_t offset, uint64_t size, const APValue& v) {
  APValue::LValueBase base = v.getLValueBase();
  auto addend = static_cast<uint64_t>(v.getLValueOffset().getQuantity());
  if (base.isNull()) {  // null pointer, or an integer cast to a pointer
    integer(offset, size, addend);
    return;
  }
  std::string symbol;
  if (const auto* decl = base.dyn_cast<const ValueDecl*>()) {
    symbol = module_.symbol(decl, where_);
  } else if (const auto* e = base.dyn_cast<const Expr*>()) {
    if (const auto* s = dyn_cast<StringLiteral>(e)) {
      symbol = module_.string_literal(s);
    } else if (const auto* p = dyn_cast<PredefinedExpr>(e)) {
      symbol = module_.string_literal(p->getFunctionName());
    } else if (const auto* c = dyn_cast<CompoundLiteralExpr>(e)) {
      symbol = module_.compound_literal(c);
    } else if (const auto* a = dyn_cast<AddrLabelExpr>(e)) {  // labels.cpp: its function + its number
      const LabelDecl* label = a->getLabel();
      symbol = module_.symbol(module_.label_function(label, where_), where_);
      addend += static_cast<uint64_t>(module_.label_number(label, where_));
    } else {
      unsupported(where_, std::string("address of a '") + e->getStmtClassName() + "' in an initializer");
    }
  } else {
    unsupported(where_, "address in an initializer");
  }
  if (size != 8) unsupported(where_, "address stored in a " + std::to_string(size) + "-byte integer");
  relocs_.push_back(Reloc{offset, symbol, static_cast<int64_t>(addend)});
}

void ConstantWriter::array(uint64_t offset, QualType type, const APValue& v) {
  const ArrayType* at = module_.ctx().getAsArrayType(type);
  QualType element = at->getElementType();
  uint64_t step = module_.types().size(element, where_);
  unsigned written = v.getArrayInitializedElts();
  for (unsigned i = 0; i < written; ++i) value(offset + i * step, element, v.getArrayInitializedElt(i));
  if (!v.hasArrayFiller() || is_zero(v.getArrayFiller())) return;
  for (unsigned i = written; i < v.getArraySize(); ++i) value(offset + i * step, element, v.getArrayFiller());
}

void ConstantWriter::record(uint64_t offset, QualType type, const APValue& v) {
  const RecordDecl* rd = type->getAsRecordDecl();
  Order order(reversed_, big_endian_record(rd));
  if (v.isUnion()) {
    const FieldDecl* field = v.getUnionField();
    if (!field) return;
    if (field->isBitField()) return bitfield_value(offset, field, v.getUnionValue());
    value(offset, field->getType(), v.getUnionValue());
    return;
  }
  const ASTRecordLayout& layout = module_.ctx().getASTRecordLayout(rd);
  for (const FieldDecl* field : rd->fields()) {
    unsigned i = field->getFieldIndex();
    if (field->isUnnamedBitfield()) continue;
    if (i >= v.getStructNumFields()) break;
    const APValue& fv = v.getStructField(i);
    if (field->isBitField()) {
      bitfield_value(offset, field, fv);
      continue;
    }
    if (field->getType()->isIncompleteArrayType()) {  // flexible array member: as many elements as given
      if (!fv.isArray() || fv.getArraySize() == 0) continue;
      QualType element = module_.ctx().getAsArrayType(field->getType())->getElementType();
      uint64_t step = module_.types().size(element, where_), at = offset + layout.getFieldOffset(i) / 8;
      for (unsigned e = 0; e < fv.getArrayInitializedElts(); ++e) value(at + e * step, element, fv.getArrayInitializedElt(e));
      if (fv.hasArrayFiller() && !is_zero(fv.getArrayFiller()))
        for (unsigned e = fv.getArrayInitializedElts(); e < fv.getArraySize(); ++e)
          value(at + e * step, element, fv.getArrayFiller());
      extent_ = std::max(extent_, at + fv.getArraySize() * step);
      continue;
    }
    value(offset + layout.getFieldOffset(i) / 8, field->getType(), fv);
  }
}

// ---- data items ------------------------------------------------------------------

namespace {

// Whether `def`, the definition (or acting tentative definition) of a
// variable with static storage, is a common symbol: as gcc and clang decide
// (clang's isVarDeclStrongDefinition): with -fcommon or the `common`
// attribute, not `nocommon` unless `common` too, a file-scope tentative
// definition (no initializer anywhere, not extern) with external linkage,
// not weak, in no named section, not thread-local.
bool is_common(const VarDecl* def, const SymbolAttrs& attrs, Linkage linkage, bool common_flag) {
  if ((!common_flag || def->hasAttr<NoCommonAttr>()) && !def->hasAttr<CommonAttr>()) return false;
  if (def->getAnyInitializer() || def->hasExternalStorage() || def->isStaticLocal()) return false;
  if (linkage != Linkage::External || attrs.weak || !attrs.section.empty()) return false;
  return def->getTLSKind() == VarDecl::TLS_None;
}

}  // namespace

DataItem ModuleBuilder::variable_data(const VarDecl* vd) {
  SourceLocation where = vd->getLocation();
  // C11's dynamic TLS initialization does not exist in C: clang has
  // already refused a thread-local whose initializer is not constant.
  QualType type = vd->getType();
  ConstantWriter writer(*this, where);
  if (const Expr* init = vd->getInit()) {
    check_static_addresses(init, ctx_);  // storage_order.cpp: gcc's error for `&` of a reversed scalar
    if (!writer.initializer(0, type, init)) unsupported(init->getExprLoc(), "initializer that is not a constant");
  }
  bool readonly = type.isConstQualified() || (type->isArrayType() && type.isConstant(ctx_));
  if (type.isVolatileQualified()) readonly = false;
  uint32_t align = static_cast<uint32_t>(ctx_.getDeclAlign(vd).getQuantity());
  DataItem item = writer.finish(types_.size(type, where), align, readonly);
  item.linkage = vd->isExternallyVisible() && !vd->isStaticLocal() ? Linkage::External : Linkage::Internal;
  item.attrs = symbol_attrs(vd);
  item.attrs.hints = 0;
  if (item.linkage == Linkage::Internal) item.attrs.visibility = Visibility::Default;  // as gcc: local
  item.attrs.common = is_common(vd, item.attrs, item.linkage, common_);
  if (item.attrs.common) item.readonly = false;  // `const int x;` too: a common symbol is writable
  // A thread-local item (attrs.tls, from symbol_attrs) is the template of
  // every thread's copy: .tdata or .tbss, always writable (gcc puts a const
  // __thread in .tdata too); never common (is_common), as gcc.
  if (item.attrs.tls) item.readonly = false;
  return item;
}

std::string ModuleBuilder::string_literal(const StringLiteral* literal) {
  QualType type = literal->getType();
  uint64_t size = types_.size(type, literal->getBeginLoc());
  std::string key = std::to_string(literal->getCharByteWidth()) + ":" + std::to_string(size) + ":" +
                    literal->getBytes().str();
  auto found = strings_.find(key);
  if (found != strings_.end()) return found->second;
  std::string name = new_name(".str." + std::to_string(strings_.size()));
  strings_.emplace(std::move(key), name);
  ConstantWriter writer(*this, literal->getBeginLoc());
  writer.string(0, size, literal);
  DataItem item = writer.finish(size, types_.align(type), true);
  item.name = name;
  item.linkage = Linkage::Internal;
  header_.data.push_back(std::move(item));
  return name;
}

void ConstantWriter::string(uint64_t offset, uint64_t size, const StringLiteral* literal) {
  StringRef data = literal->getBytes();
  uint64_t n = data.size() < size ? data.size() : size;
  bytes(offset, data.data(), n);
}

std::string ModuleBuilder::zeros(uint64_t size, uint32_t align) {
  // A block already streamed out cannot grow (a module piece only adds): a
  // new one takes its place.
  if (zeros_index_ != SIZE_MAX && zeros_index_ < sent_data_ &&
      (header_.data[zeros_index_].size < size || header_.data[zeros_index_].align < align))
    zeros_index_ = SIZE_MAX;
  if (zeros_index_ == SIZE_MAX) {
    DataItem item;
    item.name = new_name(".zero");
    item.linkage = Linkage::Internal;
    item.readonly = true;
    zeros_index_ = header_.data.size();
    header_.data.push_back(std::move(item));
  }
  DataItem& item = header_.data[zeros_index_];
  if (item.size < size) item.size = size;
  if (item.align < align) item.align = align;
  return item.name;
}

std::string ModuleBuilder::constant(const Expr* init, QualType type) {
  SourceLocation where = init->getExprLoc();
  ConstantWriter writer(*this, where);
  check_static_addresses(init, ctx_);
  if (!writer.initializer(0, type, init)) unsupported(where, "initializer that is not a constant");
  DataItem item = writer.finish(types_.size(type, where), types_.align(type), true);
  item.name = new_name(".const." + std::to_string(constant_count_++));
  item.linkage = Linkage::Internal;
  std::string name = item.name;
  header_.data.push_back(std::move(item));
  return name;
}

std::string ModuleBuilder::compound_literal(const CompoundLiteralExpr* literal) {
  auto found = compounds_.find(literal);
  if (found != compounds_.end()) return found->second;
  SourceLocation where = literal->getBeginLoc();
  std::string name = new_name(".compound." + std::to_string(compounds_.size()));
  compounds_.emplace(literal, name);
  ConstantWriter writer(*this, where);
  check_static_addresses(literal->getInitializer(), ctx_);
  if (!writer.initializer(0, literal->getType(), literal->getInitializer()))
    unsupported(where, "compound literal that is not a constant");
  DataItem item = writer.finish(types_.size(literal->getType(), where), types_.align(literal->getType()),
                                literal->getType().isConstQualified());
  item.name = name;
  item.linkage = Linkage::Internal;
  header_.data.push_back(std::move(item));
  return name;
}

}  // namespace pl::c2ast
