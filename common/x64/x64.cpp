// x64.cpp - the x86-64 machine model (x64.h): register names, condition
// codes, and the decoding of the machine columns of opcodes.def.
#include "x64/x64.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ir/asm.h"
#include "ir/eval.h"

namespace pl::x64 {

namespace {

constexpr std::array<std::string_view, kNumRegs> kNames64 = {
    "rax",  "rcx",  "rdx",  "rbx",   "rsp",   "rbp",   "rsi",   "rdi",   "r8",    "r9",    "r10",
    "r11",  "r12",  "r13",  "r14",   "r15",   "xmm0",  "xmm1",  "xmm2",  "xmm3",  "xmm4",  "xmm5",
    "xmm6", "xmm7", "xmm8", "xmm9",  "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"};
constexpr std::array<std::string_view, 16> kNames32 = {"eax", "ecx", "edx",  "ebx",  "esp",  "ebp",  "esi",  "edi",
                                                       "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"};
constexpr std::array<std::string_view, 16> kNames16 = {"ax",  "cx",  "dx",   "bx",   "sp",   "bp",   "si",   "di",
                                                       "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"};
constexpr std::array<std::string_view, 16> kNames8 = {"al",  "cl",  "dl",   "bl",   "spl",  "bpl",  "sil",  "dil",
                                                      "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"};
constexpr std::array<std::string_view, 16> kCondNames = {"o", "no", "b", "ae", "e", "ne", "be", "a",
                                                         "s", "ns", "p", "np", "l", "ge", "le", "g"};

// The machine columns of every row, in table order (kNumOps entries; rows
// that are not x64 have tied = -2 as a marker).
struct Row {
  int tied;
  std::string_view regs;
  std::string_view clobbers;
};
constexpr Row kRows[] = {
#define OP(e, name, lits, ins, res, ctrl, flags, levels) {-2, "", ""},
#define X64(e, name, lits, ins, res, ctrl, flags, tied, regs, clobbers) {tied, regs, clobbers},
#define X64RA(e, name, lits, ins, res, ctrl, flags, tied, regs, clobbers) {tied, regs, clobbers},
#include "ir/opcodes.def"
#undef X64RA
#undef X64
#undef OP
};
static_assert(sizeof(kRows) / sizeof(kRows[0]) == kNumOps);

[[noreturn]] void bad_row(OpId op, const std::string& why) {
  throw std::logic_error("opcodes.def: row '" + std::string(op_info(op).name) + "': " + why);
}

std::optional<Reg> letter_reg(char c) {
  switch (c) {
    case 'x': return Reg::Xmm0;
    case 'y': return Reg::Xmm1;
    case 'a': return Reg::Rax;
    case 'c': return Reg::Rcx;
    case 'd': return Reg::Rdx;
    case 'D': return Reg::Rdi;
    case 'S': return Reg::Rsi;
    default: return std::nullopt;
  }
}

OperandConstraint decode_letter(OpId op, char c) {
  switch (c) {
    case '-': return {Fixed::None};
    case '.': return {Fixed::Any};
    case '*': return {Fixed::ArgRegs};
    case 'R': return {Fixed::RetRegs};
    case '@': return {Fixed::LiteralReg};
    case 's': return {Fixed::Slot};
    default:
      if (auto r = letter_reg(c)) return {Fixed::Reg, *r};
      bad_row(op, std::string("unknown register letter '") + c + "'");
  }
}

size_t shape_letters(std::string_view shape) {
  size_t n = 0;
  for (char c : shape)
    if (c != '*' && c != '?') ++n;
  return n;
}

Constraints decode(OpId op) {
  const OpInfo& info = op_info(op);
  const Row& row = kRows[op];
  Constraints c;
  c.tied = row.tied;
  size_t gt = row.regs.find('>');
  if (gt == std::string_view::npos) bad_row(op, "regs has no '>'");
  std::string_view ins = row.regs.substr(0, gt), outs = row.regs.substr(gt + 1);
  if (ins.size() != shape_letters(info.inputs)) bad_row(op, "regs: one letter per input-shape letter");
  size_t results = shape_letters(info.results);
  if (outs.size() != results) bad_row(op, "regs: one letter per result");
  if (ins.size() > c.inputs.size() || outs.size() > c.results.size()) bad_row(op, "too many operands");
  for (size_t i = 0; i < ins.size(); ++i) c.inputs[i] = decode_letter(op, ins[i]);
  for (size_t i = 0; i < outs.size(); ++i) c.results[i] = decode_letter(op, outs[i]);
  c.num_inputs = static_cast<uint8_t>(ins.size());
  c.num_results = static_cast<uint8_t>(outs.size());
  c.repeats = !info.inputs.empty() && (info.inputs.back() == '*' || info.inputs.back() == '?');
  for (char k : row.clobbers) {
    if (k == 'F') c.clobbers_flags = true;
    else if (k == 'C') c.clobbers |= kCallerSaved;
    else if (auto r = letter_reg(k)) c.clobbers |= reg_bit(*r);
    else bad_row(op, std::string("unknown clobber letter '") + k + "'");
  }
  // Rows with an address end their literal shape in `xdy?` (scale,
  // displacement, symbol) and their input shape in `v*` (base and index).
  std::string_view lits = info.literals;
  if (lits.size() >= 4 && lits.substr(lits.size() - 4) == "xdy?") {
    c.address_literal = static_cast<int>(shape_letters(lits) - 3);
    c.address_input = static_cast<int>(shape_letters(info.inputs) - 1);
  }
  if (c.tied >= 0 && static_cast<size_t>(c.tied) >= shape_letters(info.inputs)) bad_row(op, "tied input out of range");
  return c;
}

struct Table {
  std::array<Constraints, kNumOps> rows{};
  Table() {
    for (OpId op = 0; op < kNumOps; ++op)
      if (kRows[op].tied != -2) rows[op] = decode(op);
  }
};

// Built once, before main: constraints() is on the register allocator's
// hot path, where a function-local static's guard cost 2% of its time.
// Table's constructor reads only this file's constexpr rows and the opcode
// table (constexpr too), so the order of static initialisation between
// files does not matter.
const Table kTable;

const Table& table() { return kTable; }

}  // namespace

std::string_view reg_name(Reg r) { return kNames64[static_cast<size_t>(r)]; }

std::optional<Reg> parse_reg(std::string_view name) {
  for (size_t i = 0; i < kNames64.size(); ++i)
    if (kNames64[i] == name) return static_cast<Reg>(i);
  return std::nullopt;
}

std::string_view reg_name_sized(Reg r, unsigned bits) {
  size_t i = static_cast<size_t>(r);
  if (reg_class(r) == RegClass::Xmm || bits >= 64) return kNames64[i];
  if (bits > 16) return kNames32[i];
  if (bits > 8) return kNames16[i];
  return kNames8[i];
}

std::string place_name(Place p) {
  if (p.is_reg()) return std::string(kNames64[p.reg()]);
  if (p.is_slot()) return "s" + std::to_string(p.slot());
  return {};
}

std::optional<Place> parse_place(std::string_view name) {
  if (name.size() >= 2 && name[0] == 's' && name[1] >= '0' && name[1] <= '9') {
    if (name.size() > 2 && name[1] == '0') return std::nullopt;  // one spelling per slot
    unsigned n = 0;
    for (char c : name.substr(1)) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + static_cast<unsigned>(c - '0');
      if (n > Place::kMaxSlot) return std::nullopt;
    }
    return Place::slot(n);
  }
  if (std::optional<Reg> r = parse_reg(name)) return place_of(*r);
  return std::nullopt;
}

