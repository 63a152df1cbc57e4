// vla.cpp - variable length arrays and alloca (issue 19): the dynamic
// stack of FORMAT.md G (`ast:alloca`, `ast:stacksave`, `ast:stackrestore`).
//
// Sizes. A variably modified type's sizes are evaluated when its
// declaration is reached (C11 6.7.6.2p5, 6.8p3), each time it is reached:
// evaluate_vla_sizes() walks the type as clang's CodeGen does
// (EmitVariablyModifiedType: through pointers, arrays and function results,
// stopping at a typedef name, whose sizes its own declaration evaluated) and
// stores each size expression's value, converted to i64, into a hidden
// `.vla.n` variable of its own (vla_counts_, one per size expression; the
// code is emitted once, at the first declaration that reaches it, as clang
// does). vla_size() is then the product of those variables and the constant
// parts: `int a[n][3][m]` is n * m * 12. Pointer arithmetic on a pointer to
// a VLA type (`int (*p)[n]`, `p + 1`, `p[i][j]`, `p - q`, `++p`) scales by
// it, `sizeof` of a VLA type or expression is it (the expression evaluated
// for its effects, C11 6.5.3.4p2). Types::size() refuses a VLA type by name,
// so a place that would need a constant size of one cannot miscompile.
//
// Storage. A VLA local is `ast:alloca` of its size (16-byte aligned: a
// larger alignment is refused), its address kept in a pointer variable
// (Local::indirect). Before it, `ast:stacksave` keeps the stack's extent in
// a hidden `.sp` variable, and every exit from the VLA's scope (the end of
// the block, break, continue, goto out of it, backwards to before the
// declaration included, and return) runs `ast:stackrestore` of it through
// cleanups.cpp, as a cleanup attribute's call runs. So a VLA in a loop body
// frees its storage at the end of each iteration, as gcc's
// __builtin_stack_save/__builtin_stack_restore do, and the stack does not
// grow without bound. `alloca`, `__builtin_alloca` and
// `__builtin_alloca_with_align` (alignment up to 128 bits) are `ast:alloca`
// with no save: freed when the function returns.
//
// Also here, as they read the frame: `__builtin_frame_address(0)` and
// `__builtin_return_address(0)` are `ast:frameaddress` and
// `ast:returnaddress`. A level N > 0 walks the frame-pointer chain as gcc
// does (expand_builtin_return_addr): N volatile loads of the saved rbp at
// each frame's address, starting from ast:frameaddress, then for the return
// address a volatile load of the word 8 bytes above. Natively this reads
// the System V frame `push rbp; mov rbp, rsp` lays out; it is right only
// when every frame walked keeps rbp as its frame pointer, which gcc also
// requires (its callers must not be built with -fomit-frame-pointer: ours
// keep one when they use alloca, a VLA or frameaddress). pipe-run lays out
// the same two words in its frame object (run.h, FrameAddress), so the walk
// runs there too. The loads are volatile: they read what no IR store wrote.
//
// And gcc's `__builtin_setjmp(buf)` / `__builtin_longjmp(buf, 1)`, which
// save and restore a frame: buf's words 0, 1 and 2 are the frame pointer
// (rbp), the receiver's address and the stack pointer, as gcc's x86-64
// expansion writes them (buf has 5 words; 3 and 4 are unused here, as by
// gcc on x86-64). Both are inline assembly (ast:asm, through the existing
// path to LLVM MC), not opcodes of their own: the receiver is a second
// entry into the middle of the setjmp statement, which no stage's graph
// could otherwise express without a new kind of edge in every level, while
// an asm statement already is a point every stage keeps in place and in
// order with memory, whose register effects regalloc-x64 honours:
//   - setjmp: `+{rax}` holds buf's address in and the result out; the
//     asm stores rbp, the address of its local label 1 and rsp into buf,
//     sets eax to 0 and jumps past label 1, where longjmp lands and sets
//     eax to 1. It clobbers every allocatable register but rax (and rbp
//     and rsp, which longjmp restores) and memory: nothing the compiler
//     keeps survives in a register across it, so at the landing every
//     value lives in the frame, addressed from the rbp or rsp longjmp
//     restored (as gcc's nonlocal-goto receiver, which clobbers all
//     registers). The caller is a returns_twice caller
//     (returns_twice.cpp): its locals are in memory, accessed volatile,
//     and it is never inlined, so its frame is the one buf describes.
//   - longjmp: `{rax}` holds buf; the asm loads the landing address and
//     rsp and rbp from it and jumps. The longjmp may be in any function
//     called, directly or not, from the setjmp's activation while it is
//     live (gcc's rule). What follows it in the IR is never reached.
// pipe-run refuses both by name (its refusal of inline assembly quotes the
// template's opening comment): natively only.
//
// Parameters: the sizes in a parameter's declared type (`int a[n][n]`, whose
// adjusted type is `int (*)[n]`) are evaluated at entry, after every
// parameter is stored, in parameter order (clang and gcc evaluate the type
// as written).
#include "c2ast.h"

