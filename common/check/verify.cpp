// verify.cpp - the level-contract verifier (schema/FORMAT.md, "Levels").
//
// Design. verify_function() runs a fixed sequence of passes over one
// Function, each reading facts the earlier passes computed (per-node result
// kinds, which nodes already had a control problem reported, the block of
// each node, ...). Every violation becomes one Diagnostic; nothing stops at
// the first. A pass skips what an earlier diagnostic already explains, so one
// mistake gives one message, not a cascade: foreign opcodes and malformed
// projs/phis get the kind `Bad`, accepted everywhere without comment; a node
// whose control was reported is not checked again for control; a merge whose
// predecessors lack terminators is not compared with its control list; uses
// in unreachable blocks are not dominance-checked. Diagnostics are collected,
// then stably sorted: function-level first, then blocks by index, then nodes
// by id, so the output is deterministic. Every pass is iterative (explicit
// stacks, no recursion) and O(n log n) or better in the size of the function,
// except the dominance frontier, whose size (and so the time to build it) can
// be quadratic in the number of blocks for some graphs.
//
// The algorithms: dominators by Lengauer-Tarjan (the "simple" version with
// path compression, O(m log n)), with an iterative DFS and an iterative
// COMPRESS; dominance frontiers by the Cooper-Harvey-Kennedy runner walk,
// stopping a walk at a block that already got the join (so the work is the
// size of the result plus the edges); dominance queries by pre/post numbers
// of the dominator tree; cycles at the sea-of-nodes levels by Tarjan's SCC
// algorithm (iterative), then a BFS inside each offending SCC to print one
// concrete cycle; phi kinds by union-find over phi-to-phi inputs.
//
// INVARIANTS CHECKED, by category (the letters match FORMAT.md):
// A. Opcodes, every level
//   - no foreign opcode ("unknown opcode 'x'");
//   - the opcode's level bits include the function's level;
//   - literal count and kinds per the literal shape: t = value type name,
//     I = integer value type name, F = floating type name (f32 f64), f = a
//     floating-point number (a Float literal, any IEEE value), i = integer, n = non-negative integer, s = string, y = non-empty string
//     (its existence is checked by ModuleVerifier::end()), j = anything; at
//     the x64 levels d = signed 32-bit integer, x = address scale (0 1 2 4
//     8), k = condition code, a = integer argument register, e = callee-saved
//     register;
//   - a branch probability (the optional last literal of if and x64:jcc,
//     ast:expect's literal; probability.h) is at most 2^31;
//   - a stack slot (stackslot, x64:stackslot, and ast:var) has a power-of-two alignment
//     of at most 2^28 (gcc's limit) and a size plus alignment of at most
//     2^31, so its frame offset and an over-aligned slot's lowering (a slot
//     of size + align - 16 and a mask) fit 32-bit displacements and
//     immediates;
//   - input count per the input shape, control count per the control column.
// B. Kinds, every level
//   - result kinds come from the table: c control, v value, m memory, x
//     unknown (ssa:load, undefined: accepted wherever a value or memory is),
//     two or more letters = a tuple; proj's kind is the indexed element, its
//     input must be a tuple and its index in range; a phi's kind is the kind
//     of its inputs, which must agree (phis joined through phi inputs share
//     one kind);
//   - each input matches its letter (v value, m memory, x either), and is
//     never control, a tuple, or a node that produces nothing;
//   - each control input produces control (except a region's at the cfg
//     levels, where C checks that it is a predecessor's terminator).
// C. Control structure, cfg levels (cfg, ssa, cfg-x64, ra-x64)
//   - a cfg section is present; a dominance section too at ssa, cfg-x64 and
//     ra-x64 (optional at cfg, but checked when present);
//   - exactly one start, the node of block 0; every block node is a start or
//     region and every start and region is a block node;
//   - every other node is placed in a block;
//   - every block ends with exactly one terminator, its last node; `if`
//     blocks have 2 successors (true first), `jump` 1, `return` 0;
//   - a region's control inputs are the terminators of its predecessor
//     blocks, as a multiset equal to the cfg edges into the block (an `if`
//     whose two successors are the same block appears twice); the entry block
//     has no predecessors;
//   - a pinned node's control is exactly its own block's node (we do not use
//     the seed's "control chain" reachability);
//   - every block is reachable from block 0;
//   - phis open their block (only phis before them);
//   - def dominates use: an input of a non-phi node is defined in a block that
//     strictly dominates the use's block, or earlier in the same block (a
//     block node counts as defined at the top of its block); input i of a phi
//     is defined in a block that dominates the block of its region's control
//     input i. Applied at every cfg level, cfg included: a use not dominated
//     by its definition has no value on some path even before SSA;
//   - the dominance section, when present, equals the recomputed one: parent
//     = immediate dominator (null for block 0), frontier as a set.
// D. Sea of nodes (son, son-x64); no cfg or dominance section (nor at ast)
//   - exactly one start;
//   - every pinned node's control is start, a region or a proj of an `if`;
//   - a region's control inputs are jumps or projs of an `if`;
//   - no cycle avoids phis and regions (the graph without phi inputs and
//     region controls is acyclic); one node per offending cycle is reported;
//   - `if` results are read only through proj 0 and 1 (B's tuple rule).
// Shared by C and D
//   - a phi's control is a region, and it has one input per control input of
//     that region (input i belongs to control input i);
//   - param and entrymem hang off the start node (at the cfg levels: they
//     are in block 0).
// E. Function
//   - the signature's parameter types are value types, each maybe with an
//     ABI attribute (abi.h: signext/zeroext on i8 and i16, byval and sret on
//     ptr, sret only on parameter 0), its result a value type or void (void
//     when parameter 0 is sret);
//   - a param's type is the value type of signature.params[index], index <
//     params.size(), and at most one param per index (ast:param: the same
//     but for the count);
//   - an ast:op names an opcode of eval.h's is_ast_op_target, with that
//     opcode's type literals and inputs;
//   - an ast:bitload or ast:bitstore (and their .volatile forms) has the
//     field type i8, i16, i32 or i64, literal 1 "signed" or "unsigned", a
//     width of 1 to the type's bits, and the field inside its unit
//     (offset + width <= 8 * unit size);
//   - a call's (and ast:call's) optional parameter list literal parses
//     (abi.h), has exactly as many fixed parameters as the call has
//     arguments (at most as many when variadic, and exactly as many
//     variadic argument types after `...` as it passes, when it gives
//     them), and with sret the call's result is void;
//   - a return has a value input iff the signature's result is not void;
//   - va_start (and ast:va_start) only in a variadic function;
//   - va_arg's (and ast:va_arg's) optional literal 1 is a `ptr byval(...)`
//     type (abi.h), and then literal 0 is ptr.
// M. Debug information (FORMAT.md "Debug information"; the readers check
//    its references: type and scope indexes, slot node ids)
//   - a variable's slot is an ast:var (ast), a stackslot (cfg, ssa, son) or
//     an x64:stackslot (son-x64, cfg-x64, ra-x64);
//   - a variable's value (son-x64, cfg-x64, ra-x64) and a binding's value
//     (ssa and later) is a node that makes one value; an ssa: slot number
//     (`ssa_slot`) only at cfg;
//   - a binding's position is a block node (at son and son-x64 a control
//     point: start, a region or a branch's proj: if, x64:jcc) or a node
//     that makes a memory state (an effect, a proj of a tuple's memory).
// N. Inline assembly (ast:asm, asm, x64:asm; check_asm, asm.h)
//   - the flags literal is "" or "volatile"; every operand literal parses
//     (role, class, type; at the x64 levels the chosen register); outputs
//     come first; a matched input ("N") names a "=" register output that is
//     not early-clobber, matched once; clobbers are memory, cc or register
//     names; the template's references (%N, %bN ... %aN, %%, %=) are in
//     range;
//   - inputs: ast:asm one per operand but immediates, asm and x64:asm the
//     memory state and one per operand that reads a value;
//   - a proj of an asm selects memory (0) or one of its register outputs;
//   - x64:asm (x64.h check_asm_registers): each register operand's
//     register has its class (general, Q in rax rbx rcx rdx, xmm for x; a
//     fixed operand its own, a matched input its output's), is not rsp, not
//     clobbered, and not another operand's; at most 15 register outputs.
// F. Module (verify_header, ModuleVerifier)
//   - data: power-of-two alignment, init no longer than size, relocations
//     within the item (offset + 8 <= size), sorted and non-overlapping,
//     non-empty relocation symbols;
//   - data, externs and functions have distinct non-empty names (functions:
//     distinct, "" allowed for a bare graph); a duplicate function name is
//     reported when the second function arrives;
//   - only function externs carry a signature; signature types are valid;
//   - symbol attributes (attrs_problems): weak and a visibility other than
//     default only with external linkage; a section name is 1 to 255
//     printable ASCII characters without blanks, quotes or backslashes; an
//     alias only on an extern, whose other attributes may then be weak,
//     visibility and hints (a plain extern: weak, visibility, hints);
//     constructor and destructor priorities and used only on definitions,
//     the priorities on functions; hints only on functions and function
//     externs; `common` only on an external data item that is not weak,
//     has no section, is not readonly and has no initial bytes or
//     relocations (a tentative definition: zeros); at end(): an alias
//     names a function (function extern) or a data item (data extern)
//     defined in the module, not an extern;
//   - at end(): every symbol named by a literal of shape y (symaddr,
//     ast:symaddr, x64:call, x64:loadgot, a RIP-relative address) or by a
//     relocation is a function,
//     data item or extern of the module.
//
// G. The ast level (AstChecker)
//   - kinds: an input of shape v is not a statement (B); the value of a void
//     ast:call or ast:cond is used only as a statement, as an arm of a void
//     ast:cond, or as the value of an ast:seq (which is then void as well);
//   - tree: exactly one ast:function (the root), which no node uses; every
//     node but ast:var is the input of at most one node, once; every node
//     but ast:var is reachable from the root (reported at the top of each
//     unreachable subtree, or once per group hanging off a cycle);
//   - jumps: ast:break inside a loop body or a switch body, ast:continue
//     inside a loop body (a loop's condition, init and step are outside it);
//     ast:case and ast:default inside a switch body, owned by the innermost
//     switch, with case values distinct once wrapped to the switch's type and
//     at most one default per switch; ast:label, ast:case and ast:default
//     never below a value input (inside an expression); ast:label names
//     unique in the function, and every ast:goto names one of them.
//
// H. The allocation, ra-x64 (alloc_check.cpp, run when A-F found nothing)
//   - places only at ra-x64 (A, here); which nodes have one, constraints
//     of the machine columns, and a dataflow over registers, flags and
//     slots proving every read finds its value (see alloc_check.cpp).
//
// I. Flags, x64 levels (son-x64, cfg-x64, ra-x64)
//   - a flags value (kind f: x64:cmp, cmpi, test, testi, ucomis, the memory
//     forms cmp.m, cmpi.m, ucomis.m, flagsof) has at most one
//     user (a dead one none; a second user needs its own compare);
//   - at cfg-x64 the producer is the node directly before its user, in the
//     user's block; at ra-x64 earlier in the user's block (copies may sit
//     between; H proves none of them destroys the flags).
//   - x64:flagsof (cfg-x64 and ra-x64 only) names the flags its input's
//     definer left: that definer is add, sub, and, or, xor, an immediate
//     form, neg, or a shift by an immediate of 1 to bits-1 (x64.h
//     result_flags), of the flagsof's operand size; its user's condition is
//     one the definer leaves as test would (e ne s ns p np; after and, or,
//     xor any); at cfg-x64 the definer is the node directly before it, at
//     ra-x64 earlier in its block (H proves the flags are still there).
//   Nothing generic is left at the x64 levels: A's level bits admit only
//   x64: opcodes, start, region, jump, proj, phi, undefined and entrymem.
//
// J. x64 operands (son-x64, cfg-x64, ra-x64; check_x64_operands)
//   - one x64:argreg per argument register, one x64:entryreg per
//     callee-saved register, each hanging off start;
//   - an address's inputs follow its literals (base unless a symbol, index
//     when the scale is not 0; a symbol has scale 0);
//   - at most 6 register arguments per call, 2 values per x64:ret;
//   - an immediate shift count below the operand size;
//   - extensions widen (no i1), loadzx reads 8/16 bits, loadsx 8/16/32,
//     x64:load i32 or i64.
//
// K. Floating-point types, cfg, ssa and son (check_float_types)
//   - where an operand's definer gives its type (result_type_of: the type
//     literal of arithmetic, constants, loads, params; a conversion's target
//     type; i32 for comparisons; ptr for symaddr and stackslot): a float
//     opcode's operands have exactly its type; an integer opcode's operands,
//     an if's condition and a memory operation's address are not floating;
//     a store's and a return's value agree with the
//     stored type and the result type when either is floating;
//   - fconst "f32" holds a value f32 represents; fpext is f32 -> f64,
//     fptrunc f64 -> f32, bitcast joins f32/i32 or f64/i64;
//   - an asm's value inputs have their operands' types where either is
//     floating (an xmm operand reads an f32 or f64, the others no float);
//   - (A's letters: I is an integer type, F a floating type, f a Float
//     literal; an ast:op's type literals follow its target's letters.)
//   - at the ast level (check_ast_float_types), the same separation, so that
//     ast2cfg's output passes it: an ast:op's operands have its float type
//     or are not floating; a store's, a return's and an ast:cond's values
//     agree with their types where either is floating; conditions (if,
//     while, do, for, switch, cond, and, or), addresses and callees are not
//     floating; ast:fconst "f32" holds a value f32 represents.
//
// P. long double, f80 in memory (check_f80; FORMAT.md 7, "long double")
//   - f80.arith and ast:f80.arith name "add" "sub" "mul" or "div";
//     f80.unary (and x64:, ast:) "neg" "abs" "sqrt" or "copy"; f80.cmp and
//     ast:f80.cmp a floating compare ("foeq" ... "funo"); x64:f80.arith and
//     x64:f80.unary as their generic forms;
//   - f80.from and f80.to (and their ast: and x64: forms) convert i16, i32,
//     i64, f32 or f64; at cfg, ssa and son f80.from's value input has that
//     type (K), and its addresses, as every f80 operation's, are no
//     floating values.
// T. 16-byte vectors in memory (check_v128; FORMAT.md 7, "16-byte vectors
//    (v128)"), every level
//   - v128.op, ast:v128.op and x64:v128.op name an operation of
//     common/ir/eval_v128.h's table (one SSE/SSE2 instruction: "paddd",
//     "mulps", "pshufd" ...), and their immediate is in that operation's
//     range: 0 for one that takes none, a lane selector of shufpd below 4,
//     a compare predicate of cmpps/cmppd/cmpss/cmpsd below 8, any other
//     immediate (shift counts, pshufd/shufps selectors) below 256;
//   - at cfg, ssa and son the three addresses are no floating values (K:
//     an integer opcode's operand, or a float, is not an address).
//   - x64:v128.param stores one of xmm0-xmm7 to an x64:stackslot plus a
//     displacement (codegen-x64 writes it in the prologue); an x64:call's
//     16-byte vector pairs name xmm0-xmm7 once each (8: the result, once)
//     at outgoing offsets that are multiples of 16, and its float
//     arguments and vectors take at most the 8 xmm argument registers (J).
// V. 16-byte vector values (check_vec_values; FORMAT.md 7, "16-byte vector
//    values"), cfg, ssa, son and the x64 levels
//   - v128.apply and x64:v128.apply name an operation and immediate as T;
//     v128.splat, v128.extract and their x64: forms have lanes of i32,
//     i64, f32 or f64, and v128.extract's lane is below 16 / the lane's
//     bytes (x64:v128.extract reads lane 0);
//   - at cfg, ssa and son a v128 value (the result of v128.load,
//     v128.apply, v128.splat) is read only by v128.apply (inputs 0, 1),
//     v128.store (its value, input 2), v128.extract and phis (ssa:store
//     too), and those inputs, where their definer gives their type, are
//     v128 values; v128.splat's scalar has its lane type (an i64 lane
//     takes a ptr); no type literal names v128 (A), so no param, load,
//     call or return carries one. At the x64 levels a v128 value is of
//     the xmm class (L).
// R. Atomics (check_atomic; FORMAT.md 7, "Atomics")
//   - atomic.load, atomic.store, atomic.rmw, atomic.cmpxchg and their ast:
//     forms access i8, i16, i32, i64 or ptr (never i1: an atomic access is
//     of whole bytes); their x64: forms i8, i16, i32 or i64;
//   - atomic.store and ast:atomic.store order "relaxed", "release" or
//     "seq_cst"; atomic.rmw and ast:atomic.rmw compute "xchg" "add" "sub"
//     "and" "or" "xor" or "nand"; x64:atomic.op "add" "sub" "and" "or" or
//     "xor"; x64:atomic.loop "and" "or" "xor" or "nand"; fence and
//     ast:fence order "seq_cst", "acq_rel" or "signal";
//   - at cfg, ssa and son the values an atomic stores, adds or compares
//     (inputs 2 and 3) are no floating values (K).
// S. Thread-local storage (attrs_problems, ModuleVerifier; FORMAT.md 7,
//    "Thread-local storage")
//   - `tls` only on a data item or a data extern, never with `common`;
//     `tls_model` only with `tls`;
//   - tlsaddr, ast:tlsaddr and x64:tls.le/.ie/.gd name a thread-local data
//     item or data extern; no other symbol literal (symaddr, ast:symaddr,
//     x64:loadgot, x64:call, a RIP-relative address) and no relocation
//     names one (its address is per thread: no link-time constant).
// O. The dynamic stack (check_frame_pointer), ra-x64
//   - a function with x64:alloca, x64:stacksave or x64:stackrestore (it
//     moves rsp), or x64:frameaddress or x64:returnaddress (it reads its
//     frame), keeps rbp as its frame pointer (x64.h has_dynamic_stack): no
//     node is placed in rbp and no x64:entryreg names it.
//   (The kinds of alloca, stacksave and stackrestore, memory threaded like
//   a store's, are B's; their values are ptr and the size i64.)
//
// L. Register classes, x64 levels (check_x64_classes)
//   - a value's class is its type's (x64.h value_classes: f32 and f64 in
//     xmm registers, everything else in general ones); each register
//     operand of an x64 instruction has the class the instruction reads it
//     in: xmm for the SSE instructions' floating operands (x64:fadd ...
//     ucomis, cvttf2si, cvtf2f; the value of an f32/f64 x64:store; an
//     x64:bitcast from f32/f64), general for the rest (addresses, integer
//     arithmetic, cvtsi2f's integer); an input in a fixed register, the
//     class of that register (call arguments in xmm0-xmm7 by x64:call's
//     last literal, x64:ret values in xmm0/xmm1 by its mask literal);
//     x64:mov, spill, reload and xchg copy either; a phi's inputs share one
//     class.
//
// NOT YET CHECKED
//   - value types of integer operands against each other and against type
//     literals (add's operands are the add's type, ...): K checks only the
//     line between integer and floating values;
//   - that a const's integer fits its type;
//   - memory-state linearity (one live memory state, no forks of memory);
//   - at son: that each `if` has exactly one proj 0 and one proj 1, and that
//     every node reaches a return (dead nodes are allowed);
//   - call signatures against the callee's extern or function signature;
//   - x64 operand sizes against the operands' definers, x64:call's al
//     against its callee.
#include "check/verify.h"

