// abi.cpp - the System V x86-64 calling convention for son-lower-x64:
// parameters (callee side), calls (caller side), returns, and struct copies.
//
// Classification (System V ABI, section 3.2.3: the INTEGER class and the SSE
// class of scalars). Going through the parameters in order with the six
// integer argument registers rdi rsi rdx rcx r8 r9 and the eight vector
// registers xmm0-xmm7:
//  - an f32 or f64 scalar takes the next xmm register, or an 8-byte stack
//    slot when none is left (a float there is its 4 bytes); the xmm
//    arguments of a call are its last register inputs (x64:call's last
//    literal counts them), and a float result comes back in xmm0 (proj 3;
//    x64:ret's literal 1 returns in xmm0); a call with xmm arguments sets
//    al to their number (a variadic callee's prologue reads it; harmless
//    for any other);
//  - a scalar takes the next register, or an 8-byte stack slot when none is
//    left; `i8/i16 signext/zeroext` are extended to 32 bits by the caller
//    (gcc's callers do it and clang's callees rely on it); callees never
//    rely on it; an i1 (C's _Bool) parameter or call result is read from
//    bit 0 (andi i32 1: 0 or 1 in the whole register; the ABI makes bits
//    1-7 zero too, but pipe-run's model leaves everything above bit 0
//    unspecified, and `and` costs what movzx does);
//  - `ptr byval(S,A,CLASSES)`: an aggregate classified in registers
//    (common/ir/abi.h: S <= 16, no misaligned member) travels in one
//    register per INTEGER eightbyte (the next general ones) and per SSE
//    eightbyte (the next xmm ones), if enough of both are left; else, and
//    when it is MEMORY, it goes wholly on the stack: ceil(S/8) 8-byte words
//    aligned to max(8, A). A later argument may still take a register the
//    aggregate did not fit in. A NO_CLASS eightbyte takes no register; an
//    empty aggregate (S = 0) travels nowhere;
//  - `ptr sret(S,A,CLASSES)` (parameter 0): in registers: no pointer is
//    passed, the INTEGER eightbytes come back in rax then rdx, the SSE ones
//    in xmm0 then xmm1 (call projs 1, 2, 3, 4; x64:ret's mask says which of
//    its values are SSE); MEMORY: the pointer is passed in rdi and the
//    callee returns it in rax.
//  - `ptr byval(16,16,su)` / `ptr sret(16,16,su)` (a 16-byte vector, or a
//    struct or union of one: SSE, SSEUP, ONE xmm register; stages/c2ast/
//    vectors.cpp gives the decision): no value of the x64 levels is 16
//    bytes, so the vector crosses the boundary through memory at fixed
//    places. As an argument it takes the next xmm register (counted with
//    the float arguments; on the stack, 16-aligned, once they run out):
//    the caller copies it to the outgoing area above the stack arguments
//    and the call's literal pair (register, offset) makes codegen-x64
//    load it right before the call instruction, after every argument
//    move, so the allocator never holds it; the float arguments take the
//    xmm registers the pairs leave, in order. The callee's x64:v128.param
//    stores the register to the parameter's 16-byte slot in the prologue.
//    As a result: the callee's x64:v128.ret loads xmm0 from its result
//    slot before x64:ret; the call's pair (8, offset) stores xmm0 to the
//    outgoing area right after the call instruction, and the caller copies
//    it from there to the result object. al counts the vectors' registers.
//  - `ptr sret(16,16,x)` (long double, or a struct of one, classes X87
//    X87UP): no pointer is passed; the callee builds the result in a
//    16-byte x64:stackslot and loads it into st(0) (x64:fldt) before
//    x64:ret; the caller stores st(0) to its result object (x64:fstpt)
//    right after the call, which leaves the x87 stack empty as the ABI
//    wants it at every call. A `byval(16,16,x)` argument is in memory.
//  - `ptr sret(32,16,c)` (_Complex long double, class COMPLEX_X87): as
//    `x`, in st(0) the real part and in st(1) the imaginary part: the
//    callee loads [slot + 16] then [slot] (two x64:fldt) before x64:ret,
//    the caller stores st(0) to [result] and then st(1) to [result + 16]
//    (two x64:fstpt, each popping). A `byval(32,16,c)` argument is in
//    memory.
// Stack arguments are at [rsp + 8 + off] at the callee's entry
// (x64:argslot off) and at [rsp + off] at the call (x64:outarg off).
// The eightbytes of an aggregate are read and written with accesses of
// exactly its size (8, 4, 2 and 1-byte pieces; an SSE eightbyte of 8 or 4
// bytes with one movsd or movss), so nothing outside it is touched.
// Variadic callees get al = the number of xmm registers used (SSE
// eightbytes included); a call without a known signature and without xmm
// arguments leaves al unset (-1). An aggregate passed through `...` travels
// as a named one would: the call's parameter list gives its type after the
// `...` (abi.h).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "ir/abi.h"
#include "ir/error.h"
#include "rules.h"

