// divmagic.cpp - the division plans of divmagic.h (Granlund-Montgomery).
#include "ir/divmagic.h"

#include <bit>

namespace pl {

namespace {

__extension__ typedef unsigned __int128 u128;  // GCC and clang

struct Multiplier {
  u128 m = 0;             // up to N + 1 bits
  unsigned sh_post = 0;
};

// GM figure 6.2, CHOOSE_MULTIPLIER(d, prec) for N-bit words: the smallest
// multiplier m and shift with floor(m * n / 2^(N + sh_post)) = floor(n / d)
// for every n below 2^prec. Needs 1 <= d < 2^(N-1) + 1 so that 2^(N+l)
// fits in 128 bits (l = ceil(log2 d) <= N - 1).
Multiplier choose_multiplier(uint64_t d, unsigned bits, unsigned prec) {
  unsigned l = d <= 1 ? 0 : 64 - static_cast<unsigned>(std::countl_zero(d - 1));
  unsigned sh_post = l;
  u128 m_low = (u128{1} << (bits + l)) / d;
  u128 m_high = ((u128{1} << (bits + l)) + (u128{1} << (bits + l - prec))) / d;
  while (m_low / 2 < m_high / 2 && sh_post > 0) {
    m_low /= 2;
    m_high /= 2;
    --sh_post;
  }
  return {m_high, sh_post};
}

bool is_pow2(uint64_t d) { return d != 0 && (d & (d - 1)) == 0; }

}  // namespace

UnsignedDivPlan unsigned_div_plan(uint64_t d, unsigned bits) {
  using K = UnsignedDivPlan::Kind;
  UnsignedDivPlan plan;
  const u128 word = u128{1} << bits;
  if (d == 1) return plan;
  if (is_pow2(d)) {
    plan.kind = K::Shift;
    plan.post_shift = static_cast<unsigned>(std::countr_zero(d));
    return plan;
  }
  if (d > (uint64_t{1} << (bits - 1))) {
    plan.kind = K::GreaterEqual;
    return plan;
  }
  Multiplier mul = choose_multiplier(d, bits, bits);
  if (mul.m >= word && (d & 1) == 0) {
    unsigned e = static_cast<unsigned>(std::countr_zero(d));
    mul = choose_multiplier(d >> e, bits, bits - e);
    plan.kind = K::MulHi;
    plan.pre_shift = e;
  } else if (mul.m >= word) {
    plan.kind = K::MulHiAdd;
    mul.m -= word;
    mul.sh_post -= 1;  // GM: sh_post >= 1 whenever the multiplier needs N + 1 bits
  } else {
    plan.kind = K::MulHi;
  }
  plan.magic = static_cast<uint64_t>(mul.m);
  plan.post_shift = mul.sh_post;
  return plan;
}

SignedDivPlan signed_div_plan(int64_t d, unsigned bits) {
  using K = SignedDivPlan::Kind;
  SignedDivPlan plan;
  plan.negate = d < 0;
  uint64_t ad = d < 0 ? uint64_t{0} - static_cast<uint64_t>(d) : static_cast<uint64_t>(d);
  if (ad == 1) return plan;
  if (is_pow2(ad)) {
    plan.kind = K::Pow2;
    plan.shift = static_cast<unsigned>(std::countr_zero(ad));
    return plan;
  }
  Multiplier mul = choose_multiplier(ad, bits, bits - 1);
  if (mul.m < (u128{1} << (bits - 1))) {
    plan.kind = K::MulHi;
    plan.magic = static_cast<int64_t>(static_cast<uint64_t>(mul.m));
  } else {
    plan.kind = K::MulHiAdd;
    // m - 2^N, a negative N-bit number, sign-extended to 64 bits.
    plan.magic = static_cast<int64_t>(static_cast<uint64_t>(mul.m - (u128{1} << bits)));
  }
  plan.post_shift = mul.sh_post;
  return plan;
}

}  // namespace pl