#include "encoding/format.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/abi.h"
#include "ir/asm.h"
#include "check/alloc_check.h"
#include "ir/bitfield.h"
#include "ir/eval.h"
#include "ir/eval_v128.h"
#include "ir/probability.h"
#include "ir/renumber.h"
#include "encoding/text_format.h"
#include "x64/x64.h"

namespace pl {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

std::string plural(size_t n, std::string_view noun) {
  std::string s = std::to_string(n) + " " + std::string(noun);
  if (n != 1) s += "s";
  return s;
}

// "1 input", "2 inputs", "1 or 2 inputs", "at least 1 input": `count` is
// a shape_count_text().
std::string counted(const std::string& count, std::string_view noun) {
  return count + " " + std::string(noun) + (count == "1" ? "" : "s");
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// ---- collecting diagnostics ------------------------------------------------

// Collects diagnostics of one function and hands them out sorted by entity:
// function-level ("signature", "cfg", ...), then blocks, then nodes.
class Collector {
 public:
  explicit Collector(const Function& fn) : fn_(fn) {}

  void at_function(std::string entity, std::string message) {
    add(0, 0, std::move(entity), std::move(message), {});
  }
  void at_block(uint32_t b, std::string message) {
    std::string context;
    if (fn_.cfg && b < fn_.cfg->blocks.size()) context = print_node_line(fn_, fn_.cfg->blocks[b].node);
    add(1, b, block_name(b), std::move(message), std::move(context));
  }
  void at_node(NodeId id, std::string message) {
    add(2, id, node_name(id), std::move(message), print_node_line(fn_, id));
  }

  void append_sorted(std::vector<Diagnostic>& out) {
    std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      return a.rank != b.rank ? a.rank < b.rank : a.index < b.index;
    });
    for (Entry& e : entries_) out.push_back(std::move(e.diag));
    entries_.clear();
  }

 private:
  struct Entry {
    uint8_t rank;
    uint32_t index;
    Diagnostic diag;
  };
  void add(uint8_t rank, uint32_t index, std::string entity, std::string message, std::string context) {
    entries_.push_back({rank, index, Diagnostic{Where::in(fn_.name, std::move(entity)), std::move(message),
                                                std::move(context)}});
  }
  const Function& fn_;
  std::vector<Entry> entries_;
};

// ---- kinds -----------------------------------------------------------------

// What a node produces. `Unknown` is the "x" of ssa:load and undefined: it
// stands for a value or memory. `Bad` marks nodes whose kind cannot be known
// because a diagnostic already covers them (foreign opcode, malformed proj or
// phi); it is accepted everywhere so that the error does not cascade.
enum class Kind : uint8_t { Nothing, Control, Value, Memory, Flags, Unknown, Tuple, Statement, Bad };

Kind kind_of_letter(char letter) {
  switch (letter) {
    case 'c': return Kind::Control;
    case 'v': return Kind::Value;
    case 'm': return Kind::Memory;
    case 'f': return Kind::Flags;
    case 's': return Kind::Statement;
    default: return Kind::Unknown;
  }
}

std::string_view kind_phrase(Kind k) {
  switch (k) {
    case Kind::Nothing: return "produces nothing";
    case Kind::Control: return "is control";
    case Kind::Value: return "is a value";
    case Kind::Memory: return "is memory";
    case Kind::Flags: return "is the flags";
    case Kind::Unknown: return "is a value or memory";
    case Kind::Tuple: return "is a tuple; read it through proj";
    case Kind::Statement: return "is a statement";
    case Kind::Bad: return "is malformed";
  }
  return "";
}

std::string_view letter_expectation(char letter) {
  switch (letter) {
    case 'v': return "expected a value";
    case 'm': return "expected memory";
    case 'f': return "expected the flags";
    case 's': return "expected a statement or a value";
    default: return "expected a value or memory";
  }
}

// The problem with giving a node of kind `k` to an input of shape `letter`.
std::optional<std::string> input_problem(char letter, Kind k) {
  switch (k) {
    case Kind::Bad:
    case Kind::Unknown: return std::nullopt;
    case Kind::Value:
      if (letter != 'm' && letter != 'f') return std::nullopt;
      break;
    case Kind::Memory:
      if (letter != 'v' && letter != 's' && letter != 'f') return std::nullopt;
      break;
    case Kind::Flags:
      if (letter == 'f') return std::nullopt;
      break;
    case Kind::Statement:
      if (letter == 's') return std::nullopt;
      break;
    case Kind::Tuple:
    case Kind::Nothing: return std::string(kind_phrase(k));
    case Kind::Control: break;
  }
  return std::string(kind_phrase(k)) + "; " + std::string(letter_expectation(letter));
}

// ---- literals --------------------------------------------------------------

bool is_non_negative_int(const Literal& lit) {
  return lit.kind() == Literal::Kind::UInt || (lit.kind() == Literal::Kind::Int && lit.as_int() >= 0);
}

uint64_t as_index(const Literal& lit) {
  return lit.kind() == Literal::Kind::UInt ? lit.as_uint() : static_cast<uint64_t>(lit.as_int());
}

bool names_arg_reg(std::string_view name) {
  std::optional<x64::Reg> r = x64::parse_reg(name);
  return r && x64::is_arg_reg(*r);
}

bool names_callee_saved(std::string_view name) {
  std::optional<x64::Reg> r = x64::parse_reg(name);
  return r && (x64::kCalleeSaved & x64::reg_bit(*r)) != 0;
}

// What a literal of shape `letter` must be, if `lit` is not that.
std::optional<std::string_view> literal_problem(char letter, const Literal& lit) {
  bool is_string = lit.kind() == Literal::Kind::String;
  switch (letter) {
    case 't':
      if (is_string && is_value_type(lit.as_string())) return std::nullopt;
      return "a value type (i1, i8, i16, i32, i64, ptr, f32 or f64)";
    case 'I':
      if (is_string && is_value_type(lit.as_string()) && !is_float_type(lit.as_string())) return std::nullopt;
      return "an integer value type (i1, i8, i16, i32, i64 or ptr)";
    case 'F':
      if (is_string && is_float_type(lit.as_string())) return std::nullopt;
      return "a floating-point type (f32 or f64)";
    case 'f':
      if (lit.kind() == Literal::Kind::Float) return std::nullopt;
      return "a floating-point number (with a fraction or an exponent, or inf, nan)";
    case 'r':
      if (is_string && (lit.as_string() == "void" || is_value_type(lit.as_string()))) return std::nullopt;
      return "a result type (a value type or void)";
    case 'i':
      if (lit.is_int()) return std::nullopt;
      return "an integer";
    case 'n':
      if (is_non_negative_int(lit)) return std::nullopt;
      return "a non-negative integer";
    case 's':
      if (is_string) return std::nullopt;
      return "a string";
    case 'y':
      if (is_string && !lit.as_string().empty()) return std::nullopt;
      return "a symbol name (a non-empty string)";
    case 'd':
      if (lit.kind() == Literal::Kind::Int && x64::fits_imm32(lit.as_int())) return std::nullopt;
      if (lit.kind() == Literal::Kind::UInt && lit.as_uint() <= INT32_MAX) return std::nullopt;
      return "a signed 32-bit integer";
    case 'x':
      if (lit.is_int() && x64::is_address_scale(static_cast<int64_t>(lit.bits()))) return std::nullopt;
      return "an address scale (0, 1, 2, 4 or 8)";
    case 'k':
      if (is_string && x64::parse_cond(lit.as_string())) return std::nullopt;
      return "a condition code (o no b ae e ne be a s ns p np l ge le g)";
    case 'a':
      if (is_string && names_arg_reg(lit.as_string())) return std::nullopt;
      return "an argument register (rdi rsi rdx rcx r8 r9, xmm0-xmm7)";
    case 'e':
      if (is_string && names_callee_saved(lit.as_string())) return std::nullopt;
      return "a callee-saved register (rbx rbp r12 r13 r14 r15)";
    default: return std::nullopt;
  }
}

// ---- signatures --------------------------------------------------------------

// Parameter 0 is a valid `ptr sret(SIZE,ALIGN)`.
bool starts_with_sret(const std::vector<std::string>& params) {
  if (params.empty()) return false;
  std::optional<ParamType> type = parse_param_type(params[0]);
  return type && type->attr == ParamAttr::SRet;
}

// Parameter types must be value types, maybe with an ABI attribute (abi.h);
// the result a value type or void, and void when parameter 0 is sret.
std::vector<std::string> signature_problems(const Signature& sig) {
  std::vector<std::string> problems;
  for (size_t i = 0; i < sig.params.size(); ++i) {
    std::string problem = param_type_problem(sig.params[i], i);
    if (!problem.empty()) problems.push_back("parameter " + std::to_string(i) + " has an invalid type: " + problem);
  }
  if (sig.result != "void" && !is_value_type(sig.result))
    problems.push_back("result type " + quoted(sig.result) + " is neither a value type nor void");
  else if (sig.result != "void" && starts_with_sret(sig.params))
    problems.push_back("parameter 0 is the sret result pointer, so the result must be void, not " + quoted(sig.result));
  return problems;
}

// ---- adjacency lists -------------------------------------------------------

// Compressed adjacency lists over vertices 0..n-1, edges kept in the order
// they were added per source vertex.
class Adjacency {
 public:
  Adjacency() = default;
  Adjacency(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges) : offsets_(n + 1, 0) {
    for (const auto& e : edges) ++offsets_[e.first + 1];
    for (uint32_t v = 0; v < n; ++v) offsets_[v + 1] += offsets_[v];
    targets_.resize(edges.size());
    std::vector<uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
    for (const auto& e : edges) targets_[fill[e.first]++] = e.second;
  }
  uint32_t size() const { return offsets_.empty() ? 0 : static_cast<uint32_t>(offsets_.size() - 1); }
  uint32_t degree(uint32_t v) const { return offsets_[v + 1] - offsets_[v]; }
  uint32_t at(uint32_t v, uint32_t i) const { return targets_[offsets_[v] + i]; }
  const uint32_t* begin(uint32_t v) const { return targets_.data() + offsets_[v]; }
  const uint32_t* end(uint32_t v) const { return targets_.data() + offsets_[v + 1]; }

 private:
  std::vector<uint32_t> offsets_;
  std::vector<uint32_t> targets_;
};

// ---- dominators ------------------------------------------------------------

// Dominator tree of the blocks reachable from block 0.
struct DominatorTree {
  std::vector<uint8_t> reachable;
  std::vector<uint32_t> idom;  // block index; kNone for block 0 and unreachable blocks
  std::vector<uint32_t> pre;   // dominator-tree DFS entry number
  std::vector<uint32_t> post;  // dominator-tree DFS exit number

  // Does block a dominate block b (both reachable)? Reflexive.
  bool dominates(uint32_t a, uint32_t b) const { return pre[a] <= pre[b] && post[b] <= post[a]; }
};

// Depth-first preorder of the blocks reachable from 0: order[i] is the i-th
// block visited, dfs_parent[i] the preorder number of its DFS-tree parent.
struct DepthFirst {
  std::vector<uint32_t> number;  // block -> preorder number, kNone if unreachable
  std::vector<uint32_t> order;
  std::vector<uint32_t> dfs_parent;
};

DepthFirst depth_first(const Adjacency& succ) {
  DepthFirst d;
  uint32_t n = succ.size();
  d.number.assign(n, kNone);
  if (n == 0) return d;
  std::vector<std::pair<uint32_t, uint32_t>> stack;  // (block, next successor)
  d.number[0] = 0;
  d.order.push_back(0);
  d.dfs_parent.push_back(kNone);
  stack.emplace_back(0, 0);
  while (!stack.empty()) {
    auto& [v, next] = stack.back();
    if (next == succ.degree(v)) {
      stack.pop_back();
      continue;
    }
    uint32_t w = succ.at(v, next++);
    if (d.number[w] != kNone) continue;
    d.number[w] = static_cast<uint32_t>(d.order.size());
    d.order.push_back(w);
    d.dfs_parent.push_back(d.number[v]);
    stack.emplace_back(w, 0);
  }
  return d;
}

// Lengauer-Tarjan, simple version, on preorder numbers (root = 0). Returns
// the immediate dominator of each preorder number (kNone for the root).
class LengauerTarjan {
 public:
  LengauerTarjan(const DepthFirst& dfs, const Adjacency& pred)
      : dfs_(dfs), pred_(pred), count_(static_cast<uint32_t>(dfs.order.size())),
        semi_(count_), label_(count_), ancestor_(count_, kNone), idom_(count_, kNone),
        bucket_head_(count_, kNone), bucket_next_(count_, kNone) {
    for (uint32_t i = 0; i < count_; ++i) semi_[i] = label_[i] = i;
  }

  std::vector<uint32_t> run() {
    for (uint32_t w = count_; w-- > 1;) {
      compute_semidominator(w);
      add_to_bucket(semi_[w], w);
      uint32_t parent = dfs_.dfs_parent[w];
      ancestor_[w] = parent;  // link(parent, w)
      drain_bucket(parent);
    }
    for (uint32_t w = 1; w < count_; ++w)
      if (idom_[w] != semi_[w]) idom_[w] = idom_[idom_[w]];
    return std::move(idom_);
  }

 private:
  void compute_semidominator(uint32_t w) {
    uint32_t block = dfs_.order[w];
    for (const uint32_t* p = pred_.begin(block); p != pred_.end(block); ++p) {
      uint32_t v = dfs_.number[*p];
      if (v == kNone) continue;  // an unreachable predecessor
      uint32_t u = eval(v);
      if (semi_[u] < semi_[w]) semi_[w] = semi_[u];
    }
  }
  void add_to_bucket(uint32_t bucket, uint32_t w) {
    bucket_next_[w] = bucket_head_[bucket];
    bucket_head_[bucket] = w;
  }
  void drain_bucket(uint32_t parent) {
    for (uint32_t v = bucket_head_[parent]; v != kNone; v = bucket_next_[v]) {
      uint32_t u = eval(v);
      idom_[v] = semi_[u] < semi_[v] ? u : parent;
    }
    bucket_head_[parent] = kNone;
  }
  uint32_t eval(uint32_t v) {
    if (ancestor_[v] == kNone) return v;
    compress(v);
    return label_[v];
  }
  // The recursive COMPRESS, unrolled: collect the path up to the vertex just
  // below the forest root, then update labels top-down.
  void compress(uint32_t v) {
    path_.clear();
    for (uint32_t x = v; ancestor_[ancestor_[x]] != kNone; x = ancestor_[x]) path_.push_back(x);
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
      uint32_t y = *it, a = ancestor_[y];
      if (semi_[label_[a]] < semi_[label_[y]]) label_[y] = label_[a];
      ancestor_[y] = ancestor_[a];
    }
  }

  const DepthFirst& dfs_;
  const Adjacency& pred_;
  uint32_t count_;
  std::vector<uint32_t> semi_, label_, ancestor_, idom_, bucket_head_, bucket_next_;
  std::vector<uint32_t> path_;
};

// Entry/exit numbers of a DFS of the dominator tree, for O(1) dominance tests.
void number_dominator_tree(DominatorTree& dom) {
  uint32_t n = static_cast<uint32_t>(dom.idom.size());
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (uint32_t b = 0; b < n; ++b)
    if (dom.idom[b] != kNone) edges.emplace_back(dom.idom[b], b);
  Adjacency children(n, edges);
  dom.pre.assign(n, kNone);
  dom.post.assign(n, kNone);
  if (n == 0) return;
  uint32_t clock = 0;
  std::vector<std::pair<uint32_t, uint32_t>> stack{{0, 0}};
  dom.pre[0] = clock++;
  while (!stack.empty()) {
    auto& [v, next] = stack.back();
    if (next == children.degree(v)) {
      dom.post[v] = clock++;
      stack.pop_back();
      continue;
    }
    uint32_t c = children.at(v, next++);
    dom.pre[c] = clock++;
    stack.emplace_back(c, 0);
  }
}

DominatorTree compute_dominators(const Adjacency& succ, const Adjacency& pred) {
  DominatorTree dom;
  uint32_t n = succ.size();
  DepthFirst dfs = depth_first(succ);
  std::vector<uint32_t> idom_numbers = LengauerTarjan(dfs, pred).run();
  dom.reachable.assign(n, 0);
  dom.idom.assign(n, kNone);
  for (uint32_t i = 0; i < dfs.order.size(); ++i) {
    dom.reachable[dfs.order[i]] = 1;
    if (idom_numbers[i] != kNone) dom.idom[dfs.order[i]] = dfs.order[idom_numbers[i]];
  }
  number_dominator_tree(dom);
  return dom;
}

