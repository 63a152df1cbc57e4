// inline_asm.cpp - asm -> x64:asm: a register for every register operand
// (FORMAT.md section 8, "Inline assembly"; common/ir/asm.h).
//
// The register of each operand is chosen here, once, and written into its
// operand literal; regalloc-x64 then treats every one as a fixed register
// (as it does a call's arguments and a division's rax and rdx): it moves
// each input into its register before the asm, takes each output from its
// register after it, and empties the clobbered registers. Choosing here
// keeps the allocator's model (fixed operands, clobbers) unchanged and makes
// the rules simple to check:
//  - a fixed operand ({rax}: a, b, c, d, S, D, a register variable) gets its
//    register; these are taken first;
//  - every other register operand (r, Q, x, and a memory operand's address)
//    gets a register no other operand has and no clobber names, in the
//    order rax rcx rdx rsi rdi r8-r11 rbx r12-r15 (caller-saved first: a
//    callee-saved one costs a save in the prologue; Q takes rax rcx rdx rbx;
//    x xmm0-xmm15); rbp and rsp are never chosen;
//  - a matched input ("0") and a "+" output's reading share the output's
//    register.
// Distinct registers for every output and every input satisfy early
// clobbers ("&") trivially, and gcc's contract for the rest: an output may
// share an input's register, never must. An asm that needs more registers
// than there are is refused with its location.
// The memory operands' addresses are values in registers, printed `(%reg)`
// by codegen-x64; immediates stay in the operand literal.
#include "ir/asm.h"
#include "ir/error.h"
#include "rules.h"
#include "x64/x64.h"

namespace pl::lower {

namespace {

using x64::Reg;

constexpr Reg kGeneralOrder[] = {Reg::Rax, Reg::Rcx, Reg::Rdx, Reg::Rsi, Reg::Rdi, Reg::R8,  Reg::R9,
                                 Reg::R10, Reg::R11, Reg::Rbx, Reg::R12, Reg::R13, Reg::R14, Reg::R15};
constexpr Reg kQOrder[] = {Reg::Rax, Reg::Rcx, Reg::Rdx, Reg::Rbx};

}  // namespace

NodeId Lowerer::lower_asm(NodeId old) {
  const Node& nd = node(old);
  std::vector<AsmOperand> ops = asm_operands(nd);
  x64::RegMask taken = 0;
  for (const std::string& c : asm_clobbers(nd))
    if (std::optional<Reg> r = x64::parse_reg(c)) taken |= x64::reg_bit(*r);
  auto refuse = [&](const std::string& why) -> void {
    throw FormatError(Where::in(input().name, node_name(old)), "inline assembly: " + why);
  };
  // A fixed input may share the register of a "=" output that is not
  // early-clobber (gcc: the asm reads its inputs before it writes its
  // outputs); otherwise a register is one operand's.
  x64::RegMask shareable = 0;
  for (AsmOperand& op : ops)
    if (op.cls == '{') {
      std::optional<Reg> r = x64::parse_reg(op.fixed);
      if (!r || *r == Reg::Rsp) refuse("no operand can be in '" + op.fixed + "'");
      bool shares = !op.output && (shareable & x64::reg_bit(*r));
      if ((taken & x64::reg_bit(*r)) && !shares)
        refuse(op.fixed + " is both an operand's register and clobbered, or two operands'");
      if (op.output && !op.inout && !op.early) shareable |= x64::reg_bit(*r);
      if (shares) shareable &= ~x64::reg_bit(*r);
      if (x64::reg_class(*r) == x64::RegClass::Xmm) {
        if (!is_float(op.type)) refuse("an integer operand in " + op.fixed);
      } else if (is_float(op.type)) {
        refuse("a floating-point operand in " + op.fixed);
      }
      taken |= x64::reg_bit(*r);
      op.reg = op.fixed;
    }
  auto choose = [&](AsmOperand& op) {
    auto pick = [&](auto&& order) {
      for (Reg r : order)
        if (!(taken & x64::reg_bit(r))) {
          taken |= x64::reg_bit(r);
          op.reg = std::string(x64::reg_name(r));
          return;
        }
      refuse("more register operands than free registers");
    };
    if (op.cls == 'x') {
      std::vector<Reg> xmm;
      for (unsigned i = 16; i < 32; ++i) xmm.push_back(static_cast<Reg>(i));
      pick(xmm);
    } else if (op.cls == 'Q') {
      pick(kQOrder);
    } else {
      pick(kGeneralOrder);
    }
  };
  if (asm_value_results(ops) > x64::kMaxAsmOutputs)
    refuse("more than " + std::to_string(x64::kMaxAsmOutputs) + " register outputs");
  for (AsmOperand& op : ops)
    if (op.cls == 'r' || op.cls == 'Q' || op.cls == 'x' || op.cls == 'm') choose(op);
  for (AsmOperand& op : ops)
    if (op.cls == 'N') op.reg = ops[static_cast<size_t>(op.match)].reg;
  LiteralList lits = {nd.literals[kAsmFlags], nd.literals[kAsmTemplate], nd.literals[kAsmClobbers]};
  for (const AsmOperand& op : ops) lits.push_back(Literal::string(asm_operand_text(op, true)));
  InputList ins = {value(nd.inputs[0])};
  for (size_t i = 1; i < nd.inputs.size(); ++i) ins.push_back(value(nd.inputs[i]));
  NodeId x = emit(X64Asm, std::move(lits), std::move(ins), control(old));
  std::vector<NodeId> results = {proj(x, 0)};
  for (size_t k = 0; k < asm_value_results(ops); ++k) results.push_back(proj(x, static_cast<int64_t>(k + 1)));
  define_tuple(old, std::move(results));
  return x;
}

}  // namespace pl::lower
