// library.cpp - the C library functions sonopt knows (see library.h).
#include "library.h"

#include <algorithm>

namespace pl::sonopt {

namespace {

constexpr uint64_t kMaxChain = 16;

// The call's parameter list literal for a variadic callee starts so.
std::string variadic_prefix(const LibFunction& f) {
  std::string s = "(";
  for (const std::string& p : f.params) s += p + ", ";
  return s + "...";
}

}  // namespace

const std::vector<LibFunction>& library() {
  static const std::vector<LibFunction> table = {
      {"strlen", Lib::Strlen, {"ptr"}, "i64"},
      {"strcmp", Lib::Strcmp, {"ptr", "ptr"}, "i32"},
      {"strncmp", Lib::Strncmp, {"ptr", "ptr", "i64"}, "i32"},
      {"memcmp", Lib::Memcmp, {"ptr", "ptr", "i64"}, "i32"},
      {"abs", Lib::Abs, {"i32"}, "i32"},
      {"labs", Lib::Labs, {"i64"}, "i64"},
      {"llabs", Lib::Llabs, {"i64"}, "i64"},
      {"memcpy", Lib::Memcpy, {"ptr", "ptr", "i64"}, "ptr"},
      {"memmove", Lib::Memmove, {"ptr", "ptr", "i64"}, "ptr"},
      {"memset", Lib::Memset, {"ptr", "i32", "i64"}, "ptr"},
      {"strcpy", Lib::Strcpy, {"ptr", "ptr"}, "ptr"},
      {"stpcpy", Lib::Stpcpy, {"ptr", "ptr"}, "ptr"},
      {"strcat", Lib::Strcat, {"ptr", "ptr"}, "ptr"},
      {"strchr", Lib::Strchr, {"ptr", "i32"}, "ptr"},
      {"strrchr", Lib::Strrchr, {"ptr", "i32"}, "ptr"},
      {"memchr", Lib::Memchr, {"ptr", "i32", "i64"}, "ptr"},
      {"malloc", Lib::Malloc, {"i64"}, "ptr"},
      {"calloc", Lib::Calloc, {"i64", "i64"}, "ptr"},
      {"free", Lib::Free, {"ptr"}, "void"},
      {"printf", Lib::Printf, {"ptr"}, "i32", true},
      {"vprintf", Lib::Vprintf, {"ptr", "ptr"}, "i32"},
      {"__printf_chk", Lib::PrintfChk, {"i32", "ptr"}, "i32", true, true},
      {"__vprintf_chk", Lib::VprintfChk, {"i32", "ptr", "ptr"}, "i32", false, true},
      {"fprintf", Lib::Fprintf, {"ptr", "ptr"}, "i32", true},
      {"vfprintf", Lib::Vfprintf, {"ptr", "ptr", "ptr"}, "i32"},
      {"__fprintf_chk", Lib::FprintfChk, {"ptr", "i32", "ptr"}, "i32", true, true},
      {"__vfprintf_chk", Lib::VfprintfChk, {"ptr", "i32", "ptr", "ptr"}, "i32", false, true},
      {"sprintf", Lib::Sprintf, {"ptr", "ptr"}, "i32", true},
      {"puts", Lib::Puts, {"ptr"}, "i32"},
      {"putchar", Lib::Putchar, {"i32"}, "i32"},
      {"fputs", Lib::Fputs, {"ptr", "ptr"}, "i32"},
      {"fputc", Lib::Fputc, {"i32", "ptr"}, "i32"},
      {"fwrite", Lib::Fwrite, {"ptr", "i64", "i64", "ptr"}, "i64"},
  };
  return table;
}

const LibFunction& library_function(Lib kind) {
  for (const LibFunction& f : library())
    if (f.kind == kind) return f;
  return library().front();  // unreachable: every kind has its entry
}

const LibFunction* library_callee(const Graph& g, NodeId call, const ModuleHeader& header,
                                  const SymbolAttrs& caller) {
  if (caller.has(kHintNobuiltin)) return nullptr;
  const Node& nd = g.node(call);
  if (nd.inputs.size() < 2 || g.op(nd.inputs[1]) != Op::SymAddr || nd.literals.empty()) return nullptr;
  std::string_view name = g.node(nd.inputs[1]).literals[0].as_string();
  const LibFunction* lib = nullptr;
  for (const LibFunction& f : library())
    if (f.name == name) lib = &f;
  if (!lib) return nullptr;
  auto e = std::find_if(header.externs.begin(), header.externs.end(), [&](const Extern& x) { return x.name == name; });
  if (e == header.externs.end()) {
    if (!lib->reserved) return nullptr;
  } else {
    if (e->kind != ExternKind::Function || e->attrs.weak || !e->attrs.alias.empty() || e->attrs.has(kHintNobuiltin))
      return nullptr;
    if (e->signature && (e->signature->variadic != lib->variadic || e->signature->params != lib->params ||
                         e->signature->result != lib->result))
      return nullptr;
  }
  if (nd.literals[0].as_string() != lib->result) return nullptr;
  if (lib->variadic) {
    if (nd.literals.size() != 2 || !nd.literals[1].as_string().starts_with(variadic_prefix(*lib))) return nullptr;
    if (nd.inputs.size() < 2 + lib->params.size()) return nullptr;
  } else {
    if (nd.literals.size() != 1 || nd.inputs.size() != 2 + lib->params.size()) return nullptr;
  }
  return lib;
}

bool mentions_library_function(const ModuleHeader& header, std::initializer_list<Lib> kinds) {
  for (Lib k : kinds) {
    const LibFunction& f = library_function(k);
    if (f.reserved) return true;
    for (const Extern& e : header.externs)
      if (e.name == f.name) return true;
  }
  return false;
}

std::optional<uint8_t> ConstBytes::at(uint64_t i) const {
  uint64_t pos = offset + i;
  if (pos < offset || pos >= item->size) return std::nullopt;
  for (const Reloc& r : item->relocs)
    if (pos >= r.offset && pos < r.offset + 8) return std::nullopt;
  return pos < item->init.size() ? static_cast<uint8_t>(item->init[pos]) : uint8_t{0};
}

std::optional<std::string> ConstBytes::string(uint64_t limit) const {
  std::string s;
  for (uint64_t i = 0; i <= limit; ++i) {
    auto b = at(i);
    if (!b) return std::nullopt;
    if (*b == 0) return s;
    s.push_back(static_cast<char>(*b));
  }
  return std::nullopt;
}

std::optional<ConstBytes> const_bytes(const Graph& g, NodeId a, const ModuleHeader& header) {
  uint64_t offset = 0;
  for (uint64_t depth = 0; depth < kMaxChain && g.op(a) == Op::Add; ++depth) {
    const Node& nd = g.node(a);
    if (!g.is_const(nd.inputs[1])) return std::nullopt;
    offset += g.const_value_of(nd.inputs[1]);
    a = nd.inputs[0];
  }
  if (g.op(a) != Op::SymAddr) return std::nullopt;
  std::string_view name = g.node(a).literals[0].as_string();
  for (const DataItem& d : header.data)
    if (d.name == name) {
      if (!d.readonly || d.attrs.weak || offset > d.size) return std::nullopt;
      return ConstBytes{&d, offset};
    }
  return std::nullopt;
}

}  // namespace pl::sonopt