// Dominance frontier of every reachable block (Cooper-Harvey-Kennedy): each
// predecessor p of a join b walks up the dominator tree from p to idom(b),
// adding b to each frontier on the way. A walk stops early at a block that
// already got b (the rest of the path was walked then). Lists come out
// sorted because joins are visited in increasing block order.
std::vector<std::vector<uint32_t>> dominance_frontiers(const DominatorTree& dom, const Adjacency& pred) {
  uint32_t n = static_cast<uint32_t>(dom.idom.size());
  std::vector<std::vector<uint32_t>> frontier(n);
  std::vector<uint32_t> last_added(n, kNone);
  for (uint32_t b = 0; b < n; ++b) {
    if (!dom.reachable[b]) continue;
    for (const uint32_t* p = pred.begin(b); p != pred.end(b); ++p) {
      if (!dom.reachable[*p]) continue;
      for (uint32_t runner = *p; runner != dom.idom[b] && last_added[runner] != b; runner = dom.idom[runner]) {
        frontier[runner].push_back(b);
        last_added[runner] = b;
      }
    }
  }
  return frontier;
}

// ---- G: the ast level --------------------------------------------------------

// The tree and jump rules of the ast level (FORMAT.md, "G. The ast level").
// Runs after A and B, trusting only the literals of nodes whose shape A
// accepted. Every walk is iterative; one diagnostic per mistake: a node used
// twice is reported once (at the node), an unreachable subtree at its top
// only, a duplicate label or case at each repetition.
class AstChecker {
 public:
  AstChecker(const Function& fn, Collector& out, const std::vector<uint8_t>& shape_ok)
      : fn_(fn), out_(out), shape_ok_(shape_ok), n_(static_cast<NodeId>(fn.nodes.size())),
        user_(n_, kNone), reached_(n_, 0) {}

  void run() {
    find_root();
    find_users();
    if (root_ != kNone) walk_from_root();
    report_unreachable();
    check_labels_and_gotos();
    check_case_values();
    check_void_uses();
  }

 private:
  // Where a node sits: the innermost loop or switch a break leaves, the
  // innermost loop a continue repeats, the innermost switch its cases belong
  // to, and whether it is below a value input (inside an expression).
  struct Context {
    NodeId brk = kNone;
    NodeId cont = kNone;
    NodeId sw = kNone;
    bool in_value = false;
  };

  const Node& node(NodeId id) const { return fn_.nodes[id]; }
  bool is(NodeId id, Op op) const { return node(id).op == op; }
  std::string op_of(NodeId id) const { return quoted(fn_.op_name(node(id).op)); }
  // A string literal of a node whose shape A accepted; nullopt otherwise.
  std::optional<std::string_view> string_literal(NodeId id, size_t i) const {
    if (!shape_ok_[id] || i >= node(id).literals.size()) return std::nullopt;
    const Literal& lit = node(id).literals[i];
    if (lit.kind() != Literal::Kind::String) return std::nullopt;
    return lit.as_string();
  }

  // Tree: exactly one ast:function.
  void find_root() {
    for (NodeId id = 0; id < n_; ++id) {
      if (!is(id, AstFunction)) continue;
      if (root_ == kNone)
        root_ = id;
      else
        out_.at_node(id, "second ast:function; the root is " + node_name(root_));
    }
    if (root_ == kNone) out_.at_function("graph", "the function has no ast:function root");
  }

  // Tree: every node but ast:var is the input of at most one node, once; the
  // root of none.
  void find_users() {
    std::vector<uint8_t> reported(n_, 0);
    for (NodeId id = 0; id < n_; ++id) {
      for (NodeId in : node(id).inputs) {
        if (is(in, AstVar)) continue;
        if (user_[in] == kNone) {
          user_[in] = id;
          if (in == root_)
            out_.at_node(in, "the root is an input of " + node_name(id) + "; no node may use it");
          continue;
        }
        if (reported[in] || in == root_) continue;
        reported[in] = 1;
        std::string users = user_[in] == id ? "twice by " + node_name(id)
                                            : "by " + node_name(user_[in]) + " and " + node_name(id);
        out_.at_node(in, "node is used as an input " + users + "; only an ast:var may be used more than once");
      }
    }
  }

  // Depth-first walk from the root that marks what it reaches and checks the
  // jump rules in each node's context. A node reached twice (a rule already
  // reported) is walked once.
  void walk_from_root() {
    std::vector<std::pair<NodeId, Context>> stack{{root_, Context{}}};
    reached_[root_] = 1;
    while (!stack.empty()) {
      auto [id, ctx] = stack.back();
      stack.pop_back();
      check_jump(id, ctx);
      const Node& n = node(id);
      std::string_view shape = n.op < kNumOps ? op_info(n.op).inputs : std::string_view();
      for (size_t i = n.inputs.size(); i-- > 0;) {
        NodeId in = n.inputs[i];
        if (reached_[in]) continue;
        reached_[in] = 1;
        stack.emplace_back(in, child_context(id, i, shape_letter(shape, i), ctx));
      }
    }
  }

  Context child_context(NodeId id, size_t i, char letter, Context ctx) const {
    if (letter == 'v') ctx.in_value = true;
    bool loop_body = (is(id, AstWhile) && i == 1) || (is(id, AstDo) && i == 0) || (is(id, AstFor) && i == 3);
    if (loop_body) ctx.brk = ctx.cont = id;
    if (is(id, AstSwitch) && i == 1) ctx.brk = ctx.sw = id;
    return ctx;
  }

  void check_jump(NodeId id, const Context& ctx) {
    const Node& n = node(id);
    switch (n.op) {
      case AstBreak:
        if (ctx.brk == kNone) out_.at_node(id, "ast:break is not inside a loop or switch");
        break;
      case AstContinue:
        if (ctx.cont == kNone) out_.at_node(id, "ast:continue is not inside a loop");
        break;
      case AstCase:
      case AstDefault:
        check_target_position(id, ctx);
        if (ctx.sw == kNone)
          out_.at_node(id, op_of(id) + " is not inside a switch body");
        else if (is(id, AstDefault))
          note_default(id, ctx.sw);
        else if (shape_ok_[id])
          cases_.push_back({ctx.sw, case_bits(ctx.sw, n.literals[0]), id});
        break;
      case AstLabel:
        check_target_position(id, ctx);
        if (std::optional<std::string_view> name = string_literal(id, 0)) labels_.emplace_back(*name, id);
        break;
      case AstGoto:
        if (std::optional<std::string_view> name = string_literal(id, 0)) gotos_.emplace_back(*name, id);
        break;
      default: break;
    }
  }

  // A jump target inside an expression would let a jump skip the
  // evaluation of the expression's other operands.
  void check_target_position(NodeId id, const Context& ctx) {
    if (ctx.in_value)
      out_.at_node(id, op_of(id) + " is inside an expression; labels, cases and defaults are statements "
                                   "reached from the root through statement inputs only");
  }

  void note_default(NodeId id, NodeId sw) {
    if (first_default_.empty()) first_default_.assign(n_, kNone);
    if (first_default_[sw] == kNone)
      first_default_[sw] = id;
    else
      out_.at_node(id, "second ast:default in the switch " + node_name(sw) + "; the first is " +
                           node_name(first_default_[sw]));
  }

  // The case value as the switch compares it: the integer wrapped to the
  // switch's type (so `case -1` and `case 255` collide in an i8 switch).
  uint64_t case_bits(NodeId sw, const Literal& value) const {
    uint64_t bits = value.kind() == Literal::Kind::UInt ? value.as_uint() : static_cast<uint64_t>(value.as_int());
    std::optional<std::string_view> type = string_literal(sw, 0);
    unsigned width = !type ? 64 : *type == "i1" ? 1 : *type == "i8" ? 8 : *type == "i16" ? 16 : *type == "i32" ? 32 : 64;
    return width == 64 ? bits : bits & ((uint64_t{1} << width) - 1);
  }

  // Tree: every node but the root and ast:var is reachable from the root.
  // Reported at the top of each unreachable subtree (a node nothing uses),
  // then once for each group of nodes hanging off a cycle of inputs.
  void report_unreachable() {
    std::vector<uint8_t> covered = reached_;
    for (NodeId id = 0; id < n_; ++id)
      if (is(id, AstFunction) && id != root_) cover(id, covered);  // a second root: reported
    std::string from = root_ == kNone ? std::string("the root") : "the root " + node_name(root_);
    for (NodeId id = 0; id < n_; ++id) {
      if (covered[id] || is(id, AstVar) || user_[id] != kNone) continue;
      out_.at_node(id, "node is not reachable from " + from + ": no node uses it");
      cover(id, covered);
    }
    for (NodeId id = 0; id < n_; ++id) {
      if (covered[id] || is(id, AstVar)) continue;
      out_.at_node(id, "node is not reachable from " + from + ": its users form a cycle");
      cover(id, covered);
    }
  }

  void cover(NodeId top, std::vector<uint8_t>& covered) const {
    std::vector<NodeId> stack{top};
    covered[top] = 1;
    while (!stack.empty()) {
      NodeId id = stack.back();
      stack.pop_back();
      for (NodeId in : node(id).inputs)
        if (!covered[in]) {
          covered[in] = 1;
          stack.push_back(in);
        }
    }
  }

  // Jumps: label names are unique; every goto names a label.
  void check_labels_and_gotos() {
    std::sort(labels_.begin(), labels_.end());
    for (size_t i = 1; i < labels_.size(); ++i)
      if (labels_[i].first == labels_[i - 1].first)
        out_.at_node(labels_[i].second, "label " + quote_for_message(labels_[i].first) + " is already defined by " +
                                            node_name(labels_[i - 1].second));
    for (const auto& [name, id] : gotos_) {
      auto it = std::lower_bound(labels_.begin(), labels_.end(), std::make_pair(name, NodeId{0}));
      if (it == labels_.end() || it->first != name)
        out_.at_node(id, "ast:goto names no label of the function: " + quote_for_message(name));
    }
  }

  // Jumps: the case values of one switch are distinct.
  void check_case_values() {
    std::sort(cases_.begin(), cases_.end());
    for (size_t i = 1; i < cases_.size(); ++i) {
      const CaseEntry &a = cases_[i - 1], &b = cases_[i];
      if (a.sw == b.sw && a.bits == b.bits)
        out_.at_node(b.id, "case value " + node(b.id).literals[0].to_json() + " repeats the case " +
                               node_name(a.id) + " of the switch " + node_name(b.sw));
    }
  }

  // Kinds: the value of a void ast:call or ast:cond is not used. It may be a
  // statement, an arm of a void ast:cond, or the value of an ast:seq (which
  // is then void too).
  void check_void_uses() {
    std::vector<uint8_t> state(n_, 0);  // 0 unknown, 1 on the current chain, 2 void, 3 not void
    for (NodeId id = 0; id < n_; ++id) {
      const Node& n = node(id);
      if (n.op >= kNumOps) continue;
      std::string_view shape = op_info(n.op).inputs;
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        if (shape_letter(shape, i) != 'v' || !is_void(n.inputs[i], state) || may_take_void(id, i)) continue;
        out_.at_node(id, "input " + std::to_string(i) + " " + node_name(n.inputs[i]) + " (" + op_of(n.inputs[i]) +
                             ") has type void; its value cannot be used");
      }
    }
  }

  bool may_take_void(NodeId user, size_t i) const {
    return (is(user, AstSeq) && i == 1) || (is(user, AstCond) && i >= 1 && returns_void(user));
  }

  bool returns_void(NodeId id) const {
    std::optional<std::string_view> r = string_literal(id, 0);
    return (is(id, AstCall) || is(id, AstCond)) && r && *r == "void";
  }

  // A seq is void when its value is; follows a chain of seqs iteratively.
  bool is_void(NodeId id, std::vector<uint8_t>& state) const {
    std::vector<NodeId> chain;
    NodeId x = id;
    while (state[x] == 0 && is(x, AstSeq) && node(x).inputs.size() == 2) {
      state[x] = 1;
      chain.push_back(x);
      x = node(x).inputs[1];
    }
    bool result = state[x] == 2 || (state[x] == 0 && returns_void(x));  // state 1: a cycle, reported elsewhere
    for (NodeId c : chain) state[c] = result ? 2 : 3;
    if (state[x] == 0) state[x] = result ? 2 : 3;
    return result;
  }

  struct CaseEntry {
    NodeId sw;
    uint64_t bits;
    NodeId id;
    bool operator<(const CaseEntry& o) const {
      return sw != o.sw ? sw < o.sw : bits != o.bits ? bits < o.bits : id < o.id;
    }
  };

  const Function& fn_;
  Collector& out_;
  const std::vector<uint8_t>& shape_ok_;
  NodeId n_;
  NodeId root_ = kNone;
  std::vector<NodeId> user_;          // the first node that uses each node
  std::vector<uint8_t> reached_;      // reached from the root
  std::vector<std::pair<std::string, NodeId>> labels_, gotos_;
  std::vector<CaseEntry> cases_;
  std::vector<NodeId> first_default_;  // per switch, lazily sized
};

// ---- the function verifier -------------------------------------------------

class FunctionVerifier {
 public:
  FunctionVerifier(const Function& fn, Level level, Collector& out)
      : fn_(fn), level_(level), out_(out), n_(static_cast<NodeId>(fn.nodes.size())),
        op_(n_), flags_(n_, 0), shape_ok_(n_, 0), kind_(n_, Kind::Bad), bad_control_(n_, 0) {
    for (NodeId id = 0; id < n_; ++id) {
      op_[id] = fn.nodes[id].op;
      if (op_[id] < kNumOps) flags_[id] = op_info(op_[id]).flags;
    }
  }

  void run() {
    check_signature();
    for (NodeId id = 0; id < n_; ++id) check_opcode(id);
    compute_kinds();
    for (NodeId id = 0; id < n_; ++id) {
      check_inputs(id);
      check_controls(id);
    }
    for (NodeId id = 0; id < n_; ++id) check_function_entry_and_phi(id);
    if (level_ == Level::Cfg || level_ == Level::Ssa || level_ == Level::Son)
      for (NodeId id = 0; id < n_; ++id) check_float_types(id);
    if (level_ == Level::Ast)
      for (NodeId id = 0; id < n_; ++id) check_ast_float_types(id);
    if (level_ != Level::Ast) check_single_start();
    if (level_has_cfg(level_))
      check_cfg_level();
    else
      check_graph_level();
    if (level_ == Level::SonX64 || level_ == Level::CfgX64 || level_ == Level::RaX64) {
      check_flags();
      check_x64_operands();
      check_x64_classes();
    }
    if (level_ == Level::RaX64) check_frame_pointer();
    if (level_ == Level::Ast) AstChecker(fn_, out_, shape_ok_).run();
  }

 private:
  // ---- helpers ----
  const Node& node(NodeId id) const { return fn_.nodes[id]; }
  bool is_table(NodeId id) const { return op_[id] < kNumOps; }
  bool is(NodeId id, Op op) const { return op_[id] == op; }
  bool has(NodeId id, uint32_t flag) const { return is_table(id) && (flags_[id] & flag) != 0; }
  std::string op_of(NodeId id) const { return quoted(fn_.op_name(node(id).op)); }
  // "i7 ('add')"
  std::string ref(NodeId id) const { return node_name(id) + " (" + op_of(id) + ")"; }
  std::string level_text() const { return quoted(level_name(level_)); }
  bool is_if_proj(NodeId id) const {
    const Node& n = node(id);
    return is(id, Proj) && n.inputs.size() == 1 && has(n.inputs[0], BRANCH);
  }

  // ---- I: flags at the x64 levels ----
  // Each flags value has one user; at cfg-x64 it sits directly before that
  // user in the user's block; at ra-x64 earlier in the same block (the
  // allocator may put copies between; the allocation checker, H, proves
  // that none of them destroys the flags).
  void check_flags() {
    std::vector<NodeId> user(n_, kNone);
    for (NodeId id = 0; id < n_; ++id)
      for (NodeId in : node(id).inputs) {
        if (in >= n_ || kind_[in] != Kind::Flags) continue;
        if (user[in] == kNone)
          user[in] = id;
        else
          out_.at_node(id, "reads the flags of " + ref(in) + ", which " + node_name(user[in]) +
                               " reads already (a flags value has one user; a second one needs its own compare)");
      }
    for (NodeId f = 0; f < n_; ++f)
      if (is(f, X64FlagsOf) && shape_ok_[f]) check_flagsof(f, user[f]);
    if (level_ == Level::SonX64 || block_of_.size() != n_) return;
    for (NodeId f = 0; f < n_; ++f) {
      NodeId u = user[f];
      if (u == kNone || block_of_[f] == kNone || block_of_[u] == kNone || is_block_node(f) || is_block_node(u))
        continue;  // C reported the placement
      check_flags_order(f, u, "its flags input ", "a flags producer sits right before its user");
    }
  }

  // ---- J: x64 operands (what the literal shapes, A, cannot say alone) ----
  // Each register is taken once at entry (one x64:argreg per argument
  // register, one x64:entryreg per callee-saved register); an address's
  // inputs are what its literals say (a base unless there is a symbol, an
  // index when the scale is not 0); a call passes at most six register
  // arguments and a return at most two values; a shift by an immediate
  // stays below the operand size; an extension widens, from the sizes the
  // instruction has.
  void check_x64_operands() {
    std::array<NodeId, x64::kNumRegs> taken;
    taken.fill(kNone);
    for (NodeId id = 0; id < n_; ++id) {
      if (!shape_ok_[id]) continue;
      const Node& n = node(id);
      if (is(id, X64ArgReg) || is(id, X64EntryReg)) {
        std::string_view name = n.literals[is(id, X64ArgReg) ? 1 : 0].as_string();
        auto r = static_cast<size_t>(*x64::parse_reg(name));
        if (taken[r] != kNone)
          out_.at_node(id, "takes " + std::string(name) + " at entry, which " + ref(taken[r]) +
                               " takes already (one node per register)");
        else
          taken[r] = id;
      }
      if (x64::is_x64(n.op)) check_x64_operand_counts(id);
      if (is(id, X64ShlI) || is(id, X64ShrI) || is(id, X64SarI)) check_shift_count(id);
      if (is(id, X64MovSX) || is(id, X64MovZX) || is(id, X64LoadSX) || is(id, X64LoadZX) || is(id, X64LoadSXV) ||
          is(id, X64LoadZXV) || is(id, X64Load) || is(id, X64LoadV))
        check_extension(id);
    }
  }

