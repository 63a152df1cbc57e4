// storage_order.cpp - gcc's scalar storage order (issue 19): the type
// attribute `scalar_storage_order("big-endian" | "little-endian")` on a
// struct or union, and `#pragma scalar_storage_order big-endian |
// little-endian | default`, which gives every struct and union defined
// while it is in force that order (the attribute wins).
//
// Parsing. clang 14 does not know the attribute (it would drop it with a
// warning, which c2ast turns into `unsupported`). c2ast registers it with
// clang's parser as a plugin attribute (ParsedAttrInfoRegistry, the
// mechanism of clang's examples/Attribute): on a struct or union it checks
// the argument and attaches an AnnotateAttr whose text says the order
// (attributes.cpp accepts that annotation and no other). The pragma is a
// PragmaHandler on the preprocessor that keeps the order in force; the
// Converter's HandleTagDeclDefinition, which clang calls at the closing
// brace of every struct and union, annotates a record the attribute left
// alone (apply_storage_order_pragma), so a record nested in one defined
// under the pragma has the order too, as with gcc.
//
// Meaning (gcc's manual, "Common Type Attributes", and what gcc 12 does,
// checked byte by byte by tests/c2ast/programs/storage_order.c). On x86-64,
// little-endian is the native order: that attribute changes nothing. In a
// big-endian record, every scalar member (integers, enums, float, double;
// not pointers and not vectors) and every element of a member array of
// such scalars is stored most significant byte first; members that are
// structs or unions (and arrays of them) keep their own order. So:
//   - a read of such an lvalue (reversed_scalar) loads its bytes and swaps
//     them (integer masks and shifts, byte_swap; float and double through
//     the integer of their width and a bitcast); a write swaps the value
//     and stores it, and the assignment's value is the unswapped one;
//   - a bit-field of a big-endian record has gcc's big-endian bit
//     numbering over the same layout: clang's (gcc's little-endian) bit
//     offset p of the field counts from the first byte's most significant
//     bit, so the field is the w bits from stream bit p, the first of them
//     its most significant. reversed_bitload reads the bytes the field
//     touches (at most 8) as a big-endian number and shifts and masks it;
//     reversed_bitstore merges the value in and writes those bytes back,
//     never a byte outside them;
//   - initializers: a local's members are written by reversed_scalar_store
//     (initializers.cpp, while reversed_init_ says the member is in a
//     big-endian record), a static object's bytes by data.cpp's
//     ConstantWriter in the same order;
//   - `&s.x` of a reversed scalar is gcc's error ("cannot take address of
//     scalar with reverse storage order"; expressions.cpp, and in a static
//     initializer check_static_addresses, before clang's evaluator would
//     fold the address); the address of
//     a member array (its decay to a pointer) is allowed, as gcc allows it
//     with a warning, and the pointer reads the bytes natively, as gcc's;
//   - structs are copied, passed and returned as bytes: unchanged.
// Refused by name: a reversed member of type long double (gcc: "sorry,
// unimplemented"), __int128, _Complex or _Atomic, a volatile one, an
// inline assembly operand in reverse order, and a reversed bit-field that
// touches more than 8 bytes (packed records).
#include "c2ast.h"

#include <clang/AST/Attr.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Sema/ParsedAttr.h>
#include <clang/Sema/Sema.h>

