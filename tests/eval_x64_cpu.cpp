// eval_x64_cpu.cpp - common/x64/eval_x64.h against the machine it describes.
//
// tests/test_eval_x64.py compiles this with g++ (x86-64 only) and runs it.
// Every pure x64 instruction pipe-run executes is run here on the real CPU
// (inline assembly, operand sizes 8 to 64 through the b/w/k/q operand
// modifiers) on edge values and random 64-bit registers with garbage in the
// upper bits, and compared with the model: the whole destination register
// where the model defines it (32-bit writes zero-extend, 8/16-bit two-address
// writes keep the upper bits), the low bits where it calls the rest
// unspecified; the status flags of cmp/test and of the memory forms of cmp
// and ucomisd/ucomiss (CF PF ZF SF OF, read with
// setcc), all 16 condition codes, and #DE (SIGFPE) of div/idiv. Prints one
// line per mismatch and exits 1 if there is any.
#include <bit>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <iterator>
#include <random>
#include <utility>
#include <vector>

#include "x64/eval_x64.h"

using namespace pl;
using x64::Cond;

namespace {

int failures = 0;
long checks = 0;

void expect(const char* what, unsigned bits, uint64_t a, uint64_t b, uint64_t got, uint64_t want) {
  ++checks;
  if (got == want) return;
  if (++failures <= 40)
    std::printf("MISMATCH %s/%u a=%#llx b=%#llx: cpu %#llx, model %#llx\n", what, bits, (unsigned long long)a,
                (unsigned long long)b, (unsigned long long)got, (unsigned long long)want);
}

// ---- two-address arithmetic: dst = a op b ------------------------------------------
#define ALU(NAME, INSN)                                                                    \
  uint64_t hw_##NAME(uint64_t a, uint64_t b, unsigned bits) {                              \
    switch (bits) {                                                                        \
      case 8: asm(INSN " %b1, %b0" : "+r"(a) : "r"(b) : "cc"); break;                      \
      case 16: asm(INSN " %w1, %w0" : "+r"(a) : "r"(b) : "cc"); break;                     \
      case 32: asm(INSN " %k1, %k0" : "+r"(a) : "r"(b) : "cc"); break;                     \
      default: asm(INSN " %q1, %q0" : "+r"(a) : "r"(b) : "cc"); break;                     \
    }                                                                                      \
    return a;                                                                              \
  }
ALU(add, "add")
ALU(sub, "sub")
ALU(and, "and")
ALU(or, "or")
ALU(xor, "xor")
#undef ALU

uint64_t hw_imul(uint64_t a, uint64_t b, unsigned bits) {
  switch (bits) {
    case 16: asm("imul %w1, %w0" : "+r"(a) : "r"(b) : "cc"); break;
    case 32: asm("imul %k1, %k0" : "+r"(a) : "r"(b) : "cc"); break;
    default: asm("imul %q1, %q0" : "+r"(a) : "r"(b) : "cc"); break;
  }
  return a;
}

#define UNARY(NAME, INSN)                                             \
  uint64_t hw_##NAME(uint64_t a, unsigned bits) {                     \
    switch (bits) {                                                   \
      case 8: asm(INSN " %b0" : "+r"(a) : : "cc"); break;             \
      case 16: asm(INSN " %w0" : "+r"(a) : : "cc"); break;            \
      case 32: asm(INSN " %k0" : "+r"(a) : : "cc"); break;            \
      default: asm(INSN " %q0" : "+r"(a) : : "cc"); break;            \
    }                                                                 \
    return a;                                                         \
  }
UNARY(neg, "neg")
UNARY(not, "not")
#undef UNARY

#define SHIFT(NAME, INSN)                                                      \
  uint64_t hw_##NAME(uint64_t a, uint64_t count, unsigned bits) {              \
    switch (bits) {                                                            \
      case 8: asm(INSN " %%cl, %b0" : "+r"(a) : "c"(count) : "cc"); break;     \
      case 16: asm(INSN " %%cl, %w0" : "+r"(a) : "c"(count) : "cc"); break;    \
      case 32: asm(INSN " %%cl, %k0" : "+r"(a) : "c"(count) : "cc"); break;    \
      default: asm(INSN " %%cl, %q0" : "+r"(a) : "c"(count) : "cc"); break;    \
    }                                                                          \
    return a;                                                                  \
  }
