// libcalls.cpp - calls to C library functions whose meaning the C standard
// fixes, by their external names: folded when their arguments are constant,
// or replaced by the IR's own memory operations when their size is (gcc's
// builtins folding, gimple-fold.cc; LLVM's SimplifyLibCalls).
//
// Which calls: a `call` whose callee is `symaddr NAME`, where NAME is an
// extern function of the module header (the module neither defines it nor
// aliases it; a weak reference is left alone: it may be null), the extern's
// signature, when it has one, is the C library's, and the call passes the
// library's argument types and takes its result type. A module that defines
// memcpy, strlen, ... itself has no such extern, so its calls keep calling
// its own function (as loop-idiom's memset rule). The names are the standard
// C library's, whose meaning a hosted implementation may assume (C11 7.1.3:
// a program may not define them with external linkage); as gcc's default
// hosted mode does. -fno-builtin and -ffreestanding reach clang in c2ast
// but nothing of them reaches sonopt: under them this pass still assumes
// the library's meaning (as gcc's own loop distribution does under
// -ffreestanding: it emits memset calls).
//
// Rewrites, each on one call, with its memory input M and control c:
//  - strlen(s), s the address of a byte of a read-only data item (a
//    `symaddr` plus constant offsets) defined here, not weak, holding a NUL
//    at or after s inside the item, with no relocation among the bytes read:
//    the length, a constant. (load-forward's rule for loads from read-only
//    data: no other definition can replace a non-weak item's bytes, and a
//    store to them is undefined.)
//  - strcmp(a, b), strncmp(a, b, n) with n constant, memcmp(a, b, n) with n
//    constant, over such bytes: -1, 0 or 1 by the first differing byte as
//    unsigned char (C specifies only the sign; glibc's own result may be any
//    value of that sign, and gcc folds to -1/0/1 too, so only the sign may
//    be relied on either way). Every byte compared must be known: strcmp
//    compares up to the first difference or the first NUL; memcmp reads all
//    n bytes of both objects (n = 0 gives 0 without reading).
//  - abs(x), labs(x), llabs(x) with x a constant other than the type's
//    minimum (whose absolute value is undefined: the call stays).
//  - memcpy(d, s, n), memmove(d, s, n), n a constant up to kMaxInlineBytes:
//    `copy n, 1` from s to d reading M (the IR's copy is a memmove: every
//    byte is read before any is written, son-lower-x64's inline copy; so it
//    is exact for memmove's overlapping ranges, and memcpy's are undefined).
//    split-copy then makes a copy between two private slots per-field loads
//    and stores that scalar-replace takes. n = 0 writes nothing: M.
//  - memset(d, c, n), c and n constants, n up to kMaxInlineBytes: stores of
//    the byte (unsigned char)c repeated, in pieces of 8, 4, 2 and 1 bytes in
//    increasing address order, chained from M.
// The call's value proj (the result) becomes the constant, or d for the
// memory functions (they return their first argument); its memory proj
// becomes M (the folds: a read-only object cannot change, writing one is
// undefined) or the last new memory node; the call goes.
// Invariants needed: the son contract. Kept: the son contract (the new
// copy and stores are pinned at the call's control, in the memory chain in
// the call's place; a folded call's memory users read M, which dominates
// them).
#include <algorithm>
#include <optional>
#include <string_view>

#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr uint64_t kMaxInlineBytes = 32;
constexpr uint64_t kMaxScan = 4096;  // bytes of a string or buffer read while folding

enum class Lib { Strlen, Strcmp, Strncmp, Memcmp, Abs, Labs, Llabs, Memcpy, Memmove, Memset };

struct LibFunction {
  std::string_view name;
  Lib kind;
  std::vector<std::string> params;
  std::string result;
};

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
  };
  return table;
}

// The library function a call calls, when the header makes it one (see the
// header comment), else null.
const LibFunction* library_callee(const Graph& g, NodeId call, const ModuleHeader& header) {
  const Node& nd = g.node(call);
  if (nd.inputs.size() < 2 || g.op(nd.inputs[1]) != Op::SymAddr || nd.literals.size() != 1) return nullptr;
  std::string_view name = g.node(nd.inputs[1]).literals[0].as_string();
  const LibFunction* lib = nullptr;
  for (const LibFunction& f : library())
    if (f.name == name) lib = &f;
  if (!lib) return nullptr;
  auto e = std::find_if(header.externs.begin(), header.externs.end(), [&](const Extern& x) { return x.name == name; });
  if (e == header.externs.end() || e->kind != ExternKind::Function || e->attrs.weak || !e->attrs.alias.empty())
    return nullptr;
  if (e->signature && (e->signature->variadic || e->signature->params != lib->params || e->signature->result != lib->result))
    return nullptr;
  if (nd.literals[0].as_string() != lib->result || nd.inputs.size() != 2 + lib->params.size()) return nullptr;
  return lib;
}

