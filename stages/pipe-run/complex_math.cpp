// complex_math.cpp - pipe-run's complex arithmetic: libgcc's __mulsc3,
// __muldc3, __divsc3 and __divdc3 (c2ast calls them for complex multiply
// and divide, as gcc does: stages/c2ast/complex.cpp) and libm's cabs, carg,
// cexp, clog, csqrt, csin, ccos, cpow (and the f forms listed), computed by
// the host's libgcc and libm, so a program gets the bits its native build
// gets on the same machine.
//
// How the values travel is the System V ABI's for `_Complex T`, an
// aggregate of two T: at the IR levels (cfg, ssa, son, son-x64 before
// lowering) a complex argument is a pointer to its bytes (`ptr byval`) and
// a complex result is written through the hidden first argument (`ptr
// sret`); at the x64 levels a _Complex double argument takes two xmm
// registers and a _Complex float one (both floats in its low 8 bytes), and
// a complex result comes back the same way in xmm0 (and xmm1), which
// Libc::take_xmm_result hands to the interpreter. libgcc's long double
// helpers __mulxc3 and __divxc3 take their four long doubles in memory (at
// the IR levels pointers to them, `ptr byval(16,16,x)`; at the x64 levels
// the caller's outgoing stack words) and return the complex long double
// through the result pointer (IR levels) or in st(0) and st(1)
// (Libc::take_x87_result).
#include <bit>
#include <cstring>

#include "ir/eval_f80.h"
#include "run.h"

// GNU C++ has C's complex types as an extension.
__extension__ typedef __complex__ float ComplexFloat;
__extension__ typedef __complex__ double ComplexDouble;
__extension__ typedef __complex__ long double ComplexLongDouble;

extern "C" {
// libgcc's helpers (libgcc.a / libgcc_s.so, linked into every C++ program)
// and libm's functions (<complex.h> is C++'s <complex> here).
ComplexFloat __mulsc3(float, float, float, float);
ComplexDouble __muldc3(double, double, double, double);
ComplexFloat __divsc3(float, float, float, float);
ComplexDouble __divdc3(double, double, double, double);
ComplexLongDouble __mulxc3(long double, long double, long double, long double);
ComplexLongDouble __divxc3(long double, long double, long double, long double);
double cabs(ComplexDouble);
float cabsf(ComplexFloat);
double carg(ComplexDouble);
float cargf(ComplexFloat);
ComplexDouble cexp(ComplexDouble);
ComplexFloat cexpf(ComplexFloat);
ComplexDouble clog(ComplexDouble);
ComplexDouble csqrt(ComplexDouble);
ComplexFloat csqrtf(ComplexFloat);
ComplexDouble csin(ComplexDouble);
ComplexDouble ccos(ComplexDouble);
ComplexDouble cpow(ComplexDouble, ComplexDouble);
}

namespace pl::run {

namespace {

struct ComplexSignature {
  bool single = false;         // float elements
  unsigned complex_args = 0;   // complex arguments first
  unsigned real_args = 0;      // then real ones
  bool complex_result = true;  // else a real result
};

ComplexSignature signature_of(Builtin b) {
  switch (b) {
    case Builtin::Mulsc3:
    case Builtin::Divsc3: return {true, 0, 4, true};
    case Builtin::Muldc3:
    case Builtin::Divdc3: return {false, 0, 4, true};
    case Builtin::Cabs:
    case Builtin::Carg: return {false, 1, 0, false};
    case Builtin::Cabsf:
    case Builtin::Cargf: return {true, 1, 0, false};
    case Builtin::Cexpf:
    case Builtin::Csqrtf: return {true, 1, 0, true};
    case Builtin::Cpow: return {false, 2, 0, true};
    default: return {false, 1, 0, true};
  }
}

double d(uint64_t bits) { return std::bit_cast<double>(bits); }
float f(uint64_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits)); }

}  // namespace

bool is_complex_builtin(Builtin b) {
  switch (b) {
#define PIPE_RUN_COMPLEX_CASE(e, name, min_args) case Builtin::e:
    PIPE_RUN_COMPLEX(PIPE_RUN_COMPLEX_CASE)
#undef PIPE_RUN_COMPLEX_CASE
    return true;
    default: return false;
  }
}

