// c2ast.h - what the files of the C front end share (see c2ast.cpp for the
// overview: clang parses and type-checks, ModuleBuilder walks what the main
// file defines, FunctionBuilder turns one C function into an `ast:` tree).
//
//   types.cpp         C types -> IR value types, sizes, layouts, signatures
//   module.cpp        symbols, externs, the worklist of definitions
//   data.cpp          data items: globals, static locals, string literals,
//                     constants (clang's evaluator + record layout -> bytes)
//   function.cpp      FunctionBuilder: node helpers, parameters, the stack guard
//   expressions.cpp   expressions
//   floats.cpp        float and double: constants, conversions, operators,
//                     truth tests, builtins
//   complex.cpp       _Complex float, double and integer types
//   vectors.cpp       GNU C vectors and the SSE2 builtins, element by element
//   long_double.cpp   long double: in memory like a struct, the ast:f80 nodes
//   statements.cpp    statements
//   inline_asm.cpp    GNU asm statements -> ast:asm (constraints normalized)
//   initializers.cpp  local initializers and compound literals
//   bitfields.cpp     bit-fields: their storage units, reads and writes
//   vla.cpp           variable length arrays, alloca: run-time sizes, the
//                     dynamic stack
//   stack.cpp         large stacks for deeply nested C
//   int128.cpp        __int128 and unsigned __int128: operations on their two
//                     64-bit halves, libgcc's helpers for / % and floats
//   labels.cpp        labels as values, computed goto
//   returns_twice.cpp functions calling setjmp: locals kept in memory
//   atomics.cpp       _Atomic objects, the __atomic_*, __c11_atomic_* and
//                     __sync_* builtins
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include "ir/abi.h"
#include "ir/asm.h"
#include "ir/ir.h"

namespace clang {
class Preprocessor;
}

namespace pl {
struct ModulePiece;  // encoding/format.h
}

namespace pl::c2ast {

inline constexpr NodeId kNone = ~NodeId{0};
// The System V va_list (__va_list_tag): 24 bytes, 8-aligned.
inline constexpr uint64_t kVaListSize = 24;
inline constexpr uint32_t kVaListAlign = 8;

// An error in the C program at a clang location ("unsupported: ..."); the
// driver prints it as `c2ast: FILE:LINE:COL: error: MESSAGE`.
struct CError {
  clang::SourceLocation loc;
  std::string message;
};
[[noreturn]] void unsupported(clang::SourceLocation loc, const std::string& what);

// ---- attributes.cpp --------------------------------------------------------------

// Stops with "unsupported: attribute 'NAME'" unless the attribute is in
// attributes.cpp's table (implemented or harmless).
void check_attribute(const clang::Attr* a, const clang::Decl* on);
void check_attributes(const clang::Decl* d);
// Every declaration written outside the system headers, with its
// statements' and types' attributes.
void check_translation_unit_attributes(clang::ASTContext& ctx);
// gcc attributes clang 14 does not know and drops, which change nothing.
bool unknown_attribute_is_harmless(const std::string& name);
// The symbol attributes of a function or variable (all its declarations).
SymbolAttrs symbol_attrs(const clang::ValueDecl* decl);

// The GNU spellings (without underscores) of the attributes in the table,
// and the harmless unknown ones: what `__has_attribute` answers 1 for.
std::vector<std::string> supported_attribute_spellings();

// ---- storage_order.cpp: gcc's scalar_storage_order -----------------------------
// The attribute (registered with clang's parser as a plugin attribute,
// which attaches an annotation) and `#pragma scalar_storage_order`.
// Whether a struct or union stores its scalars big-endian (the attribute,
// or the pragma in force where it was defined).
bool big_endian_record(const clang::RecordDecl* record);
// The annotation marks our attribute; attributes.cpp accepts it.
bool is_storage_order_annotation(const clang::Attr* a);
// Whether a type's objects are reversed in a big-endian record: integers,
// enums, float and double of more than one byte (pointers and vectors are
// not, as gcc has it); refuses by name the scalars gcc reverses and we do not.
bool reversible_scalar(clang::QualType t, const clang::ASTContext& ctx, clang::SourceLocation where);
// Does lvalue designate a scalar stored in reverse order (a member of a
// big-endian record, an element of its member array, a bit-field of it)?
bool reversed_scalar_lvalue(const clang::Expr* lvalue, const clang::ASTContext& ctx);
// gcc's error for `&` of such a scalar anywhere in a static initializer.
void check_static_addresses(const clang::Expr* init, const clang::ASTContext& ctx);
// Refuses by name a member of a big-endian record we cannot reverse (or an
// array of them).
void check_storage_order_member(const clang::FieldDecl* field, const clang::ASTContext& ctx,
                                clang::SourceLocation where);
class StorageOrderPragma;
// Registers the pragma with the preprocessor (which owns the handler);
// apply_storage_order_pragma gives a struct or union defined while it says
// big-endian or little-endian that order, unless the attribute gave one.
StorageOrderPragma* install_storage_order_pragma(clang::Preprocessor& pp);
void apply_storage_order_pragma(const StorageOrderPragma* pragma, clang::ASTContext& ctx, clang::TagDecl* tag);

// ---- builtins.cpp: the one table of the builtins c2ast implements ----------------

enum class BuiltinFamily : uint8_t { None, Alloca, Frame, Expect, Atomic, Vector, Va, Trap, Float, Complex, Bits, Overflow, Query, Library };
// The family of builtin `id` (None: refused by name).
BuiltinFamily builtin_family(const clang::Builtin::Context& info, unsigned id);
// Predefined macros that make __has_builtin, __has_attribute, __has_feature
// and __has_extension answer from our tables instead of clang's.
std::string feature_test_predefines(const clang::LangOptions& lang);
// floats.cpp's and complex.cpp's builtins, by name.
bool is_float_builtin(const std::string& name);
bool is_complex_builtin(const std::string& name);
// atomics.cpp's builtins (and the AtomicExpr ones), by name.
bool is_atomic_builtin(const std::string& name);
// vectors.cpp's builtins (the __builtin_ia32_* it writes out, and more), by name.
bool is_vector_builtin(const std::string& name);
// Every name is_vector_builtin takes (the target's builtins are not in the
// Builtin::Context feature_test_predefines walks).
std::vector<std::string> vector_builtin_names();

// ---- stack_protect.cpp ------------------------------------------------------

// Whether the function definition gets a stack protector canary under the
// -fstack-protector mode in clang's language options (gcc's rules).
bool needs_stack_protector(const clang::FunctionDecl* fd);

// ---- stack.cpp -----------------------------------------------------------------

// The address below which the calling thread's stack is nearly exhausted
// (the stack grows down); 0 if unknown.
uintptr_t stack_limit();
// Runs `fn` on a new thread with a large stack; rethrows what `fn` throws.
void run_on_new_stack(llvm::function_ref<void()> fn);

// ---- types.cpp ---------------------------------------------------------------

// F80 is long double: it lives in memory (a 16-byte, 16-aligned object, as
// a struct does) and its value in the ast is its object's address, so its
// IR type is ptr; long_double.cpp computes on it with the ast:f80 nodes.
enum class VType : uint8_t { I8, I16, I32, I64, Ptr, F32, F64, F80 };
const char* vtype_name(VType t);
unsigned vtype_bits(VType t);
constexpr bool is_float(VType t) { return t == VType::F32 || t == VType::F64; }

// A C scalar as the IR sees it: its value type and whether C treats it as
// signed (which picks sext/zext, sdiv/udiv, slt/ult, ashr/lshr; floating
// types count as signed).
struct Scalar {
  VType vt = VType::I32;
  bool is_signed = false;
};

// Where a bit-field lives (bitfields.cpp says how the unit is chosen): the
// unit is `unit_size` bytes at `unit_offset` from the start of the record;
// the field is `width` bits from bit `bit_offset` of the unit (bit 0 is the
// low bit of the unit's first byte, little-endian); `type` is its declared
// type (the type of its value, and its signedness).
struct BitFieldLayout {
  uint64_t unit_offset = 0;
  uint64_t unit_size = 0;
  uint64_t bit_offset = 0;
  unsigned width = 0;
  Scalar type;
};

class Types {
 public:
  explicit Types(clang::ASTContext& ctx) : ctx_(ctx) {}
  clang::ASTContext& ctx() const { return ctx_; }

