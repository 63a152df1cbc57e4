// libc.cpp - pipe-run's own small C library, called by name.
//
// An extern function whose name is in PIPE_RUN_BUILTINS (run.h) runs here;
// calling any other extern is a runtime error. Arguments arrive as 64-bit
// values in the interpreter's representation; each function reads the bits
// its C prototype gives them (an `int` is the low 32 bits, a size_t all 64).
// Every pointer goes through Memory, so a bad pointer passed to memcpy is
// reported like a bad load. Results follow glibc on x86-64 where programs can
// see them: strcmp/memcmp return the difference of the first differing
// bytes, puts returns the bytes written, printf the length of its text.
//
// vprintf, vfprintf, vsprintf and vsnprintf read their arguments from a
// System V va_list (va_list_remaining): the one va_start makes at the
// generic levels (pipe-run's own overflow area) or at the x64 levels (the
// register save area and the stack arguments), or one gcc's code made.
//
// Numbers: strtod, strtof and atof, and the libm functions of PIPE_RUN_MATH
// (math.cpp), by the host's C library, so that results are the native ones;
// libgcc's complex multiply and divide and libm's complex functions of
// PIPE_RUN_COMPLEX likewise (complex_math.cpp).
//
// Streams: the data externs stdin/stdout/stderr hold pointers to three FILE
// allocations (program.cpp); fprintf, fputs, fputc, putc and fflush accept
// stdout and stderr. stdout is buffered until exit, fflush or a pipe-run
// diagnostic; stderr is written at once, as with a native program whose
// stdout is a pipe.
//
// Undefined behaviour it reports: overlapping memcpy, calloc/realloc/free of
// pointers malloc did not return, double free, strings without a NUL inside
// their allocation (via Memory). abort() and a failed assert() end the
// program with SIGABRT, like the native one.
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "run.h"

namespace pl::run {

namespace {

struct BuiltinInfo {
  Builtin id;
  std::string_view name;
  uint32_t min_args;
};

constexpr BuiltinInfo kBuiltins[] = {
#define PIPE_RUN_INFO(e, name, min_args) {Builtin::e, name, min_args},
    PIPE_RUN_BUILTINS(PIPE_RUN_INFO)
#undef PIPE_RUN_INFO
};

const BuiltinInfo& info(Builtin b) { return kBuiltins[static_cast<size_t>(b)]; }

void write_fd(int fd, std::string_view bytes, bool& failed) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failed = true;
      return;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

int32_t as_int(uint64_t v) { return static_cast<int32_t>(sign_extend(v, 32)); }

// atoi/atol: optional blanks, a sign, decimal digits; wraps around like the
// host's (undefined) overflow does.
uint64_t parse_decimal(const std::string& s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) ++i;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  uint64_t v = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  return negative ? uint64_t{0} - v : v;
}

uint64_t load64(const Memory& mem, uint64_t p) {
  uint64_t v;
  std::memcpy(&v, mem.at(p, 8, Access::Read), 8);
  return v;
}

uint32_t load32(const Memory& mem, uint64_t p) {
  uint32_t v;
  std::memcpy(&v, mem.at(p, 4, Access::Read), 4);
  return v;
}

// snprintf's output: at most size - 1 bytes of s and a NUL.
void write_bounded(Memory& mem, uint64_t dst, uint64_t size, const std::string& s) {
  if (size == 0) return;
  uint64_t n = std::min<uint64_t>(size - 1, s.size());
  uint8_t* d = mem.at(dst, n + 1, Access::Write);
  std::memcpy(d, s.data(), n);
  d[n] = 0;
}

}  // namespace

namespace {

// The next 8-byte argument of the va_list at `ap` from the register save
// area while the offset at `ap + field` is below `limit` (it then advances
// by `step`), else from the overflow area (which then advances by 8).
uint64_t va_list_take(Memory& mem, uint64_t ap, uint64_t field, uint32_t limit, uint32_t step) {
  uint32_t offset = load32(mem, ap + field);
  if (offset < limit) {
    uint64_t v = load64(mem, load64(mem, ap + 16) + offset);
    offset += step;
    std::memcpy(mem.at(ap + field, 4, Access::Write), &offset, 4);
    return v;
  }
  uint64_t area = load64(mem, ap + 8);
  uint64_t v = load64(mem, area);
  area += 8;
  std::memcpy(mem.at(ap + 8, 8, Access::Write), &area, 8);
  return v;
}

}  // namespace