namespace pl::c2ast {

using namespace clang;

namespace {

constexpr llvm::StringLiteral kBigEndian = "pipe:scalar_storage_order=big-endian";
constexpr llvm::StringLiteral kLittleEndian = "pipe:scalar_storage_order=little-endian";

// The attribute, as clang's parser sees it.
struct ScalarStorageOrderAttrInfo : ParsedAttrInfo {
  ScalarStorageOrderAttrInfo() {
    NumArgs = 1;
    IsKnownToGCC = 1;
    static constexpr Spelling kNames[] = {{AttributeCommonInfo::AS_GNU, "scalar_storage_order"},
                                          {AttributeCommonInfo::AS_GNU, "__scalar_storage_order__"}};
    Spellings = kNames;
  }
  bool diagAppertainsToDecl(Sema& sema, const ParsedAttr& attr, const Decl* decl) const override {
    if (isa<RecordDecl>(decl)) return true;
    // gcc: a warning, and the attribute is ignored.
    DiagnosticsEngine& d = sema.getDiagnostics();
    sema.Diag(attr.getLoc(), d.getCustomDiagID(DiagnosticsEngine::Warning,
                                               "'scalar_storage_order' attribute ignored (not on a struct or union)"));
    return false;
  }
  AttrHandling handleDeclAttribute(Sema& sema, Decl* decl, const ParsedAttr& attr) const override {
    const StringLiteral* arg = nullptr;
    if (attr.getNumArgs() == 1 && attr.isArgExpr(0)) arg = dyn_cast<StringLiteral>(attr.getArgAsExpr(0)->IgnoreParenCasts());
    llvm::StringRef order = arg && arg->isAscii() ? arg->getString() : "";
    if (order != "big-endian" && order != "little-endian") {
      DiagnosticsEngine& d = sema.getDiagnostics();
      sema.Diag(attr.getLoc(), d.getCustomDiagID(DiagnosticsEngine::Error,
                                                 "scalar_storage_order argument must be one of \"big-endian\" or "
                                                 "\"little-endian\""));
      return AttributeNotApplied;
    }
    decl->addAttr(AnnotateAttr::CreateImplicit(sema.Context, order == "big-endian" ? kBigEndian : kLittleEndian,
                                               nullptr, 0, AttributeCommonInfo(attr.getRange())));
    return AttributeApplied;
  }
};

const ParsedAttrInfoRegistry::Add<ScalarStorageOrderAttrInfo> kRegistered(
    "scalar_storage_order", "gcc's scalar storage order of a struct or union");

const AnnotateAttr* storage_order_of(const RecordDecl* record) {
  if (const RecordDecl* def = record->getDefinition()) record = def;
  const AnnotateAttr* found = nullptr;
  for (const auto* a : record->specific_attrs<AnnotateAttr>())
    if (is_storage_order_annotation(a)) found = a;
  return found;
}

// 0xff..f with `w` ones (w = 1 ... 64).
uint64_t ones(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

}  // namespace

class StorageOrderPragma : public PragmaHandler {
 public:
  StorageOrderPragma() : PragmaHandler("scalar_storage_order") {}
  void HandlePragma(Preprocessor& pp, PragmaIntroducer, Token&) override {
    std::string words;
    Token tok;
    pp.Lex(tok);
    SourceLocation at = tok.getLocation();
    while (tok.isNot(tok::eod)) {
      words += pp.getSpelling(tok);
      pp.Lex(tok);
    }
    if (words == "big-endian") {
      annotation_ = kBigEndian;
    } else if (words == "little-endian") {
      annotation_ = kLittleEndian;
    } else if (words == "default") {
      annotation_ = {};
    } else {  // gcc: a warning, and the pragma is ignored
      DiagnosticsEngine& d = pp.getDiagnostics();
      pp.Diag(at, d.getCustomDiagID(DiagnosticsEngine::Warning,
                                    "expected [big-endian|little-endian|default] after '#pragma scalar_storage_order'"));
    }
  }
  llvm::StringRef annotation() const { return annotation_; }

