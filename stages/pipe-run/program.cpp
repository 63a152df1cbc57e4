// program.cpp - loading a module for execution: memory layout of functions,
// externs and data, and the node -> instruction lowering every level shares.
//
// Layout: every function and extern gets an allocation of its own (size 0),
// so a function pointer is a distinct address a call can resolve; the data
// externs stdin/stdout/stderr (glibc's `extern FILE *stdout`) are 8-byte
// cells holding pointers to FILE allocations that fprintf & co. recognise;
// any other data extern is an empty allocation (an access is a runtime
// error naming it). Each data item is an allocation initialised from its
// `init` bytes, zero-filled to its size, with its relocations (symbol
// address + addend, 8 bytes little-endian) written once every symbol has an
// address; read-only items refuse writes.
//
// Refused before the program runs, by name (the program runs natively
// only): inline assembly (file-scope asm too), and calls to setjmp,
// longjmp and the other functions of that family (non_local_jump_symbol).
//
// Lowering (FunctionBuilder): a node becomes one Insn whose operands are
// value indexes: node ids, then the ssa: slots of the cfg level (their
// literals renumbered densely), then one scratch value. Literals are decoded
// once here (type widths, sizes, constants), so the run loop never looks at
// a Literal or a string. Constants, symbol addresses and `undefined` (and, at
// the son level, nodes folded from constants by eval_pure) are evaluated
// here into the function's initial value array (copied into each
// activation); params, entrymem and stack slots are filled when a call
// starts; a proj of a call or volatile load is an alias of the value the
// tuple node writes. None of these execute as instructions.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "x64/eval_x64.h"
#include "ir/eval_float_op.h"
#include "ir/asm.h"
#include "run.h"
#include "ir/eval_f80.h"
#include "ir/eval_v128.h"
#include "encoding/text_format.h"

