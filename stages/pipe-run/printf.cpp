// printf.cpp - the printf engine of pipe-run's C library.
//
// Parses the format string from program memory the way C99 7.19.6.1 does -
// flags [-+ #0], width (digits or *), precision (.digits or .*), length
// modifier (hh h l ll z j t) and conversion (d i u x X o c s p f F e E g
// G a A %) - and
// formats each conversion with the host's snprintf and a rebuilt
// specification, so the text is exactly glibc's. Variadic arguments arrive
// as 64-bit values in the interpreter's representation (an i32 is zero-
// extended): the conversion's type picks the bits, e.g. %d reads the low 32
// bits as signed, %hhu the low 8 as unsigned, %ld all 64, %f all 64 as the
// pattern of a double.
//
// Long double (%Lf, %Le, ...): at cfg, ssa and son the address of the
// argument's copy, at the x64 levels its two stack words (X64FloatArgs).
//
// Not supported (runtime errors, not silent garbage): %n,
// wide characters and strings (%lc, %ls), a format that needs
// more arguments than the call passes, widths and precisions above 2^20.
#include <bit>
#include <cstdio>
#include <cstring>

#include "run.h"

namespace pl::run {

namespace {

constexpr int64_t kMaxWidth = int64_t{1} << 20;

enum class Length { None, HH, H, L, LL, Z, J, T, BigL };

struct Spec {
  std::string flags;
  int64_t width = -1;
  int64_t precision = -1;
  Length length = Length::None;
  char conversion = 0;
};

class FormatParser {
 public:
  FormatParser(const Memory& mem, std::string format, std::span<const uint64_t> args, std::string_view who,
               const X64FloatArgs* fp, bool x64_level)
      : mem_(mem), f_(std::move(format)), args_(args), who_(who), fp_(fp), x64_level_(x64_level) {}

  std::string run() {
    while (i_ < f_.size()) {
      size_t percent = f_.find('%', i_);
      if (percent == std::string::npos) percent = f_.size();
      out_.append(f_, i_, percent - i_);
      i_ = percent;
      if (i_ < f_.size()) conversion();
    }
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw RuntimeError(std::string(who_) + ": " + what);
  }

  // An integer argument: the next one (at the x64 levels with floating
  // arguments: the next general register one, then the shared stack words).
  uint64_t next_arg() {
    if (fp_ && next_ >= fp_->gpr) {
      if (!fp_->int_overflow) fail("the format needs more integer arguments than the call passes in registers");
      return next_stack();
    }
    if (next_ >= args_.size())
      fail("the format needs more arguments than the call passes (" + std::to_string(args_.size()) + ")");
    return args_[next_++];
  }
  // A double: in order with the rest, or the next xmm register argument,
  // then the shared stack words.
  uint64_t next_double() {
    if (!fp_) return next_arg();
    if (next_xmm_ < fp_->xmm.size()) return fp_->xmm[next_xmm_++];
    if (!fp_->float_overflow) fail("the format needs more floating arguments than the call passes in registers");
    return next_stack();
  }
  // A long double at the x64 levels: always on the stack, in the next
  // 16-aligned pair of words (its 10 bytes, then padding).
  long double next_long_double_on_stack() {
    if ((next_stack_ + (fp_->stack_odd ? 1 : 0)) % 2) ++next_stack_;
    uint64_t lo = next_stack(), hi = next_stack();
    unsigned char bytes[10];
    std::memcpy(bytes, &lo, 8);
    std::memcpy(bytes + 8, &hi, 2);
    long double v = 0;
    std::memcpy(&v, bytes, 10);
    return v;
  }
  uint64_t next_stack() {
    size_t at = fp_->gpr + next_stack_;
    if (at >= args_.size()) fail("the format needs more arguments than the call passes");
    ++next_stack_;
    return args_[at];
  }

  int64_t number() {
    int64_t v = 0;
    while (i_ < f_.size() && f_[i_] >= '0' && f_[i_] <= '9') {
      v = v * 10 + (f_[i_++] - '0');
      if (v > kMaxWidth) fail("width or precision larger than " + std::to_string(kMaxWidth));
    }
    return v;
  }

  Spec parse_spec() {
    Spec s;
    ++i_;  // '%'
    while (i_ < f_.size() && f_[i_] != '\0' && std::strchr("-+ #0", f_[i_])) s.flags += f_[i_++];
    if (i_ < f_.size() && f_[i_] == '*') {
      ++i_;
      int64_t w = sign_extend(next_arg(), 32);
      if (w < 0) s.flags += '-', w = -w;
      if (w > kMaxWidth) fail("width larger than " + std::to_string(kMaxWidth));
      s.width = w;
    } else if (i_ < f_.size() && f_[i_] >= '0' && f_[i_] <= '9') {
      s.width = number();
    }
    if (i_ < f_.size() && f_[i_] == '.') {
      ++i_;
      if (i_ < f_.size() && f_[i_] == '*') {
        ++i_;
        int64_t p = sign_extend(next_arg(), 32);
        if (p > kMaxWidth) fail("precision larger than " + std::to_string(kMaxWidth));
        s.precision = p < 0 ? -1 : p;
      } else {
        s.precision = number();
      }
    }
    s.length = parse_length();
    if (i_ >= f_.size()) fail("the format ends inside a conversion");
    s.conversion = f_[i_++];
    return s;
  }

