// attributes.cpp - what every attribute clang can attach does to the module.
//
// An attribute that changes what a program means must never be dropped
// without a word (issue 17). kRules lists every attribute kind clang 14 can
// attach to C code on x86-64 Linux that we accept, with what happens to it:
//
//   Symbol  implemented as a symbol attribute of the module (FORMAT.md
//           section 1, "Symbol attributes": weak, visibility, section,
//           used, alias, constructor, destructor, common, nocommon,
//           tls_model) or as the symbol's name
//           and linkage (asm labels, gnu_inline);
//   Layout  implemented by clang's record layout and declared alignment,
//           which c2ast takes its sizes, offsets and alignments from
//           (aligned on globals, locals and members, packed, #pragma pack,
//           mode); gcc's scalar_storage_order, which clang 14 does not
//           know, is registered with clang's parser by storage_order.cpp
//           and arrives as an annotation;
//   Scope   implemented by the statements c2ast writes: cleanup, a call
//           at every exit from the variable's scope (cleanups.cpp);
//           returns_twice, every local of a caller kept in memory
//           (returns_twice.cpp);
//   Hint    a fact about a function carried in the module (hints: noinline,
//           always_inline, pure, const, cold, malloc, noreturn) for sonopt;
//           (not an attribute, but carried the same way: the `inline`
//           keyword on any declaration is the hint inline, gcc's
//           DECL_DECLARED_INLINE_P, which sonopt's -O1 inlining follows);
//   Ignored changes nothing the program computes (the reason says why:
//           a diagnostic, a hint we need not follow, a no-op on x86-64).
//
// Every kind not in the table is refused with `unsupported: attribute
// 'NAME'` at the attribute: clang knows about 360 kinds, most of them for
// other languages and targets, and a kind we have not looked at may change
// meaning. Attributes clang does not know at all (gcc's noclone,
// no_reorder, ...) never reach the AST: c2ast.cpp turns clang's "unknown
// attribute ignored" warning into the same error, except for kUnknownHarmless.
//
// What is checked (check_attributes): every declaration written outside
// the system headers (the visitor in ModuleBuilder's constructor), its
// statements' attributes and type attributes, and every declaration of a
// system header the module refers to.
#include "c2ast.h"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace pl::c2ast {

using namespace clang;

