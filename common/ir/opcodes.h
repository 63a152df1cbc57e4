// opcodes.h - access to the opcode table in opcodes.def.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pl {

using OpId = uint16_t;

enum OpFlag : uint32_t {
  PURE = 1u << 0,
  PINNED = 1u << 1,
  BLOCK = 1u << 2,
  TERMINATOR = 1u << 3,
  BRANCH = 1u << 4,
  PHI = 1u << 5,
  PROJ = 1u << 6,
  MEMORY = 1u << 7,
  CALL = 1u << 8,
  SLOT = 1u << 9,
  VOLATILE = 1u << 10,
  TRAPS = 1u << 11,
  COMMUTATIVE = 1u << 12,  // x64: the two value inputs may be swapped
};

// Level bits; bit i is Level(i) (see ir.h).
enum LevelBit : uint32_t {
  LV_AST = 1u << 0,
  LV_CFG = 1u << 1,
  LV_SSA = 1u << 2,
  LV_SON = 1u << 3,
  LV_SONX64 = 1u << 4,
  LV_CFGX64 = 1u << 5,
  LV_RAX64 = 1u << 6,
  // Every graph level (all but ast).
  LV_GRAPH = LV_CFG | LV_SSA | LV_SON | LV_SONX64 | LV_CFGX64 | LV_RAX64,
  // Target-independent levels (generic opcodes, before lowering).
  LV_GENERIC = LV_CFG | LV_SSA | LV_SON,
  // The x64 levels (x64: opcodes, after lowering).
  LV_X64 = LV_SONX64 | LV_CFGX64 | LV_RAX64,
};

enum Op : OpId {
#define OP(e, name, lits, ins, res, ctrl, flags, levels) e,
#include "ir/opcodes.def"
#undef OP
  kNumOps
};

struct OpInfo {
  std::string_view name;
  std::string_view literals;  // shape, see opcodes.def
  std::string_view inputs;    // shape, see opcodes.def
  std::string_view results;
  std::string_view control;   // "0", "1" or "+"
  uint32_t flags;
  uint32_t levels;
  bool has(uint32_t flag) const { return (flags & flag) != 0; }
};

// The table itself (opcodes.def), here so that op_info and the shape
// helpers inline: the verifier and every stage ask them per node and input.
inline constexpr OpInfo kOpTable[] = {
#define OP(e, name, lits, ins, res, ctrl, flags, levels) {name, lits, ins, res, ctrl, flags, levels},
#include "ir/opcodes.def"
#undef OP
};
static_assert(sizeof(kOpTable) / sizeof(kOpTable[0]) == kNumOps);

// The generic atomic operations (atomic.load, atomic.store, atomic.rmw,
// atomic.cmpxchg, fence): effects that order all escaped memory.
inline bool is_atomic(OpId op) {
  return op == Op::AtomicLoad || op == Op::AtomicStore || op == Op::AtomicRmw || op == Op::AtomicCmpXchg ||
         op == Op::Fence;
}

// Row of a table opcode; `op` must be < kNumOps.
inline const OpInfo& op_info(OpId op) { return kOpTable[op]; }
std::optional<OpId> find_op(std::string_view name);

// The naming rule of the seed: no `:` unless the part before the first `:`
// is a stage or platform prefix made of [A-Za-z0-9_.-]; in all cases a name
// is [A-Za-z_.][A-Za-z0-9_.:-]* so that the printable form can read it back.
bool valid_opcode_name(std::string_view name);

// Shapes (literal and input shapes of opcodes.def): letters, the last one
// optionally followed by '*' (repeated 0+ times) or '?' (0 or 1 times).
struct ShapeParts {
  std::string_view fixed;  // letters that must all be present
  char repeat = '\0';      // letter repeated 0+ times ('*')
  char optional = '\0';    // letter present 0 or 1 times ('?')
};
inline ShapeParts split_shape(std::string_view shape) {
  ShapeParts p;
  if (shape.size() >= 2 && (shape.back() == '*' || shape.back() == '?')) {
    (shape.back() == '*' ? p.repeat : p.optional) = shape[shape.size() - 2];
    p.fixed = shape.substr(0, shape.size() - 2);
  } else {
    p.fixed = shape;
  }
  return p;
}
// Does `shape` accept `count` items?
inline bool shape_accepts(std::string_view shape, size_t count) {
  ShapeParts p = split_shape(shape);
  if (p.repeat) return count >= p.fixed.size();
  if (p.optional) return count == p.fixed.size() || count == p.fixed.size() + 1;
  return count == p.fixed.size();
}
// The letter that item `index` must match; '\0' if out of the shape.
inline char shape_letter(std::string_view shape, size_t index) {
  ShapeParts p = split_shape(shape);
  if (index < p.fixed.size()) return p.fixed[index];
  if (p.repeat) return p.repeat;
  if (p.optional && index == p.fixed.size()) return p.optional;
  return '\0';
}
// Human form of the accepted counts: "2", "1 or 2", "at least 1".
std::string shape_count_text(std::string_view shape);
bool control_accepts(std::string_view control, size_t count);

}  // namespace pl