  // Stops with "unsupported" for types outside the C subset (_Float16,
  // __float128, _Complex of those, some vectors and _Atomic types); variably modified types pass
  // (vla.cpp), but size() refuses a VLA type.
  void check(clang::QualType t, clang::SourceLocation where) const;
  // Value type of a scalar; `ptr` for what is represented by its address
  // (structs, unions, arrays, functions).
  Scalar scalar(clang::QualType t, clang::SourceLocation where) const;
  // Struct, union, _Complex, __int128 (int128.cpp) or long double
  // (long_double.cpp): a value that lives in memory.
  static bool is_aggregate(clang::QualType t);
  // The element type of a _Complex type (complex.cpp).
  Scalar complex_element(clang::QualType complex_type, clang::SourceLocation where) const;
  // __int128 or unsigned __int128 (through typedefs and qualifiers).
  static bool is_int128(clang::QualType t);
  static bool is_long_double(clang::QualType t);
  // Sizes and alignments in bytes (incomplete types are errors; a flexible
  // array member's storage is not counted, as in C).
  uint64_t size(clang::QualType t, clang::SourceLocation where) const;
  uint32_t align(clang::QualType t) const;
  // Element size of pointer arithmetic on a `pointer_type` value (1 for void
  // and function pointers, the GNU rule).
  uint64_t pointee_size(clang::QualType pointer_type, clang::SourceLocation where) const;
  // Offset of a member in bytes; not for bit-fields (bitfield() is).
  uint64_t field_offset(const clang::FieldDecl* field, clang::SourceLocation where) const;
  // The unit, offset and width of a bit-field (bitfields.cpp).
  BitFieldLayout bitfield(const clang::FieldDecl* field, clang::SourceLocation where) const;
  // `void`, or the value type of a function result; aggregates are returned
  // through a hidden first pointer parameter, so their result is `void`.
  std::string result_type(clang::QualType result, clang::SourceLocation where) const;
  // The IR signature of a function type, with its ABI attributes (abi.h);
  // nullopt when it has no prototype.
  std::optional<Signature> signature(clang::QualType function_type, clang::SourceLocation where) const;
  // A parameter's signature type: its value type with its ABI attribute
  // (`i8 signext`, `ptr byval(12,4)`, `ptr byval(8,4,s)`, `i32`); also the
  // type of an aggregate passed through `...` or read by va_arg.
  std::string param_type(clang::QualType param, clang::SourceLocation where) const;
  // The hidden result pointer of a function returning an aggregate:
  // `ptr sret(SIZE,ALIGN)`.
  std::string result_pointer(clang::QualType result, clang::SourceLocation where) const;

  // "'T'" or "'T' (aka 'U')", as clang names types in diagnostics.
  static std::string describe(clang::QualType t);

 private:
  std::string aggregate_param(clang::QualType t, ParamAttr attr, clang::SourceLocation where) const;
  std::string aggregate_classes(clang::QualType t, clang::SourceLocation where) const;
  void flatten_scalars(clang::QualType t, uint64_t bit_offset, std::vector<AbiScalar>& out,
                       clang::SourceLocation where) const;
  clang::ASTContext& ctx_;
};

// ---- source locations ---------------------------------------------------------

// Maps clang locations to Loc (file index into header.files, line, col) at
// the expansion site of macros, honouring #line.
class Locations {
 public:
  Locations(const clang::SourceManager& sm, std::vector<std::string>& files);
  Loc get(clang::SourceLocation l);

 private:
  uint32_t file_index(const char* name);
  const clang::SourceManager& sm_;
  std::vector<std::string>& files_;
  std::unordered_map<std::string, uint32_t> index_;
  const char* last_name_ = nullptr;
  uint32_t last_index_ = 0;
  struct Remembered {
    uint32_t raw = 0;
    bool valid = false;
    Loc loc;
  };
  static constexpr size_t kRemembered = 4096;
  std::vector<Remembered> remembered_ = std::vector<Remembered>(kRemembered);
};

// ---- debug_info.cpp -------------------------------------------------------------

// The module's debug section (-g): the type table, the globals.
class DebugBuilder {
 public:
  DebugBuilder(clang::ASTContext& ctx, ModuleDebug& out, Locations& locations);
  // The index of `t` in the type table, entered on first use.
  uint32_t type(clang::QualType t);
  // -1 for (unqualified) void.
  int64_t type_or_void(clang::QualType t);
  // A variable with static storage defined here, held by data item `symbol`.
  void global(const clang::VarDecl* vd, const std::string& symbol);

