// debug_info.cpp - the debug sections (-g; FORMAT.md "Debug information",
// common/ir/debug_info.h): C types into the header's type table, each
// function's type, lexical blocks and variables.
//
// Types are entered once per clang QualType as written (sugar kept: a
// typedef stays a typedef, `const int` a const of int), so the table names
// what the source names. A struct, union or enum takes its index before its
// members are entered, which closes the cycles of self-referencing structs
// through pointers. The order of the table is the order of first use, so
// the same file gives the same table.
//
// Scopes: each compound statement and each `for` is a candidate lexical
// block (its source range); only those that declare a variable become
// scopes, with their enclosing candidates (parents first).
#include "c2ast.h"

#include <clang/AST/RecordLayout.h>

namespace pl::c2ast {

using namespace clang;

DebugBuilder::DebugBuilder(ASTContext& ctx, ModuleDebug& out, Locations& locations)
    : ctx_(ctx), out_(out), locations_(locations) {
  const LangOptions& lang = ctx.getLangOpts();
  out_.language = lang.C11 ? "C11" : lang.C99 ? "C99" : "C89";
  // The producer names pipecc inside clang's form, and must start "clang ":
  // gdb 13 honours the line table's prologue_end when it sets a breakpoint
  // on a function whatever the producer, but when `step` enters a function
  // it asks amd64_skip_prologue, which trusts the line table only for
  // producers starting "clang " (producer_is_llvm) and otherwise looks for
  // `push %rbp; mov %rsp,%rbp`. Our functions keep no frame pointer, so any
  // other producer makes `step` stop at the function's first byte, before
  // the parameters are stored (tests/test_debug_info.py, "step").
  out_.producer = std::string("clang version 14.0.6 (pipecc ") + PIPE_VERSION + ")";
}

uint32_t DebugBuilder::add(DebugType t) {
  out_.types.push_back(std::move(t));
  return static_cast<uint32_t>(out_.types.size() - 1);
}

int64_t DebugBuilder::type_or_void(QualType t) {
  if (t.isNull() || (t->isVoidType() && !t.hasLocalQualifiers() && !isa<TypedefType>(t.getTypePtr())))
    return kDebugNone;
  return type(t);
}

uint32_t DebugBuilder::type(QualType t) {
  const void* key = t.getAsOpaquePtr();
  if (auto it = ids_.find(key); it != ids_.end()) return it->second;
  uint32_t id = make(t);
  ids_.emplace(key, id);
  return id;
}

namespace {

DebugEncoding base_encoding(const BuiltinType* b) {
  switch (b->getKind()) {
    case BuiltinType::Bool: return DebugEncoding::Boolean;
    case BuiltinType::Char_S:
    case BuiltinType::SChar: return DebugEncoding::SignedChar;
    case BuiltinType::Char_U:
    case BuiltinType::UChar: return DebugEncoding::UnsignedChar;
    default: break;
  }
  if (b->isFloatingPoint()) return DebugEncoding::Float;
  return b->isSignedInteger() ? DebugEncoding::Signed : DebugEncoding::Unsigned;
}

}  // namespace

uint32_t DebugBuilder::make(QualType t) {
  // Qualifiers, outermost first: const, volatile, restrict.
  Qualifiers q = t.getLocalQualifiers();
  if (q.hasConst() || q.hasVolatile() || q.hasRestrict()) {
    DebugType d;
    QualType inner = t;
    if (q.hasConst()) {
      d.kind = DebugTypeKind::Const;
      inner.removeLocalConst();
    } else if (q.hasVolatile()) {
      d.kind = DebugTypeKind::Volatile;
      inner.removeLocalVolatile();
    } else {
      d.kind = DebugTypeKind::Restrict;
      inner.removeLocalRestrict();
    }
    d.type = type_or_void(inner);
    return add(std::move(d));
  }
  const Type* ty = t.getTypePtr();
  if (const auto* td = dyn_cast<TypedefType>(ty)) {
    DebugType d;
    d.kind = DebugTypeKind::Typedef;
    d.name = td->getDecl()->getNameAsString();
    d.type = type_or_void(td->getDecl()->getUnderlyingType());
    if (d.type == kDebugNone) {  // typedef void T: a typedef of nothing is not DWARF's; use the base
      d.kind = DebugTypeKind::Base;
      d.size = 1;
      d.encoding = DebugEncoding::Unsigned;
    }
    return add(std::move(d));
  }
  if (isa<ElaboratedType>(ty) || isa<ParenType>(ty) || isa<TypeOfExprType>(ty) || isa<TypeOfType>(ty) ||
      isa<AttributedType>(ty) || isa<MacroQualifiedType>(ty) || isa<DecayedType>(ty))
    return type(t.getSingleStepDesugaredType(ctx_));
  if (const auto* b = dyn_cast<BuiltinType>(ty)) {
    DebugType d;
    d.kind = DebugTypeKind::Base;
    PrintingPolicy policy(ctx_.getLangOpts());
    d.name = QualType(b, 0).getAsString(policy);
    d.size = b->isVoidType() ? 1 : static_cast<uint64_t>(ctx_.getTypeSize(b) / 8);
    d.encoding = base_encoding(b);
    return add(std::move(d));
  }
  if (const auto* p = dyn_cast<PointerType>(ty)) {
    uint32_t id = add(DebugType{.kind = DebugTypeKind::Pointer});
    ids_.emplace(t.getAsOpaquePtr(), id);  // a pointer to a struct holding it
    out_.types[id].type = type_or_void(p->getPointeeType());
    return id;
  }
  if (const auto* a = dyn_cast<ArrayType>(ty)) {
    DebugType d;
    d.kind = DebugTypeKind::Array;
    if (const auto* c = dyn_cast<ConstantArrayType>(a)) d.count = static_cast<int64_t>(c->getSize().getZExtValue());
    d.type = type(a->getElementType());
    return add(std::move(d));
  }
  if (const auto* r = dyn_cast<RecordType>(ty)) {
    const RecordDecl* rd = r->getDecl();
    uint32_t id = add(DebugType{.kind = rd->isUnion() ? DebugTypeKind::Union : DebugTypeKind::Struct});
    ids_.emplace(t.getAsOpaquePtr(), id);
    out_.types[id].name = rd->getNameAsString();
    const RecordDecl* def = rd->getDefinition();
    if (!def) {
      out_.types[id].declaration = true;
      return id;
    }
    const ASTRecordLayout& layout = ctx_.getASTRecordLayout(def);
    out_.types[id].size = static_cast<uint64_t>(layout.getSize().getQuantity());
    std::vector<DebugMember> members;
    for (const FieldDecl* f : def->fields()) {
      DebugMember m;
      m.name = f->getNameAsString();
      m.type = type(f->getType());
      uint64_t bits = layout.getFieldOffset(f->getFieldIndex());
      m.offset = bits / 8;
      if (f->isBitField()) {
        m.bit_size = f->getBitWidthValue(ctx_);
        m.bit_offset = static_cast<uint32_t>(bits);
        if (m.bit_size == 0) continue;  // `int : 0` only aligns
      }
      members.push_back(std::move(m));
    }
    out_.types[id].members = std::move(members);
    return id;
  }
  if (const auto* c = dyn_cast<ComplexType>(ty)) {
    // DWARF's complex base types are not in our table: a struct named as
    // the C type with members `real` and `imag` (gdb prints both parts).
    uint32_t id = add(DebugType{.kind = DebugTypeKind::Struct});
    ids_.emplace(t.getAsOpaquePtr(), id);
    PrintingPolicy policy(ctx_.getLangOpts());
    out_.types[id].name = QualType(c, 0).getAsString(policy);
    out_.types[id].size = static_cast<uint64_t>(ctx_.getTypeSize(c) / 8);
    uint32_t element = type(c->getElementType());
    uint64_t step = static_cast<uint64_t>(ctx_.getTypeSize(c->getElementType()) / 8);
    out_.types[id].members = {DebugMember{.name = "real", .type = element, .offset = 0},
                              DebugMember{.name = "imag", .type = element, .offset = step}};
    return id;
  }
  if (const auto* e = dyn_cast<EnumType>(ty)) {
    const EnumDecl* ed = e->getDecl();
    uint32_t id = add(DebugType{.kind = DebugTypeKind::Enum});
    ids_.emplace(t.getAsOpaquePtr(), id);
    out_.types[id].name = ed->getNameAsString();
    const EnumDecl* def = ed->getDefinition();
    if (!def) {
      out_.types[id].declaration = true;
      return id;
    }
    QualType underlying = def->getIntegerType();
    out_.types[id].size = static_cast<uint64_t>(ctx_.getTypeSize(underlying) / 8);
    out_.types[id].type = type(underlying);
    std::vector<DebugEnumerator> values;
    for (const EnumConstantDecl* c : def->enumerators())
      values.push_back({c->getNameAsString(), c->getInitVal().getExtValue()});
    out_.types[id].enumerators = std::move(values);
    return id;
  }
  if (const auto* f = dyn_cast<FunctionType>(ty)) {
    DebugType d;
    d.kind = DebugTypeKind::Function;
    d.type = type_or_void(f->getReturnType());
    if (const auto* p = dyn_cast<FunctionProtoType>(f)) {
      for (QualType param : p->getParamTypes()) d.params.push_back(type(param));
      d.variadic = p->isVariadic();
    } else {
      d.prototyped = false;
    }
    return add(std::move(d));
  }
  // Anything else c2ast compiles has a canonical form above (sugar we do not
  // name: typeof, auto types, ...).
  QualType canonical = t.getCanonicalType();
  if (canonical.getAsOpaquePtr() != t.getAsOpaquePtr()) return type(canonical);
  DebugType d;  // a type c2ast refuses elsewhere: named, sized bytes
  d.kind = DebugTypeKind::Base;
  d.name = t.getAsString();
  d.size = ty->isIncompleteType() ? 1 : static_cast<uint64_t>(ctx_.getTypeSize(ty) / 8);
  d.encoding = DebugEncoding::Unsigned;
  return add(std::move(d));
}

void DebugBuilder::global(const VarDecl* vd, const std::string& symbol) {
  DebugGlobal g;
  g.name = vd->getNameAsString();
  g.type = type(vd->getType());
  g.symbol = symbol;
  g.loc = locations_.get(vd->getLocation());
  g.external = vd->isExternallyVisible();
  out_.globals.push_back(std::move(g));
}

// ---- FunctionBuilder's part ----

void FunctionBuilder::debug_function() {
  if (!debug_) return;
  fn_.debug.type = debug_->type(fd_->getType());
  fn_.debug.loc = loc(fd_->getLocation());
}

void FunctionBuilder::open_scope(SourceLocation begin, SourceLocation end) {
  if (!debug_) return;
  scopes_.push_back(PendingScope{loc(begin), loc(end), kDebugNone});
}

void FunctionBuilder::close_scope() {
  if (!debug_) return;
  scopes_.pop_back();
}

int64_t FunctionBuilder::current_scope() {
  int64_t parent = kDebugNone;
  for (PendingScope& s : scopes_) {
    if (s.index == kDebugNone) {
      if (!s.begin.valid() || !s.end.valid() || s.begin.file != s.end.file) continue;  // not one range
      fn_.debug.scopes.push_back(DebugScope{parent, s.begin, s.end});
      s.index = static_cast<int64_t>(fn_.debug.scopes.size() - 1);
    }
    parent = s.index;
  }
  return parent;
}

namespace {

// Whether every mention of `p` in `s` reads its value (an lvalue-to-rvalue
// conversion of the bare name): no assignment, `++`, `&p`, asm output,
// sizeof or anything else that is not a plain read.
bool only_read(const ParmVarDecl* p, const Stmt* s) {
  if (!s) return true;
  if (const auto* cast = dyn_cast<ImplicitCastExpr>(s); cast && cast->getCastKind() == CK_LValueToRValue)
    if (const auto* ref = dyn_cast<DeclRefExpr>(cast->getSubExpr()->IgnoreParens()); ref && ref->getDecl() == p)
      return true;
  if (const auto* ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == p) return false;
  for (const Stmt* child : s->children())
    if (!only_read(p, child)) return false;
  return true;
}

// A parameter that holds the value it arrived with for the whole call
// (DebugVar::unchanged): a scalar passed as it is declared (not a struct, a
// K&R-promoted float or integer, a _Bool read from bit 0, a volatile) that
// the body only reads.
bool keeps_entry_value(const ParmVarDecl* p) {
  QualType t = p->getType();
  if (p->isKNRPromoted() || t.isVolatileQualified() || t->isBooleanType() || !t->isScalarType() ||
      t->isAnyComplexType())
    return false;
  const auto* fd = dyn_cast<FunctionDecl>(p->getDeclContext());
  return fd && fd->getBody() && only_read(p, fd->getBody());
}

}  // namespace

void FunctionBuilder::debug_variable(const VarDecl* vd, NodeId var, int64_t param, bool indirect,
                                     const std::string& symbol) {
  if (!debug_ || vd->getName().empty()) return;
  DebugVar v;
  v.name = vd->getNameAsString();
  v.type = debug_->type(vd->getType());
  v.scope = param == kDebugNone ? current_scope() : kDebugNone;
  v.param = param;
  v.loc = loc(vd->getLocation());
  v.slot = var == kNone ? kNoSlot : var;
  v.symbol = symbol;
  v.indirect = indirect;
  if (const auto* p = dyn_cast<ParmVarDecl>(vd); p && param != kDebugNone && !indirect) v.unchanged = keeps_entry_value(p);
  fn_.debug.vars.push_back(std::move(v));
}

}  // namespace pl::c2ast