namespace pl::lower {

namespace {

constexpr size_t kArgRegCount = x64::kArgRegs.size();
// copy: inline loads and stores up to this many bytes, rep movsb above.
constexpr uint64_t kInlineCopyMax = 64;

uint64_t round_up(uint64_t v, uint64_t align) { return (v + align - 1) / align * align; }

}  // namespace

// The attribute strings are parsed once, by common/ir/abi.h; these turn them
// into the lowering's view (the value type as a ValueType).
AbiParam parse_abi_param(std::string_view text) {
  std::string problem;
  std::optional<ParamType> type = parse_param_type(text, &problem);
  if (!type) throw std::invalid_argument(problem);
  if (type->classes.find(static_cast<char>(EightbyteClass::SseUp)) != std::string::npos &&
      (type->classes != "su" || type->size != 16))
    throw std::invalid_argument("unsupported: the classes '" + type->classes + "' in '" + std::string(text) +
                                "' (an SSEUP eightbyte travels only as a 16-byte vector's `su`: one xmm register)");
  return AbiParam{.type = *parse_value_type(type->value_type), .attr = type->attr, .size = type->size,
                  .align = type->align, .classes = type->classes};
}

AbiSignature parse_abi_list(std::string_view text) {
  std::string problem;
  std::optional<ParamList> list = parse_param_list(text, &problem);
  if (!list) throw std::invalid_argument(problem);
  AbiSignature sig;
  sig.known = true;
  sig.variadic = list->variadic;
  for (const std::string& p : list->params) sig.params.push_back(parse_abi_param(p));
  for (const std::string& p : list->varargs) sig.varargs.push_back(parse_abi_param(p));
  return sig;
}

std::vector<Eightbyte> register_eightbytes(const AbiParam& p) {
  std::vector<Eightbyte> out;
  if (!p.in_regs()) return out;
  for (size_t k = 0; k < p.classes.size(); ++k) {
    if (p.classes[k] == static_cast<char>(EightbyteClass::NoClass)) continue;
    out.push_back(Eightbyte{.offset = 8 * k, .bytes = static_cast<unsigned>(std::min<uint64_t>(8, p.size - 8 * k)),
                            .sse = p.classes[k] == static_cast<char>(EightbyteClass::Sse)});
  }
  return out;
}

AbiSignature abi_of(const Signature& sig) {
  AbiSignature abi;
  abi.known = true;
  abi.variadic = sig.variadic;
  for (const std::string& p : sig.params) abi.params.push_back(parse_abi_param(p));
  return abi;
}

// ---- callee side ----------------------------------------------------------------

void Lowerer::entry_setup() {
  if (entry_done_) return;
  entry_done_ = true;
  NodeId start = kNone;
  for (NodeId id = 0; id < in_.nodes.size(); ++id)
    if (op(id) == Start) start = value(id);
  entry_mem_raw_ = emit(EntryMem, {}, {}, start);
  NodeId mem = entry_mem_raw_;
  param_value_.assign(entry_abi_.params.size(), kNone);
  size_t regs = 0, xregs = 0;
  uint64_t stack = 0;
  for (size_t i = 0; i < entry_abi_.params.size(); ++i) {
    const AbiParam& p = entry_abi_.params[i];
    auto slot_of = [&](uint64_t size) {
      return emit(X64StackSlot, {Literal::integer(static_cast<int64_t>(std::max<uint64_t>(round_up(size, 8), 8))),
                                 Literal::integer(static_cast<int64_t>(std::max<uint64_t>(p.align, 8)))}, {});
    };
    if (p.attr == AbiParam::Attr::SRet && (is_x87(p.classes) || is_complex_x87(p.classes))) {
      // returned in st(0) (and st(1)): no pointer arrives
      x87_slot_ = slot_of(p.size);
      x87_complex_ = is_complex_x87(p.classes);
      param_value_[i] = x87_slot_;
    } else if (p.attr == AbiParam::Attr::SRet && p.in_regs()) {
      sret_slot_ = slot_of(p.size);
      param_value_[i] = sret_slot_;
    } else if (p.attr == AbiParam::Attr::ByVal && p.v128() && xregs < x64::kXmmArgRegs.size()) {
      NodeId slot = slot_of(p.size);  // xmmR's 16 bytes, stored by the prologue
      mem = emit(X64V128Param, {Literal::integer(static_cast<int64_t>(xregs++)), Literal::integer(0), Literal::integer(0)},
                 {mem, slot}, start);
      param_value_[i] = slot;
    } else if (p.attr == AbiParam::Attr::ByVal) {
      if (p.in_regs() && regs + p.int_regs() <= kArgRegCount && xregs + p.sse_regs() <= x64::kXmmArgRegs.size()) {
        NodeId slot = slot_of(p.size);
        for (const Eightbyte& e : register_eightbytes(p)) {
          ValueType vt = !e.sse ? ValueType::I64 : e.bytes == 4 ? ValueType::F32 : ValueType::F64;
          x64::Reg reg = e.sse ? x64::kXmmArgRegs[xregs++] : x64::kArgRegs[regs++];
          NodeId r = emit(X64ArgReg, {tlit(vt), Literal::string(x64::reg_name(reg))}, {}, start);
          mem = store_eightbyte(start, mem, r, vt, slot, e, true);
        }
        param_value_[i] = slot;
      } else {
        uint64_t off = round_up(stack, std::max<uint64_t>(p.align, 8));
        param_value_[i] = emit(X64ArgSlot, {Literal::integer(static_cast<int64_t>(off))}, {});
        stack = off + round_up(p.size, 8);
      }
    } else if (is_float(p.type) && xregs < x64::kXmmArgRegs.size()) {
      param_value_[i] = emit(X64ArgReg, {tlit(p.type), Literal::string(x64::reg_name(x64::kXmmArgRegs[xregs++]))}, {},
                             start);
    } else if (is_float(p.type)) {
      Addr a;
      a.base = emit(X64ArgSlot, {Literal::integer(static_cast<int64_t>(stack))}, {});
      param_value_[i] = load(p.type, entry_mem_raw_, start, a);
      stack += 8;
    } else if (regs < kArgRegCount) {
      bool i1 = p.type == ValueType::I1;  // _Bool: 0 or 1 in the low byte
      param_value_[i] = emit(X64ArgReg, {tlit(i1 ? ValueType::I32 : p.type),
                                         Literal::string(x64::reg_name(x64::kArgRegs[regs++]))}, {}, start);
      if (i1) param_value_[i] = with_imm(X64AndI, ValueType::I32, param_value_[i], 1);
      if (p.attr == AbiParam::Attr::SRet) sret_reg_ = param_value_[i];
    } else {
      Addr a;
      a.base = emit(X64ArgSlot, {Literal::integer(static_cast<int64_t>(stack))}, {});
      param_value_[i] = load(p.type == ValueType::I64 || p.type == ValueType::Ptr ? ValueType::I64 : ValueType::I32,
                             entry_mem_raw_, start, a);
      if (p.type == ValueType::I1) param_value_[i] = with_imm(X64AndI, ValueType::I32, param_value_[i], 1);
      stack += 8;
    }
  }
  if (entry_abi_.variadic && has_va_start()) save_vararg_registers(start, mem, regs, xregs, stack);
  entry_mem_ = mem;
}

// Only a scalar arriving in a register is bound: its x64:argreg holds the
// parameter's value for the whole call (the variable is unchanged: c2ast;
// a char or short in the register's low bytes), and codegen-x64 follows it through the copies the allocator makes. One
// passed on the stack, a _Bool (read through an and), a struct or an sret
// pointer stays unbound ("optimized out").
void Lowerer::bind_parameter_values() {
  size_t shift = !entry_abi_.params.empty() && entry_abi_.params[0].attr == AbiParam::Attr::SRet ? 1 : 0;
  for (DebugVar& v : out_.debug.vars) {
    if (!v.unchanged || v.param == kDebugNone || v.slot != kNoSlot || !v.symbol.empty() || v.indirect) continue;
    size_t i = static_cast<size_t>(v.param) + shift;
    if (i >= param_value_.size() || param_value_[i] == kNone) continue;
    AbiParam::Attr attr = entry_abi_.params[i].attr;
    if (attr == AbiParam::Attr::ByVal || attr == AbiParam::Attr::SRet) continue;
    if (out_.nodes[param_value_[i]].op == X64ArgReg) v.value = param_value_[i];
  }
}

NodeId Lowerer::lower_entrymem(NodeId) {
  entry_setup();
  return entry_mem_;
}

NodeId Lowerer::lower_param(NodeId old) {
  entry_setup();
  size_t index = static_cast<size_t>(node(old).literals[1].as_int());
  return param_value_.at(index);
}

NodeId Lowerer::lower_return(NodeId old) {
  const Node& nd = node(old);
  NodeId mem = value(nd.inputs[0]), ctl = control(old);
  InputList ins = {mem};
  uint64_t mask = 0;
  if (x87_slot_ != kNone) {  // in st(0); a complex one's imaginary part below it, in st(1)
    if (x87_complex_) {
      Addr imag;
      imag.base = x87_slot_;
      imag.disp = 16;
      mem = emit(X64Fldt, {}, {mem, lea(imag)}, ctl);
    }
    return emit(X64Ret, {}, {emit(X64Fldt, {}, {mem, x87_slot_}, ctl)}, ctl);
  }
  if (sret_slot_ != kNone && entry_abi_.params[0].v128()) {  // in xmm0, all 16 bytes
    ins[0] = emit(X64V128Ret, {Literal::integer(0), Literal::integer(0)}, {mem, sret_slot_}, ctl);
  } else if (sret_slot_ != kNone) {
    for (const Eightbyte& e : register_eightbytes(entry_abi_.params[0])) {
      if (e.sse) mask |= uint64_t{1} << (ins.size() - 1);
      ins.push_back(load_eightbyte(ctl, mem, sret_slot_, e, true));
    }
    if (mask) return emit(X64Ret, {Literal::integer(static_cast<int64_t>(mask))}, std::move(ins), ctl);
  } else if (sret_reg_ != kNone) {
    ins.push_back(sret_reg_);
  } else if (nd.inputs.size() > 1) {
    ins.push_back(value(nd.inputs[1]));
    if (std::optional<ValueType> t = parse_value_type(in_.signature.result); t && is_float(*t))
      return emit(X64Ret, {Literal::integer(1)}, std::move(ins), ctl);  // in xmm0
  }
  return emit(X64Ret, {}, std::move(ins), ctl);
}

// ---- caller side ------------------------------------------------------------------

AbiSignature Lowerer::call_abi(NodeId call) {
  const Node& nd = node(call);
  Where where = Where::in(in_.name, node_name(call));
  if (nd.literals.size() > 1) {
    try {
      return parse_abi_list(nd.literals[1].as_string());
    } catch (const std::exception& e) {
      throw FormatError(where, std::string("bad ABI parameter list: ") + e.what());
    }
  }
  NodeId callee = nd.inputs[1];
  if (op(callee) == SymAddr) {
    std::string_view name = node(callee).literals[0].as_string();
    for (const Extern& e : header_.externs)
      if (e.name == name && e.signature) {
        try {
          return abi_of(*e.signature);
        } catch (const std::exception& ex) {
          throw FormatError(where, std::string("bad ABI signature of '") + std::string(name) + "': " + ex.what());
        }
      }
  }
  return {};
}

namespace {

// The pieces (offset, bytes) an access of `size` bytes at 0 is made of.
std::vector<std::pair<uint64_t, unsigned>> pieces(uint64_t size, unsigned max_piece) {
  std::vector<std::pair<uint64_t, unsigned>> out;
  uint64_t pos = 0;
  while (pos < size) {
    unsigned piece = max_piece;
    while (piece > size - pos) piece /= 2;
    out.push_back({pos, piece});
    pos += piece;
  }
  return out;
}

ValueType piece_type(unsigned bytes) {
  switch (bytes) {
    case 1: return ValueType::I8;
    case 2: return ValueType::I16;
    case 4: return ValueType::I32;
    default: return ValueType::I64;
  }
}

}  // namespace

NodeId Lowerer::load_eightbyte(NodeId ctl, NodeId mem, NodeId ptr, const Eightbyte& e, bool whole) {
  auto at = [&](uint64_t pos) {
    Addr a;
    a.base = ptr;
    a.disp = static_cast<int64_t>(e.offset + pos);
    return a;
  };
  if (e.sse && (whole || e.bytes == 8)) return load(ValueType::F64, mem, ctl, at(0));
  if (e.sse && e.bytes == 4) return load(ValueType::F32, mem, ctl, at(0));
  if (whole) return load(ValueType::I64, mem, ctl, at(0));
  NodeId acc = kNone;
  for (auto [pos, bytes] : pieces(e.bytes, 8)) {
    NodeId part = load(piece_type(bytes), mem, ctl, at(pos));  // zero-extending: the upper bits are 0
    if (pos > 0) part = with_imm(X64ShlI, ValueType::I64, part, static_cast<int64_t>(pos * 8));
    acc = acc == kNone ? part : binary(X64Or, ValueType::I64, acc, part);
  }
  // (an SSE eightbyte of other than 4 or 8 bytes: its bytes, moved to xmm)
  return e.sse ? emit(X64Bitcast, {tlit(ValueType::I64), tlit(ValueType::F64)}, {acc}) : acc;
}

void Lowerer::pass_aggregate_in_regs(NodeId ctl, NodeId mem, NodeId ptr, const AbiParam& p, std::vector<NodeId>& regs,
                                     std::vector<NodeId>& xregs) {
  for (const Eightbyte& e : register_eightbytes(p)) (e.sse ? xregs : regs).push_back(load_eightbyte(ctl, mem, ptr, e, false));
}

NodeId Lowerer::store_eightbyte(NodeId ctl, NodeId mem, NodeId v, ValueType vt, NodeId dst, const Eightbyte& e,
                                bool whole) {
  auto at = [&](uint64_t pos) {
    Addr a;
    a.base = dst;
    a.disp = static_cast<int64_t>(e.offset + pos);
    return a;
  };
  if (whole) return store(vt, mem, ctl, v, at(0));
  if (is_float(vt) && e.bytes == (vt == ValueType::F32 ? 4u : 8u)) return store(vt, mem, ctl, v, at(0));
  if (is_float(vt)) {  // the low bytes of an xmm register, through a general one
    ValueType bits = vt == ValueType::F32 ? ValueType::I32 : ValueType::I64;
    v = emit(X64Bitcast, {tlit(vt), tlit(bits)}, {v});
  }
  uint64_t done = 0;
  for (auto [pos, bytes] : pieces(e.bytes, 8)) {
    if (pos > done) v = with_imm(X64ShrI, ValueType::I64, v, static_cast<int64_t>((pos - done) * 8));
    done = pos;
    mem = store(piece_type(bytes), mem, ctl, v, at(pos));
  }
  return mem;
}

NodeId Lowerer::lower_copy(NodeId ctl, NodeId mem, NodeId dst, NodeId src, uint64_t size) {
  if (size > kInlineCopyMax) {
    return emit(X64RepMovsb, {}, {mem, dst, src, movi(ValueType::I64, static_cast<int64_t>(size))}, ctl);
  }
  // All loads first, then the stores: exact even when the ranges overlap.
  auto parts = pieces(size, 8);
  std::vector<NodeId> values;
  for (auto [pos, bytes] : parts) {
    Addr a;
    a.base = src;
    a.disp = static_cast<int64_t>(pos);
    values.push_back(load(piece_type(bytes), mem, ctl, a));
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    Addr a;
    a.base = dst;
    a.disp = static_cast<int64_t>(parts[i].first);
    mem = store(piece_type(parts[i].second), mem, ctl, values[i], a);
  }
  return mem;
}

NodeId Lowerer::lower_call(NodeId old) {
  const Node& nd = node(old);
  AbiSignature abi = call_abi(old);
  NodeId ctl = control(old);
  NodeId mem = value(nd.inputs[0]);
  std::vector<NodeId> regs, xregs;
  std::vector<std::pair<size_t, NodeId>> vectors;  // 16-byte vector arguments: xmm register, address
  uint64_t stack = 0;
  NodeId sret_ptr = kNone;
  NodeId x87_ptr = kNone;
  bool x87_complex = false;
  AbiParam sret;
  auto outarg = [&](uint64_t off) { return emit(X64OutArg, {Literal::integer(static_cast<int64_t>(off))}, {}); };
  for (size_t i = 2; i < nd.inputs.size(); ++i) {
    NodeId arg = nd.inputs[i];
    AbiParam p;
    size_t index = i - 2;
    if (index < abi.params.size()) p = abi.params[index];
    else if (index - abi.params.size() < abi.varargs.size()) p = abi.varargs[index - abi.params.size()];
    else p.type = type(arg);
    NodeId v = value(arg);
    if (p.attr == AbiParam::Attr::SRet && (is_x87(p.classes) || is_complex_x87(p.classes))) {
      // comes back in st(0) (and st(1)): no pointer passed
      x87_ptr = v;
      x87_complex = is_complex_x87(p.classes);
    } else if (p.attr == AbiParam::Attr::SRet && p.in_regs()) {
      sret_ptr = v;
      sret = p;
    } else if (p.attr == AbiParam::Attr::ByVal && p.v128() && xregs.size() + vectors.size() < x64::kXmmArgRegs.size()) {
      vectors.push_back({xregs.size() + vectors.size(), v});
    } else if (p.attr == AbiParam::Attr::ByVal) {
      if (p.in_regs() && regs.size() + p.int_regs() <= kArgRegCount &&
          xregs.size() + vectors.size() + p.sse_regs() <= x64::kXmmArgRegs.size()) {
        pass_aggregate_in_regs(ctl, mem, v, p, regs, xregs);
      } else {
        // An argument aligned to more than 16 bytes sits at its alignment
        // in the outgoing area, which needs rsp aligned as much: the
        // function asks codegen-x64 to realign its body to 64 (ir.h).
        if (p.align > 16) {
          if (p.align > x64::kRealignedStack)
            throw FormatError(Where::in(input().name, node_name(old)),
                              "unsupported: an argument aligned to " + std::to_string(p.align) +
                                  " bytes passed on the stack (at most " + std::to_string(x64::kRealignedStack) + ")");
          out_.attrs.hints |= kHintStackRealign;
        }
        uint64_t off = round_up(stack, std::max<uint64_t>(p.align, 8));
        if (p.size > 0) mem = lower_copy(ctl, mem, outarg(off), v, p.size);
        stack = off + round_up(p.size, 8);
      }
    } else if (is_float(type(arg))) {
      if (xregs.size() + vectors.size() < x64::kXmmArgRegs.size()) {
        xregs.push_back(v);
      } else {
        Addr a;
        a.base = outarg(stack);
        mem = store(type(arg), mem, ctl, v, a);
        stack += 8;
      }
    } else {
      if ((p.attr == AbiParam::Attr::SignExt || p.attr == AbiParam::Attr::ZeroExt) && type_bits(p.type) < 32)
        v = extend(p.attr == AbiParam::Attr::SignExt, p.type, ValueType::I32, v);
      if (regs.size() < kArgRegCount) {
        regs.push_back(v);
      } else {
        Addr a;
        a.base = outarg(stack);
        mem = store(ValueType::I64, mem, ctl, v, a);
        stack += 8;
      }
    }
  }
  // 16-byte vectors: copied to the outgoing area above the stack arguments,
  // 16-aligned, where the call loads each into its xmm register (and a
  // vector result comes back to, from xmm0); literal pairs (opcodes.def).
  LiteralList vector_lits;
  uint64_t vector_area = round_up(stack, 16);
  for (auto [r, ptr] : vectors) {
    mem = lower_copy(ctl, mem, outarg(vector_area), ptr, 16);
    vector_lits.push_back(Literal::integer(static_cast<int64_t>(r)));
    vector_lits.push_back(Literal::integer(static_cast<int64_t>(vector_area)));
    vector_area += 16;
  }
  const bool vector_result = sret_ptr != kNone && sret.v128();
  if (vector_result) {
    vector_lits.push_back(Literal::integer(8));
    vector_lits.push_back(Literal::integer(static_cast<int64_t>(vector_area)));
  }
  // al: the number of vector registers, for a variadic callee; set whenever
  // xmm registers carry arguments (the callee's signature may be unknown).
  const size_t xmm_used = xregs.size() + vectors.size();
  int64_t al = xmm_used > 0 ? static_cast<int64_t>(xmm_used) : abi.known && abi.variadic ? 0 : -1;
  NodeId callee = nd.inputs[1];
  InputList ins = {mem};
  NodeId call;
  LiteralList lits;
  if (op(callee) == SymAddr) {
    lits = {node(callee).literals[0], Literal::integer(al)};
  } else {
    lits = {Literal::integer(al)};
    ins.push_back(value(callee));
  }
  ins.insert(ins.end(), regs.begin(), regs.end());
  ins.insert(ins.end(), xregs.begin(), xregs.end());
  if (!xregs.empty() || !vector_lits.empty()) lits.push_back(Literal::integer(static_cast<int64_t>(xregs.size())));
  lits.insert(lits.end(), vector_lits.begin(), vector_lits.end());
  call = emit(op(callee) == SymAddr ? X64Call : X64CallInd, std::move(lits), std::move(ins), ctl);
  std::optional<ValueType> result = parse_value_type(nd.literals[0].as_string());
  NodeId out_mem = proj(call, 0), rax = proj(call, result && is_float(*result) ? 3 : 1);
  if (nd.literals[0].as_string() == "i1") rax = with_imm(X64AndI, ValueType::I32, rax, 1);  // _Bool: bit 0
  if (vector_result) {  // the call stored xmm0 at the outgoing offset of its last pair
    out_mem = lower_copy(ctl, out_mem, sret_ptr, outarg(static_cast<uint64_t>(vector_lits.back().as_int())), 16);
  } else if (sret_ptr != kNone) {  // the INTEGER eightbytes from rax, rdx, the SSE ones from xmm0, xmm1
    int64_t next_gpr = 1, next_xmm = 3;
    for (const Eightbyte& e : register_eightbytes(sret)) {
      NodeId r = proj(call, e.sse ? next_xmm++ : next_gpr++);
      out_mem = store_eightbyte(ctl, out_mem, r, e.sse ? ValueType::F64 : ValueType::I64, sret_ptr, e, false);
    }
  }
  if (x87_ptr != kNone) {
    out_mem = emit(X64Fstpt, {}, {out_mem, x87_ptr}, ctl);  // st(0), popped
    if (x87_complex) {  // then the imaginary part, now in st(0)
      Addr imag;
      imag.base = x87_ptr;
      imag.disp = 16;
      out_mem = emit(X64Fstpt, {}, {out_mem, lea(imag)}, ctl);
    }
  }
  define_tuple(old, {out_mem, rax});
  return call;
}

}  // namespace pl::lower