 private:
  uint32_t make(clang::QualType t);
  uint32_t add(DebugType t);
  clang::ASTContext& ctx_;
  ModuleDebug& out_;
  Locations& locations_;
  std::unordered_map<const void*, uint32_t> ids_;  // QualType as written -> index
};

// ---- instrument.cpp ------------------------------------------------------------

// -finstrument-functions and its exclusion lists (gcc's substrings).
struct Instrumentation {
  bool on = false;
  std::vector<std::string> exclude_files, exclude_functions;
  // Whether the definition `fd` calls the profiling hooks.
  bool instruments(const clang::FunctionDecl* fd, const clang::SourceManager& sm) const;
};

// ---- module.cpp / data.cpp ------------------------------------------------------

// ---- Module pieces: c2ast's streaming output ----
// Where ModuleBuilder::build sends the module as it converts it (the Tool,
// c2ast.cpp): the header once, then each function after a module piece that
// holds what the header lacks of the files, externs and data it names.
class ModuleStream {
 public:
  virtual ~ModuleStream() = default;
  virtual void header(const ModuleHeader& header) = 0;
  virtual void piece(const ModulePiece& piece) = 0;
  virtual void function(const Function& fn) = 0;
};

class ModuleBuilder {
 public:
  // `debug`: fill the debug sections (-g).
  // `instrumentation`: -finstrument-functions (instrument.cpp).
  // `common`: tentative definitions are common symbols (-fcommon).
  ModuleBuilder(clang::ASTContext& ctx, bool debug, Instrumentation instrumentation = {}, bool common = false);
  ~ModuleBuilder();

  // Converts every definition of the translation unit that gcc always
  // emits and, transitively, every definition they use; returns the module.
  // With a stream (not with -g, whose debug sections go in the header) each
  // function goes to it as soon as it and the variables it names are
  // converted, and the module returned has only the header.
  Module build(ModuleStream* stream = nullptr);

  clang::ASTContext& ctx() const { return ctx_; }
  const Types& types() const { return types_; }
  Locations& locations() { return locations_; }
  DebugBuilder* debug() { return debug_ ? &*debug_ : nullptr; }
  const Instrumentation& instrumentation() const { return instrumentation_; }
  // -fno-inline (above -O0): every function but the always_inline ones is
  // marked noinline, which sonopt's inline and inline-recursive respect.
  void set_only_always_inline(bool only) { only_always_inline_ = only; }
  bool only_always_inline() const { return only_always_inline_; }
  // The extern `void NAME(void *, void *)` of a profiling hook (instrument.cpp).
  std::string profile_hook(const std::string& name);

  // The symbol of a function or a variable with static storage: schedules
  // its definition if it has one in this translation unit, otherwise
  // declares an extern. Static locals are named `function.name`.
  std::string symbol(const clang::ValueDecl* decl, clang::SourceLocation use);
  // A read-only `.str.N` data item holding the literal (identical literals
  // share one).
  std::string string_literal(const clang::StringLiteral* literal);
  // A read-only `.ldconst.N` data item (16 bytes, 16-aligned) holding these
  // 10 bytes of a long double (one per value).
  std::string f80_constant(const std::string& bytes);
  // A read-only data item of zeros at least `size` bytes long, aligned to
  // at least `align` (one per module, grown as needed; streaming, a new one
  // when the one already sent is too small).
  std::string zeros(uint64_t size, uint32_t align);
  // The symbol of a C library function a builtin stands for (`memcpy` for
  // `__builtin_memcpy`): the file's declaration if it has one, otherwise
  // an extern of the builtin's type.
  std::string library_function(const std::string& name, clang::QualType type, clang::SourceLocation use);
  // library_function, and its extern marked `cold` (FORMAT.md hints): for a
  // call only a rare path makes (sqrt's errno path, for a negative
  // argument), which the back end keeps off the usual path.
  std::string cold_library_function(const std::string& name, clang::QualType type, clang::SourceLocation use);
  // A read-only `.const.N` data item holding the constant initializer `init`
  // of an object of type `type` (clang's isConstantInitializer holds).
  std::string constant(const clang::Expr* init, clang::QualType type);
  // A data item for a compound literal at file scope (an initializer's `&(T){...}`).
  std::string compound_literal(const clang::CompoundLiteralExpr* literal);
  // labels.cpp: labels as values. The labels of `fd` whose address is
  // taken, in source order; a label's number is its place in that list
  // (from 1), and `&&L` is its function's symbol plus that number.
  const std::vector<const clang::LabelDecl*>& address_taken_labels(const clang::FunctionDecl* fd);
  const clang::FunctionDecl* label_function(const clang::LabelDecl* label, clang::SourceLocation use);
  int64_t label_number(const clang::LabelDecl* label, clang::SourceLocation use);

 private:
  void schedule_translation_unit();
  bool always_emitted(const clang::Decl* d) const;
  void schedule(const clang::Decl* definition, std::string name);
  std::string new_name(const std::string& wanted);
  std::string function_symbol(const clang::FunctionDecl* fd, clang::SourceLocation use);
  std::string variable_symbol(const clang::VarDecl* vd, clang::SourceLocation use);
  // `extern T b __attribute__((alias("a")))`: an extern of the module
  // defined as another name of `a`, which is converted.
  std::string alias_symbol(const clang::ValueDecl* decl, clang::SourceLocation use);
  static SymbolAttrs extern_attrs(const clang::ValueDecl* decl);
  static std::string c_name(const clang::NamedDecl* decl);
  // data.cpp
  DataItem variable_data(const clang::VarDecl* vd);
  friend class ConstantWriter;

