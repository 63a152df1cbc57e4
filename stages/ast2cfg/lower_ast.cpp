// lower_ast.cpp - the naive translation of an ast-level function into a
// cfg-level one (the seed's "AST to SSA-less CFG"; FORMAT.md G is the input,
// C and "Memory at the cfg level" the output).
//
// Algorithm. A syntax-directed translation in the style of the Dragon book's
// control-flow translation (Aho, Lam, Sethi, Ullman, 6.6-6.7): statements
// append code to a current block and create blocks for their joins, loops
// and jump targets; conditions are translated as jumping code (branch(e,
// T, F): && and || short-circuit into blocks, a constant condition becomes a
// jump), values left to right in the tree's input order, each pure node in
// the block where it is evaluated. The walk is an explicit stack of frames
// (node, mode, step, scratch), never recursion: a frame advances one step
// at a time and pushes the children it needs; values flow back on a value
// stack. So a 1M-node function with deeply nested expressions or a long
// else-if chain needs no call stack, and the whole translation is linear.
//
// Where things live:
//   - an ast:var that find_slot_vars() accepts becomes an ssa: slot (loads
//     and stores of it are ssa:load/ssa:store n); any other var gets a
//     `stackslot size align` at the top of block 0, and its accesses are
//     real loads and stores;
//   - memory is slot 0: entrymem is stored there in block 0, and every
//     memory operation reads it with ssa:load 0 just before and stores the
//     memory it produces (a call's and a volatile load's through proj 0);
//     a return reads it;
//   - values that cross blocks inside an expression (&&, || and ?: with a
//     value) go through a fresh temporary slot, stored in each arm and read
//     once after the merge;
//   - slots are numbered by first use: 1, 2, ... for variables and
//     temporaries alike.
//
// Control flow: if, while, do, for, break, continue, switch (a compare
// chain `eq t` in the switch's type, emitted after the body has made the
// case blocks; cases fall through; the default may be anywhere), labels
// (a block each, made by the first goto or the label itself) and gotos
// (forward, backward, into loops). A region's control inputs and the block
// order are settled by CfgBuilder::finish(): blocks reachable from the entry
// only (code after a return, break or goto that nothing jumps to is
// dropped), in reverse postorder. Falling off the end returns 0 from main,
// nothing from a void function, and otherwise an ssa:load of a slot never
// stored (cfg2ssa makes it ssa:undefined).
//
// Branch probabilities (FORMAT.md section 7): an `if` that tests a value
// gets the probability of the ast:expect it tests, read through `eq x 0`
// (inverted), `ne x 0`, sext/zext and a seq's value
// (ir/probability.h's ast_branch_probability); an ast:expect in value
// position is its operand, and one around a constant, && or || (no single
// branch) is dropped.
//
// Needs: a function at the ast level that passes the verifier (the tool
// verifies it first by default). Without that (--no-verify) every rule the
// translation depends on is checked as it goes and reported as a
// FormatError at the ast node: a node reached twice (shared or cyclic), a
// malformed node, a break outside a loop, a goto without its label, a label
// inside an expression, the value of a void call used.
//
// Keeps: every node carries the location of the ast node it comes from;
// the output passes the cfg level's contract (FORMAT.md C). Debug
// information: a variable in a stackslot keeps it as its slot; one in an
// ssa: slot gets the slot's number (`ssa_slot`), which cfg2ssa turns into
// value bindings.
//
// Departures from the seed: the seed threads only locals through ssa:
// slots; we thread the memory state through slot 0 too, so that cfg2ssa
// builds memory phis like any other (issue 3, section 2).
#include "lower_ast.h"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/abi.h"
#include "ir/asm.h"
#include "bitfields.h"
#include "cfg_builder.h"
#include "ir/error.h"
#include "ir/eval.h"
#include "ir/probability.h"
#include "encoding/text_format.h"
#include "var_homes.h"

namespace pl {

namespace {

constexpr uint32_t kNone = UINT32_MAX;
constexpr NodeId kNoValue = UINT32_MAX;

Literal int_lit(int64_t v) { return Literal::integer(v); }
Literal str_lit(const std::string& s) { return Literal::string(s); }

// Width in bits of a value type (ptr is 64 bits).
unsigned type_bits(const std::string& type) {
  if (type == "i1") return 1;
  if (type == "i8") return 8;
  if (type == "i16") return 16;
  if (type == "i32") return 32;
  return 64;
}


[[noreturn]] void fail_at(const Function& fn, NodeId id, const std::string& message) {
  throw FormatError(Where::in(fn.name, node_name(id)), message, print_node_line(fn, id));
}

NodeId find_root(const Function& ast) {
  NodeId root = kNoValue;
  for (NodeId id = 0; id < ast.nodes.size(); ++id) {
    if (ast.nodes[id].op != AstFunction) continue;
    if (root != kNoValue) fail_at(ast, id, "second ast:function; the root is " + node_name(root));
    root = id;
  }
  if (root == kNoValue) throw FormatError(Where::in(ast.name, "graph"), "the function has no ast:function root");
  return root;
}

class Lowerer {
 public:
  Lowerer(const Function& ast, bool vars_in_memory)
      : ast_(ast), root_(find_root(ast)), visited_(ast.nodes.size(), 0), slot_var_(find_slot_vars(ast)),
        slot_of_(ast.nodes.size(), kNone), stackslot_of_(ast.nodes.size(), kNoValue), b_(ast.nodes[root_].loc, 2 * ast.nodes.size() + 16) {
    if (vars_in_memory)
      for (const DebugVar& v : ast.debug.vars)
        if (v.slot < slot_var_.size()) slot_var_[v.slot] = 0;
  }