std::optional<Cond> parse_cond(std::string_view name) {
  for (size_t i = 0; i < kCondNames.size(); ++i)
    if (kCondNames[i] == name) return static_cast<Cond>(i);
  return std::nullopt;
}

std::string_view cond_name(Cond c) { return kCondNames[static_cast<size_t>(c)]; }

Cond swap_operands(Cond c) {
  switch (c) {
    case Cond::B: return Cond::A;
    case Cond::AE: return Cond::BE;
    case Cond::BE: return Cond::AE;
    case Cond::A: return Cond::B;
    case Cond::L: return Cond::G;
    case Cond::GE: return Cond::LE;
    case Cond::LE: return Cond::GE;
    case Cond::G: return Cond::L;
    default: return c;  // o no e ne s ns p np: symmetric or not about order
  }
}

OperandConstraint Constraints::input(size_t i) const {
  size_t fixed = repeats ? num_inputs - 1u : num_inputs;
  if (i < fixed) return inputs[i];
  if (num_inputs == 0) return {Fixed::None};
  OperandConstraint rep = inputs[num_inputs - 1];
  size_t k = i - fixed;
  if (rep.kind == Fixed::ArgRegs) return k < kArgRegs.size() ? OperandConstraint{Fixed::Reg, kArgRegs[k]}
                                                             : OperandConstraint{Fixed::Any};
  if (rep.kind == Fixed::RetRegs) return k < kReturnRegs.size() ? OperandConstraint{Fixed::Reg, kReturnRegs[k]}
                                                                : OperandConstraint{Fixed::Any};
  return rep;
}