SHIFT(shl, "shl")
SHIFT(shr, "shr")
SHIFT(sar, "sar")
#undef SHIFT

// ---- flags of cmp and test, read back with setcc ------------------------------------
uint64_t flags_of(uint8_t c, uint8_t p, uint8_t z, uint8_t s, uint8_t o) {
  return (c ? kFlagCF : 0) | (p ? kFlagPF : 0) | (z ? kFlagZF : 0) | (s ? kFlagSF : 0) | (o ? kFlagOF : 0);
}

#define FLAGS(NAME, INSN)                                                                                  \
  uint64_t hw_flags_##NAME(uint64_t a, uint64_t b, unsigned bits) {                                      \
    uint8_t c, p, z, s, o;                                                                               \
    switch (bits) {                                                                                      \
      case 8:                                                                                            \
        asm(INSN " %b6, %b5; setc %0; setp %1; setz %2; sets %3; seto %4"                               \
            : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "r"(a), "r"(b) : "cc");                 \
        break;                                                                                           \
      case 16:                                                                                           \
        asm(INSN " %w6, %w5; setc %0; setp %1; setz %2; sets %3; seto %4"                               \
            : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "r"(a), "r"(b) : "cc");                 \
        break;                                                                                           \
      case 32:                                                                                           \
        asm(INSN " %k6, %k5; setc %0; setp %1; setz %2; sets %3; seto %4"                               \
            : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "r"(a), "r"(b) : "cc");                 \
        break;                                                                                           \
      default:                                                                                           \
        asm(INSN " %q6, %q5; setc %0; setp %1; setz %2; sets %3; seto %4"                               \
            : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "r"(a), "r"(b) : "cc");                 \
        break;                                                                                           \
    }                                                                                                    \
    return flags_of(c, p, z, s, o);                                                                      \
  }
FLAGS(cmp, "cmp")
FLAGS(test, "test")
#undef FLAGS

// The memory forms (x64:cmp.m `cmp a, [p]`, x64:cmpi.m `cmp [p], imm`):
// the same flags as the register form on the value in memory. `mem_first`
// runs `cmp b, [a]` (flags of [a] - b, as cmpi.m), otherwise `cmp [b], a`
// (flags of a - [b], as cmp.m).
#define FLAGS_MEM(T, FIRST, SECOND)                                                                          \
  asm("cmp %" SECOND ", %" FIRST "; setc %0; setp %1; setz %2; sets %3; seto %4"                          \
      : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o)                                                 \
      : "m"(*reinterpret_cast<const T*>(mem)), "r"(static_cast<T>(reg)) : "cc")
uint64_t hw_flags_cmp_mem(uint64_t a, uint64_t b, unsigned bits, bool mem_first) {
  uint8_t c, p, z, s, o;
  uint64_t mem_value = mem_first ? a : b, reg = mem_first ? b : a;
  const void* mem = &mem_value;
  switch (bits) {
    case 8: if (mem_first) FLAGS_MEM(uint8_t, "5", "b6"); else FLAGS_MEM(uint8_t, "b6", "5"); break;
    case 16: if (mem_first) FLAGS_MEM(uint16_t, "5", "w6"); else FLAGS_MEM(uint16_t, "w6", "5"); break;
    case 32: if (mem_first) FLAGS_MEM(uint32_t, "5", "k6"); else FLAGS_MEM(uint32_t, "k6", "5"); break;
    default: if (mem_first) FLAGS_MEM(uint64_t, "5", "q6"); else FLAGS_MEM(uint64_t, "q6", "5"); break;
  }
  return flags_of(c, p, z, s, o);
}
#undef FLAGS_MEM

