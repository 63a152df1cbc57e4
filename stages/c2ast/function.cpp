// function.cpp - FunctionBuilder: one C function definition -> one ast-level
// function (FORMAT.md, "G. The ast level").
//
// The tree is built bottom-up: a node's inputs exist before it, so node ids
// read like a schedule and the root `ast:function` comes last. Every node
// gets the location of the C construct it comes from. Parameters: each has
// an `ast:var` that the top of the body fills from `ast:param`; a struct or
// union parameter arrives as the address of the caller's copy (the callee
// owns it), kept in a pointer variable, and a struct or union result is
// written through a hidden first pointer parameter (result `void`).
//
// Recursion: the conversion recurses over the clang AST, whose depth clang's
// own parser reaches only by recursion, except for the shapes it builds
// iteratively and that can therefore be arbitrarily deep: left-nested binary
// operators (`a+a+...+a`), else-if chains and runs of case labels. Those are
// walked with explicit stacks (expressions.cpp, statements.cpp); every other
// recursive step goes through deep(), which continues on a fresh stack
// (stack.cpp) when this one is nearly exhausted.
#include "c2ast.h"

namespace pl::c2ast {

using namespace clang;

// labels.cpp: a computed goto, or a label's address in a static local's
// initializer, keeps the function out of inlining, as gcc. (Declared here
// for now; its place is c2ast.h beside calls_returns_twice.)
bool labels_forbid_inlining(const FunctionDecl* fd);

FunctionBuilder::FunctionBuilder(ModuleBuilder& module, const FunctionDecl* fd, std::string name)
    : module_(module), types_(module.types()), ctx_(module.ctx()), fd_(fd) {
  fn_.name = std::move(name);
  bool internal = !fd->isExternallyVisible() || (fd->isInlined() && !fd->isInlineDefinitionExternallyVisible());
  fn_.linkage = internal ? Linkage::Internal : Linkage::External;
  fn_.attrs = symbol_attrs(fd);
  if (needs_stack_protector(fd)) fn_.attrs.hints |= kHintStackProtect;
  // -fno-builtin, -ffreestanding: no call this function makes is the C
  // library's to sonopt, nor may a pass add one (library.h, loop-idiom).
  if (ctx_.getLangOpts().NoBuiltin) fn_.attrs.hints |= kHintNobuiltin;
  debug_ = module.debug();
  locals_in_memory_ = calls_returns_twice(fd);  // returns_twice.cpp
  if (locals_in_memory_) fn_.attrs.hints |= kHintNoinline;
  if (labels_forbid_inlining(fd)) fn_.attrs.hints |= kHintNoinline;  // labels.cpp, "Inlining"
  if (module.only_always_inline() && !fn_.attrs.has(kHintAlwaysInline)) fn_.attrs.hints |= kHintNoinline;
  instrumented_ = module.instrumentation().instruments(fd, ctx_.getSourceManager());
  if (internal) fn_.attrs.visibility = Visibility::Default, fn_.attrs.weak = false;  // a local symbol
}

NodeId FunctionBuilder::add(OpId op, Loc loc, LiteralList literals, InputList inputs) {
  Node n;
  n.op = op;
  n.literals = std::move(literals);
  n.inputs = std::move(inputs);
  n.loc = loc;
  fn_.nodes.push_back(std::move(n));
  return static_cast<NodeId>(fn_.nodes.size() - 1);
}

namespace {
Literal type_literal(VType t) { return Literal::string(vtype_name(t)); }
}  // namespace

NodeId FunctionBuilder::op(const char* name, VType t, Loc loc, NodeId a, NodeId b) {
  InputList inputs{a};
  if (b != kNone) inputs.push_back(b);
  return add(Op::AstOp, loc, {Literal::string(name), type_literal(t)}, std::move(inputs));
}

NodeId FunctionBuilder::conversion(const char* name, VType from, VType to, Loc loc, NodeId v) {
  return add(Op::AstOp, loc, {Literal::string(name), type_literal(from), type_literal(to)}, {v});
}

NodeId FunctionBuilder::constant(VType t, int64_t value, Loc loc) {
  return add(Op::AstConst, loc, {type_literal(t), Literal::integer(value)}, {});
}

NodeId FunctionBuilder::constant(Scalar s, const llvm::APSInt& value, Loc loc) {
  // The C value in its type: signed types as signed, unsigned ones as
  // unsigned (above 2^63 - 1 too), so the literal reads as the source.
  llvm::APSInt v = value.extOrTrunc(vtype_bits(s.vt));
  Literal lit = s.is_signed ? Literal::integer(v.getSExtValue()) : Literal::unsigned_integer(v.getZExtValue());
  return add(Op::AstConst, loc, {type_literal(s.vt), std::move(lit)}, {});
}

NodeId FunctionBuilder::variable(const std::string& name, uint64_t size, uint32_t align, Loc loc) {
  return add(Op::AstVar, loc,
             {Literal::string(name), Literal::unsigned_integer(size), Literal::unsigned_integer(align)}, {});
}

NodeId FunctionBuilder::symaddr(const std::string& symbol, Loc loc) {
  return add(Op::AstSymAddr, loc, {Literal::string(symbol)}, {});
}

NodeId FunctionBuilder::load(VType t, bool is_volatile, NodeId address, Loc loc) {
  is_volatile = is_volatile || (locals_in_memory_ && local_address(address));
  return add(is_volatile ? Op::AstLoadV : Op::AstLoad, loc, {type_literal(t)}, {address});
}

NodeId FunctionBuilder::store(VType t, bool is_volatile, NodeId address, NodeId value, Loc loc) {
  is_volatile = is_volatile || (locals_in_memory_ && local_address(address));
  return add(is_volatile ? Op::AstStoreV : Op::AstStore, loc, {type_literal(t)}, {address, value});
}

NodeId FunctionBuilder::copy(uint64_t size, uint32_t align, NodeId dst, NodeId src, Loc loc) {
  return add(Op::AstCopy, loc, {Literal::unsigned_integer(size), Literal::unsigned_integer(align)}, {dst, src});
}

NodeId FunctionBuilder::seq(NodeId effect, NodeId value, Loc loc) {
  if (effect == kNone) return value;
  return add(Op::AstSeq, loc, {}, {effect, value});
}

NodeId FunctionBuilder::block(const std::vector<NodeId>& list, Loc loc) {
  InputList inputs;
  for (NodeId s : list)
    if (s != kNone) inputs.push_back(s);
  return add(Op::AstBlock, loc, {}, std::move(inputs));
}

NodeId FunctionBuilder::nop(Loc loc) { return add(Op::AstNop, loc, {}, {}); }

FunctionBuilder::Reused FunctionBuilder::reuse(NodeId v, VType t, Loc l) {
  NodeId var = variable(".tmp", vtype_bits(t) / 8, vtype_bits(t) / 8, l);
  return {var, t, store(t, false, var, v, l)};
}

NodeId FunctionBuilder::again(const Reused& r, Loc l) { return load(r.t, false, r.var, l); }

NodeId FunctionBuilder::hold(VType t, NodeId value, std::vector<NodeId>& out, Loc l) {
  Reused r = reuse(value, t, l);
  out.push_back(r.first);
  return r.var;
}

NodeId FunctionBuilder::statements(const std::vector<NodeId>& list, Loc loc) {
  NodeId only = kNone;
  size_t count = 0;
  for (NodeId s : list)
    if (s != kNone) only = s, ++count;
  if (count <= 1) return only;
  return block(list, loc);
}

NodeId FunctionBuilder::offset(NodeId address, uint64_t bytes, Loc loc) {
  if (bytes == 0) return address;
  return op("add", VType::Ptr, loc, address, constant(VType::I64, static_cast<int64_t>(bytes), loc));
}

void FunctionBuilder::parameters(std::vector<NodeId>& body) {
  uint32_t index = 0;
  QualType result = fd_->getReturnType();
  if (Types::is_aggregate(result)) {
    Loc l = loc(fd_->getLocation());
    types_.check(result, fd_->getLocation());
    return_address_ = variable(".result", 8, 8, l);
    entry_only_.insert(return_address_);
    body.push_back(store(VType::Ptr, false, return_address_,
                         add(Op::AstParam, l, {type_literal(VType::Ptr), Literal::integer(index)}, {}), l));
    fn_.signature.params.push_back(types_.result_pointer(result, fd_->getLocation()));
    ++index;
  }
  fn_.signature.result = types_.result_type(result, fd_->getLocation());
  // A K&R-style definition (no prototype in its type) receives its
  // arguments with the default argument promotions, as its callers pass
  // them: a char, short or _Bool parameter arrives as an int, a float as
  // a double, and is converted to its declared type on entry (C11 6.5.2.2p6, 6.9.1p10;
  // clang marks such parameters isKNRPromoted).
  for (const ParmVarDecl* p : fd_->parameters()) {
    SourceLocation where = p->getLocation();
    Loc l = loc(where);
    QualType type = p->getType();
    bool indirect = Types::is_aggregate(type);
    Scalar s = indirect ? Scalar{VType::Ptr, false} : types_.scalar(type, where);
    QualType passed = !p->isKNRPromoted()          ? type
                      : type->isRealFloatingType() ? ctx_.DoubleTy  // a float arrives as a double
                                                   : ctx_.getPromotedIntegerType(type);
    Scalar arrives = indirect ? s : types_.scalar(passed, where);
    fn_.signature.params.push_back(types_.param_type(passed, where));
    std::string name = p->getName().empty() ? ".param." + std::to_string(index) : p->getNameAsString();
    NodeId var = indirect ? variable(name + ".addr", 8, 8, l)
                          : variable(name, types_.size(type, where), static_cast<uint32_t>(
                                ctx_.getDeclAlign(p).getQuantity()), l);
    locals_[p] = Local{var, indirect};
    debug_variable(p, var, static_cast<int64_t>(p->getFunctionScopeIndex()), indirect, "");
    if (indirect) entry_only_.insert(var);
    NodeId value = add(Op::AstParam, l, {type_literal(arrives.vt), Literal::integer(index)}, {});
    if (type->isBooleanType() && arrives.vt != s.vt) value = to_bool(value, arrives.vt, l);
    else value = convert(value, arrives, s, l);
    body.push_back(store(s.vt, !indirect && type.isVolatileQualified(), var, value, l));
    ++index;
  }
  for (const ParmVarDecl* p : fd_->parameters())  // `int n, int a[n][n]` (vla.cpp)
    if (p->getOriginalType()->isVariablyModifiedType())
      evaluate_vla_sizes(p->getOriginalType(), body, p->getLocation());
  fn_.signature.variadic = fd_->isVariadic();
}

Function FunctionBuilder::build() {
  SourceLocation where = fd_->getLocation();
  std::vector<NodeId> body;
  debug_function();
  if (instrumented_) body.push_back(profile_call(true, loc(where)));
  parameters(body);
  const auto* compound_body = cast<CompoundStmt>(fd_->getBody());
  scope(compound_body, body);
  if (instrumented_) body.push_back(profile_call(false, loc(compound_body->getRBracLoc())));  // falling off the end
  NodeId root_block = block(body, loc(compound_body->getLBracLoc()));
  add(Op::AstFunction, loc(where), {}, {root_block});
  return std::move(fn_);
}

}  // namespace pl::c2ast