bool rematerializable(const Node& n) {
  return n.op == Op::X64MovI || n.op == Op::X64FConst || n.op == Op::X64FZero ||
         (n.op == Op::X64Lea && n.inputs.empty());
}

ColdCallees::ColdCallees(const ModuleHeader& header) {
  for (const Extern& e : header.externs)
    if (e.kind == ExternKind::Function && (e.attrs.has(kHintCold) || e.attrs.has(kHintNoreturn)))
      names_.push_back(e.name);
  std::sort(names_.begin(), names_.end());
}

bool ColdCallees::is_cold_call(const Node& n) const {
  if (n.op != Op::X64Call || n.literals.empty() || n.literals[0].kind() != Literal::Kind::String || names_.empty())
    return false;
  return std::binary_search(names_.begin(), names_.end(), n.literals[0].as_string());
}

std::optional<unsigned> operand_bits(const Node& n) {
  if (n.literals.empty()) return std::nullopt;
  std::optional<ValueType> t = literal_value_type(n.literals[0]);
  if (!t || *t == ValueType::I1) return std::nullopt;
  return type_bits(*t);
}

ResultFlags result_flags(const Node& n) {
  switch (n.op) {
    case X64Add: case X64Sub: case X64AddI: case X64SubI: case X64Neg:
      return ResultFlags::ZeroSign;
    case X64And: case X64Or: case X64Xor: case X64AndI: case X64OrI: case X64XorI:
      return ResultFlags::Logic;
    case X64ShlI: case X64ShrI: case X64SarI: {
      // A count of 0 leaves the flags unchanged; 1 to bits-1 sets ZF, SF and
      // PF from the result (OF only for 1, CF the last bit out).
      std::optional<unsigned> bits = operand_bits(n);
      if (!bits || n.literals.size() < 2 || !n.literals[1].is_int()) return ResultFlags::None;
      uint64_t count = n.literals[1].bits();
      return count >= 1 && count < *bits ? ResultFlags::ZeroSign : ResultFlags::None;
    }
    default:
      return ResultFlags::None;
  }
}

bool result_flags_read(ResultFlags k, Cond c) {
  switch (k) {
    case ResultFlags::Logic: return true;
    case ResultFlags::ZeroSign:
      return c == Cond::E || c == Cond::NE || c == Cond::S || c == Cond::NS || c == Cond::P || c == Cond::NP;
    default: return false;
  }
}

std::optional<ValueType> x64_result_type(const Node& n, unsigned k) {
  auto lit = [&](size_t i) -> std::optional<ValueType> {
    return i < n.literals.size() ? literal_value_type(n.literals[i]) : std::nullopt;
  };
  if (n.op == X64Asm) {
    if (k == 0) return std::nullopt;
    try {
      size_t seen = 0;
      for (const AsmOperand& op : asm_operands(n))
        if (op.yields_value() && ++seen == k) return op.type;
    } catch (const std::exception&) {
    }
    return std::nullopt;
  }
  if (!is_x64(n.op) || k >= op_info(n.op).results.size() || op_info(n.op).results[k] != 'v') return std::nullopt;
  switch (n.op) {
    case X64MovSX: case X64MovZX: case X64LoadSX: case X64LoadZX: case X64LoadSXV: case X64LoadZXV:
    case X64CMov: case X64CvtSI2F: case X64CvtTF2SI: case X64CvtF2F: case X64Bitcast: case X64CvtSI2FM:
      return lit(1);
    case X64Mov: case X64Spill: case X64Reload: case X64Xchg: case X64StackSlot: case X64ArgSlot:
    case X64OutArg: case X64LoadGot: case X64TlsLe: case X64TlsIe: case X64TlsGd: case X64Call: case X64CallInd: case X64Mul1: case X64Imul1:
    case X64Div: case X64Idiv: case X64SetCC: case X64F80Cmp:
    case X64V128Load: case X64V128Apply: case X64V128Splat:
      if ((n.op == X64Call || n.op == X64CallInd) && k >= 3) return ValueType::F64;  // xmm0, xmm1
      if (n.op == X64V128Load || n.op == X64V128Apply || n.op == X64V128Splat) return ValueType::V128;
      return n.op == X64Mov || n.op == X64Spill || n.op == X64Reload || n.op == X64Xchg ? std::nullopt
                                                                                     : std::optional(ValueType::I64);
    default:
      if (op_info(n.op).literals.empty()) return std::nullopt;
      return lit(0);
  }
}