// cmp [a], imm at each size, for the immediates of kCmpImms.
constexpr int32_t kCmpImms[] = {0, 1, -1, 127, -128, 0x7fffffff};
template <int32_t I>
uint64_t hw_flags_cmpi_mem(uint64_t a, unsigned bits) {
  uint8_t c, p, z, s, o;
  switch (bits) {
    case 8:
      asm("cmpb %6, %5; setc %0; setp %1; setz %2; sets %3; seto %4"
          : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "m"(*reinterpret_cast<const uint8_t*>(&a)),
            "i"(static_cast<int8_t>(I)) : "cc");
      break;
    case 16:
      asm("cmpw %6, %5; setc %0; setp %1; setz %2; sets %3; seto %4"
          : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "m"(*reinterpret_cast<const uint16_t*>(&a)),
            "i"(static_cast<int16_t>(I)) : "cc");
      break;
    case 32:
      asm("cmpl %6, %5; setc %0; setp %1; setz %2; sets %3; seto %4"
          : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "m"(*reinterpret_cast<const uint32_t*>(&a)), "i"(I)
          : "cc");
      break;
    default:
      asm("cmpq %6, %5; setc %0; setp %1; setz %2; sets %3; seto %4"
          : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "m"(a), "i"(I) : "cc");
      break;
  }
  return flags_of(c, p, z, s, o);
}
template <size_t... K>
void check_cmpi_mem(uint64_t a, unsigned bits, std::index_sequence<K...>);

// ucomisd/ucomiss a, [b] (x64:ucomis.m): CF PF ZF SF OF through setcc.
uint64_t hw_flags_ucomis_mem(uint64_t a, uint64_t b, bool f32) {
  uint8_t c, p, z, s, o;
  if (f32) {
    float x = std::bit_cast<float>(static_cast<uint32_t>(a));
    uint32_t y = static_cast<uint32_t>(b);
    asm("ucomiss %6, %5; setc %0; setp %1; setz %2; sets %3; seto %4"
        : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "x"(x), "m"(y) : "cc");
  } else {
    double x = std::bit_cast<double>(a);
    asm("ucomisd %6, %5; setc %0; setp %1; setz %2; sets %3; seto %4"
        : "=&r"(c), "=&r"(p), "=&r"(z), "=&r"(s), "=&r"(o) : "x"(x), "m"(b) : "cc");
  }
  return flags_of(c, p, z, s, o);
}

// The 16 setcc results after the sized `cmp b, a` as a mask: bit i is
// condition code i (x64::Cond order).
uint64_t hw_conditions(uint64_t a, uint64_t b, unsigned bits) {
  uint64_t t = 0, mask = 0;
#define CONDS(MOD) \
  asm( \
      "cmp %" MOD "3, %" MOD "2; seto %b0; movzbl %b0, %k0; shl $0, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setno %b0; movzbl %b0, %k0; shl $1, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setb %b0; movzbl %b0, %k0; shl $2, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setae %b0; movzbl %b0, %k0; shl $3, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; sete %b0; movzbl %b0, %k0; shl $4, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setne %b0; movzbl %b0, %k0; shl $5, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setbe %b0; movzbl %b0, %k0; shl $6, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; seta %b0; movzbl %b0, %k0; shl $7, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; sets %b0; movzbl %b0, %k0; shl $8, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setns %b0; movzbl %b0, %k0; shl $9, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setp %b0; movzbl %b0, %k0; shl $10, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setnp %b0; movzbl %b0, %k0; shl $11, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setl %b0; movzbl %b0, %k0; shl $12, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setge %b0; movzbl %b0, %k0; shl $13, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setle %b0; movzbl %b0, %k0; shl $14, %k0; or %k0, %k1\n\t" \
      "cmp %" MOD "3, %" MOD "2; setg %b0; movzbl %b0, %k0; shl $15, %k0; or %k0, %k1\n\t" \
      : "=&q"(t), "+r"(mask) : "r"(a), "r"(b) : "cc")
  switch (bits) {
    case 8: CONDS("b"); break;
    case 16: CONDS("w"); break;
    case 32: CONDS("k"); break;
    default: CONDS("q"); break;
  }
#undef CONDS
  return mask;
}

