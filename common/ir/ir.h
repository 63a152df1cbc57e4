// ir.h - the in-memory form of the graph format (see schema/FORMAT.md).
//
// A Module is a ModuleHeader (level, source files, externs, data) followed by
// Functions. Each Function is one graph: `nodes` indexed by NodeId, plus the
// optional `cfg` and `dominance` sections. Everything refers to everything
// else by index, exactly as in the serialized encodings, so reading and
// writing never renumbers anything.
//
// Invariants every reader establishes before handing a Function out (the
// "structural" rules of FORMAT.md, checked by check_structure()):
//   - signature parameter types are value types, each optionally with an ABI
//     attribute in its canonical spelling (abi.h); the result is a value type
//     or "void";
//   - every NodeId (control, inputs, cfg, dominance) is < nodes.size();
//   - opcodes are table opcodes or indexes into Function::foreign_ops;
//   - a node appears at most once across all blocks (as block node or in a
//     block's `nodes` list), block nodes are distinct;
//   - dominance.blocks[i].node == cfg.blocks[i].node (same order as cfg).
// Everything else (level contracts) is the verifier's job (verify.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/debug_info.h"
#include "ir/literal.h"
#include "ir/loc.h"
#include "ir/opcodes.h"
#include "ir/small_vec.h"

namespace pl {


// Compilation levels, in pipeline order. FORMAT.md gives each one's contract.
enum class Level : uint8_t { Ast, Cfg, Ssa, Son, SonX64, CfgX64, RaX64 };
inline constexpr int kNumLevels = 7;

std::string_view level_name(Level level);
std::optional<Level> parse_level(std::string_view name);
// Levels whose functions carry a `cfg` section / a `dominance` section.
bool level_has_cfg(Level level);
bool level_needs_dominance(Level level);


// Where a value lives at the `ra-x64` level (FORMAT.md section 8, "The
// ra-x64 level"): nowhere (every node at the other levels, and nodes that
// produce no value or an address folded into its users), a machine register
// (0..31, common/x64/x64.h's numbering: rax..r15, xmm0..xmm15), or a spill slot
// of the frame (0..32767, each 8 bytes; the code generator lays them out).
// Two bytes, stored in the Node's padding: 0 none, 1 + r a register,
// 0x8000 | n a slot. The encodings carry the same two bytes (bits()).
class Place {
 public:
  static constexpr unsigned kNumRegs = 32;
  static constexpr unsigned kMaxSlot = 0x7FFF;
  constexpr Place() = default;
  static constexpr Place reg(unsigned r) { return Place(static_cast<uint16_t>(1 + r)); }
  static constexpr Place slot(unsigned n) { return Place(static_cast<uint16_t>(0x8000u | n)); }
  // The place whose bits() are `bits`, if they encode one.
  static constexpr std::optional<Place> from_bits(uint16_t bits) {
    if (bits > kNumRegs && bits < 0x8000u) return std::nullopt;
    return Place(bits);
  }
  constexpr bool none() const { return bits_ == 0; }
  constexpr bool is_reg() const { return bits_ != 0 && bits_ <= kNumRegs; }
  constexpr bool is_slot() const { return (bits_ & 0x8000u) != 0; }
  constexpr unsigned reg() const { return bits_ - 1u; }          // is_reg()
  constexpr unsigned slot() const { return bits_ & 0x7FFFu; }    // is_slot()
  constexpr uint16_t bits() const { return bits_; }
  bool operator==(const Place&) const = default;

