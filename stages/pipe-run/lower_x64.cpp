// lower_x64.cpp - the x64: nodes of the son-x64, cfg-x64 and ra-x64 levels as
// pipe-run instructions (FunctionBuilder's x64 half; program.cpp has the
// generic half and lower_son.cpp / lower_cfg.cpp decide the order).
//
// The machine model (FORMAT.md section 8): a value is a 64-bit register,
// and the instructions compute with the functions of common/x64/eval_x64.h
// (32-bit results zero-extend, narrow two-address results keep the tied
// input's upper bits, other narrow results get junk above them). Decoded
// once here, so the run loop reads no literal:
//   - immediates become constant value slots (deduplicated), so `addi` runs
//     as `add` with a constant operand and `storei` as `store`; a missing
//     base or index of an address is the constant 0, and a symbol's address
//     plus the displacement is folded into the displacement;
//   - constants (`x64:movi`, `x64:loadgot`, `x64:lea` of a symbol) are
//     preset like `const`; `x64:argreg` is a parameter: argument register k
//     of the call, its bits above the type unspecified (junk);
//   - `x64:argslot n` and `x64:outarg n` are addresses in the incoming and
//     outgoing stack argument areas: the outgoing area is a stack slot of
//     the activation, sized to hold every outarg address plus the largest
//     displacement used from one (and a constant rep movsb count), and it is
//     the callee's incoming area during a call;
//   - result 0 of an x64 tuple is the tuple node's own value: the memory
//     state of stores, calls and volatile loads, lo of mul1, the quotient of
//     div (FunctionBuilder::preset aliases proj 0 to the node).
//
// At ra-x64 the same instructions run on the machine state instead of on a
// value per node (FORMAT.md section 8, "The ra-x64 level"): the value array
// holds the 32 registers, the flags and the spill slots of the activation,
// and a node with a place is that location (place_values). So an input is
// read from wherever the machine holds it at that point, and a wrong
// allocation computes a wrong value even with the checker off:
//   - an operand is read where the instruction reads it (operand()): a
//     fixed register (div's rax/rdx, a shift count in rcx, call arguments
//     in rdi..r9, return values in rax/rdx) whatever the input's place;
//     a tied input in the destination (two-address: `sub rax, rsi` reads
//     rax, not the register its input node names); otherwise the input
//     node's place, which must be a register (a spill slot there is a
//     missing reload, reported at load time with the node);
//   - results go to their fixed register or to the node's (proj's) place;
//   - x64:movi, x64:loadgot, x64:lea of a symbol, x64:argreg and
//     x64:entryreg are not preset but write their place where they are
//     scheduled (argreg/entryreg copy the named register as it is then);
//     mov, spill and reload are moves between locations, xchg swaps two;
//     a placed `undefined` makes its place undefined;
//   - what an instruction destroys besides its results (the flags, rep
//     movsb's rdi/rsi/rcx, a call's caller-saved registers) becomes junk
//     and undefined after it (an XClobber instruction, counted as a step);
//     except that an instruction an x64:flagsof names then writes the
//     flags of `test r, r` of its result r (the flags it leaves, for the
//     conditions rule I allows), and the flagsof itself does nothing, so
//     that a copy placed between that overwrites r changes nothing, as on
//     the hardware; at cfg-x64 x64:flagsof is `test a, a`;
//   - phis with a place move nothing: the allocator left each input in the
//     phi's place; memory phis and address nodes keep values of their own.
// interp.cpp passes the whole register file to a callee and checks at each
// x64:ret that the callee-saved registers hold their values at entry.
#include <algorithm>

#include "x64/eval_x64.h"
#include "run.h"

