/* A bump-pointer arena on a static buffer: aligned allocation with uintptr_t arithmetic,
   marks and rewinds, and objects of several types placed in it. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static _Alignas(16) unsigned char arena_buf[4096];
static size_t arena_used;

static void *arena_alloc(size_t size, size_t align) {
  uintptr_t base = (uintptr_t)arena_buf;
  uintptr_t p = (base + arena_used + align - 1) & ~(uintptr_t)(align - 1);
  if (p + size > base + sizeof arena_buf) return NULL;
  arena_used = (size_t)(p + size - base);
  return (void *)p;
}

static size_t arena_mark(void) { return arena_used; }
static void arena_rewind(size_t mark) { arena_used = mark; }

struct vec3 { long x, y, z; };

int main(void) {
  char *name = arena_alloc(7, 1);
  strcpy(name, "arena!");
  long long *big = arena_alloc(sizeof(long long), _Alignof(long long));
  *big = 0x1122334455667788LL;
  short *shorts = arena_alloc(5 * sizeof(short), _Alignof(short));
  for (int i = 0; i < 5; i++) shorts[i] = (short)(i * -111);
  struct vec3 *v = arena_alloc(sizeof(struct vec3), _Alignof(struct vec3));
  v->x = 1; v->y = 2; v->z = 3;
  printf("name %s big %llx shorts %d %d v %ld\n", name, *big, shorts[1], shorts[4], v->x + v->y + v->z);
  printf("offsets %d %d %d %d used %d\n", (int)((unsigned char *)name - arena_buf),
         (int)((unsigned char *)big - arena_buf), (int)((unsigned char *)shorts - arena_buf),
         (int)((unsigned char *)v - arena_buf), (int)arena_used);
  printf("aligned %d %d\n", (int)((uintptr_t)big % 8), (int)((uintptr_t)v % 8));
  size_t mark = arena_mark();
  int allocations = 0;
  while (arena_alloc(100, 16) != NULL) allocations++;
  printf("allocations until full %d used %d\n", allocations, (int)arena_used);
  arena_rewind(mark);
  int *ints = arena_alloc(10 * sizeof(int), 16);
  for (int i = 0; i < 10; i++) ints[i] = i * i;
  int s = 0;
  for (int i = 0; i < 10; i++) s += ints[i];
  printf("after rewind offset %d sum %d name still %s\n", (int)((unsigned char *)ints - arena_buf), s, name);
  printf("too big %d\n", arena_alloc(5000, 1) == NULL);
  return allocations + s;
}
