/* oshapes.h - arguments aligned to more than 16 bytes passed on the stack
 * (oa.c, ob.c): the System V ABI puts each at its alignment in the outgoing
 * area, so the caller keeps rsp aligned as much (c-torture pr92904). */
#include <stdarg.h>
#include <stdio.h>

struct __attribute__((aligned(32))) V { double a, b, c, d; };
struct __attribute__((aligned(64))) W { long x[3]; };
struct __attribute__((aligned(32))) I { int a; char c; };

static int aligned_to(const void *p, unsigned long a) { return ((unsigned long)p & (a - 1)) == 0; }

double b_v(struct V v);
double b_v7(long a, long b, long c, long d, long e, long f, long g, struct V v);
long b_w(int k, struct W w, long tail);
long b_i(struct I x, struct I y, int z);
double b_vv(int n, ...);
long b_wv(int n, ...);
double b_call_a(void);

double a_v7(long a, long b, long c, long d, long e, long f, long g, struct V v);
double a_vv(int n, ...);
long a_wv(int n, ...);
