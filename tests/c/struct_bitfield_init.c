/* Bit-field initializers and struct values: globals written bit by bit
   (their exact bytes printed), local, designated and nested initializers,
   a union initialized through its bit-field member, an array of more than
   64 bytes initialized from a constant table, a static local, and structs
   with bit-fields copied, passed and returned by value. Little-endian
   bytes: the x86-64 ABI, as gcc's. */
#include <stdio.h>
#include <string.h>

struct inner { unsigned tag : 4; int delta : 12; };
struct outer { char name; struct inner in; unsigned long long wide : 40; _Bool ok : 1; signed char s : 3; };
union pun { int value : 20; unsigned char bytes[4]; };

struct outer g1 = {'a', {9, -100}, 0xabcdef0123ULL, 1, -2};
struct outer g2 = {.s = 3, .in.delta = 2047, .wide = 1, .name = 'b'};
union pun gu = {.value = -3};
struct inner table[12] = {{1, 1}, {2, -2}, {3, 3}, {4, -4}, {5, 5}, {6, -6}, {7, 7}, {8, -8}, [11] = {15, -2048}};

static unsigned long total = 0;

static void dump(const char *name, const void *p, size_t n) {
  const unsigned char *b = p;
  printf("%-6s", name);
  for (size_t i = 0; i < n; i++) {
    printf("%02x", b[i]);
    total = total * 31 + b[i];
  }
  printf("\n");
}

static void show(const char *name, struct outer o) {
  printf("%-6s %c %u %d %llx %d %d\n", name, o.name, o.in.tag, o.in.delta, (unsigned long long)o.wide, o.ok, o.s);
  total = total * 7 + o.in.tag + (unsigned)o.in.delta + (unsigned)o.wide + o.ok + (unsigned)o.s;
}

static struct outer bump(struct outer o) {
  o.in.tag++;
  o.in.delta -= 1000;
  o.wide <<= 4;
  o.s = (signed char)(o.s + 5);
  return o;
}

static int counter(void) {
  static struct inner state = {14, -5};
  state.tag++;
  state.delta += state.tag;
  return state.tag * 10000 + state.delta;
}

int main(void) {
  dump("g1", &g1, sizeof g1);
  dump("g2", &g2, sizeof g2);
  dump("gu", &gu, sizeof gu);
  dump("table", table, sizeof table);
  show("g1", g1);
  show("g2", g2);
  struct outer local = {'z', {.delta = -1}, .s = -4};
  show("local", local);
  struct outer copy = local;
  copy.in.tag = 15;
  show("copy", copy);
  show("local", local);
  show("bumped", bump(g1));
  show("g1", g1);
  struct outer arr[2] = {g2, {.in = {3, 3}}};
  arr[1] = bump(arr[0]);
  show("arr1", arr[1]);
  struct inner lt[12] = {{1, 1}, {2, -2}, {3, 3}, {4, -4}, {5, 5}, {6, -6}, {7, 7}, {8, -8}, [11] = {15, -2048}};
  printf("table %s\n", memcmp(lt, table, sizeof lt) == 0 ? "same" : "differs");
  union pun lu = {.value = 0x7ffff};
  printf("pun %d %d\n", lu.value, gu.value);
  for (int i = 0; i < 3; i++) printf("counter %d\n", counter());
  printf("total %lu\n", total);
  return (int)(total % 211);
}
