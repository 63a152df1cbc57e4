// abi.h - System V ABI attributes on signature parameter types and the
// parameter list a `call` may carry (FORMAT.md section 8, "The ABI in
// signatures and calls").
//
// A parameter type is a value type, optionally followed by one space and an
// attribute; every encoding carries it as this one string, in its one
// canonical spelling (so the three encodings agree byte for byte):
//   i8 signext   i8 zeroext   i16 signext   i16 zeroext
//   ptr byval(SIZE,ALIGN)     ptr sret(SIZE,ALIGN)   (parameter 0 only)
// SIZE and ALIGN are decimal without leading zeros, SIZE > 0 (64-bit),
// ALIGN a power of two below 2^32. A parameter list is `(T, T, ...)`: the
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
  bool operator==(const ParamType&) const = default;
};

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

struct ParamList {
  std::vector<std::string> params;  // canonical parameter types
  bool variadic = false;
  bool operator==(const ParamList&) const = default;
};

// Parses a call's parameter list literal; nullopt (and `*problem` says why)
// when it is not one.
std::optional<ParamList> parse_param_list(std::string_view text, std::string* problem = nullptr);

// `(T, T, ...)`.
std::string param_list_string(const std::vector<std::string>& params, bool variadic);

}  // namespace pl
