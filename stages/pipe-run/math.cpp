// math.cpp - pipe-run's math library: the libm functions of PIPE_RUN_MATH
// (run.h), computed by the host's libm so that a program's results are the
// ones its native build gets on the same machine (glibc's sin, exp, pow ...
// are correctly rounded or nearly, and the same library gives the same bits).
//
// Arguments and results are bit patterns, as the interpreter holds floating
// values (common/ir/eval_float.h): a double all 64 bits, a float the low 32,
// an int the low 32 (ldexp's exponent), a long all 64 (lround's result).
#include <bit>
#include <cmath>

#include "run.h"

namespace pl::run {

namespace {

double d(uint64_t bits) { return std::bit_cast<double>(bits); }
float f(uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }
uint64_t of(double v) { return std::bit_cast<uint64_t>(v); }
uint64_t of(float v) { return std::bit_cast<uint32_t>(v); }

}  // namespace

std::optional<uint64_t> call_math(Builtin b, std::span<const uint64_t> a) {
  switch (b) {
    case Builtin::Sqrt: return of(std::sqrt(d(a[0])));
    case Builtin::Sqrtf: return of(std::sqrt(f(a[0])));
    case Builtin::Sin: return of(std::sin(d(a[0])));
    case Builtin::Sinf: return of(std::sin(f(a[0])));
    case Builtin::Cos: return of(std::cos(d(a[0])));
    case Builtin::Cosf: return of(std::cos(f(a[0])));
    case Builtin::Tan: return of(std::tan(d(a[0])));
    case Builtin::Tanf: return of(std::tan(f(a[0])));
    case Builtin::Asin: return of(std::asin(d(a[0])));
    case Builtin::Asinf: return of(std::asin(f(a[0])));
    case Builtin::Acos: return of(std::acos(d(a[0])));
    case Builtin::Acosf: return of(std::acos(f(a[0])));
    case Builtin::Atan: return of(std::atan(d(a[0])));
    case Builtin::Atanf: return of(std::atan(f(a[0])));
    case Builtin::Atan2: return of(std::atan2(d(a[0]), d(a[1])));
    case Builtin::Atan2f: return of(std::atan2(f(a[0]), f(a[1])));
    case Builtin::Sinh: return of(std::sinh(d(a[0])));
    case Builtin::Cosh: return of(std::cosh(d(a[0])));
    case Builtin::Tanh: return of(std::tanh(d(a[0])));
    case Builtin::Exp: return of(std::exp(d(a[0])));
    case Builtin::Expf: return of(std::exp(f(a[0])));
    case Builtin::Exp2: return of(std::exp2(d(a[0])));
    case Builtin::Log: return of(std::log(d(a[0])));
    case Builtin::Logf: return of(std::log(f(a[0])));
    case Builtin::Log10: return of(std::log10(d(a[0])));
    case Builtin::Log10f: return of(std::log10(f(a[0])));
    case Builtin::Log2: return of(std::log2(d(a[0])));
    case Builtin::Pow: return of(std::pow(d(a[0]), d(a[1])));
    case Builtin::Powf: return of(std::pow(f(a[0]), f(a[1])));
    case Builtin::Fabs: return of(std::fabs(d(a[0])));
    case Builtin::Fabsf: return of(std::fabs(f(a[0])));
    case Builtin::Floor: return of(std::floor(d(a[0])));
    case Builtin::Floorf: return of(std::floor(f(a[0])));
    case Builtin::Ceil: return of(std::ceil(d(a[0])));
    case Builtin::Ceilf: return of(std::ceil(f(a[0])));
    case Builtin::Fmod: return of(std::fmod(d(a[0]), d(a[1])));
    case Builtin::Fmodf: return of(std::fmod(f(a[0]), f(a[1])));
    case Builtin::Round: return of(std::round(d(a[0])));
    case Builtin::Roundf: return of(std::round(f(a[0])));
    case Builtin::Trunc: return of(std::trunc(d(a[0])));
    case Builtin::Truncf: return of(std::trunc(f(a[0])));
    case Builtin::Hypot: return of(std::hypot(d(a[0]), d(a[1])));
    case Builtin::Cbrt: return of(std::cbrt(d(a[0])));
    case Builtin::Fmin: return of(std::fmin(d(a[0]), d(a[1])));
    case Builtin::Fmax: return of(std::fmax(d(a[0]), d(a[1])));
    case Builtin::Copysign: return of(std::copysign(d(a[0]), d(a[1])));
    case Builtin::Copysignf: return of(std::copysign(f(a[0]), f(a[1])));
    case Builtin::Ldexp: return of(std::ldexp(d(a[0]), static_cast<int32_t>(a[1])));
    case Builtin::Lround: return static_cast<uint64_t>(std::lround(d(a[0])));
    case Builtin::Llround: return static_cast<uint64_t>(std::llround(d(a[0])));
    case Builtin::Rint: return of(std::rint(d(a[0])));
    case Builtin::Nearbyint: return of(std::nearbyint(d(a[0])));
    default: return std::nullopt;
  }
}

}  // namespace pl::run