#include <clang/Basic/Builtins.h>

namespace pl::c2ast {

using namespace clang;

namespace {

constexpr uint64_t kStackAlign = 16;
constexpr uint64_t kMaxFrameLevel = 1024;  // frames walked by __builtin_frame_address(N)

// gcc's __builtin_setjmp(buf) and __builtin_longjmp(buf, 1), as inline
// assembly. Each template opens with a comment naming its builtin, which
// pipe-run's refusal quotes.
constexpr const char* kBuiltinSetjmpAsm =
    "# __builtin_setjmp\n\t"
    "movq %%rbp, (%0)\n\t"
    "leaq 1f(%%rip), %%rcx\n\t"
    "movq %%rcx, 8(%0)\n\t"
    "movq %%rsp, 16(%0)\n\t"
    "xorl %k0, %k0\n\t"
    "jmp 2f\n"
    "1:\n\t"
    "movl $1, %k0\n"
    "2:";
// Every register a value could live in across the receiver, but rbp and rsp
// (restored from the buffer) and rax (the result).
constexpr const char* kBuiltinSetjmpClobbers =
    "memory,cc,rbx,rcx,rdx,rsi,rdi,r8,r9,r10,r11,r12,r13,r14,r15,"
    "xmm0,xmm1,xmm2,xmm3,xmm4,xmm5,xmm6,xmm7,xmm8,xmm9,xmm10,xmm11,xmm12,xmm13,xmm14,xmm15";
constexpr const char* kBuiltinLongjmpAsm =
    "# __builtin_longjmp\n\t"
    "movq 8(%0), %%rcx\n\t"
    "movq 16(%0), %%rsp\n\t"
    "movq (%0), %%rbp\n\t"
    "jmp *%%rcx";

}  // namespace

bool is_vla_type(const ASTContext& ctx, QualType t) {
  for (const ArrayType* a = ctx.getAsArrayType(t); a; a = ctx.getAsArrayType(a->getElementType()))
    if (isa<VariableArrayType>(a)) return true;
  return false;
}

void FunctionBuilder::evaluate_vla_sizes(QualType t, std::vector<NodeId>& out, SourceLocation where) {
  while (!t.isNull() && t->isVariablyModifiedType()) {
    const Type* ty = t.getTypePtr();
    switch (ty->getTypeClass()) {
      case Type::Pointer: t = cast<PointerType>(ty)->getPointeeType(); break;
      case Type::ConstantArray:
      case Type::IncompleteArray: t = cast<ArrayType>(ty)->getElementType(); break;
      case Type::VariableArray: {
        const auto* vat = cast<VariableArrayType>(ty);
        const Expr* size = vat->getSizeExpr();
        if (!size) unsupported(where, "variable length array type " + Types::describe(t) + " of unspecified size");
        if (!vla_counts_.count(size)) {
          Loc l = loc(size->getExprLoc());
          NodeId var = variable(".vla.n", 8, 8, l);
          NodeId value = convert(rvalue(size), scalar(size), {VType::I64, scalar(size).is_signed}, l);
          out.push_back(store(VType::I64, false, var, value, l));
          vla_counts_.emplace(size, var);
        }
        t = vat->getElementType();
        break;
      }
      case Type::FunctionProto:
      case Type::FunctionNoProto: t = cast<FunctionType>(ty)->getReturnType(); break;
      case Type::Paren: t = cast<ParenType>(ty)->getInnerType(); break;
      case Type::Decayed:
      case Type::Adjusted: t = cast<AdjustedType>(ty)->getOriginalType(); break;
      case Type::Attributed: t = cast<AttributedType>(ty)->getModifiedType(); break;
      case Type::MacroQualified: t = cast<MacroQualifiedType>(ty)->getUnderlyingType(); break;
      case Type::Elaborated: t = cast<ElaboratedType>(ty)->getNamedType(); break;
      case Type::Typedef: return;  // evaluated at the typedef's declaration
      case Type::TypeOf: t = cast<TypeOfType>(ty)->getUnderlyingType(); break;
      case Type::TypeOfExpr: {
        NodeId effect = discard(cast<TypeOfExprType>(ty)->getUnderlyingExpr(), false);
        if (effect != kNone) out.push_back(effect);
        return;
      }
      default: unsupported(where, "variably modified type " + Types::describe(t));
    }
  }
}

NodeId FunctionBuilder::vla_size(QualType t, Loc l, SourceLocation where) {
  NodeId total = kNone;
  uint64_t factor = 1;
  QualType element = t;
  while (const ArrayType* a = ctx_.getAsArrayType(element)) {
    if (const auto* vat = dyn_cast<VariableArrayType>(a)) {
      auto found = vla_counts_.find(vat->getSizeExpr());
      if (found == vla_counts_.end())
        unsupported(where, "size of the variable length array type " + Types::describe(t) +
                               " where its declaration has not been reached");
      NodeId count = load(VType::I64, false, found->second, l);
      total = total == kNone ? count : op("mul", VType::I64, l, total, count);
    } else if (const auto* cat = dyn_cast<ConstantArrayType>(a)) {
      factor *= cat->getSize().getZExtValue();
    } else {
      unsupported(where, "size of the incomplete type " + Types::describe(t));
    }
    element = a->getElementType();
  }
  factor *= types_.size(element, where);
  if (total == kNone) return constant(VType::I64, static_cast<int64_t>(factor), l);
  if (factor == 1) return total;
  return op("mul", VType::I64, l, total, constant(VType::I64, static_cast<int64_t>(factor), l));
}

NodeId FunctionBuilder::pointee_size_node(QualType pointer_type, Loc l, SourceLocation where) {
  QualType pointee = pointer_type->getPointeeType();
  if (!pointee.isNull() && is_vla_type(ctx_, pointee)) return vla_size(pointee, l, where);
  return constant(VType::I64, static_cast<int64_t>(types_.pointee_size(pointer_type, where)), l);
}

bool FunctionBuilder::points_to_vla(QualType pointer_type) const {
  QualType pointee = pointer_type->getPointeeType();
  return !pointee.isNull() && is_vla_type(ctx_, pointee);
}

NodeId FunctionBuilder::vla_sizeof(const UnaryExprOrTypeTraitExpr* e) {
  SourceLocation where = e->getExprLoc();
  Loc l = loc(where);
  std::vector<NodeId> list;
  QualType t;
  if (e->isArgumentType()) {
    t = e->getArgumentType();
    evaluate_vla_sizes(t, list, where);
  } else {
    t = e->getArgumentExpr()->getType();
    NodeId effect = discard(e->getArgumentExpr(), false);
    if (effect != kNone) list.push_back(effect);
  }
  NodeId size = vla_size(t, l, where);
  NodeId before = statements(list, l);
  return before == kNone ? size : seq(before, size, l);
}

NodeId FunctionBuilder::vla_local(const VarDecl* vd, std::vector<NodeId>& out) {
  SourceLocation where = vd->getLocation();
  Loc l = loc(where);
  QualType t = vd->getType();
  if (cleanup_function(vd)) unsupported(where, "cleanup attribute on a variable length array");
  if (ctx_.getDeclAlign(vd).getQuantity() > static_cast<int64_t>(kStackAlign))
    unsupported(where, "variable length array aligned to more than 16 bytes");
  std::string name = vd->getNameAsString();
  NodeId saved = variable(name + ".sp", 8, 8, l);
  out.push_back(store(VType::Ptr, false, saved, add(Op::AstStackSave, l, {}, {}), l));
  vla_saves_.emplace(vd, saved);
  NodeId address = variable(name + ".addr", 8, 8, l);
  NodeId storage = add(Op::AstAlloca, l, {}, {vla_size(t, l, where)});
  out.push_back(store(VType::Ptr, false, address, storage, l));
  locals_[vd] = Local{address, true};
  return address;
}

NodeId FunctionBuilder::stack_restore(const VarDecl* vd, Loc l) {
  return add(Op::AstStackRestore, l, {}, {load(VType::Ptr, false, vla_saves_.at(vd), l)});
}

NodeId FunctionBuilder::alloca_call(const CallExpr* c, unsigned id) {
  SourceLocation where = c->getExprLoc();
  Loc l = loc(where);
  if (id == Builtin::BI__builtin_alloca_with_align) {
    Expr::EvalResult bits;
    if (c->getNumArgs() != 2 || !c->getArg(1)->EvaluateAsInt(bits, ctx_))
      unsupported(where, "__builtin_alloca_with_align without a constant alignment");
    if (bits.Val.getInt().getZExtValue() > kStackAlign * 8)
      unsupported(where, "__builtin_alloca_with_align to more than 128 bits");
  }
  const Expr* size = c->getArg(0);
  NodeId bytes = convert(rvalue(size), scalar(size), {VType::I64, false}, l);
  return add(Op::AstAlloca, l, {}, {bytes});
}

NodeId FunctionBuilder::frame_builtin(const CallExpr* c, unsigned id) {
  SourceLocation where = c->getExprLoc();
  if (id == Builtin::BI__builtin_setjmp || id == Builtin::BI__builtin_longjmp) {
    Loc l = loc(where);
    NodeId buf = rvalue(c->getArg(0));
    if (id == Builtin::BI__builtin_longjmp) {
      Expr::EvalResult value;  // clang checks it too ("must be a constant 1")
      if (!c->getArg(1)->EvaluateAsInt(value, ctx_) || value.Val.getInt() != 1)
        unsupported(where, "__builtin_longjmp with a second argument other than 1");
      return add(Op::AstAsm, l,
                 {Literal::string("volatile"), Literal::string(kBuiltinLongjmpAsm), Literal::string("memory"),
                  Literal::string("{rax} ptr")},
                 {buf});
    }
    // The buffer's address in rax in, 0 or 1 out (an i64 temporary: the
    // operand is a "+" output, read through its address).
    NodeId temp = variable(".setjmp", 8, 8, l);
    NodeId init = store(VType::I64, false, temp, convert(buf, {VType::Ptr, false}, {VType::I64, false}, l), l);
    NodeId saved = add(Op::AstAsm, l,
                       {Literal::string("volatile"), Literal::string(kBuiltinSetjmpAsm),
                        Literal::string(kBuiltinSetjmpClobbers), Literal::string("+{rax} i64")},
                       {temp});
    NodeId result = conversion("trunc", VType::I64, VType::I32, l, load(VType::I64, false, temp, l));
    return seq(init, seq(saved, result, l), l);
  }
  bool frame = id == Builtin::BI__builtin_frame_address;
  const char* name = frame ? "__builtin_frame_address" : "__builtin_return_address";
  Expr::EvalResult level;
  if (c->getNumArgs() != 1 || !c->getArg(0)->EvaluateAsInt(level, ctx_))
    unsupported(where, std::string(name) + " without a constant level");
  Loc l = loc(where);
  uint64_t n = level.Val.getInt().getZExtValue();
  if (level.Val.getInt().isNegative() || n > kMaxFrameLevel)
    unsupported(where, std::string(name) + " of a level above " + std::to_string(kMaxFrameLevel));
  if (n == 0) return add(frame ? Op::AstFrameAddress : Op::AstReturnAddress, l, {}, {});
  // Level n: up the saved-rbp chain n times from this frame, as gcc's
  // expand_builtin_return_addr does; the return address of that frame is
  // the word above its saved rbp.
  NodeId p = add(Op::AstFrameAddress, l, {}, {});
  for (uint64_t i = 0; i < n; ++i) p = load(VType::Ptr, true, p, l);
  return frame ? p : load(VType::Ptr, true, offset(p, 8, l), l);
}

}  // namespace pl::c2ast