  Function run() {
    check_shape(root_);
    visited_[root_] = 1;
    open_entry();
    push(node(root_).inputs[0], Mode::Stmt);
    while (!frames_.empty()) step();
    fall_off_end();
    check_gotos();
    Function out;
    out.name = ast_.name;
    out.linkage = ast_.linkage;
    out.signature = ast_.signature;
    out.attrs = ast_.attrs;
    std::vector<NodeId> final_id = b_.finish(out);
    out.debug = ast_.debug;
    // A variable in an ssa: slot keeps the slot's number: cfg2ssa binds
    // it to the values stored there (debug value bindings).
    for (DebugVar& v : out.debug.vars)
      if (v.slot < slot_of_.size() && is_slot_var(v.slot) && slot_of_[v.slot] != kNone) v.ssa_slot = slot_of_[v.slot];
    std::vector<NodeId> slot_of_var(stackslot_of_.size(), kNoValue);  // ast:var -> final stackslot
    for (NodeId v = 0; v < stackslot_of_.size(); ++v)
      if (stackslot_of_[v] != kNoValue && final_id[stackslot_of_[v]] != UINT32_MAX) slot_of_var[v] = final_id[stackslot_of_[v]];
    remap_debug_slots(out.debug, slot_of_var, kNoValue);
    return out;
  }

 private:
  // Stmt: for effects. Value: pushes its value on values_ (unless discard).
  // Branch: jumps to block a if the value is non-zero, else to block b.
  enum class Mode : uint8_t { Stmt, Value, Branch };
  struct Frame {
    NodeId id;
    Mode mode;
    bool discard = false;  // Value: drop the result (an expression statement)
    uint8_t step = 0;
    uint32_t a = kNone, b = kNone, c = kNone, d = kNone;  // blocks and slots of the construct
  };
  struct SwitchContext {
    NodeId ast;
    NodeId value;
    uint32_t dispatch;
    uint32_t exit;
    std::vector<std::pair<NodeId, uint32_t>> cases;  // (ast:case, its block), in body order
    NodeId default_ast = kNoValue;
    uint32_t default_block = kNone;
  };
  struct Label {
    uint32_t block;
    bool placed = false;
    NodeId first_goto = kNoValue;
  };

  // ---- the ast ----
  const Node& node(NodeId id) const { return ast_.nodes[id]; }
  Loc loc(NodeId id) const { return node(id).loc; }
  NodeId input(NodeId id, size_t i) const { return node(id).inputs[i]; }
  std::string op_name(NodeId id) const { return std::string(ast_.op_name(node(id).op)); }
  [[noreturn]] void fail(NodeId id, const std::string& message) const { fail_at(ast_, id, message); }

  // Opcode and counts; the literal accessors below check the kinds.
  void check_shape(NodeId id) const {
    const Node& n = node(id);
    if (n.op >= kNumOps || !(op_info(n.op).levels & LV_AST))
      fail(id, "opcode '" + op_name(id) + "' is not an ast-level opcode");
    const OpInfo& info = op_info(n.op);
    if (!shape_accepts(info.literals, n.literals.size()) || !shape_accepts(info.inputs, n.inputs.size()))
      fail(id, "'" + op_name(id) + "' takes " + shape_count_text(info.literals) + " literal(s) and " +
                   shape_count_text(info.inputs) + " input(s)");
  }
  const Literal& literal(NodeId id, size_t i) const { return node(id).literals[i]; }
  std::string string_literal(NodeId id, size_t i) const {
    if (literal(id, i).kind() != Literal::Kind::String) fail(id, "literal " + std::to_string(i) + " must be a string");
    return std::string(literal(id, i).as_string());
  }
  std::string type_literal(NodeId id, size_t i) const {
    const std::string& t = string_literal(id, i);
    if (!is_value_type(t)) fail(id, "literal " + std::to_string(i) + " must be a value type");
    return t;
  }
  std::string float_type_literal(NodeId id, size_t i) const {
    const std::string& t = type_literal(id, i);
    if (!is_float_type(t)) fail(id, "literal " + std::to_string(i) + " must be a floating-point type (f32 or f64)");
    return t;
  }
  std::string result_literal(NodeId id, size_t i) const {
    const std::string& t = string_literal(id, i);
    if (t != "void" && !is_value_type(t)) fail(id, "literal " + std::to_string(i) + " must be a value type or void");
    return t;
  }
  const Literal& int_literal(NodeId id, size_t i) const {
    if (!literal(id, i).is_int()) fail(id, "literal " + std::to_string(i) + " must be an integer");
    return literal(id, i);
  }
  Literal count_literal(NodeId id, size_t i) const {
    const Literal& lit = int_literal(id, i);
    if (lit.kind() == Literal::Kind::Int && lit.as_int() < 0)
      fail(id, "literal " + std::to_string(i) + " must be a non-negative integer");
    return lit;
  }

  // ---- frames ----
  // Pushes a child of the node being translated: each node but ast:var is
  // translated once, so a shared or cyclic node is an error, not a blowup.
  void push(NodeId id, Mode mode, bool discard = false, uint32_t a = kNone, uint32_t b = kNone) {
    check_shape(id);
    if (node(id).op != AstVar) {
      if (visited_[id]) fail(id, "node is reached twice: it is the input of two nodes, or on a cycle of inputs");
      visited_[id] = 1;
    }
    push_again(id, mode, discard, a, b);
  }
  // Pushes a frame for a node already claimed (translating it in another mode).
  void push_again(NodeId id, Mode mode, bool discard = false, uint32_t a = kNone, uint32_t b = kNone) {
    Frame f{id, mode, discard};
    f.a = a;
    f.b = b;
    if (mode == Mode::Value) ++value_depth_;
    frames_.push_back(f);
  }
  void push_branch(NodeId id, uint32_t if_true, uint32_t if_false) { push(id, Mode::Branch, false, if_true, if_false); }
  void pop_frame() {
    if (frames_.back().mode == Mode::Value) --value_depth_;
    frames_.pop_back();
  }
  // Turns the top Value frame into another mode, at its first step.
  void retarget(Frame& f, Mode mode) {
    if (f.mode == Mode::Value) --value_depth_;
    if (mode == Mode::Value) ++value_depth_;
    f.mode = mode;
  }
  void finish_value(NodeId v) {
    Frame f = frames_.back();
    pop_frame();
    if (f.discard) return;
    if (v == kNoValue) fail(f.id, "the value of a void '" + op_name(f.id) + "' is used");
    values_.push_back(v);
  }
  NodeId pop_value() {
    NodeId v = values_.back();
    values_.pop_back();
    return v;
  }
  InputList pop_values(size_t count) {
    InputList in;
    for (size_t i = values_.size() - count; i < values_.size(); ++i) in.push_back(values_[i]);
    values_.resize(values_.size() - count);
    return in;
  }
  void push_inputs_left_to_right(NodeId id, Mode mode) {
    const Node& n = node(id);
    for (size_t i = n.inputs.size(); i-- > 0;) push(n.inputs[i], mode);
  }