 private:
  llvm::StringRef annotation_;  // empty: default
};

StorageOrderPragma* install_storage_order_pragma(Preprocessor& pp) {
  auto* handler = new StorageOrderPragma;
  pp.AddPragmaHandler(handler);  // the preprocessor owns it
  return handler;
}

void apply_storage_order_pragma(const StorageOrderPragma* pragma, ASTContext& ctx, TagDecl* tag) {
  auto* record = dyn_cast<RecordDecl>(tag);
  if (!pragma || !record || pragma->annotation().empty() || storage_order_of(record)) return;
  record->addAttr(AnnotateAttr::CreateImplicit(ctx, pragma->annotation(), nullptr, 0,
                                               AttributeCommonInfo(SourceRange(record->getLocation()))));
}

bool is_storage_order_annotation(const Attr* a) {
  const auto* annotate = dyn_cast<AnnotateAttr>(a);
  return annotate && (annotate->getAnnotation() == kBigEndian || annotate->getAnnotation() == kLittleEndian);
}

bool big_endian_record(const RecordDecl* record) {
  const AnnotateAttr* a = storage_order_of(record);
  return a && a->getAnnotation() == kBigEndian;
}

bool reversible_scalar(QualType t, const ASTContext& ctx, SourceLocation where) {
  t = t.getCanonicalType();
  if (t->isAtomicType()) unsupported(where, "_Atomic member of a struct with reverse scalar storage order");
  if (t->isAnyComplexType()) unsupported(where, "_Complex member of a struct with reverse scalar storage order");
  if (Types::is_int128(t)) unsupported(where, "__int128 member of a struct with reverse scalar storage order");
  if (Types::is_long_double(t)) unsupported(where, "long double member of a struct with reverse scalar storage order");
  if (!t->isIntegerType() && !t->isRealFloatingType()) return false;  // pointers, vectors, aggregates
  return ctx.getTypeSize(t) > 8 || t->isRealFloatingType();
}

void check_storage_order_member(const FieldDecl* field, const ASTContext& ctx, SourceLocation where) {
  if (!big_endian_record(field->getParent())) return;
  QualType t = ctx.getBaseElementType(field->getType());
  if (!t->isRecordType()) reversible_scalar(t, ctx, where);
}

bool reversed_scalar_lvalue(const Expr* lvalue, const ASTContext& ctx) {
  const Expr* e = lvalue->IgnoreParens();
  // The element of an array member: the order of the array's record.
  const Expr* holder = e;
  while (const auto* a = dyn_cast<ArraySubscriptExpr>(holder)) {
    const auto* decay = dyn_cast<ImplicitCastExpr>(a->getBase()->IgnoreParens());
    if (!decay || decay->getCastKind() != CK_ArrayToPointerDecay) return false;
    holder = decay->getSubExpr()->IgnoreParens();
  }
  const auto* member = dyn_cast<MemberExpr>(holder);
  if (!member) return false;
  const auto* field = dyn_cast<FieldDecl>(member->getMemberDecl());
  if (const auto* indirect = dyn_cast<IndirectFieldDecl>(member->getMemberDecl())) field = indirect->getAnonField();
  if (!field || !big_endian_record(field->getParent())) return false;
  if (field->isBitField() && holder == e) return true;
  return reversible_scalar(e->getType(), ctx, lvalue->getExprLoc());
}

bool FunctionBuilder::reversed_scalar(const Expr* lvalue) {
  if (!reversed_scalar_lvalue(lvalue, ctx_)) return false;
  if (lvalue->getType().isVolatileQualified()) {
    const Expr* e = lvalue->IgnoreParens();
    const auto* member = dyn_cast<MemberExpr>(e);
    const auto* field = member ? dyn_cast<FieldDecl>(member->getMemberDecl()) : nullptr;
    unsupported(lvalue->getExprLoc(), field && field->isBitField()
                                          ? "volatile bit-field of a struct with reverse scalar storage order"
                                          : "volatile member of a struct with reverse scalar storage order");
  }
  return true;
}

// gcc's error for `&s.x` of a reversed scalar, in a static initializer as
// in code (expressions.cpp): clang's constant evaluator would give the
// address, which reads the member in the native order.
void check_static_addresses(const Expr* init, const ASTContext& ctx) {
  std::vector<const Stmt*> stack{init};
  while (!stack.empty()) {
    const Stmt* s = stack.back();
    stack.pop_back();
    if (!s) continue;
    if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_AddrOf &&
                                                    reversed_scalar_lvalue(u->getSubExpr(), ctx))
      throw CError{u->getOperatorLoc(), "cannot take address of scalar with reverse storage order"};
    for (const Stmt* child : s->children()) stack.push_back(child);
  }
}

NodeId FunctionBuilder::byte_swap(NodeId var, VType t, unsigned bits, Loc l) {
  NodeId acc = kNone;
  for (unsigned i = 0; i < bits / 8; ++i) {
    unsigned from = 8 * i, to = bits - 8 - 8 * i;
    NodeId x = load(t, false, var, l);
    NodeId byte = op("and", t, l, from ? op("lshr", t, l, x, constant(t, from, l)) : x, constant(t, 0xff, l));
    NodeId placed = to ? op("shl", t, l, byte, constant(t, to, l)) : byte;
    acc = acc == kNone ? placed : op("or", t, l, acc, placed);
  }
  return acc;
}

namespace {

// The integer type whose bits a scalar of `t` is swapped as.
VType swap_type(VType t) { return t == VType::F32 ? VType::I32 : t == VType::F64 ? VType::I64 : t; }

}  // namespace

NodeId FunctionBuilder::reversed_load(const Expr* lvalue, VType t, bool is_volatile, NodeId address, Loc l) {
  SourceLocation where = lvalue->getExprLoc();
  if (const FieldDecl* field = bitfield_of(lvalue)) return reversed_bitload(types_.bitfield(field, where), address, l, where);
  (void)is_volatile;  // reversed_scalar refused volatile members
  VType raw = swap_type(t);
  std::vector<NodeId> out;
  NodeId held = hold(raw, load(raw, false, address, l), out, l);
  NodeId value = byte_swap(held, raw, vtype_bits(raw), l);
  if (raw != t) value = conversion("bitcast", raw, t, l, value);
  return seq(block(out, l), value, l);
}

NodeId FunctionBuilder::reversed_scalar_store(QualType, VType t, NodeId address, NodeId value, Loc l, SourceLocation) {
  VType raw = swap_type(t);
  std::vector<NodeId> out;
  NodeId at = hold(VType::Ptr, address, out, l);
  NodeId kept = hold(t, value, out, l);
  NodeId bits = load(t, false, kept, l);
  if (raw != t) bits = conversion("bitcast", t, raw, l, bits);
  NodeId swapped_from = hold(raw, bits, out, l);
  out.push_back(store(raw, false, load(VType::Ptr, false, at, l), byte_swap(swapped_from, raw, vtype_bits(raw), l), l));
  return seq(block(out, l), load(t, false, kept, l), l);
}

NodeId FunctionBuilder::reversed_store(const Expr* lvalue, VType t, bool, NodeId address, NodeId value, Loc l) {
  SourceLocation where = lvalue->getExprLoc();
  if (const FieldDecl* field = bitfield_of(lvalue))
    return reversed_bitstore(types_.bitfield(field, where), address, value, l, where);
  return reversed_scalar_store(lvalue->getType(), t, address, value, l, where);
}

namespace {

struct Touched {
  uint64_t first = 0;  // the first byte of the unit the field touches
  unsigned bytes = 0;  // how many
  unsigned shift = 0;  // the field's lowest bit in their big-endian number
};

Touched touched_bytes(const BitFieldLayout& f, SourceLocation where) {
  Touched t;
  t.first = f.bit_offset / 8;
  uint64_t lead = f.bit_offset % 8;
  uint64_t bytes = (lead + f.width + 7) / 8;
  if (bytes > 8) unsupported(where, "bit-field of a struct with reverse scalar storage order spanning more than 8 bytes");
  t.bytes = static_cast<unsigned>(bytes);
  t.shift = static_cast<unsigned>(8 * bytes - lead - f.width);
  return t;
}

}  // namespace

NodeId FunctionBuilder::big_endian_bytes(NodeId base, uint64_t first, unsigned n, Loc l) {
  NodeId number = kNone;
  for (unsigned k = 0; k < n; ++k) {
    NodeId at = offset(load(VType::Ptr, false, base, l), first + k, l);
    NodeId byte = conversion("zext", VType::I8, VType::I64, l, load(VType::I8, false, at, l));
    number = number == kNone ? byte : op("or", VType::I64, l, op("shl", VType::I64, l, number, constant(VType::I64, 8, l)), byte);
  }
  return number;
}

NodeId FunctionBuilder::reversed_bitload(const BitFieldLayout& f, NodeId unit, Loc l, SourceLocation where) {
  Touched t = touched_bytes(f, where);
  std::vector<NodeId> out;
  NodeId base = hold(VType::Ptr, unit, out, l);
  NodeId number = big_endian_bytes(base, t.first, t.bytes, l);
  NodeId v = t.shift ? op("lshr", VType::I64, l, number, constant(VType::I64, t.shift, l)) : number;
  if (f.type.is_signed && f.width < 64) {
    auto up = static_cast<int64_t>(64 - f.width);
    v = op("ashr", VType::I64, l, op("shl", VType::I64, l, v, constant(VType::I64, up, l)), constant(VType::I64, up, l));
  } else if (f.width < 64) {
    v = op("and", VType::I64, l, v, constant(VType::I64, static_cast<int64_t>(ones(f.width)), l));
  }
  if (f.type.vt != VType::I64) v = conversion("trunc", VType::I64, f.type.vt, l, v);
  return seq(block(out, l), v, l);
}

NodeId FunctionBuilder::reversed_bitstore(const BitFieldLayout& f, NodeId unit, NodeId value, Loc l, SourceLocation where) {
  Touched t = touched_bytes(f, where);
  std::vector<NodeId> out;
  NodeId base = hold(VType::Ptr, unit, out, l);
  NodeId wide = f.type.vt == VType::I64 ? value : conversion("zext", f.type.vt, VType::I64, l, value);
  NodeId bits = hold(VType::I64, op("and", VType::I64, l, wide, constant(VType::I64, static_cast<int64_t>(ones(f.width)), l)),
                     out, l);
  auto byte_at = [&](unsigned k) {
    return offset(load(VType::Ptr, false, base, l), t.first + k, l);
  };
  NodeId number = big_endian_bytes(base, t.first, t.bytes, l);
  uint64_t mask = ones(f.width) << t.shift;
  NodeId kept = op("and", VType::I64, l, number, constant(VType::I64, static_cast<int64_t>(~mask), l));
  NodeId placed = t.shift ? op("shl", VType::I64, l, load(VType::I64, false, bits, l), constant(VType::I64, t.shift, l))
                          : load(VType::I64, false, bits, l);
  NodeId merged = hold(VType::I64, op("or", VType::I64, l, kept, placed), out, l);
  for (unsigned k = 0; k < t.bytes; ++k) {
    unsigned down = 8 * (t.bytes - 1 - k);
    NodeId x = load(VType::I64, false, merged, l);
    if (down) x = op("lshr", VType::I64, l, x, constant(VType::I64, down, l));
    out.push_back(store(VType::I8, false, byte_at(k), conversion("trunc", VType::I64, VType::I8, l, x), l));
  }
  // The value: what the field holds now.
  NodeId now = load(VType::I64, false, bits, l);
  if (f.type.is_signed && f.width < 64) {
    auto up = static_cast<int64_t>(64 - f.width);
    now = op("ashr", VType::I64, l, op("shl", VType::I64, l, now, constant(VType::I64, up, l)), constant(VType::I64, up, l));
  }
  if (f.type.vt != VType::I64) now = conversion("trunc", VType::I64, f.type.vt, l, now);
  return seq(block(out, l), now, l);
}

}  // namespace pl::c2ast
