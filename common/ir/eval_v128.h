// eval_v128.h - the meaning of v128.op (FORMAT.md section 7, "16-byte
// vectors (v128)"): one SSE or SSE2 instruction on 16 bytes in memory,
// exactly as the processor computes it.
//
// Representation. A 16-byte GNU C vector (`__m128i`, `__m128d`, `__m128`,
// `vector_size(16)` of any element type) is a 16-byte object; v128.op OP IMM
// reads the 16 bytes at its operand addresses and writes 16 bytes at its
// destination: dst = OP(a, b, IMM). The operations are the instructions
// themselves, named by their AT&T mnemonic, so that the meaning, the
// interpreter and the code generator cannot drift apart:
//   - codegen-x64 emits `movdqu a, xmm0; movdqu b, xmm1; MNEMONIC [$IMM,]
//     xmm1, xmm0; movdqu xmm0, dst` (a unary one reads xmm0 only);
//   - v128_compute() below runs that same instruction on the host, an
//     x86-64 processor (the interpreter's target is the host's, as
//     eval_f80.h's x87 arithmetic is), through inline assembly: the default
//     MXCSR (round to nearest, no flush to zero, exceptions masked), NaN
//     operands propagated, min/max returning the second operand on a NaN or
//     two zeros, saturation, all as the hardware does it. Intrinsics are
//     not used for the floating ones, as a compiler may commute an addps
//     (which changes which NaN comes out); an asm statement is never
//     rewritten. Operations that are pure data movement with an immediate
//     (pshufd, shufps, pslldq ...) are written out, following the
//     instruction's definition in Intel's manual (vol. 2), because an
//     immediate in inline assembly must be a compile-time constant.
// The immediate shifts are named with an `i` (psllwi ... psradi: psllw
// $IMM, xmm) to keep them apart from the shifts by a count in the second
// operand's low 64 bits (psllw xmm1, xmm0); a count above the lane's width
// clears the lanes (psra*: fills them with the sign), in both forms alike.
//
// Invariant: the table's order is the op index v128_op() returns and
// pipe-run stores; nothing else depends on it.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "ir/eval.h"

#if !defined(__x86_64__)
#error "eval_v128.h runs SSE2 instructions on the host: x86-64 only"
#endif