  void step() {
    Frame& f = frames_.back();
    switch (f.mode) {
      case Mode::Stmt: return statement(f);
      case Mode::Value: return value(f);
      case Mode::Branch: return branch(f);
    }
  }

  // ---- slots and memory ----
  uint32_t new_slot() { return next_slot_++; }
  bool is_slot_var(NodeId id) const { return node(id).op == AstVar && slot_var_[id]; }
  uint32_t slot_of(NodeId var) {
    if (slot_of_[var] == kNone) slot_of_[var] = new_slot();
    return slot_of_[var];
  }
  NodeId slot_load(uint32_t slot, Loc l) { return b_.emit(SsaLoad, l, {int_lit(slot)}); }
  void slot_store(uint32_t slot, NodeId v, Loc l) { b_.emit(SsaStore, l, {int_lit(slot)}, {v}); }
  NodeId memory(Loc l) { return slot_load(kMemorySlot, l); }
  void set_memory(NodeId m, Loc l) { slot_store(kMemorySlot, m, l); }
  // What a memory operation yields besides reading memory: nothing more (a
  // load), a new memory state (store, copy), or a tuple whose proj 0 is the
  // new memory state (call, volatile load).
  enum class Yields : uint8_t { Value, Memory, Tuple };
  // A memory operation: reads the memory slot, and stores back the new
  // memory state if it makes one.
  NodeId memory_op(Op op, Loc l, LiteralList lits, InputList operands, Yields yields) {
    InputList in;
    in.push_back(memory(l));
    for (NodeId x : operands) in.push_back(x);
    NodeId n = b_.emit(op, l, std::move(lits), std::move(in));
    if (yields == Yields::Memory) set_memory(n, l);
    if (yields == Yields::Tuple) set_memory(b_.emit(Proj, l, {int_lit(0)}, {n}), l);
    return n;
  }
  NodeId stack_address(NodeId var) {
    if (stackslot_of_[var] == kNoValue)
      stackslot_of_[var] = b_.emit_at_entry(StackSlot, loc(var), {count_literal(var, 1), count_literal(var, 2)});
    return stackslot_of_[var];
  }
  // A read of a slot that nothing stores: cfg2ssa makes it ssa:undefined.
  NodeId undefined_value(Loc l) { return slot_load(new_slot(), l); }

  // ---- function entry and exit ----
  void open_entry() {
    Loc l = loc(root_);
    // entrymem, the params and the stack slots open block 0 (emit_at_entry);
    // the store of the memory state is the first node after them.
    set_memory(b_.emit_at_entry(EntryMem, l), l);
    const std::vector<std::string>& params = ast_.signature.params;
    for (size_t i = 0; i < params.size(); ++i)
      params_.push_back(b_.emit_at_entry(Param, l, {str_lit(std::string(param_value_type(params[i]))),
                                                    int_lit(static_cast<int64_t>(i))}));
  }

  void emit_return(NodeId v, Loc l) {
    InputList in;
    in.push_back(memory(l));
    if (v != kNoValue) in.push_back(v);
    b_.ret(std::move(in), l);
  }

  void fall_off_end() {
    if (!b_.is_open()) return;
    Loc l = loc(root_);
    const std::string& result = ast_.signature.result;
    NodeId v = kNoValue;
    if (result != "void")
      v = ast_.name == "main" ? b_.emit(Const, l, {str_lit(result), int_lit(0)}) : undefined_value(l);
    emit_return(v, l);
  }

  void check_gotos() const {
    for (const Label& label : labels_)
      if (!label.placed)
        fail(label.first_goto, "ast:goto names no label of the function: " +
                                   quote_for_message(string_literal(label.first_goto, 0)));
  }

  Label& label(NodeId id) {
    const std::string& name = string_literal(id, 0);
    auto [it, fresh] = label_index_.emplace(name, static_cast<uint32_t>(labels_.size()));
    if (fresh) labels_.push_back(Label{b_.new_block(loc(id))});
    return labels_[it->second];
  }

  // ---- statements ----
  void statement(Frame& f) {
    switch (node(f.id).op) {
      case AstBlock: return block_stmt(f);
      case AstNop: return pop_frame();
      case AstIf: return if_stmt(f);
      case AstWhile: return while_stmt(f);
      case AstDo: return do_stmt(f);
      case AstFor: return for_stmt(f);
      case AstBreak: return jump_stmt(f, breaks_, "ast:break is not inside a loop or switch");
      case AstContinue: return jump_stmt(f, continues_, "ast:continue is not inside a loop");
      case AstReturn: return return_stmt(f);
      case AstSwitch: return switch_stmt(f);
      case AstCase:
      case AstDefault: return case_stmt(f);
      case AstLabel: return label_stmt(f);
      case AstGoto: return goto_stmt(f);
      case AstFunction: fail(f.id, "ast:function is the root; it cannot be a statement");
      case AstSeq: return seq_stmt(f);
      case AstCond: return cond_stmt(f);
      case AstStackRestore: return stack_restore_stmt(f);
      case AstFence: return fence_stmt(f);
      case AstAsm: return asm_stmt(f);
      default:  // an expression statement: evaluate, drop the value
        f.discard = true;
        return retarget(f, Mode::Value);
    }
  }

  void block_stmt(Frame& f) {
    NodeId id = f.id;
    if (f.step++ == 0)
      push_inputs_left_to_right(id, Mode::Stmt);
    else
      pop_frame();
  }

  void if_stmt(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    bool has_else = node(id).inputs.size() == 3;
    switch (f.step++) {
      case 0: {
        uint32_t then_block = b_.new_block(loc(input(id, 1))), join = b_.new_block(l);
        uint32_t else_block = has_else ? b_.new_block(loc(input(id, 2))) : join;
        f.a = then_block, f.b = else_block, f.c = join;
        return push_branch(input(id, 0), then_block, else_block);
      }
      case 1:
        b_.switch_to(f.a);
        return push(input(id, 1), Mode::Stmt);
      case 2: {
        uint32_t else_block = f.b, join = f.c;
        b_.jump(join, l);
        if (has_else) {
          b_.switch_to(else_block);
          return push(input(id, 2), Mode::Stmt);
        }
        pop_frame();
        return b_.switch_to(join);
      }
      default: {
        uint32_t join = f.c;
        pop_frame();
        b_.jump(join, l);
        return b_.switch_to(join);
      }
    }
  }