  Length parse_length() {
    auto take = [&](char c) {
      if (i_ < f_.size() && f_[i_] == c) return ++i_, true;
      return false;
    };
    if (take('h')) return take('h') ? Length::HH : Length::H;
    if (take('l')) return take('l') ? Length::LL : Length::L;
    if (take('z')) return Length::Z;
    if (take('j')) return Length::J;
    if (take('t')) return Length::T;
    if (take('L')) return Length::BigL;
    return Length::None;
  }

  // The specification for the host's snprintf: flags, width, precision,
  // then `tail` (length and conversion).
  std::string host_spec(const Spec& s, const char* tail, bool precision = true) const {
    std::string spec = "%" + s.flags;
    if (s.width >= 0) spec += std::to_string(s.width);
    if (precision && s.precision >= 0) spec += "." + std::to_string(s.precision);
    return spec + tail;
  }

  template <typename T>
  void host_format(const std::string& spec, T value) {
    int n = std::snprintf(nullptr, 0, spec.c_str(), value);
    if (n < 0) fail("cannot format '" + spec + "'");
    std::string text(static_cast<size_t>(n) + 1, '\0');
    std::snprintf(text.data(), text.size(), spec.c_str(), value);
    text.pop_back();
    out_ += text;
  }

  static unsigned length_bits(Length l) {
    switch (l) {
      case Length::HH: return 8;
      case Length::H: return 16;
      case Length::None: return 32;
      default: return 64;
    }
  }

  void conversion() {
    Spec s = parse_spec();
    char conv[2] = {s.conversion, '\0'};
    switch (s.conversion) {
      case '%': out_ += '%'; return;
      case 'd':
      case 'i': {
        if (s.length == Length::BigL) fail("%L applies to floating-point conversions, which are not supported");
        auto v = static_cast<long long>(sign_extend(next_arg(), length_bits(s.length)));
        host_format(host_spec(s, "lld"), v);
        return;
      }
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        if (s.length == Length::BigL) fail("%L applies to floating-point conversions, which are not supported");
        auto v = static_cast<unsigned long long>(truncate_to(next_arg(), length_bits(s.length)));
        host_format(host_spec(s, (std::string("ll") + conv).c_str()), v);
        return;
      }
      case 'c':
        if (s.length != Length::None) fail("wide characters (%lc) are not supported");
        host_format(host_spec(s, "c", false), static_cast<int>(static_cast<unsigned char>(next_arg())));
        return;
      case 's': {
        if (s.length != Length::None) fail("wide strings (%ls) are not supported");
        uint64_t p = next_arg();
        std::string text;
        if (p == 0) text = s.precision < 0 || s.precision >= 6 ? "(null)" : "";
        else text = s.precision >= 0 ? mem_.read_string_max(p, static_cast<uint64_t>(s.precision)) : mem_.read_string(p);
        host_format(host_spec(s, "s", false), text.c_str());
        return;
      }
      case 'p':
        host_format(host_spec(s, "p", false), reinterpret_cast<void*>(static_cast<uintptr_t>(next_arg())));
        return;
      case 'n': fail("%n is not supported");
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        // A double (a float argument arrives promoted): its bits, printed by
        // the host's snprintf, so the text is glibc's.
        if (s.length == Length::BigL) {
          // At cfg, ssa and son a long double travels as the address of its
          // 16-byte copy (byval); at the x64 levels in the caller's stack
          // words (System V: class MEMORY). Its 10 bytes, printed by the
          // host's snprintf as glibc prints them.
          if (x64_level_ && !fp_) fail(std::string("%L") + conv + " at the x64 levels without the call's stack words");
          long double v = 0;
          if (x64_level_) v = next_long_double_on_stack();
          else std::memcpy(&v, mem_.at(next_arg(), 10, Access::Read), 10);
          host_format(host_spec(s, (std::string("L") + conv).c_str()), v);
          return;
        }
        if (s.length != Length::None && s.length != Length::L)
          fail(std::string("a length modifier other than l before %") + conv);
        host_format(host_spec(s, conv), std::bit_cast<double>(next_double()));
        return;
      }
      default: fail(std::string("unknown conversion '%") + (s.conversion ? conv : "\\0") + "'");
    }
  }

 private:
  const Memory& mem_;
  std::string f_;
  std::span<const uint64_t> args_;
  std::string_view who_;
  const X64FloatArgs* fp_ = nullptr;
  size_t next_xmm_ = 0, next_stack_ = 0;
  bool x64_level_ = false;
  std::string out_;
  size_t i_ = 0;
  size_t next_ = 0;
};

}  // namespace

std::string format_printf(const Memory& mem, uint64_t fmt, std::span<const uint64_t> args, std::string_view who,
                          const X64FloatArgs* fp, bool x64_level) {
  return FormatParser(mem, mem.read_string(fmt), args, who, fp, x64_level).run();
}

}  // namespace pl::run