  clang::ASTContext& ctx_;
  Types types_;
  ModuleHeader header_;
  Locations locations_;
  // Canonical declaration -> symbol.
  std::unordered_map<const clang::Decl*, std::string> symbols_;
  std::unordered_set<std::string> names_;                      // every name taken
  std::unordered_map<std::string, std::string> strings_;       // literal key -> name
  std::unordered_map<const clang::Expr*, std::string> compounds_;
  std::unordered_map<const clang::FunctionDecl*, std::vector<const clang::LabelDecl*>> labels_;
  std::unordered_map<std::string, std::string> library_;       // undeclared library functions
  // Definitions to convert, functions and variables apart: every variable
  // waiting is converted before the next function, so a function goes out
  // once the variables it scheduled are done (build).
  std::deque<std::pair<const clang::Decl*, std::string>> work_;
  std::deque<std::pair<const clang::Decl*, std::string>> work_variables_;
  void convert_variables();
  // ---- Module pieces ----: what the stream has of header_ (streaming).
  void send(ModuleStream& stream, const Function* fn);
  bool sent_header_ = false;
  size_t sent_files_ = 0, sent_externs_ = 0, sent_data_ = 0;
  std::optional<DebugBuilder> debug_;  // with -g
  Instrumentation instrumentation_;
  bool common_ = false;  // -fcommon
  bool only_always_inline_ = false;  // -fno-inline
  size_t zeros_index_ = SIZE_MAX;  // index of the zeros item in header_.data
  uint64_t constant_count_ = 0;
  std::unordered_map<std::string, std::string> f80_constants_;  // long double bytes -> item
};

// ---- function.cpp, expressions.cpp, statements.cpp, initializers.cpp ------

// vla.cpp: whether `t` is an array type with a variable length anywhere in
// its dimensions.
bool is_vla_type(const clang::ASTContext& ctx, clang::QualType t);

// cleanups.cpp: the cleanup function of a local variable (null if none), and
// the variables whose cleanups are pending at each label of a body.
const clang::FunctionDecl* cleanup_function(const clang::VarDecl* vd);
std::unordered_map<const clang::LabelDecl*, std::vector<const clang::VarDecl*>> pending_cleanups_at_labels(
    const clang::Stmt* body);

// returns_twice.cpp: whether calls to `fd` may return twice (setjmp,
// vfork, returns_twice), and whether `fd`'s body calls such a function.
bool returns_twice(const clang::FunctionDecl* fd);
bool calls_returns_twice(const clang::FunctionDecl* fd);

// Builds the ast-level function of one C function definition.
class FunctionBuilder {
 public:
  FunctionBuilder(ModuleBuilder& module, const clang::FunctionDecl* fd, std::string name);
  Function build();

 private:
  // A local variable or parameter: its ast:var. A struct or union parameter
  // arrives as the address of the caller's copy, kept in a pointer
  // variable (`indirect`).
  struct Local {
    NodeId var = kNone;
    bool indirect = false;
  };

  // ---- function.cpp: nodes
  Loc loc(clang::SourceLocation l) { return module_.locations().get(l); }
  NodeId add(OpId op, Loc loc, LiteralList literals, InputList inputs);
  NodeId op(const char* name, VType t, Loc loc, NodeId a, NodeId b = kNone);
  NodeId conversion(const char* name, VType from, VType to, Loc loc, NodeId v);
  NodeId constant(VType t, int64_t value, Loc loc);
  NodeId constant(Scalar s, const llvm::APSInt& value, Loc loc);
  std::optional<NodeId> saturated_conversion(const clang::CastExpr* c, Loc l);
  NodeId variable(const std::string& name, uint64_t size, uint32_t align, Loc loc);
  NodeId symaddr(const std::string& symbol, Loc loc);
  NodeId load(VType t, bool is_volatile, NodeId address, Loc loc);
  NodeId store(VType t, bool is_volatile, NodeId address, NodeId value, Loc loc);
  NodeId copy(uint64_t size, uint32_t align, NodeId dst, NodeId src, Loc loc);
  NodeId seq(NodeId effect, NodeId value, Loc loc);
  NodeId block(const std::vector<NodeId>& statements, Loc loc);
  NodeId nop(Loc loc);
  NodeId offset(NodeId address, uint64_t bytes, Loc loc);
  // A value used several times: `first` stores it in a hidden temporary
  // `.tmp` (the store's value is the value), again() loads it; hold() puts
  // the store in a statement list and gives the temporary.
  struct Reused {
    NodeId var = kNone;
    VType t = VType::I64;
    NodeId first = kNone;
  };
  Reused reuse(NodeId v, VType t, Loc loc);
  NodeId again(const Reused& r, Loc loc);
  NodeId hold(VType t, NodeId value, std::vector<NodeId>& out, Loc loc);
  // Several statements as one (kNone for none).
  NodeId statements(const std::vector<NodeId>& list, Loc loc);
  void parameters(std::vector<NodeId>& body);

  // ---- debug_info.cpp (-g; nothing without it)
  void debug_function();
  // A candidate lexical block over [begin, end] (a compound statement, a for).
  void open_scope(clang::SourceLocation begin, clang::SourceLocation end);
  void close_scope();
  // The innermost open scope's index, making it and its parents scopes.
  int64_t current_scope();
  // A named variable: its ast:var (kNone: none), parameter index or -1,
  // whether the var holds its address, or the data item of a static local.
  void debug_variable(const clang::VarDecl* vd, NodeId var, int64_t param, bool indirect, const std::string& symbol);
  struct PendingScope {
    Loc begin, end;
    int64_t index = kDebugNone;  // in fn_.debug.scopes, once it holds a variable
  };

  // Runs `convert` on a fresh stack when this one is nearly exhausted (the
  // recursive cases that clang's parser also reaches only by recursion).
  template <class F>
  NodeId deep(F&& convert);

