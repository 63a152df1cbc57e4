// verify.h - the level-contract verifier (the list of invariants is in the
// header comment of verify.cpp, and in schema/FORMAT.md "Level contracts").
//
// It reports every violation, not just the first. The module-level checks
// need every function, so ModuleVerifier is fed the stream one function at a
// time, holding only names, never graphs: a duplicate function name is
// reported when the second one arrives, symbols that name nothing at end().
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <optional>
#include <string>

#include "ir/error.h"
#include "ir/ir.h"

namespace pl {

struct ModulePiece;  // encoding/format.h

// Checks `fn` against the contract of `level`; appends one Diagnostic per
// violation (Where::in(function, "iN"/"bN"), context = the printed node).
void verify_function(const ModuleHeader& header, const Function& fn, Level level, std::vector<Diagnostic>& out);

// Checks the header alone (externs, data items, relocations within bounds,
// duplicate names among data and externs).
void verify_header(const ModuleHeader& header, std::vector<Diagnostic>& out);

// The first way a table opcode's node breaks its row's literal and input
// shapes (counts and literal kinds, as the verifier words it), or nullopt.
// For stages that index literals by position and must diagnose, not crash
// on, --no-verify input. A foreign opcode is a problem.
std::optional<std::string> node_shape_problem(const Node& n);

// The problems of one symbol's attributes (rule F), for a symbol of this
// linkage and kind (an extern's linkage is external).
enum class SymbolKind { Function, Data, FunctionExtern, DataExtern };
std::vector<std::string> attrs_problems(const SymbolAttrs& attrs, Linkage linkage, SymbolKind kind);

class ModuleVerifier {
 public:
  explicit ModuleVerifier(const ModuleHeader& header);
  // Verify one function against header.level; returns its diagnostics.
  std::vector<Diagnostic> function(const Function& fn);
  // Cross-function checks; call once after the last function.
  std::vector<Diagnostic> end();
  // ---- Module pieces ----
  // Checks a piece that came after the functions verified so far (the
  // header given to the constructor must already hold it, as a reader's
  // does): its items as the header's, their names unique among every
  // symbol so far. A function's data and extern symbols must be declared
  // before it: end() reports one declared by a later piece.
  std::vector<Diagnostic> piece(const ModulePiece& piece);
  // Header diagnostics found by the constructor.
  const std::vector<Diagnostic>& header_diagnostics() const { return header_diags_; }

 private:
  const ModuleHeader& header_;
  std::vector<Diagnostic> header_diags_;
  std::unordered_set<std::string> header_symbols_;     // data + externs
  std::unordered_set<std::string> function_names_;
  std::unordered_set<std::string> tls_symbols_;       // data items and externs with attrs.tls
  // Symbol referenced -> where it was first referenced.
  std::unordered_map<std::string, Where> references_;
  // Relocations (of the header and of pieces) that name a symbol not yet declared
  // (any later symbol will do, as in the header).
  std::unordered_map<std::string, Where> reloc_references_;
  size_t pieces_ = 0;
};

}  // namespace pl
