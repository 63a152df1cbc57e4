// var_homes.cpp - which ast:vars become ssa: slots (see var_homes.h).
//
// The seed's rule for the naive translation: "ssa:load(index) /
// ssa:store(index, value) for all local variable lookups". A variable can be
// one only when nothing but whole-value loads and stores of one type reach
// it: any other use (its address escapes, it is read in pieces or through
// another type, it is volatile) needs memory, so it gets a stackslot.
#include "var_homes.h"

#include "ir/asm.h"

namespace pl {

namespace {

// The type literal of an access node, if it is a value type.
std::optional<std::string_view> access_type(const Node& n) {
  if (n.literals.empty() || n.literals[0].kind() != Literal::Kind::String) return std::nullopt;
  std::string_view type = n.literals[0].as_string();
  if (!is_value_type(type)) return std::nullopt;
  return std::string_view(type);
}

std::optional<uint64_t> var_size(const Node& var) {
  if (var.literals.size() != 3) return std::nullopt;
  const Literal& size = var.literals[1];
  if (size.kind() == Literal::Kind::UInt) return size.as_uint();
  if (size.kind() == Literal::Kind::Int && size.as_int() >= 0) return static_cast<uint64_t>(size.as_int());
  return std::nullopt;
}

// The type of an ast:asm's register output whose address is input i (an
// output variable kept in a slot is written by the asm's result), if it is
// one: a memory operand or an input needs the variable's address.
std::optional<std::string_view> asm_output_type(const Node& user, size_t i) {
  if (!check_asm_literals(user, false).empty()) return std::nullopt;
  size_t k = 0;
  for (const AsmOperand& op : asm_operands(user)) {
    if (op.cls == 'i') continue;
    if (k++ != i) continue;
    if (!op.yields_value()) return std::nullopt;
    return value_type_name(op.type);
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> value_type_size(std::string_view type) {
  if (type == "i1" || type == "i8") return 1;
  if (type == "i16") return 2;
  if (type == "i32" || type == "f32") return 4;
  if (type == "i64" || type == "ptr" || type == "f64") return 8;
  return std::nullopt;
}

std::vector<uint8_t> find_slot_vars(const Function& ast) {
  const size_t n = ast.nodes.size();
  enum State : uint8_t { Unused, Candidate, Memory };
  std::vector<uint8_t> state(n, Unused);
  std::vector<std::string_view> type(n);
  for (const Node& user : ast.nodes) {
    for (size_t i = 0; i < user.inputs.size(); ++i) {
      NodeId var = user.inputs[i];
      if (ast.nodes[var].op != AstVar || state[var] == Memory) continue;
      std::optional<std::string_view> t;
      if ((user.op == AstLoad || user.op == AstStore) && i == 0) t = access_type(user);
      if (user.op == AstAsm) t = asm_output_type(user, i);
      if (!t || (state[var] == Candidate && type[var] != *t)) {
        state[var] = Memory;
        continue;
      }
      state[var] = Candidate;
      type[var] = *t;
    }
  }
  std::vector<uint8_t> slot(n, 0);
  for (NodeId id = 0; id < n; ++id)
    slot[id] = state[id] == Candidate && var_size(ast.nodes[id]) == value_type_size(type[id]);
  return slot;
}

}  // namespace pl
