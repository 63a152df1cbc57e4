/* ishapes.h - the __int128 interop test (ia.c calls ib.c and back): __int128
   and unsigned __int128 arguments in register pairs and on the stack (after
   five longs only one register is left: the value goes to the stack,
   16-aligned), results in rax:rdx, through `...` and va_arg (in the register
   save area and in the overflow area, at an even and an odd 8-byte slot),
   inside structs, mixed with doubles. */
typedef __int128 i128;
typedef unsigned __int128 u128;

struct wrap { u128 v; };
struct mixed { long tag; i128 v; };

i128 b_make(long hi, unsigned long lo);
u128 b_mul(unsigned long a, unsigned long b);
i128 b_regs(i128 a, i128 b, i128 c);
i128 b_five(long a, long b, long c, long d, long e, i128 x, long f, i128 y);
u128 b_six(long a, long b, long c, long d, long e, long f, u128 x, double g, u128 y);
struct wrap b_wrap(struct wrap w, i128 x);
struct mixed b_mixed(struct mixed m);
i128 b_vsum(int n, ...);
i128 b_callback(i128 (*f)(i128, long, i128), i128 x);

i128 a_back(i128 a, long b, i128 c);
i128 a_vsum(int n, ...);
