// decimal.h - integers as decimal text (std::to_chars: no locale, no
// allocation), shared by the JSON and printable writers.
#pragma once

#include <charconv>
#include <string>
#include <type_traits>

namespace pl {

template <typename Int>
void append_decimal(std::string& out, Int value) {
  static_assert(std::is_integral_v<Int>);
  char buf[24];  // enough for any 64-bit integer and its sign
  auto result = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, result.ptr);
}

}  // namespace pl
