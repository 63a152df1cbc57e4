/* Compound assignment whose right operand changes the left one: `a op= f()`
   where f writes a. C leaves the order of the operands unspecified; gcc and
   clang both evaluate the right operand (the call) before reading the left
   one's old value, so the old value read is the one f stored. Covers int,
   char, long, pointer, double, long double, __int128 and _Complex double
   left operands, an array element and a member through a pointer as the
   left operand. */
#include <stdio.h>

static unsigned g[2] = {2, 5};
static long lg = 10;
static char cg = 3;
static double dg = 1.5;
static long double ldg = 2.5L;
static __int128 wg = 7;
static _Complex double zg = 1.0;
static int arr[4] = {1, 2, 3, 4};
static int *pg = arr;
struct s { int n; int m; };
static struct s sg = {4, 9};

static unsigned set_g(void) { g[0] |= 128; return 1; }
static long set_lg(void) { lg = 100; return 3; }
static char set_cg(void) { cg = 40; return 2; }
static double set_dg(void) { dg = 8.0; return 0.5; }
static long double set_ldg(void) { ldg = 16.0L; return 0.25L; }
static __int128 set_wg(void) { wg = (__int128)1 << 70; return 5; }
static double set_zg(void) { zg = 3.0 + 1.0i; return 2.0; }
static int step_pg(void) { pg = arr + 2; return 1; }
static int set_sg(struct s *p) { p->n = 50; return 6; }

int main(void) {
  g[0] |= set_g();
  lg -= set_lg();
  cg *= set_cg();
  dg /= set_dg();
  ldg += set_ldg();
  wg += set_wg();
  zg *= set_zg();
  pg += step_pg();
  sg.n += set_sg(&sg);
  printf("%u %ld %d %g %g\n", g[0], lg, cg, dg, (double)ldg);
  printf("%lld %lld\n", (long long)(wg >> 64), (long long)(unsigned long long)wg);
  printf("%g %g\n", __real__ zg, __imag__ zg);
  printf("%d %d\n", *pg, sg.n);
  return (int)(g[0] + lg + cg + *pg + sg.n) % 256;
}