  // ---- expressions.cpp
  Scalar scalar(const clang::Expr* e) const;
  // The value of an expression; for struct and union values, the address
  // of their storage.
  NodeId rvalue(const clang::Expr* e);
  NodeId rvalue_node(const clang::Expr* e);
  // The address an lvalue designates.
  NodeId address(const clang::Expr* e);
  NodeId address_node(const clang::Expr* e);
  // The address of an aggregate's storage, lvalue or not.
  NodeId object(const clang::Expr* e);
  // An expression evaluated for its effects. At statement level a void
  // `?:` becomes an ast:if and a comma or a GNU statement expression a
  // block; inside an expression the result is always an expression node.
  NodeId discard(const clang::Expr* e, bool statement_level);
  NodeId lvalue_conversion(const clang::Expr* lvalue);
  NodeId value_cast(const clang::CastExpr* e, NodeId sub);
  NodeId convert(NodeId v, Scalar from, Scalar to, Loc loc);
  NodeId to_bool(NodeId v, VType from, Loc loc);
  NodeId is_zero(NodeId v, VType t, Loc loc);
  NodeId integer_constant(const clang::Expr* e);
  NodeId unary(const clang::UnaryOperator* e);
  NodeId left_spine(const clang::Expr* e);
  NodeId binary(const clang::BinaryOperator* e, NodeId lhs);
  NodeId arithmetic(clang::BinaryOperatorKind opcode, clang::QualType lt, clang::QualType rt, NodeId a, NodeId b,
                    Loc loc, clang::SourceLocation where);
  NodeId pointer_offset(NodeId index, Scalar index_type, uint64_t element_size, Loc loc);
  NodeId assignment(const clang::BinaryOperator* e);
  NodeId compound_assignment(const clang::CompoundAssignOperator* e);
  // The right operand of `a op= b`, first when it has side effects (see
  // expressions.cpp); `setup` evaluates it into a temporary, or is kNone.
  NodeId compound_right_operand(const clang::Expr* rhs, NodeId& setup, Loc loc);
  NodeId increment(const clang::UnaryOperator* e, bool value_used);
  NodeId conditional(const clang::ConditionalOperator* e);
  NodeId call(const clang::CallExpr* e);
  NodeId builtin_call(const clang::CallExpr* e, const clang::FunctionDecl* callee, unsigned id, BuiltinFamily family);
  LiteralList call_literals(const clang::CallExpr* e, clang::QualType callee_type);
  NodeId va_builtin(const clang::CallExpr* e, const std::string& name);
  // ---- expect.cpp: branch probabilities (ast:expect)
  // __builtin_expect and __builtin_expect_with_probability.
  NodeId expect_builtin(const clang::CallExpr* e);
  // `__builtin_expect(e, c) == k` (or !=) of constants c, k != 0: the
  // probability that it holds.
  std::optional<uint32_t> expected_comparison(const clang::BinaryOperator* e);
  // v in an ast:expect of probability p, or v when there is none.
  NodeId expect_value(NodeId v, std::optional<uint32_t> p, Loc loc);
  // Does an if's arm call a noreturn or cold function (gcc's predictors)?
  bool cold_arm(const clang::Stmt* arm);
  // An if's condition, with gcc's noreturn/cold prediction for its arms.
  NodeId arm_hint(NodeId cond, const clang::Stmt* then, const clang::Stmt* otherwise, Loc loc);
  // ---- gnu_expressions.cpp
  NodeId statement_expression(const clang::StmtExpr* e);
  NodeId omitted_middle(const clang::BinaryConditionalOperator* e);
  NodeId union_cast(const clang::CastExpr* e);
  // ---- builtins.cpp: builtins written out as integer code (kNone: not one of them)
  NodeId bit_builtin(const clang::CallExpr* e, const std::string& name);
  // abs, labs, llabs and their __builtin_ forms, which gcc always expands
  // (builtins.cpp); kNone for any other builtin.
  NodeId integer_abs_call(const clang::CallExpr* c, unsigned builtin_id);
  NodeId overflow_builtin(const clang::CallExpr* e, const std::string& name);
  NodeId query_builtin(const clang::CallExpr* e, const std::string& name);
  NodeId bits_constant(VType t, uint64_t value, Loc loc);
  NodeId popcount_of(NodeId var, VType t, std::vector<NodeId>& out, Loc loc);
  void smear_right(NodeId var, VType t, std::vector<NodeId>& out, Loc loc);
  NodeId to_int(NodeId v, VType from, Loc loc);
  // The 128-bit product of the unsigned i64 values in temporaries a and b,
  // as temporaries hi and lo.
  void multiply_64x64(NodeId a, NodeId b, std::vector<NodeId>& out, Loc loc, NodeId& hi, NodeId& lo);
  NodeId va_arg_expr(const clang::VAArgExpr* e);
  NodeId member(const clang::MemberExpr* e);
  NodeId declaration_address(const clang::DeclRefExpr* e);
  // Evaluates an lvalue's address once for a read and a write: `first` and
  // `second` are the two uses, `setup` (or kNone) what must run first.
  struct TwoUses {
    NodeId setup = kNone, first = kNone, second = kNone;
  };
  TwoUses address_twice(const clang::Expr* lvalue, Loc loc);
  bool duplicable(NodeId root) const;
  NodeId clone(NodeId root);

