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
#include "opcodes.def"
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

// Row of a table opcode; `op` must be < kNumOps.
const OpInfo& op_info(OpId op);
std::optional<OpId> find_op(std::string_view name);

// The naming rule of the seed: no `:` unless the part before the first `:`
// is a stage or platform prefix made of [A-Za-z0-9_.-]; in all cases a name
// is [A-Za-z_.][A-Za-z0-9_.:-]* so that the printable form can read it back.
bool valid_opcode_name(std::string_view name);

// Shapes (literal and input shapes of opcodes.def).
// Does `shape` accept `count` items?
bool shape_accepts(std::string_view shape, size_t count);
// The letter that item `index` must match; '\0' if out of the shape.
char shape_letter(std::string_view shape, size_t index);
// Human form of the accepted counts: "2", "1 or 2", "at least 1".
std::string shape_count_text(std::string_view shape);
bool control_accepts(std::string_view control, size_t count);

}  // namespace pl