  void check_x64_operand_counts(NodeId id) {
    const Node& n = node(id);
    const x64::Constraints& c = x64::constraints(n.op);
    if (c.address_literal >= 0) {
      auto lit = static_cast<size_t>(c.address_literal), in = static_cast<size_t>(c.address_input);
      bool symbol = n.literals.size() > lit + 2, indexed = n.literals[lit].bits() != 0;
      size_t want = in + (symbol ? 0 : 1) + (indexed ? 1 : 0);
      if (symbol && indexed)
        out_.at_node(id, "an address with a symbol has no index, so its scale must be 0");
      else if (n.inputs.size() != want)
        out_.at_node(id, "its address takes " + plural(want - in, "input") + " (" +
                             (symbol ? "a symbol: no base" : "a base") + (indexed ? " and an index" : "") + "), found " +
                             std::to_string(n.inputs.size() - std::min(n.inputs.size(), in)));
    }
    // A repeated input in the argument or return registers (the table's `*`
    // and `R`): no more than there are of them.
    x64::Fixed repeated = c.repeats ? c.inputs[c.num_inputs - 1u].kind : x64::Fixed::None;
    if (repeated != x64::Fixed::ArgRegs && repeated != x64::Fixed::RetRegs) return;
    bool ret = repeated == x64::Fixed::RetRegs;
    size_t fixed = c.num_inputs - 1u, most = ret ? x64::kReturnRegs.size() : x64::kArgRegs.size();
    size_t values = n.inputs.size() - std::min(n.inputs.size(), fixed);
    if (ret) {
      if (values > 2) out_.at_node(id, op_of(id) + " returns at most 2 values (rax, rdx or xmm0, xmm1), found " +
                                           std::to_string(values));
      return;
    }
    size_t xmm = x64::xmm_args(n);
    x64::CallVectors vectors = x64::call_vectors(n);
    size_t vector_args = static_cast<size_t>(std::popcount(vectors.arg_mask));
    if (!vectors.problem.empty())
      out_.at_node(id, op_of(id) + ": " + vectors.problem);
    else if (xmm + vector_args > x64::kXmmArgRegs.size())
      out_.at_node(id, op_of(id) + " passes " + std::to_string(xmm) + " float arguments and " +
                           plural(vector_args, "16-byte vector") + " in xmm registers (at most 8 in all)");
    if (xmm > values || xmm > x64::kXmmArgRegs.size())
      out_.at_node(id, op_of(id) + " passes " + std::to_string(xmm) + " arguments in xmm registers (at most 8), but has " +
                           std::to_string(values) + " register arguments");
    else if (values - xmm > most)
      out_.at_node(id, op_of(id) + " passes at most 6 register arguments in general registers (stack ones go through "
                                   "x64:outarg), found " + std::to_string(values - xmm));
  }

  void check_shift_count(NodeId id) {
    std::optional<unsigned> bits = x64::operand_bits(node(id));
    uint64_t count = node(id).literals[1].bits();
    if (bits && count >= *bits)
      out_.at_node(id, "shift by " + std::to_string(count) + " at " + std::to_string(*bits) +
                           " bits (an immediate shift count is below the operand size)");
  }

  // movsx, movzx, loadsx, loadzx: from < to, and a load reads 8 or 16 bits
  // (32 too when it sign-extends); x64:load reads i32 or i64.
  void check_extension(NodeId id) {
    const Node& n = node(id);
    unsigned from = type_bits(*literal_value_type(n.literals[0]));
    if (is(id, X64Load) || is(id, X64LoadV)) {
      if (from < 32) out_.at_node(id, op_of(id) + " loads i32 or i64 (smaller ones: x64:loadsx or x64:loadzx)");
      return;
    }
    unsigned to = type_bits(*literal_value_type(n.literals[1]));
    bool sign = is(id, X64MovSX) || is(id, X64LoadSX) || is(id, X64LoadSXV);
    bool load = !is(id, X64MovSX) && !is(id, X64MovZX);
    if (from == 1 || to == 1 || from >= to)
      out_.at_node(id, op_of(id) + " extends to a wider operand size, not from " + std::to_string(from) + " to " +
                           std::to_string(to) + " bits");
    else if (load && from > (sign ? 32u : 16u))
      out_.at_node(id, op_of(id) + " loads 8 or 16 bits" + (sign ? " or 32" : "") + ", not " + std::to_string(from));
  }

  // At cfg-x64 `first` is the node directly before `second` in its block,
  // at ra-x64 earlier in the same block (copies may come between; H checks
  // them). The error is on `second`, which names `first` as `role`.
  void check_flags_order(NodeId first, NodeId second, const char* role, const char* cfg_rule) {
    bool same_block = block_of_[first] == block_of_[second];
    if (level_ == Level::CfgX64 && !(same_block && slot_[second] == slot_[first] + 1))
      out_.at_node(second, role + ref(first) + " is not the node directly before it in its block (at cfg-x64 " +
                               cfg_rule + ")");
    if (level_ == Level::RaX64 && !(same_block && slot_[first] < slot_[second]))
      out_.at_node(second, role + ref(first) + " is not earlier in the same block (flags are never kept across blocks)");
  }

  // x64:flagsof f names the flags its input's definer d left: d leaves
  // flags named after its result (x64.h result_flags), at f's operand size;
  // f's user reads a condition d leaves as `test a, a` would; at cfg-x64 d
  // is the node directly before f in f's block (nothing between clobbers
  // the flags), at ra-x64 earlier in that block (H proves the flags are
  // still d's at f). Not at son-x64: there is no order to name "the
  // instruction before" in.
  void check_flagsof(NodeId f, NodeId u) {
    if (level_ == Level::SonX64) {
      out_.at_node(f, "x64:flagsof exists only at 'cfg-x64' and 'ra-x64' (it names the flags of the instruction "
                      "placed before it)");
      return;
    }
    NodeId d = node(f).inputs[0];
    if (d >= n_ || !is_table(d)) return;  // B reported it
    x64::ResultFlags kind = x64::result_flags(node(d));
    if (kind == x64::ResultFlags::None) {
      out_.at_node(f, "its input " + ref(d) + " leaves no flags named after its result (only add, sub, and, or, "
                      "xor, their immediate forms, neg, and shifts by an immediate of 1 or more do)");
      return;
    }
    std::optional<unsigned> fb = x64::operand_bits(node(f)), db = x64::operand_bits(node(d));
    if (!fb || !db || *fb != *db) {
      out_.at_node(f, "its operand size differs from that of its input " + ref(d) +
                      " (the flags are those of the result at the input's size)");
      return;
    }
    if (u != kNone && u < n_) {
      const Node& un = node(u);
      std::optional<x64::Cond> cc;
      if (!un.literals.empty() && un.literals[0].kind() == Literal::Kind::String)
        cc = x64::parse_cond(un.literals[0].as_string());
      if (!cc || !x64::result_flags_read(kind, *cc))
        out_.at_node(u, "its condition is not one " + ref(d) + " leaves as test would (x64:flagsof " +
                            node_name(f) + "): " +
                            (kind == x64::ResultFlags::ZeroSign ? "only e ne s ns p np" : "a condition code"));
    }
    if (block_of_.size() != n_ || block_of_[f] == kNone || block_of_[d] == kNone || is_block_node(d)) return;
    check_flags_order(d, f, "its input ", "x64:flagsof follows the instruction whose flags it names");
  }

  // ---- E: signature ----
  void check_signature() {
    for (std::string& problem : signature_problems(fn_.signature)) out_.at_function("signature", std::move(problem));
  }

  // ---- A: opcodes ----
  void check_opcode(NodeId id) {
    const Node& n = node(id);
    if (level_ != Level::RaX64 && !n.place.none())
      out_.at_node(id, "node has a place (" + x64::place_name(n.place) + "); places exist only at level 'ra-x64'");
    if (!is_table(id)) {
      out_.at_node(id, "unknown opcode " + op_of(id));
      bad_control_[id] = 1;
      return;
    }
    const OpInfo& info = op_info(n.op);
    if (!(info.levels & (1u << static_cast<unsigned>(level_))))
      out_.at_node(id, "opcode " + op_of(id) + " is not allowed at level " + level_text());
    bool ok = check_literals(id, info);
    if (ok && (is(id, AstAsm) || is(id, Asm) || is(id, X64Asm))) ok = check_asm(id);
    if (ok && (is(id, StackSlot) || is(id, X64StackSlot))) ok = check_stack_slot(id, 0);
    if (ok && is(id, AstVar)) ok = check_stack_slot(id, 1);
    if (ok) ok = check_probability(id);
    if (!shape_accepts(info.inputs, n.inputs.size())) {
      out_.at_node(id, op_of(id) + " takes " + counted(shape_count_text(info.inputs), "input") + ", found " +
                           std::to_string(n.inputs.size()));
      ok = false;
    }
    if (!control_accepts(info.control, n.control.size())) {
      out_.at_node(id, op_of(id) + " takes " + control_count_text(info.control) + ", found " +
                           std::to_string(n.control.size()));
      bad_control_[id] = 1;
      ok = false;
    }
    shape_ok_[id] = ok;
  }

  // A: a branch probability (if, x64:jcc, ast:expect; probability.h) is a
  // number of parts of 2^31: at most 2^31.
  bool check_probability(NodeId id) {
    const Node& n = node(id);
    std::optional<size_t> i = probability_literal_index(n.op);
    if (!i || n.literals.size() <= *i || n.literals[*i].bits() <= kProbOne) return true;
    out_.at_node(id, "literal " + std::to_string(*i) + " is a probability in parts of 2^31, at most 2147483648, found " +
                         n.literals[*i].to_json());
    return false;
  }

  // A: a stack slot's size and alignment fit the frame's 32-bit offsets;
  // so does an ast:var's (literals from `first`: size, align), since
  // ast2cfg gives a variable whose address is taken a slot of its size.
  bool check_stack_slot(NodeId id, size_t first) {
    const Node& n = node(id);
    uint64_t size = n.literals[first].bits(), align = n.literals[first + 1].bits();
    constexpr uint64_t kMaxAlign = uint64_t{1} << 28;
    bool ok = true;
    std::string what = first == 0 ? "stack slot" : "variable";
    if (align == 0 || (align & (align - 1)) != 0 || align > kMaxAlign) {
      out_.at_node(id, what + " alignment " + std::to_string(align) +
                           " is not a power of two from 1 to 2^28");
      ok = false;
    } else if (size > (uint64_t{1} << 31) - align) {
      out_.at_node(id, what + " of " + std::to_string(size) + " bytes aligned to " + std::to_string(align) +
                           ": its size plus its alignment must be at most 2^31");
      ok = false;
    }
    return ok;
  }

  // N. Inline assembly (asm.h): the operand literals parse, the template's
  // references are in range, matched inputs name a "=" register output;
  // one input per operand that reads a value (ast:asm: per operand but
  // immediates); at the x64 levels each register operand's register fits
  // its constraint (x64.h check_asm_registers).
  bool check_asm(NodeId id) {
    const Node& n = node(id);
    bool x64 = is(id, X64Asm);
    std::string why = check_asm_literals(n, x64);
    if (why.empty() && x64) why = x64::check_asm_registers(n);
    if (!why.empty()) {
      out_.at_node(id, "inline assembly: " + why);
      return false;
    }
    std::vector<AsmOperand> ops = asm_operands(n);
    size_t want = 0;
    if (is(id, AstAsm)) {
      for (const AsmOperand& op : ops) want += op.cls != 'i';
    } else {
      want = 1 + asm_value_inputs(ops);
    }
    if (n.inputs.size() != want) {
      out_.at_node(id, op_of(id) + " has " + plural(ops.size(), "operand") + " that take " + plural(want, "input") +
                           ", found " + std::to_string(n.inputs.size()));
      return false;
    }
    return true;
  }

  // The number of results of a tuple node: its shape's, or for an asm
  // node's repeated "v" one per register output.
  size_t result_count(NodeId src) const {
    std::string_view results = op_info(node(src).op).results;
    if (split_shape(results).repeat == '\0') return results.size();
    if (!shape_ok_[src]) return SIZE_MAX;
    return 1 + asm_value_results(asm_operands(node(src)));
  }

  static std::string control_count_text(std::string_view control) {
    if (control == "+") return "at least 1 control input";
    if (control == "1") return "1 control input";
    return "no control input";
  }

  bool check_literals(NodeId id, const OpInfo& info) {
    const Node& n = node(id);
    if (!shape_accepts(info.literals, n.literals.size())) {
      out_.at_node(id, op_of(id) + " takes " + counted(shape_count_text(info.literals), "literal") + ", found " +
                           std::to_string(n.literals.size()));
      return false;
    }
    bool ok = true;
    for (size_t i = 0; i < n.literals.size(); ++i) {
      auto problem = literal_problem(shape_letter(info.literals, i), n.literals[i]);
      if (!problem) continue;
      out_.at_node(id, "literal " + std::to_string(i) + " must be " + std::string(*problem) + ", found " +
                           n.literals[i].to_json());
      ok = false;
    }
    return ok;
  }

  // ---- B: kinds ----
  void compute_kinds() {
    for (NodeId id = 0; id < n_; ++id) kind_[id] = base_kind(id);
    for (NodeId id = 0; id < n_; ++id)
      if (is(id, Proj)) kind_[id] = proj_kind(id);
    compute_phi_kinds();
  }

  Kind base_kind(NodeId id) const {
    if (!is_table(id)) return Kind::Bad;
    const OpInfo& info = op_info(node(id).op);
    if (info.results.empty()) return Kind::Nothing;
    if (info.results.size() >= 2) return Kind::Tuple;
    return kind_of_letter(info.results[0]);
  }

  // Reports a malformed proj (its input is not a tuple, its index is out of
  // range) and gives it the kind Bad.
  Kind proj_kind(NodeId id) {
    const Node& n = node(id);
    if (!shape_ok_[id]) return Kind::Bad;
    NodeId src = n.inputs[0];
    if (!is_table(src)) return Kind::Bad;
    std::string_view results = op_info(node(src).op).results;
    if (results.size() < 2) {
      out_.at_node(id, "proj input " + ref(src) + " is not a tuple");
      return Kind::Bad;
    }
    uint64_t index = as_index(n.literals[0]);
    size_t count = result_count(src);
    if (count == SIZE_MAX) return Kind::Bad;
    if (index >= count) {
      out_.at_node(id, "proj index " + std::to_string(index) + " is out of range: " + op_of(src) + " has " +
                           plural(count, "result"));
      return Kind::Bad;
    }
    return kind_of_letter(shape_letter(results, index));
  }

  // Phis joined through phi inputs form one class (union-find) whose kind is
  // the first value or memory kind among the class's non-phi inputs, in node
  // order; a class with none stays Unknown.
  void compute_phi_kinds() {
    std::vector<NodeId> root(n_);
    for (NodeId id = 0; id < n_; ++id) root[id] = id;
    auto find = [&](NodeId x) {
      while (root[x] != x) x = root[x] = root[root[x]];
      return x;
    };
    for (NodeId id = 0; id < n_; ++id)
      if (has(id, PHI))
        for (NodeId in : node(id).inputs)
          if (has(in, PHI)) root[find(in)] = find(id);
    std::vector<Kind> class_kind(n_, Kind::Unknown);
    for (NodeId id = 0; id < n_; ++id) {
      if (!has(id, PHI)) continue;
      Kind& k = class_kind[find(id)];
      for (NodeId in : node(id).inputs)
        if (k == Kind::Unknown && !has(in, PHI) && (kind_[in] == Kind::Value || kind_[in] == Kind::Memory))
          k = kind_[in];
    }
    for (NodeId id = 0; id < n_; ++id)
      if (has(id, PHI)) kind_[id] = class_kind[find(id)];
  }