 private:
  constexpr explicit Place(uint16_t bits) : bits_(bits) {}
  uint16_t bits_ = 0;
};

// Operand lists keep their usual sizes inline (small_vec.h): a pinned node
// has one control input, most nodes one or two literals and up to three
// inputs; longer lists (regions, phis, calls) spill to the heap. (The
// control list has room for two inline: the heap pointer's room.)
using ControlList = SmallVec<NodeId, 1>;
using LiteralList = SmallVec<Literal, 2>;
using InputList = SmallVec<NodeId, 3>;

// 72 bytes: reading and writing a function is mostly moving its node array
// through memory, so the node is kept small (12-byte literals, lists of a
// size word and an inline buffer that also holds the heap pointer). A node
// whose lists are inline and whose literal texts are short owns no memory.
// `place` sits in the two bytes after `op` that alignment leaves free.
struct Node {
  OpId op = 0;
  Place place;  // ra-x64 only: the value's register or spill slot
  ControlList control;
  LiteralList literals;
  InputList inputs;
  Loc loc;
  bool operator==(const Node&) const = default;
};
static_assert(sizeof(Node) == 72, "Node layout (see above)");

struct Block {
  NodeId node = 0;                  // the block's `start` or `region` node
  std::vector<NodeId> successors;   // block nodes of the successors, in order
  std::vector<NodeId> nodes;        // nodes placed in the block, in order
  bool operator==(const Block&) const = default;
};

struct Cfg {
  std::vector<Block> blocks;  // blocks[0] is the entry block
  bool operator==(const Cfg&) const = default;
};

struct DomBlock {
  NodeId node = 0;                 // same as cfg.blocks[i].node
  std::optional<NodeId> parent;    // block node of the immediate dominator
  std::vector<NodeId> frontier;    // block nodes, flat list (not nested)
  bool operator==(const DomBlock&) const = default;
};

struct Dominance {
  std::vector<DomBlock> blocks;  // parallel to cfg.blocks
  bool operator==(const Dominance&) const = default;
};

enum class Linkage : uint8_t { External, Internal };
std::string_view linkage_name(Linkage linkage);
std::optional<Linkage> parse_linkage(std::string_view name);

// Value types of the IR. Signatures and type literals use these names.
// `void` is valid only as a signature result.
bool is_value_type(std::string_view name);
// f32 or f64 (FORMAT.md 1: the floating types).
bool is_float_type(std::string_view name);

struct Signature {
  std::vector<std::string> params;  // value types, maybe with an ABI attribute (abi.h)
  std::string result = "void";      // value type name or "void"
  bool variadic = false;
  bool operator==(const Signature&) const = default;
};

// Symbol attributes (FORMAT.md section 1, "Symbol attributes"): what a
// function, data item or extern is to the linker and the loader beyond its
// linkage, and facts about a function the optimizers may use. The default
// value is "nothing special"; every encoding writes only what differs.
enum class Visibility : uint8_t { Default, Hidden, Protected, Internal };
std::string_view visibility_name(Visibility v);
std::optional<Visibility> parse_visibility(std::string_view name);

// A thread-local variable's access model as `__attribute__((tls_model))`
// asks for it (gcc's names); Auto = none asked: son-lower-x64 picks by the
// symbol's linkage and -fPIC (FORMAT.md section 1, "Symbol attributes").
enum class TlsModel : uint8_t { Auto, GlobalDynamic, LocalDynamic, InitialExec, LocalExec };
std::string_view tls_model_name(TlsModel m);
std::optional<TlsModel> parse_tls_model(std::string_view name);

// Function hints (bits of SymbolAttrs::hints), in the order of their names.
enum FunctionHint : uint16_t {
  kHintNoinline = 1 << 0,      // never inline calls to it
  kHintAlwaysInline = 1 << 1,  // inline every call that can be
  kHintPure = 1 << 2,          // reads memory, writes none: calls with equal memory are equal
  kHintConst = 1 << 3,         // reads no memory either
  kHintCold = 1 << 4,          // rarely called
  kHintMalloc = 1 << 5,        // the result aliases nothing else
  kHintNoreturn = 1 << 6,      // never returns
  // Not an optimizer's fact but a request to codegen-x64: guard the frame
  // with a stack protector canary (gcc's -fstack-protector family; c2ast
  // decides which functions by gcc's rules, stack_protect.cpp).
  kHintStackProtect = 1 << 7,
  // A request to the back end too: rsp is 64-byte aligned in the body (a
  // frame pointer, then `and $-64, %rsp`), so that an argument aligned to
  // more than 16 bytes lands at its alignment in the outgoing area, as the
  // System V ABI and gcc place it. son-lower-x64 sets it on a function that
  // passes such an argument on the stack.
  kHintStackRealign = 1 << 8,
  // The C library's meaning may not be assumed (-fno-builtin,
  // -ffreestanding, -fno-builtin-NAME; LLVM's no-builtins): on a function
  // definition, for every call it makes and every call a pass would add to
  // it; on a function extern, for calls to that function.
  kHintNobuiltin = 1 << 9,
  // Declared `inline` in C (gcc's DECL_DECLARED_INLINE_P): sonopt's inline
  // takes small ones at -O1, where gcc inlines no other small function.
  kHintInline = 1 << 10,
  // sonopt's inline-recursive copied the function into its own self calls
  // (a bounded number of levels, once: a second run must not copy the
  // copies again, so that -O2 stays idempotent).
  kHintRecursionInlined = 1 << 11,
};
inline constexpr int kNumHints = 12;
std::string_view hint_name(int bit);             // bit 0 .. kNumHints-1
std::optional<uint16_t> parse_hint(std::string_view name);  // the hint's bit mask

struct SymbolAttrs {
  static constexpr int32_t kNone = -1;
  static constexpr int32_t kDefaultPriority = 65535;  // `constructor` without a priority
  bool weak = false;                           // STB_WEAK: a weak definition, or a weak reference (externs)
  Visibility visibility = Visibility::Default; // st_other
  bool used = false;                           // kept even when nothing names it
  bool common = false;                         // data items: a common symbol (SHN_COMMON, -fcommon)
  bool tls = false;                            // data items and data externs: thread-local (STT_TLS)
  TlsModel tls_model = TlsModel::Auto;         // tls only: the access model asked for
  std::string section;                         // "" = the default section for its kind
  std::string alias;                           // externs only: defined as another name of this symbol
  int32_t constructor = kNone;                 // functions: run before main, priority 0..65535
  int32_t destructor = kNone;                  // functions: run after main (exit), priority 0..65535
  uint16_t hints = 0;                          // functions and function externs: FunctionHint bits
  bool has(FunctionHint h) const { return (hints & h) != 0; }
  bool is_default() const { return *this == SymbolAttrs{}; }
  bool operator==(const SymbolAttrs&) const = default;
};

struct Function {
  std::string name;
  Linkage linkage = Linkage::External;
  Signature signature;
  SymbolAttrs attrs;
  std::vector<Node> nodes;
  std::optional<Cfg> cfg;
  std::optional<Dominance> dominance;
  // Names of opcodes not in the table. A node whose op is kNumOps + k has
  // opcode name foreign_ops[k]. Readers accept them so that graphs written
  // for other opcode sets round-trip; the verifier rejects them. Every reader
  // yields them in canonical order (first use, in node id order, no unused
  // names), so equal graphs compare equal whatever encoding they came from.
  std::vector<std::string> foreign_ops;
  // Debug information (debug_info.h): scopes and variables; empty without -g.
  FunctionDebug debug;

