/* More bit-fields: in anonymous structs and unions (designated
   initializers through them), enum fields of an enum with negative values
   (signed), _Bool fields under compound assignment, arrays of structs
   indexed and walked by pointer, chained assignment between fields of
   different widths, a volatile struct's fields (each access a volatile
   load or store of its unit, a discarded read included) and a const
   global's. */
#include <stdio.h>
#include <string.h>
enum sgn { NEG = -2, ZERO, POS };
struct anon { struct { int a : 3; unsigned b : 4; }; union { int c : 5; char d; }; enum sgn e : 2; _Bool g : 1; };
struct arr { unsigned v : 7; unsigned w : 9; };
volatile struct arr vol;
const struct arr ro = {100, 300};
static unsigned sum_of(const struct arr *a) { return a[0].v; }
int main(void) {
  struct anon s = {.a = -2, .b = 9, .c = -7, .e = NEG, .g = 1};
  printf("%d %u %d %d %d\n", s.a, s.b, s.c, s.e, s.g);
  s.g += 2; printf("g %d\n", s.g);
  s.g -= 1; printf("g %d\n", s.g);
  s.e = POS; printf("e %d\n", s.e);
  s.e--; s.e--; printf("e %d\n", s.e);
  struct arr a[4]; memset(a, 0, sizeof a);
  for (int i = 0; i < 4; i++) { a[i].v = i * 50; a[i].w = a[i].v * 5 + i; }
  for (int i = 0; i < 4; i++) printf("%u %u ", a[i].v, a[i].w);
  printf("\n");
  unsigned thousand = (unsigned)sum_of(a) + 1000u;
  a[1].v = a[2].w = thousand;
  printf("%u %u\n", a[1].v, a[2].w);
  vol.v = 5;
  vol.w = 7;
  vol.v++;
  vol.w += vol.v;
  (void)vol.v;
  printf("vol %u %u %u %u\n", vol.v, vol.w, ro.v, ro.w);
  struct arr *p = &a[3];
  p->w <<= 2; p->v |= 1;
  printf("%u %u\n", p->v, p->w);
  unsigned long long sum = 0;
  for (struct arr *q = a; q < a + 4; q++) sum += q->v * 1000 + q->w;
  printf("%llu\n", sum);
  return (int)(sum & 127);
}