  // ---- floats.cpp: float and double
  NodeId float_constant(VType t, const llvm::APFloat& value, Loc loc);
  NodeId float_constant(VType t, double value, Loc loc);
  // Conversions where either side is floating (convert() sends them here).
  NodeId float_convert(NodeId v, Scalar from, Scalar to, Loc loc);
  // A truth test of a value of type t: `fune v, 0.0` for a floating value
  // (NaN is true, -0.0 false), the value itself otherwise.
  NodeId truth(NodeId v, VType t, Loc loc);
  // A condition (if, loops, &&, ||, ?:): the value, made a truth test.
  NodeId condition(const clang::Expr* e);
  NodeId float_arithmetic(clang::BinaryOperatorKind opcode, VType t, NodeId a, NodeId b, Loc loc,
                          clang::SourceLocation where);
  // A builtin that becomes IR operations on floating values, or kNone.
  NodeId float_builtin(const clang::CallExpr* c, const std::string& name);
  NodeId float_library_call(const clang::CallExpr* c, unsigned builtin_id);
  // gcc's narrowing of a rounding function of a float widened to double
  // (floor((double)f) -> (double)floorf(f)) when optimizing; kNone if the
  // call is not one.
  NodeId narrowed_rounding_call(const clang::CallExpr* c, unsigned builtin_id);
  // ---- complex.cpp: _Complex values
  // A complex value's parts, each held in a scalar temporary (an ast:var of
  // the element type, read with a load); `im` is kNone for a real operand,
  // whose imaginary part is absent (C11 Annex G, as gcc computes).
  struct ComplexParts {
    NodeId re = kNone, im = kNone;
  };
  // An address used several times: the tree itself for its first use and
  // clones after (when duplicable()), otherwise a pointer temporary.
  struct Pinned {
    NodeId tree = kNone, var = kNone;
    bool used = false;
  };
  Pinned pin(NodeId address, std::vector<NodeId>& out, Loc l);
  NodeId use(Pinned& p, Loc l);
  NodeId complex_zero(Scalar element, Loc l);
  // -v of the element type (a long double: into a fresh temporary).
  NodeId negate(Scalar element, NodeId v, Loc l);
  // A real operand's value converted to `element` (a long double copied).
  NodeId real_part_value(const clang::Expr* e, Scalar element, Loc l);
  // The parts of `e` (complex or real) converted to `element`; the
  // statements that compute them go to `out`.
  ComplexParts complex_parts(const clang::Expr* e, Scalar element, std::vector<NodeId>& out);
  ComplexParts complex_own_parts(const clang::Expr* e, Scalar own, std::vector<NodeId>& out);
  ComplexParts complex_parts_at(NodeId address, Scalar element, bool is_volatile, std::vector<NodeId>& out, Loc l);
  void complex_store(NodeId address, ComplexParts p, Scalar element, std::vector<NodeId>& out, Loc l);
  // `out` then a fresh `.complex` variable holding p: its address.
  NodeId complex_value(ComplexParts p, Scalar element, std::vector<NodeId>& out, Loc l);
  ComplexParts complex_arithmetic(clang::BinaryOperatorKind opcode, ComplexParts x, ComplexParts y, Scalar element,
                                  std::vector<NodeId>& out, Loc l);
  ComplexParts complex_libcall(const char* name, ComplexParts x, ComplexParts y, Scalar element,
                               std::vector<NodeId>& out, Loc l);
  // An expression that is complex or has a complex operand and that
  // complex.cpp computes (kNone: the generic code handles it).
  NodeId complex_expression(const clang::Expr* e);
  NodeId complex_truth(const clang::Expr* e);
  NodeId complex_compare(const clang::BinaryOperator* b);
  // The address of `__real__ z` or `__imag__ z`.
  NodeId complex_part_address(const clang::UnaryOperator* u);
  NodeId complex_compound_assignment(const clang::CompoundAssignOperator* e);
  NodeId complex_increment(const clang::UnaryOperator* u, bool value_used);
  NodeId complex_builtin(const clang::CallExpr* c, const std::string& name);
  void initialize_complex(NodeId var, uint64_t at, clang::QualType type, const clang::Expr* init,
                          std::vector<NodeId>& out);
  // ---- vectors.cpp: GNU C vectors, aggregates computed element by element
  struct VectorShape {
    clang::QualType element_type;
    Scalar element;
    unsigned count = 0;
    uint64_t step = 0;  // the element's size
    uint64_t size = 0;
    uint32_t align = 0;
  };
  VectorShape vector_shape(clang::QualType t, clang::SourceLocation where) const;
  NodeId vector_temporary(const VectorShape& s, Loc l);
  void settle(Pinned& p, std::vector<NodeId>& out);
  NodeId vector_element(Pinned& at, const VectorShape& s, unsigned i, Loc l);
  NodeId vector_element_op(clang::BinaryOperatorKind k, Scalar s, Scalar r, NodeId a, NodeId b, Loc l,
                           clang::SourceLocation where);
  NodeId vector_binary(clang::BinaryOperatorKind k, clang::QualType result, const clang::Expr* lhs,
                       const clang::Expr* rhs, NodeId a, NodeId b, Loc l, clang::SourceLocation where);
  // ast:v128.op `name` imm on 16-byte vectors: a fresh temporary of `result`
  // = name(a, b, imm) (b = a for a unary operation).
  NodeId vector_sse(const char* name, uint64_t imm, const VectorShape& result, NodeId a, NodeId b, Loc l);
  // The SSE/SSE2 form of a __builtin_ia32_* call on 16-byte vectors, or
  // kNone when it has none (the element-by-element code computes it).
  NodeId ia32_sse(const clang::CallExpr* c, const std::string& rest);
  NodeId vector_splat(const clang::Expr* scalar_expr, clang::QualType vector_type, Loc l, clang::SourceLocation where);
  NodeId vector_zero(clang::QualType vector_type, Loc l, clang::SourceLocation where);
  NodeId vector_subscript_address(const clang::ArraySubscriptExpr* a);
  NodeId vector_cast(const clang::CastExpr* c);
  NodeId vector_unary(const clang::UnaryOperator* u);
  NodeId vector_compound_assignment(const clang::CompoundAssignOperator* e);
  NodeId vector_shuffle(const clang::ShuffleVectorExpr* e);
  NodeId vector_convert(const clang::ConvertVectorExpr* e);
  // An expression that is a vector or reads one and that vectors.cpp
  // computes (kNone: the generic code handles it).
  NodeId vector_expression(const clang::Expr* e);
  void initialize_vector(NodeId var, uint64_t at, clang::QualType type, const clang::InitListExpr* list,
                         std::vector<NodeId>& out, bool& needs_zero);
  // The __builtin_ia32_* builtins of the SSE/SSE2 headers (kNone: not one).
  NodeId ia32_builtin(const clang::CallExpr* c, const std::string& name);
  // ---- int128.cpp: __int128 and unsigned __int128. Their value is the
  // address of 16 bytes (lo at +0, hi at +8), as an aggregate's.
  struct Halves {
    NodeId lo = kNone, hi = kNone;  // i64 temporaries
  };
  Halves int128_halves(NodeId address, std::vector<NodeId>& out, Loc loc);
  // A fresh 16-byte temporary holding (lo, hi); the stores go to `out`.
  NodeId int128_temporary(NodeId lo, NodeId hi, std::vector<NodeId>& out, Loc loc);
  // out's statements, then the temporary holding (lo, hi).
  NodeId int128_value(NodeId lo, NodeId hi, std::vector<NodeId>& out, Loc loc);
  // The value's halves stored to `dst` as two i64 stores (a copy of it
  // would keep a temporary holding the value in memory: split-copy takes
  // only copies between two stack slots).
  NodeId int128_store(NodeId dst, NodeId value, Loc loc);
  // An __int128-typed constant expression, or kNone.
  NodeId int128_rvalue(const clang::Expr* e);
  NodeId int128_cast(const clang::CastExpr* c, NodeId sub);
  // v of C type `from` converted to `to`, where either may be __int128.
  NodeId int128_convert(NodeId v, clang::QualType from, clang::QualType to, Loc loc, clang::SourceLocation where);
  // Any conversion between C scalar types (_Bool, __int128 included).
  NodeId convert_type(NodeId v, clang::QualType from, clang::QualType to, Loc loc, clang::SourceLocation where);
  NodeId int128_truth(NodeId v, Loc loc);
  NodeId int128_unary(const clang::UnaryOperator* u);
  NodeId int128_binary(const clang::BinaryOperator* b, NodeId lhs);
  NodeId int128_arithmetic(clang::BinaryOperatorKind opcode, clang::QualType lt, clang::QualType rt, NodeId a,
                           NodeId b, Loc loc, clang::SourceLocation where);
  NodeId int128_compound_assignment(const clang::CompoundAssignOperator* e);
  NodeId int128_increment(const clang::UnaryOperator* u, bool value_used);
  // A call of libgcc's `name` (result and argument types as given; __int128
  // ones travel by the aggregate ABI: INTEGER, INTEGER).
  NodeId int128_library_call(const char* name, clang::QualType result, const std::vector<clang::QualType>& types,
                             const std::vector<NodeId>& args, Loc loc, clang::SourceLocation where);
  // ---- atomics.cpp: _Atomic objects, __atomic_*, __c11_atomic_*, __sync_*
  VType atomic_vtype(clang::QualType t, clang::SourceLocation where);
  VType atomic_sized(clang::QualType t, clang::SourceLocation where);
  std::string atomic_order(const clang::Expr* order, std::vector<NodeId>& out);
  NodeId atomic_load_node(VType t, NodeId address, Loc loc);
  NodeId atomic_store_node(VType t, const std::string& order, NodeId address, NodeId value, Loc loc);
  NodeId atomic_rmw_node(VType t, const char* name, NodeId address, NodeId value, Loc loc);
  NodeId atomic_cmpxchg_node(VType t, NodeId address, NodeId expected, NodeId desired, Loc loc);
  NodeId atomic_apply(VType t, const std::string& name, NodeId old, NodeId v, Loc loc);
  NodeId atomic_result(std::vector<NodeId>& out, NodeId value, Loc loc);
  NodeId atomic_expr(const clang::AtomicExpr* e);
  NodeId compare_exchange(VType t, NodeId p, NodeId pe, NodeId d, VType result, std::vector<NodeId>& out, Loc loc);
  // kNone when `name` is not an atomic builtin.
  NodeId atomic_builtin(const clang::CallExpr* c, const std::string& name);
  NodeId atomic_object_load(const clang::Expr* lvalue);
  NodeId atomic_object_store(const clang::BinaryOperator* b);
  NodeId atomic_object_update(const clang::Expr* lhs, clang::BinaryOperatorKind opcode, const clang::Expr* rhs,
                              clang::QualType computation, clang::QualType result_type, bool return_old,
                              clang::SourceLocation where);
  // ---- long_double.cpp: long double (VType::F80), in memory; values are addresses
  NodeId f80_temp(Loc loc);
  NodeId f80_constant(const llvm::APFloat& value, Loc loc);
  NodeId f80_constant(long double value, Loc loc);
  NodeId f80_arith(const char* name, NodeId a, NodeId b, Loc loc);
  NodeId f80_unary(const char* name, NodeId a, Loc loc);
  NodeId f80_compare(const char* predicate, NodeId a, NodeId b, Loc loc);
  NodeId f80_copy(NodeId dst, NodeId src, Loc loc);  // its value is dst
  NodeId f80_convert(NodeId v, Scalar from, Scalar to, Loc loc);
  NodeId f80_arithmetic(clang::BinaryOperatorKind opcode, NodeId a, NodeId b, Loc loc, clang::SourceLocation where);
  NodeId f80_compound_assignment(const clang::CompoundAssignOperator* e);
  NodeId f80_increment(const clang::UnaryOperator* u, bool value_used);
  NodeId f80_builtin(const clang::CallExpr* c, int kind);
  // ---- bitfields.cpp
  // The bit-field an lvalue designates, or null. address() of such an
  // lvalue is the address of its unit.
  static const clang::FieldDecl* bitfield_of(const clang::Expr* lvalue);
  NodeId bitload(const BitFieldLayout& field, bool is_volatile, NodeId unit, Loc loc);
  NodeId bitstore(const BitFieldLayout& field, bool is_volatile, NodeId unit, NodeId value, Loc loc);
  // A read or write of the scalar lvalue `lvalue` at `address` (from
  // address() or address_twice()): a load or store, or for a bit-field an
  // ast:bitload or ast:bitstore of its unit.
  NodeId lvalue_load(const clang::Expr* lvalue, VType t, bool is_volatile, NodeId address, Loc loc);
  NodeId lvalue_store(const clang::Expr* lvalue, VType t, bool is_volatile, NodeId address, NodeId value, Loc loc);
  // gcc's arithmetic on bit-fields wider than int: `x.b << 8` of an
  // `unsigned long long b : 40` is computed in 40 bits (bitfields.cpp).
  unsigned gcc_precision(const clang::Expr* e) const;
  NodeId wide_bitfield_wrap(const clang::Expr* e, NodeId value);
  // A bit-field member of a local being initialized: the object at `var` + `at`.
  void initialize_bitfield(NodeId var, uint64_t at, const clang::FieldDecl* field, const clang::Expr* init,
                           std::vector<NodeId>& out, bool& needs_zero);

