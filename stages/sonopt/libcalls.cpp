// libcalls.cpp - calls to C library functions whose meaning the C standard
// fixes, by their external names: folded when their arguments are constant,
// or replaced by the IR's own memory operations when their size is (gcc's
// builtins folding, gimple-fold.cc; LLVM's SimplifyLibCalls).
//
// Which calls: those library.h's library_callee names: an extern function
// of the library's signature, not defined here, not weak, not `nobuiltin`,
// called from a function not marked `nobuiltin` (c2ast marks every function
// under -fno-builtin and -ffreestanding, and the externs -fno-builtin-NAME
// names: then nothing here happens, as under gcc).
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
//  - strchr(s, c), strrchr(s, c), s a constant string, c a constant: s plus
//    the index of the first (last) byte (unsigned char)c among the string's
//    bytes and its NUL, or the null pointer; memchr(s, c, n), n constant:
//    the first such byte among n, every byte up to it known (all n when
//    none matches).
//  - strcpy(d, s), stpcpy(d, s), s a constant string of length L with
//    L + 1 up to kMaxInlineBytes: `copy L+1, 1`, result d (d + L for
//    stpcpy); strcat(d, ""): d, nothing written (gcc folds these; a longer
//    strcat would need strlen(d)).
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

#include "library.h"
#include "passes.h"

namespace pl::sonopt {

namespace {

constexpr uint64_t kMaxInlineBytes = 32;
constexpr uint64_t kMaxScan = 4096;  // bytes of a string or buffer read while folding

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
    const LibFunction* lib = library_callee(g_, call, header_, g_.function().attrs);
    if (!lib) return false;
    switch (lib->kind) {
      case Lib::Strlen: return fold_strlen(call);
      case Lib::Strcmp: case Lib::Strncmp: case Lib::Memcmp: return fold_compare(call, lib->kind);
      case Lib::Abs: case Lib::Labs: case Lib::Llabs: return fold_abs(call, lib->kind == Lib::Abs);
      case Lib::Memcpy: case Lib::Memmove: return inline_copy(call);
      case Lib::Memset: return inline_set(call);
      case Lib::Strchr: case Lib::Strrchr: case Lib::Memchr: return fold_search(call, lib->kind);
      case Lib::Strcpy: case Lib::Stpcpy: return inline_strcpy(call, lib->kind == Lib::Stpcpy);
      case Lib::Strcat: return fold_strcat(call);
      default: return false;
    }
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

  bool fold_search(NodeId call, Lib kind) {
    auto s = const_bytes(g_, arg(call, 0), header_);
    auto c = constant(arg(call, 1));
    if (!s || !c) return false;
    const uint8_t byte = *c & 0xff;
    std::optional<uint64_t> found;
    if (kind == Lib::Memchr) {
      auto n = constant(arg(call, 2));
      if (!n) return false;
      for (uint64_t i = 0; i < *n && !found; ++i) {
        auto b = s->at(i);
        if (i >= kMaxScan || !b) return false;
        if (*b == byte) found = i;
      }
    } else {
      for (uint64_t i = 0;; ++i) {
        auto b = s->at(i);
        if (i >= kMaxScan || !b) return false;
        if (*b == byte) {
          found = i;
          if (kind == Lib::Strchr) break;
        }
        if (*b == 0) break;
      }
    }
    const Loc loc = g_.node(call).loc;
    NodeId value = !found     ? g_.add_const(ValueType::Ptr, 0, loc)
                   : *found == 0 ? arg(call, 0)
                                 : g_.add_node(Op::Add, {Literal::string("ptr")},
                                               {arg(call, 0), g_.add_const(ValueType::I64, *found, loc)}, loc);
    replace(call, value, g_.node(call).inputs[0]);
    return true;
  }

  bool inline_strcpy(NodeId call, bool stpcpy) {
    auto s = const_bytes(g_, arg(call, 1), header_);
    if (!s) return false;
    auto text = s->string(kMaxInlineBytes);
    if (!text || text->size() + 1 > kMaxInlineBytes) return false;
    const Node nd = g_.node(call);
    const uint64_t n = text->size() + 1;
    NodeId mem = g_.add_node(Op::Copy, {Literal::integer(static_cast<int64_t>(n)), Literal::integer(1)},
                             {nd.inputs[0], arg(call, 0), arg(call, 1)}, nd.loc, nd.control);
    NodeId value = arg(call, 0);
    if (stpcpy)
      value = g_.add_node(Op::Add, {Literal::string("ptr")}, {value, g_.add_const(ValueType::I64, n - 1, nd.loc)},
                          nd.loc);
    replace(call, value, mem);
    return true;
  }

  bool fold_strcat(NodeId call) {
    auto s = const_bytes(g_, arg(call, 1), header_);
    if (!s || s->at(0) != uint8_t{0}) return false;
    replace(call, arg(call, 0), g_.node(call).inputs[0]);
    return true;
  }

  // The call's result proj's users read `value`, its memory proj's `mem`;
  // the call goes, and its inputs nothing else reads.
  void replace(NodeId call, NodeId value, NodeId mem) {
    g_.replace_call(call, value, mem);
  }

  Graph& g_;
  const ModuleHeader& header_;
};

}  // namespace

size_t libcalls(Function& fn, const ModuleHeader& header, FunctionCache& cache) {
  if (!mentions_library_function(header, {Lib::Strlen, Lib::Strcmp, Lib::Strncmp, Lib::Memcmp, Lib::Abs, Lib::Labs,
                                          Lib::Llabs, Lib::Memcpy, Lib::Memmove, Lib::Memset, Lib::Strcpy, Lib::Stpcpy,
                                          Lib::Strcat, Lib::Strchr, Lib::Strrchr, Lib::Memchr}) || !has_op(fn, Op::Call)) return 0;
  Graph g(fn, cache);
  size_t changes = 0;
  const NodeId size = g.size();
  for (NodeId n = 0; n < size; ++n)
    if (g.alive(n) && g.op(n) == Op::Call && Rewriter(g, header).rewrite(n)) ++changes;
  if (changes) g.finish();
  return changes;
}

}  // namespace pl::sonopt