namespace {

enum class Action : uint8_t { Symbol, Layout, Scope, Hint, Ignored };

struct Rule {
  attr::Kind kind;
  Action action;
  const char* reason;  // for Ignored: why the program means the same
};

constexpr const char* kDiagnostic = "a diagnostic only";
constexpr const char* kOptHint = "an optimization hint: the code we generate does not rely on it";
constexpr const char* kNoOp = "no effect on x86-64 Linux C code";

constexpr Rule kRules[] = {
    // symbols
    {attr::Alias, Action::Symbol, nullptr},
    {attr::Weak, Action::Symbol, nullptr},
    {attr::Section, Action::Symbol, nullptr},
    {attr::Used, Action::Symbol, nullptr},
    {attr::Common, Action::Symbol, nullptr},    // a tentative definition is common (data.cpp)
    {attr::NoCommon, Action::Symbol, nullptr},  // ... is not, even with -fcommon
    {attr::Visibility, Action::Symbol, nullptr},
    {attr::Constructor, Action::Symbol, nullptr},
    {attr::Destructor, Action::Symbol, nullptr},
    {attr::AsmLabel, Action::Symbol, nullptr},
    {attr::TLSModel, Action::Symbol, nullptr},  // a thread-local variable's access model
    {attr::GNUInline, Action::Symbol, nullptr},
    // layout
    {attr::Aligned, Action::Layout, nullptr},
    {attr::Packed, Action::Layout, nullptr},
    {attr::MaxFieldAlignment, Action::Layout, nullptr},
    {attr::Mode, Action::Layout, nullptr},
    // scopes
    {attr::Cleanup, Action::Scope, nullptr},
    {attr::ReturnsTwice, Action::Scope, nullptr},
    // function hints
    {attr::NoInline, Action::Hint, nullptr},
    {attr::AlwaysInline, Action::Hint, nullptr},
    {attr::Pure, Action::Hint, nullptr},
    {attr::Const, Action::Hint, nullptr},
    {attr::Cold, Action::Hint, nullptr},
    {attr::Restrict, Action::Hint, nullptr},  // gcc's malloc
    {attr::NoReturn, Action::Hint, nullptr},
    {attr::C11NoReturn, Action::Hint, nullptr},
    {attr::CXX11NoReturn, Action::Hint, nullptr},
    // Refused (not in the table), among others: weakref, ifunc, target_clones,
    // transparent_union, naked, common, internal_linkage,
    // no_builtin, ms_abi and the other calling conventions, address spaces,
    // #pragma clang section.
    // ignored, with the reason
    {attr::Unused, Action::Ignored, "only silences a warning"},
    {attr::Deprecated, Action::Ignored, kDiagnostic},
    {attr::Unavailable, Action::Ignored, kDiagnostic},
    {attr::WarnUnusedResult, Action::Ignored, kDiagnostic},
    {attr::WarnUnused, Action::Ignored, kDiagnostic},
    {attr::Format, Action::Ignored, kDiagnostic},
    {attr::FormatArg, Action::Ignored, kDiagnostic},
    {attr::Sentinel, Action::Ignored, kDiagnostic},
    {attr::Error, Action::Ignored, "a diagnostic on calls (gcc's error/warning attributes)"},
    {attr::DiagnoseIf, Action::Ignored, kDiagnostic},
    {attr::DiagnoseAsBuiltin, Action::Ignored, kDiagnostic},
    {attr::Availability, Action::Ignored, kDiagnostic},
    {attr::NonNull, Action::Ignored, "lets gcc drop null checks; keeping them is correct"},
    {attr::ReturnsNonNull, Action::Ignored, "lets gcc drop null checks; keeping them is correct"},
    {attr::TypeNonNull, Action::Ignored, kDiagnostic},
    {attr::TypeNullable, Action::Ignored, kDiagnostic},
    {attr::TypeNullUnspecified, Action::Ignored, kDiagnostic},
    {attr::TypeNullableResult, Action::Ignored, kDiagnostic},
    {attr::Hot, Action::Ignored, kOptHint},
    {attr::Flatten, Action::Ignored, kOptHint},
    {attr::MinSize, Action::Ignored, kOptHint},
    {attr::OptimizeNone, Action::Ignored, kOptHint},
    {attr::AllocSize, Action::Ignored, kOptHint},
    {attr::AllocAlign, Action::Ignored, kOptHint},
    {attr::AssumeAligned, Action::Ignored, kOptHint},
    {attr::Assumption, Action::Ignored, kOptHint},
    {attr::Leaf, Action::Ignored, kOptHint},
    {attr::NoThrow, Action::Ignored, "C has no exceptions; unwinding tables are emitted anyway"},
    {attr::MayAlias, Action::Ignored, "no type-based alias analysis here: every access may alias"},
    {attr::NoEscape, Action::Ignored, kOptHint},
    {attr::Callback, Action::Ignored, kOptHint},
    {attr::NotTailCalled, Action::Ignored, kOptHint},
    {attr::DisableTailCalls, Action::Ignored, kOptHint},
    {attr::NoDuplicate, Action::Ignored, kOptHint},
    {attr::Convergent, Action::Ignored, kOptHint},
    {attr::NoMerge, Action::Ignored, kOptHint},
    {attr::Likely, Action::Ignored, kOptHint},
    {attr::Unlikely, Action::Ignored, kOptHint},
    {attr::LoopHint, Action::Ignored, kOptHint},
    {attr::FallThrough, Action::Ignored, kDiagnostic},
    {attr::Suppress, Action::Ignored, kDiagnostic},
    {attr::Annotate, Action::Ignored, "an annotation for tools"},
    {attr::Artificial, Action::Ignored, "debug information only"},
    {attr::NoDebug, Action::Ignored, "debug information only"},
    {attr::StandaloneDebug, Action::Ignored, "debug information only"},
    {attr::BTFDeclTag, Action::Ignored, "debug information only"},
    {attr::BTFTypeTag, Action::Ignored, "debug information only"},
    {attr::Builtin, Action::Ignored, "clang's own mark of a library function"},
    {attr::NoInstrumentFunction, Action::Ignored, "no instrumentation here"},
    {attr::NoSanitize, Action::Ignored, "no instrumentation here"},
    {attr::DisableSanitizerInstrumentation, Action::Ignored, "no instrumentation here"},
    {attr::NoProfileFunction, Action::Ignored, "no instrumentation here"},
    {attr::XRayInstrument, Action::Ignored, "no instrumentation here"},
    {attr::XRayLogArgs, Action::Ignored, "no instrumentation here"},
    {attr::NoStackProtector, Action::Ignored, "no stack protector here"},
    {attr::NoSplitStack, Action::Ignored, "no split stacks here"},
    {attr::CFGuard, Action::Ignored, kNoOp},
    {attr::AnyX86NoCfCheck, Action::Ignored, "no control-flow enforcement marks here"},
    {attr::SpeculativeLoadHardening, Action::Ignored, kNoOp},
    {attr::NoSpeculativeLoadHardening, Action::Ignored, kNoOp},
    {attr::CDecl, Action::Ignored, "the x86-64 System V convention, which every call uses"},
    {attr::SysVABI, Action::Ignored, "the x86-64 System V convention, which every call uses"},
    {attr::Target, Action::Ignored, "allows instructions we never use"},
    {attr::MinVectorWidth, Action::Ignored, "a vector width hint for clang's code generator (vectors.cpp)"},
    {attr::X86ForceAlignArgPointer, Action::Ignored, "the stack is always 16-byte aligned here"},
    {attr::Uninitialized, Action::Ignored, "locals are never initialized implicitly here"},
    {attr::StrictFP, Action::Ignored, "no floating point yet"},
};

const Rule* rule_for(attr::Kind kind) {
  for (const Rule& r : kRules)
    if (r.kind == kind) return &r;
  return nullptr;
}

// The GNU spellings of attribute kinds (clang's Attr.td, without the
// underscores), for `__has_attribute`: a spelling answers 1 when its kind
// has a rule above. Kinds without a GNU spelling (asm labels, #pragma
// pack, C2x- or C++-only ones) are not here; refused kinds are, so that
// the answer changes with the table.
struct Spelling {
  attr::Kind kind;
  const char* name;
};

constexpr Spelling kSpellings[] = {
    {attr::Alias, "alias"}, {attr::Weak, "weak"}, {attr::Section, "section"}, {attr::Used, "used"},
    {attr::Visibility, "visibility"}, {attr::Constructor, "constructor"}, {attr::Destructor, "destructor"},
    {attr::GNUInline, "gnu_inline"}, {attr::Aligned, "aligned"}, {attr::Packed, "packed"}, {attr::Mode, "mode"},
    {attr::Cleanup, "cleanup"}, {attr::ReturnsTwice, "returns_twice"}, {attr::NoInline, "noinline"},
    {attr::AlwaysInline, "always_inline"}, {attr::Pure, "pure"}, {attr::Const, "const"}, {attr::Cold, "cold"},
    {attr::Restrict, "malloc"}, {attr::NoReturn, "noreturn"}, {attr::Unused, "unused"},
    {attr::Deprecated, "deprecated"}, {attr::Unavailable, "unavailable"},
    {attr::WarnUnusedResult, "warn_unused_result"}, {attr::WarnUnused, "warn_unused"}, {attr::Format, "format"},
    {attr::FormatArg, "format_arg"}, {attr::Sentinel, "sentinel"}, {attr::Error, "error"},
    {attr::Error, "warning"}, {attr::DiagnoseIf, "diagnose_if"}, {attr::DiagnoseAsBuiltin, "diagnose_as_builtin"},
    {attr::Availability, "availability"}, {attr::NonNull, "nonnull"}, {attr::ReturnsNonNull, "returns_nonnull"},
    {attr::Hot, "hot"}, {attr::Flatten, "flatten"}, {attr::MinSize, "minsize"}, {attr::OptimizeNone, "optnone"},
    {attr::AllocSize, "alloc_size"}, {attr::AllocAlign, "alloc_align"}, {attr::AssumeAligned, "assume_aligned"},
    {attr::Leaf, "leaf"}, {attr::NoThrow, "nothrow"}, {attr::MayAlias, "may_alias"},
    {attr::NoEscape, "noescape"}, {attr::Callback, "callback"}, {attr::NotTailCalled, "not_tail_called"},
    {attr::DisableTailCalls, "disable_tail_calls"}, {attr::NoDuplicate, "noduplicate"},
    {attr::Convergent, "convergent"}, {attr::NoMerge, "nomerge"}, {attr::FallThrough, "fallthrough"},
    {attr::Annotate, "annotate"}, {attr::Artificial, "artificial"}, {attr::NoDebug, "nodebug"},
    {attr::StandaloneDebug, "standalone_debug"}, {attr::BTFDeclTag, "btf_decl_tag"},
    {attr::BTFTypeTag, "btf_type_tag"}, {attr::NoCommon, "nocommon"},
    {attr::NoInstrumentFunction, "no_instrument_function"}, {attr::NoSanitize, "no_sanitize"},
    {attr::NoSanitize, "no_sanitize_address"}, {attr::NoSanitize, "no_address_safety_analysis"},
    {attr::NoSanitize, "no_sanitize_thread"}, {attr::NoSanitize, "no_sanitize_memory"},
    {attr::NoSanitize, "no_sanitize_undefined"},
    {attr::DisableSanitizerInstrumentation, "disable_sanitizer_instrumentation"},
    {attr::NoProfileFunction, "no_profile_instrument_function"},
    {attr::XRayInstrument, "xray_always_instrument"}, {attr::XRayInstrument, "xray_never_instrument"},
    {attr::XRayLogArgs, "xray_log_args"}, {attr::NoStackProtector, "no_stack_protector"},
    {attr::NoSplitStack, "no_split_stack"}, {attr::AnyX86NoCfCheck, "nocf_check"},
    {attr::SpeculativeLoadHardening, "speculative_load_hardening"},
    {attr::NoSpeculativeLoadHardening, "no_speculative_load_hardening"}, {attr::CDecl, "cdecl"},
    {attr::SysVABI, "sysv_abi"}, {attr::Target, "target"},
    {attr::X86ForceAlignArgPointer, "force_align_arg_pointer"}, {attr::Uninitialized, "uninitialized"},
    {attr::TLSModel, "tls_model"},
    // refused
    {attr::WeakRef, "weakref"}, {attr::IFunc, "ifunc"}, {attr::TransparentUnion, "transparent_union"},
    {attr::Naked, "naked"}, {attr::Common, "common"}, {attr::MSABI, "ms_abi"},
    {attr::TargetClones, "target_clones"}, {attr::NoBuiltin, "no_builtin"},
};

std::string attribute_name(const Attr* a) {
  const char* spelling = a->getSpelling();
  std::string name = spelling && *spelling ? spelling : a->getAttrName() ? a->getAttrName()->getName().str() : "";
  if (name.size() > 4 && name.compare(0, 2, "__") == 0 && name.compare(name.size() - 2, 2, "__") == 0)
    name = name.substr(2, name.size() - 4);
  return name.empty() ? "unknown" : name;
}

}  // namespace