  void check_inputs(NodeId id) {
    if (!is_table(id) || is(id, Proj)) return;  // proj inputs: see proj_kind
    const Node& n = node(id);
    std::string_view shape = op_info(n.op).inputs;
    bool phi = has(id, PHI);
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      char letter = shape_letter(shape, i);
      if (!letter) continue;
      NodeId in = n.inputs[i];
      std::optional<std::string> problem = input_problem(letter, kind_[in]);
      if (!problem && phi && !has(in, PHI) && disagrees(kind_[in], kind_[id]))
        problem = std::string(kind_phrase(kind_[in])) + ", but the phi merges " +
                  (kind_[id] == Kind::Value ? "values" : "memory");
      if (problem) out_.at_node(id, "input " + std::to_string(i) + " " + ref(in) + " " + *problem);
    }
  }

  static bool disagrees(Kind a, Kind b) {
    auto concrete = [](Kind k) { return k == Kind::Value || k == Kind::Memory; };
    return concrete(a) && concrete(b) && a != b;
  }

  void check_controls(NodeId id) {
    if (!is_table(id)) return;
    // At the cfg levels a region's controls are its predecessors'
    // terminators (`if` included); check_merges() checks them exactly.
    if (level_has_cfg(level_) && is(id, Region)) return;
    for (NodeId c : node(id).control) {
      Kind k = kind_[c];
      if (k == Kind::Control || k == Kind::Bad) continue;
      bad_control_[id] = 1;
      if (k == Kind::Tuple)
        out_.at_node(id, "control input " + ref(c) + " is a tuple; use a proj of it");
      else
        out_.at_node(id, "control input " + ref(c) + " " + std::string(kind_phrase(k)) + "; expected control");
    }
  }

  // ---- shared: function entry and phis; E: params and returns ----
  void check_function_entry_and_phi(NodeId id) {
    if (!is_table(id)) return;
    if (is(id, Param) || is(id, EntryMem) || is(id, X64ArgReg) || is(id, X64EntryReg)) check_hangs_off_start(id);
    if (is(id, Param)) check_param(id);
    if (is(id, AstParam)) check_param_type(id);
    if (is(id, AstOp)) check_ast_op(id);
    if (is(id, AstBitLoad) || is(id, AstBitLoadV) || is(id, AstBitStore) || is(id, AstBitStoreV)) check_bitfield(id);
    if (is(id, F80Arith) || is(id, F80Unary) || is(id, F80Cmp) || is(id, F80From) || is(id, F80To) ||
        is(id, AstF80Arith) || is(id, AstF80Unary) || is(id, AstF80Cmp) || is(id, AstF80From) || is(id, AstF80To) ||
        is(id, X64F80Arith) || is(id, X64F80Unary) || is(id, X64F80From) || is(id, X64F80To))
      check_f80(id);
    if (is(id, V128Op) || is(id, AstV128Op) || is(id, X64V128Op)) check_v128(id);
    if (is(id, X64V128Param)) check_v128_param(id);
    check_vec_values(id);
    if (is(id, AtomicLoad) || is(id, AtomicStore) || is(id, AtomicRmw) || is(id, AtomicCmpXchg) || is(id, Fence) ||
        is(id, AstAtomicLoad) || is(id, AstAtomicStore) || is(id, AstAtomicRmw) || is(id, AstAtomicCmpXchg) ||
        is(id, AstFence) || is(id, X64AtomicXchg) || is(id, X64AtomicXadd) || is(id, X64AtomicCmpXchg) ||
        is(id, X64AtomicLoop) || is(id, X64AtomicOp))
      check_atomic(id);
    if (is(id, Return)) check_return(id);
    if (is(id, Call) || is(id, AstCall)) check_call_abi(id);
    if (is(id, VaArg) || is(id, AstVaArg)) check_va_arg_aggregate(id);
    if ((is(id, VaStart) || is(id, AstVaStart)) && !fn_.signature.variadic)
      out_.at_node(id, op_of(id) + " in a function that is not variadic");
    if (has(id, PHI)) check_phi(id);
  }

  // A call's optional literal 1: the callee's parameter list (abi.h), whose
  // fixed parameters are exactly the arguments (at most them when variadic;
  // with the variadic arguments' types after `...`, exactly them too);
  // with an sret parameter 0 the call's result is void.
  void check_call_abi(NodeId id) {
    const Node& n = node(id);
    if (!shape_ok_[id] || n.literals.size() < 2) return;
    std::string problem;
    std::optional<ParamList> list = parse_param_list(n.literals[1].as_string(), &problem);
    if (!list) {
      out_.at_node(id, "literal 1 must be the callee's parameter list with its ABI attributes: " + problem);
      return;
    }
    size_t args = n.inputs.size() - (is(id, Call) ? 2 : 1);
    size_t fixed = list->params.size();
    if (list->variadic ? fixed > args : fixed != args)
      out_.at_node(id, "the parameter list " + quoted(n.literals[1].as_string()) + " has " +
                           plural(fixed, list->variadic ? "fixed parameter" : "parameter") + ", but the call passes " +
                           plural(args, "argument"));
    else if (!list->varargs.empty() && fixed + list->varargs.size() != args)
      out_.at_node(id, "the parameter list " + quoted(n.literals[1].as_string()) + " gives the types of " +
                           plural(list->varargs.size(), "variadic argument") + ", but the call passes " +
                           plural(args - fixed, "variadic argument"));
    else if (starts_with_sret(list->params) && n.literals[0].as_string() != "void")
      out_.at_node(id, "parameter 0 is the sret result pointer, so the call's result must be void, not " +
                           quoted(n.literals[0].as_string()));
  }

  // va_arg's optional literal 1: the byval type of the aggregate whose
  // address it yields (literal 0 is then ptr).
  void check_va_arg_aggregate(NodeId id) {
    const Node& n = node(id);
    if (!shape_ok_[id] || n.literals.size() < 2) return;
    std::string problem;
    std::optional<ParamType> type = parse_param_type(n.literals[1].as_string(), &problem);
    if (!type || type->attr != ParamAttr::ByVal)
      out_.at_node(id, "literal 1 must be the byval type of the aggregate read (ptr byval(SIZE,ALIGN[,CLASSES]))" +
                           (problem.empty() ? std::string() : ": " + problem));
    else if (n.literals[0].as_string() != "ptr")
      out_.at_node(id, "an aggregate's va_arg yields its address, so literal 0 must be \"ptr\", not " +
                           quoted(n.literals[0].as_string()));
  }

  // ast:op names a generic arithmetic, shift, division, comparison or
  // conversion opcode, with that opcode's type literals and inputs.
  void check_ast_op(NodeId id) {
    if (!shape_ok_[id]) return;
    const Node& n = node(id);
    std::string_view name = n.literals[0].as_string();
    std::optional<OpId> op = find_op(name);
    if (!op || !is_ast_op_target(*op)) {
      out_.at_node(id, "ast:op names " + quoted(name) +
                           ", which is not an arithmetic, shift, division, comparison or conversion opcode");
      return;
    }
    const OpInfo& info = op_info(*op);
    if (n.literals.size() - 1 != info.literals.size() || !shape_accepts(info.inputs, n.inputs.size()))
      out_.at_node(id, "ast:op " + quoted(name) + " takes " + plural(info.literals.size(), "type literal") + " and " +
                           counted(shape_count_text(info.inputs), "input") + ", found " +
                           plural(n.literals.size() - 1, "type literal") + " and " + std::to_string(n.inputs.size()));
    else
      for (size_t i = 0; i < info.literals.size(); ++i)
        if (std::optional<std::string_view> problem = literal_problem(info.literals[i], n.literals[i + 1]))
          out_.at_node(id, "ast:op " + quoted(name) + " literal " + std::to_string(i + 1) + " must be " +
                               std::string(*problem) + ", found " + n.literals[i + 1].to_json());
  }

  // R: the type, operation and order literals of an atomic.
  void check_atomic(NodeId id) {
    if (!shape_ok_[id]) return;
    const Node& n = node(id);
    auto string_lit = [&](size_t i) {
      return n.literals[i].kind() == Literal::Kind::String ? std::string(n.literals[i].as_string()) : std::string();
    };
    auto one_of = [&](const std::string& lit, std::initializer_list<std::string_view> names) {
      for (std::string_view name : names)
        if (lit == name) return true;
      return false;
    };
    auto refuse = [&](size_t i, std::string_view what) {
      out_.at_node(id, op_of(id) + " " + std::string(what) + ", not " + n.literals[i].to_json());
    };
    if (is(id, Fence) || is(id, AstFence)) {
      if (!one_of(string_lit(0), {"seq_cst", "acq_rel", "signal"})) refuse(0, "orders \"seq_cst\", \"acq_rel\" or \"signal\"");
      return;
    }
    std::optional<ValueType> t = literal_value_type(n.literals[0]);
    bool x64 = x64::is_x64(n.op);
    if (!t || *t == ValueType::I1 || is_float(*t) || (x64 && *t == ValueType::Ptr)) {
      refuse(0, x64 ? "accesses \"i8\", \"i16\", \"i32\" or \"i64\""
                    : "accesses \"i8\", \"i16\", \"i32\", \"i64\" or \"ptr\"");
      return;
    }
    if (is(id, AtomicStore) || is(id, AstAtomicStore)) {
      if (!one_of(string_lit(1), {"relaxed", "release", "seq_cst"}))
        refuse(1, "orders \"relaxed\", \"release\" or \"seq_cst\"");
    } else if (is(id, AtomicRmw) || is(id, AstAtomicRmw)) {
      if (!one_of(string_lit(1), {"xchg", "add", "sub", "and", "or", "xor", "nand"}))
        refuse(1, "computes \"xchg\", \"add\", \"sub\", \"and\", \"or\", \"xor\" or \"nand\"");
    } else if (is(id, X64AtomicOp)) {
      if (!one_of(string_lit(1), {"add", "sub", "and", "or", "xor"}))
        refuse(1, "computes \"add\", \"sub\", \"and\", \"or\" or \"xor\"");
    } else if (is(id, X64AtomicLoop)) {
      if (!one_of(string_lit(1), {"and", "or", "xor", "nand"})) refuse(1, "computes \"and\", \"or\", \"xor\" or \"nand\"");
    }
    if (level_ != Level::Cfg && level_ != Level::Ssa && level_ != Level::Son) return;
    for (size_t i = 2; i < n.inputs.size(); ++i) {
      std::optional<ValueType> got = result_type_of(n.inputs[i]);
      if (got && is_float(*got))
        out_.at_node(id, "input " + std::to_string(i) + " " + ref(n.inputs[i]) + " has type " +
                             quoted(value_type_name(*got)) + ", but " + op_of(id) + " accesses " +
                             quoted(value_type_name(*t)));
    }
  }

  // FORMAT.md G, "Bit-fields": the literals place the field in its unit.
  // P: the operation or type literal of an f80 operation.
  void check_f80(NodeId id) {
    if (!shape_ok_[id]) return;
    const Node& n = node(id);
    const std::string lit = n.literals[0].kind() == Literal::Kind::String ? std::string(n.literals[0].as_string()) : std::string();
    auto one_of = [&](std::initializer_list<std::string_view> names) {
      for (std::string_view name : names)
        if (lit == name) return true;
      return false;
    };
    auto refuse = [&](std::string_view what) {
      out_.at_node(id, op_of(id) + " " + std::string(what) + ", not " + n.literals[0].to_json());
    };
    if (is(id, F80Arith) || is(id, AstF80Arith) || is(id, X64F80Arith)) {
      if (!one_of({"add", "sub", "mul", "div"})) refuse("computes \"add\", \"sub\", \"mul\" or \"div\"");
    } else if (is(id, F80Unary) || is(id, AstF80Unary) || is(id, X64F80Unary)) {
      if (!one_of({"neg", "abs", "sqrt", "copy"})) refuse("computes \"neg\", \"abs\", \"sqrt\" or \"copy\"");
    } else if (is(id, F80Cmp) || is(id, AstF80Cmp)) {
      if (!one_of({"foeq", "fone", "folt", "fole", "fogt", "foge", "ford", "fueq", "fune", "fult", "fule", "fugt",
                   "fuge", "funo"}))
        refuse("takes a floating compare's name (\"foeq\" ... \"funo\")");
    } else {
      std::optional<ValueType> t = literal_value_type(n.literals[0]);
      if (!t || !(*t == ValueType::I16 || *t == ValueType::I32 || *t == ValueType::I64 || *t == ValueType::F32 ||
                  *t == ValueType::F64))
        refuse("converts \"i16\", \"i32\", \"i64\", \"f32\" or \"f64\"");
      else if ((is(id, F80From)) && (level_ == Level::Cfg || level_ == Level::Ssa || level_ == Level::Son)) {
        std::optional<ValueType> got = result_type_of(n.inputs[2]);
        if (got && *got != *t && (is_float(*got) || is_float(*t)))
          out_.at_node(id, "input 2 " + ref(n.inputs[2]) + " has type " + quoted(value_type_name(*got)) + ", but " +
                               op_of(id) + " converts " + quoted(value_type_name(*t)));
      }
    }
  }

  // x64:v128.param: codegen-x64 stores the register in the prologue, so its
  // address must be a frame slot known there.
  void check_v128_param(NodeId id) {
    const Node& n = node(id);
    if (!shape_ok_[id] || n.literals.size() < 3) return;
    if (n.literals[0].bits() >= x64::kXmmArgRegs.size())
      out_.at_node(id, "x64:v128.param stores xmm" + std::to_string(n.literals[0].bits()) +
                           ", which is no argument register (xmm0-xmm7)");
    bool plain = n.literals.size() == 3 && n.literals[1].bits() == 0 && n.inputs.size() == 2;
    if (!plain || !is(n.inputs[1], X64StackSlot))
      out_.at_node(id, "x64:v128.param's address is an x64:stackslot plus a displacement (no index, no symbol), "
                       "which the prologue can address");
  }

  void check_v128(NodeId id) {
    if (!shape_ok_[id]) return;
    const Node& n = node(id);
    if (n.literals[0].kind() != Literal::Kind::String || !n.literals[1].is_int()) return;
    std::string problem = v128_op_problem(n.literals[0].as_string(), n.literals[1].bits());
    if (!problem.empty()) {
      out_.at_node(id, op_of(id) + ": " + problem);
      return;
    }
    if (!is(id, V128Op) || !(level_ == Level::Cfg || level_ == Level::Ssa || level_ == Level::Son)) return;
    for (size_t i = 2; i < n.inputs.size(); ++i) {  // input 1 is K's address rule
      std::optional<ValueType> got = result_type_of(n.inputs[i]);
      if (got && is_float(*got))
        out_.at_node(id, "input " + std::to_string(i) + " " + ref(n.inputs[i]) + " is a floating value (" +
                             quoted(value_type_name(*got)) + "), but " + op_of(id) + " reads an address");
    }
  }

  // ---- V: 16-byte vector values ----
  void check_vec_values(NodeId id) {
    if (!shape_ok_[id]) return;
    const Node& n = node(id);
    const bool generic = level_ == Level::Cfg || level_ == Level::Ssa || level_ == Level::Son;
    auto lane_type = [&]() -> std::optional<ValueType> {
      if (std::optional<ValueType> t = v128_lane_type(n.literals[0])) return t;
      out_.at_node(id, op_of(id) + ": lanes are \"i32\", \"i64\", \"f32\" or \"f64\"");
      return std::nullopt;
    };
    auto reads_vector = [&](size_t i) {
      std::optional<ValueType> got = i < n.inputs.size() ? result_type_of(n.inputs[i]) : std::nullopt;
      if (got && *got != ValueType::V128)
        out_.at_node(id, "input " + std::to_string(i) + " " + ref(n.inputs[i]) + " has type " +
                             quoted(value_type_name(*got)) + ", but " + op_of(id) + " reads a 16-byte vector (\"v128\")");
    };
    if (is(id, V128Apply) || is(id, X64V128Apply)) {
      if (n.literals[0].kind() == Literal::Kind::String && n.literals[1].is_int()) {
        std::string problem = v128_op_problem(n.literals[0].as_string(), n.literals[1].bits());
        if (!problem.empty()) out_.at_node(id, op_of(id) + ": " + problem);
      }
      if (generic) reads_vector(0), reads_vector(1);
      return;
    }
    if (is(id, V128Splat) || is(id, X64V128Splat)) {
      std::optional<ValueType> t = lane_type();
      std::optional<ValueType> got = generic ? result_type_of(n.inputs[0]) : std::nullopt;
      if (t && got && *got != *t && !(*t == ValueType::I64 && *got == ValueType::Ptr))
        out_.at_node(id, "input 0 " + ref(n.inputs[0]) + " has type " + quoted(value_type_name(*got)) + ", but " +
                             op_of(id) + " copies a " + quoted(value_type_name(*t)) + " into every lane");
      return;
    }
    if (is(id, V128Extract) || is(id, X64V128Extract)) {
      std::optional<ValueType> t = lane_type();
      if (t && is(id, V128Extract) && n.literals[1].bits() >= 16 / type_bytes(*t))
        out_.at_node(id, "lane " + std::to_string(n.literals[1].bits()) + " of " + std::to_string(type_bytes(*t)) +
                             "-byte lanes is out of range (below " + std::to_string(16 / type_bytes(*t)) + ")");
      if (generic) reads_vector(0);
      return;
    }
    if (!generic || !is_table(id)) return;
    if (is(id, V128Store)) return reads_vector(2);
    if (is(id, Phi) || is(id, SsaPhi) || is(id, SsaStore)) return;
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      std::optional<ValueType> got = result_type_of(n.inputs[i]);
      if (got && *got == ValueType::V128)
        out_.at_node(id, "input " + std::to_string(i) + " " + ref(n.inputs[i]) + " is a 16-byte vector (\"v128\"), which " +
                             op_of(id) + " does not read (v128.apply, v128.store, v128.extract and phis do)");
    }
  }

  void check_bitfield(NodeId id) {
    if (!shape_ok_[id]) return;
    std::string why;
    if (!decode_bitfield(node(id), why)) out_.at_node(id, why);
  }

  bool has_good_control(NodeId id) const { return !bad_control_[id] && node(id).control.size() == 1; }

  void check_hangs_off_start(NodeId id) {
    if (!has_good_control(id)) return;
    NodeId c = node(id).control[0];
    if (is(c, Start)) return;
    out_.at_node(id, "control " + ref(c) + " must be the start node: " + op_of(id) + " belongs to the entry");
    bad_control_[id] = 1;
  }

  // A param's (and ast:param's) index is the signature's and its type the
  // value type there; false after reporting that it is not.
  bool check_param_type(NodeId id) {
    if (!shape_ok_[id]) return false;
    const Node& n = node(id);
    const std::vector<std::string>& params = fn_.signature.params;
    std::string_view type = n.literals[0].as_string();
    uint64_t index = as_index(n.literals[1]);
    if (index >= params.size()) {
      out_.at_node(id, std::string(fn_.op_name(n.op)) + " index " + std::to_string(index) +
                           " is out of range: the signature has " +
                           plural(params.size(), "parameter"));
      return false;
    }
    std::string_view value_type = param_value_type(params[index]);
    if (type != value_type) {
      out_.at_node(id, std::string(fn_.op_name(n.op)) + " " + std::to_string(index) + " has type " + quoted(type) +
                           ", but the signature says " + quoted(params[index]) +
                           (value_type != params[index] ? " (value type " + quoted(value_type) + ")" : std::string()));
      return false;
    }
    return true;
  }

  // A param as above, at most one per index.
  void check_param(NodeId id) {
    if (!check_param_type(id)) return;
    const std::vector<std::string>& params = fn_.signature.params;
    uint64_t index = as_index(node(id).literals[1]);
    if (first_param_.empty()) first_param_.assign(params.size(), kNone);
    if (first_param_[index] == kNone)
      first_param_[index] = id;
    else
      out_.at_node(id, "param " + std::to_string(index) + " is already defined by " + node_name(first_param_[index]));
  }

  // ---- O: the frame pointer of a dynamic stack (ra-x64) ----
  void check_frame_pointer() {
    if (!x64::has_dynamic_stack(fn_)) return;
    const Place rbp = x64::place_of(x64::Reg::Rbp);
    for (NodeId id = 0; id < n_; ++id) {
      const Node& n = node(id);
      bool entry_rbp = is(id, X64EntryReg) && shape_ok_[id] && n.literals[0].kind() == Literal::Kind::String &&
                       n.literals[0].as_string() == "rbp";
      if (n.place == rbp || entry_rbp)
        out_.at_node(id, std::string(entry_rbp ? "x64:entryreg names rbp" : "the value is placed in rbp") +
                             ", the frame pointer of a function with a dynamic stack (x64:alloca, x64:stacksave, "
                             "x64:stackrestore) or reading its frame (x64:frameaddress, x64:returnaddress)");
    }
  }

  // ---- L: register classes at the x64 levels ----
  // A value's class is its type's (x64.h value_classes: f32/f64 in xmm
  // registers, the rest in general ones). Each register operand of an x64
  // instruction is read in one class (x64.h input_class); copies (x64:mov,
  // spill, reload, xchg) take either. A phi's inputs are of the phi's
  // class.
  void check_x64_classes() {
    const std::vector<x64::RegClass> cls = x64::value_classes(fn_);
    auto name = [](x64::RegClass c) {
      return c == x64::RegClass::Xmm ? std::string("a floating value (xmm register class)")
                                     : std::string("an integer value (general register class)");
    };
    for (NodeId id = 0; id < n_; ++id) {
      if (!shape_ok_[id] || !is_table(id)) continue;
      const Node& n = node(id);
      if (is(id, Phi)) {
        for (size_t i = 1; i < n.inputs.size(); ++i) {
          NodeId in = n.inputs[i], first = n.inputs[0];
          if (kind_[in] != Kind::Value || kind_[first] != Kind::Value || is(in, Undef) || is(first, Undef)) continue;
          if (cls[in] != cls[first])
            out_.at_node(id, "input " + std::to_string(i) + " " + ref(in) + " is " + name(cls[in]) + ", but input 0 " +
                                 ref(first) + " is " + name(cls[first]) + ": a phi's inputs have one register class");
        }
        continue;
      }
      if (!x64::is_x64(n.op)) continue;
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        if (x64::input_constraint(n, i).kind == x64::Fixed::None || kind_[n.inputs[i]] != Kind::Value) continue;
        std::optional<x64::RegClass> want = x64::input_class(n, i);
        NodeId in = n.inputs[i];
        if (!want || is(in, Undef) || cls[in] == *want) continue;
        // Address nodes (x64:stackslot ...) are general; phis of them too.
        out_.at_node(id, "input " + std::to_string(i) + " " + ref(in) + " is " + name(cls[in]) + ", but " + op_of(id) +
                             " reads it in " + (*want == x64::RegClass::Xmm ? "an xmm register" : "a general register"));
      }
    }
  }

  // ---- K: floating-point types (cfg, ssa, son) ----
  // The value type a node's result has, where its opcode says: the type
  // literal of arithmetic, constants, loads and params, the target type of a
  // conversion, i32 for a comparison, ptr for an address. nullopt for the
  // rest (phis, projs, calls, ssa: slots, malformed nodes).
  std::optional<ValueType> result_type_of(NodeId id) const {
    if (!shape_ok_[id] || !is_table(id)) return std::nullopt;
    const Node& n = node(id);
    const OpInfo& info = op_info(n.op);
    if (info.results != "v") return std::nullopt;
    if (is(id, SymAddr) || is(id, TlsAddr) || is(id, StackSlot)) return ValueType::Ptr;
    if (is(id, V128Load) || is(id, V128Apply) || is(id, V128Splat)) return ValueType::V128;
    if (float_pred(n.op) || eval_class(n.op) == EvalClass::Compare) return ValueType::I32;
    if (is(id, F80Cmp)) return ValueType::I32;
    if (eval_class(n.op) == EvalClass::Convert || (is_float_op(n.op) && info.literals.size() == 2 && !is(id, FConst)))
      return literal_value_type(n.literals[1]);
    if (info.literals.empty()) return std::nullopt;
    char letter = info.literals[0];
    if (letter != 't' && letter != 'I' && letter != 'F') return std::nullopt;
    return literal_value_type(n.literals[0]);
  }

  // Floating values are never read as integers nor integers as floating
  // values: a float opcode's operands have exactly its type (the first type
  // literal), an integer opcode's operands are not floating, a store's value
  // and a return's value agree with the store's type and the signature when
  // either is floating; fconst "f32" holds a number f32 represents exactly;
  // fpext widens f32 to f64, fptrunc narrows, bitcast joins f32/i32 or
  // f64/i64. Operands whose type the opcode does not give (phis, projs) are
  // not checked.
  void check_float_types(NodeId id) {
    if (!shape_ok_[id] || !is_table(id)) return;
    const Node& n = node(id);
    const OpId op = n.op;
    auto type_name = [](ValueType t) { return quoted(value_type_name(t)); };
    auto operand = [&](size_t i, ValueType want) {
      std::optional<ValueType> got = result_type_of(n.inputs[i]);
      if (got && *got != want)
        out_.at_node(id, "input " + std::to_string(i) + " " + ref(n.inputs[i]) + " has type " + type_name(*got) +
                             ", but " + op_of(id) + " takes " + type_name(want));
    };
    if (is_float_op(op)) {
      std::optional<ValueType> t0 = literal_value_type(n.literals[0]);
      // The second type literal (conversions), or I1, which no float
      // opcode takes, when there is none.
      ValueType t1 = ValueType::I1;
      if (n.literals.size() > 1 && !is(id, FConst)) t1 = literal_value_type(n.literals[1]).value_or(ValueType::I1);
      if (!t0) return;
      for (size_t i = 0; i < n.inputs.size(); ++i) operand(i, *t0);
      if (is(id, FConst) && *t0 == ValueType::F32 && !f64_bits_fit_f32(n.literals[1].bits()))
        out_.at_node(id, "fconst \"f32\" " + float_spelling(n.literals[1].bits()) +
                             " is not a single-precision value (round it to f32 first)");
      if (is(id, FPExt) && !(*t0 == ValueType::F32 && t1 == ValueType::F64))
        out_.at_node(id, "fpext converts \"f32\" to \"f64\"");
      if (is(id, FPTrunc) && !(*t0 == ValueType::F64 && t1 == ValueType::F32))
        out_.at_node(id, "fptrunc converts \"f64\" to \"f32\"");
      if (is(id, Bitcast) && !bitcast_pair(*t0, t1))
        out_.at_node(id, "bitcast joins \"f32\" and \"i32\", or \"f64\" and \"i64\"; not " + type_name(*t0) +
                             " and " + type_name(t1));
      return;
    }
    if (eval_class(op) != EvalClass::None) {
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        std::optional<ValueType> got = result_type_of(n.inputs[i]);
        if (got && is_float(*got))
          out_.at_node(id, "input " + std::to_string(i) + " " + ref(n.inputs[i]) + " is a floating value (" +
                               type_name(*got) + "), but " + op_of(id) + " is an integer opcode");
      }
      return;
    }
    auto agree = [&](size_t i, std::optional<ValueType> want, const std::string& what) {
      if (i < n.inputs.size()) check_float_agreement(id, i, result_type_of(n.inputs[i]), want, what);
    };
    if (is(id, Store) || is(id, StoreV)) agree(2, literal_value_type(n.literals[0]), op_of(id) + " stores");
    if (is(id, Return)) agree(1, parse_value_type(fn_.signature.result), "the function returns");
    if (is(id, Asm)) {  // each value read has its operand's type's class (xmm operands are f32/f64)
      size_t i = 1, k = 0;
      for (const AsmOperand& op : asm_operands(n)) {
        if (op.reads_value()) agree(i++, op.type, "asm operand " + std::to_string(k) + " is");
        ++k;
      }
      return;
    }
    // Read as an integer: an if's condition (a bit pattern's != 0 is not a
    // float's: -0.0), and a memory operation's address.
    size_t integer_input = is(id, If) ? 0 : has(id, MEMORY) && !is(id, Call) && n.inputs.size() >= 2 ? 1 : SIZE_MAX;
    if (integer_input < n.inputs.size()) {
      std::optional<ValueType> got = result_type_of(n.inputs[integer_input]);
      if (got && is_float(*got))
        out_.at_node(id, "input " + std::to_string(integer_input) + " " + ref(n.inputs[integer_input]) +
                             " is a floating value (" + type_name(*got) + "), but " + op_of(id) + " reads " +
                             (is(id, If) ? "an integer condition (compare the value with fune first)" : "an address"));
    }
  }

  // The target opcode of an ast:op that check_ast_op accepts; nullopt for
  // one it reported.
  std::optional<OpId> well_formed_ast_op(NodeId id) const {
    const Node& n = node(id);
    std::optional<OpId> op = find_op(n.literals[0].as_string());
    if (!op || !is_ast_op_target(*op)) return std::nullopt;
    const OpInfo& info = op_info(*op);
    if (n.literals.size() - 1 != info.literals.size()) return std::nullopt;
    for (size_t i = 0; i < info.literals.size(); ++i)
      if (literal_problem(info.literals[i], n.literals[i + 1])) return std::nullopt;
    return op;
  }

  // K, at every level that checks it: input i of id, of type `got` where its
  // definer says, is read as `want` (what: who reads it so); they must agree
  // where either is floating.
  void check_float_agreement(NodeId id, size_t i, std::optional<ValueType> got, std::optional<ValueType> want,
                             const std::string& what) {
    if (!got || !want || *got == *want || !(is_float(*got) || is_float(*want))) return;
    out_.at_node(id, "input " + std::to_string(i) + " " + ref(node(id).inputs[i]) + " has type " +
                         quoted(value_type_name(*got)) + ", but " + what + " " + quoted(value_type_name(*want)));
  }

  // K at the ast level: the value type an ast node's result has, where its
  // opcode says (as result_type_of: an ast:op by its target opcode, whose
  // type literals follow its name); nullopt where it does not.
  std::optional<ValueType> ast_result_type_of(NodeId id) const {
    if (!shape_ok_[id] || !is_table(id)) return std::nullopt;
    const Node& n = node(id);
    switch (n.op) {
      case AstVar: case AstSymAddr: case AstTlsAddr: case AstAlloca: case AstStackSave: case AstFrameAddress:
      case AstReturnAddress:
        return ValueType::Ptr;
      case AstAnd: case AstOr: case AstF80Cmp:
        return ValueType::I32;
      case AstConst: case AstFConst: case AstParam: case AstLoad: case AstLoadV: case AstStore: case AstStoreV:
      case AstVaArg: case AstCall: case AstCond: case AstF80To:
        return literal_value_type(n.literals[0]);
      case AstSeq:
        return n.inputs.size() == 2 ? ast_result_type_of(n.inputs[1]) : std::nullopt;
      case AstExpect:
        return n.inputs.size() == 1 ? ast_result_type_of(n.inputs[0]) : std::nullopt;
      case AstOp: {
        std::optional<OpId> op = well_formed_ast_op(id);
        if (!op) return std::nullopt;  // check_ast_op reported it
        if (float_pred(*op) || eval_class(*op) == EvalClass::Compare) return ValueType::I32;
        if (eval_class(*op) == EvalClass::Convert || (is_float_op(*op) && n.literals.size() == 3))
          return literal_value_type(n.literals[2]);
        return literal_value_type(n.literals[1]);
      }
      default:
        return std::nullopt;
    }
  }

  // K at the ast level: floating values and integers meet only through
  // conversions, as at the cfg level, which ast2cfg's output must pass: an
  // ast:op's operands have its float type or are not floating; a store's, a
  // return's and a conditional's value agree with the type they give where
  // either is floating; conditions, addresses and callees are not floating.
  void check_ast_float_types(NodeId id) {
    if (!shape_ok_[id] || !is_table(id)) return;
    const Node& n = node(id);
    auto type_name = [](ValueType t) { return quoted(value_type_name(t)); };
    auto agree = [&](size_t i, std::optional<ValueType> want, const std::string& what) {
      if (i < n.inputs.size()) check_float_agreement(id, i, ast_result_type_of(n.inputs[i]), want, what);
    };
    auto integer = [&](size_t i, const std::string& what) {
      if (i >= n.inputs.size()) return;
      std::optional<ValueType> got = ast_result_type_of(n.inputs[i]);
      if (got && is_float(*got))
        out_.at_node(id, "input " + std::to_string(i) + " " + ref(n.inputs[i]) + " is a floating value (" +
                             type_name(*got) + "), but " + op_of(id) + " reads " + what);
    };
    switch (n.op) {
      case AstOp: {
        std::optional<OpId> op = well_formed_ast_op(id);
        if (!op) return;
        std::string what = "ast:op " + quoted(n.literals[0].as_string());
        if (is_float_op(*op)) {
          std::optional<ValueType> t0 = literal_value_type(n.literals[1]);
          for (size_t i = 0; i < n.inputs.size(); ++i) agree(i, t0, what + " takes");
        } else {
          for (size_t i = 0; i < n.inputs.size(); ++i) integer(i, "integers (" + what + ")");
        }
        return;
      }
      case AstStore: case AstStoreV:
        integer(0, "an address");
        return agree(1, literal_value_type(n.literals[0]), op_of(id) + " stores");
      case AstLoad: case AstLoadV: case AstBitLoad: case AstBitLoadV:
        return integer(0, "an address");
      case AstBitStore: case AstBitStoreV:
        integer(0, "an address");
        return integer(1, "an integer");
      case AstReturn:
        return agree(0, parse_value_type(fn_.signature.result), "the function returns");
      case AstIf: case AstWhile: case AstSwitch:
        return integer(0, "an integer condition (compare the value with fune first)");
      case AstDo: case AstFor:
        return integer(1, "an integer condition (compare the value with fune first)");
      case AstAnd: case AstOr:
        integer(0, "integer conditions");
        return integer(1, "integer conditions");
      case AstCond:
        integer(0, "an integer condition (compare the value with fune first)");
        agree(1, literal_value_type(n.literals[0]), op_of(id) + " gives");
        return agree(2, literal_value_type(n.literals[0]), op_of(id) + " gives");
      case AstCall:
        return integer(0, "a callee address");
      case AstFConst:
        if (literal_value_type(n.literals[0]) == ValueType::F32 && !f64_bits_fit_f32(n.literals[1].bits()))
          out_.at_node(id, "ast:fconst \"f32\" " + float_spelling(n.literals[1].bits()) +
                               " is not a single-precision value (round it to f32 first)");
        return;
      default:
        return;
    }
  }

  void check_return(NodeId id) {
    const Node& n = node(id);
    const std::string& result = fn_.signature.result;
    if (!shape_ok_[id] || (result != "void" && !is_value_type(result))) return;
    bool has_value = n.inputs.size() == 2;
    if (has_value && result == "void")
      out_.at_node(id, "return has a value, but the function returns void");
    else if (!has_value && result != "void")
      out_.at_node(id, "return has no value, but the function returns " + result);
  }

  void check_phi(NodeId id) {
    if (!has_good_control(id)) return;
    NodeId r = node(id).control[0];
    if (!is(r, Region)) {
      out_.at_node(id, "phi control " + ref(r) + " must be a region");
      bad_control_[id] = 1;
      return;
    }
    size_t inputs = node(id).inputs.size(), controls = node(r).control.size();
    if (inputs != controls)
      out_.at_node(id, "phi has " + plural(inputs, "input") + ", but its region " + node_name(r) + " has " +
                           plural(controls, "control input"));
  }

  void check_single_start() {
    NodeId first = kNone;
    for (NodeId id = 0; id < n_; ++id) {
      if (!is(id, Start)) continue;
      if (first == kNone)
        first = id;
      else
        out_.at_node(id, "second start node; the first is " + node_name(first));
    }
    if (first == kNone) out_.at_function("graph", "the function has no start node");
  }

  // ---- C: cfg levels ----
  void check_cfg_level() {
    if (!fn_.cfg) {
      out_.at_function("cfg", "level " + level_text() + " needs a cfg section");
      return;
    }
    if (level_needs_dominance(level_) && !fn_.dominance)
      out_.at_function("dominance", "level " + level_text() + " needs a dominance section");
    if (fn_.cfg->blocks.empty()) {
      out_.at_function("cfg", "the cfg has no blocks");
      return;
    }
    index_blocks();
    check_block_nodes();
    check_placement();
    find_terminators();
    build_edges();
    check_merges();
    check_pinned_controls();
    check_phi_order();
    DominatorTree dom = compute_dominators(succ_, pred_);
    check_reachability(dom);
    check_def_use(dom);
    if (fn_.dominance) check_dominance_section(dom);
  }

  const std::vector<Block>& blocks() const { return fn_.cfg->blocks; }
  uint32_t block_count() const { return static_cast<uint32_t>(blocks().size()); }

  // block_of_[id]: block holding the node (kNone if none); slot_[id]: 0 for
  // a block node, k + 1 for the k-th member of a block.
  void index_blocks() {
    block_of_.assign(n_, kNone);
    slot_.assign(n_, 0);
    for (uint32_t b = 0; b < block_count(); ++b) {
      block_of_[blocks()[b].node] = b;
      const std::vector<NodeId>& members = blocks()[b].nodes;
      for (uint32_t k = 0; k < members.size(); ++k) {
        block_of_[members[k]] = b;
        slot_[members[k]] = k + 1;
      }
    }
  }

  bool is_block_node(NodeId id) const { return block_of_[id] != kNone && slot_[id] == 0; }

  void check_block_nodes() {
    block_node_ok_.assign(block_count(), 1);
    for (uint32_t b = 0; b < block_count(); ++b) {
      NodeId id = blocks()[b].node;
      if (!is(id, Start) && !is(id, Region)) {
        if (is_table(id)) out_.at_block(b, "block node " + ref(id) + " is neither start nor region");
        block_node_ok_[b] = 0;
      }
    }
    if (is(blocks()[0].node, Region)) out_.at_block(0, "the entry block's node must be start, found a region");
    for (NodeId id = 0; id < n_; ++id) {
      if (!is(id, Start) && !is(id, Region)) continue;
      if (block_of_[id] == kNone)
        out_.at_node(id, op_of(id) + " is not the node of any block");
      else if (!is_block_node(id))
        out_.at_node(id, op_of(id) + " is listed among the nodes of " + block_name(block_of_[id]) +
                             "; it must be a block's node");
    }
  }

  void check_placement() {
    for (NodeId id = 0; id < n_; ++id)
      if (block_of_[id] == kNone && !is(id, Start) && !is(id, Region))
        out_.at_node(id, "node is not placed in any block");
  }

  void find_terminators() {
    terminator_.assign(block_count(), kNone);
    for (uint32_t b = 0; b < block_count(); ++b) {
      const std::vector<NodeId>& members = blocks()[b].nodes;
      for (size_t k = 0; k + 1 < members.size(); ++k)
        if (has(members[k], TERMINATOR))
          out_.at_node(members[k], "terminator is not the last node of " + block_name(b));
      if (members.empty() || !has(members.back(), TERMINATOR)) {
        if (members.empty() || is_table(members.back()))
          out_.at_block(b, "block does not end with a terminator (if, jump or return)");
        continue;
      }
      terminator_[b] = members.back();
      check_successor_count(b);
    }
  }

  void check_successor_count(uint32_t b) {
    NodeId t = terminator_[b];
    size_t expected = has(t, BRANCH) ? 2 : is(t, Jump) ? 1 : 0;
    size_t found = blocks()[b].successors.size();
    if (found != expected)
      out_.at_block(b, "block ends with " + ref(t) + " but has " + plural(found, "successor") + "; expected " +
                           std::to_string(expected));
  }

  void build_edges() {
    std::vector<std::pair<uint32_t, uint32_t>> forward, backward;
    for (uint32_t b = 0; b < block_count(); ++b)
      for (NodeId s : blocks()[b].successors) {
        forward.emplace_back(b, block_of_[s]);
        backward.emplace_back(block_of_[s], b);
      }
    succ_ = Adjacency(block_count(), forward);
    pred_ = Adjacency(block_count(), backward);
  }

  // A region's control inputs, as a multiset, are the terminators of the
  // predecessor edges into its block; the entry block has no predecessors.
  void check_merges() {
    merge_ok_.assign(block_count(), 0);
    for (uint32_t b = 0; b < block_count(); ++b) {
      if (!block_node_ok_[b]) continue;
      NodeId r = blocks()[b].node;
      if (is(r, Start)) {
        // A start outside block 0 is reported once, as a second start or as
        // block 0's missing start.
        if (b == 0 && pred_.degree(b) > 0)
          out_.at_block(b, "the entry block cannot have predecessors; found the edge " +
                               block_name(pred_.at(b, 0)) + " -> " + block_name(b));
        continue;
      }
      if (node(r).control.empty()) continue;  // reported as a control count
      bool preds_known = std::all_of(pred_.begin(b), pred_.end(b), [&](uint32_t p) { return terminator_[p] != kNone; });
      if (preds_known) merge_ok_[b] = compare_merge(b, r);
    }
  }

  bool compare_merge(uint32_t b, NodeId r) {
    std::vector<NodeId> expected, actual(node(r).control.begin(), node(r).control.end());
    for (const uint32_t* p = pred_.begin(b); p != pred_.end(b); ++p) expected.push_back(terminator_[*p]);
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    std::vector<NodeId> missing, extra;
    std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(), std::back_inserter(missing));
    std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(), std::back_inserter(extra));
    for (NodeId c : extra)
      out_.at_node(r, "control input " + ref(c) + " is not the terminator of a cfg edge into " + block_name(b));
    for (NodeId t : missing)
      out_.at_node(r, "no control input for the cfg edge " + block_name(block_of_[t]) + " -> " + block_name(b) +
                          " (terminator " + node_name(t) + ")");
    return missing.empty() && extra.empty();
  }

  void check_pinned_controls() {
    for (uint32_t b = 0; b < block_count(); ++b) {
      NodeId block_node = blocks()[b].node;
      for (NodeId id : blocks()[b].nodes) {
        if (!has(id, PINNED) || !has_good_control(id) || node(id).control[0] == block_node) continue;
        out_.at_node(id, "control is " + node_name(node(id).control[0]) + "; expected " + node_name(block_node) +
                             ", the node of its block " + block_name(b));
        bad_control_[id] = 1;
      }
    }
  }

  void check_phi_order() {
    for (uint32_t b = 0; b < block_count(); ++b) {
      NodeId first_other = kNone;
      for (NodeId id : blocks()[b].nodes) {
        if (!has(id, PHI))
          first_other = first_other == kNone ? id : first_other;
        else if (first_other != kNone)
          out_.at_node(id, "phi comes after " + ref(first_other) + " in " + block_name(b) +
                               "; phis must open their block");
      }
    }
  }

  void check_reachability(const DominatorTree& dom) {
    for (uint32_t b = 0; b < block_count(); ++b)
      if (!dom.reachable[b]) out_.at_block(b, "block is unreachable from b0");
  }

  // Is there a dominance question to ask about a use of `def`? Not when it
  // is unplaced, unreachable, or of a kind B already rejected as an input.
  bool checkable_def(const DominatorTree& dom, NodeId def) const {
    Kind k = kind_[def];
    bool readable = k == Kind::Value || k == Kind::Memory || k == Kind::Flags || k == Kind::Unknown || k == Kind::Bad;
    return readable && block_of_[def] != kNone && dom.reachable[block_of_[def]] && !is_block_node(def);
  }

  void check_def_use(const DominatorTree& dom) {
    for (uint32_t b = 0; b < block_count(); ++b) {
      if (!dom.reachable[b]) continue;
      for (NodeId id : blocks()[b].nodes) {
        if (!is_table(id)) continue;
        if (has(id, PHI))
          check_phi_inputs_dominate(dom, id, b);
        else
          check_inputs_dominate(dom, id, b);
      }
    }
  }

  void check_inputs_dominate(const DominatorTree& dom, NodeId id, uint32_t b) {
    const Node& n = node(id);
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      NodeId def = n.inputs[i];
      if (!checkable_def(dom, def)) continue;
      uint32_t db = block_of_[def];
      auto what = [&] { return "input " + std::to_string(i) + " " + ref(def); };  // only on an error: hot loop
      if (db == b && slot_[def] >= slot_[id])
        out_.at_node(id, what() + " is used before its definition in " + block_name(b));
      else if (db != b && !dom.dominates(db, b))
        out_.at_node(id, what() + " is defined in " + block_name(db) + ", which does not dominate " + block_name(b));
    }
  }

  // Phi input i is read at the end of the predecessor whose terminator is
  // the region's control input i.
  void check_phi_inputs_dominate(const DominatorTree& dom, NodeId id, uint32_t b) {
    if (bad_control_[id] || !merge_ok_[b]) return;
    const Node& n = node(id);
    const Node& region = node(blocks()[b].node);
    for (size_t i = 0; i < n.inputs.size() && i < region.control.size(); ++i) {
      NodeId def = n.inputs[i];
      if (!checkable_def(dom, def)) continue;
      uint32_t pred = block_of_[region.control[i]];
      uint32_t db = block_of_[def];
      if (!dom.reachable[pred] || dom.dominates(db, pred)) continue;
      out_.at_node(id, "input " + std::to_string(i) + " " + ref(def) + " is defined in " + block_name(db) +
                           ", which does not dominate its predecessor " + block_name(pred));
    }
  }

  // ---- C: the dominance section against the recomputed one ----
  void check_dominance_section(const DominatorTree& dom) {
    std::vector<std::vector<uint32_t>> frontier = dominance_frontiers(dom, pred_);
    const std::vector<DomBlock>& given = fn_.dominance->blocks;
    for (uint32_t b = 0; b < block_count(); ++b) {
      if (!dom.reachable[b]) continue;
      check_dominance_parent(b, given[b].parent, dom.idom[b]);
      check_dominance_frontier(b, given[b].frontier, frontier[b]);
    }
  }

  std::string block_of_node_text(std::optional<NodeId> id) const {
    return id ? block_name(block_of_[*id]) : std::string("null");
  }

  void check_dominance_parent(uint32_t b, std::optional<NodeId> given, uint32_t idom) {
    std::optional<NodeId> expected;
    if (idom != kNone) expected = blocks()[idom].node;
    if (given != expected)
      out_.at_block(b, "dominance parent is " + block_of_node_text(given) + ", expected " +
                           block_of_node_text(expected) + " (the immediate dominator)");
  }

  void check_dominance_frontier(uint32_t b, const std::vector<NodeId>& given_nodes,
                                const std::vector<uint32_t>& expected) {
    std::vector<uint32_t> given;
    for (NodeId id : given_nodes) given.push_back(block_of_[id]);
    std::sort(given.begin(), given.end());
    given.erase(std::unique(given.begin(), given.end()), given.end());
    if (given != expected)
      out_.at_block(b, "dominance frontier is " + block_list_text(given) + ", expected " + block_list_text(expected));
  }

  static std::string block_list_text(const std::vector<uint32_t>& list) {
    constexpr size_t kShown = 16;
    if (list.empty()) return "empty";
    std::string s = "{";
    for (size_t i = 0; i < list.size() && i < kShown; ++i) s += (i ? ", " : "") + block_name(list[i]);
    if (list.size() > kShown) s += ", ... (" + std::to_string(list.size()) + " blocks)";
    return s + "}";
  }

  // ---- D: sea-of-nodes levels (and ast: no sections) ----
  void check_graph_level() {
    if (fn_.cfg) out_.at_function("cfg", "level " + level_text() + " has no cfg section");
    if (fn_.dominance) out_.at_function("dominance", "level " + level_text() + " has no dominance section");
    if (level_ != Level::Son && level_ != Level::SonX64) return;
    for (NodeId id = 0; id < n_; ++id) {
      check_block_like_control(id);
      if (is(id, Region)) check_region_edges(id);
    }
    check_acyclic();
  }

  void check_block_like_control(NodeId id) {
    if (!has(id, PINNED) || !has_good_control(id)) return;
    NodeId c = node(id).control[0];
    if (kind_[c] != Kind::Control || is(c, Start) || is(c, Region) || is_if_proj(c)) return;
    out_.at_node(id, "control " + ref(c) + " does not start a block; expected start, a region or a proj of an if");
  }

  void check_region_edges(NodeId id) {
    for (NodeId c : node(id).control)
      if (kind_[c] == Kind::Control && !is(c, Jump) && !is_if_proj(c))
        out_.at_node(id, "control input " + ref(c) + " is not a control edge; expected a jump or a proj of an if");
  }

  // Edges of the acyclicity check: a node's inputs (not for phis) and its
  // control inputs (not for regions).
  uint32_t cycle_degree(NodeId id) const {
    const Node& n = node(id);
    return static_cast<uint32_t>((has(id, PHI) ? 0 : n.inputs.size()) + (is(id, Region) ? 0 : n.control.size()));
  }
  NodeId cycle_edge(NodeId id, uint32_t i) const {
    const Node& n = node(id);
    size_t inputs = has(id, PHI) ? 0 : n.inputs.size();
    return i < inputs ? n.inputs[i] : n.control[i - inputs];
  }

  // Tarjan's strongly connected components, iterative. Most graphs number
  // definitions before uses (the stages renumber canonically), and then the
  // edges cannot close a cycle: one scan decides it (renumber.h).
  void check_acyclic() {
    if (defs_precede_uses(fn_)) return;
    std::vector<uint32_t> index(n_, kNone), low(n_, 0);
    std::vector<uint8_t> on_stack(n_, 0);
    std::vector<NodeId> scc_stack;
    std::vector<std::pair<NodeId, uint32_t>> frames;  // (node, next edge)
    uint32_t clock = 0;
    for (NodeId root = 0; root < n_; ++root) {
      if (index[root] != kNone) continue;
      auto visit = [&](NodeId v) {
        index[v] = low[v] = clock++;
        scc_stack.push_back(v);
        on_stack[v] = 1;
        frames.emplace_back(v, 0);
      };
      visit(root);
      while (!frames.empty()) {
        auto [v, next] = frames.back();
        if (next < cycle_degree(v)) {
          ++frames.back().second;
          NodeId w = cycle_edge(v, next);
          if (index[w] == kNone)
            visit(w);
          else if (on_stack[w])
            low[v] = std::min(low[v], index[w]);
          continue;
        }
        frames.pop_back();
        if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[v]);
        if (low[v] == index[v]) pop_component(v, scc_stack, on_stack);
      }
    }
  }

  void pop_component(NodeId v, std::vector<NodeId>& scc_stack, std::vector<uint8_t>& on_stack) {
    if (scc_stack.back() == v) {  // a component of one node, the usual case: no allocation
      scc_stack.pop_back();
      on_stack[v] = 0;
      if (!uses_itself(v)) return;
      std::vector<NodeId> self{v};
      report_cycle(self);
      return;
    }
    std::vector<NodeId> members;
    NodeId w;
    do {
      w = scc_stack.back();
      scc_stack.pop_back();
      on_stack[w] = 0;
      members.push_back(w);
    } while (w != v);
    if (members.size() == 1 && !uses_itself(v)) return;
    report_cycle(members);
  }

  bool uses_itself(NodeId id) const {
    for (uint32_t i = 0; i < cycle_degree(id); ++i)
      if (cycle_edge(id, i) == id) return true;
    return false;
  }

  // Reports the lowest node of a cyclic component with one concrete cycle
  // through it, found by BFS inside the component.
  void report_cycle(std::vector<NodeId>& members) {
    std::sort(members.begin(), members.end());
    NodeId start = members.front();
    auto member = [&](NodeId x) { return std::binary_search(members.begin(), members.end(), x); };
    std::vector<NodeId> parent(members.size(), kNone);
    auto slot = [&](NodeId x) {
      return static_cast<size_t>(std::lower_bound(members.begin(), members.end(), x) - members.begin());
    };
    std::vector<NodeId> queue{start};
    NodeId last = kNone;  // node with an edge back to start
    for (size_t head = 0; head < queue.size() && last == kNone; ++head) {
      NodeId v = queue[head];
      for (uint32_t i = 0; i < cycle_degree(v); ++i) {
        NodeId w = cycle_edge(v, i);
        if (w == start) {
          last = v;
          break;
        }
        if (!member(w) || parent[slot(w)] != kNone) continue;
        parent[slot(w)] = v;
        queue.push_back(w);
      }
    }
    std::vector<NodeId> path;
    if (last == kNone) {  // cannot happen in a cyclic component; stay safe
      out_.at_node(start, "node is on a cycle that passes through no phi or region");
      return;
    }
    for (NodeId x = last; x != start; x = parent[slot(x)]) path.push_back(x);
    std::reverse(path.begin(), path.end());
    out_.at_node(start, "node is on a cycle that passes through no phi or region: " + cycle_text(start, path));
  }

  static std::string cycle_text(NodeId start, const std::vector<NodeId>& path) {
    constexpr size_t kShown = 8;
    std::string s = node_name(start);
    for (size_t i = 0; i < path.size() && i < kShown; ++i) s += " -> " + node_name(path[i]);
    if (path.size() > kShown) s += " -> ...";
    return s + " -> " + node_name(start);
  }

  const Function& fn_;
  Level level_;
  Collector& out_;
  NodeId n_;
  std::vector<OpId> op_;              // node opcodes and their table flags, packed:
  std::vector<uint32_t> flags_;       // most passes look at nothing else
  std::vector<uint8_t> shape_ok_;     // literal, input and control counts and literal kinds are right
  std::vector<Kind> kind_;            // what each node produces
  std::vector<uint8_t> bad_control_;  // a control problem was reported (or cannot be judged)
  std::vector<uint32_t> first_param_;  // signature index -> first param node
  // cfg levels
  std::vector<uint32_t> block_of_;
  std::vector<uint32_t> slot_;
  std::vector<uint8_t> block_node_ok_;  // block node is start or region
  std::vector<NodeId> terminator_;      // per block, kNone if it does not end in one
  std::vector<uint8_t> merge_ok_;       // region controls match the cfg edges
  Adjacency succ_, pred_;
};

