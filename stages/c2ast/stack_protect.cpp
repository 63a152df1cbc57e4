// stack_protect.cpp - which functions get a stack protector canary under
// gcc's -fstack-protector, -fstack-protector-strong and
// -fstack-protector-all (clang's language option, set from the command
// line c2ast's clang reads, says which one is in effect).
//
// The rules are gcc 12's (gcc/cfgexpand.cc: stack_protect_classify_type,
// stack_protect_decl_phase, stack_protect_decl_p, stack_protect_return_slot_p
// and the switch in expand_used_vars), applied to the function's local
// variables as written (automatic storage, every scope, compound literals
// included; parameters and statics are not locals):
//
//   -fstack-protector         a local that is, or is a struct or union
//                             holding (at any depth), an array of char,
//                             signed char or unsigned char of 8 bytes or
//                             more (gcc's ssp-buffer-size); or a call to
//                             alloca, or a variable length array;
//   -fstack-protector-strong  also: a local array of any type and size, a
//                             struct or union local holding an array, a
//                             local whose address is taken (`&x`, `&s.f`),
//                             a call whose struct or union result comes back
//                             in memory (more than 16 bytes: the System V
//                             MEMORY class of what c2ast supports);
//   -fstack-protector-all     every function;
//
// and never a function with __attribute__((no_stack_protector)).
//
// Departure: gcc decides after its optimizations, on the variables still
// in memory, so at -O1 and above it skips a function whose only array was
// scalarized away; we decide on the source, which is gcc's -O0 answer at
// every level (one canary more than gcc in such functions, never one
// less). The mark is the function hint `stack_protect` (FORMAT.md section
// 1); sonopt's inline gives it to a caller that takes in a marked callee,
// and codegen-x64 places and checks the canary (frame.h).
#include "c2ast.h"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/Builtins.h>

namespace pl::c2ast {

using namespace clang;

namespace {

constexpr uint64_t kBufferSize = 8;  // gcc's --param ssp-buffer-size

struct TypeBits {
  bool large_char_array = false;  // an array of a char type, >= kBufferSize bytes
  bool array = false;
};

bool is_char(const ASTContext& ctx, QualType t) {
  t = t.getCanonicalType().getUnqualifiedType();
  return t == ctx.CharTy || t == ctx.SignedCharTy || t == ctx.UnsignedCharTy;
}

// gcc's stack_protect_classify_type: arrays count by their element type
// (char arrays by their size), records and unions by their fields.
TypeBits classify(const ASTContext& ctx, QualType t, int depth = 0) {
  TypeBits bits;
  if (depth > 64) return bits;
  t = t.getCanonicalType();
  if (const ArrayType* a = ctx.getAsArrayType(t)) {
    bits.array = true;
    if (is_char(ctx, a->getElementType())) {
      const auto* c = dyn_cast<ConstantArrayType>(a);
      // An array of unknown size counts as large, as in gcc.
      bits.large_char_array = !c || ctx.getTypeSizeInChars(c).getQuantity() >= static_cast<int64_t>(kBufferSize);
    }
    return bits;
  }
  if (const auto* r = t->getAs<RecordType>()) {
    const RecordDecl* rd = r->getDecl()->getDefinition();
    if (!rd) return bits;
    for (const FieldDecl* f : rd->fields()) {
      TypeBits fb = classify(ctx, f->getType(), depth + 1);
      bits.large_char_array |= fb.large_char_array;
      bits.array |= fb.array;
    }
  }
  return bits;
}

// The local variable an lvalue names, through `.` members, subscripts of
// arrays and parentheses: what `&` makes addressable.
const VarDecl* named_local(const Expr* e) {
  for (;;) {
    e = e->IgnoreParens();
    if (const auto* m = dyn_cast<MemberExpr>(e); m && !m->isArrow()) {
      e = m->getBase();
    } else if (const auto* s = dyn_cast<ArraySubscriptExpr>(e)) {
      const Expr* base = s->getBase()->IgnoreParens();
      const auto* decay = dyn_cast<ImplicitCastExpr>(base);
      if (!decay || decay->getCastKind() != CK_ArrayToPointerDecay) return nullptr;
      e = decay->getSubExpr();
    } else if (const auto* c = dyn_cast<ImplicitCastExpr>(e); c && c->getCastKind() == CK_NoOp) {
      e = c->getSubExpr();
    } else {
      break;
    }
  }
  const auto* ref = dyn_cast<DeclRefExpr>(e);
  const auto* vd = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return vd && vd->hasLocalStorage() && !isa<ParmVarDecl>(vd) ? vd : nullptr;
}

class Survey : public RecursiveASTVisitor<Survey> {
 public:
  explicit Survey(const ASTContext& ctx) : ctx_(ctx) {}
  bool large_char_array = false;  // -fstack-protector's locals
  bool strong_local = false;      // -fstack-protector-strong's locals and calls
  bool dynamic = false;           // alloca or a VLA

  bool VisitVarDecl(VarDecl* vd) {
    if (!vd->hasLocalStorage() || isa<ParmVarDecl>(vd)) return true;
    local(vd->getType());
    return true;
  }
  bool VisitCompoundLiteralExpr(CompoundLiteralExpr* e) {
    if (!e->isFileScope()) local(e->getType());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->getOpcode() == UO_AddrOf && named_local(u->getSubExpr())) strong_local = true;
    return true;
  }
  bool VisitCallExpr(CallExpr* c) {
    unsigned id = c->getBuiltinCallee();
    if (id == Builtin::BIalloca || id == Builtin::BI__builtin_alloca || id == Builtin::BI__builtin_alloca_with_align)
      dynamic = true;
    QualType r = c->getCallReturnType(ctx_);
    if (!r.isNull() && r->isRecordType() && !r->isIncompleteType() && ctx_.getTypeSizeInChars(r).getQuantity() > 16)
      strong_local = true;
    return true;
  }

 private:
  void local(QualType t) {
    if (is_vla_type(ctx_, t)) dynamic = true;
    TypeBits bits = classify(ctx_, t);
    large_char_array |= bits.large_char_array;
    strong_local |= bits.array;
  }
  const ASTContext& ctx_;
};

}  // namespace

bool needs_stack_protector(const FunctionDecl* fd) {
  const ASTContext& ctx = fd->getASTContext();
  LangOptions::StackProtectorMode mode = ctx.getLangOpts().getStackProtector();
  if (mode == LangOptions::SSPOff) return false;
  for (const Decl* d : fd->redecls())
    if (d->hasAttr<NoStackProtectorAttr>()) return false;
  if (mode == LangOptions::SSPReq) return true;
  Survey survey(ctx);
  survey.TraverseStmt(fd->getBody());
  if (survey.dynamic || survey.large_char_array) return true;
  return mode == LangOptions::SSPStrong && survey.strong_local;
}

}  // namespace pl::c2ast