std::string_view class_name(RegClass c) { return c == RegClass::Xmm ? "xmm" : "general"; }

std::optional<RegClass> input_class(const Node& n, size_t i) {
  auto lit_class = [&](size_t k) -> std::optional<RegClass> {
    std::optional<ValueType> t = k < n.literals.size() ? literal_value_type(n.literals[k]) : std::nullopt;
    return t ? std::optional(type_class(*t)) : std::nullopt;
  };
  // A fixed register (call arguments and return values included) says it.
  if (OperandConstraint oc = input_constraint(n, i); oc.kind == Fixed::Reg) return reg_class(oc.reg);
  switch (n.op) {
    case X64Mov: case X64Spill: case X64Reload: case X64Xchg: return std::nullopt;
    case X64FAdd: case X64FSub: case X64FMul: case X64FDiv: case X64FSqrt: case X64FXor: case X64FAnd:
    case X64Ucomis: case X64CvtTF2SI: case X64CvtF2F:
      return RegClass::Xmm;
    case X64FAddM: case X64FSubM: case X64FMulM: case X64FDivM: case X64UcomisM:
      return i == 1 ? RegClass::Xmm : RegClass::Gpr;  // the register operand; the memory one's address
    case X64Bitcast: return lit_class(0);
    case X64F80From: return i == 2 ? lit_class(0) : RegClass::Gpr;  // the value converted
    case X64Store: case X64StoreI: return i == 1 && n.op == X64Store ? lit_class(0) : RegClass::Gpr;
    case X64V128Store: return i == 1 ? RegClass::Xmm : RegClass::Gpr;
    case X64V128Apply: case X64V128Extract: return RegClass::Xmm;
    case X64V128Splat: return lit_class(0);
    default: return RegClass::Gpr;
  }
}

std::vector<RegClass> value_classes(const Function& fn) {
  const size_t n = fn.nodes.size();
  std::vector<RegClass> cls(n, RegClass::Gpr);
  std::vector<uint8_t> known(n, 0);
  // Nodes whose class comes from another node's: copies (mov, spill,
  // reload, an exchange's projections) and phis. Only they take part in
  // the fixpoint below, so it does not walk the whole function again.
  std::vector<NodeId> copies;
  auto is_xchg_proj = [&](const Node& node) {
    return node.op == Proj && !node.inputs.empty() && node.inputs[0] < n && fn.nodes[node.inputs[0]].op == X64Xchg &&
           !node.literals.empty() && node.literals[0].is_int();
  };
  for (NodeId id = 0; id < n; ++id) {
    const Node& node = fn.nodes[id];
    if (node.op == X64Mov || node.op == X64Spill || node.op == X64Reload || node.op == Phi || is_xchg_proj(node)) {
      copies.push_back(id);
      continue;
    }
    if (node.op == Proj && !node.inputs.empty() && node.inputs[0] < n && !node.literals.empty() &&
        node.literals[0].is_int()) {
      const Node& tuple = fn.nodes[node.inputs[0]];
      if (std::optional<ValueType> t = x64_result_type(tuple, static_cast<unsigned>(node.literals[0].bits())))
        cls[id] = type_class(*t), known[id] = 1;
      continue;
    }
    if (std::optional<ValueType> t = x64_result_type(node)) cls[id] = type_class(*t), known[id] = 1;
  }
  // Copies and phis take their inputs' class; undefined inputs of a phi
  // take the phi's. Classes only move from known to unknown nodes, so this
  // ends after at most as many rounds as there are copies (in practice two
  // or three, the first in node order doing most of the work).
  for (bool changed = true; changed;) {
    changed = false;
    auto learn = [&](NodeId to, NodeId from) {
      if (to < n && from < n && known[from] && !known[to]) cls[to] = cls[from], known[to] = 1, changed = true;
    };
    for (NodeId id : copies) {
      const Node& node = fn.nodes[id];
      if (node.op == Phi) {
        for (NodeId in : node.inputs) learn(id, in);
        if (known[id])
          for (NodeId in : node.inputs)
            if (in < n && fn.nodes[in].op == Undef) learn(in, id);
      } else if (node.op == Proj) {
        const Node& x = fn.nodes[node.inputs[0]];
        size_t k = node.literals[0].bits();
        if (k < x.inputs.size()) learn(id, x.inputs[k]);
      } else if (!node.inputs.empty()) {
        learn(id, node.inputs[0]);
      }
    }
  }
  // An undefined value no phi gives a class to has the class its first
  // reader reads it in (a `double` function falling off its end returns an
  // undefined value in xmm0), also through copies of it (the allocator's
  // x64:mov into xmm0), which then take its class.
  auto is_copy = [](const Node& node) { return node.op == X64Mov || node.op == X64Spill || node.op == X64Reload; };
  for (bool changed = true; changed;) {
    changed = false;
    for (NodeId id = 0; id < n; ++id) {
      const Node& node = fn.nodes[id];
      if (!is_x64(node.op) || node.op == X64Xchg) continue;
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        NodeId in = node.inputs[i];
        if (in >= n || known[in] || (fn.nodes[in].op != Undef && !is_copy(fn.nodes[in]))) continue;
        std::optional<RegClass> c = is_copy(node) ? (known[id] ? std::optional(cls[id]) : std::nullopt)
                                                  : input_class(node, i);
        if (c) cls[in] = *c, known[in] = 1, changed = true;
      }
      if (is_copy(node) && !known[id] && !node.inputs.empty() && node.inputs[0] < n && known[node.inputs[0]])
        cls[id] = cls[node.inputs[0]], known[id] = 1, changed = true;
    }
  }
  return cls;
}