void check_attribute(const Attr* a, const Decl* on) {
  const Rule* r = rule_for(a->getKind());
  SourceLocation where = a->getLocation().isValid() ? a->getLocation() : on ? on->getLocation() : SourceLocation();
  if (!r) unsupported(where, "attribute '" + attribute_name(a) + "'");
  if (r->kind == attr::Alias) {
    const auto* vd = dyn_cast_or_null<VarDecl>(on);
    const auto* fd = dyn_cast_or_null<FunctionDecl>(on);
    if ((vd && !vd->isExternallyVisible()) || (fd && !fd->isExternallyVisible()))
      unsupported(where, "attribute 'alias' on a static declaration");
  }
}

void check_attributes(const Decl* d) {
  if (!d->hasAttrs()) return;
  // weakref brings an implicit alias attribute: name the one written.
  if (const auto* w = d->getAttr<WeakRefAttr>()) check_attribute(w, d);
  for (const Attr* a : d->attrs()) check_attribute(a, d);
}

namespace {

// Every declaration, statement attribute and type attribute written
// outside the system headers.
class AttributeChecker : public RecursiveASTVisitor<AttributeChecker> {
 public:
  explicit AttributeChecker(const SourceManager& sm) : sm_(sm) {}
  bool shouldVisitImplicitCode() const { return false; }
  bool TraverseDecl(Decl* d) {
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() && sm_.isInSystemHeader(d->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }
  bool VisitDecl(Decl* d) {
    check_attributes(d);
    return true;
  }
  bool VisitAttributedStmt(AttributedStmt* s) {
    for (const Attr* a : s->getAttrs()) check_attribute(a, nullptr);
    return true;
  }
  bool VisitAttributedTypeLoc(AttributedTypeLoc tl) {
    if (const Attr* a = tl.getAttr()) check_attribute(a, nullptr);
    return true;
  }

 private:
  const SourceManager& sm_;
};

}  // namespace

void check_translation_unit_attributes(ASTContext& ctx) {
  AttributeChecker(ctx.getSourceManager()).TraverseDecl(ctx.getTranslationUnitDecl());
}

namespace {

constexpr const char* kUnknownHarmless[] = {
    "noclone",   // do not clone the function: an optimization hint
    "no_reorder",  // keep top-level order: we keep source order anyway
    "noipa",     // no interprocedural analysis: a hint (ours is sound without it)
    "externally_visible",  // for gcc's -fwhole-program only
    "optimize",  // per-function optimization options
    "access",    // a diagnostic about pointer arguments
    "nonstring",  // a diagnostic
    "designated_init",  // a diagnostic
};

// Attributes clang 14 does not know that c2ast registers with its parser.
constexpr const char* kOwnAttributes[] = {
    "scalar_storage_order",  // storage_order.cpp
};

}  // namespace

std::vector<std::string> supported_attribute_spellings() {
  std::vector<std::string> names;
  for (const Spelling& s : kSpellings)
    if (rule_for(s.kind)) names.push_back(s.name);
  names.insert(names.end(), std::begin(kUnknownHarmless), std::end(kUnknownHarmless));
  names.insert(names.end(), std::begin(kOwnAttributes), std::end(kOwnAttributes));
  return names;
}

bool unknown_attribute_is_harmless(const std::string& name) {
  for (const char* h : kUnknownHarmless)
    if (name == h) return true;
  return false;
}

namespace {

bool is_definition(const ValueDecl* decl) {
  if (const auto* fd = dyn_cast<FunctionDecl>(decl)) return fd->isDefined();
  if (const auto* vd = dyn_cast<VarDecl>(decl)) return vd->hasDefinition() != VarDecl::DeclarationOnly;
  return false;
}

}  // namespace

// The symbol attributes of a function or variable, from all its
// declarations (an attribute may be on any of them).
SymbolAttrs symbol_attrs(const ValueDecl* decl) {
  SymbolAttrs a;
  bool explicit_visibility = false;
  for (const Decl* d : decl->redecls()) {
    if (d->hasAttr<WeakAttr>()) a.weak = true;
    if (d->hasAttr<UsedAttr>()) a.used = true;
    if (const auto* s = d->getAttr<SectionAttr>()) a.section = s->getName().str();
    if (const auto* v = d->getAttr<VisibilityAttr>()) {
      explicit_visibility = true;
      switch (v->getVisibility()) {
        case VisibilityAttr::Default: a.visibility = Visibility::Default; break;
        case VisibilityAttr::Hidden: a.visibility = Visibility::Hidden; break;
        case VisibilityAttr::Protected: a.visibility = Visibility::Protected; break;
      }
    }
    if (const auto* c = d->getAttr<ConstructorAttr>()) a.constructor = c->getPriority();
    if (const auto* c = d->getAttr<DestructorAttr>()) a.destructor = c->getPriority();
    if (d->hasAttr<NoInlineAttr>()) a.hints |= kHintNoinline;
    if (d->hasAttr<AlwaysInlineAttr>()) a.hints |= kHintAlwaysInline;
    if (const auto* fd = dyn_cast<FunctionDecl>(d); fd && fd->isInlineSpecified()) a.hints |= kHintInline;
    if (d->hasAttr<PureAttr>()) a.hints |= kHintPure;
    if (d->hasAttr<ConstAttr>()) a.hints |= kHintConst;
    if (d->hasAttr<ColdAttr>()) a.hints |= kHintCold;
    if (d->hasAttr<RestrictAttr>()) a.hints |= kHintMalloc;
    if (const auto* m = d->getAttr<TLSModelAttr>()) a.tls_model = parse_tls_model(m->getModel()).value_or(TlsModel::Auto);
  }
  // __thread and _Thread_local (clang's Sema checks the tls_model names and
  // that the attribute is only on thread-local variables).
  if (const auto* vd = dyn_cast<VarDecl>(decl); vd && vd->getTLSKind() != VarDecl::TLS_None) a.tls = true;
  if (!a.tls) a.tls_model = TlsModel::Auto;
  if (const auto* fd = dyn_cast<FunctionDecl>(decl); fd && fd->isNoReturn()) a.hints |= kHintNoreturn;
  // -fvisibility=hidden or protected: every definition without a visibility
  // of its own (an attribute, or #pragma GCC visibility, which clang turns
  // into one) gets it; declarations of what other objects define keep the
  // default, as with gcc.
  if (!explicit_visibility && is_definition(decl)) {
    switch (decl->getASTContext().getLangOpts().getValueVisibilityMode()) {
      case clang::HiddenVisibility: a.visibility = Visibility::Hidden; break;
      case clang::ProtectedVisibility: a.visibility = Visibility::Protected; break;
      case clang::DefaultVisibility: break;
    }
  }
  return a;
}

}  // namespace pl::c2ast