  std::string_view op_name(OpId op) const;
  // Table opcode for `name`, or a foreign opcode interned into foreign_ops.
  OpId intern_op(std::string_view name);
  bool operator==(const Function&) const = default;
};

struct Reloc {
  uint64_t offset = 0;     // byte offset in the data item; 8 bytes patched
  std::string symbol;      // function, data item or extern
  int64_t addend = 0;
  bool operator==(const Reloc&) const = default;
};

struct DataItem {
  std::string name;
  Linkage linkage = Linkage::External;
  uint64_t size = 0;
  uint32_t align = 1;          // power of two
  bool readonly = false;
  std::string init;            // initial bytes; init.size() <= size, rest zero
  std::vector<Reloc> relocs;   // sorted by offset, non-overlapping
  SymbolAttrs attrs;
  bool operator==(const DataItem&) const = default;
};

enum class ExternKind : uint8_t { Function, Data };

struct Extern {
  std::string name;
  ExternKind kind = ExternKind::Function;
  std::optional<Signature> signature;  // functions only; absent = unknown
  SymbolAttrs attrs;                   // alias: defined here as another name of a symbol
  bool operator==(const Extern&) const = default;
};

struct ModuleHeader {
  Level level = Level::Son;
  std::vector<std::string> files;  // source file names, indexed by Loc::file
  std::vector<Extern> externs;
  std::vector<DataItem> data;
  ModuleDebug debug;               // types, globals, compile unit (debug_info.h); empty without -g
  // File-scope assembly (GNU C's top-level `asm("...")`), one text per
  // statement in source order, each exactly as written (FORMAT.md section
  // 1): codegen-x64 assembles them before the module's data and functions.
  std::vector<std::string> toplevel_asm;
  bool operator==(const ModuleHeader&) const = default;
};

struct Module {
  ModuleHeader header;
  std::vector<Function> functions;
  bool operator==(const Module&) const = default;
};

// What check_structure() still has to check about the nodes themselves.
enum class NodeChecks {
  Full,          // opcodes, references and location file indexes of every node
  AlreadyDone,   // the reader checked those while it built the nodes (from flat
                 // arrays, without a second pass over a node array that no
                 // longer fits in cache); only the sections remain
};

// The structural rules listed at the top of this file. Throws FormatError
// naming the function and the offending node or block.
void check_structure(const ModuleHeader& header, const Function& fn, NodeChecks nodes = NodeChecks::Full);

// The header's structural rules (those every encoding must agree on so a
// module read from one can be written in the others): extern signatures only
// on functions, and signature types that are valid (parameter types with
// their ABI attributes, abi.h; the result may be void). open_reader()
// applies it; check_structure() applies the signature rule to a function. Throws FormatError naming the extern.
void check_header_structure(const ModuleHeader& header);

// Puts fn.foreign_ops in canonical order (see Function::foreign_ops) and
// renumbers the nodes' foreign opcodes to match.
void canonicalize_foreign_ops(Function& fn);

// For a bare graph (the seed's shape, no module around it): the level it
// most likely is at: cfg + dominance -> ssa, cfg -> cfg, otherwise son.
Level infer_bare_level(const Function& fn);

}  // namespace pl