  void enter_loop_body(uint32_t break_to, uint32_t continue_to) {
    breaks_.push_back(break_to);
    continues_.push_back(continue_to);
  }
  void leave_loop_body() {
    breaks_.pop_back();
    continues_.pop_back();
  }

  // head: if cond -> body, exit; body: ...; jump head
  void while_stmt(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    switch (f.step++) {
      case 0: {
        uint32_t head = b_.new_block(l);
        b_.jump(head, l);
        b_.switch_to(head);
        uint32_t body = b_.new_block(loc(input(id, 1))), exit = b_.new_block(l);
        f.a = head, f.b = body, f.c = exit;
        return push_branch(input(id, 0), body, exit);
      }
      case 1:
        b_.switch_to(f.b);
        enter_loop_body(f.c, f.a);
        return push(input(id, 1), Mode::Stmt);
      default: {
        uint32_t head = f.a, exit = f.c;
        pop_frame();
        leave_loop_body();
        b_.jump(head, l);
        return b_.switch_to(exit);
      }
    }
  }

  // body: ...; jump cond; cond: if c -> body, exit
  void do_stmt(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    switch (f.step++) {
      case 0: {
        uint32_t body = b_.new_block(loc(input(id, 0))), cond = b_.new_block(loc(input(id, 1))),
                 exit = b_.new_block(l);
        f.a = body, f.b = cond, f.c = exit;
        b_.jump(body, l);
        b_.switch_to(body);
        enter_loop_body(exit, cond);
        return push(input(id, 0), Mode::Stmt);
      }
      case 1:
        leave_loop_body();
        b_.jump(f.b, l);
        b_.switch_to(f.b);
        return push_branch(input(id, 1), f.a, f.c);
      default: {
        uint32_t exit = f.c;
        pop_frame();
        return b_.switch_to(exit);
      }
    }
  }

  // init; head: if cond -> body, exit; body: ...; jump next; next: step; jump head
  void for_stmt(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    switch (f.step++) {
      case 0: return push(input(id, 0), Mode::Stmt);
      case 1: {
        uint32_t head = b_.new_block(loc(input(id, 1)));
        b_.jump(head, l);
        b_.switch_to(head);
        uint32_t body = b_.new_block(loc(input(id, 3))), next = b_.new_block(loc(input(id, 2))),
                 exit = b_.new_block(l);
        f.a = head, f.b = body, f.c = next, f.d = exit;
        return push_branch(input(id, 1), body, exit);
      }
      case 2:
        b_.switch_to(f.b);
        enter_loop_body(f.d, f.c);
        return push(input(id, 3), Mode::Stmt);
      case 3:
        leave_loop_body();
        b_.jump(f.c, l);
        b_.switch_to(f.c);
        return push(input(id, 2), Mode::Stmt);
      default: {
        uint32_t head = f.a, exit = f.d;
        pop_frame();
        b_.jump(head, l);
        return b_.switch_to(exit);
      }
    }
  }

  void jump_stmt(Frame& f, const std::vector<uint32_t>& targets, const char* outside) {
    NodeId id = f.id;
    if (targets.empty()) fail(id, outside);
    pop_frame();
    b_.jump(targets.back(), loc(id));
  }

  void return_stmt(Frame& f) {
    NodeId id = f.id;
    bool has_value = node(id).inputs.size() == 1, void_function = ast_.signature.result == "void";
    if (f.step++ == 0 && has_value) return push(input(id, 0), Mode::Value, void_function);
    pop_frame();
    NodeId v = kNoValue;
    if (!void_function) v = has_value ? pop_value() : undefined_value(loc(id));
    emit_return(v, loc(id));
  }

  // ast:asm (FORMAT.md 7, "Inline assembly"): the operands' addresses and
  // values left to right, then the asm (a "+" output's old value read
  // first), then each register output stored to its lvalue; an output
  // variable kept in a slot is read and written as the slot, never given
  // an address.
  bool asm_output_in_slot(const AsmOperand& op, NodeId in) const {
    return op.output && op.cls != 'm' && is_slot_var(in);
  }
  void asm_stmt(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    std::string why = check_asm_literals(node(id), false);
    if (!why.empty()) fail(id, "ast:asm " + why);
    std::vector<AsmOperand> ops = asm_operands(node(id));
    std::vector<NodeId> evaluated;
    size_t k = 0;
    for (const AsmOperand& op : ops) {
      if (op.cls == 'i') continue;
      if (k >= node(id).inputs.size()) fail(id, "ast:asm has fewer inputs than operands that need one");
      NodeId in = input(id, k++);
      if (!asm_output_in_slot(op, in)) evaluated.push_back(in);
    }
    if (f.step++ == 0) {
      for (size_t i = evaluated.size(); i-- > 0;) push(evaluated[i], Mode::Value);
      return;
    }
    pop_frame();
    InputList values = pop_values(evaluated.size());
    struct Output {
      NodeId address;
      uint32_t slot;
      std::string type;
    };
    std::vector<Output> outputs;
    InputList reads;
    k = 0;
    size_t v = 0;
    for (const AsmOperand& op : ops) {
      if (op.cls == 'i') continue;
      NodeId in = input(id, k++);
      bool slot = asm_output_in_slot(op, in);
      if (slot) check_shape(in);
      NodeId value = slot ? kNoValue : values[v++];
      if (!op.yields_value()) {
        reads.push_back(value);
        continue;
      }
      std::string type(value_type_name(op.type));
      outputs.push_back({value, slot ? slot_of(in) : kNone, type});
      if (op.inout)
        reads.push_back(slot ? slot_load(slot_of(in), l) : memory_op(Load, l, {str_lit(type)}, {value}, Yields::Value));
    }
    LiteralList literals;
    for (const Literal& lit : node(id).literals) literals.push_back(lit);
    NodeId a = memory_op(Asm, l, std::move(literals), std::move(reads), Yields::Tuple);
    for (size_t j = 0; j < outputs.size(); ++j) {
      NodeId r = b_.emit(Proj, l, {int_lit(static_cast<int64_t>(j + 1))}, {a});
      if (outputs[j].slot != kNone)
        slot_store(outputs[j].slot, r, l);
      else
        memory_op(Store, l, {str_lit(outputs[j].type)}, {outputs[j].address, r}, Yields::Memory);
    }
  }