namespace pl::run {

namespace {

bool is_outgoing_area(const Function& fn, NodeId n) { return fn.nodes[n].op == Op::X64OutArg; }

}  // namespace

int64_t FunctionBuilder::int_literal(NodeId n, size_t i) const {
  const Node& node = fn_.nodes[n];
  if (i >= node.literals.size() || !node.literals[i].is_int())
    fail(n, "literal " + std::to_string(i) + " is not an integer");
  return static_cast<int64_t>(node.literals[i].bits());
}

std::string_view FunctionBuilder::string_literal(NodeId n, size_t i) const {
  const Node& node = fn_.nodes[n];
  if (i >= node.literals.size() || node.literals[i].kind() != Literal::Kind::String)
    fail(n, "literal " + std::to_string(i) + " is not a string");
  return node.literals[i].as_string();
}

uint32_t FunctionBuilder::constant(uint64_t v) {
  auto it = std::lower_bound(constants_.begin(), constants_.end(), std::make_pair(v, uint32_t{0}));
  if (it != constants_.end() && it->first == v) return it->second;
  uint32_t slot = out_.num_values++;
  out_.init_values.push_back(v);
  out_.init_undef.push_back(0);
  constants_.insert(it, {v, slot});
  return slot;
}

// The floating type of literal i of an x64 floating-point instruction.
ValueType FunctionBuilder::float_type_of(NodeId n, size_t i) const {
  const Node& node = fn_.nodes[n];
  std::optional<ValueType> t = i < node.literals.size() ? literal_value_type(node.literals[i]) : std::nullopt;
  if (!t) fail(n, "literal " + std::to_string(i) + " is not a value type");
  return *t;
}

// The pattern of x64:fconst (its number as the type's pattern) or x64:fzero (+0.0).
uint64_t FunctionBuilder::float_constant(NodeId n) const {
  const Node& node = fn_.nodes[n];
  if (node.op == Op::X64FZero) return 0;
  if (node.literals.size() < 2 || node.literals[1].kind() != Literal::Kind::Float)
    fail(n, "x64:fconst needs a floating type and a number");
  uint64_t bits = node.literals[1].bits();
  return float_type_of(n, 0) == ValueType::F32 ? f32_bits_of_f64_bits(bits) : bits;
}

void FunctionBuilder::preset_x64(NodeId id) {
  const Node& node = fn_.nodes[id];
  switch (node.op) {
    case Op::X64ArgReg: {
      unsigned bits = type_bits_of(id, 0);
      std::optional<x64::Reg> reg = x64::parse_reg(string_literal(id, 1));
      // Argument k: rdi ... r9 are 0-5, xmm0-xmm7 6-13 (kArgSlots).
      auto it = reg ? std::find(x64::kArgRegs.begin(), x64::kArgRegs.end(), *reg) : x64::kArgRegs.end();
      auto xt = reg ? std::find(x64::kXmmArgRegs.begin(), x64::kXmmArgRegs.end(), *reg) : x64::kXmmArgRegs.end();
      uint32_t index;
      if (it != x64::kArgRegs.end())
        index = static_cast<uint32_t>(it - x64::kArgRegs.begin());
      else if (xt != x64::kXmmArgRegs.end())
        index = static_cast<uint32_t>(x64::kArgRegs.size() + (xt - x64::kXmmArgRegs.begin()));
      else
        fail(id, "x64:argreg names no argument register");
      preset_[id] = 1;
      out_.params.push_back({id, index, static_cast<uint8_t>(bits)});
      return;
    }
    case Op::X64MovI: {
      unsigned bits = type_bits_of(id, 0);
      if (node.literals.size() < 2 || !node.literals[1].is_int()) fail(id, "x64:movi needs an integer literal");
      fold(id, x64_fresh(const_value(node.literals[1], 64), bits));
      return;
    }
    case Op::X64LoadGot:
    case Op::X64TlsLe:  // one thread: a thread-local item's only copy is its storage
    case Op::X64TlsIe:
    case Op::X64TlsGd:
      fold(id, program_.symbol_address(fn_, id, std::string(string_literal(id, 0))));
      return;
    case Op::X64FConst:
    case Op::X64FZero:
      fold(id, float_constant(id));
      return;
    case Op::X64Lea:
      if (node.literals.size() == 4) {
        if (!node.inputs.empty()) fail(id, "an address with a symbol has no base or index");
        uint64_t symbol = program_.symbol_address(fn_, id, std::string(string_literal(id, 3)));
        fold(id, x64_fresh(symbol + static_cast<uint64_t>(int_literal(id, 2)), type_bits_of(id, 0)));
      }
      return;
    default: return;
  }
}

void FunctionBuilder::x64_address(NodeId n, Insn& insn, size_t lit, size_t in) {
  const Node& node = fn_.nodes[n];
  int64_t scale = int_literal(n, lit), disp = int_literal(n, lit + 1);
  if (!x64::is_address_scale(scale)) fail(n, "address scale is not 0, 1, 2, 4 or 8");
  insn.aux = static_cast<uint8_t>(scale);
  insn.a = insn.b = constant(0);
  insn.imm = static_cast<uint64_t>(disp);
  if (node.literals.size() > lit + 2) {
    if (node.inputs.size() != in) fail(n, "an address with a symbol has no base or index");
    insn.imm += program_.symbol_address(fn_, n, std::string(string_literal(n, lit + 2)));
    return;
  }
  if (node.inputs.size() != in + 1 + (scale != 0)) fail(n, "the address inputs do not match its scale");
  insn.a = operand(n, in);
  if (scale != 0) insn.b = operand(n, in + 1);
}

// The outgoing stack argument area: every outarg address plus the largest
// displacement used from it (8 bytes for each access) or a constant
// rep movsb count.
void FunctionBuilder::add_outgoing_area(NodeId label) {
  uint64_t size = 0;
  auto outarg_offset = [&](NodeId base) -> std::optional<uint64_t> {
    const Node& b = fn_.nodes[base];
    if (is_outgoing_area(fn_, base) && !b.literals.empty() && b.literals[0].is_int()) return b.literals[0].bits();
    if (b.op == Op::X64Lea && b.literals.size() == 3 && !b.inputs.empty() && is_outgoing_area(fn_, b.inputs[0]) &&
        b.literals[2].is_int() && !fn_.nodes[b.inputs[0]].literals.empty())
      return fn_.nodes[b.inputs[0]].literals[0].bits() + b.literals[2].bits();
    return std::nullopt;
  };
  for (NodeId m = 0; m < fn_.nodes.size(); ++m) {
    const Node& node = fn_.nodes[m];
    if (!x64::is_x64(node.op)) continue;
    if (std::optional<uint64_t> at = outarg_offset(m)) size = std::max(size, *at + 8);
    const x64::Constraints& c = x64::constraints(node.op);
    if (c.address_input >= 0 && node.literals.size() == static_cast<size_t>(c.address_literal) + 2 &&
        node.inputs.size() > static_cast<size_t>(c.address_input) && node.literals[c.address_literal + 1].is_int())
      if (std::optional<uint64_t> at = outarg_offset(node.inputs[c.address_input]))
        size = std::max(size, *at + node.literals[c.address_literal + 1].bits() + 8);
    if (node.op == Op::X64RepMovsb && node.inputs.size() == 4 && fn_.nodes[node.inputs[3]].op == Op::X64MovI &&
        fn_.nodes[node.inputs[3]].literals.size() == 2 && fn_.nodes[node.inputs[3]].literals[1].is_int())
      if (std::optional<uint64_t> at = outarg_offset(node.inputs[1]))
        size = std::max(size, *at + fn_.nodes[node.inputs[3]].literals[1].bits());
  }
  if (size > (uint64_t{1} << 24)) fail(label, "the outgoing stack argument area would be larger than 16 MiB");
  size = (size + 15) / 16 * 16;
  out_.outgoing = out_.num_values++;
  out_.init_values.push_back(0);
  out_.init_undef.push_back(0);
  out_.slot_nodes.push_back(out_.outgoing);
  out_.slot_labels.push_back(label);
  out_.slot_sizes.push_back(static_cast<uint32_t>(size));
  out_.slot_aligns.push_back(16);
  outgoing_size_ = size;
}

// A memory-operand instruction's load (its memory state input 0, its
// address at literal `lit` and input `in`) into the scratch value, which
// the register form then reads; returns the scratch value.
uint32_t FunctionBuilder::x64_load_scratch(NodeId n, unsigned bits, size_t lit, size_t in) {
  if (fn_.nodes[n].inputs.empty()) fail(n, "missing input 0");
  Insn& ld = push(Code::XLoad, n);
  ld.bits = ld.bits2 = static_cast<uint8_t>(bits);
  ld.c = operand(n, 0);
  ld.dst = out_.scratch;
  x64_address(n, ld, lit, in);
  return out_.scratch;
}

void FunctionBuilder::emit_x64(NodeId n) {
  const Node& node = fn_.nodes[n];
  OpId op = node.op;
  auto input = [&](size_t i) {
    if (i >= node.inputs.size()) fail(n, "missing input " + std::to_string(i));
    return operand(n, i);
  };
  auto result_of = [&](uint32_t k) { return result(n, k); };
  auto insn_of = [&](Code code, unsigned bits) -> Insn& {
    Insn& insn = push(code, n);
    insn.bits = static_cast<uint8_t>(bits);
    insn.dst = result(n, 0);
    return insn;
  };
  auto condition = [&](size_t i) {
    std::optional<x64::Cond> cc = x64::parse_cond(string_literal(n, i));
    if (!cc) fail(n, "unknown condition code");
    return static_cast<uint8_t>(*cc);
  };
  // Two-address arithmetic: register or immediate second operand.
  auto alu = [&](Code code, bool immediate) {
    Insn& insn = insn_of(code, type_bits_of(n, 0));
    insn.a = insn.c = input(0);
    insn.b = immediate ? constant(static_cast<uint64_t>(int_literal(n, 1))) : input(1);
  };
  switch (op) {
    case Op::X64Add: return alu(Code::XAdd, false);
    case Op::X64Sub: return alu(Code::XSub, false);
    case Op::X64And: return alu(Code::XAnd, false);
    case Op::X64Or: return alu(Code::XOr, false);
    case Op::X64Xor: return alu(Code::XXor, false);
    case Op::X64Imul: return alu(Code::XImul, false);
    case Op::X64AddI: return alu(Code::XAdd, true);
    case Op::X64SubI: return alu(Code::XSub, true);
    case Op::X64AndI: return alu(Code::XAnd, true);
    case Op::X64OrI: return alu(Code::XOr, true);
    case Op::X64XorI: return alu(Code::XXor, true);
    case Op::X64ImulI: {
      alu(Code::XImul, true);
      out_.code.back().c = constant(kX64Junk);  // three-operand form: not tied
      return;
    }
    case Op::X64Shl: return alu(Code::XShl, false);
    case Op::X64Shr: return alu(Code::XShr, false);
    case Op::X64Sar: return alu(Code::XSar, false);
    case Op::X64ShlI: return alu(Code::XShl, true);
    case Op::X64ShrI: return alu(Code::XShr, true);
    case Op::X64SarI: return alu(Code::XSar, true);
    case Op::X64Neg:
    case Op::X64Not:
    case Op::X64Cdq: {
      Insn& insn = insn_of(op == Op::X64Neg ? Code::XNeg : op == Op::X64Not ? Code::XNot : Code::XCdq,
                           type_bits_of(n, 0));
      insn.a = input(0);
      return;
    }
    case Op::X64Cmp:
    case Op::X64Test:
    case Op::X64CmpI:
    case Op::X64TestI: {
      bool immediate = op == Op::X64CmpI || op == Op::X64TestI;
      Insn& insn = insn_of(op == Op::X64Cmp || op == Op::X64CmpI ? Code::XCmp : Code::XTest, type_bits_of(n, 0));
      insn.a = input(0);
      insn.b = immediate ? constant(static_cast<uint64_t>(int_literal(n, 1))) : input(1);
      return;
    }
    case Op::X64FlagsOf: {
      // At ra-x64 the instruction it names wrote the flags (emit_ra).
      if (out_.ra) return;
      Insn& insn = insn_of(Code::XTest, type_bits_of(n, 0));
      insn.a = insn.b = input(0);
      return;
    }
    case Op::X64Mul1:
    case Op::X64Imul1: {
      Insn& insn = insn_of(op == Op::X64Mul1 ? Code::XMul1 : Code::XImul1, type_bits_of(n, 0));
      insn.imm = result_of(0);
      insn.dst = result_of(1);
      insn.a = input(0);
      insn.b = input(1);
      return;
    }
    case Op::X64Div:
    case Op::X64Idiv: {
      Insn& insn = insn_of(op == Op::X64Div ? Code::XDiv : Code::XIdiv, type_bits_of(n, 0));
      insn.imm = result_of(0);
      insn.dst = result_of(1);
      insn.a = input(0);
      insn.b = input(1);
      insn.c = input(2);
      return;
    }
    case Op::X64MovSX:
    case Op::X64MovZX: {
      Insn& insn = insn_of(op == Op::X64MovSX ? Code::XMovSX : Code::XMovZX, type_bits_of(n, 0));
      insn.bits2 = static_cast<uint8_t>(type_bits_of(n, 1));
      if (insn.bits2 < insn.bits) fail(n, "an extension to a narrower type");
      insn.a = input(0);
      return;
    }
    case Op::X64SetCC: {
      Insn& insn = insn_of(Code::XSetCC, 8);
      insn.aux = condition(0);
      insn.a = input(0);
      return;
    }
    case Op::X64CMov: {
      Insn& insn = insn_of(Code::XCMov, type_bits_of(n, 1));
      insn.aux = condition(0);
      insn.a = input(0);
      insn.b = input(1);
      insn.c = input(2);
      return;
    }
    case Op::X64FAdd:
    case Op::X64FSub:
    case Op::X64FMul:
    case Op::X64FDiv:
    case Op::X64FSqrt:
    case Op::X64CvtSI2F:
    case Op::X64CvtF2F: {
      // The meaning of the generic opcode (eval_float.h), on the x64 operands.
      ValueType t0 = float_type_of(n, 0);
      ValueType t1 = op_info(op).literals.size() > 1 ? float_type_of(n, 1) : t0;
      OpId generic = op == Op::X64FAdd ? Op::FAdd : op == Op::X64FSub ? Op::FSub : op == Op::X64FMul ? Op::FMul
                   : op == Op::X64FDiv ? Op::FDiv : op == Op::X64FSqrt ? Op::FSqrt : op == Op::X64CvtSI2F ? Op::SIToFP
                   : t0 == ValueType::F32 ? Op::FPExt : Op::FPTrunc;
      if (op == Op::X64CvtSI2F && type_bits(t0) < 32) fail(n, "cvtsi2f converts i32 or i64");
      if (op == Op::X64CvtF2F && t0 == t1) fail(n, "cvtf2f converts f32 to f64 or f64 to f32");
      Insn& insn = insn_of(Code::Float, 0);
      insn.bits = static_cast<uint8_t>(t0);
      insn.bits2 = static_cast<uint8_t>(t1);
      insn.imm = generic;
      insn.a = input(0);
      insn.b = node.inputs.size() > 1 ? input(1) : insn.a;
      return;
    }
    case Op::X64AddM:
    case Op::X64SubM:
    case Op::X64AndM:
    case Op::X64OrM:
    case Op::X64XorM:
    case Op::X64ImulM:
    case Op::X64FAddM:
    case Op::X64FSubM:
    case Op::X64FMulM:
    case Op::X64FDivM:
    case Op::X64FSqrtM:
    case Op::X64CvtSI2FM: {
      // A load folded into its user: the load into the scratch value (the
      // memory state checked as for x64:load), then the register form with
      // the scratch value as its memory operand.
      const bool one_operand = op == Op::X64FSqrtM || op == Op::X64CvtSI2FM;
      const size_t lit = op == Op::X64CvtSI2FM ? 2 : 1, in = one_operand ? 1 : 2;
      unsigned bits = type_bits_of(n, 0);
      if (op == Op::X64CvtSI2FM && bits < 32) fail(n, "cvtsi2f converts i32 or i64");
      if (!one_operand && bits < 32) fail(n, "an operation on memory at " + std::to_string(bits) + " bits (i32 or i64)");
      uint32_t tmp = x64_load_scratch(n, bits, lit, in);
      OpId reg_op = x64::register_form(op);
      if (reg_op == Op::X64FAdd || reg_op == Op::X64FSub || reg_op == Op::X64FMul || reg_op == Op::X64FDiv ||
          reg_op == Op::X64FSqrt || reg_op == Op::X64CvtSI2F) {
        ValueType t0 = float_type_of(n, 0);
        ValueType t1 = reg_op == Op::X64CvtSI2F ? float_type_of(n, 1) : t0;
        Insn& insn = insn_of(Code::Float, 0);
        insn.bits = static_cast<uint8_t>(t0);
        insn.bits2 = static_cast<uint8_t>(t1);
        insn.imm = reg_op == Op::X64FAdd ? Op::FAdd : reg_op == Op::X64FSub ? Op::FSub : reg_op == Op::X64FMul ? Op::FMul
                 : reg_op == Op::X64FDiv ? Op::FDiv : reg_op == Op::X64FSqrt ? Op::FSqrt : Op::SIToFP;
        insn.a = one_operand ? tmp : input(1);
        insn.b = tmp;
        return;
      }
      Code code = reg_op == Op::X64Add ? Code::XAdd : reg_op == Op::X64Sub ? Code::XSub : reg_op == Op::X64And ? Code::XAnd
                : reg_op == Op::X64Or ? Code::XOr : reg_op == Op::X64Xor ? Code::XXor : Code::XImul;
      Insn& insn = insn_of(code, bits);
      insn.a = insn.c = input(1);
      insn.b = tmp;
      return;
    }
    case Op::X64CmpM:
    case Op::X64CmpMI:
    case Op::X64UcomisM: {
      // A compare with a folded load: the load into the scratch value, then
      // the register form (cmp a, tmp; cmp tmp, imm; ucomis a, tmp).
      const size_t lit = op == Op::X64CmpMI ? 2 : 1, in = op == Op::X64CmpMI ? 1 : 2;
      unsigned bits = op == Op::X64UcomisM ? type_bits(float_type_of(n, 0)) : type_bits_of(n, 0);
      uint32_t tmp = x64_load_scratch(n, bits, lit, in);
      if (op == Op::X64UcomisM) {
        Insn& insn = insn_of(Code::XUcomis, bits);
        insn.aux = float_type_of(n, 0) == ValueType::F32;
        insn.a = input(1);
        insn.b = tmp;
        return;
      }
      Insn& insn = insn_of(Code::XCmp, bits);
      insn.a = op == Op::X64CmpM ? input(1) : tmp;
      insn.b = op == Op::X64CmpM ? tmp : constant(static_cast<uint64_t>(int_literal(n, 1)));
      return;
    }
    case Op::X64FXor:
    case Op::X64FAnd: return alu(op == Op::X64FXor ? Code::XXor : Code::XAnd, false);
    case Op::X64Ucomis: {
      Insn& insn = insn_of(Code::XUcomis, type_bits_of(n, 0));
      insn.aux = float_type_of(n, 0) == ValueType::F32;
      insn.a = input(0);
      insn.b = input(1);
      return;
    }
    case Op::X64CvtTF2SI: {
      unsigned to = type_bits_of(n, 1);
      if (to < 32) fail(n, "cvttf2si converts to i32 or i64");
      Insn& insn = insn_of(Code::XCvtt, to);
      insn.aux = float_type_of(n, 0) == ValueType::F32;
      insn.a = input(0);
      return;
    }
    case Op::X64Bitcast: {
      unsigned from = type_bits_of(n, 0), to = type_bits_of(n, 1);
      if (from != to || from < 32) fail(n, "x64:bitcast joins f32 and i32, or f64 and i64");
      Insn& insn = insn_of(Code::XMovZX, from);  // movd/movq: a 32-bit write zero-extends
      insn.bits2 = 64;
      insn.a = input(0);
      return;
    }
    case Op::X64Lea: {
      Insn& insn = insn_of(Code::XLea, type_bits_of(n, 0));
      x64_address(n, insn, 1, 0);
      return;
    }
    case Op::X64ArgSlot:
    case Op::X64OutArg: {
      if (op == Op::X64OutArg && out_.outgoing == kNone) add_outgoing_area(n);
      if (op == Op::X64ArgSlot && out_.incoming == kNone) {
        out_.incoming = out_.num_values++;
        out_.init_values.push_back(0);
        out_.init_undef.push_back(0);
      }
      Insn& insn = insn_of(Code::XLea, 64);
      insn.a = op == Op::X64OutArg ? out_.outgoing : out_.incoming;
      insn.b = constant(0);
      insn.imm = static_cast<uint64_t>(int_literal(n, 0));
      return;
    }
    case Op::X64Load:
    case Op::X64LoadSX:
    case Op::X64LoadZX:
    case Op::X64LoadV:
    case Op::X64LoadSXV:
    case Op::X64LoadZXV: {
      bool extends = op != Op::X64Load && op != Op::X64LoadV;
      bool is_volatile = op == Op::X64LoadV || op == Op::X64LoadSXV || op == Op::X64LoadZXV;
      unsigned from = type_bits_of(n, 0), to = extends ? type_bits_of(n, 1) : from;
      if (from < 8 || to < from) fail(n, "a load of " + std::to_string(from) + " bits to " + std::to_string(to));
      Insn& insn = insn_of(op == Op::X64LoadSX || op == Op::X64LoadSXV ? Code::XLoadSX : Code::XLoad, from);
      insn.bits2 = static_cast<uint8_t>(to);
      insn.c = input(0);
      insn.dst = result_of(is_volatile ? 1 : 0);
      x64_address(n, insn, extends ? 2 : 1, 1);
      if (is_volatile) insn.aux |= kVolatileLoad;
      return;
    }
    case Op::X64Store:
    case Op::X64StoreI: {
      bool immediate = op == Op::X64StoreI;
      unsigned bits = type_bits_of(n, 0);
      if (bits < 8) fail(n, "a store of fewer than 8 bits");
      Insn& insn = insn_of(Code::XStore, bits);
      insn.c = input(0);
      insn.dst = immediate ? constant(static_cast<uint64_t>(int_literal(n, 1))) : input(1);
      x64_address(n, insn, immediate ? 2 : 1, immediate ? 1 : 2);
      return;
    }
    case Op::X64Alloca:
    case Op::X64StackSave: {
      Insn& insn = insn_of(op == Op::X64Alloca ? Code::Alloca : Code::StackSave, 64);
      insn.c = input(0);
      if (op == Op::X64Alloca) insn.a = input(1);
      insn.dst = result_of(1);
      insn.b = result_of(0);
      return;
    }
    case Op::X64FrameAddress:
    case Op::X64ReturnAddress:
      insn_of(op == Op::X64FrameAddress ? Code::FrameAddress : Code::ReturnAddress, 64);
      return;
    case Op::X64StackRestore: {
      Insn& insn = insn_of(Code::StackRestore, 64);
      insn.c = input(0);
      insn.a = input(1);
      insn.dst = result_of(0);
      return;
    }
    case Op::X64AtomicXchg:
    case Op::X64AtomicXadd:
    case Op::X64AtomicCmpXchg:
    case Op::X64AtomicLoop:
    case Op::X64AtomicOp:
    case Op::X64Fence: return emit_atomic(n);
    case Op::X64RepMovsb: {
      Insn& insn = insn_of(Code::XRepMovsb, 8);
      insn.c = input(0);
      insn.a = input(1);
      insn.b = input(2);
      insn.dst = input(3);
      return;
    }
    case Op::X64V128Load:
    case Op::X64V128Store:
    case Op::X64V128Apply:
    case Op::X64V128Splat:
    case Op::X64V128Extract: return emit_vec(n);
    case Op::X64V128Param:
    case Op::X64V128Ret: {
      size_t lit = op == Op::X64V128Param ? 1 : 0;
      if (node.literals.size() != lit + 2 || int_literal(n, lit) != 0 || node.inputs.size() != 2)
        fail(n, "pipe-run takes the address of " + std::string(fn_.op_name(op)) + " as a base and a displacement");
      Insn& insn = insn_of(Code::XVec, op == Op::X64V128Param ? kVecParam : kVecRet);
      insn.c = input(0);
      insn.a = input(1);
      insn.imm = static_cast<uint64_t>(int_literal(n, lit + 1));
      if (op == Op::X64V128Param) {
        int64_t r = int_literal(n, 0);
        if (r < 0 || r >= static_cast<int64_t>(x64::kXmmArgRegs.size())) fail(n, "x64:v128.param names no xmm argument register");
        insn.aux = static_cast<uint8_t>(r);
      }
      return;
    }
    case Op::X64Call:
    case Op::X64CallInd: {
      bool direct = op == Op::X64Call;
      x64::CallVectors vectors = x64::call_vectors(node);
      if (!vectors.problem.empty()) fail(n, vectors.problem);
      for (uint8_t r = 0; r < x64::kXmmArgRegs.size(); ++r) {
        if (!((vectors.arg_mask >> r) & 1)) continue;
        Insn& vec = push(Code::XVec, n);
        vec.bits = kVecArg;
        vec.aux = r;
        vec.imm = static_cast<uint64_t>(vectors.args[r]);
      }
      Insn& insn = insn_of(Code::XCall, 64);
      insn.aux = vectors.arg_mask;
      insn.c = input(0);
      insn.a = direct ? constant(program_.symbol_address(fn_, n, std::string(string_literal(n, 0)))) : input(1);
      insn.dst = result_of(1);
      insn.b = result_of(2);
      size_t first_arg = direct ? 1 : 2;
      size_t xmm = x64::xmm_args(node);
      if (node.inputs.size() < first_arg + xmm || node.inputs.size() - first_arg - xmm > x64::kArgRegs.size() ||
          xmm > x64::kXmmArgRegs.size())
        fail(n, "a call passes at most 6 arguments in general registers and 8 in xmm registers");
      uint64_t first = out_.call_args.size();
      for (size_t i = first_arg; i < node.inputs.size(); ++i) out_.call_args.push_back(operand(n, i));
      insn.imm = first | (static_cast<uint64_t>(node.inputs.size() - first_arg - xmm) << 32) |
                 (static_cast<uint64_t>(xmm) << 48);
      // The xmm0 and xmm1 results, from where the callee's x64:ret left them.
      Insn& xr = push(Code::XCallXmm, n);
      xr.dst = result(n, 3);
      xr.b = result(n, 4);
      if (vectors.has_result) {
        Insn& vec = push(Code::XVec, n);
        vec.bits = kVecResult;
        vec.imm = static_cast<uint64_t>(vectors.result);
      }
      return;
    }
    default: break;
  }
  fail(n, "pipe-run cannot execute opcode '" + std::string(fn_.op_name(op)) + "' here");
}

void FunctionBuilder::emit_x64_return(NodeId n) {
  const Node& node = fn_.nodes[n];
  if (node.inputs.empty() || node.inputs.size() > 3) fail(n, "x64:ret takes the memory state and at most two values");
  Insn& insn = push(Code::XRet, n);
  insn.aux = static_cast<uint8_t>(x64::ret_xmm_mask(node) & 3);  // bit i: value i in xmm
  insn.a = operand(n, 0);
  insn.b = node.inputs.size() > 1 ? operand(n, 1) : kNone;
  insn.c = node.inputs.size() > 2 ? operand(n, 2) : kNone;
}

// ---- ra-x64 -------------------------------------------------------------------

void FunctionBuilder::place_values() {
  for (NodeId id = 0; id < fn_.nodes.size(); ++id) {
    const Node& node = fn_.nodes[id];
    if (node.place.is_reg()) {
      if (node.place.reg() == static_cast<unsigned>(x64::Reg::Rsp)) fail(id, "the value is placed in rsp, the stack pointer");
      alias_[id] = out_.regs + node.place.reg();
    } else if (node.place.is_slot()) {
      alias_[id] = out_.regs + kFirstSpillLoc + node.place.slot();
    } else if (node.op < kNumOps && op_info(node.op).results == "f") {
      alias_[id] = out_.regs + kFlagsLoc;
    }
    if (node.op == Op::X64FlagsOf && !node.inputs.empty()) {
      if (flags_definer_.empty()) flags_definer_.assign(fn_.nodes.size(), 0);
      flags_definer_[node.inputs[0]] = 1;
    }
  }
}

uint32_t FunctionBuilder::operand(NodeId n, size_t i) const {
  const Node& node = fn_.nodes[n];
  NodeId in = node.inputs[i];
  if (!out_.ra || !x64::is_x64(node.op)) return value(in);
  const x64::Constraints& c = x64::constraints(node.op);
  if (static_cast<int>(i) == c.tied) return result(n, 0);  // two-address: the destination is read
  x64::OperandConstraint oc = x64::input_constraint(node, i);
  Place p = fn_.nodes[in].place;
  auto where = [&] { return "input " + std::to_string(i) + " " + node_name(in); };
  switch (oc.kind) {
    case x64::Fixed::Reg: return reg_loc(oc.reg);
    case x64::Fixed::Any:
      if (p.is_slot()) fail(n, where() + " is in " + x64::place_name(p) + ", not in a register (a reload is missing)");
      return value(in);
    case x64::Fixed::Slot:
      if (!p.is_slot()) fail(n, where() + " is not in a spill slot");
      return value(in);
    default: return value(in);
  }
}

uint32_t FunctionBuilder::result(NodeId n, uint32_t k) const {
  if (out_.ra && x64::is_x64(fn_.nodes[n].op)) {
    const x64::Constraints& c = x64::constraints(fn_.nodes[n].op);
    if (k < c.num_results && c.results[k].kind == x64::Fixed::Reg) return reg_loc(c.results[k].reg);
  }
  if (k == 0) return value(n);
  uint32_t p = proj_of(n, k);
  return p == kNone ? out_.scratch : value(p);
}

uint32_t FunctionBuilder::undefined_slot() {
  if (undefined_slot_ == kNone) {
    undefined_slot_ = out_.num_values++;
    out_.init_values.push_back(kX64Junk);
    out_.init_undef.push_back(1);
  }
  return undefined_slot_;
}

// The nodes that exist only at ra-x64, and those whose value the other
// levels preset but which here write a register at their point in the
// schedule (a later write to the same register replaces them).
void FunctionBuilder::emit_ra(NodeId n) {
  const Node& node = fn_.nodes[n];
  auto move = [&](uint32_t from) {
    Insn& insn = push(Code::Move, n);
    insn.dst = value(n);
    insn.a = from;
  };
  auto named_reg = [&](size_t literal) {
    std::optional<x64::Reg> r = x64::parse_reg(string_literal(n, literal));
    if (!r || *r == x64::Reg::Rsp) fail(n, "names no register");
    return reg_loc(*r);
  };
  if (node.place.none() && node.op != Op::X64Xchg && x64::is_x64(node.op) && op_info(node.op).results == "v" &&
      node.op != Op::X64ArgSlot && node.op != Op::X64OutArg && node.op != Op::X64StackSlot)
    fail(n, "the value has no place");
  switch (node.op) {
    case Op::Undef: return move(undefined_slot());
    case Op::X64MovI: {
      if (node.literals.size() < 2 || !node.literals[1].is_int()) fail(n, "x64:movi needs an integer literal");
      return move(constant(x64_fresh(const_value(node.literals[1], 64), type_bits_of(n, 0))));
    }
    case Op::X64TlsGd:
      emit_clobbers(n);  // a call to __tls_get_addr: the caller-saved registers are gone
      [[fallthrough]];
    case Op::X64LoadGot:
    case Op::X64TlsLe:
    case Op::X64TlsIe:
      return move(constant(program_.symbol_address(fn_, n, std::string(string_literal(n, 0)))));
    case Op::X64FConst:
    case Op::X64FZero: return move(constant(float_constant(n)));
    case Op::X64ArgReg:
    case Op::X64EntryReg: return move(named_reg(node.op == Op::X64ArgReg ? 1 : 0));
    case Op::X64Mov:
    case Op::X64Spill:
    case Op::X64Reload:
      if (node.inputs.size() != 1) fail(n, "a copy has one input");
      return move(operand(n, 0));
    case Op::X64Xchg: {
      if (node.inputs.size() != 2) fail(n, "x64:xchg has two inputs");
      Insn& insn = push(Code::XXchg, n);
      insn.a = operand(n, 0);
      insn.b = operand(n, 1);
      return;
    }
    default:
      emit_x64(n);
      emit_clobbers(n);
      if (!flags_definer_.empty() && flags_definer_[n]) {
        // The flags an x64:flagsof names: those of `test r, r` at the
        // operand size, which is what the instruction leaves for every
        // condition the verifier lets the flagsof's user read (rule I).
        Insn& insn = push(Code::XTest, n);
        insn.bits = static_cast<uint8_t>(type_bits_of(n, 0));
        insn.dst = out_.regs + kFlagsLoc;
        insn.a = insn.b = result(n, 0);
      }
      return;
  }
}

void FunctionBuilder::emit_clobbers(NodeId n) {
  const x64::Constraints& c = x64::constraints(fn_.nodes[n].op);
  x64::RegMask regs = c.clobbers;
  for (uint32_t k = 0; k < c.num_results; ++k)
    if (c.results[k].kind == x64::Fixed::Reg) regs &= ~x64::reg_bit(c.results[k].reg);
  if (regs == 0 && !c.clobbers_flags) return;
  Insn& insn = push(Code::XClobber, n);
  insn.a = out_.regs;
  insn.imm = regs | (c.clobbers_flags ? uint64_t{1} << 32 : 0);
}

}  // namespace pl::run