// ---- cmov, setcc's upper bits are unspecified (not compared) -------------------------
uint64_t hw_cmovl(uint64_t x, uint64_t y, uint64_t a, uint64_t b, unsigned bits) {
  // cmp x, y then cmovl b into a.
  switch (bits) {
    case 16: asm("cmp %w2, %w1; cmovl %w3, %w0" : "+r"(a) : "r"(x), "r"(y), "r"(b) : "cc"); break;
    case 32: asm("cmp %k2, %k1; cmovl %k3, %k0" : "+r"(a) : "r"(x), "r"(y), "r"(b) : "cc"); break;
    default: asm("cmp %q2, %q1; cmovl %q3, %q0" : "+r"(a) : "r"(x), "r"(y), "r"(b) : "cc"); break;
  }
  return a;
}

// ---- mul1, imul1, cdq, div, idiv --------------------------------------------------------
X64Pair hw_mul1(uint64_t a, uint64_t b, unsigned bits, bool is_signed) {
  uint64_t lo = a, hi = 0x1111111111111111ull;
  switch (bits) {
    case 16:
      if (is_signed) asm("imulw %w2" : "+a"(lo), "+d"(hi) : "r"(b) : "cc");
      else asm("mulw %w2" : "+a"(lo), "+d"(hi) : "r"(b) : "cc");
      break;
    case 32:
      if (is_signed) asm("imull %k2" : "+a"(lo), "+d"(hi) : "r"(b) : "cc");
      else asm("mull %k2" : "+a"(lo), "+d"(hi) : "r"(b) : "cc");
      break;
    default:
      if (is_signed) asm("imulq %q2" : "+a"(lo), "+d"(hi) : "r"(b) : "cc");
      else asm("mulq %q2" : "+a"(lo), "+d"(hi) : "r"(b) : "cc");
      break;
  }
  return {lo, hi};
}

uint64_t hw_cdq(uint64_t a, unsigned bits) {
  uint64_t d = 0x2222222222222222ull;
  switch (bits) {
    case 16: asm("cwtd" : "+a"(a), "+d"(d)); break;
    case 32: asm("cltd" : "+a"(a), "+d"(d)); break;
    default: asm("cqto" : "+a"(a), "+d"(d)); break;
  }
  return d;
}

sigjmp_buf fpe_jump;
void on_fpe(int) { siglongjmp(fpe_jump, 1); }

// Returns false when the CPU raised #DE (SIGFPE).
bool hw_div(uint64_t lo, uint64_t hi, uint64_t d, unsigned bits, bool is_signed, X64Pair& out) {
  volatile uint64_t vlo = lo, vhi = hi;
  if (sigsetjmp(fpe_jump, 1)) return false;
  uint64_t a = vlo, r = vhi;
  switch (bits) {
    case 16:
      if (is_signed) asm volatile("idivw %w2" : "+a"(a), "+d"(r) : "r"(d) : "cc");
      else asm volatile("divw %w2" : "+a"(a), "+d"(r) : "r"(d) : "cc");
      break;
    case 32:
      if (is_signed) asm volatile("idivl %k2" : "+a"(a), "+d"(r) : "r"(d) : "cc");
      else asm volatile("divl %k2" : "+a"(a), "+d"(r) : "r"(d) : "cc");
      break;
    default:
      if (is_signed) asm volatile("idivq %q2" : "+a"(a), "+d"(r) : "r"(d) : "cc");
      else asm volatile("divq %q2" : "+a"(a), "+d"(r) : "r"(d) : "cc");
      break;
  }
  out = {a, r};
  return true;
}

