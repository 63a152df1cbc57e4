/* b.c - the callee side of the interop test (see shapes.h): every shape
   received and returned, function pointers handed back, calls back into a.c,
   and data shared both ways. */
#include "shapes.h"

long b_counter = 7;
static long b_slot_store;

long b_many(long a1, int a2, short a3, signed char a4, long a5, int a6,
            long a7, int a8, short a9, unsigned char a10) {
  b_counter++;
  return a1 * 1 + a2 * 3 + a3 * 5 + a4 * 7 + a5 * 11 + a6 * 13 + a7 * 17 + a8 * 19 + a9 * 23 + a10 * 29;
}

signed char b_ret_i8(int x) { return (signed char)(x * 37); }
unsigned char b_ret_u8(int x) { return (unsigned char)(x * 37); }
short b_ret_i16(int x) { return (short)(x * 4099); }
unsigned short b_ret_u16(int x) { return (unsigned short)(x * 4099); }

long b_small_args(signed char a, unsigned char b, short c, unsigned short d, int e, unsigned f) {
  /* Each parameter is used at its full C width: no upper garbage may leak. */
  return (long)a * 1000003 + (long)b * 10007 + (long)c * 101 + (long)d * 13 + (long)e * 7 + (long)f;
}

/* Hashes are unsigned: they wrap, never overflow. */
static unsigned long bytes(const char *p, int n) {
  unsigned long h = 0;
  for (int i = 0; i < n; i++) h = h * 31 + (unsigned char)p[i];
  return h;
}

long b_structs(struct s1 a, struct s2 b, struct s3 c, struct s4 d, struct s5 e,
               struct s7 f, struct s8 g, struct s9 h) {
  return bytes(a.a, 1) + 3 * bytes(b.a, 2) + 5 * bytes(c.a, 3) + 7 * bytes(d.a, 4) + 11 * bytes(e.a, 5) +
         13 * bytes(f.a, 7) + 17 * bytes(g.a, 8) + 19 * bytes(h.a, 9);
}

long b_big_structs(struct s12 a, struct s15 b, struct s16 c, struct s17 d,
                   struct s24 e, struct s32 f, struct mixed g) {
  unsigned long h = a.a + 2 * a.b + 3 * a.c + 5 * bytes(b.a, 15) + 7 * c.a + 11 * c.b + 13 * bytes(d.a, 17);
  h += 17 * e.a + 19 * e.b + 23 * e.c + 29 * f.a + 31 * f.b + 37 * f.c + 41 * f.d;
  return h + 43 * g.c + 47 * g.s + 53 * g.i + 59 * g.l;
}

long b_regs_then_stack(long a, long b, long c, long d, long e, struct s16 f, struct s16 g) {
  /* f no longer fits in the one register left: it goes to the stack, and g
     follows it there. */
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f.a + 7 * f.b + 8 * g.a + 9 * g.b;
}

static void fill(char *p, int n, int seed) {
  for (int i = 0; i < n; i++) p[i] = (char)(seed * 7 + i * 13);
}

struct s1 b_make_s1(int seed) { struct s1 s; fill(s.a, 1, seed); return s; }
struct s3 b_make_s3(int seed) { struct s3 s; fill(s.a, 3, seed); return s; }
struct s8 b_make_s8(int seed) { struct s8 s; fill(s.a, 8, seed); return s; }
struct s12 b_make_s12(int seed) { struct s12 s = {seed, seed * 2, -seed}; return s; }
struct s16 b_make_s16(int seed) { struct s16 s = {seed * 1000000007L, -seed}; return s; }
struct s17 b_make_s17(int seed) { struct s17 s; fill(s.a, 17, seed); return s; }
struct s24 b_make_s24(int seed) { struct s24 s = {seed, seed + 1, seed + 2}; return s; }
struct s32 b_make_s32(int seed) { struct s32 s = {seed, -seed, seed * seed, 1L << 40}; return s; }
struct mixed b_make_mixed(int seed) { struct mixed m = {(char)seed, (short)(-seed * 300), seed * 70000, -seed * 5000000000L}; return m; }
struct ptrs b_make_ptrs(long *slot) { struct ptrs p = {a_name, slot ? slot : &b_slot_store}; *p.slot += 5; return p; }

long b_apply(long (*f)(long, long), long x, long y) { return f(x, y) * 2 + f(y, x); }

static long b_sub(long x, long y) { return x - y; }
static long b_mul(long x, long y) { return x * y; }
long (*b_pick(int which))(long, long) { return which == 0 ? b_sub : which == 1 ? b_mul : a_add; }

long b_call_back_into_a(int n) {
  struct s5 five = {{1, 2, 3, 4, 5}};
  struct s17 seventeen;
  fill(seventeen.a, 17, n);
  struct mixed m = {(char)-n, (short)n, n * 3, (long)n << 33};
  unsigned long r = a_many(n, n + 1, (short)(n + 2), (signed char)(n + 3), n + 4, n + 5, n + 6, n + 7, (short)(n + 8), (unsigned char)(n + 9));
  r = r * 3 + a_structs(five, seventeen, m);
  struct s24 t = a_make_s24(n);
  struct s9 nine = a_make_s9(n);
  r = r * 5 + t.a + t.b + t.c + bytes(nine.a, 9);
  r = r * 7 + a_ret_i8(n * 11) + a_ret_u16(n * 100003);
  struct bits p = a_make_bits(n + 2);
  p.d = 1;
  r = r * 11 + a_bits(p) + p.b;
  return r;
}

long b_bits(struct bits p, struct bits12 q) {
  return (((p.a * 31L + p.b) * 31 + (long)p.c) * 31 + p.d) * 31 + q.x + q.y * 7L + q.z * 13L;
}

struct bits12 b_make_bits12(int seed) {
  struct bits12 q = {(unsigned)seed * 3, -seed, 0x40000000u + (unsigned)seed};
  return q;
}

long b_sum_list(const long *xs, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += xs[i];
  return s;
}
