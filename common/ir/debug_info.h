// debug_info.h - the debug section of a module and of a function
// (schema/FORMAT.md section 1, "Debug information").
//
// What a debugger needs beyond line numbers: the C types, the variables of
// each function with their scope and their storage, the compile unit's
// producer, directory and language. c2ast writes it (-g), every stage
// carries it, codegen-x64 turns it into DWARF (.debug_info).
//
// The module header holds what functions share: the type table (types refer
// to each other by index, so a type is written once) and the global
// variables. Each function holds its own: its C function type, its lexical
// blocks (source ranges; the code generator maps them to address ranges
// through the nodes' locations) and its variables. A variable's storage is a
// node of the function, the `slot`: an `ast:var`, `stackslot` or
// `x64:stackslot` whose memory holds the variable (at -O0 every variable has
// one), or a data symbol (a static local); without either it is "optimized
// out". Every stage that renumbers nodes maps the slots with the nodes, and a
// stage that deletes a slot node, or may leave its memory out of date (an
// optimizer removing stores), drops the slot: a debugger then says
// "optimized out" instead of showing a wrong value.
//
// All three encodings carry the two sections as the same JSON object
// (debug_to_json / debug_from_json), so they stay lossless with each other.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/loc.h"

namespace pl {

struct Function;

inline constexpr int64_t kDebugNone = -1;  // "no type" (void) / "no scope" / "no param"

struct DebugMember {
  std::string name;             // "" for an anonymous struct or union member
  uint32_t type = 0;
  uint64_t offset = 0;          // bytes from the start of the aggregate
  uint32_t bit_size = 0;        // a bit-field: its width (0: not a bit-field)
  uint32_t bit_offset = 0;      // a bit-field: bits from the start of the aggregate
  bool operator==(const DebugMember&) const = default;
};

struct DebugEnumerator {
  std::string name;
  int64_t value = 0;
  bool operator==(const DebugEnumerator&) const = default;
};

enum class DebugTypeKind : uint8_t { Base, Pointer, Const, Volatile, Restrict, Typedef, Array, Struct, Union, Enum, Function };
std::string_view debug_type_kind_name(DebugTypeKind k);

// Base type encodings (DWARF's DW_ATE_*).
enum class DebugEncoding : uint8_t { Signed, Unsigned, SignedChar, UnsignedChar, Boolean, Float };
std::string_view debug_encoding_name(DebugEncoding e);

struct DebugType {
  DebugTypeKind kind = DebugTypeKind::Base;
  std::string name;                 // base, typedef, struct/union/enum tag ("" = none)
  uint64_t size = 0;                // base, struct, union, enum (bytes)
  DebugEncoding encoding = DebugEncoding::Signed;  // base
  int64_t type = kDebugNone;        // pointee, qualified, typedef'd, element, enum's underlying, function result
  int64_t count = kDebugNone;       // array: elements (-1: unknown, `int a[]`)
  bool declaration = false;         // struct/union/enum declared, not defined here
  std::vector<DebugMember> members;           // struct, union
  std::vector<DebugEnumerator> enumerators;   // enum
  std::vector<uint32_t> params;     // function: parameter types
  bool variadic = false;            // function
  bool prototyped = true;           // function: false for `int f()`
  bool operator==(const DebugType&) const = default;
};

struct DebugGlobal {
  std::string name;                 // the C name
  uint32_t type = 0;
  std::string symbol;               // the data item or extern that holds it
  Loc loc;                          // declaration
  bool external = true;
  bool operator==(const DebugGlobal&) const = default;
};

struct ModuleDebug {
  std::string producer;             // DW_AT_producer
  std::string comp_dir;             // DW_AT_comp_dir
  std::string language;             // C89, C99, C11, C17 (DW_AT_language); "" = C11
  std::vector<DebugType> types;
  std::vector<DebugGlobal> globals;
  bool empty() const { return *this == ModuleDebug{}; }
  bool operator==(const ModuleDebug&) const = default;
};

// A lexical block: the source range [begin, end] (file, line, column); its
// code is the code of the nodes whose location falls in the range and in no
// inner block's range.
struct DebugScope {
  int64_t parent = kDebugNone;      // enclosing scope index (-1: the function body)
  Loc begin, end;
  bool operator==(const DebugScope&) const = default;
};

inline constexpr NodeId kNoSlot = ~NodeId{0};

struct DebugVar {
  std::string name;
  uint32_t type = 0;
  int64_t scope = kDebugNone;       // -1: the function's outermost scope
  int64_t param = kDebugNone;       // parameter index, or -1 for a local
  Loc loc;                          // declaration
  NodeId slot = kNoSlot;            // the node whose memory holds it (kNoSlot: none)
  std::string symbol;               // or the data item that holds it (a static local)
  bool indirect = false;            // the slot holds the variable's address (a struct passed by value)
  // The variable keeps its first value for the whole call: a parameter the
  // function never assigns, increments or takes the address of (c2ast), in
  // a function no pass made run again for a new call (sonopt's tail-recurse
  // clears it).
  bool unchanged = false;
  // From son-x64 on, for an unchanged variable without a slot: the value
  // node that holds its value (son-lower-x64: the parameter's x64:argreg, or
  // what reads it); wherever that value, or a copy of it, is in a register
  // or spill slot, the variable is there (codegen-x64's location lists). A
  // node's value never changes, so optimizers keep it; a stage that deletes
  // the node drops it.
  NodeId value = kNoSlot;
  // At cfg level (ast2cfg, optimized code): the `ssa:` slot number that
  // holds the variable; cfg2ssa turns each store to that slot into a
  // binding (DebugBind) and clears it. -1: none.
  int64_t ssa_slot = kDebugNone;
  bool operator==(const DebugVar&) const = default;
};

// A debug value binding (LLVM's dbg.value): "from position `pos` on, C
// variable `var` has the value of node `value`", made where an assignment
// to a variable kept in a register becomes a value (cfg2ssa's renaming of
// an `ssa:` slot). It is no input of the node, so it never keeps a value
// alive or changes code.
//
// The position is the assignment's place in the control flow, which the
// value's own node does not give (a constant, a value GVN merged with an
// earlier one, a hoisted invariant is computed before the assignment): a
// block node (at the sea-of-nodes levels any control point: start, a
// region, an if's proj), meaning the start of the block after its phis, or
// the memory state in force at the assignment when an effect of the same
// block made it (a store, a call's memory proj...), meaning just after that
// effect. The binding takes effect there; until the code computes the
// value (it may come later, sunk toward its use) the variable has no
// location. Several bindings of one variable at one position take effect
// in list order (the last one wins).
//
// A stage that renumbers nodes maps value and position. Losing one:
//  - the value's node deleted, the position kept: a *kill* (`value`
//    kNoSlot): from the position on the variable is unknown until its next
//    binding (LLVM's dbg.value(undef));
//  - the position deleted (with or without the value): a *lost* binding
//    (both kNoSlot): the assignment may be anywhere, so the variable is
//    shown nowhere in the function;
//    (a lost binding is whole: pieces lost lose the variable);
//  - a droppable binding (a phi's, or a first assignment's, which no
//    definition of the variable dominates) is just removed instead: the
//    variable is unknown there anyway (the predecessors disagree, or some
//    path has no value).
struct DebugBind {
  uint32_t var = 0;                 // index into FunctionDebug::vars
  NodeId value = kNoSlot;           // the value node (kNoSlot: kill or lost)
  NodeId pos = kNoSlot;             // the position (kNoSlot: lost)
  bool droppable = false;           // a phi's, or a first assignment's
  // --- pieces (issue 20: struct fields scalar-replace splits) ---
  // A *piece* binding gives bytes [offset, offset + size) of the variable,
  // not all of it (DWARF's DW_OP_piece): sonopt's scalar-replace binds each
  // field of a struct or array it splits. size 0: the whole variable. A
  // variable's pieces are disjoint and inside its type; its bindings are
  // all whole or all pieces, and a lost binding is always whole (the
  // variable is shown nowhere). The pieces of one variable are tracked
  // apart (a kill of a piece leaves the others).
  uint32_t offset = 0;
  uint32_t size = 0;
  bool piece() const { return size != 0; }
  // --- end pieces ---
  bool lost() const { return pos == kNoSlot; }
  bool operator==(const DebugBind&) const = default;
};

struct FunctionDebug {
  int64_t type = kDebugNone;        // the function's C type (a Function type), -1: no debug info
  Loc loc;                          // declaration
  std::vector<DebugScope> scopes;   // parents before children
  std::vector<DebugVar> vars;
  std::vector<DebugBind> binds;     // in the order they were made
  bool empty() const { return *this == FunctionDebug{}; }
  bool operator==(const FunctionDebug&) const = default;
};

// The JSON object all three encodings carry (FORMAT.md "Debug
// information"): compact, keys in a fixed order, defaults left out.
std::string debug_to_json(const ModuleDebug& d);
std::string debug_to_json(const FunctionDebug& d);
// Parse the same; throw std::runtime_error with what is wrong (the caller
// adds the place).
ModuleDebug module_debug_from_json(std::string_view text);
FunctionDebug function_debug_from_json(std::string_view text);

// The structural rules: type references below the number of types and not
// cyclic through anything but pointers; scope parents precede; slots below
// the node count. Return the first problem, or "" when there is none.
std::string module_debug_problem(const ModuleDebug& d);
std::string function_debug_problem(const ModuleDebug& module, const Function& fn);

// Maps every slot, value and binding through `old_to_new`; a slot or
// value whose entry is `gone` (the node was deleted) is dropped; a binding
// whose value went becomes a kill, one whose position went becomes lost,
// and a droppable one that lost either is removed (DebugBind).
void remap_debug_slots(FunctionDebug& d, const std::vector<NodeId>& old_to_new, NodeId gone);
// Drops every slot (the variables stay, "optimized out"); values stay.
void drop_debug_slots(FunctionDebug& d);
// Makes every binding of the variables for which `lose(var index)` holds
// lost (one lost binding per variable): a pass that runs a bound value's
// code in a new copy or for a new call (tail-recurse, partial unrolling)
// cannot say which copy the variable has at a point.
void lose_debug_bindings(FunctionDebug& d, const std::function<bool(uint32_t)>& lose);
// Whether node `n` of `fn` makes a memory state: an opcode whose result is
// memory, or a proj of a tuple's memory element (a call's proj 0): the
// nodes a binding's position may name besides block nodes.
bool makes_memory(const Function& fn, NodeId n);
// --- pieces ---
// The bytes of a value of debug type `type` (through typedefs, qualifiers
// and arrays); 0 when not known (a function, a declaration, `int a[]`).
uint64_t debug_type_size(const ModuleDebug& module, int64_t type);
// --- end pieces ---
// Appends `b`.
void add_debug_binding(FunctionDebug& d, DebugBind b);

}  // namespace pl
