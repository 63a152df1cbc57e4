// asm.h - the operands of an inline assembly node (`ast:asm`, `asm`,
// `x64:asm`; FORMAT.md section 7, "Inline assembly").
//
// An asm node's literals are: its flags ("" or "volatile"), the template
// (gcc's extended syntax with every operand named by number: %0, %k1, %%,
// %=), its clobbers (a comma-separated list of "memory", "cc" and 64-bit
// register names) and one literal per operand, outputs first, in gcc's
// numbering. An operand literal is its normalized constraint and its type:
//
//   ROLE CLASS " " TYPE [" " REG]
//   ROLE   "" (input), "=" (output), "+" (output read first), then "&"
//          (early clobber) for outputs;
//   CLASS  "r" any general register, "Q" one of rax rbx rcx rdx, "x" an xmm
//          register, "{NAME}" exactly that register (64-bit name), "m"
//          memory (the operand's value is its address), "i" an immediate
//          (TYPE is then the integer value), or a number N: an input in the
//          register of output N;
//   TYPE   the operand's value type (i8 ... i64, ptr, f32, f64; "ptr" for
//          "m");
//   REG    at the x64 levels only: the register son-lower-x64 chose for it
//          (for "m", the register holding the address).
//
// The node's value inputs follow the operands: one for each operand but
// "=" register outputs and immediates (a "+" output's old value, an
// input's value, a memory operand's address). Its results are the memory
// state, then one value per register output, in operand order.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/eval.h"
#include "ir/ir.h"

namespace pl {

struct AsmOperand {
  bool output = false;   // "=" or "+"
  bool inout = false;    // "+"
  bool early = false;    // "&"
  char cls = 'r';        // 'r', 'Q', 'x', '{' (fixed: `fixed`), 'm', 'i', 'N' (matched: `match`)
  std::string fixed;     // the register of a "{NAME}" class
  int match = -1;        // the output an 'N' input shares a register with
  ValueType type = ValueType::I64;
  int64_t imm = 0;       // 'i'
  std::string reg;       // x64 levels: the chosen register ("" before)

  bool is_register() const { return cls != 'm' && cls != 'i'; }
  bool reads_value() const { return cls != 'i' && (!output || inout || cls == 'm'); }
  bool yields_value() const { return output && cls != 'm'; }
};

// Literal indexes of an asm node.
inline constexpr size_t kAsmFlags = 0, kAsmTemplate = 1, kAsmClobbers = 2, kAsmFirstOperand = 3;

// One operand literal; nullopt and `why` when it is malformed. `x64` says
// whether the register part is required (x64:asm) or forbidden.
std::optional<AsmOperand> parse_asm_operand(std::string_view text, bool x64, std::string& why);
std::string asm_operand_text(const AsmOperand& op, bool x64);

// The operands of a node whose literals are well formed (throws
// std::runtime_error otherwise: the verifier has checked them).
std::vector<AsmOperand> asm_operands(const Node& n);
// Whether the node is volatile; its clobbers, split.
bool asm_is_volatile(const Node& n);
std::vector<std::string> asm_clobbers(const Node& n);
bool asm_clobbers_memory(const Node& n);
// The number of value results (register outputs) and of value inputs.
size_t asm_value_results(const std::vector<AsmOperand>& ops);
size_t asm_value_inputs(const std::vector<AsmOperand>& ops);

// Checks a whole asm node's literals and operand relations: flags,
// template references (%N, %mN with a known modifier, %%, %=) in range,
// matched inputs naming a register output, at most one reading of each
// output... Returns the first problem, or "".
std::string check_asm_literals(const Node& n, bool x64);

}  // namespace pl

namespace pl {

// The template cut into pieces: text (with %% already turned into %), an
// operand reference (%N or %mN, m one of the modifiers b w k q h c n P a),
// or %= (a number unique to this asm statement in the object).
struct AsmPiece {
  enum class Kind : uint8_t { Text, Operand, Unique } kind = Kind::Text;
  std::string text;
  char modifier = 0;
  size_t operand = 0;
};
// nullopt and `why` for a malformed reference.
std::optional<std::vector<AsmPiece>> split_asm_template(std::string_view tmpl, size_t operands, std::string& why);

}  // namespace pl