  // ---- storage_order.cpp: gcc's scalar_storage_order
  // Whether `lvalue` designates a scalar (an integer, enum, float or double
  // of more than one byte; or a bit-field) that a big-endian struct or
  // union holds in reverse byte order: a member of the record, an element
  // of a member array. Refuses by name what gcc reverses and we do not.
  bool reversed_scalar(const clang::Expr* lvalue);
  NodeId reversed_load(const clang::Expr* lvalue, VType t, bool is_volatile, NodeId address, Loc loc);
  NodeId reversed_store(const clang::Expr* lvalue, VType t, bool is_volatile, NodeId address, NodeId value, Loc loc);
  // A store of a scalar of `type` into a big-endian record (initializers).
  NodeId reversed_scalar_store(clang::QualType type, VType t, NodeId address, NodeId value, Loc loc,
                               clang::SourceLocation where);
  NodeId reversed_bitload(const BitFieldLayout& field, NodeId unit, Loc loc, clang::SourceLocation where);
  NodeId reversed_bitstore(const BitFieldLayout& field, NodeId unit, NodeId value, Loc loc, clang::SourceLocation where);
  // The value held in `var` (of type t) with its low `bits` bits' bytes in
  // the other order (bits a multiple of 8, at most t's width).
  NodeId byte_swap(NodeId var, VType t, unsigned bits, Loc loc);
  // The n bytes at the address held in `base` plus `first`, the first the
  // most significant, as an i64 (n at most 8).
  NodeId big_endian_bytes(NodeId base, uint64_t first, unsigned n, Loc loc);