std::vector<uint8_t> v128_values(const Function& fn) {
  const size_t n = fn.nodes.size();
  std::vector<uint8_t> vec(n, 0);
  std::vector<NodeId> copies;
  for (NodeId id = 0; id < n; ++id) {
    const Node& node = fn.nodes[id];
    if (node.op == X64Mov || node.op == X64Spill || node.op == X64Reload || node.op == Phi) copies.push_back(id);
    else if (x64_result_type(node) == ValueType::V128) vec[id] = 1;
  }
  // Copies and phis of a vector are vectors (a phi's inputs share its
  // class, rule L; a vector phi's undefined inputs are vectors too).
  for (bool changed = true; changed;) {
    changed = false;
    for (NodeId id : copies) {
      const Node& node = fn.nodes[id];
      bool any = false;
      for (NodeId in : node.inputs)
        if (in < n && vec[in]) any = true;
      if (any && !vec[id]) vec[id] = 1, changed = true;
      if (node.op == Phi && vec[id])
        for (NodeId in : node.inputs)
          if (in < n && fn.nodes[in].op == Undef && !vec[in]) vec[in] = 1, changed = true;
    }
  }
  return vec;
}

size_t xmm_args(const Node& n) {
  size_t lit = n.op == X64Call ? 2 : n.op == X64CallInd ? 1 : SIZE_MAX;
  if (lit == SIZE_MAX || n.literals.size() <= lit || n.literals[lit].kind() != Literal::Kind::Int) return 0;
  int64_t v = n.literals[lit].as_int();
  return v > 0 ? static_cast<size_t>(v) : 0;
}

CallVectors call_vectors(const Node& n) {
  CallVectors v;
  size_t lit = n.op == X64Call ? 3 : n.op == X64CallInd ? 2 : SIZE_MAX;
  if (lit == SIZE_MAX || n.literals.size() <= lit) return v;
  if ((n.literals.size() - lit) % 2 != 0) {
    v.problem = "its 16-byte vector literals are not pairs (register, outgoing offset)";
    return v;
  }
  for (size_t i = lit; i + 1 < n.literals.size(); i += 2) {
    if (!n.literals[i].is_int() || !n.literals[i + 1].is_int()) {
      v.problem = "its 16-byte vector literals are not integers";
      return v;
    }
    int64_t r = n.literals[i].as_int(), off = n.literals[i + 1].as_int();
    if (r < 0 || r > 8) {
      v.problem = "a 16-byte vector in xmm" + std::to_string(r) + " (arguments in xmm0-xmm7, 8 for the result)";
      return v;
    }
    if (off < 0 || off % 16 != 0 || off >= (int64_t{1} << 24)) {
      v.problem = "a 16-byte vector at outgoing offset " + std::to_string(off) + " (a multiple of 16 below 16 MiB)";
      return v;
    }
    if (r == 8) {
      if (v.has_result) {
        v.problem = "two 16-byte vector results";
        return v;
      }
      v.has_result = true;
      v.result = off;
    } else {
      if ((v.arg_mask >> r) & 1) {
        v.problem = "two 16-byte vectors in xmm" + std::to_string(r);
        return v;
      }
      v.arg_mask = static_cast<uint8_t>(v.arg_mask | (1u << r));
      v.args[static_cast<size_t>(r)] = off;
    }
  }
  return v;
}