// ---- movsx / movzx ------------------------------------------------------------------------
uint64_t hw_ext(uint64_t a, unsigned from, unsigned to, bool is_signed) {
  uint64_t r = 0x3333333333333333ull;
  if (is_signed) {
    if (from == 8 && to == 16) asm("movsbw %b1, %w0" : "+r"(r) : "r"(a));
    else if (from == 8 && to == 32) asm("movsbl %b1, %k0" : "+r"(r) : "r"(a));
    else if (from == 8) asm("movsbq %b1, %q0" : "+r"(r) : "r"(a));
    else if (from == 16 && to == 32) asm("movswl %w1, %k0" : "+r"(r) : "r"(a));
    else if (from == 16) asm("movswq %w1, %q0" : "+r"(r) : "r"(a));
    else asm("movslq %k1, %q0" : "+r"(r) : "r"(a));
  } else {
    if (from == 8 && to == 16) asm("movzbw %b1, %w0" : "+r"(r) : "r"(a));
    else if (from == 8 && to == 32) asm("movzbl %b1, %k0" : "+r"(r) : "r"(a));
    else if (from == 8) asm("movzbq %b1, %q0" : "+r"(r) : "r"(a));
    else if (from == 16 && to == 32) asm("movzwl %w1, %k0" : "+r"(r) : "r"(a));
    else if (from == 16) asm("movzwq %w1, %q0" : "+r"(r) : "r"(a));
    else asm("movl %k1, %k0" : "+r"(r) : "r"(a));
  }
  return r;
}

// ---- operands -------------------------------------------------------------------------------
std::vector<uint64_t> operands(std::mt19937_64& rng) {
  std::vector<uint64_t> v;
  for (unsigned bits : {8u, 16u, 32u, 64u}) {
    uint64_t m = width_mask(bits), min = signed_min(bits);
    for (uint64_t x : {uint64_t{0}, uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{7}, m, m - 1, min, min - 1,
                       min + 1, m >> 1})
      v.push_back(x | (rng() & ~m));  // garbage above the value
  }
  for (int i = 0; i < 40; ++i) v.push_back(rng());
  for (int i = 0; i < 10; ++i) v.push_back(rng() & 0xFF);
  return v;
}

uint64_t low(uint64_t v, unsigned bits) { return truncate_to(v, bits); }

template <size_t... K>
void check_cmpi_mem(uint64_t a, unsigned bits, std::index_sequence<K...>) {
  (expect("cmpi.m.flags", bits, a, static_cast<uint64_t>(int64_t{kCmpImms[K]}),
          hw_flags_cmpi_mem<kCmpImms[K]>(a, bits), x64_flags_cmp(a, static_cast<uint64_t>(int64_t{kCmpImms[K]}), bits)),
   ...);
}

}  // namespace