// ---- header ----------------------------------------------------------------

std::string data_entity(const DataItem& d) { return "data " + quoted(d.name); }
std::string extern_entity(const Extern& e) { return "extern " + quoted(e.name); }

void header_error(std::vector<Diagnostic>& out, std::string entity, std::string message) {
  out.push_back(Diagnostic{Where::in("", std::move(entity)), std::move(message), {}});
}

void check_relocs(const DataItem& d, std::vector<Diagnostic>& out) {
  for (size_t i = 0; i < d.relocs.size(); ++i) {
    const Reloc& r = d.relocs[i];
    std::string at = "relocation at offset " + std::to_string(r.offset);
    if (r.offset > d.size || d.size - r.offset < 8)
      header_error(out, data_entity(d),
                   at + " does not fit: 8 bytes from there exceed the size " + std::to_string(d.size));
    if (r.symbol.empty()) header_error(out, data_entity(d), at + " has an empty symbol");
    if (i == 0) continue;
    uint64_t prev = d.relocs[i - 1].offset;
    if (r.offset < prev)
      header_error(out, data_entity(d),
                   at + " comes after offset " + std::to_string(prev) + "; relocations must be sorted");
    else if (r.offset - prev < 8)
      header_error(out, data_entity(d), at + " overlaps the relocation at offset " + std::to_string(prev));
  }
}