std::optional<Reg> xmm_arg_reg(const Node& n, size_t k) {
  uint8_t taken = call_vectors(n).arg_mask;
  for (size_t r = 0; r < kXmmArgRegs.size(); ++r) {
    if ((taken >> r) & 1) continue;
    if (k == 0) return kXmmArgRegs[r];
    --k;
  }
  return std::nullopt;
}

uint64_t ret_xmm_mask(const Node& n) {
  if (n.op != X64Ret || n.literals.empty() || n.literals[0].kind() != Literal::Kind::Int) return 0;
  return n.literals[0].bits();
}

namespace {

// The register of an x64:asm operand (its literal's last part).
std::optional<Reg> asm_reg(const AsmOperand& op) { return op.reg.empty() ? std::nullopt : parse_reg(op.reg); }

OperandConstraint asm_input_constraint(const Node& n, size_t i) {
  if (i == 0) return {Fixed::None};
  try {
    size_t seen = 0;
    for (const AsmOperand& op : asm_operands(n))
      if (op.reads_value() && ++seen == i) {
        if (std::optional<Reg> r = asm_reg(op)) return {Fixed::Reg, *r};
        return {Fixed::Any};
      }
  } catch (const std::exception&) {
  }
  return {Fixed::Any};
}

std::optional<Reg> clobber_reg(const std::string& name) {
  if (std::optional<Reg> r = parse_reg(name)) return r;
  return std::nullopt;
}

}  // namespace

Constraints node_constraints(const Node& n) {
  if (n.op != X64Asm) return constraints(n.op);
  Constraints c = constraints(n.op);
  c.num_results = 1;
  c.results[0] = {Fixed::None};
  c.clobbers = 0;
  c.clobbers_flags = true;
  try {
    for (const AsmOperand& op : asm_operands(n)) {
      if (!op.yields_value()) continue;
      if (c.num_results >= c.results.size()) break;
      std::optional<Reg> r = asm_reg(op);
      c.results[c.num_results++] = r ? OperandConstraint{Fixed::Reg, *r} : OperandConstraint{Fixed::Any};
    }
    for (const std::string& name : asm_clobbers(n))
      if (std::optional<Reg> r = clobber_reg(name)) c.clobbers |= reg_bit(*r);
  } catch (const std::exception&) {
    c.num_results = 1;
  }
  return c;
}

std::string check_asm_registers(const Node& n) {
  std::vector<AsmOperand> ops;
  try {
    ops = asm_operands(n);
  } catch (const std::exception& e) {
    return e.what();
  }
  RegMask clobbered = 0;
  for (const std::string& name : asm_clobbers(n)) {
    if (name == "memory" || name == "cc") continue;
    std::optional<Reg> r = clobber_reg(name);
    if (!r) return "clobber '" + name + "' is not a register's 64-bit name";
    if (*r == Reg::Rsp) return "rsp cannot be clobbered";
    clobbered |= reg_bit(*r);
  }
  if (asm_value_results(ops) > kMaxAsmOutputs)
    return "more than " + std::to_string(kMaxAsmOutputs) + " register outputs";
  RegMask used = 0, shareable = 0;  // shareable: "=" outputs' registers an input may take too
  for (size_t k = 0; k < ops.size(); ++k) {
    const AsmOperand& op = ops[k];
    if (op.cls == 'i') continue;
    std::string where = "operand " + std::to_string(k) + ": ";
    std::optional<Reg> r = asm_reg(op);
    if (!r) return where + "'" + op.reg + "' is not a register's 64-bit name";
    if (*r == Reg::Rsp) return where + "rsp is never an operand's register";
    bool xmm = reg_class(*r) == RegClass::Xmm;
    if (xmm != is_float(op.type)) return where + "a " + std::string(value_type_name(op.type)) + " operand in " + op.reg;
    if (op.cls == 'Q' && *r != Reg::Rax && *r != Reg::Rbx && *r != Reg::Rcx && *r != Reg::Rdx)
      return where + "a Q operand is in rax, rbx, rcx or rdx, not " + op.reg;
    if (op.cls == '{' && op.fixed != op.reg) return where + "the register is fixed to " + op.fixed + ", not " + op.reg;
    if (op.cls == 'N') {
      if (ops[op.match].reg != op.reg) return where + "matches operand " + std::to_string(op.match) + " in " +
                                              ops[op.match].reg + ", not " + op.reg;
      continue;
    }
    if (clobbered & reg_bit(*r)) return where + op.reg + " is clobbered";
    if (!op.output && (shareable & reg_bit(*r))) {
      shareable &= ~reg_bit(*r);  // one input per output's register
      continue;
    }
    if (used & reg_bit(*r)) return where + op.reg + " is another operand's register";
    used |= reg_bit(*r);
    if (op.output && !op.inout && !op.early) shareable |= reg_bit(*r);
  }
  return "";
}

