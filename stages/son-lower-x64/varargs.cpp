// varargs.cpp - variadic function definitions for son-lower-x64: the
// System V register save area, va_start and va_arg (FORMAT.md section 3,
// `va_start`, `va_arg`; System V ABI section 3.5.7).
//
// The va_list is the ABI's 24-byte structure in memory:
//   0 gp_offset (i32)  4 fp_offset (i32)  8 overflow_arg_area  16 reg_save_area
// so it can be passed on to vprintf or to gcc-compiled code.
//
// Prologue (save_vararg_registers, called from entry_setup when the function
// has a va_start): the argument registers the named parameters left unused
// are stored to a 176-byte x64:stackslot at their System V offsets (rdi at 0
// ... r9 at 40, 8 bytes each; xmm0 at 48 ... xmm7 at 160, all 16 bytes of
// each, x64:v128.param, as gcc's movaps: a 16-byte vector may be there, and
// va_arg of one reads both halves of its slot). Only those:
// the named ones are the parameters' own x64:argreg nodes, and va_arg never
// reads below gp_offset / fp_offset. (gcc tests al first and skips the xmm
// stores when it is 0; the stores here are unconditional: a caller that
// passes no vector registers leaves them unspecified, and they are not read.)
// va_start: gp_offset = 8 * (general registers the named parameters took),
// fp_offset = 48 + 16 * (xmm registers they took), overflow_arg_area =
// (x64:argslot off) with off the bytes the named stack parameters took,
// reg_save_area = the slot.
// va_arg (integer class): the ABI's algorithm, "take the register save area
// while gp_offset < 48, else the overflow area", done without a branch:
//   addr = gp < 48 ? reg_save_area + gp : overflow_arg_area   (x64:cmov)
//   value = load t [addr]
//   gp_offset = gp < 48 ? gp + 8 : gp;  overflow = gp < 48 ? overflow : overflow + 8
// va_arg of f32/f64 (SSE class) is the same through fp_offset: the limit is
// 176 and a register slot is 16 bytes.
// Departure from the ABI document's diamond: son-lower-x64 lowers one node at
// a time inside its block and does not split blocks, so the two paths are
// selected with cmov (both addresses are computed, only the selected one is
// read). Each cmov gets its own compare (a flags value has one user).
#include <algorithm>

#include "ir/error.h"
#include "rules.h"

