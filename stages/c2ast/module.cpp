// module.cpp - which definitions become the module, and under what names.
//
// Every definition of the translation unit that gcc must emit is converted,
// in source order, wherever it was written (the main file, an included .c
// file of a unity build, a single-header library's implementation part): a
// function or variable with external linkage, and a `static` one that has
// the `used` attribute (schedule_translation_unit). What they use is named on
// first use (ModuleBuilder::symbol): a definition gcc emits only when used
// (a `static` or `static inline` function or variable, a C99 `inline`
// definition without `extern`, a gnu_inline `extern inline` one; the last
// two become internal copies, which C allows in place of the external
// definition) is queued and converted in turn, so the module is closed under
// use; a declaration without a definition becomes an extern (with its
// signature when it has a prototype). Nothing else of the headers reaches
// the output. The queue is first in, first out (but every variable waiting
// is converted before the next function: a function then names only data
// that exists, and c2ast streams it out at once, after a module piece
// holding the new data and externs) and everything is named in the order
// the walk meets it, so the output is deterministic; maps are only looked
// up, never iterated into the output.
//
// Names: as in C (an asm label, as glibc's `__REDIRECT` gives, wins); static
// locals `function.name`, string literals `.str.N`, constants `.const.N`,
// compound literals at file scope `.compound.N`, the zero block `.zero`.
// Generated names contain a dot, so they never collide with a C name; a
// repeated one gets a `.N` suffix.
#include "c2ast.h"

#include <clang/AST/Attr.h>

#include "encoding/format.h"