OperandConstraint input_constraint(const Node& n, size_t i) {
  if (n.op == X64Asm) return asm_input_constraint(n, i);
  const Constraints& c = constraints(n.op);
  if (n.op == X64Call || n.op == X64CallInd) {
    size_t fixed = n.op == X64Call ? 1 : 2, nx = xmm_args(n);
    size_t args = n.inputs.size() > fixed ? n.inputs.size() - fixed : 0;
    if (i >= fixed && nx > 0 && nx <= args && i - fixed >= args - nx) {
      std::optional<Reg> r = xmm_arg_reg(n, i - fixed - (args - nx));
      return r ? OperandConstraint{Fixed::Reg, *r} : OperandConstraint{Fixed::Any};
    }
    return c.input(i);
  }
  if (n.op == X64Ret && i >= 1) {
    uint64_t mask = ret_xmm_mask(n);
    size_t gpr = 0, xmm = 0;
    for (size_t v = 1; v < i; ++v) ((mask >> (v - 1)) & 1 ? xmm : gpr)++;
    if ((mask >> (i - 1)) & 1)
      return xmm < kXmmReturnRegs.size() ? OperandConstraint{Fixed::Reg, kXmmReturnRegs[xmm]} : OperandConstraint{Fixed::Any};
    return gpr < kReturnRegs.size() ? OperandConstraint{Fixed::Reg, kReturnRegs[gpr]} : OperandConstraint{Fixed::Any};
  }
  return c.input(i);
}

ForbiddenRegs forbidden_input_regs(const Node& n, size_t i) {
  if (n.op == X64CallInd && i == 1 && !n.literals.empty() && n.literals[0].kind() == Literal::Kind::Int &&
      n.literals[0].as_int() >= 0)
    return {reg_bit(Reg::Rax), "the callee of a variadic call, which sets al (rax) before it calls"};
  return {};
}

bool is_x64(OpId op) { return op < kNumOps && kRows[op].tied != -2; }

OpId register_form(OpId op) {
  switch (op) {
    case X64AddM: return X64Add;
    case X64SubM: return X64Sub;
    case X64AndM: return X64And;
    case X64OrM: return X64Or;
    case X64XorM: return X64Xor;
    case X64ImulM: return X64Imul;
    case X64FAddM: return X64FAdd;
    case X64FSubM: return X64FSub;
    case X64FMulM: return X64FMul;
    case X64FDivM: return X64FDiv;
    case X64FSqrtM: return X64FSqrt;
    case X64CvtSI2FM: return X64CvtSI2F;
    case X64CmpM: return X64Cmp;
    case X64CmpMI: return X64CmpI;
    case X64UcomisM: return X64Ucomis;
    default: return kNumOps;
  }
}

bool is_memory_operand_form(OpId op) { return register_form(op) != kNumOps; }

const Constraints& constraints(OpId op) { return table().rows[op]; }

bool has_dynamic_stack(const Function& fn) {
  if (fn.attrs.has(kHintStackRealign)) return true;
  return std::any_of(fn.nodes.begin(), fn.nodes.end(), [](const Node& n) {
    return n.op == Op::X64Alloca || n.op == Op::X64StackSave || n.op == Op::X64StackRestore ||
           n.op == Op::X64FrameAddress || n.op == Op::X64ReturnAddress;
  });
}

}  // namespace pl::x64
