// library.h - the C library functions whose meaning sonopt's passes know
// (libcalls, heap-to-stack, printf-fold), by their external names, and the
// test that says whether a call calls one of them.
//
// A call calls library function F when its callee is `symaddr F.name`, the
// call passes F's argument types and takes its result type (for a variadic
// F, its parameter list literal starts with F's fixed parameters and
// `...`), and
//  - the calling function is not marked `nobuiltin` (c2ast marks every
//    definition under -fno-builtin and -ffreestanding);
//  - F is an extern function of the module header (the module neither
//    defines it nor aliases it; a weak reference is left alone: it may be
//    null), not marked `nobuiltin` (-fno-builtin-NAME), whose signature,
//    when it has one, is the library's. A module that defines memcpy,
//    strlen, ... itself has no such extern, so its calls keep calling its
//    own function;
//  - or F is one of the fortified forms (__printf_chk and friends, which
//    _FORTIFY_SOURCE makes of printf): their names are reserved to the
//    implementation (C11 7.1.3), so a definition of one in the module does
//    not make its calls the module's own (gcc treats them so; c-torture's
//    printf-chk-1 defines __printf_chk and counts the calls gcc keeps).
// The names are the standard C library's, whose meaning a hosted
// implementation may assume (C11 7.1.3: a program may not define them with
// external linkage), as gcc's default hosted mode does.
#pragma once

#include <string_view>
#include <vector>

#include "graph.h"

namespace pl::sonopt {

enum class Lib {
  Strlen, Strcmp, Strncmp, Memcmp, Abs, Labs, Llabs, Memcpy, Memmove, Memset,
  Strcpy, Stpcpy, Strcat, Strchr, Strrchr, Memchr,
  Malloc, Calloc, Free,
  Printf, Vprintf, PrintfChk, VprintfChk, Fprintf, Vfprintf, FprintfChk, VfprintfChk, Sprintf,
  Puts, Putchar, Fputs, Fputc, Fwrite,
};

struct LibFunction {
  std::string_view name;
  Lib kind;
  std::vector<std::string> params;
  std::string result;
  bool variadic = false;
  bool reserved = false;  // a fortified form: its calls are the library's even when the module defines it
};

// Every library function sonopt knows.
const std::vector<LibFunction>& library();
// The entry for `kind`.
const LibFunction& library_function(Lib kind);
// The library function `call` (a `call` node of a function whose attributes
// are `caller`) calls, by the rules of the header comment; else null.
const LibFunction* library_callee(const Graph& g, NodeId call, const ModuleHeader& header,
                                  const SymbolAttrs& caller);
// Whether the header declares one of `kinds` as an extern (a function pass
// with nothing to work on can return before building a Graph), or `kinds`
// holds a reserved (fortified) form.
bool mentions_library_function(const ModuleHeader& header, std::initializer_list<Lib> kinds);

// A place in a read-only data item defined here: the item and an offset.
struct ConstBytes {
  const DataItem* item = nullptr;
  uint64_t offset = 0;
  // The byte at offset + i, when it is inside the item and no relocation
  // covers it.
  std::optional<uint8_t> at(uint64_t i) const;
  // The bytes from offset up to the first NUL (not included), when every
  // one is known and there are at most `limit`.
  std::optional<std::string> string(uint64_t limit) const;
};

// The read-only bytes address `a` points to: `symaddr` of a non-weak
// read-only data item defined here, plus constant offsets. (load-forward's
// rule for loads from read-only data: no other definition can replace a
// non-weak item's bytes, and a store to them is undefined.)
std::optional<ConstBytes> const_bytes(const Graph& g, NodeId a, const ModuleHeader& header);

}  // namespace pl::sonopt