  // The body first (its cases make their blocks), then the compare chain in
  // the block the switch value was computed in.
  void switch_stmt(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    switch (f.step++) {
      case 0:
        type_literal(id, 0);
        return push(input(id, 0), Mode::Value);
      case 1: {
        NodeId v = pop_value();
        uint32_t dispatch = b_.detach(l), exit = b_.new_block(l);
        switches_.push_back(SwitchContext{id, v, dispatch, exit, {}});
        breaks_.push_back(exit);
        return push(input(id, 1), Mode::Stmt);
      }
      default: {
        pop_frame();
        breaks_.pop_back();
        SwitchContext s = std::move(switches_.back());
        switches_.pop_back();
        b_.jump(s.exit, l);
        emit_dispatch(s);
      }
    }
  }

  void emit_dispatch(const SwitchContext& s) {
    const std::string& type = type_literal(s.ast, 0);
    b_.switch_to(s.dispatch);
    for (const auto& [case_ast, target] : s.cases) {
      Loc l = loc(case_ast);
      NodeId k = b_.emit(Const, l, {str_lit(type), int_literal(case_ast, 0)});
      NodeId equal = b_.emit(Eq, l, {str_lit(type)}, {s.value, k});
      uint32_t next = b_.new_block(l);
      b_.branch(equal, target, next, l);
      b_.switch_to(next);
    }
    b_.jump(s.default_block != kNone ? s.default_block : s.exit, loc(s.ast));
    b_.switch_to(s.exit);
  }

  void check_not_in_expression(NodeId id) const {
    if (value_depth_ > 0) fail(id, "'" + op_name(id) + "' is inside an expression; a jump to it would skip operands");
  }

  // Falls through from the code before it, then runs its statement.
  void enter_target(uint32_t block, Loc l) {
    b_.jump(block, l);
    b_.switch_to(block);
  }

  void case_stmt(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    if (f.step++ != 0) return pop_frame();
    check_not_in_expression(id);
    if (switches_.empty()) fail(id, "'" + op_name(id) + "' is not inside a switch body");
    SwitchContext& s = switches_.back();
    uint32_t block = b_.new_block(l);
    if (node(id).op == AstDefault) {
      if (s.default_block != kNone)
        fail(id, "second ast:default in the switch " + node_name(s.ast) + "; the first is " + node_name(s.default_ast));
      s.default_ast = id;
      s.default_block = block;
    } else {
      int_literal(id, 0);
      s.cases.emplace_back(id, block);
    }
    enter_target(block, l);
    push(input(id, 0), Mode::Stmt);
  }

  void label_stmt(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    if (f.step++ != 0) return pop_frame();
    check_not_in_expression(id);
    Label& target = label(id);
    if (target.placed) fail(id, "label " + quote_for_message(string_literal(id, 0)) + " is defined twice");
    target.placed = true;
    b_.set_block_loc(target.block, l);
    enter_target(target.block, l);
    push(input(id, 0), Mode::Stmt);
  }

  void goto_stmt(Frame& f) {
    NodeId id = f.id;
    pop_frame();
    Label& target = label(id);
    if (target.first_goto == kNoValue) target.first_goto = id;
    b_.jump(target.block, loc(id));
  }

  void seq_stmt(Frame& f) {
    NodeId id = f.id;
    if (f.step++ != 0) return pop_frame();
    push(input(id, 1), Mode::Stmt);
    push(input(id, 0), Mode::Stmt);
  }

  // c ? a : b for its effects: the arms are statements.
  void cond_stmt(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    switch (f.step++) {
      case 0: {
        result_literal(id, 0);
        uint32_t yes = b_.new_block(loc(input(id, 1))), no = b_.new_block(loc(input(id, 2))), join = b_.new_block(l);
        f.a = yes, f.b = no, f.c = join;
        return push_branch(input(id, 0), yes, no);
      }
      case 1:
        b_.switch_to(f.a);
        return push(input(id, 1), Mode::Stmt);
      case 2:
        b_.jump(f.c, l);
        b_.switch_to(f.b);
        return push(input(id, 2), Mode::Stmt);
      default: {
        uint32_t join = f.c;
        pop_frame();
        b_.jump(join, l);
        return b_.switch_to(join);
      }
    }
  }

  // ---- values ----
  void value(Frame& f) {
    NodeId id = f.id;
    switch (node(id).op) {
      case AstVar:
        if (is_slot_var(id)) fail(id, "a variable kept in a slot is used as an address");
        return finish_value(stack_address(id));
      case AstParam: return finish_value(param_value(id));
      case AstConst:
        type_literal(id, 0);
        int_literal(id, 1);
        return finish_value(b_.emit(Const, loc(id), {literal(id, 0), literal(id, 1)}));
      case AstFConst:
        float_type_literal(id, 0);
        if (literal(id, 1).kind() != Literal::Kind::Float) fail(id, "literal 1 must be a floating-point number");
        return finish_value(b_.emit(FConst, loc(id), {literal(id, 0), literal(id, 1)}));
      case AstSymAddr:
        if (string_literal(id, 0).empty()) fail(id, "ast:symaddr needs a symbol name");
        return finish_value(b_.emit(SymAddr, loc(id), {literal(id, 0)}));
      case AstTlsAddr:
        if (string_literal(id, 0).empty()) fail(id, "ast:tlsaddr needs a symbol name");
        return finish_value(b_.emit(TlsAddr, loc(id), {literal(id, 0)}));
      case AstOp: return op_value(f);
      case AstLoad:
      case AstLoadV: return load_value(f);
      case AstStore:
      case AstStoreV: return store_value(f);
      case AstCopy: return copy_value(f);
      case AstF80Arith:
      case AstF80Unary:
      case AstF80Cmp:
      case AstF80From:
      case AstF80To: return f80_value(f);
      case AstV128Op: return v128_value(f);
      case AstBitLoad:
      case AstBitLoadV:
      case AstBitStore:
      case AstBitStoreV: return bitfield_value(f);
      case AstCall: return call_value(f);
      case AstAtomicLoad:
      case AstAtomicStore:
      case AstAtomicRmw:
      case AstAtomicCmpXchg: return atomic_value(f);
      case AstVaStart:
      case AstVaArg: return va_value(f);
      case AstAlloca:
      case AstStackSave: return dynamic_stack_value(f);
      case AstFrameAddress: return finish_value(b_.emit(FrameAddress, loc(f.id)));
      case AstReturnAddress: return finish_value(b_.emit(ReturnAddress, loc(f.id)));
      case AstAnd:
      case AstOr: return and_or_value(f);
      case AstCond: return cond_value(f);
      case AstSeq: return seq_value(f);
      case AstExpect: return expect_value(f);
      default: fail(id, "'" + op_name(id) + "' is a statement; a value is expected here");
    }
  }

