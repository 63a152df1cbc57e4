// int128.cpp - libgcc's __int128 helpers for interpreted programs.
//
// c2ast lowers __int128 to operations on its 64-bit halves but, as gcc
// does, calls libgcc for division and for the conversions with float and
// double (stages/c2ast/int128.cpp): __divti3, __udivti3, __modti3,
// __umodti3, __floattisf, __floattidf, __floatuntisf, __floatuntidf,
// __fixsfti, __fixdfti, __fixunssfti, __fixunsdfti. pipe-run computes
// them by calling the host's libgcc functions of the same names (pipe-run
// is itself an x86-64 program linked with libgcc), so interpreted results
// are the native ones bit for bit, including the out-of-range float
// conversions C leaves undefined. A zero divisor is a runtime error (the
// native helper would trap).
//
// How the arguments arrive depends on the level, as for any aggregate
// (FORMAT.md section 8): at the generic levels (cfg, ssa, son) an __int128
// argument is the address of its 16 bytes and an __int128 result goes
// through the sret pointer in front of the arguments; at the x64 levels
// each __int128 is two general registers (lo, hi), a float or double an
// xmm register, and an __int128 result is rax:rdx.
#include <bit>
#include <cstring>

#include "run.h"

__extension__ typedef unsigned __int128 u128;  // GCC and clang
__extension__ typedef __int128 i128;

// The host's libgcc (always linked: the C++ compiler's runtime).
extern "C" {
i128 __divti3(i128, i128);
u128 __udivti3(u128, u128);
i128 __modti3(i128, i128);
u128 __umodti3(u128, u128);
float __floattisf(i128);
double __floattidf(i128);
float __floatuntisf(u128);
double __floatuntidf(u128);
i128 __fixsfti(float);
i128 __fixdfti(double);
u128 __fixunssfti(float);
u128 __fixunsdfti(double);
}

namespace pl::run {

namespace {

enum class Shape { Binary, ToFloat, FromFloat };

Shape shape_of(Builtin b) {
  switch (b) {
    case Builtin::Floattisf:
    case Builtin::Floattidf:
    case Builtin::Floatuntisf:
    case Builtin::Floatuntidf: return Shape::ToFloat;
    case Builtin::Fixsfti:
    case Builtin::Fixdfti:
    case Builtin::Fixunssfti:
    case Builtin::Fixunsdfti: return Shape::FromFloat;
    default: return Shape::Binary;
  }
}

u128 make(uint64_t lo, uint64_t hi) { return (static_cast<u128>(hi) << 64) | lo; }
float as_float(uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }
double as_double(uint64_t bits) { return std::bit_cast<double>(bits); }

u128 binary(Builtin b, u128 x, u128 y) {
  if (y == 0) throw RuntimeError(std::string("division by zero in ") + std::string(builtin_name(b)));
  switch (b) {
    case Builtin::Divti3: return static_cast<u128>(__divti3(static_cast<i128>(x), static_cast<i128>(y)));
    case Builtin::Udivti3: return __udivti3(x, y);
    case Builtin::Modti3: return static_cast<u128>(__modti3(static_cast<i128>(x), static_cast<i128>(y)));
    default: return __umodti3(x, y);
  }
}

uint64_t to_float(Builtin b, u128 x) {
  switch (b) {
    case Builtin::Floattisf: return std::bit_cast<uint32_t>(__floattisf(static_cast<i128>(x)));
    case Builtin::Floattidf: return std::bit_cast<uint64_t>(__floattidf(static_cast<i128>(x)));
    case Builtin::Floatuntisf: return std::bit_cast<uint32_t>(__floatuntisf(x));
    default: return std::bit_cast<uint64_t>(__floatuntidf(x));
  }
}

u128 from_float(Builtin b, uint64_t bits) {
  switch (b) {
    case Builtin::Fixsfti: return static_cast<u128>(__fixsfti(as_float(bits)));
    case Builtin::Fixdfti: return static_cast<u128>(__fixdfti(as_double(bits)));
    case Builtin::Fixunssfti: return __fixunssfti(as_float(bits));
    default: return __fixunsdfti(as_double(bits));
  }
}

void expect_args(Builtin b, size_t have, size_t want) {
  if (have < want)
    throw RuntimeError(std::string(builtin_name(b)) + " takes " + std::to_string(want) + " arguments here, the call passes " +
                       std::to_string(have));
}

}  // namespace

bool Libc::is_int128_helper(Builtin b) {
  switch (b) {
#define PIPE_RUN_IS(e, name, min_args) case Builtin::e:
    PIPE_RUN_INT128(PIPE_RUN_IS)
#undef PIPE_RUN_IS
    return true;
    default: return false;
  }
}

uint64_t Libc::call_int128(Builtin b, std::span<const uint64_t> a) {
  auto read = [&](uint64_t address) {
    const uint8_t* p = mem_.at(address, 16, Access::Read);
    uint64_t half[2];
    std::memcpy(half, p, 16);
    return make(half[0], half[1]);
  };
  auto write = [&](uint64_t address, u128 v) {
    uint8_t* p = mem_.at(address, 16, Access::Write);
    uint64_t half[2] = {static_cast<uint64_t>(v), static_cast<uint64_t>(v >> 64)};
    std::memcpy(p, half, 16);
  };
  switch (shape_of(b)) {
    case Shape::Binary: {
      expect_args(b, a.size(), 3);  // sret, x, y
      write(a[0], binary(b, read(a[1]), read(a[2])));
      return 0;
    }
    case Shape::ToFloat: expect_args(b, a.size(), 1); return to_float(b, read(a[0]));
    case Shape::FromFloat: {
      expect_args(b, a.size(), 2);  // sret, the float
      write(a[0], from_float(b, a[1]));
      return 0;
    }
  }
  return 0;
}

std::pair<uint64_t, uint64_t> Libc::call_int128_x64(Builtin b, std::span<const uint64_t> gpr,
                                                    std::span<const uint64_t> xmm) {
  u128 result = 0;
  switch (shape_of(b)) {
    case Shape::Binary:
      expect_args(b, gpr.size(), 4);
      result = binary(b, make(gpr[0], gpr[1]), make(gpr[2], gpr[3]));
      break;
    case Shape::ToFloat:
      expect_args(b, gpr.size(), 2);
      return {to_float(b, make(gpr[0], gpr[1])), 0};
    case Shape::FromFloat:
      expect_args(b, xmm.size(), 1);
      result = from_float(b, xmm[0]);
      break;
  }
  return {static_cast<uint64_t>(result), static_cast<uint64_t>(result >> 64)};
}

}  // namespace pl::run