namespace pl::c2ast {

using namespace clang;

Locations::Locations(const SourceManager& sm, std::vector<std::string>& files) : sm_(sm), files_(files) {}

uint32_t Locations::file_index(const char* name) {
  if (name == last_name_) return last_index_;
  auto [it, added] = index_.try_emplace(name, static_cast<uint32_t>(files_.size()));
  if (added) files_.push_back(name);
  last_name_ = name;
  last_index_ = it->second;
  return it->second;
}

Loc Locations::get(SourceLocation l) {
  if (l.isInvalid()) return {};
  // The builders ask for the same places many times (an expression's
  // location for each node made from it): remembered by the location's
  // raw encoding, which identifies it (clang's PresumedLoc is the costly
  // part: a third of the conversion).
  uint32_t raw = l.getRawEncoding();
  Remembered& slot = remembered_[raw % kRemembered];
  if (slot.raw == raw && slot.valid) return slot.loc;
  PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
  Loc loc = p.isInvalid() ? Loc{} : Loc{file_index(p.getFilename()), p.getLine(), p.getColumn()};
  slot = {raw, true, loc};
  return loc;
}

ModuleBuilder::ModuleBuilder(ASTContext& ctx, bool debug, Instrumentation instrumentation, bool common)
    : ctx_(ctx), types_(ctx), locations_(ctx.getSourceManager(), header_.files),
      instrumentation_(std::move(instrumentation)), common_(common) {
  header_.level = Level::Ast;
  if (debug) debug_.emplace(ctx, header_.debug, locations_);
  const SourceManager& sm = ctx.getSourceManager();
  // The main file is file 0 even when a header's definition comes first.
  // A preprocessed file (.i, as distcc's server compiles it) opens with a
  // line marker naming its source (`# 1 "f.c"`): file 0 is that source, so
  // the object names f.c as a local compile of f.c does.
  clang::FileID main = sm.getMainFileID();
  llvm::StringRef text = sm.getBufferData(main);
  bool line_marker = text.startswith("# ") || text.startswith("#line ");
  size_t newline = text.find('\n');
  if (line_marker && newline != llvm::StringRef::npos && newline + 1 < text.size())
    locations_.get(sm.getLocForStartOfFile(main).getLocWithOffset(static_cast<int>(newline + 1)));
  else
    locations_.get(sm.getLocForStartOfFile(main));
}

ModuleBuilder::~ModuleBuilder() = default;

std::string ModuleBuilder::c_name(const NamedDecl* decl) {
  if (const auto* label = decl->getAttr<AsmLabelAttr>()) return label->getLabel().str();
  return decl->getNameAsString();
}

std::string ModuleBuilder::new_name(const std::string& wanted) {
  std::string name = wanted;
  for (uint64_t n = 1; names_.count(name); ++n) name = wanted + "." + std::to_string(n);
  names_.insert(name);
  return name;
}

void ModuleBuilder::schedule(const Decl* definition, std::string name) {
  symbols_.emplace(definition->getCanonicalDecl(), name);
  (isa<FunctionDecl>(definition) ? work_ : work_variables_).emplace_back(definition, std::move(name));
}

// gcc's rule for which definitions an object file holds whether or not
// anything uses them: external ones (not C99 inline definitions, not
// gnu_inline `extern inline` ones: GVA_AvailableExternally in clang's terms)
// and those marked `used`.
bool ModuleBuilder::always_emitted(const Decl* d) const {
  if (d->hasAttr<UsedAttr>() || d->hasAttr<AliasAttr>() || d->hasAttr<ConstructorAttr>() ||
      d->hasAttr<DestructorAttr>())
    return true;
  if (const auto* fd = dyn_cast<FunctionDecl>(d)) {
    GVALinkage gva = ctx_.GetGVALinkageForFunction(fd);
    return gva == GVA_StrongExternal || gva == GVA_StrongODR;
  }
  const auto* vd = cast<VarDecl>(d);
  return vd->isExternallyVisible();
}

void ModuleBuilder::schedule_translation_unit() {
  check_translation_unit_attributes(ctx_);
  for (const Decl* d : ctx_.getTranslationUnitDecl()->decls()) {
    // File-scope asm: its text, verbatim and in source order, goes into
    // the module header (FORMAT.md section 1), which codegen-x64 assembles
    // before the functions (gcc's toplevel asm; no operands, so no `%`
    // substitution).
    if (const auto* a = dyn_cast<FileScopeAsmDecl>(d)) {
      const StringLiteral* text = a->getAsmString();
      if (text->getCharByteWidth() != 1) unsupported(a->getAsmLoc(), "file-scope asm with a wide string");
      header_.toplevel_asm.push_back(text->getString().str());
      continue;
    }
    if (const auto* fd = dyn_cast<FunctionDecl>(d)) {
      if ((fd->doesThisDeclarationHaveABody() || fd->hasAttr<AliasAttr>()) && always_emitted(fd))
        symbol(fd, fd->getLocation());
    } else if (const auto* vd = dyn_cast<VarDecl>(d)) {
      if (vd->isThisDeclarationADefinition() != VarDecl::DeclarationOnly && always_emitted(vd))
        symbol(vd, vd->getLocation());
    }
  }
}

std::string ModuleBuilder::symbol(const ValueDecl* decl, SourceLocation use) {
  auto found = symbols_.find(decl->getCanonicalDecl());
  if (found != symbols_.end()) return found->second;
  // A declaration of a system header is checked when the module first
  // names it (the others were checked with the whole file).
  const SourceManager& sm = ctx_.getSourceManager();
  for (const Decl* d : decl->redecls())
    if (sm.isInSystemHeader(d->getLocation())) check_attributes(d);
  for (const Decl* d : decl->redecls())
    if (d->hasAttr<AliasAttr>()) return alias_symbol(decl, use);
  if (const auto* fd = dyn_cast<FunctionDecl>(decl)) return function_symbol(fd, use);
  if (const auto* vd = dyn_cast<VarDecl>(decl)) return variable_symbol(vd, use);
  unsupported(use, "reference to '" + decl->getNameAsString() + "'");
}

std::string ModuleBuilder::function_symbol(const FunctionDecl* fd, SourceLocation use) {
  if (const FunctionDecl* def = fd->getDefinition()) {
    std::string name = new_name(c_name(def));
    schedule(def, name);
    return name;
  }
  const FunctionDecl* latest = fd->getMostRecentDecl();
  std::string name = new_name(c_name(latest));
  Extern ext{name, ExternKind::Function, types_.signature(latest->getType(), use), extern_attrs(latest)};
  header_.externs.push_back(std::move(ext));
  symbols_.emplace(fd->getCanonicalDecl(), name);
  return name;
}

std::string ModuleBuilder::variable_symbol(const VarDecl* vd, SourceLocation use) {
  if (vd->isStaticLocal()) {
    const auto* parent = dyn_cast_or_null<FunctionDecl>(vd->getParentFunctionOrMethod());
    std::string owner = parent ? symbol(parent, use) : std::string("");
    std::string name = new_name(owner + "." + vd->getNameAsString());
    schedule(vd, name);
    return name;
  }
  if (!vd->hasGlobalStorage()) unsupported(use, "reference to local variable '" + vd->getNameAsString() + "'");
  const VarDecl* def = vd->getDefinition();
  if (!def) def = vd->getActingDefinition();
  if (def) {
    std::string name = new_name(c_name(def));
    schedule(def, name);
    return name;
  }
  std::string name = new_name(c_name(vd->getMostRecentDecl()));
  header_.externs.push_back(Extern{name, ExternKind::Data, std::nullopt, extern_attrs(vd->getMostRecentDecl())});
  symbols_.emplace(vd->getCanonicalDecl(), name);
  return name;
}

std::string ModuleBuilder::alias_symbol(const ValueDecl* decl, SourceLocation use) {
  const AliasAttr* alias = nullptr;
  for (const Decl* d : decl->redecls())
    if (!alias) alias = d->getAttr<AliasAttr>();
  const ValueDecl* latest = cast<ValueDecl>(decl->getMostRecentDecl());
  std::string name = new_name(c_name(latest));
  symbols_.emplace(decl->getCanonicalDecl(), name);
  // The target: a function or variable of this file named as the alias says
  // (its assembler name: an asm label counts).
  const ValueDecl* target = nullptr;
  for (const Decl* d : ctx_.getTranslationUnitDecl()->decls()) {
    const auto* vd = dyn_cast<ValueDecl>(d);
    if (vd && (isa<FunctionDecl>(vd) || isa<VarDecl>(vd)) && c_name(vd) == alias->getAliasee() &&
        !vd->hasAttr<AliasAttr>())
      target = vd;
  }
  bool function = isa<FunctionDecl>(decl);
  if (!target || isa<FunctionDecl>(target) != function)
    unsupported(alias->getLocation(), "alias '" + name + "' of '" + alias->getAliasee().str() +
                                          "', which is not a " + (function ? "function" : "variable") +
                                          " defined in this file");
  Extern ext{name, function ? ExternKind::Function : ExternKind::Data, std::nullopt, extern_attrs(latest)};
  if (function) ext.signature = types_.signature(latest->getType(), use);
  ext.attrs.alias = symbol(target, use);
  header_.externs.push_back(std::move(ext));
  return name;
}

// An extern's attributes: weak (a weak reference), visibility and hints;
// what belongs to definitions only (section, used, constructor) is not
// the extern's.
SymbolAttrs ModuleBuilder::extern_attrs(const ValueDecl* decl) {
  SymbolAttrs all = symbol_attrs(decl);
  SymbolAttrs a;
  a.weak = all.weak;
  a.visibility = all.visibility;
  a.tls = all.tls;  // a thread-local extern is reached by a TLS access model, never the GOT
  a.tls_model = all.tls_model;
  if (const auto* fd = dyn_cast<FunctionDecl>(decl)) {
    a.hints = all.hints;
    // -fno-builtin, -ffreestanding, -fno-builtin-NAME: not the library's
    // function to sonopt (library.h).
    const LangOptions& lang = decl->getASTContext().getLangOpts();
    if (fd->getDeclName().isIdentifier() && (lang.NoBuiltin || lang.isNoBuiltinFunc(fd->getName())))
      a.hints |= kHintNobuiltin;
  }
  return a;
}

std::string ModuleBuilder::library_function(const std::string& name, QualType type, SourceLocation use) {
  for (const NamedDecl* d : ctx_.getTranslationUnitDecl()->lookup(&ctx_.Idents.get(name)))
    if (const auto* fd = dyn_cast<FunctionDecl>(d)) return symbol(fd, use);
  auto found = library_.find(name);
  if (found != library_.end()) return found->second;
  std::string symbol_name = new_name(name);
  header_.externs.push_back(Extern{symbol_name, ExternKind::Function, types_.signature(type, use)});
  library_.emplace(name, symbol_name);
  return symbol_name;
}

std::string ModuleBuilder::cold_library_function(const std::string& name, QualType type, SourceLocation use) {
  std::string symbol_name = library_function(name, type, use);
  // (An extern already streamed out stays as it went: a piece cannot change it.)
  for (size_t i = sent_externs_; i < header_.externs.size(); ++i) {
    Extern& e = header_.externs[i];
    if (e.name == symbol_name && e.kind == ExternKind::Function) e.attrs.hints |= kHintCold;
  }
  return symbol_name;
}

std::string ModuleBuilder::profile_hook(const std::string& name) {
  QualType hook = ctx_.getFunctionType(ctx_.VoidTy, {ctx_.VoidPtrTy, ctx_.VoidPtrTy}, FunctionProtoType::ExtProtoInfo());
  return library_function(name, hook, SourceLocation());
}

void ModuleBuilder::convert_variables() {
  while (!work_variables_.empty()) {
    auto [decl, name] = std::move(work_variables_.front());
    work_variables_.pop_front();
    const auto* vd = cast<VarDecl>(decl);
    DataItem item = variable_data(vd);
    item.name = name;
    if (debug_ && !vd->isStaticLocal()) debug_->global(vd, name);
    header_.data.push_back(std::move(item));
  }
}

// Variables first, then one function at a time (each followed by the
// variables it scheduled), so that when a function is done every data item
// and extern it names is in header_: streaming, it goes out at once, after
// a module piece with header_'s new entries.
Module ModuleBuilder::build(ModuleStream* stream) {
  Module module;
  schedule_translation_unit();
  convert_variables();
  while (!work_.empty()) {
    auto [decl, name] = std::move(work_.front());
    work_.pop_front();
    Function fn = FunctionBuilder(*this, cast<FunctionDecl>(decl), name).build();
    convert_variables();
    if (stream)
      send(*stream, &fn);
    else
      module.functions.push_back(std::move(fn));
  }
  if (stream) {
    send(*stream, nullptr);
    module.header.level = header_.level;
    return module;
  }
  module.header = std::move(header_);
  return module;
}

// ---- Module pieces ----
void ModuleBuilder::send(ModuleStream& stream, const Function* fn) {
  if (!sent_header_) {
    stream.header(header_);
    sent_header_ = true;
  } else {
    ModulePiece piece;
    piece.files.assign(header_.files.begin() + static_cast<ptrdiff_t>(sent_files_), header_.files.end());
    piece.externs.assign(header_.externs.begin() + static_cast<ptrdiff_t>(sent_externs_), header_.externs.end());
    piece.data.assign(header_.data.begin() + static_cast<ptrdiff_t>(sent_data_), header_.data.end());
    stream.piece(piece);
  }
  sent_files_ = header_.files.size();
  sent_externs_ = header_.externs.size();
  sent_data_ = header_.data.size();
  if (fn) stream.function(*fn);
}

}  // namespace pl::c2ast