  NodeId param_value(NodeId id) const {
    const std::string& type = type_literal(id, 0);
    Literal index_literal = count_literal(id, 1);
    uint64_t index = index_literal.kind() == Literal::Kind::UInt ? index_literal.as_uint()
                                                                 : static_cast<uint64_t>(index_literal.as_int());
    const std::vector<std::string>& params = ast_.signature.params;
    if (index >= params.size())
      fail(id, "ast:param index is out of range: the signature has " + std::to_string(params.size()) + " parameter(s)");
    if (type != param_value_type(params[index]))
      fail(id, "ast:param has type '" + type + "', but the signature says '" + params[index] + "'");
    return params_[index];
  }

  // The opcode an ast:op names, with its literal and input counts checked.
  Op generic_op(NodeId id) const {
    const std::string& name = string_literal(id, 0);
    std::optional<OpId> op = find_op(name);
    if (!op || !is_ast_op_target(static_cast<Op>(*op)))
      fail(id, "ast:op names " + quote_for_message(name) + ", which is not an arithmetic, comparison or conversion opcode");
    const OpInfo& info = op_info(*op);
    const Node& n = node(id);
    if (n.literals.size() - 1 != info.literals.size() || !shape_accepts(info.inputs, n.inputs.size()))
      fail(id, "ast:op '" + name + "' takes " + std::to_string(info.literals.size()) + " type literal(s) and " +
                   shape_count_text(info.inputs) + " input(s)");
    for (size_t i = 1; i < n.literals.size(); ++i) type_literal(id, i);
    return static_cast<Op>(*op);
  }

  void op_value(Frame& f) {
    NodeId id = f.id;
    Op op = generic_op(id);
    if (f.step++ == 0) return push_inputs_left_to_right(id, Mode::Value);
    const Node& n = node(id);
    LiteralList lits;
    for (size_t i = 1; i < n.literals.size(); ++i) lits.push_back(n.literals[i]);
    InputList in = pop_values(n.inputs.size());
    finish_value(b_.emit(op, loc(id), std::move(lits), std::move(in)));  // a division gets its block as control
  }

  void load_value(Frame& f) {
    NodeId id = f.id, address = input(id, 0);
    Loc l = loc(id);
    const std::string& type = type_literal(id, 0);
    bool is_volatile = node(id).op == AstLoadV;
    if (!is_volatile && is_slot_var(address)) {
      check_shape(address);
      return finish_value(slot_load(slot_of(address), l));
    }
    if (f.step++ == 0) return push(address, Mode::Value);
    NodeId a = pop_value();
    if (!is_volatile) return finish_value(memory_op(Load, l, {str_lit(type)}, {a}, Yields::Value));
    NodeId access = memory_op(LoadV, l, {str_lit(type)}, {a}, Yields::Tuple);
    finish_value(b_.emit(Proj, l, {int_lit(1)}, {access}));
  }

  void store_value(Frame& f) {
    NodeId id = f.id, address = input(id, 0), stored = input(id, 1);
    Loc l = loc(id);
    const std::string& type = type_literal(id, 0);
    bool is_volatile = node(id).op == AstStoreV;
    bool in_slot = !is_volatile && is_slot_var(address);
    if (f.step++ == 0) {
      if (in_slot) {
        check_shape(address);
        return push(stored, Mode::Value);
      }
      push(stored, Mode::Value);
      return push(address, Mode::Value);
    }
    NodeId v = pop_value();
    if (in_slot) {
      slot_store(slot_of(address), v, l);
    } else {
      NodeId a = pop_value();
      memory_op(is_volatile ? StoreV : Store, l, {str_lit(type)}, {a, v}, Yields::Memory);
    }
    finish_value(v);
  }

  // ast:bitload and ast:bitstore: masked accesses of the unit, lowered by
  // bitfields.cpp.
  BitFieldAccess bitfield_literals(NodeId id) const {
    std::string why;
    std::optional<BitFieldAccess> field = decode_bitfield(node(id), why);
    if (!field) fail(id, why);
    return *field;
  }

  class BitFieldNodes : public BitFieldEmitter {
   public:
    BitFieldNodes(Lowerer& lowerer, Loc l, bool is_volatile) : lowerer_(lowerer), loc_(l), volatile_(is_volatile) {}
    NodeId pure(Op op, LiteralList literals, InputList inputs) override {
      return lowerer_.b_.emit(op, loc_, std::move(literals), std::move(inputs));
    }
    NodeId load(const std::string& type, NodeId address) override {
      if (!volatile_) return lowerer_.memory_op(Load, loc_, {str_lit(type)}, {address}, Yields::Value);
      NodeId access = lowerer_.memory_op(LoadV, loc_, {str_lit(type)}, {address}, Yields::Tuple);
      return lowerer_.b_.emit(Proj, loc_, {int_lit(1)}, {access});
    }
    void store(const std::string& type, NodeId address, NodeId value) override {
      lowerer_.memory_op(volatile_ ? StoreV : Store, loc_, {str_lit(type)}, {address, value}, Yields::Memory);
    }

   private:
    Lowerer& lowerer_;
    Loc loc_;
    bool volatile_;
  };

