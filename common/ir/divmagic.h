// divmagic.h - division by a constant through multiplication: the plans of
// Granlund and Montgomery, "Division by Invariant Integers using
// Multiplication" (PLDI 1994), figures 4.2 (unsigned) and 5.2 (signed), with
// their CHOOSE_MULTIPLIER (figure 6.2); Hacker's Delight chapter 10 derives
// the same numbers. Go keeps the same computation in ssa/magic.go.
//
// A plan says which instruction sequence computes q = n / d for an N-bit n
// (N = 32 or 64) and a constant d; the caller builds the instructions. The
// remainder is n - q * d. Every plan is exact for every n (GM prove it; the
// division tests check it against gcc at every width and signedness).
//
// Unsigned (d != 0):
//   Identity        q = n                                   (d = 1)
//   Shift           q = n >> shift                          (d = 2^shift)
//   GreaterEqual    q = (n >= d) ? 1 : 0                    (d > 2^(N-1))
//   MulHi           q = mulhi(n >> pre_shift, m) >> post_shift     (m < 2^N)
//   MulHiAdd        t = mulhi(n, m); q = (t + ((n - t) >> 1)) >> post_shift
//                   (the N+1-bit multiplier 2^N + m; post_shift = sh_post - 1)
// Signed (d != 0; `negate` turns q into -q for a negative d):
//   Identity        q = n                                   (|d| = 1)
//   Pow2            q = sar(n + shr(sar(n, shift - 1), N - shift), shift)  (|d| = 2^shift)
//   MulHi           q = sar(mulhs(n, m), post_shift) - sar(n, N - 1)
//   MulHiAdd        q = sar(n + mulhs(n, m), post_shift) - sar(n, N - 1)
//                   (m is then the multiplier minus 2^N, a negative number)
// mulhi / mulhs are the high N bits of the unsigned / signed 2N-bit product.
#pragma once

#include <cstdint>

namespace pl {

struct UnsignedDivPlan {
  enum class Kind : uint8_t { Identity, Shift, GreaterEqual, MulHi, MulHiAdd };
  Kind kind = Kind::Identity;
  uint64_t magic = 0;     // MulHi, MulHiAdd: the N-bit multiplier
  unsigned pre_shift = 0;   // MulHi: shift of n before the multiplication
  unsigned post_shift = 0;  // Shift, MulHi, MulHiAdd
};

struct SignedDivPlan {
  enum class Kind : uint8_t { Identity, Pow2, MulHi, MulHiAdd };
  Kind kind = Kind::Identity;
  int64_t magic = 0;        // MulHi, MulHiAdd: the multiplier as a signed N-bit number
  unsigned shift = 0;       // Pow2
  unsigned post_shift = 0;  // MulHi, MulHiAdd
  bool negate = false;      // d < 0: the quotient is negated at the end
};

// `d` is the divisor's N-bit pattern (zero-extended); bits is 32 or 64;
// d must not be 0.
UnsignedDivPlan unsigned_div_plan(uint64_t d, unsigned bits);
// `d` is the divisor as a signed number (sign-extended from N bits).
SignedDivPlan signed_div_plan(int64_t d, unsigned bits);

}  // namespace pl