namespace pl::lower {

namespace {

constexpr int64_t kGpLimit = 48;          // 6 registers * 8 bytes
constexpr int64_t kFpAllUsed = 176;       // 48 + 8 xmm registers * 16 bytes
constexpr int64_t kSaveAreaBytes = 176;   // 6 general registers, then 8 xmm registers of 16 bytes

Addr at(NodeId base, int64_t disp) {
  Addr a;
  a.base = base;
  a.disp = disp;
  return a;
}

}  // namespace

bool Lowerer::has_va_start() const {
  return std::any_of(in_.nodes.begin(), in_.nodes.end(), [](const Node& n) { return n.op == VaStart; });
}

void Lowerer::save_vararg_registers(NodeId start, NodeId& mem, size_t regs_used, size_t xregs_used,
                                    uint64_t stack_used) {
  va_save_area_ = emit(X64StackSlot, {Literal::integer(kSaveAreaBytes), Literal::integer(16)}, {});
  for (size_t r = regs_used; r < x64::kArgRegs.size(); ++r) {
    NodeId reg = emit(X64ArgReg, {tlit(ValueType::I64), Literal::string(x64::reg_name(x64::kArgRegs[r]))}, {}, start);
    mem = store(ValueType::I64, mem, start, reg, at(va_save_area_, static_cast<int64_t>(8 * r)));
  }
  for (size_t r = xregs_used; r < x64::kXmmArgRegs.size(); ++r)  // all 16 bytes: a vector may be there
    mem = emit(X64V128Param, {Literal::integer(static_cast<int64_t>(r)), Literal::integer(0),
                              Literal::integer(kGpLimit + static_cast<int64_t>(16 * r))},
               {mem, va_save_area_}, start);
  va_gp_offset_ = static_cast<int64_t>(8 * std::min(regs_used, x64::kArgRegs.size()));
  va_fp_offset_ = kGpLimit + static_cast<int64_t>(16 * std::min(xregs_used, x64::kXmmArgRegs.size()));
  va_overflow_offset_ = static_cast<int64_t>(stack_used);
}

NodeId Lowerer::lower_va_start(NodeId old) {
  entry_setup();
  const Node& nd = node(old);
  if (va_save_area_ == kNone)
    throw FormatError(Where::in(in_.name, node_name(old)), "va_start in a function that is not variadic");
  NodeId ctl = control(old), mem = value(nd.inputs[0]);
  Addr ap = address(nd.inputs[1]);
  auto field = [&](int64_t disp) {
    Addr a = ap;
    a.disp += disp;
    return a;
  };
  mem = store(ValueType::I32, mem, ctl, movi(ValueType::I32, va_gp_offset_), field(0));
  mem = store(ValueType::I32, mem, ctl, movi(ValueType::I32, va_fp_offset_), field(4));
  NodeId overflow = emit(X64ArgSlot, {Literal::integer(va_overflow_offset_)}, {});
  mem = store(ValueType::I64, mem, ctl, overflow, field(8));
  return store(ValueType::I64, mem, ctl, va_save_area_, field(16));
}

NodeId Lowerer::lower_va_arg(NodeId old) {
  const Node& nd = node(old);
  if (nd.literals.size() > 1) return lower_va_arg_aggregate(old);
  ValueType t = lit_type(old);
  NodeId ctl = control(old), mem = value(nd.inputs[0]);
  NodeId ap = lea(address(nd.inputs[1]));
  // The integer class reads gp_offset (at 0, registers below 48, 8 bytes
  // each), the SSE class fp_offset (at 4, below 176, 16 bytes each).
  const bool sse = is_float(t);
  const int64_t field = sse ? 4 : 0, limit = sse ? kFpAllUsed : kGpLimit, step = sse ? 16 : 8;
  NodeId gp = extend(false, ValueType::I32, ValueType::I64, load(ValueType::I32, mem, ctl, at(ap, field)));
  NodeId overflow = load(ValueType::I64, mem, ctl, at(ap, 8));
  NodeId save_area = load(ValueType::I64, mem, ctl, at(ap, 16));
  Addr in_regs = at(save_area, 0);
  in_regs.index = gp;
  in_regs.scale = 1;
  NodeId reg_addr = lea(in_regs);
  NodeId next_gp = with_imm(X64AddI, ValueType::I64, gp, step);
  NodeId next_overflow = with_imm(X64AddI, ValueType::I64, overflow, 8);
  const std::string below(x64::cond_name(x64::Cond::B));
  // cmov's result is input 2 when the condition holds, else input 1.
  auto select = [&](NodeId if_regs, NodeId if_overflow) {
    NodeId flags = emit(X64CmpI, {tlit(ValueType::I64), Literal::integer(limit)}, {gp});
    return emit(X64CMov, {Literal::string(below), tlit(ValueType::I64)}, {flags, if_overflow, if_regs});
  };
  NodeId addr = select(reg_addr, overflow);
  NodeId v = load(t, mem, ctl, at(addr, 0));
  NodeId m = store(ValueType::I32, mem, ctl, select(next_gp, gp), at(ap, field));
  m = store(ValueType::I64, m, ctl, select(overflow, next_overflow), at(ap, 8));
  define_tuple(old, {m, v});
  return m;
}

// va_arg of an aggregate (`va_arg "ptr", "ptr byval(S,A,CLASSES)"`): its
// address. One classified in registers (ni INTEGER and ns SSE eightbytes)
// comes from the register save area when gp_offset <= 48 - 8 ni and
// fp_offset <= 176 - 16 ns, else from the overflow area; either way its
// eightbytes are copied into a slot of this node, whose address is the
// result: each eightbyte's source address is selected with cmov (the
// INTEGER ones at reg_save_area + gp_offset + 8 i, the SSE ones at
// reg_save_area + fp_offset + 16 j, or overflow_arg_area + 8 k), and read
// with accesses of its exact size. gp_offset and fp_offset then advance
// past its registers, or overflow_arg_area past its ceil(S/8) words. A
// MEMORY aggregate is read in place: its address is overflow_arg_area
// (aligned up to A when A > 8, as the caller placed it), which then
// advances by ceil(S/8) words. A 16-byte vector (classes `su`, one xmm
// register) takes one SSE slot, all 16 bytes of it, as gcc reads one.
NodeId Lowerer::lower_va_arg_aggregate(NodeId old) {
  const Node& nd = node(old);
  AbiParam p;
  try {
    p = parse_abi_param(nd.literals[1].as_string());
  } catch (const std::exception& e) {
    throw FormatError(Where::in(in_.name, node_name(old)), std::string("bad va_arg aggregate type: ") + e.what());
  }
  NodeId ctl = control(old), mem = value(nd.inputs[0]);
  NodeId ap = lea(address(nd.inputs[1]));
  NodeId overflow = load(ValueType::I64, mem, ctl, at(ap, 8));
  if (p.align > 8) {
    overflow = with_imm(X64AddI, ValueType::I64, overflow, static_cast<int64_t>(p.align - 1));
    overflow = with_imm(X64AndI, ValueType::I64, overflow, -static_cast<int64_t>(p.align));
  }
  const int64_t words = static_cast<int64_t>((p.size + 7) / 8 * 8);
  if (!p.in_regs()) {
    NodeId m = store(ValueType::I64, mem, ctl, with_imm(X64AddI, ValueType::I64, overflow, words), at(ap, 8));
    define_tuple(old, {m, overflow});
    return m;
  }
  const int64_t ni = static_cast<int64_t>(p.int_regs()), ns = static_cast<int64_t>(p.sse_regs());
  NodeId gp = extend(false, ValueType::I32, ValueType::I64, load(ValueType::I32, mem, ctl, at(ap, 0)));
  NodeId fp = extend(false, ValueType::I32, ValueType::I64, load(ValueType::I32, mem, ctl, at(ap, 4)));
  NodeId save_area = load(ValueType::I64, mem, ctl, at(ap, 16));
  const std::string below_or_equal(x64::cond_name(x64::Cond::BE));
  // in_regs ? if_regs : if_overflow, in_regs = both offsets leave room
  // (a cmov per condition, each with its own compare).
  auto select = [&](NodeId if_regs, NodeId if_overflow) {
    NodeId v = if_regs;
    if (ni > 0) {
      NodeId flags = emit(X64CmpI, {tlit(ValueType::I64), Literal::integer(kGpLimit - 8 * ni)}, {gp});
      v = emit(X64CMov, {Literal::string(below_or_equal), tlit(ValueType::I64)}, {flags, if_overflow, v});
    }
    if (ns > 0) {
      NodeId flags = emit(X64CmpI, {tlit(ValueType::I64), Literal::integer(kFpAllUsed - 16 * ns)}, {fp});
      v = emit(X64CMov, {Literal::string(below_or_equal), tlit(ValueType::I64)}, {flags, if_overflow, v});
    }
    return v;
  };
  NodeId slot = emit(X64StackSlot, {Literal::integer(std::max<int64_t>(words, 8)),
                                    Literal::integer(static_cast<int64_t>(std::max<uint64_t>(p.align, 8)))}, {});
  NodeId m = mem;
  int64_t next_int = 0, next_sse = 0;
  std::vector<Eightbyte> pieces = register_eightbytes(p);
  if (p.v128()) pieces = {Eightbyte{.offset = 0, .bytes = 8, .sse = true}, Eightbyte{.offset = 8, .bytes = 8, .sse = true}};
  for (const Eightbyte& e : pieces) {
    // (a 16-byte vector: both halves of one xmm slot, 16 bytes apart from the next)
    Addr in_regs = at(save_area, e.sse ? (p.v128() ? static_cast<int64_t>(e.offset) : 16 * next_sse++) : 8 * next_int++);
    in_regs.index = e.sse ? fp : gp;
    in_regs.scale = 1;
    NodeId in_overflow = e.offset == 0 ? overflow : with_imm(X64AddI, ValueType::I64, overflow, static_cast<int64_t>(e.offset));
    NodeId from = select(lea(in_regs), in_overflow);
    Eightbyte piece = e;
    piece.offset = 0;
    piece.sse = false;  // moved as bytes, through a general register
    NodeId bytes = load_eightbyte(ctl, mem, from, piece, false);
    m = store(ValueType::I64, m, ctl, bytes, at(slot, static_cast<int64_t>(e.offset)));
  }
  if (ni > 0) m = store(ValueType::I32, m, ctl, select(with_imm(X64AddI, ValueType::I64, gp, 8 * ni), gp), at(ap, 0));
  if (ns > 0) m = store(ValueType::I32, m, ctl, select(with_imm(X64AddI, ValueType::I64, fp, 16 * ns), fp), at(ap, 4));
  m = store(ValueType::I64, m, ctl, select(overflow, with_imm(X64AddI, ValueType::I64, overflow, words)), at(ap, 8));
  define_tuple(old, {m, slot});
  return m;
}

}  // namespace pl::lower