  void bitfield_value(Frame& f) {
    NodeId id = f.id;
    BitFieldAccess field = bitfield_literals(id);
    if (f.step++ == 0) return push_inputs_left_to_right(id, Mode::Value);
    BitFieldNodes out(*this, loc(id), field.is_volatile);
    OpId op = node(id).op;
    if (op == AstBitLoad || op == AstBitLoadV) return finish_value(lower_bitload(field, pop_value(), out));
    InputList in = pop_values(2);
    finish_value(lower_bitstore(field, in[0], in[1], out));
  }

  void copy_value(Frame& f) {
    NodeId id = f.id;
    Literal size = count_literal(id, 0), align = count_literal(id, 1);
    if (f.step++ == 0) return push_inputs_left_to_right(id, Mode::Value);
    InputList in = pop_values(2);
    memory_op(Copy, loc(id), {size, align}, in, Yields::Memory);
    finish_value(in[0]);  // the destination
  }

  // ast:f80.* -> f80.* (long double in memory, FORMAT.md 7): the operands
  // left to right, then one memory operation; arith, unary and from yield
  // their destination address, cmp and to their value.
  void f80_value(Frame& f) {
    NodeId id = f.id;
    if (f.step++ == 0) return push_inputs_left_to_right(id, Mode::Value);
    OpId ast_op = node(id).op;
    Op op = ast_op == AstF80Arith ? F80Arith : ast_op == AstF80Unary ? F80Unary : ast_op == AstF80Cmp ? F80Cmp
            : ast_op == AstF80From ? F80From : F80To;
    InputList in = pop_values(node(id).inputs.size());
    bool value = op == F80Cmp || op == F80To;
    NodeId n = memory_op(op, loc(id), {node(id).literals[0]}, in, value ? Yields::Value : Yields::Memory);
    finish_value(value ? n : in[0]);
  }

  // ast:v128.op -> v128.op (16-byte vectors in memory, FORMAT.md 7): the
  // three addresses left to right, then one memory operation yielding the
  // destination address.
  void v128_value(Frame& f) {
    NodeId id = f.id;
    if (f.step++ == 0) return push_inputs_left_to_right(id, Mode::Value);
    InputList in = pop_values(node(id).inputs.size());
    memory_op(V128Op, loc(id), {node(id).literals[0], node(id).literals[1]}, in, Yields::Memory);
    finish_value(in[0]);
  }

  void call_value(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    const std::string& result = result_literal(id, 0);
    if (f.step++ == 0) return push_inputs_left_to_right(id, Mode::Value);
    bool wanted = !f.discard && result != "void";
    LiteralList literals{str_lit(result)};
    if (node(id).literals.size() > 1) literals.push_back(node(id).literals[1]);  // the ABI parameter list
    NodeId call = memory_op(Call, l, std::move(literals), pop_values(node(id).inputs.size()), Yields::Tuple);
    finish_value(wanted ? b_.emit(Proj, l, {int_lit(1)}, {call}) : kNoValue);
  }

  // ast:va_start -> va_start (a void value), ast:va_arg -> va_arg's value
  // (of an aggregate: its address, with the aggregate's byval type).
  void va_value(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    if (f.step++ == 0) return push(input(id, 0), Mode::Value);
    NodeId ap = pop_value();
    if (node(id).op == AstVaStart) {
      if (!ast_.signature.variadic) fail(id, "ast:va_start in a function that is not variadic");
      memory_op(VaStart, l, {}, {ap}, Yields::Memory);
      return finish_value(kNoValue);
    }
    LiteralList literals{str_lit(type_literal(id, 0))};
    if (node(id).literals.size() > 1) literals.push_back(node(id).literals[1]);  // an aggregate's byval type
    NodeId access = memory_op(VaArg, l, std::move(literals), {ap}, Yields::Tuple);
    finish_value(b_.emit(Proj, l, {int_lit(1)}, {access}));
  }

  // ast:alloca -> alloca (proj 1 the address), ast:stacksave -> stacksave
  // (proj 1 the saved extent): memory operations, so that nothing moves
  // across them.
  void dynamic_stack_value(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    bool alloca = node(id).op == AstAlloca;
    if (alloca && f.step++ == 0) return push(input(id, 0), Mode::Value);
    InputList operands;
    if (alloca) operands.push_back(pop_value());
    NodeId n = memory_op(alloca ? Alloca : StackSave, l, {}, std::move(operands), Yields::Tuple);
    finish_value(b_.emit(Proj, l, {int_lit(1)}, {n}));
  }

  // ast:atomic.* -> atomic.* (FORMAT.md 7, "Atomics"): the operands left
  // to right, then one memory operation; load, rmw and cmpxchg yield their
  // proj 1 (the value read), store the value stored.
  void atomic_value(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    if (f.step++ == 0) return push_inputs_left_to_right(id, Mode::Value);
    OpId ast_op = node(id).op;
    Op op = ast_op == AstAtomicLoad    ? AtomicLoad
            : ast_op == AstAtomicStore ? AtomicStore
            : ast_op == AstAtomicRmw   ? AtomicRmw
                                       : AtomicCmpXchg;
    InputList in = pop_values(node(id).inputs.size());
    LiteralList lits;
    for (const Literal& lit : node(id).literals) lits.push_back(lit);
    if (op == AtomicStore) {
      NodeId stored = in[1];
      memory_op(op, l, std::move(lits), std::move(in), Yields::Memory);
      return finish_value(stored);
    }
    NodeId n = memory_op(op, l, std::move(lits), std::move(in), Yields::Tuple);
    finish_value(b_.emit(Proj, l, {int_lit(1)}, {n}));
  }

  void fence_stmt(Frame& f) {
    NodeId id = f.id;
    pop_frame();
    memory_op(Fence, loc(id), {node(id).literals[0]}, {}, Yields::Memory);
  }

  void stack_restore_stmt(Frame& f) {
    NodeId id = f.id;
    if (f.step++ == 0) return push(input(id, 0), Mode::Value);
    NodeId saved = pop_value();
    pop_frame();
    memory_op(StackRestore, loc(id), {}, {saved}, Yields::Memory);
  }