  // ---- statements.cpp
  NodeId statement(const clang::Stmt* s);
  NodeId statement_node(const clang::Stmt* s);
  NodeId statement_or_nop(const clang::Stmt* s, Loc loc);
  NodeId compound(const clang::CompoundStmt* s);
  NodeId if_chain(const clang::IfStmt* s);
  NodeId labelled(const clang::Stmt* s);
  NodeId declarations(const clang::DeclStmt* s);
  NodeId return_statement(const clang::ReturnStmt* s);
  // instrument.cpp: the call of __cyg_profile_func_enter or _exit.
  NodeId profile_call(bool enter, Loc loc);
  NodeId switch_statement(const clang::SwitchStmt* s);
  // labels.cpp: `&&label` and `goto *p`
  NodeId label_address(const clang::AddrLabelExpr* e);
  NodeId computed_goto(const clang::IndirectGotoStmt* s);
  // inline_asm.cpp
  NodeId asm_statement(const clang::GCCAsmStmt* s);
  // x87 "t"/"u" operands, through memory (inline_asm.cpp).
  bool uses_x87_operands(const clang::GCCAsmStmt* s) const;
  NodeId x87_asm_statement(const clang::GCCAsmStmt* s);
  // The statements of a scope, then the calls of the cleanups it declared.
  void scope(const clang::CompoundStmt* s, std::vector<NodeId>& out);
  NodeId loop(const clang::Stmt* s);
  NodeId jump(const clang::Stmt* s);

  // ---- cleanups.cpp: __attribute__((cleanup)) at every scope exit
  NodeId cleanup_call(const clang::VarDecl* vd, Loc loc);
  void push_cleanup(const clang::VarDecl* vd);
  void run_cleanups(size_t depth, Loc loc, std::vector<NodeId>& out);
  void end_scope(size_t depth, Loc loc, std::vector<NodeId>& out);
  // `jump` preceded by the cleanups above `depth` (jump itself if none).
  NodeId leave_scopes(size_t depth, NodeId jump, Loc loc);
  size_t label_depth(const clang::LabelDecl* label, clang::SourceLocation goto_at);

  // ---- returns_twice.cpp: whether `address` is a local's (its ast:var
  // plus offsets); in a function that calls setjmp (`locals_in_memory_`)
  // every access to a local is volatile.
  bool local_address(NodeId address) const;

  // ---- vla.cpp: variable length arrays and alloca
  // Appends the evaluation of every size expression in `t` not evaluated yet.
  void evaluate_vla_sizes(clang::QualType t, std::vector<NodeId>& out, clang::SourceLocation where);
  // The size in bytes of an array type with variable dimensions (an i64).
  NodeId vla_size(clang::QualType t, Loc loc, clang::SourceLocation where);
  // The element size of pointer arithmetic on `pointer_type` (an i64 node).
  NodeId pointee_size_node(clang::QualType pointer_type, Loc loc, clang::SourceLocation where);
  bool points_to_vla(clang::QualType pointer_type) const;
  NodeId vla_sizeof(const clang::UnaryExprOrTypeTraitExpr* e);
  // A VLA local: the stack save and the allocation go to `out`; returns
  // the variable holding its address.
  NodeId vla_local(const clang::VarDecl* vd, std::vector<NodeId>& out);
  // The restore of the stack saved before the VLA `vd` (its scope's end).
  NodeId stack_restore(const clang::VarDecl* vd, Loc loc);
  NodeId alloca_call(const clang::CallExpr* c, unsigned id);
  // __builtin_frame_address(0), __builtin_return_address(0).
  NodeId frame_builtin(const clang::CallExpr* c, unsigned id);

  // ---- initializers.cpp
  NodeId local_variable(const clang::VarDecl* vd);
  // Appends to `out` the statements that initialize the object at `var` +
  // `offset` of type `type` from `init`; sets `needs_zero` when part of it
  // is left to the implicit zero.
  void initialize(NodeId var, uint64_t offset, clang::QualType type, const clang::Expr* init,
                  std::vector<NodeId>& out, bool& needs_zero);
  void initialize_list(NodeId var, uint64_t offset, clang::QualType type, const clang::InitListExpr* list,
                       std::vector<NodeId>& out, bool& needs_zero);
  void initialize_object(NodeId var, clang::QualType type, const clang::Expr* init, Loc loc,
                         std::vector<NodeId>& out);
  NodeId compound_literal(const clang::CompoundLiteralExpr* e);

  ModuleBuilder& module_;
  const Types& types_;
  clang::ASTContext& ctx_;
  const clang::FunctionDecl* fd_;
  Function fn_;
  std::unordered_map<const clang::VarDecl*, Local> locals_;
  std::vector<Scalar> switches_;  // the enclosing switches' types, innermost last
  // A case range too wide for one ast:case per value: the label its
  // statement gets and its bounds (in the switch's type), per enclosing
  // switch, innermost last (statements.cpp).
  struct WideRange {
    std::string label;
    llvm::APSInt low, high;
  };
  std::vector<std::vector<WideRange>> wide_ranges_;
  uint32_t wide_range_count_ = 0;
  NodeId return_address_ = kNone;  // var holding the hidden result pointer
  bool locals_in_memory_ = false;  // calls a returns_twice function (returns_twice.cpp)
  bool reversed_init_ = false;     // initializing a member of a big-endian record (storage_order.cpp)
  bool instrumented_ = false;  // calls the profiling hooks (instrument.cpp)
  // Variables whose cleanup is pending, outermost first; the depth of that
  // stack at the enclosing loops and switches (cleanups.cpp).
  std::vector<const clang::VarDecl*> cleanups_;
  std::vector<size_t> break_depths_, continue_depths_;
  // vla.cpp: the variable holding each evaluated VLA size expression's
  // value, and the variable holding the stack extent saved before each VLA.
  std::unordered_map<const clang::Expr*, NodeId> vla_counts_;
  std::unordered_map<const clang::VarDecl*, NodeId> vla_saves_;
  std::optional<std::unordered_map<const clang::LabelDecl*, std::vector<const clang::VarDecl*>>> label_cleanups_;
  uintptr_t stack_limit_ = stack_limit();  // of the thread converting now
  // Pointer variables written only at entry (struct parameters' addresses,
  // the hidden result pointer): loading one twice gives the same address.
  std::unordered_set<NodeId> entry_only_;
  DebugBuilder* debug_ = nullptr;        // with -g
  std::vector<PendingScope> scopes_;     // the enclosing candidate blocks, innermost last
};

template <class F>
NodeId FunctionBuilder::deep(F&& convert) {
  if (reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) >= stack_limit_) return convert();
  NodeId result = kNone;
  uintptr_t caller_limit = stack_limit_;
  try {
    run_on_new_stack([&] {
      stack_limit_ = stack_limit();
      result = convert();
    });
  } catch (...) {
    stack_limit_ = caller_limit;
    throw;
  }
  stack_limit_ = caller_limit;
  return result;
}

}  // namespace pl::c2ast