uint64_t Libc::call_complex(Builtin b, std::span<const uint64_t> a, const std::span<const uint64_t>* xmm) {
  ComplexSignature sig = signature_of(b);
  std::string_view name = builtin_name(b);
  uint64_t element = sig.single ? 4 : 8;
  // The arguments as doubles (floats widened exactly), complex ones as two.
  std::vector<double> v;
  size_t next = 0;
  auto take = [&](std::span<const uint64_t> from) {
    if (next >= from.size())
      throw RuntimeError(std::string(name) + ": the call passes too few arguments");
    return from[next++];
  };
  auto as_double = [&](uint64_t bits) { return sig.single ? static_cast<double>(f(bits)) : d(bits); };
  uint64_t result_at = 0;
  if (xmm) {  // x64: every argument in xmm registers
    for (unsigned i = 0; i < sig.complex_args; ++i) {
      uint64_t first = take(*xmm);
      if (sig.single) {
        v.push_back(f(first));
        v.push_back(f(first >> 32));
      } else {
        v.push_back(d(first));
        v.push_back(d(take(*xmm)));
      }
    }
    for (unsigned i = 0; i < sig.real_args; ++i) v.push_back(as_double(take(*xmm)));
  } else {  // the IR levels: the result pointer, complex arguments by address
    if (sig.complex_result) result_at = take(a);
    for (unsigned i = 0; i < sig.complex_args; ++i) {
      const uint8_t* p = mem_.at(take(a), 2 * element, Access::Read);
      uint64_t parts[2] = {0, 0};
      std::memcpy(&parts[0], p, element);
      std::memcpy(&parts[1], p + element, element);
      v.push_back(as_double(parts[0]));
      v.push_back(as_double(parts[1]));
    }
    for (unsigned i = 0; i < sig.real_args; ++i) v.push_back(as_double(take(a)));
  }
  double re = 0, im = 0, real = 0;
  auto set = [&](auto z) { re = __extension__ __real__ z, im = __extension__ __imag__ z; };
  ComplexDouble z1 = 0, z2 = 0;
  if (v.size() >= 2) __extension__ __real__ z1 = v[0], __extension__ __imag__ z1 = v[1];
  if (v.size() >= 4) __extension__ __real__ z2 = v[2], __extension__ __imag__ z2 = v[3];
  ComplexFloat zf = 0;
  __extension__ __real__ zf = static_cast<float>(v.size() >= 2 ? v[0] : 0);
  __extension__ __imag__ zf = static_cast<float>(v.size() >= 2 ? v[1] : 0);
  float fa = 0, fb = 0, fc = 0, fd = 0;
  if (v.size() >= 4) fa = static_cast<float>(v[0]), fb = static_cast<float>(v[1]), fc = static_cast<float>(v[2]), fd = static_cast<float>(v[3]);
  switch (b) {
    case Builtin::Mulsc3: set(__mulsc3(fa, fb, fc, fd)); break;
    case Builtin::Divsc3: set(__divsc3(fa, fb, fc, fd)); break;
    case Builtin::Muldc3: set(__muldc3(v[0], v[1], v[2], v[3])); break;
    case Builtin::Divdc3: set(__divdc3(v[0], v[1], v[2], v[3])); break;
    case Builtin::Cabs: real = cabs(z1); break;
    case Builtin::Cabsf: real = cabsf(zf); break;
    case Builtin::Carg: real = carg(z1); break;
    case Builtin::Cargf: real = cargf(zf); break;
    case Builtin::Cexp: set(cexp(z1)); break;
    case Builtin::Cexpf: set(cexpf(zf)); break;
    case Builtin::Clog: set(clog(z1)); break;
    case Builtin::Csqrt: set(csqrt(z1)); break;
    case Builtin::Csqrtf: set(csqrtf(zf)); break;
    case Builtin::Csin: set(csin(z1)); break;
    case Builtin::Ccos: set(ccos(z1)); break;
    case Builtin::Cpow: set(cpow(z1, z2)); break;
    default: throw RuntimeError(std::string(name) + ": not a complex function");
  }
  auto bits = [&](double x) -> uint64_t {
    return sig.single ? std::bit_cast<uint32_t>(static_cast<float>(x)) : std::bit_cast<uint64_t>(x);
  };
  if (!sig.complex_result) return bits(real);
  if (xmm) {
    if (sig.single) xmm_result_ = std::array<uint64_t, 2>{bits(re) | bits(im) << 32, 0};
    else xmm_result_ = std::array<uint64_t, 2>{bits(re), bits(im)};
    return 0;
  }
  uint8_t* out = mem_.at(result_at, 2 * element, Access::Write);
  uint64_t parts[2] = {bits(re), bits(im)};
  std::memcpy(out, &parts[0], element);
  std::memcpy(out + element, &parts[1], element);
  return 0;
}

uint64_t Libc::call_complex_x87(Builtin b, std::span<const uint64_t> a, bool x64, size_t gpr) {
  std::string_view name = builtin_name(b);
  long double v[4];
  uint64_t result_at = 0;
  if (x64) {  // four 16-byte stack slots after the register arguments
    if (a.size() < gpr + 8) throw RuntimeError(std::string(name) + ": the call passes too few arguments");
    for (size_t i = 0; i < 4; ++i) {
      uint8_t bytes[16];
      for (size_t w = 0; w < 2; ++w)
        for (size_t k = 0; k < 8; ++k) bytes[8 * w + k] = static_cast<uint8_t>(a[gpr + 2 * i + w] >> (8 * k));
      v[i] = f80_read(bytes);
    }
  } else {
    if (a.size() < 5) throw RuntimeError(std::string(name) + ": the call passes too few arguments");
    result_at = a[0];
    for (size_t i = 0; i < 4; ++i) v[i] = f80_read(mem_.at(a[i + 1], kF80Bytes, Access::Read));
  }
  ComplexLongDouble z = b == Builtin::Mulxc3 ? __mulxc3(v[0], v[1], v[2], v[3]) : __divxc3(v[0], v[1], v[2], v[3]);
  long double re = __extension__ __real__ z, im = __extension__ __imag__ z;
  if (x64) {
    X87Pair pair;
    f80_write(pair[0].data(), re);
    f80_write(pair[1].data(), im);
    x87_result_ = pair;
    return 0;
  }
  f80_write(mem_.at(result_at, kF80Bytes, Access::Write), re);
  f80_write(mem_.at(result_at + kF80ObjectBytes, kF80Bytes, Access::Write), im);
  return 0;
}

}  // namespace pl::run