  // a && b, a || b as a value: jumping code into two blocks that store 1
  // or 0 to a temporary, read after the merge.
  void and_or_value(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    if (f.step++ == 0) {
      uint32_t yes = b_.new_block(l), no = b_.new_block(l);
      f.a = yes, f.b = no;
      return push_again(id, Mode::Branch, false, yes, no);
    }
    uint32_t yes = f.a, no = f.b, slot = new_slot(), join = b_.new_block(l);
    b_.switch_to(yes);
    slot_store(slot, b_.emit(Const, l, {str_lit("i32"), int_lit(1)}), l);
    b_.jump(join, l);
    b_.switch_to(no);
    slot_store(slot, b_.emit(Const, l, {str_lit("i32"), int_lit(0)}), l);
    b_.jump(join, l);
    b_.switch_to(join);
    finish_value(slot_load(slot, l));
  }

  // c ? a : b as a value: each arm stores to a temporary, read after the
  // merge. A void one, or one whose value is dropped, is a statement.
  void cond_value(Frame& f) {
    NodeId id = f.id;
    Loc l = loc(id);
    switch (f.step) {
      case 0: {
        bool is_void = result_literal(id, 0) == "void";
        if (is_void && !f.discard) fail(id, "the value of a void 'ast:cond' is used");
        if (is_void || f.discard) return retarget(f, Mode::Stmt);
        f.step++;
        uint32_t yes = b_.new_block(loc(input(id, 1))), no = b_.new_block(loc(input(id, 2)));
        f.a = yes, f.b = no;
        return push_branch(input(id, 0), yes, no);
      }
      case 1:
        f.step++;
        b_.switch_to(f.a);
        return push(input(id, 1), Mode::Value);
      case 2: {
        f.step++;
        uint32_t slot = new_slot(), join = b_.new_block(l), no = f.b;
        f.c = slot, f.d = join;
        slot_store(slot, pop_value(), loc(input(id, 1)));
        b_.jump(join, l);
        b_.switch_to(no);
        return push(input(id, 2), Mode::Value);
      }
      default: {
        uint32_t slot = f.c, join = f.d;
        slot_store(slot, pop_value(), loc(input(id, 2)));
        b_.jump(join, l);
        b_.switch_to(join);
        return finish_value(slot_load(slot, l));
      }
    }
  }

  void seq_value(Frame& f) {
    NodeId id = f.id;
    bool discard = f.discard;
    if (f.step++ == 0) {
      push(input(id, 1), Mode::Value, discard);
      return push(input(id, 0), Mode::Stmt);
    }
    finish_value(discard ? kNoValue : pop_value());
  }

  // ast:expect: its value; the probability is for a branch on it.
  void expect_value(Frame& f) {
    NodeId id = f.id;
    if (f.step++ == 0) return push(input(id, 0), Mode::Value, f.discard);
    finish_value(f.discard ? kNoValue : pop_value());
  }

  // ---- conditions: jump to block a if non-zero, else to block b ----
  void branch(Frame& f) {
    NodeId id = f.id;
    switch (node(id).op) {
      case AstAnd:
      case AstOr: return and_or_branch(f);
      case AstConst: return const_branch(f);
      case AstSeq: return seq_branch(f);
      case AstExpect: return expect_branch(f);
      default: return value_branch(f);
    }
  }

  // ast:expect of a constant, && or ||: no one branch to give the hint to
  // (it is dropped), the operand is jumping code as without it.
  void expect_branch(Frame& f) {
    NodeId inner = input(f.id, 0);
    OpId op = node(inner).op;
    if (op != AstConst && op != AstAnd && op != AstOr) return value_branch(f);
    uint32_t yes = f.a, no = f.b;
    pop_frame();
    push_branch(inner, yes, no);
  }

  // a && b: a ? (b ? T : F) : F;  a || b: a ? T : (b ? T : F).
  void and_or_branch(Frame& f) {
    NodeId id = f.id;
    bool is_and = node(id).op == AstAnd;
    switch (f.step++) {
      case 0: {
        uint32_t rhs = b_.new_block(loc(input(id, 1)));
        f.c = rhs;
        return push_branch(input(id, 0), is_and ? rhs : f.a, is_and ? f.b : rhs);
      }
      case 1:
        b_.switch_to(f.c);
        return push_branch(input(id, 1), f.a, f.b);
      default: return pop_frame();
    }
  }

  void const_branch(Frame& f) {
    NodeId id = f.id;
    unsigned bits = type_bits(type_literal(id, 0));
    const Literal& lit = int_literal(id, 1);
    uint64_t v = lit.kind() == Literal::Kind::UInt ? lit.as_uint() : static_cast<uint64_t>(lit.as_int());
    if (bits < 64) v &= (uint64_t{1} << bits) - 1;
    uint32_t target = v != 0 ? f.a : f.b;
    pop_frame();
    b_.jump(target, loc(id));
  }

  void seq_branch(Frame& f) {
    NodeId id = f.id;
    if (f.step++ != 0) return pop_frame();
    uint32_t yes = f.a, no = f.b;
    push_branch(input(id, 1), yes, no);
    push(input(id, 0), Mode::Stmt);
  }

  void value_branch(Frame& f) {
    NodeId id = f.id;
    if (f.step++ == 0) return push_again(id, Mode::Value);
    uint32_t yes = f.a, no = f.b;
    pop_frame();
    b_.branch(pop_value(), yes, no, loc(id), ast_branch_probability(ast_, id));
  }

  const Function& ast_;
  NodeId root_;
  std::vector<uint8_t> visited_;
  std::vector<uint8_t> slot_var_;       // ast:var -> lives in a slot
  std::vector<uint32_t> slot_of_;       // ast:var -> its slot number, once used
  std::vector<NodeId> stackslot_of_;    // ast:var -> its stackslot node, once used
  std::vector<NodeId> params_;          // param nodes, by index
  uint32_t next_slot_ = kMemorySlot + 1;
  CfgBuilder b_;
  std::vector<Frame> frames_;
  std::vector<NodeId> values_;
  uint32_t value_depth_ = 0;            // Value frames on the stack
  std::vector<uint32_t> breaks_, continues_;  // innermost target last
  std::vector<SwitchContext> switches_;
  std::unordered_map<std::string, uint32_t> label_index_;  // name -> labels_ index (lookups only)
  std::vector<Label> labels_;
};

}  // namespace

Function lower_ast_function(const Function& ast, bool vars_in_memory) { return Lowerer(ast, vars_in_memory).run(); }

}  // namespace pl
