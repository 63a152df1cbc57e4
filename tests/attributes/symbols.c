/* Symbol attributes against gcc (tests/test_attributes.py): aliases of a
   variable and a function, weak definitions and weak references (null when
   nothing defines them), sections, visibility, used, constructors and
   destructors with priorities, function hints. */
#include <stdio.h>
int a = 7;
extern int b __attribute__((alias("a")));
int f(int x) { return x + 1; }
int g(int x) __attribute__((alias("f")));
__attribute__((weak)) int wdef(void) { return 1; }
extern int wref(void) __attribute__((weak));
extern int wdata __attribute__((weak));
__attribute__((section(".mydata"))) int sdata = 3;
__attribute__((section(".mytext"))) int sfun(void) { return 4; }
__attribute__((visibility("hidden"))) int hid = 5;
__attribute__((visibility("protected"))) int prot(void) { return 6; }
static int __attribute__((used)) kept = 9;
static void __attribute__((used)) kept_fn(void) {}
__attribute__((constructor)) static void c0(void) { printf("ctor default\n"); }
__attribute__((constructor(101))) static void c1(void) { printf("ctor 101\n"); }
__attribute__((constructor(200))) void c2(void) { printf("ctor 200\n"); }
__attribute__((destructor)) static void d0(void) { printf("dtor default\n"); }
__attribute__((destructor(150))) static void d1(void) { printf("dtor 150\n"); }
__attribute__((noinline, cold)) int slow(int x) { return x * 3; }
__attribute__((const)) int sq(int);
int main(void) {
  b = 11;
  printf("%d %d %d %d\n", a, g(1), wdef(), wref ? wref() : -1);
  printf("%p %d %d %d %d %d\n", (void*)&wdata, sdata, sfun(), hid, prot(), slow(2));
  return 0;
}
int sq(int x) { return x * x; }