namespace pl {

inline constexpr unsigned kV128Bytes = 16;

// The lane type of a 16-byte vector value (v128.splat, v128.extract and
// their x64 forms, the vectorizer's lanes): the type literal's when it is
// i32, i64, f32 or f64, else nullopt.
inline std::optional<ValueType> v128_lane_type(const Literal& lit) {
  std::optional<ValueType> t = literal_value_type(lit);
  if (t && (*t == ValueType::I32 || *t == ValueType::I64 || *t == ValueType::F32 || *t == ValueType::F64)) return t;
  return std::nullopt;
}

// How an operation reads its operands and its immediate.
enum class V128Shape : uint8_t {
  Binary,    // dst = a OP b, no immediate
  Unary,     // dst = OP a, no immediate
  UnaryImm,  // dst = OP(a, IMM): shifts by an immediate, pshufd, pslldq ...
  BinaryImm, // dst = OP(a, b, IMM): shufps, shufpd, cmpps, cmppd
};

struct V128OpInfo {
  std::string_view name;      // the op literal
  std::string_view mnemonic;  // the instruction codegen-x64 writes
  V128Shape shape;
  unsigned imm_limit;         // IMM < imm_limit (1: no immediate, IMM 0)
};

// clang-format off
// B binary, U unary, SH(name, mnemonic) a shift by an immediate, MV(name,
// limit, shape) data movement with an immediate, CM(name) a compare with a
// predicate immediate.
#define PL_V128_OPS(B, U, SH, MV, CM)                                                                  \
  /* integer lanes: 8-, 16-, 32- and 64-bit add and subtract, with saturation */                      \
  B(paddb) B(paddw) B(paddd) B(paddq) B(psubb) B(psubw) B(psubd) B(psubq)                             \
  B(paddsb) B(paddsw) B(paddusb) B(paddusw) B(psubsb) B(psubsw) B(psubusb) B(psubusw)                 \
  /* bitwise */                                                                                       \
  B(pand) B(pandn) B(por) B(pxor)                                                                     \
  /* compares: all ones where true */                                                                 \
  B(pcmpeqb) B(pcmpeqw) B(pcmpeqd) B(pcmpgtb) B(pcmpgtw) B(pcmpgtd)                                   \
  /* multiplies, min/max, averages, sums */                                                           \
  B(pmullw) B(pmulhw) B(pmulhuw) B(pmuludq) B(pmaddwd) B(psadbw)                                      \
  B(pmaxsw) B(pmaxub) B(pminsw) B(pminub) B(pavgb) B(pavgw)                                           \
  /* packs and unpacks */                                                                             \
  B(packsswb) B(packssdw) B(packuswb)                                                                 \
  B(punpcklbw) B(punpcklwd) B(punpckldq) B(punpcklqdq) B(punpckhbw) B(punpckhwd) B(punpckhdq)         \
  B(punpckhqdq)                                                                                       \
  /* shifts by the count in b's low 64 bits */                                                        \
  B(psllw) B(pslld) B(psllq) B(psrlw) B(psrld) B(psrlq) B(psraw) B(psrad)                             \
  /* float (4 x f32) and double (2 x f64), packed and in the low lane */                              \
  B(addps) B(subps) B(mulps) B(divps) B(minps) B(maxps) B(andps) B(andnps) B(orps) B(xorps)           \
  B(addpd) B(subpd) B(mulpd) B(divpd) B(minpd) B(maxpd) B(andpd) B(andnpd) B(orpd) B(xorpd)           \
  B(unpcklps) B(unpckhps) B(unpcklpd) B(unpckhpd)                                                     \
  B(addss) B(subss) B(mulss) B(divss) B(minss) B(maxss)                                               \
  B(addsd) B(subsd) B(mulsd) B(divsd) B(minsd) B(maxsd)                                               \
  B(movss) B(movsd)                                                                                   \
  /* one operand */                                                                                   \
  U(sqrtps) U(sqrtpd)                                                                                 \
  U(cvtdq2ps) U(cvtps2dq) U(cvttps2dq) U(cvtdq2pd) U(cvtpd2dq) U(cvttpd2dq) U(cvtps2pd) U(cvtpd2ps)    \
  /* an immediate */                                                                                  \
  SH(psllwi, psllw) SH(pslldi, pslld) SH(psllqi, psllq) SH(psrlwi, psrlw) SH(psrldi, psrld)           \
  SH(psrlqi, psrlq) SH(psrawi, psraw) SH(psradi, psrad)                                               \
  MV(pslldq, 256, UnaryImm) MV(psrldq, 256, UnaryImm)                                                 \
  MV(pshufd, 256, UnaryImm) MV(pshuflw, 256, UnaryImm) MV(pshufhw, 256, UnaryImm)                     \
  MV(shufps, 256, BinaryImm) MV(shufpd, 4, BinaryImm)                                                 \
  CM(cmpps) CM(cmppd) CM(cmpss) CM(cmpsd)
// clang-format on

#define PL_V128_B(n) {#n, #n, V128Shape::Binary, 1},
#define PL_V128_U(n) {#n, #n, V128Shape::Unary, 1},
#define PL_V128_SH(n, m) {#n, #m, V128Shape::UnaryImm, 256},
#define PL_V128_MV(n, lim, shape) {#n, #n, V128Shape::shape, lim},
#define PL_V128_CM(n) {#n, #n, V128Shape::BinaryImm, 8},
inline constexpr V128OpInfo kV128Ops[] = {
    PL_V128_OPS(PL_V128_B, PL_V128_U, PL_V128_SH, PL_V128_MV, PL_V128_CM)};
#undef PL_V128_B
#undef PL_V128_U
#undef PL_V128_SH
#undef PL_V128_MV
#undef PL_V128_CM

// The index of the operation named `name` in kV128Ops, or nullopt.
inline std::optional<unsigned> v128_op(std::string_view name) {
  for (unsigned i = 0; i < std::size(kV128Ops); ++i)
    if (kV128Ops[i].name == name) return i;
  return std::nullopt;
}

// "" when (name, imm) is a v128.op, else what is wrong (a sentence
// fragment): an unknown operation, or an immediate out of its range.
inline std::string v128_op_problem(std::string_view name, uint64_t imm) {
  std::optional<unsigned> k = v128_op(name);
  if (!k) return "'" + std::string(name) + "' is not a v128 operation";
  const V128OpInfo& op = kV128Ops[*k];
  if (imm >= op.imm_limit)
    return op.imm_limit == 1 ? "'" + std::string(name) + "' takes no immediate (it must be 0)"
                             : "the immediate of '" + std::string(name) + "' must be below " +
                                   std::to_string(op.imm_limit);
  return "";
}

namespace v128_detail {

typedef long long V __attribute__((vector_size(16), aligned(16)));

inline V load(const uint8_t* p) {
  V v;
  std::memcpy(&v, p, kV128Bytes);
  return v;
}

// The cmpps/cmppd/cmpss/cmpsd predicate `imm` (0 eq, 1 lt, 2 le, 3 unord,
// 4 neq, 5 nlt, 6 nle, 7 ord) on the host, as the instruction.
#define PL_V128_CMP(insn)                                                        \
  inline V insn(V a, V b, unsigned imm) {                                        \
    switch (imm) {                                                               \
      case 0: asm(#insn " $0, %1, %0" : "+x"(a) : "x"(b)); break;                \
      case 1: asm(#insn " $1, %1, %0" : "+x"(a) : "x"(b)); break;                \
      case 2: asm(#insn " $2, %1, %0" : "+x"(a) : "x"(b)); break;                \
      case 3: asm(#insn " $3, %1, %0" : "+x"(a) : "x"(b)); break;                \
      case 4: asm(#insn " $4, %1, %0" : "+x"(a) : "x"(b)); break;                \
      case 5: asm(#insn " $5, %1, %0" : "+x"(a) : "x"(b)); break;                \
      case 6: asm(#insn " $6, %1, %0" : "+x"(a) : "x"(b)); break;                \
      default: asm(#insn " $7, %1, %0" : "+x"(a) : "x"(b)); break;               \
    }                                                                            \
    return a;                                                                    \
  }
PL_V128_CMP(cmpps)
PL_V128_CMP(cmppd)
PL_V128_CMP(cmpss)
PL_V128_CMP(cmpsd)
#undef PL_V128_CMP

// Data movement with an immediate, from the instructions' definitions.
inline V shuffle(std::string_view name, V va, V vb, unsigned imm) {
  uint8_t a[kV128Bytes], b[kV128Bytes], out[kV128Bytes] = {};
  std::memcpy(a, &va, kV128Bytes);
  std::memcpy(b, &vb, kV128Bytes);
  auto lane32 = [&](const uint8_t* from, unsigned i, unsigned to) { std::memcpy(out + 4 * to, from + 4 * i, 4); };
  if (name == "pslldq" || name == "psrldq") {
    unsigned n = imm > 16 ? 16 : imm;
    for (unsigned i = 0; i < kV128Bytes; ++i) {
      if (name == "pslldq" && i >= n) out[i] = a[i - n];
      if (name == "psrldq" && i + n < kV128Bytes) out[i] = a[i + n];
    }
  } else if (name == "pshufd") {
    for (unsigned i = 0; i < 4; ++i) lane32(a, (imm >> (2 * i)) & 3, i);
  } else if (name == "shufps") {
    for (unsigned i = 0; i < 4; ++i) lane32(i < 2 ? a : b, (imm >> (2 * i)) & 3, i);
  } else if (name == "shufpd") {
    std::memcpy(out, a + 8 * (imm & 1), 8);
    std::memcpy(out + 8, b + 8 * ((imm >> 1) & 1), 8);
  } else if (name == "pshuflw" || name == "pshufhw") {
    std::memcpy(out, a, kV128Bytes);
    unsigned base = name == "pshuflw" ? 0 : 8;
    for (unsigned i = 0; i < 4; ++i) std::memcpy(out + base + 2 * i, a + base + 2 * ((imm >> (2 * i)) & 3), 2);
  }
  return load(out);
}

using V128Fn = V (*)(V a, V b, unsigned imm);
#define PL_V128_B(n) +[](V a, V b, unsigned) { asm(#n " %1, %0" : "+x"(a) : "x"(b)); return a; },
#define PL_V128_U(n) +[](V a, V, unsigned) { V r; asm(#n " %1, %0" : "=x"(r) : "x"(a)); return r; },
#define PL_V128_SH(n, m) \
  +[](V a, V, unsigned imm) { V c = {static_cast<long long>(imm), 0}; asm(#m " %1, %0" : "+x"(a) : "x"(c)); return a; },
#define PL_V128_MV(n, lim, shape) +[](V a, V b, unsigned imm) { return shuffle(#n, a, b, imm); },
#define PL_V128_CM(n) +[](V a, V b, unsigned imm) { return n(a, b, imm); },
// Each operation's host form, in kV128Ops's order (the psll*i forms give
// the count as psllw xmm, xmm reads it: the same result for every count).
inline constexpr V128Fn kV128Fns[] = {PL_V128_OPS(PL_V128_B, PL_V128_U, PL_V128_SH, PL_V128_MV, PL_V128_CM)};
#undef PL_V128_B
#undef PL_V128_U
#undef PL_V128_SH
#undef PL_V128_MV
#undef PL_V128_CM
static_assert(std::size(kV128Fns) == std::size(kV128Ops));

}  // namespace v128_detail

// dst = kV128Ops[op](a, b, imm) (b unused by a unary operation); dst may be
// a or b.
inline void v128_compute(unsigned op, uint8_t* dst, const uint8_t* a, const uint8_t* b, unsigned imm) {
  v128_detail::V r = v128_detail::kV128Fns[op](v128_detail::load(a), v128_detail::load(b), imm);
  std::memcpy(dst, &r, kV128Bytes);
}

// ---- 16-byte vector values (FORMAT.md section 7, "16-byte vector values")
// A v128 value is two 64-bit halves, lo (bytes 0-7) then hi (bytes 8-15),
// as the interpreter keeps it in two value slots.
inline void v128_apply(unsigned op, uint64_t dst[2], const uint64_t a[2], const uint64_t b[2], unsigned imm) {
  uint8_t x[kV128Bytes], y[kV128Bytes], r[kV128Bytes];
  std::memcpy(x, a, kV128Bytes);
  std::memcpy(y, b, kV128Bytes);
  v128_compute(op, r, x, y, imm);
  std::memcpy(dst, r, kV128Bytes);
}
// Every lane of `bytes` bytes (4 or 8) holds the low bytes of x.
inline void v128_splat(unsigned bytes, uint64_t x, uint64_t dst[2]) {
  uint8_t r[kV128Bytes];
  for (unsigned i = 0; i < kV128Bytes; i += bytes) std::memcpy(r + i, &x, bytes);
  std::memcpy(dst, r, kV128Bytes);
}
// Lane `lane` of `bytes` bytes (zero-extended); lane * bytes < 16.
inline uint64_t v128_extract(unsigned bytes, unsigned lane, const uint64_t v[2]) {
  uint8_t r[kV128Bytes];
  std::memcpy(r, v, kV128Bytes);
  uint64_t x = 0;
  std::memcpy(&x, r + lane * bytes, bytes);
  return x;
}

}  // namespace pl