// A place in a read-only data item defined here: the item and an offset.
struct ConstBytes {
  const DataItem* item = nullptr;
  uint64_t offset = 0;
  // The byte at offset + i, when it is inside the item and no relocation
  // covers it.
  std::optional<uint8_t> at(uint64_t i) const {
    uint64_t pos = offset + i;
    if (pos < offset || pos >= item->size) return std::nullopt;
    for (const Reloc& r : item->relocs)
      if (pos >= r.offset && pos < r.offset + 8) return std::nullopt;
    return pos < item->init.size() ? static_cast<uint8_t>(item->init[pos]) : uint8_t{0};
  }
};

// The read-only bytes address `a` points to: `symaddr` of a non-weak
// read-only data item defined here, plus constant offsets.
std::optional<ConstBytes> const_bytes(const Graph& g, NodeId a, const ModuleHeader& header) {
  uint64_t offset = 0;
  for (int depth = 0; depth < 16 && g.op(a) == Op::Add; ++depth) {
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

// The sign of the first difference of a and b over at most n bytes
// (stopping after a NUL both share when `strings`), or nullopt when a byte
// it needs is not known.
std::optional<int> compare(const ConstBytes& a, const ConstBytes& b, uint64_t n, bool strings) {
  for (uint64_t i = 0; i < n; ++i) {
    if (i >= kMaxScan) return std::nullopt;
    auto x = a.at(i), y = b.at(i);
    if (!x || !y) return std::nullopt;
    if (*x != *y) return *x < *y ? -1 : 1;
    if (strings && *x == 0) return 0;
  }
  return 0;
}

class Rewriter {
 public:
  Rewriter(Graph& g, const ModuleHeader& header) : g_(g), header_(header) {}

  bool rewrite(NodeId call) {
    const LibFunction* lib = library_callee(g_, call, header_);
    if (!lib) return false;
    switch (lib->kind) {
      case Lib::Strlen: return fold_strlen(call);
      case Lib::Strcmp: case Lib::Strncmp: case Lib::Memcmp: return fold_compare(call, lib->kind);
      case Lib::Abs: case Lib::Labs: case Lib::Llabs: return fold_abs(call, lib->kind == Lib::Abs);
      case Lib::Memcpy: case Lib::Memmove: return inline_copy(call);
      case Lib::Memset: return inline_set(call);
    }
    return false;
  }

 private:
  NodeId arg(NodeId call, size_t i) const { return g_.node(call).inputs[2 + i]; }

  std::optional<uint64_t> constant(NodeId n) const {
    if (!g_.is_const(n)) return std::nullopt;
    return g_.const_value_of(n);
  }

  bool fold_strlen(NodeId call) {
    auto s = const_bytes(g_, arg(call, 0), header_);
    if (!s) return false;
    for (uint64_t i = 0; i < kMaxScan; ++i) {
      auto b = s->at(i);
      if (!b) return false;
      if (*b == 0) {
        replace(call, g_.add_const(ValueType::I64, i, g_.node(call).loc), g_.node(call).inputs[0]);
        return true;
      }
    }
    return false;
  }

  bool fold_compare(NodeId call, Lib kind) {
    uint64_t n = ~uint64_t{0};
    if (kind != Lib::Strcmp) {
      auto c = constant(arg(call, 2));
      if (!c) return false;
      n = *c;
    }
    std::optional<int> sign;
    if (n == 0) {
      sign = 0;
    } else {
      auto a = const_bytes(g_, arg(call, 0), header_), b = const_bytes(g_, arg(call, 1), header_);
      if (!a || !b) return false;
      if (kind == Lib::Memcmp) {
        // memcmp may read all n bytes of both: each must be in its object.
        if (n > kMaxScan || !a->at(n - 1) || !b->at(n - 1)) return false;
      }
      sign = compare(*a, *b, n, kind != Lib::Memcmp);
    }
    if (!sign) return false;
    replace(call, g_.add_const(ValueType::I32, static_cast<uint64_t>(static_cast<int64_t>(*sign)) & 0xffffffffu,
                               g_.node(call).loc),
            g_.node(call).inputs[0]);
    return true;
  }

  bool fold_abs(NodeId call, bool is_int) {
    auto c = constant(arg(call, 0));
    if (!c) return false;
    uint64_t r;
    if (is_int) {
      int32_t x = static_cast<int32_t>(static_cast<uint32_t>(*c));
      if (x == INT32_MIN) return false;
      r = static_cast<uint32_t>(x < 0 ? -x : x);
    } else {
      int64_t x = static_cast<int64_t>(*c);
      if (x == INT64_MIN) return false;
      r = static_cast<uint64_t>(x < 0 ? -x : x);
    }
    replace(call, g_.add_const(is_int ? ValueType::I32 : ValueType::I64, r, g_.node(call).loc),
            g_.node(call).inputs[0]);
    return true;
  }

  bool inline_copy(NodeId call) {
    auto n = constant(arg(call, 2));
    if (!n || *n > kMaxInlineBytes) return false;
    const Node nd = g_.node(call);
    NodeId mem = nd.inputs[0];
    if (*n > 0)
      mem = g_.add_node(Op::Copy, {Literal::integer(static_cast<int64_t>(*n)), Literal::integer(1)},
                        {nd.inputs[0], arg(call, 0), arg(call, 1)}, nd.loc, nd.control);
    replace(call, arg(call, 0), mem);
    return true;
  }

  bool inline_set(NodeId call) {
    auto n = constant(arg(call, 2));
    auto c = constant(arg(call, 1));
    if (!n || !c || *n > kMaxInlineBytes) return false;
    const Node nd = g_.node(call);
    const uint64_t byte = *c & 0xff;
    NodeId mem = nd.inputs[0];
    NodeId dst = arg(call, 0);
    for (uint64_t pos = 0; pos < *n;) {
      uint64_t piece = 8;
      while (piece > *n - pos) piece /= 2;
      ValueType t = piece == 8 ? ValueType::I64 : piece == 4 ? ValueType::I32 : piece == 2 ? ValueType::I16 : ValueType::I8;
      uint64_t value = 0;
      for (uint64_t i = 0; i < piece; ++i) value |= byte << (8 * i);
      NodeId addr = dst;
      if (pos > 0)
        addr = g_.add_node(Op::Add, {Literal::string("ptr")}, {dst, g_.add_const(ValueType::I64, pos, nd.loc)}, nd.loc);
      mem = g_.add_node(Op::Store, {Literal::string(value_type_name(t))}, {mem, addr, g_.add_const(t, value, nd.loc)},
                        nd.loc, nd.control);
      pos += piece;
    }
    replace(call, dst, mem);
    return true;
  }

  // The call's result proj's users read `value`, its memory proj's `mem`;
  // the call goes, and its inputs nothing else reads.
  void replace(NodeId call, NodeId value, NodeId mem) {
    for (NodeId p; (p = g_.proj(call, 1)) != kNone;) {
      g_.replace_uses(p, value);
      g_.kill(p);
    }
    for (NodeId p; (p = g_.proj(call, 0)) != kNone;) {
      g_.replace_uses(p, mem);
      g_.kill(p);
    }
    std::vector<NodeId> inputs(g_.node(call).inputs.begin() + 1, g_.node(call).inputs.end());
    g_.kill(call);
    for (NodeId in : inputs) g_.kill_if_unused(in);
  }

  Graph& g_;
  const ModuleHeader& header_;
};

bool names_library_function(const ModuleHeader& header) {
  for (const Extern& e : header.externs)
    for (const LibFunction& f : library())
      if (e.name == f.name) return true;
  return false;
}

}  // namespace

size_t libcalls(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  if (!names_library_function(header) || !has_op(fn, Op::Call)) return 0;
  Graph g(fn, cache);
  size_t changes = 0;
  const NodeId size = g.size();
  for (NodeId n = 0; n < size; ++n)
    if (g.alive(n) && g.op(n) == Op::Call && Rewriter(g, header).rewrite(n)) ++changes;
  if (changes) g.finish();
  return changes;
}

}  // namespace pl::sonopt