int main() {
  std::signal(SIGFPE, on_fpe);
  std::mt19937_64 rng(12345);
  std::vector<uint64_t> vals = operands(rng);
  for (unsigned bits : {8u, 16u, 32u, 64u}) {
    for (uint64_t a : vals) {
      for (uint64_t b : vals) {
        expect("add", bits, a, b, hw_add(a, b, bits), x64_write(a, eval_add(a, b, bits), bits));
        expect("sub", bits, a, b, hw_sub(a, b, bits), x64_write(a, eval_sub(a, b, bits), bits));
        expect("and", bits, a, b, hw_and(a, b, bits), x64_write(a, eval_and(a, b, bits), bits));
        expect("or", bits, a, b, hw_or(a, b, bits), x64_write(a, eval_or(a, b, bits), bits));
        expect("xor", bits, a, b, hw_xor(a, b, bits), x64_write(a, eval_xor(a, b, bits), bits));
        if (bits != 8) expect("imul", bits, a, b, hw_imul(a, b, bits), x64_write(a, eval_mul(a, b, bits), bits));
        expect("cmp.flags", bits, a, b, hw_flags_cmp(a, b, bits), x64_flags_cmp(a, b, bits));
        expect("test.flags", bits, a, b, hw_flags_test(a, b, bits), x64_flags_test(a, b, bits));
        expect("cmp.m.flags", bits, a, b, hw_flags_cmp_mem(a, b, bits, false), x64_flags_cmp(a, b, bits));
        expect("cmp[m],r.flags", bits, a, b, hw_flags_cmp_mem(a, b, bits, true), x64_flags_cmp(a, b, bits));
        if (bits >= 32)
          expect("ucomis.m.flags", bits, a, b, hw_flags_ucomis_mem(a, b, bits == 32),
                 x64_flags_ucomis(bits == 32 ? low(a, 32) : a, bits == 32 ? low(b, 32) : b, bits == 32));
        uint64_t want = 0, flags = x64_flags_cmp(a, b, bits);
        for (unsigned c = 0; c < 16; ++c) want |= uint64_t{x64_cond(static_cast<Cond>(c), flags)} << c;
        expect("conditions", bits, a, b, hw_conditions(a, b, bits), want);
        if (bits != 8) {
          uint64_t x = b, y = rng();
          uint64_t f = x64_flags_cmp(x, y, bits);
          expect("cmovl", bits, a, b, hw_cmovl(x, y, a, b, bits), x64_cmov(Cond::L, f, a, b, bits));
          for (bool s : {false, true}) {
            X64Pair hw = hw_mul1(a, b, bits, s), model = x64_mul1(a, b, bits, s);
            // 16 bits: the upper bits of rax and rdx are unspecified in the model.
            unsigned cmp_bits = bits == 16 ? 16 : 64;
            expect(s ? "imul1.lo" : "mul1.lo", bits, a, b, low(hw.first, cmp_bits), low(x64_fresh(model.first, bits), cmp_bits));
            expect(s ? "imul1.hi" : "mul1.hi", bits, a, b, low(hw.second, cmp_bits), low(x64_fresh(model.second, bits), cmp_bits));
            // Division of hi:lo = (b, a) by a third operand: exercise #DE.
            for (uint64_t d : {y, uint64_t{0}, uint64_t{1}, width_mask(bits), a ^ b, b | 1}) {
              X64Pair out{};
              uint64_t hi = (rng() & 3) == 0 ? b : x64_cdq(a, bits);
              bool ok = hw_div(a, hi, d, bits, s, out);
              EvalError e = x64_check_div(a, hi, d, bits, s);
              expect(s ? "idiv.ok" : "div.ok", bits, a, d, ok, e == EvalError::None);
              if (ok && e == EvalError::None) {
                X64Pair q = x64_div(a, hi, d, bits, s);
                expect(s ? "idiv.q" : "div.q", bits, a, d, low(out.first, cmp_bits), low(x64_fresh(q.first, bits), cmp_bits));
                expect(s ? "idiv.r" : "div.r", bits, a, d, low(out.second, cmp_bits), low(x64_fresh(q.second, bits), cmp_bits));
              }
            }
          }
        }
      }
      check_cmpi_mem(a, bits, std::make_index_sequence<std::size(kCmpImms)>());
      expect("neg", bits, a, 0, hw_neg(a, bits), x64_write(a, eval_neg(a, bits), bits));
      expect("not", bits, a, 0, hw_not(a, bits), x64_write(a, eval_not(a, bits), bits));
      for (uint64_t count = 0; count < 80; ++count) {
        expect("shl", bits, a, count, hw_shl(a, count, bits), x64_write(a, x64_shl(a, count, bits), bits));
        expect("shr", bits, a, count, hw_shr(a, count, bits), x64_write(a, x64_shr(a, count, bits), bits));
        expect("sar", bits, a, count, hw_sar(a, count, bits), x64_write(a, x64_sar(a, count, bits), bits));
      }
      if (bits != 8) {
        unsigned cmp_bits = bits == 16 ? 16 : 64;
        expect("cdq", bits, a, 0, low(hw_cdq(a, bits), cmp_bits), low(x64_fresh(x64_cdq(a, bits), bits), cmp_bits));
      }
    }
  }
  for (uint64_t a : vals) {
    for (unsigned from : {8u, 16u, 32u})
      for (unsigned to : {16u, 32u, 64u}) {
        if (to <= from) continue;
        unsigned cmp_bits = to == 16 ? 16 : 64;
        expect("movsx", from * 100 + to, a, 0, low(hw_ext(a, from, to, true), cmp_bits),
               low(x64_fresh(x64_movsx(a, from, to), to), cmp_bits));
        expect("movzx", from * 100 + to, a, 0, low(hw_ext(a, from, to, false), cmp_bits),
               low(x64_fresh(x64_movzx(a, from, to), to), cmp_bits));
      }
  }
  std::printf("%ld checks, %d mismatches\n", checks, failures);
  return failures ? 1 : 0;
}