void check_data_item(const DataItem& d, std::vector<Diagnostic>& out) {
  if (d.align == 0 || (d.align & (d.align - 1)) != 0)
    header_error(out, data_entity(d), "alignment " + std::to_string(d.align) + " is not a power of two");
  if (d.init.size() > d.size)
    header_error(out, data_entity(d), "initializer has " + plural(d.init.size(), "byte") + ", more than the size " +
                                          std::to_string(d.size));
  check_relocs(d, out);
  if (d.attrs.common && (d.readonly || !d.init.empty() || !d.relocs.empty()))
    header_error(out, data_entity(d), "a common data item is writable zeros (not readonly, no init, no relocs)");
  for (std::string& problem : attrs_problems(d.attrs, d.linkage, SymbolKind::Data))
    header_error(out, data_entity(d), std::move(problem));
}

bool valid_section_name(const std::string& s) {
  if (s.empty() || s.size() > 255) return false;
  for (char c : s)
    if (c <= ' ' || c > '~' || c == '"' || c == '\\') return false;
  return true;
}

}  // namespace

std::vector<std::string> attrs_problems(const SymbolAttrs& a, Linkage linkage, SymbolKind kind) {
  std::vector<std::string> out;
  const bool external = linkage == Linkage::External;
  const bool is_extern = kind == SymbolKind::FunctionExtern || kind == SymbolKind::DataExtern;
  const bool alias = !a.alias.empty();
  if (a.weak && !external) out.push_back("a weak symbol needs external linkage");
  if (a.visibility != Visibility::Default && !external)
    out.push_back("visibility '" + std::string(visibility_name(a.visibility)) + "' needs external linkage");
  if (!a.section.empty() && !valid_section_name(a.section))
    out.push_back("section name " + quoted(a.section) +
                  " must be 1 to 255 printable ASCII characters without blanks, quotes or backslashes");
  if (alias && !is_extern) out.push_back("only an extern can be an alias");
  if (is_extern && !a.section.empty()) out.push_back("an extern has no section (its definition has)");
  if (is_extern && a.used) out.push_back("an extern cannot be 'used' (its definition can)");
  bool function = kind == SymbolKind::Function;
  if (a.constructor != SymbolAttrs::kNone && !function) out.push_back("only a function can be a constructor");
  if (a.destructor != SymbolAttrs::kNone && !function) out.push_back("only a function can be a destructor");
  if (a.hints && kind != SymbolKind::Function && kind != SymbolKind::FunctionExtern)
    out.push_back("function hints on a data symbol");
  if (a.tls && kind != SymbolKind::Data && kind != SymbolKind::DataExtern)
    out.push_back("only a data item or data extern can be thread-local (tls)");
  if (a.tls && a.common) out.push_back("a thread-local (tls) symbol cannot be common");
  if (a.tls_model != TlsModel::Auto && !a.tls)
    out.push_back("tls_model '" + std::string(tls_model_name(a.tls_model)) + "' on a symbol that is not tls");
  if (a.common) {
    if (kind != SymbolKind::Data) out.push_back("only a data item can be common");
    else if (!external) out.push_back("a common symbol needs external linkage");
    else if (a.weak || !a.section.empty()) out.push_back("a common symbol is neither weak nor in a section");
  }
  return out;
}