uint64_t va_list_next(Memory& mem, uint64_t ap) { return va_list_take(mem, ap, 0, kVaGpLimit, 8); }

uint64_t va_list_next_float(Memory& mem, uint64_t ap) { return va_list_take(mem, ap, 4, kVaFpStart, 16); }

std::vector<uint64_t> va_list_remaining(const Memory& mem, uint64_t ap) {
  std::vector<uint64_t> args;
  uint64_t reg_save = load64(mem, ap + 16);
  for (uint32_t gp = load32(mem, ap); gp < kVaGpLimit; gp += 8) args.push_back(load64(mem, reg_save + gp));
  uint64_t area = load64(mem, ap + 8);
  uint32_t id = pointer_id(area);
  if (!mem.valid_id(id) || mem.get(id).state != AllocState::Live) return args;
  for (int64_t off = pointer_offset(area); off >= 0 && static_cast<uint64_t>(off) + 8 <= mem.get(id).size; off += 8)
    args.push_back(load64(mem, make_pointer(id, off)));
  return args;
}

// The floating arguments left in a va_list's register save area (fp_offset
// up to 176), for the vprintf family: with them format_printf reads a
// double from the xmm part first, then from the shared overflow words after
// the general registers' (`gpr` of them), as a variadic callee does.
VaListFloats va_list_floats(const Memory& mem, uint64_t ap) {
  VaListFloats r;
  uint32_t gp = load32(mem, ap), fp = load32(mem, ap + 4);
  r.gpr = gp < kVaGpLimit ? (kVaGpLimit - gp) / 8 : 0;
  uint64_t reg_save = load64(mem, ap + 16);
  for (; fp < kVaFpStart; fp += 16) r.xmm.push_back(load64(mem, reg_save + fp));
  return r;
}

Builtin find_builtin(std::string_view name) {
  for (const BuiltinInfo& b : kBuiltins)
    if (b.name == name) return b.id;
  return Builtin::Unknown;
}

std::string_view builtin_name(Builtin b) { return b == Builtin::Unknown ? "?" : info(b).name; }

void Output::out(std::string_view bytes) {
  buffer_.append(bytes);
  if (buffer_.size() >= (size_t{1} << 16)) flush();
}

void Output::err(std::string_view bytes) { write_fd(2, bytes, failed_); }

void Output::flush() {
  write_fd(1, buffer_, failed_);
  buffer_.clear();
}

int Libc::stream_of(uint64_t file, std::string_view who) const {
  if (file == files_[1]) return 1;
  if (file == files_[2]) return 2;
  throw RuntimeError(std::string(who) + ": the stream is not stdout or stderr" +
                     (file == files_[0] ? " (it is stdin)" : ""));
}

void Libc::write_stream(int stream, std::string_view text) {
  if (stream == 1) out_.out(text);
  else out_.err(text);
}

// strtod, strtof, atof by the host's strtod/strtof (the same rounding and
// the same syntax: hex floats, inf, nan(...)); strtod's end pointer points
// into the program's string.
uint64_t Libc::parse_float(Builtin b, std::span<const uint64_t> a) {
  std::string s = mem_.read_string(a[0]);
  char* end = nullptr;
  uint64_t bits;
  if (b == Builtin::Strtof) {
    bits = std::bit_cast<uint32_t>(std::strtof(s.c_str(), &end));
  } else {
    bits = std::bit_cast<uint64_t>(std::strtod(s.c_str(), &end));
  }
  if (b != Builtin::Atof && a[1] != 0) {
    uint64_t at = a[0] + static_cast<uint64_t>(end - s.c_str());
    std::memcpy(mem_.at(a[1], 8, Access::Write), &at, 8);
  }
  return bits;
}

uint64_t Libc::copy_string(uint64_t dst, uint64_t src) {
  std::string s = mem_.read_string(src);
  uint8_t* d = mem_.at(dst, s.size() + 1, Access::Write);
  std::memcpy(d, s.c_str(), s.size() + 1);
  return dst;
}

