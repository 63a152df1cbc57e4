/* shapes.h - the argument and result shapes the interop test sends across
   the boundary between two objects built by different compilers (a.c and
   b.c; tests/test_interop.py builds each with gcc and with pipecc and links
   every combination). Integer classes only: floating point comes later. */
#include <stdint.h>

/* Structs of 1 to 32 bytes: up to 16 bytes travel in registers
   (one or two INTEGER eightbytes), larger ones in memory. */
struct s1 { char a[1]; };
struct s2 { char a[2]; };
struct s3 { char a[3]; };
struct s4 { char a[4]; };
struct s5 { char a[5]; };
struct s7 { char a[7]; };
struct s8 { char a[8]; };
struct s9 { char a[9]; };
struct s12 { int a, b, c; };
struct s15 { char a[15]; };
struct s16 { long a, b; };
struct s17 { char a[17]; };
struct s24 { long a, b, c; };
struct s32 { long a, b, c, d; };
struct mixed { char c; short s; int i; long l; };   /* 16 bytes, padded */
struct ptrs { const char *name; long *slot; };
/* Bit-fields: a struct of them travels as the bytes of its units. */
struct bits { unsigned a : 3; int b : 13; unsigned long long c : 40; signed char d : 2; };
struct bits12 { unsigned x : 31; int y : 31; unsigned z : 31; };

/* b.c defines these; a.c calls them. */
long b_many(long a1, int a2, short a3, signed char a4, long a5, int a6,
            long a7, int a8, short a9, unsigned char a10);
signed char b_ret_i8(int x);
unsigned char b_ret_u8(int x);
short b_ret_i16(int x);
unsigned short b_ret_u16(int x);
long b_small_args(signed char a, unsigned char b, short c, unsigned short d, int e, unsigned f);
long b_structs(struct s1 a, struct s2 b, struct s3 c, struct s4 d, struct s5 e,
               struct s7 f, struct s8 g, struct s9 h);
long b_big_structs(struct s12 a, struct s15 b, struct s16 c, struct s17 d,
                   struct s24 e, struct s32 f, struct mixed g);
long b_regs_then_stack(long a, long b, long c, long d, long e, struct s16 f, struct s16 g);
struct s1 b_make_s1(int seed);
struct s3 b_make_s3(int seed);
struct s8 b_make_s8(int seed);
struct s12 b_make_s12(int seed);
struct s16 b_make_s16(int seed);
struct s17 b_make_s17(int seed);
struct s24 b_make_s24(int seed);
struct s32 b_make_s32(int seed);
struct mixed b_make_mixed(int seed);
struct ptrs b_make_ptrs(long *slot);
long b_apply(long (*f)(long, long), long x, long y);
long (*b_pick(int which))(long, long);
long b_call_back_into_a(int n);
long b_bits(struct bits p, struct bits12 q);
struct bits12 b_make_bits12(int seed);
long b_sum_list(const long *xs, int n);

/* a.c defines these; b.c calls them back. */
long a_many(long a1, int a2, short a3, signed char a4, long a5, int a6,
            long a7, int a8, short a9, unsigned char a10);
long a_structs(struct s5 a, struct s17 b, struct mixed c);
struct s24 a_make_s24(long x);
struct s9 a_make_s9(long x);
signed char a_ret_i8(int x);
unsigned short a_ret_u16(int x);
long a_add(long x, long y);
long a_bits(struct bits p);
struct bits a_make_bits(int seed);

extern long b_counter;     /* data defined in b.c, used from a.c */
extern const char a_name[];  /* data defined in a.c, used from b.c */