namespace {

void check_extern(const Extern& e, std::vector<Diagnostic>& out) {
  for (std::string& problem :
       attrs_problems(e.attrs, Linkage::External,
                      e.kind == ExternKind::Function ? SymbolKind::FunctionExtern : SymbolKind::DataExtern))
    header_error(out, extern_entity(e), std::move(problem));
  if (!e.signature) return;
  if (e.kind == ExternKind::Data)
    header_error(out, extern_entity(e), "a data extern has no signature");
  else
    for (std::string& problem : signature_problems(*e.signature))
      header_error(out, extern_entity(e), std::move(problem));
}

void check_header_names(const ModuleHeader& header, std::vector<Diagnostic>& out) {
  std::unordered_map<std::string, std::string> owner;  // name -> "data item" / "extern"
  auto claim = [&](const std::string& name, const std::string& entity, const char* what) {
    if (name.empty()) {
      header_error(out, entity, std::string("a ") + what + " needs a name");
      return;
    }
    auto [it, fresh] = owner.emplace(name, what);
    if (!fresh) header_error(out, entity, "name " + quoted(name) + " is already used by a " + it->second);
  };
  for (const DataItem& d : header.data) claim(d.name, data_entity(d), "data item");
  for (const Extern& e : header.externs) claim(e.name, extern_entity(e), "extern");
}

}  // namespace

std::optional<std::string> node_shape_problem(const Node& n) {
  if (n.op >= kNumOps) return std::string("a foreign opcode");
  const OpInfo& info = op_info(n.op);
  if (!shape_accepts(info.literals, n.literals.size()))
    return "'" + std::string(info.name) + "' takes " + shape_count_text(info.literals) + " literal(s), found " +
           std::to_string(n.literals.size());
  if (!shape_accepts(info.inputs, n.inputs.size()))
    return "'" + std::string(info.name) + "' takes " + shape_count_text(info.inputs) + " input(s), found " +
           std::to_string(n.inputs.size());
  for (size_t i = 0; i < n.literals.size(); ++i)
    if (auto problem = literal_problem(shape_letter(info.literals, i), n.literals[i]))
      return "literal " + std::to_string(i) + " must be " + std::string(*problem) + ", found " + n.literals[i].to_json();
  return std::nullopt;
}

void verify_function(const ModuleHeader&, const Function& fn, Level level, std::vector<Diagnostic>& out) {
  Collector collector(fn);
  FunctionVerifier(fn, level, collector).run();
  const size_t before = out.size();
  collector.append_sorted(out);
  // H: the allocation, on an ra-x64 function that keeps every other rule.
  if (level == Level::RaX64 && out.size() == before) check_allocation(fn, out);
}

// M: a variable's slot is the node that addresses its memory at the level:
// an ast:var, a stackslot, an x64:stackslot; a variable's value (son-x64,
// cfg-x64, ra-x64 only) is a node that makes one value. (The reader already
// checked that they are nodes, and the type and scope indexes.)
void check_debug_slots(const Function& fn, Level level, std::vector<Diagnostic>& out) {
  OpId want = level == Level::Ast ? OpId{AstVar}
              : (level == Level::SonX64 || level == Level::CfgX64 || level == Level::RaX64) ? OpId{X64StackSlot}
                                                                                              : OpId{StackSlot};
  bool x64_level = level == Level::SonX64 || level == Level::CfgX64 || level == Level::RaX64;
  for (const DebugVar& v : fn.debug.vars) {
    if (v.value != kNoSlot && v.value < fn.nodes.size()) {
      const Node& nd = fn.nodes[v.value];
      if (!x64_level || nd.op >= kNumOps || op_info(nd.op).results != std::string_view("v"))
        out.push_back({Where::in(fn.name, node_name(v.value)),
                       "variable " + quoted(v.name) + " of the debug section has this node for its value, but " +
                           (x64_level ? "it makes no value" : "values are bound only from son-x64 on"),
                       {}});
    }
    if (v.ssa_slot != kDebugNone && level != Level::Cfg)
      out.push_back({Where::in(fn.name, "debug"),
                     "variable " + quoted(v.name) + " of the debug section names an ssa: slot, which exists only at cfg",
                     {}});
    if (v.slot == kNoSlot || v.slot >= fn.nodes.size() || fn.nodes[v.slot].op == want) continue;
    out.push_back({Where::in(fn.name, node_name(v.slot)),
                   "variable " + quoted(v.name) + " of the debug section lives in this node, which is not an " +
                       std::string(op_info(want).name),
                   {}});
  }
  const bool binds_level = level != Level::Ast && level != Level::Cfg;
  const bool sea = level == Level::Son || level == Level::SonX64;
  auto position_ok = [&](NodeId p) {
    const Node& nd = fn.nodes[p];
    if (nd.op == Start || nd.op == Region) return true;
    if (sea && nd.op == Proj && !nd.inputs.empty() && nd.inputs[0] < fn.nodes.size() && !nd.literals.empty() &&
        nd.literals[0].is_int() && fn.nodes[nd.inputs[0]].op < kNumOps) {  // a branch's side (if, x64:jcc)
      const std::string_view results = op_info(fn.nodes[nd.inputs[0]].op).results;
      const int64_t k = nd.literals[0].as_int();
      if (k >= 0 && static_cast<size_t>(k) < results.size() && results.size() > 1 && results[k] == 'c') return true;
    }
    return makes_memory(fn, p);
  };
  for (const DebugBind& b : fn.debug.binds) {
    if (binds_level && b.pos != kNoSlot && b.pos < fn.nodes.size() && b.var < fn.debug.vars.size() && !position_ok(b.pos))
      out.push_back({Where::in(fn.name, node_name(b.pos)),
                     "variable " + quoted(fn.debug.vars[b.var].name) + " of the debug section is bound at this node, but " +
                         (sea ? "it is no control point" : "it is no block node") + " and makes no memory state",
                     {}});
    if (b.value == kNoSlot || b.value >= fn.nodes.size() || b.var >= fn.debug.vars.size()) continue;
    const Node& nd = fn.nodes[b.value];
    if (binds_level && nd.op < kNumOps &&
        (op_info(nd.op).results == std::string_view("v") || op_info(nd.op).results == std::string_view("x")))
      continue;
    out.push_back({Where::in(fn.name, node_name(b.value)),
                   "variable " + quoted(fn.debug.vars[b.var].name) + " of the debug section is bound to this node, but " +
                       (binds_level ? "it makes no value" : "bindings exist only from ssa on"),
                   {}});
  }
}

void verify_header(const ModuleHeader& header, std::vector<Diagnostic>& out) {
  check_header_names(header, out);
  for (const DataItem& d : header.data) check_data_item(d, out);
  for (const Extern& e : header.externs) check_extern(e, out);
}

ModuleVerifier::ModuleVerifier(const ModuleHeader& header) : header_(header) {
  verify_header(header, header_diags_);
  for (const DataItem& d : header.data) header_symbols_.insert(d.name);
  for (const Extern& e : header.externs) header_symbols_.insert(e.name);
  for (const DataItem& d : header.data)
    if (d.attrs.tls) tls_symbols_.insert(d.name);
  for (const Extern& e : header.externs)
    if (e.attrs.tls) tls_symbols_.insert(e.name);
  for (const DataItem& d : header.data)
    for (const Reloc& r : d.relocs) {
      if (!r.symbol.empty() && !header_symbols_.count(r.symbol))
        reloc_references_.emplace(r.symbol, Where::in("", data_entity(d)));
      if (tls_symbols_.count(r.symbol))
        header_diags_.push_back({Where::in("", data_entity(d)),
                                 "relocation at offset " + std::to_string(r.offset) + " names thread-local " +
                                     quoted(r.symbol) + ": its address is per thread, not a link-time constant",
                                 {}});
    }
}

namespace {
bool names_tls_address(OpId op) {
  return op == TlsAddr || op == AstTlsAddr || op == X64TlsLe || op == X64TlsIe || op == X64TlsGd;
}
}  // namespace

std::vector<Diagnostic> ModuleVerifier::function(const Function& fn) {
  std::vector<Diagnostic> diags;
  if (!function_names_.insert(fn.name).second)
    diags.push_back({Where::in(fn.name, "name"), "a function named " + quoted(fn.name) + " came earlier", {}});
  else if (header_symbols_.count(fn.name))
    diags.push_back(
        {Where::in(fn.name, "name"), "name " + quoted(fn.name) + " is already used by a data item or extern", {}});
  for (std::string& problem : attrs_problems(fn.attrs, fn.linkage, SymbolKind::Function))
    diags.push_back({Where::in(fn.name, "attrs"), std::move(problem), {}});
  verify_function(header_, fn, header_.level, diags);
  check_debug_slots(fn, header_.level, diags);
  // Every literal of shape y names a symbol (symaddr, ast:symaddr, the x64
  // calls, loadgot and RIP-relative addresses).
  for (NodeId id = 0; id < fn.nodes.size(); ++id) {
    const Node& n = fn.nodes[id];
    if (n.op >= kNumOps) continue;
    std::string_view shape = op_info(n.op).literals;
    for (size_t i = 0; i < n.literals.size(); ++i) {
      if (shape_letter(shape, i) != 'y' || n.literals[i].kind() != Literal::Kind::String) continue;
      const std::string symbol(n.literals[i].as_string());
      // S: the thread-local opcodes name thread-local data, the rest never do.
      const bool tls = tls_symbols_.count(symbol) != 0;
      if (names_tls_address(n.op) && !tls)
        diags.push_back({Where::in(fn.name, node_name(id)),
                         "'" + std::string(op_info(n.op).name) + "' names " + quoted(symbol) +
                             ", which is not a thread-local (tls) data item or data extern",
                         print_node_line(fn, id)});
      else if (!names_tls_address(n.op) && tls)
        diags.push_back({Where::in(fn.name, node_name(id)),
                         "'" + std::string(op_info(n.op).name) + "' names thread-local " + quoted(symbol) +
                             ": its address is per thread (use tlsaddr)",
                         print_node_line(fn, id)});
      if (symbol.empty() || header_symbols_.count(symbol) || function_names_.count(symbol)) continue;
      references_.emplace(symbol, Where::in(fn.name, node_name(id)));
    }
  }
  return diags;
}

// ---- Module pieces ----
std::vector<Diagnostic> ModuleVerifier::piece(const ModulePiece& p) {
  std::vector<Diagnostic> diags;
  ++pieces_;
  const std::string in_piece = " (module piece " + std::to_string(pieces_) + ")";
  std::unordered_map<std::string, const char*> owner;
  auto claim = [&](const std::string& name, const std::string& entity, const char* what) {
    if (name.empty()) {
      header_error(diags, entity + in_piece, std::string("a ") + what + " needs a name");
      return;
    }
    auto [it, fresh] = owner.emplace(name, what);
    if (!fresh)
      header_error(diags, entity + in_piece, "name " + quoted(name) + " is already used by a " + it->second);
    else if (header_symbols_.count(name))
      header_error(diags, entity + in_piece, "name " + quoted(name) + " is already used by an earlier data item or extern");
    else if (function_names_.count(name))
      header_error(diags, entity + in_piece, "name " + quoted(name) + " is already used by an earlier function");
  };
  for (const DataItem& d : p.data) claim(d.name, data_entity(d), "data item");
  for (const Extern& e : p.externs) claim(e.name, extern_entity(e), "extern");
  for (const DataItem& d : p.data) check_data_item(d, diags);
  for (const Extern& e : p.externs) check_extern(e, diags);
  for (const DataItem& d : p.data) {
    header_symbols_.insert(d.name);
    if (d.attrs.tls) tls_symbols_.insert(d.name);
  }
  for (const Extern& e : p.externs) {
    header_symbols_.insert(e.name);
    if (e.attrs.tls) tls_symbols_.insert(e.name);
  }
  for (const DataItem& d : p.data)
    for (const Reloc& r : d.relocs) {
      if (r.symbol.empty()) continue;
      if (!header_symbols_.count(r.symbol) && !function_names_.count(r.symbol))
        reloc_references_.emplace(r.symbol, Where::in("", data_entity(d) + in_piece));
      else if (tls_symbols_.count(r.symbol))
        diags.push_back({Where::in("", data_entity(d) + in_piece),
                         "relocation at offset " + std::to_string(r.offset) + " names thread-local " +
                             quoted(r.symbol) + ": its address is per thread, not a link-time constant",
                         {}});
    }
  return diags;
}

std::vector<Diagnostic> ModuleVerifier::end() {
  std::vector<std::pair<std::string, Where>> unresolved;
  std::vector<std::pair<std::string, Where>> late;  // declared by a piece after a function named it
  for (const auto& [symbol, where] : references_)
    if (!function_names_.count(symbol)) (header_symbols_.count(symbol) ? late : unresolved).emplace_back(symbol, where);
  for (const auto& [symbol, where] : reloc_references_)
    if (!function_names_.count(symbol) && !header_symbols_.count(symbol)) unresolved.emplace_back(symbol, where);
  auto by_name = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::sort(unresolved.begin(), unresolved.end(), by_name);
  std::sort(late.begin(), late.end(), by_name);
  std::vector<Diagnostic> diags;
  for (auto& [symbol, where] : unresolved)
    diags.push_back({std::move(where), "symbol " + quoted(symbol) + " names no function, data item or extern", {}});
  for (auto& [symbol, where] : late)
    diags.push_back({std::move(where),
                     "symbol " + quoted(symbol) +
                         " is declared by a module piece after this function (a data item or extern comes in the "
                         "header or a piece before the functions that name it)",
                     {}});
  for (const auto& [symbol, where] : reloc_references_)
    if (tls_symbols_.count(symbol))
      diags.push_back({where, "a relocation names thread-local " + quoted(symbol) +
                                  ": its address is per thread, not a link-time constant", {}});
  // An alias is another name of a definition of the module, of its kind.
  std::unordered_set<std::string> data_names;
  for (const DataItem& d : header_.data) data_names.insert(d.name);
  for (const Extern& e : header_.externs) {
    if (e.attrs.alias.empty()) continue;
    bool function = e.kind == ExternKind::Function;
    bool found = function ? function_names_.count(e.attrs.alias) != 0 : data_names.count(e.attrs.alias) != 0;
    if (!found)
      diags.push_back({Where::in("", extern_entity(e)),
                       "alias target " + quoted(e.attrs.alias) + " is not a " +
                           (function ? "function" : "data item") + " defined in the module",
                       {}});
  }
  return diags;
}

}  // namespace pl