uint64_t Libc::call(Builtin b, std::span<const uint64_t> a, uint32_t fn, uint32_t node) {
  const BuiltinInfo& bi = info(b);
  // Floating arguments of an x64-level call (set_x64_float_args), seen
  // from the variadic part that starts after `fixed` arguments.
  X64FloatArgs fp;
  bool has_fp = x64_float_;
  size_t gpr = x64_gpr_;
  if (has_fp) fp.xmm = x64_xmm_;
  x64_float_ = false;
  bool x64_call = x64_call_;
  x64_call_ = false;
  if (x64_call && !has_fp) gpr = x64_call_gpr_;
  // A va_list's floating arguments (the vprintf family).
  VaListFloats kept;
  X64FloatArgs from_list;
  auto va_floats = [&](uint64_t ap) -> const X64FloatArgs* {
    kept = va_list_floats(mem_, ap);
    from_list.gpr = kept.gpr;
    from_list.xmm = kept.xmm;
    from_list.stack_odd = (pointer_offset(load64(mem_, ap + 8)) & 8) != 0;
    return &from_list;
  };
  // A direct x64-level call: integers overflow to the stack only after the
  // six registers, doubles after the eight xmm ones (the outgoing area's
  // words, at offset 0 of their slot: 16-aligned).
  auto floats = [&](size_t fixed) -> const X64FloatArgs* {
    if (!has_fp && !x64_call) return nullptr;
    fp.gpr = gpr > fixed ? gpr - fixed : 0;
    fp.int_overflow = gpr == x64::kArgRegs.size();
    fp.float_overflow = fp.xmm.size() == x64::kXmmArgRegs.size();
    return &fp;
  };
  if (takes_stack_arguments(b)) return call_complex_x87(b, a, x64_call || has_fp, gpr);
  if (is_complex_builtin(b)) return call_complex(b, a, has_fp ? &fp.xmm : nullptr);
  // libm: at an x64 level its floating arguments came in xmm registers
  // (ldexp's int in a general one); elsewhere every argument is in `a`.
  if (has_fp) {
    std::vector<uint64_t> math_args(fp.xmm.begin(), fp.xmm.end());
    if (b == Builtin::Ldexp && !a.empty()) math_args.push_back(a[0]);
    if (math_args.size() >= bi.min_args)
      if (std::optional<uint64_t> math = call_math(b, math_args)) return *math;
  }
  if (a.size() < bi.min_args)
    throw RuntimeError(std::string(bi.name) + " takes " + std::to_string(bi.min_args) + " argument" +
                       (bi.min_args == 1 ? "" : "s") + ", the call passes " + std::to_string(a.size()));
  if (!has_fp)
    if (std::optional<uint64_t> math = call_math(b, a)) return *math;
  switch (b) {
    case Builtin::Printf: {
      std::string s = format_printf(mem_, a[0], a.subspan(1), "printf", floats(1), x64_call);
      out_.out(s);
      return s.size();
    }
    case Builtin::Fprintf: {
      int stream = stream_of(a[0], "fprintf");
      std::string s = format_printf(mem_, a[1], a.subspan(2), "fprintf", floats(2), x64_call);
      write_stream(stream, s);
      return s.size();
    }
    case Builtin::Sprintf: {
      std::string s = format_printf(mem_, a[1], a.subspan(2), "sprintf", floats(2), x64_call);
      std::memcpy(mem_.at(a[0], s.size() + 1, Access::Write), s.c_str(), s.size() + 1);
      return s.size();
    }
    case Builtin::Snprintf: {
      std::string s = format_printf(mem_, a[2], a.subspan(3), "snprintf", floats(3), x64_call);
      write_bounded(mem_, a[0], a[1], s);
      return s.size();
    }
    case Builtin::Vprintf: {
      std::string s = format_printf(mem_, a[0], va_list_remaining(mem_, a[1]), "vprintf", va_floats(a[1]), x64_call);
      out_.out(s);
      return s.size();
    }
    case Builtin::Vfprintf: {
      int stream = stream_of(a[0], "vfprintf");
      std::string s = format_printf(mem_, a[1], va_list_remaining(mem_, a[2]), "vfprintf", va_floats(a[2]), x64_call);
      write_stream(stream, s);
      return s.size();
    }
    case Builtin::Vsprintf: {
      std::string s = format_printf(mem_, a[1], va_list_remaining(mem_, a[2]), "vsprintf", va_floats(a[2]), x64_call);
      std::memcpy(mem_.at(a[0], s.size() + 1, Access::Write), s.c_str(), s.size() + 1);
      return s.size();
    }
    case Builtin::Vsnprintf: {
      std::string s = format_printf(mem_, a[2], va_list_remaining(mem_, a[3]), "vsnprintf", va_floats(a[3]), x64_call);
      write_bounded(mem_, a[0], a[1], s);
      return s.size();
    }
    case Builtin::Putchar: {
      char c = static_cast<char>(a[0]);
      out_.out(std::string_view(&c, 1));
      return static_cast<uint8_t>(c);
    }
    case Builtin::Puts: {
      std::string s = mem_.read_string(a[0]) + "\n";
      out_.out(s);
      return s.size();
    }
    case Builtin::Fputs: {
      int stream = stream_of(a[1], "fputs");
      write_stream(stream, mem_.read_string(a[0]));
      return 1;
    }
    case Builtin::Fwrite: {  // fwrite(p, size, n, stream): size * n bytes (sonopt's printf-fold makes these)
      int stream = stream_of(a[3], "fwrite");
      if (a[1] != 0 && a[2] > UINT64_MAX / a[1]) throw RuntimeError("fwrite: size * count overflows");
      uint64_t bytes = a[1] * a[2];
      if (bytes == 0) return 0;
      const uint8_t* p = mem_.at(a[0], bytes, Access::Read);
      write_stream(stream, std::string_view(reinterpret_cast<const char*>(p), bytes));
      return a[2];
    }
    case Builtin::Fputc:
    case Builtin::Putc: {
      int stream = stream_of(a[1], bi.name);
      char c = static_cast<char>(a[0]);
      write_stream(stream, std::string_view(&c, 1));
      return static_cast<uint8_t>(c);
    }
    case Builtin::Fflush:
      if (a[0] != 0) stream_of(a[0], "fflush");
      out_.flush();
      return 0;
    case Builtin::Malloc: return mem_.allocate_heap(a[0], fn, node);
    case Builtin::Calloc: {
      uint64_t total = 0;
      if (__builtin_mul_overflow(a[0], a[1], &total)) return 0;  // glibc: NULL on overflow
      return mem_.allocate_heap(total, fn, node);
    }
    case Builtin::Realloc: {
      if (a[0] == 0) return mem_.allocate_heap(a[1], fn, node);
      uint32_t old_size = mem_.heap_block_size(a[0], "realloc");
      if (a[1] == 0) {
        mem_.free_heap(a[0]);
        return 0;
      }
      uint64_t fresh = mem_.allocate_heap(a[1], fn, node);
      uint64_t n = std::min<uint64_t>(old_size, a[1]);
      if (n) std::memcpy(mem_.at(fresh, n, Access::Write), mem_.at(a[0], n, Access::Read), n);
      mem_.free_heap(a[0]);
      return fresh;
    }
    case Builtin::Free: mem_.free_heap(a[0]); return 0;
    case Builtin::Memcpy:
    case Builtin::Memmove: {
      uint64_t n = a[2];
      const uint8_t* src = mem_.at(a[1], n, Access::Read);
      uint8_t* dst = mem_.at(a[0], n, Access::Write);
      if (b == Builtin::Memcpy && dst != src && dst < src + n && src < dst + n)
        throw RuntimeError("memcpy of overlapping ranges (" + std::to_string(n) + " bytes; use memmove)");
      if (n) std::memmove(dst, src, n);
      return a[0];
    }
    case Builtin::Memset: {
      uint8_t* dst = mem_.at(a[0], a[2], Access::Write);
      if (a[2]) std::memset(dst, static_cast<uint8_t>(a[1]), a[2]);
      return a[0];
    }
    case Builtin::Memcmp: {
      const uint8_t* x = mem_.at(a[0], a[2], Access::Read);
      const uint8_t* y = mem_.at(a[1], a[2], Access::Read);
      for (uint64_t i = 0; i < a[2]; ++i)
        if (x[i] != y[i]) return static_cast<uint64_t>(static_cast<int64_t>(x[i]) - y[i]);
      return 0;
    }
    case Builtin::Memchr: {
      const uint8_t* x = mem_.at(a[0], a[2], Access::Read);
      const void* hit = a[2] ? std::memchr(x, static_cast<uint8_t>(a[1]), a[2]) : nullptr;
      return hit ? a[0] + static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - x) : 0;
    }
    case Builtin::Strlen: return mem_.string_length(a[0]);
    case Builtin::Strcmp:
    case Builtin::Strncmp: {
      uint64_t limit = b == Builtin::Strncmp ? a[2] : ~uint64_t{0};
      for (uint64_t i = 0; i < limit; ++i) {
        uint8_t x = *mem_.at(a[0] + i, 1, Access::Read), y = *mem_.at(a[1] + i, 1, Access::Read);
        if (x != y) return static_cast<uint64_t>(static_cast<int64_t>(x) - y);
        if (x == 0) break;
      }
      return 0;
    }
    case Builtin::Strcpy: return copy_string(a[0], a[1]);
    case Builtin::Strncpy: {
      std::string s = mem_.read_string_max(a[1], a[2]);
      uint8_t* d = mem_.at(a[0], a[2], Access::Write);
      if (a[2]) {
        std::memset(d, 0, a[2]);
        std::memcpy(d, s.data(), s.size());
      }
      return a[0];
    }
    case Builtin::Strcat:
      copy_string(a[0] + mem_.string_length(a[0]), a[1]);
      return a[0];
    case Builtin::Strchr:
    case Builtin::Strrchr: {
      std::string s = mem_.read_string(a[0]);
      char c = static_cast<char>(a[1]);
      if (c == 0) return a[0] + s.size();
      size_t at = b == Builtin::Strchr ? s.find(c) : s.rfind(c);
      return at == std::string::npos ? 0 : a[0] + at;
    }
    case Builtin::Abs: {
      int32_t v = as_int(a[0]);
      return truncate_to(static_cast<uint64_t>(v < 0 ? -static_cast<int64_t>(v) : v), 32);
    }
    case Builtin::Labs:
    case Builtin::Llabs: return static_cast<int64_t>(a[0]) < 0 ? uint64_t{0} - a[0] : a[0];
    case Builtin::Atoi:
    case Builtin::Atol:
    case Builtin::Atoll: return parse_decimal(mem_.read_string(a[0]));
    case Builtin::Strtod:
    case Builtin::Strtof:
    case Builtin::Atof: return parse_float(b, a);
#define PIPE_RUN_MATH_CASE(e, name, args) case Builtin::e:
      PIPE_RUN_MATH(PIPE_RUN_MATH_CASE)
      PIPE_RUN_COMPLEX(PIPE_RUN_MATH_CASE)
#undef PIPE_RUN_MATH_CASE
      break;  // call_math and call_complex answered above
#define PIPE_RUN_INT128_CASE(e, name, args) case Builtin::e:
      PIPE_RUN_INT128(PIPE_RUN_INT128_CASE)
#undef PIPE_RUN_INT128_CASE
      return call_int128(b, a);  // the interpreter calls call_int128 itself (int128.cpp)
    case Builtin::Abort: throw ProgramExit{134, true};
    case Builtin::Exit: throw ProgramExit{static_cast<int>(a[0] & 0xFF), false};
    case Builtin::AssertFail: {
      std::string text = name_ + ": " + mem_.read_string(a[1]) + ":" + std::to_string(static_cast<uint32_t>(a[2])) +
                         ": " + mem_.read_string(a[3]) + ": Assertion `" + mem_.read_string(a[0]) + "' failed.\n";
      out_.err(text);
      throw ProgramExit{134, true};
    }
    case Builtin::Unknown: break;
  }
  throw RuntimeError("call to unknown external function");
}

}  // namespace pl::run