namespace pl::run {

namespace {

void write_le64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

bool produces_value_tuple(OpId op) {
  return op == Op::Call || op == Op::LoadV || op == Op::VaArg || op == Op::Alloca || op == Op::StackSave ||
         op == Op::AtomicLoad || op == Op::AtomicRmw || op == Op::AtomicCmpXchg;
}
// x64 tuples read through projs: result 0 is the node's own value.
bool is_x64_tuple(OpId op) { return x64::is_x64(op) && op_info(op).results.size() >= 2 && op != Op::X64Jcc; }

uint8_t narrow_result_bits(std::string_view type) {
  std::optional<ValueType> t = parse_value_type(type);
  return t && type_bits(*t) < 64 ? static_cast<uint8_t>(type_bits(*t)) : 64;
}

}  // namespace

// ---- Program ------------------------------------------------------------------

Program::Program(Module module, uint64_t memory_limit, std::string program_name)
    : module_(std::move(module)), memory_(memory_limit, this), libc_(memory_, output_, std::move(program_name)) {}

uint32_t Program::find_function(std::string_view name) const {
  for (size_t i = 0; i < module_.functions.size(); ++i)
    if (module_.functions[i].name == name) return static_cast<uint32_t>(i);
  return kNone;
}

uint64_t Program::symbol_address(const Function& fn, NodeId node, const std::string& name) const {
  auto it = std::lower_bound(symbols_.begin(), symbols_.end(), std::string_view(name),
                             [](const auto& entry, std::string_view key) { return entry.first < key; });
  if (it == symbols_.end() || it->first != name)
    throw FormatError(Where::in(fn.name, node_name(node)), "symbol '" + name + "' is not defined in the module",
                      print_node_line(fn, node));
  return it->second;
}

void Program::layout() {
  auto add_symbol = [&](std::string_view name, uint64_t address) { symbols_.emplace_back(name, address); };
  for (size_t i = 0; i < module_.functions.size(); ++i) {
    Allocation a;
    a.kind = AllocKind::Function;
    a.index = static_cast<uint32_t>(i);
    add_symbol(module_.functions[i].name, make_pointer(memory_.add(a), 0));
  }
  uint64_t files[3];
  for (uint32_t k = 0; k < 3; ++k) {
    Allocation a;
    a.kind = AllocKind::File;
    a.index = k;
    files[k] = make_pointer(memory_.add(a), 0);
  }
  libc_.set_files(files[0], files[1], files[2]);
  const std::vector<Extern>& externs = module_.header.externs;
  extern_builtins_.assign(externs.size(), Builtin::Unknown);
  extern_result_bits_.assign(externs.size(), 64);
  extern_result_float_.assign(externs.size(), false);
  for (size_t i = 0; i < externs.size(); ++i) {
    Allocation a;
    a.index = static_cast<uint32_t>(i);
    const std::string& name = externs[i].name;
    // An alias is its target's address (lay_out_data); a weak reference to
    // what the small C library does not have is null, as the linker leaves
    // an undefined weak symbol.
    if (!externs[i].attrs.alias.empty()) continue;
    if (externs[i].attrs.weak && !(externs[i].kind == ExternKind::Function && find_builtin(name) != Builtin::Unknown) &&
        !(externs[i].kind == ExternKind::Data && (name == "stdin" || name == "stdout" || name == "stderr"))) {
      add_symbol(name, 0);
      continue;
    }
    if (externs[i].kind == ExternKind::Function) {
      a.kind = AllocKind::ExternFunction;
      extern_builtins_[i] = find_builtin(name);
      if (externs[i].signature)
      {
        const std::string& result = externs[i].signature->result;
        extern_result_bits_[i] = result == "void" ? 0 : narrow_result_bits(result);
        extern_result_float_[i] = result == "f32" || result == "f64";
      }
    } else {
      a.kind = AllocKind::ExternData;
      int file = name == "stdin" ? 0 : name == "stdout" ? 1 : name == "stderr" ? 2 : -1;
      if (file >= 0) {
        a.data = static_cast<uint8_t*>(std::calloc(8, 1));
        if (!a.data) throw std::bad_alloc();
        a.owns_data = true;
        a.size = 8;
        write_le64(a.data, files[file]);
      }
    }
    add_symbol(name, make_pointer(memory_.add(a), 0));
  }
  lay_out_data();
}

void Program::lay_out_data() {
  std::vector<DataItem>& data = module_.header.data;
  std::vector<uint8_t*> bytes(data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    const DataItem& d = data[i];
    Where where;
    where.entity = "data '" + d.name + "'";
    if (d.size > kMaxAllocation)
      throw FormatError(where, "data item of " + std::to_string(d.size) + " bytes is larger than pipe-run's " +
                                   std::to_string(kMaxAllocation) + "-byte allocations");
    if (d.init.size() > d.size) throw FormatError(where, "init is longer than the item");
    memory_.charge(d.size, "data");
    Allocation a;
    a.kind = AllocKind::Data;
    a.index = static_cast<uint32_t>(i);
    a.size = static_cast<uint32_t>(d.size);
    a.readonly = d.readonly;
    a.data = static_cast<uint8_t*>(std::calloc(d.size ? d.size : 1, 1));
    if (!a.data) throw std::bad_alloc();
    a.owns_data = true;
    std::memcpy(a.data, d.init.data(), d.init.size());
    bytes[i] = a.data;
    symbols_.emplace_back(d.name, make_pointer(memory_.add(a), 0));
  }
  std::sort(symbols_.begin(), symbols_.end());
  // Aliases: another name of a function or data item.
  size_t defined = symbols_.size();
  for (const Extern& e : module_.header.externs) {
    if (e.attrs.alias.empty()) continue;
    auto it = std::lower_bound(symbols_.begin(), symbols_.begin() + static_cast<ptrdiff_t>(defined),
                               std::string_view(e.attrs.alias),
                               [](const auto& entry, std::string_view key) { return entry.first < key; });
    if (it == symbols_.begin() + static_cast<ptrdiff_t>(defined) || it->first != e.attrs.alias)
      throw FormatError(Where::in("", "extern '" + e.name + "'"),
                        "alias target '" + e.attrs.alias + "' is not defined in the module");
    symbols_.emplace_back(e.name, it->second);
  }
  std::sort(symbols_.begin(), symbols_.end());
  for (size_t i = 0; i < data.size(); ++i) {
    for (const Reloc& r : data[i].relocs) {
      Where where;
      where.entity = "data '" + data[i].name + "'";
      if (data[i].size < 8 || r.offset > data[i].size - 8)
        throw FormatError(where, "relocation at offset " + std::to_string(r.offset) + " is outside the item");
      auto it = std::lower_bound(symbols_.begin(), symbols_.end(), std::string_view(r.symbol),
                                 [](const auto& entry, std::string_view key) { return entry.first < key; });
      if (it == symbols_.end() || it->first != r.symbol)
        throw FormatError(where, "relocation names '" + r.symbol + "', which the module does not define");
      write_le64(bytes[i] + r.offset, it->second + static_cast<uint64_t>(r.addend));
    }
  }
}

// The symbol a node names if it is an extern of the setjmp family (a
// function that returns twice or jumps to a saved context), else "".
std::string_view Program::non_local_jump_symbol(const Node& n) const {
  static constexpr std::string_view kNames[] = {
      "setjmp", "_setjmp", "__setjmp", "sigsetjmp", "__sigsetjmp", "longjmp", "_longjmp", "siglongjmp",
      "__longjmp_chk", "vfork", "savectx", "getcontext", "setcontext", "swapcontext"};
  if (n.op != Op::SymAddr && n.op != Op::X64Call && n.op != Op::X64Lea && n.op != Op::X64LoadGot) return {};
  for (const Literal& l : n.literals) {
    if (l.kind() != Literal::Kind::String) continue;
    std::string_view s = l.as_string();
    if (std::find(std::begin(kNames), std::end(kNames), s) == std::end(kNames)) continue;
    for (const Extern& e : module_.header.externs)
      if (e.name == s && e.kind == ExternKind::Function) return s;
  }
  return {};
}

void Program::load() {
  // File-scope asm may define the functions and data the C code uses, or
  // anything else the assembler makes: refused as inline assembly is.
  if (!module_.header.toplevel_asm.empty())
    throw FormatError(Where{}, "cannot interpret file-scope assembly (it runs natively only)");
  layout();
  compiled_.reserve(module_.functions.size());
  for (size_t i = 0; i < module_.functions.size(); ++i) {
    const Function& fn = module_.functions[i];
    uint32_t index = static_cast<uint32_t>(i);
    // Inline assembly is machine code the interpreter does not model: the
    // program is refused before it runs, never run without it.
    for (NodeId id = 0; id < fn.nodes.size(); ++id) {
      if (fn.nodes[id].op == Op::Asm || fn.nodes[id].op == Op::X64Asm) {
        // c2ast's __builtin_setjmp and __builtin_longjmp (vla.cpp) are asm
        // whose template opens with a comment naming the builtin.
        std::string_view text = fn.nodes[id].literals.size() > kAsmTemplate &&
                                        fn.nodes[id].literals[kAsmTemplate].kind() == Literal::Kind::String
                                    ? fn.nodes[id].literals[kAsmTemplate].as_string()
                                    : std::string_view();
        std::string_view builtin;
        for (std::string_view name : {"__builtin_setjmp", "__builtin_longjmp"})
          if (text.substr(0, 2 + name.size()) == "# " + std::string(name)) builtin = name;
        throw FormatError(Where::in(fn.name, node_name(id)),
                          builtin.empty() ? std::string("cannot interpret inline assembly (it runs natively only)")
                                          : "cannot interpret " + std::string(builtin) + " (it runs natively only)");
      }
      // So are the non-local jumps of setjmp and longjmp (and the other
      // functions that return twice or resume a saved context): the
      // interpreter has no machine state to save and restore.
      if (std::string_view name = non_local_jump_symbol(fn.nodes[id]); !name.empty())
        throw FormatError(Where::in(fn.name, node_name(id)),
                          "cannot interpret a call to '" + std::string(name) + "' (it runs natively only)");
    }
    Level level = module_.header.level;
    compiled_.push_back(level == Level::Son || level == Level::SonX64 ? lower_son_function(*this, fn, index)
                                                                      : lower_cfg_function(*this, fn, index));
  }
}

// ---- FunctionBuilder ------------------------------------------------------------

FunctionBuilder::FunctionBuilder(const Program& program, const Function& fn, uint32_t index)
    : program_(program), fn_(fn) {
  uint32_t n = static_cast<uint32_t>(fn.nodes.size());
  out_.fn = &fn;
  out_.index = index;
  alias_.resize(n);
  preset_.assign(n, 0);
  constant_.assign(n, 0);
  proj_.assign(kProjs * size_t{n}, kNone);
  out_.x64 = is_x64_level(program.module().header.level);
  if (out_.x64) {
    out_.param_fill = kX64Junk;
    out_.result_bits = narrow_result_bits(fn.signature.result);
  }
  for (NodeId id = 0; id < n; ++id) {
    alias_[id] = id;
    const Node& node = fn.nodes[id];
    if (node.op == Op::SsaLoad || node.op == Op::SsaStore) {
      if (node.literals.empty() || !node.literals[0].is_int() || node.literals[0].kind() != Literal::Kind::Int)
        fail(id, "ssa: slot literal is not a non-negative integer");
      slot_keys_.push_back(static_cast<uint64_t>(node.literals[0].as_int()));
    }
    if (node.op == Op::Proj && node.inputs.size() == 1 && !node.literals.empty() && node.literals[0].is_int()) {
      uint64_t k = node.literals[0].kind() == Literal::Kind::Int ? static_cast<uint64_t>(node.literals[0].as_int())
                                                                 : node.literals[0].as_uint();
      NodeId tuple = node.inputs[0];
      if (k < kProjs && proj_[kProjs * size_t{tuple} + k] == kNone) proj_[kProjs * size_t{tuple} + k] = id;
    }
  }
  std::sort(slot_keys_.begin(), slot_keys_.end());
  slot_keys_.erase(std::unique(slot_keys_.begin(), slot_keys_.end()), slot_keys_.end());
  slot_base_ = n;
  out_.scratch = n + static_cast<uint32_t>(slot_keys_.size());
  out_.num_values = out_.scratch + 1;
  if (std::any_of(fn.nodes.begin(), fn.nodes.end(), [](const Node& node) { return node.op == Op::VaStart; }))
    out_.varargs = out_.num_values++;
  out_.ra = program.module().header.level == Level::RaX64;
  if (out_.ra) {
    uint32_t spill_slots = 0;
    for (const Node& node : fn.nodes)
      if (node.place.is_slot()) spill_slots = std::max(spill_slots, static_cast<uint32_t>(node.place.slot()) + 1);
    out_.regs = out_.num_values;
    out_.spill_slots = spill_slots;
    out_.num_values += kFirstSpillLoc + spill_slots;
  }
  out_.init_values.assign(out_.num_values, 0);
  out_.init_undef.assign(out_.num_values, 1);
  for (NodeId id = 0; id < n; ++id) preset(id);
  if (out_.ra) place_values();
}

CompiledFunction FunctionBuilder::take() {
  // Lay out the stack slots of an activation once: each at its alignment.
  uint64_t total = 0;
  for (size_t i = 0; i < out_.slot_sizes.size(); ++i) {
    uint64_t align = out_.slot_aligns[i] ? out_.slot_aligns[i] : 1;
    total = (total + align - 1) / align * align;
    out_.slot_offsets.push_back(total);
    total += out_.slot_sizes[i];
  }
  out_.slot_frame_size = total;
  if (outgoing_size_ > 0) out_.outgoing_size = outgoing_size_;
  if (has_vec_) {  // the high halves of 16-byte vector values (run.h)
    out_.hi = out_.num_values;
    out_.num_values *= 2;
    out_.init_values.resize(out_.num_values, 0);
    out_.init_undef.resize(out_.num_values, 1);
    std::copy(out_.init_undef.begin(), out_.init_undef.begin() + out_.hi, out_.init_undef.begin() + out_.hi);
  }
  return std::move(out_);
}

void FunctionBuilder::fail(NodeId n, const std::string& message) const {
  throw FormatError(Where::in(fn_.name, node_name(n)), message, print_node_line(fn_, n));
}

// A floating-point opcode (common/ir/eval_float_op.h): its type literals are
// decoded here, once; the opcode rides in imm.
void FunctionBuilder::emit_float(NodeId n) {
  const Node& node = fn_.nodes[n];
  auto type_at = [&](size_t i) {
    std::optional<ValueType> t =
        i < node.literals.size() ? literal_value_type(node.literals[i]) : std::optional<ValueType>();
    if (!t) fail(n, "literal " + std::to_string(i) + " must be a value type");
    return *t;
  };
  ValueType t0 = type_at(0);
  ValueType t1 = op_info(node.op).literals.size() > 1 ? type_at(1) : t0;
  if (node.inputs.empty() || node.inputs.size() > 2) fail(n, "wrong number of inputs");
  Insn& insn = push(Code::Float, n);
  insn.bits = static_cast<uint8_t>(t0);
  insn.bits2 = static_cast<uint8_t>(t1);
  insn.imm = node.op;
  insn.dst = n;
  insn.a = value(node.inputs[0]);
  insn.b = node.inputs.size() > 1 ? value(node.inputs[1]) : insn.a;
}

uint32_t FunctionBuilder::checked_operand(NodeId n, size_t i) const {
  if (i >= fn_.nodes[n].inputs.size()) fail(n, "missing input " + std::to_string(i));
  return operand(n, i);
}

// A long double operation (common/ir/eval_f80.h), generic or x64: the same
// instruction, its literal decoded here.
void FunctionBuilder::emit_f80(NodeId n) {
  const Node& node = fn_.nodes[n];
  const OpId op = node.op;
  bool x64_level = x64::is_x64(op);
  auto input = [&](size_t i) { return checked_operand(n, i); };
  uint32_t dst = x64_level ? result(n, 0) : n;
  Insn& insn = push(Code::F80, n);
  insn.dst = dst;
  insn.c = input(0);
  insn.a = input(1);
  if (op == Op::X64Fldt || op == Op::X64Fstpt) {
    insn.aux = op == Op::X64Fldt ? kF80Fldt : kF80Fstpt;
  } else if (op == Op::F80Arith || op == Op::F80Unary || op == Op::X64F80Arith || op == Op::X64F80Unary) {
    std::optional<F80Op> f = parse_f80_op(string_literal(n, 0));
    bool binary = op == Op::F80Arith || op == Op::X64F80Arith;
    if (!f || binary != (*f <= F80Op::Div)) fail(n, "not an operation of " + std::string(fn_.op_name(op)));
    insn.aux = static_cast<uint8_t>(*f);
    insn.b = input(2);
    insn.imm = binary ? input(3) : insn.b;
  } else if (op == Op::F80Cmp || op == Op::X64F80Cmp) {
    insn.aux = kF80Cmp;
    insn.b = input(2);
    std::string_view name = string_literal(n, 0);
    if (op == Op::X64F80Cmp) {
      std::optional<x64::Cond> cc = x64::parse_cond(name);
      if (!cc) fail(n, "unknown condition code");
      insn.imm = 64 | static_cast<uint64_t>(*cc);
    } else {
      size_t k = 0;
      while (k < std::size(kF80Preds) && kF80Preds[k] != name) ++k;
      if (k == std::size(kF80Preds)) fail(n, "not a floating compare's name");
      insn.imm = k;
    }
  } else {
    std::optional<ValueType> t = literal_value_type(node.literals[0]);
    if (!t) fail(n, "literal 0 must be a value type");
    insn.bits = static_cast<uint8_t>(*t);
    bool from = op == Op::F80From || op == Op::X64F80From;
    insn.aux = from ? kF80From : kF80To;
    if (!from && x64_level) insn.imm = 1;  // the machine's result out of range (interp.cpp)
    if (from) insn.b = input(2);
  }
}

// A 16-byte vector operation (common/ir/eval_v128.h), generic or x64.
void FunctionBuilder::emit_v128(NodeId n) {
  const Node& node = fn_.nodes[n];
  auto input = [&](size_t i) { return checked_operand(n, i); };
  if (node.literals.size() != 2 || !node.literals[1].is_int()) fail(n, "v128.op needs an operation and an immediate");
  std::string_view name = string_literal(n, 0);
  uint64_t imm = node.literals[1].bits();
  std::string problem = v128_op_problem(name, imm);
  if (!problem.empty()) fail(n, problem);
  unsigned k = *v128_op(name);
  Insn& insn = push(Code::V128, n);
  insn.dst = x64::is_x64(node.op) ? result(n, 0) : n;
  insn.c = input(0);
  insn.a = input(1);
  insn.b = input(2);
  insn.imm = kV128Ops[k].shape == V128Shape::Unary || kV128Ops[k].shape == V128Shape::UnaryImm ? insn.b : input(3);
  insn.aux = static_cast<uint8_t>(k);
  insn.bits = static_cast<uint8_t>(imm);
}

// A 16-byte vector value operation (run.h, Code::VecLoad ...), generic or
// x64 (FORMAT.md section 7, "16-byte vector values").
void FunctionBuilder::emit_vec(NodeId n) {
  const Node& node = fn_.nodes[n];
  const OpId op = node.op;
  const bool x64_level = x64::is_x64(op);
  auto input = [&](size_t i) { return checked_operand(n, i); };
  auto lane_bytes = [&]() -> uint8_t {
    std::optional<ValueType> t = node.literals.empty() ? std::nullopt : v128_lane_type(node.literals[0]);
    if (!t) fail(n, "the lane type must be i32, i64, f32 or f64");
    return static_cast<uint8_t>(type_bytes(*t));
  };
  has_vec_ = true;
  // A load's or store's address: at the x64 levels computed into the scratch
  // value first (its base and index inputs from `x64_first`), else input 1.
  auto vector_address = [&](size_t x64_first) -> uint32_t {
    if (!x64_level) return input(1);
    Insn& lea = push(Code::XLea, n);
    lea.dst = out_.scratch;
    lea.bits = 64;
    x64_address(n, lea, 0, x64_first);
    return out_.scratch;
  };
  switch (op) {
    case Op::V128Load:
    case Op::X64V128Load: {
      uint32_t addr = vector_address(1);
      Insn& insn = push(Code::VecLoad, n);
      insn.dst = x64_level ? result(n, 0) : n;
      insn.c = input(0);
      insn.a = addr;
      return;
    }
    case Op::V128Store:
    case Op::X64V128Store: {
      uint32_t addr = vector_address(2);
      Insn& insn = push(Code::VecStore, n);
      insn.dst = x64_level ? result(n, 0) : n;
      insn.c = input(0);
      insn.a = addr;
      insn.b = input(x64_level ? 1 : 2);
      return;
    }
    case Op::V128Apply:
    case Op::X64V128Apply: {
      if (node.literals.size() != 2 || !node.literals[1].is_int()) fail(n, "v128.apply needs an operation and an immediate");
      std::string_view name = string_literal(n, 0);
      uint64_t imm = node.literals[1].bits();
      std::string problem = v128_op_problem(name, imm);
      if (!problem.empty()) fail(n, problem);
      unsigned k = *v128_op(name);
      Insn& insn = push(Code::VecApply, n);
      insn.dst = x64_level ? result(n, 0) : n;
      insn.a = input(0);
      bool unary = kV128Ops[k].shape == V128Shape::Unary || kV128Ops[k].shape == V128Shape::UnaryImm;
      insn.b = unary ? insn.a : input(1);
      insn.aux = static_cast<uint8_t>(k);
      insn.bits = static_cast<uint8_t>(imm);
      return;
    }
    case Op::V128Splat:
    case Op::X64V128Splat: {
      Insn& insn = push(Code::VecSplat, n);
      insn.bits = lane_bytes();
      insn.dst = x64_level ? result(n, 0) : n;
      insn.a = input(0);
      return;
    }
    case Op::V128Extract:
    case Op::X64V128Extract: {
      Insn& insn = push(Code::VecExtract, n);
      insn.bits = lane_bytes();
      insn.imm = x64_level ? 0 : static_cast<uint64_t>(int_literal(n, 1));
      if (insn.imm * insn.bits >= kV128Bytes) fail(n, "the lane is out of range");
      insn.dst = x64_level ? result(n, 0) : n;
      insn.a = input(0);
      return;
    }
    default: fail(n, "not a 16-byte vector value operation");
  }
}

// An atomic operation or fence, generic or x64 (run.h, Code::Atomic). The
// generic atomic.load and atomic.store run as a volatile load and store.
void FunctionBuilder::emit_atomic(NodeId n) {
  const Node& node = fn_.nodes[n];
  const OpId op = node.op;
  bool x64_level = x64::is_x64(op);
  auto input = [&](size_t i) { return checked_operand(n, i); };
  auto proj_or_scratch = [&](uint32_t k) {
    uint32_t p = proj_of(n, k);
    return p == kNone ? out_.scratch : p;
  };
  Insn& insn = push(Code::Atomic, n);
  insn.c = input(0);
  if (op == Op::Fence || op == Op::X64Fence) {
    insn.aux = kAtomicFence;
    insn.b = x64_level ? result(n, 0) : n;
    return;
  }
  unsigned bits = type_bits_of(n, 0);
  if (bits < 8) fail(n, "an atomic operation on fewer than 8 bits");
  insn.bits = static_cast<uint8_t>(bits);
  insn.bits2 = static_cast<uint8_t>(bits / 8);
  insn.a = input(1);
  insn.b = x64_level ? result(n, 0) : proj_or_scratch(0);
  insn.dst = op == Op::X64AtomicOp ? kNone : x64_level ? result(n, 1) : proj_or_scratch(1);
  insn.imm = input(2);
  if (op == Op::AtomicCmpXchg || op == Op::X64AtomicCmpXchg) {
    insn.aux = kAtomicCmpXchg;
    insn.imm |= static_cast<uint64_t>(input(3)) << 32;
  } else if (op == Op::X64AtomicXchg) {
    insn.aux = kAtomicXchg;
  } else if (op == Op::X64AtomicXadd) {
    insn.aux = kAtomicAdd;
  } else {
    std::string_view name = string_literal(n, 1);
    size_t k = 0;
    while (k < std::size(kAtomicOps) && kAtomicOps[k] != name) ++k;
    if (k == std::size(kAtomicOps)) fail(n, "not an atomic operation's name");
    insn.aux = static_cast<uint8_t>(k);
  }
  if (x64_level) insn.aux |= kAtomicX64;
}

unsigned FunctionBuilder::type_bits_of(NodeId n, size_t literal) const {
  const Node& node = fn_.nodes[n];
  std::optional<ValueType> t;
  if (literal < node.literals.size()) t = literal_value_type(node.literals[literal]);
  if (!t) fail(n, "literal " + std::to_string(literal) + " is not a value type");
  return type_bits(*t);
}

uint32_t FunctionBuilder::slot_index(NodeId n) const {
  uint64_t key = static_cast<uint64_t>(fn_.nodes[n].literals[0].as_int());
  auto it = std::lower_bound(slot_keys_.begin(), slot_keys_.end(), key);
  return slot_base_ + static_cast<uint32_t>(it - slot_keys_.begin());
}

void FunctionBuilder::preset(NodeId id) {
  const Node& node = fn_.nodes[id];
  auto defined = [&](uint64_t v) { fold(id, v); };
  switch (node.op) {
    case Op::Const: {
      unsigned bits = type_bits_of(id, 0);
      if (node.literals.size() < 2 || !node.literals[1].is_int()) fail(id, "const needs an integer literal");
      defined(const_value(node.literals[1], bits));
      break;
    }
    case Op::FConst: {
      std::optional<uint64_t> v = eval_float_pure(node.op, {node.literals.data(), node.literals.size()}, {}, nullptr);
      if (!v) fail(id, "fconst needs a floating type and a number of that type");
      defined(*v);
      break;
    }
    case Op::ConstantP:  // unanswered by an optimizer: -O0's answer (FORMAT.md, constant_p)
      defined(0);
      break;
    case Op::SymAddr:
    case Op::TlsAddr:  // one thread: a thread-local item's only copy is its storage
      if (node.literals.empty() || node.literals[0].kind() != Literal::Kind::String)
        fail(id, "symaddr needs a symbol name");
      defined(program_.symbol_address(fn_, id, std::string(node.literals[0].as_string())));
      break;
    case Op::Undef:
    case Op::SsaUndef:
      if (node.place.none()) preset_[id] = 1;  // at ra-x64 a placed one makes its place undefined
      break;
    case Op::StackSlot:
    case Op::X64StackSlot: {
      auto literal = [&](size_t i) -> uint64_t {
        if (i >= node.literals.size() || node.literals[i].kind() != Literal::Kind::Int || node.literals[i].as_int() < 0)
          fail(id, "stackslot needs a size and an alignment");
        return static_cast<uint64_t>(node.literals[i].as_int());
      };
      uint64_t size = literal(0), align = literal(1);
      if (size > kMaxAllocation) fail(id, "stack slot larger than pipe-run's largest allocation");
      if (align > 4096 || (align & (align - 1)) != 0) fail(id, "stack slot alignment is not a power of two up to 4096");
      preset_[id] = 1;
      out_.init_undef[id] = 0;
      out_.slot_nodes.push_back(id);
      out_.slot_labels.push_back(id);
      out_.slot_sizes.push_back(static_cast<uint32_t>(size));
      out_.slot_aligns.push_back(static_cast<uint32_t>(align));
      break;
    }
    case Op::Param: {
      unsigned bits = type_bits_of(id, 0);
      if (node.literals.size() < 2 || node.literals[1].kind() != Literal::Kind::Int)
        fail(id, "param needs an index");
      preset_[id] = 1;
      out_.params.push_back({id, static_cast<uint32_t>(node.literals[1].as_int()), static_cast<uint8_t>(bits)});
      break;
    }
    case Op::EntryMem:
      preset_[id] = 1;
      out_.entrymems.push_back(id);
      break;
    case Op::Proj: {
      if (node.inputs.size() != 1) fail(id, "proj needs one input");
      NodeId tuple = node.inputs[0];
      OpId top = fn_.nodes[tuple].op;
      if (top == Op::If || top == Op::X64Jcc) break;  // control: the son lowering reads it
      if (is_x64_tuple(top)) {
        uint64_t k = node.literals.empty() || !node.literals[0].is_int() ? 99 : node.literals[0].bits();
        if (k >= op_info(top).results.size()) fail(id, "proj index out of range");
        preset_[id] = 1;
        alias_[id] = k == 0 ? tuple : proj_[kProjs * size_t{tuple} + k];
        break;
      }
      if (!produces_value_tuple(top)) fail(id, "proj of a node that produces no tuple");
      if (node.literals.empty() || node.literals[0].kind() != Literal::Kind::Int || node.literals[0].as_int() < 0 ||
          node.literals[0].as_int() > 1)
        fail(id, "proj index out of range");
      uint64_t k = static_cast<uint64_t>(node.literals[0].as_int());
      preset_[id] = 1;
      alias_[id] = proj_[kProjs * size_t{tuple} + k];
      break;
    }
    default:
      if (x64::is_x64(node.op) && !out_.ra) preset_x64(id);  // at ra-x64 they write registers
      break;
  }
}

void FunctionBuilder::fold(NodeId n, uint64_t v) {
  preset_[n] = 1;
  constant_[n] = 1;
  out_.init_values[n] = v;
  out_.init_undef[n] = 0;
}

Insn& FunctionBuilder::push(Code code, NodeId n) {
  Insn& insn = out_.code.emplace_back();
  insn.code = code;
  insn.node = n;
  return insn;
}

void FunctionBuilder::start_block(uint32_t block, NodeId node) {
  out_.blocks[block].first = static_cast<uint32_t>(out_.code.size());
  out_.blocks[block].node = node;
}

void FunctionBuilder::finish_block(uint32_t block) {
  out_.blocks[block].count = static_cast<uint32_t>(out_.code.size()) - out_.blocks[block].first;
}

uint32_t FunctionBuilder::trap_block(NodeId node, const std::string& message) {
  uint32_t block = static_cast<uint32_t>(out_.blocks.size());
  out_.blocks.emplace_back();
  start_block(block, node);
  emit_trap(node, message);
  finish_block(block);
  return block;
}

void FunctionBuilder::emit_trap(NodeId n, const std::string& message) {
  Insn& insn = push(Code::Trap, n);
  insn.imm = out_.traps.size();
  out_.traps.push_back(message);
}

uint32_t FunctionBuilder::add_edge(uint32_t target, std::span<const NodeId> phis, uint32_t input_index) {
  Edge e;
  e.block = target;
  e.first_move = static_cast<uint32_t>(out_.moves.size());
  for (NodeId p : phis) {
    const Node& phi = fn_.nodes[p];
    if (input_index >= phi.inputs.size())
      fail(p, "phi has no input " + std::to_string(input_index) + " for its region's control input");
    // At ra-x64 a placed phi's input is already in the phi's place at the
    // end of the predecessor (the allocator's moves did it): no copy.
    if (out_.ra && !phi.place.none()) continue;
    out_.moves.push_back({value(p), value(phi.inputs[input_index])});
  }
  e.num_moves = static_cast<uint32_t>(out_.moves.size()) - e.first_move;
  out_.max_moves = std::max(out_.max_moves, e.num_moves);
  out_.edges.push_back(e);
  return static_cast<uint32_t>(out_.edges.size() - 1);
}

void FunctionBuilder::emit_jump(NodeId n, uint32_t edge) { push(Code::Jump, n).a = edge; }

void FunctionBuilder::emit_if(NodeId n, uint32_t true_edge, uint32_t false_edge) {
  const Node& node = fn_.nodes[n];
  if (node.inputs.size() != 1) fail(n, "if needs one input");
  Insn& insn = push(Code::If, n);
  insn.a = value(node.inputs[0]);
  insn.b = true_edge;
  insn.c = false_edge;
}

void FunctionBuilder::emit_branch(NodeId n, uint32_t true_edge, uint32_t false_edge) {
  if (fn_.nodes[n].op != Op::X64Jcc) return emit_if(n, true_edge, false_edge);
  const Node& node = fn_.nodes[n];
  if (node.inputs.size() != 1) fail(n, "x64:jcc needs one input");
  std::optional<x64::Cond> cc = x64::parse_cond(string_literal(n, 0));
  if (!cc) fail(n, "unknown condition code");
  Insn& insn = push(Code::XJcc, n);
  insn.aux = static_cast<uint8_t>(*cc);
  insn.a = value(node.inputs[0]);
  insn.b = true_edge;
  insn.c = false_edge;
}

void FunctionBuilder::emit_return(NodeId n) {
  const Node& node = fn_.nodes[n];
  if (node.op == Op::X64Ret) return emit_x64_return(n);
  bool has_value = fn_.signature.result != "void";
  if (node.inputs.size() != (has_value ? 2u : 1u)) fail(n, "return's inputs do not match the signature");
  Insn& insn = push(Code::Return, n);
  insn.a = value(node.inputs[0]);
  if (has_value) {
    insn.b = value(node.inputs[1]);
    insn.bits = static_cast<uint8_t>(type_bits(*parse_value_type(fn_.signature.result)));
  }
}

void FunctionBuilder::emit(NodeId n) {
  const Node& node = fn_.nodes[n];
  auto input = [&](size_t i) {
    if (i >= node.inputs.size()) fail(n, "missing input " + std::to_string(i));
    return value(node.inputs[i]);
  };
  auto result_of = [&](uint32_t k) {
    uint32_t p = proj_of(n, k);
    return p == kNone ? out_.scratch : p;
  };
  auto binary = [&](Code code) {
    Insn& insn = push(code, n);
    insn.bits = static_cast<uint8_t>(type_bits_of(n, 0));
    insn.dst = n;
    insn.a = input(0);
    insn.b = input(1);
  };
  switch (node.op) {
#define PIPE_RUN_BINARY(op) \
  case Op::op: binary(Code::op); return;
    PIPE_RUN_BINARY(Add) PIPE_RUN_BINARY(Sub) PIPE_RUN_BINARY(Mul) PIPE_RUN_BINARY(And) PIPE_RUN_BINARY(Or)
    PIPE_RUN_BINARY(Xor) PIPE_RUN_BINARY(Shl) PIPE_RUN_BINARY(LShr) PIPE_RUN_BINARY(AShr) PIPE_RUN_BINARY(SDiv)
    PIPE_RUN_BINARY(UDiv) PIPE_RUN_BINARY(SRem) PIPE_RUN_BINARY(URem) PIPE_RUN_BINARY(Eq) PIPE_RUN_BINARY(Ne)
    PIPE_RUN_BINARY(SLt) PIPE_RUN_BINARY(SLe) PIPE_RUN_BINARY(ULt) PIPE_RUN_BINARY(ULe)
#undef PIPE_RUN_BINARY
    case Op::Select: {
      Insn& insn = push(Code::Select, n);
      insn.bits = static_cast<uint8_t>(type_bits_of(n, 0));
      insn.dst = n;
      insn.a = input(0);
      insn.b = input(1);
      insn.c = input(2);
      return;
    }
    case Op::Neg:
    case Op::Not: {
      Insn& insn = push(node.op == Op::Neg ? Code::Neg : Code::Not, n);
      insn.bits = static_cast<uint8_t>(type_bits_of(n, 0));
      insn.dst = n;
      insn.a = input(0);
      return;
    }
    case Op::SExt:
    case Op::ZExt:
    case Op::Trunc: {
      unsigned from = type_bits_of(n, 0), to = type_bits_of(n, 1);
      EvalError e = check_conversion(static_cast<Op>(node.op), from, to);
      if (e != EvalError::None) fail(n, std::string(eval_error_message(e)));
      Insn& insn = push(node.op == Op::SExt ? Code::SExt : node.op == Op::ZExt ? Code::ZExt : Code::Trunc, n);
      insn.bits = static_cast<uint8_t>(from);
      insn.bits2 = static_cast<uint8_t>(to);
      insn.dst = n;
      insn.a = input(0);
      return;
    }
    case Op::SsaLoad: {
      Insn& insn = push(Code::Move, n);
      insn.dst = n;
      insn.a = slot_index(n);
      return;
    }
    case Op::SsaStore: {
      Insn& insn = push(Code::Move, n);
      insn.dst = slot_index(n);
      insn.a = input(0);
      return;
    }
    case Op::Load:
    case Op::LoadV: {
      unsigned bits = type_bits_of(n, 0);
      bool is_volatile = node.op == Op::LoadV;
      Insn& insn = push(is_volatile ? Code::LoadV : Code::Load, n);
      insn.bits = static_cast<uint8_t>(bits);
      insn.bits2 = static_cast<uint8_t>(bits == 1 ? 1 : bits / 8);
      insn.dst = is_volatile ? result_of(1) : n;
      insn.b = is_volatile ? result_of(0) : kNone;
      insn.c = input(0);
      insn.a = input(1);
      return;
    }
    case Op::Store:
    case Op::StoreV: {
      unsigned bits = type_bits_of(n, 0);
      Insn& insn = push(node.op == Op::StoreV ? Code::StoreV : Code::Store, n);
      insn.bits = static_cast<uint8_t>(bits);
      insn.bits2 = static_cast<uint8_t>(bits == 1 ? 1 : bits / 8);
      insn.dst = n;
      insn.c = input(0);
      insn.a = input(1);
      insn.b = input(2);
      return;
    }
    case Op::Copy: {
      if (node.literals.empty() || node.literals[0].kind() != Literal::Kind::Int || node.literals[0].as_int() < 0)
        fail(n, "copy needs a size");
      Insn& insn = push(Code::CopyMem, n);
      insn.imm = static_cast<uint64_t>(node.literals[0].as_int());
      insn.dst = n;
      insn.c = input(0);
      insn.a = input(1);
      insn.b = input(2);
      return;
    }
    case Op::Call: {
      if (node.literals.empty() || node.literals[0].kind() != Literal::Kind::String)
        fail(n, "call needs a result type");
      std::string_view r = node.literals[0].as_string();
      Insn& insn = push(Code::Call, n);
      if (r != "void") {
        insn.bits = static_cast<uint8_t>(type_bits_of(n, 0));
        insn.bits2 = 1;
      }
      insn.dst = result_of(1);
      insn.b = result_of(0);
      insn.c = input(0);
      insn.a = input(1);
      uint64_t first = out_.call_args.size();
      for (size_t i = 2; i < node.inputs.size(); ++i) out_.call_args.push_back(value(node.inputs[i]));
      insn.imm = first | (static_cast<uint64_t>(node.inputs.size() - 2) << 32);
      return;
    }
    case Op::VaStart: {
      Insn& insn = push(Code::VaStart, n);
      insn.dst = n;
      insn.c = input(0);
      insn.a = input(1);
      insn.b = out_.varargs;
      return;
    }
    case Op::VaArg: {
      Insn& insn = push(Code::VaArg, n);
      insn.bits = static_cast<uint8_t>(type_bits_of(n, 0));
      // A floating argument comes from the SSE part of the va_list.
      std::optional<ValueType> vt = literal_value_type(fn_.nodes[n].literals[0]);
      insn.aux = vt && is_float(*vt) ? 1 : 0;
      insn.dst = result_of(1);
      insn.b = result_of(0);
      insn.c = input(0);
      insn.a = input(1);
      return;
    }
    case Op::Alloca:
    case Op::StackSave: {
      Insn& insn = push(node.op == Op::Alloca ? Code::Alloca : Code::StackSave, n);
      insn.dst = result_of(1);
      insn.b = result_of(0);
      insn.c = input(0);
      if (node.op == Op::Alloca) insn.a = input(1);
      return;
    }
    case Op::FrameAddress:
    case Op::ReturnAddress:
      push(node.op == Op::FrameAddress ? Code::FrameAddress : Code::ReturnAddress, n).dst = n;
      return;
    case Op::StackRestore: {
      Insn& insn = push(Code::StackRestore, n);
      insn.dst = n;
      insn.c = input(0);
      insn.a = input(1);
      return;
    }
    case Op::F80Arith:
    case Op::F80Unary:
    case Op::F80Cmp:
    case Op::F80From:
    case Op::F80To:
    case Op::X64F80Arith:
    case Op::X64F80Unary:
    case Op::X64F80Cmp:
    case Op::X64F80From:
    case Op::X64F80To:
    case Op::X64Fldt:
    case Op::X64Fstpt: return emit_f80(n);
    case Op::V128Load:
    case Op::V128Store:
    case Op::V128Apply:
    case Op::V128Splat:
    case Op::V128Extract: return emit_vec(n);
    case Op::V128Op:
    case Op::X64V128Op:
      emit_v128(n);
      if (out_.ra) emit_clobbers(n);  // xmm0 and xmm1 (codegen-x64's scratch)
      return;
    case Op::AtomicRmw:
    case Op::AtomicCmpXchg:
    case Op::Fence: return emit_atomic(n);
    case Op::AtomicLoad: {
      unsigned bits = type_bits_of(n, 0);
      Insn& insn = push(Code::LoadV, n);
      insn.bits = static_cast<uint8_t>(bits);
      insn.bits2 = static_cast<uint8_t>(bits == 1 ? 1 : bits / 8);
      insn.dst = result_of(1);
      insn.b = result_of(0);
      insn.c = input(0);
      insn.a = input(1);
      return;
    }
    case Op::AtomicStore: {
      unsigned bits = type_bits_of(n, 0);
      Insn& insn = push(Code::StoreV, n);
      insn.bits = static_cast<uint8_t>(bits);
      insn.bits2 = static_cast<uint8_t>(bits == 1 ? 1 : bits / 8);
      insn.dst = n;
      insn.c = input(0);
      insn.a = input(1);
      insn.b = input(2);
      return;
    }
    case Op::Undef:
      if (out_.ra) return emit_ra(n);
      break;
    default:
      if (out_.ra) return emit_ra(n);
      if (is_float_op(node.op) && node.op != Op::FConst) return emit_float(n);
      if (x64::is_x64(node.op)) return emit_x64(n);
      break;
  }
  fail(n, "pipe-run cannot execute opcode '" + std::string(fn_.op_name(node.op)) + "' here");
}

}  // namespace pl::run
