// initializers.cpp - local variables, their initializers, compound literals.
//
// A scalar initializer is one store. An aggregate initializer (clang's
// semantic InitListExpr, where designators are already resolved and nested
// braces made explicit) becomes a store per written scalar at its offset
// from the record layout, an `ast:copy` per member initialized from another
// struct value or from a string literal; if any part is left to the
// implicit zero (a short list, a short string, an omitted member), the whole
// object is first copied from the module's zero block, so "zero the rest" is
// one copy instead of a store per element. An aggregate of more than 64
// bytes whose initializer is constant (clang's isConstantInitializer) is copied
// from a read-only `.const.N` data item instead (a lookup table is one copy,
// not thousands of stores). Union initializers write their named member;
// padding is not written (its value is unspecified in C).
//
// Static locals are data items (data.cpp); `extern` block-scope declarations
// name the global. Neither emits a statement.
#include "c2ast.h"

namespace pl::c2ast {

using namespace clang;

// The largest local object: codegen-x64 lays out slots of up to 1 GiB (frame
// offsets are 32-bit displacements; the verifier's bound is 2^31 bytes).
constexpr uint64_t kMaxFrameObject = uint64_t{1} << 30;

NodeId FunctionBuilder::local_variable(const VarDecl* vd) {
  SourceLocation where = vd->getLocation();
  if (vd->isStaticLocal()) {
    std::string symbol = module_.symbol(vd, where);  // defines it (in this function's name)
    debug_variable(vd, kNone, kDebugNone, false, symbol);
    return kNone;
  }
  if (vd->hasExternalStorage() || !vd->hasLocalStorage()) return kNone;
  Loc l = loc(where);
  QualType t = vd->getType();
  std::vector<NodeId> list;
  if (t->isVariablyModifiedType()) evaluate_vla_sizes(t, list, where);
  if (is_vla_type(ctx_, t)) {  // no initializer (C11 6.7.9p3)
    vla_local(vd, list);
    debug_variable(vd, kNone, kDebugNone, false, "");
    return statements(list, l);
  }
  uint64_t size = types_.size(t, where);
  if (size > kMaxFrameObject)
    unsupported(vd->getLocation(), "a local object of " + std::to_string(size) + " bytes (more than 1 GiB)");
  auto align = static_cast<uint32_t>(ctx_.getDeclAlign(vd).getQuantity());
  NodeId var = variable(vd->getNameAsString(), size, align, l);
  locals_[vd] = Local{var, false};
  debug_variable(vd, var, kDebugNone, false, "");
  const Expr* init = vd->getInit();
  if (init) initialize_object(var, t, init, l, list);
  return statements(list, l);
}

void FunctionBuilder::initialize_object(NodeId var, QualType type, const Expr* init, Loc l, std::vector<NodeId>& out) {
  SourceLocation where = init->getExprLoc();
  uint64_t size = types_.size(type, where);
  uint32_t align = types_.align(type);
  constexpr uint64_t kConstantDataAbove = 64;
  if (size > kConstantDataAbove && isa<InitListExpr>(init->IgnoreParens()) &&
      init->isConstantInitializer(ctx_, /*ForRef=*/false)) {
    out.push_back(copy(size, align, var, symaddr(module_.constant(init, type), l), l));
    return;
  }
  std::vector<NodeId> stores;
  bool needs_zero = false;
  initialize(var, 0, type, init, stores, needs_zero);
  if (needs_zero) out.push_back(copy(size, align, var, symaddr(module_.zeros(size, align), l), l));
  out.insert(out.end(), stores.begin(), stores.end());
}

void FunctionBuilder::initialize(NodeId var, uint64_t at, QualType type, const Expr* init, std::vector<NodeId>& out,
                                 bool& needs_zero) {
  SourceLocation where = init->getExprLoc();
  Loc l = loc(where);
  const Expr* bare = init->IgnoreParens();
  if (isa<ImplicitValueInitExpr>(bare)) {
    needs_zero = true;
    return;
  }
  // (refuses the members of a big-endian record we cannot reverse: storage_order.cpp)
  if (reversed_init_ && !type->isRecordType() && !type->isArrayType()) reversible_scalar(type, ctx_, where);
  if (const auto* list = dyn_cast<InitListExpr>(bare)) {
    deep([&] {
      initialize_list(var, at, type, list, out, needs_zero);
      return kNone;
    });
    return;
  }
  if (const auto* literal = dyn_cast<StringLiteral>(bare); literal && type->isArrayType()) {
    uint64_t size = types_.size(type, where);
    uint64_t length = types_.size(literal->getType(), where);
    uint64_t n = length < size ? length : size;
    if (length < size) needs_zero = true;
    out.push_back(copy(n, 1, offset(var, at, l), symaddr(module_.string_literal(literal), l), l));
    return;
  }
  if (type->isAnyComplexType()) {  // complex.cpp
    initialize_complex(var, at, type, init, out);
    return;
  }
  if (Types::is_aggregate(type)) {
    out.push_back(copy(types_.size(type, where), types_.align(type), offset(var, at, l), object(init), l));
    return;
  }
  if (type->isArrayType()) unsupported(where, "array initializer " + Types::describe(init->getType()));
  Scalar s = types_.scalar(type, where);
  NodeId value = rvalue(init);
  if (reversed_init_ && reversible_scalar(type, ctx_, where)) {  // a member of a big-endian record: storage_order.cpp
    if (type.isVolatileQualified()) unsupported(where, "volatile member of a struct with reverse scalar storage order");
    out.push_back(reversed_scalar_store(type, s.vt, offset(var, at, l), value, l, where));
    return;
  }
  out.push_back(store(s.vt, type.isVolatileQualified(), offset(var, at, l), value, l));
}

void FunctionBuilder::initialize_list(NodeId var, uint64_t at, QualType type, const InitListExpr* list,
                                      std::vector<NodeId>& out, bool& needs_zero) {
  SourceLocation where = list->getBeginLoc();
  unsigned count = list->getNumInits();
  if (list->isTransparent()) {
    initialize(var, at, type, list->getInit(0), out, needs_zero);
    return;
  }
  if (type->isVectorType()) {  // vectors.cpp
    initialize_vector(var, at, type, list, out, needs_zero);
    return;
  }
  if (type->isAnyComplexType() && count > 0) {  // `{z}`, or clang's `{re, im}` read as gcc reads it
    initialize_complex(var, at, type, list, out);
    return;
  }
  if (const ArrayType* array = ctx_.getAsArrayType(type)) {
    QualType element = array->getElementType();
    uint64_t step = types_.size(element, where);
    uint64_t total = types_.size(type, where) / (step ? step : 1);
    for (unsigned i = 0; i < count; ++i) initialize(var, at + i * step, element, list->getInit(i), out, needs_zero);
    if (count < total) {
      const Expr* filler = list->getArrayFiller();
      if (!filler || isa<ImplicitValueInitExpr>(filler)) {
        needs_zero = true;
      } else {
        for (uint64_t i = count; i < total; ++i) initialize(var, at + i * step, element, filler, out, needs_zero);
      }
    }
    return;
  }
  if (const RecordDecl* record = type->getAsRecordDecl()) {
    // Its members' scalars (and their arrays' elements) in the record's order.
    bool outer_order = reversed_init_;
    reversed_init_ = big_endian_record(record);
    struct Restore {
      bool& flag;
      bool value;
      ~Restore() { flag = value; }
    } restore{reversed_init_, outer_order};
    if (record->isUnion()) {
      const FieldDecl* field = list->getInitializedFieldInUnion();
      if (!field || count == 0) {
        needs_zero = true;
        return;
      }
      if (field->isBitField()) {
        initialize_bitfield(var, at, field, list->getInit(0), out, needs_zero);
        needs_zero = true;  // the rest of the union
        return;
      }
      initialize(var, at, field->getType(), list->getInit(0), out, needs_zero);
      if (types_.size(field->getType(), where) < types_.size(type, where)) needs_zero = true;
      return;
    }
    unsigned i = 0;
    for (const FieldDecl* field : record->fields()) {
      if (field->getType()->isIncompleteArrayType()) break;  // flexible array member
      if (field->isUnnamedBitfield()) continue;
      if (i >= count) {
        needs_zero = true;
        break;
      }
      const Expr* init = list->getInit(i++);
      if (field->isBitField()) {
        initialize_bitfield(var, at, field, init, out, needs_zero);
        continue;
      }
      uint64_t member = types_.field_offset(field, init->getExprLoc());
      initialize(var, at + member, field->getType(), init, out, needs_zero);
    }
    return;
  }
  // A scalar in braces: `int x = {5};`.
  if (count == 0) {
    needs_zero = true;
    return;
  }
  initialize(var, at, type, list->getInit(0), out, needs_zero);
}

NodeId FunctionBuilder::compound_literal(const CompoundLiteralExpr* e) {
  SourceLocation where = e->getBeginLoc();
  Loc l = loc(where);
  if (e->isFileScope()) return symaddr(module_.compound_literal(e), l);
  QualType t = e->getType();
  NodeId var = variable(".compound", types_.size(t, where), types_.align(t), l);
  std::vector<NodeId> list;
  initialize_object(var, t, e->getInitializer(), l, list);
  return seq(statements(list, l), var, l);
}

}  // namespace pl::c2ast
