// abi.h - System V ABI attributes on signature parameter types and the
// parameter list a `call` may carry (FORMAT.md section 8, "The ABI in
// signatures and calls").
//
// A parameter type is a value type, optionally followed by one space and an
// attribute; every encoding carries it as this one string, in its one
// canonical spelling (so the three encodings agree byte for byte):
//   i8 signext   i8 zeroext   i16 signext   i16 zeroext
//   ptr byval(SIZE,ALIGN)     ptr sret(SIZE,ALIGN)   (parameter 0 only)
//   ptr byval(SIZE,ALIGN,CLASSES)   ptr sret(SIZE,ALIGN,CLASSES)
// SIZE and ALIGN are decimal without leading zeros (64-bit), ALIGN a power
// of two below 2^32. CLASSES is the aggregate's System V classification
// (classify_aggregate below): one letter per eightbyte, `i` INTEGER, `s`
// SSE, `u` SSEUP (only right after an `s`: the upper half of that xmm
// register), `n` NO_CLASS (padding only: takes no register), for an aggregate of
// up to 16 bytes passed in registers; or `m` alone, MEMORY. It is written
// only where it differs from the default, which is the classification of
// an aggregate without floating-point or misaligned members: all `i` up to
// 16 bytes, `m` above; or `x` alone, X87 (kX87Class below), or `c` alone,
// COMPLEX_X87 (kComplexX87Class below) (so SIZE 0, an empty struct, has no letters and
// travels nowhere). A parameter list is `(T, T, ...)`: the
// types separated by ", ", with `...` last for a variadic callee (`(...)`
// alone when it has no fixed parameter, `()` when it has none at all).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pl {

enum class ParamAttr : uint8_t { None, SignExt, ZeroExt, ByVal, SRet };

struct ParamType {
  std::string value_type;          // i1, i8, i16, i32, i64 or ptr
  ParamAttr attr = ParamAttr::None;
  uint64_t size = 0;               // byval and sret: the aggregate's size
  uint64_t align = 0;              // and alignment
  std::string classes;             // byval and sret: the eightbyte classes (never empty above 0 bytes)
  bool operator==(const ParamType&) const = default;
};

// ---- System V classification of aggregates (ABI section 3.2.3) ------------
//
// An aggregate (struct, union, array) of up to 16 bytes travels in
// registers by the classes of its eightbytes, computed from its scalar
// members as gcc computes them (gcc/config/i386/i386.cc, classify_argument):
//  - above 16 bytes (there are no vector members) the class is MEMORY;
//  - a member at an offset that is not a multiple of its size (a packed
//    struct) makes the whole aggregate MEMORY; bit-fields are exempt;
//  - each eightbyte starts as NO_CLASS and merges the class of every member
//    that overlaps it: a floating member (float, double) is SSE, every other
//    scalar and every bit-field INTEGER; INTEGER wins over SSE, anything
//    wins over NO_CLASS; a 16-byte vector member is SSE for its first
//    eightbyte and SSEUP for its second (SSE wins over SSEUP), and an SSEUP
//    eightbyte not after an SSE or SSEUP one becomes SSE (ABI 3.2.3, post
//    merger cleanup). Nested structs, arrays (element by element) and
//    unions (every member at its offset) are flattened into their scalars
//    by the front end; zero-length arrays contribute nothing.
// An eightbyte no member overlaps (the padding of an over-aligned struct)
// stays NO_CLASS and takes no register.
struct AbiScalar {
  uint64_t bit_offset = 0;  // from the start of the aggregate
  uint64_t bits = 0;        // its width (a bit-field's declared width)
  bool floating = false;    // float or double: SSE
  bool bitfield = false;    // exempt from the alignment rule
  bool vector = false;      // a vector of 8 or 16 bytes: SSE, then SSEUP
};
// SSEUP (`u`): the eightbyte travels in the upper half of the xmm register
// of the SSE eightbyte before it (a 16-byte vector: classes `su`, one
// register); it takes no register of its own.
enum class EightbyteClass : char { NoClass = 'n', Integer = 'i', Sse = 's', SseUp = 'u' };
inline constexpr char kMemoryClass = 'm';
// `x` alone: a 16-byte aggregate whose only member is a long double (or a
// long double itself: c2ast passes long double as an aggregate in memory):
// classes X87 and X87UP, passed in memory like MEMORY, returned in st(0)
// (ABI 3.2.3: the caller stores it with fstpt, the callee loads it with fldt
// before ret; no hidden pointer travels).
inline constexpr char kX87Class = 'x';
inline bool is_x87(std::string_view classes) { return classes == "x"; }
// `c` alone: a `_Complex long double` (32 bytes, 16-aligned; never a struct
// holding one, which is MEMORY), class COMPLEX_X87: passed in memory like
// MEMORY, returned in st(0) (the real part) and st(1) (the imaginary part)
// (ABI 3.2.3: the caller stores both with two fstpt, the callee loads the
// imaginary part then the real part with fldt before ret).
inline constexpr char kComplexX87Class = 'c';
inline bool is_complex_x87(std::string_view classes) { return classes == "c"; }
// The classes string (see the attribute above) of an aggregate of `size`
// bytes with these scalar members.
std::string classify_aggregate(uint64_t size, const std::vector<AbiScalar>& scalars);
// The classes an aggregate has when the attribute omits them.
std::string default_classes(uint64_t size);
// Whether `classes` passes the aggregate in memory.
// (An `x` aggregate is in memory as an argument, in st(0) as a result; a
// `c` one in memory as an argument, in st(0) and st(1) as a result.)
inline bool in_memory(std::string_view classes) { return classes == "m" || classes == "x" || classes == "c"; }
// The number of INTEGER and SSE eightbytes (registers it takes).
size_t count_class(std::string_view classes, EightbyteClass c);

// Parses one parameter type; nullopt (and `*problem` says why) when it is
// not one, whatever its position.
std::optional<ParamType> parse_param_type(std::string_view text, std::string* problem = nullptr);

// "" when `text` is a valid type for parameter `index` (sret only at 0),
// otherwise what is wrong with it, as a sentence fragment quoting the text.
std::string param_type_problem(std::string_view text, size_t index);

// The canonical string of a parameter type.
std::string param_type_string(const ParamType& type);

// The value type a parameter of type `text` carries: the word before the
// attribute (the whole text when it has none).
std::string_view param_value_type(std::string_view text);

// The ABI attribute keyword ("signext", "byval", ...), or "" for None.
std::string_view param_attr_name(ParamAttr attr);

// A call's list may go on after `...` with the types of that call's
// variadic arguments, one per argument: `(ptr, ..., ptr byval(16,8,ss),
// i32)`. c2ast writes them when a variadic argument is an aggregate (its
// byval attribute says how it travels); without them each variadic
// argument travels as its value type.
struct ParamList {
  std::vector<std::string> params;  // canonical parameter types
  bool variadic = false;
  std::vector<std::string> varargs;  // the variadic arguments' types, or none
  bool operator==(const ParamList&) const = default;
};

// Parses a call's parameter list literal; nullopt (and `*problem` says why)
// when it is not one.
std::optional<ParamList> parse_param_list(std::string_view text, std::string* problem = nullptr);

// `(T, T, ...)`, then `, V, V` for the variadic arguments' types.
std::string param_list_string(const std::vector<std::string>& params, bool variadic,
                              const std::vector<std::string>& varargs = {});

}  // namespace pl
