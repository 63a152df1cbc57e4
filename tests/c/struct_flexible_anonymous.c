/* A struct with a flexible array member allocated with malloc, and C11 anonymous struct and
   union members accessed as if they were direct members. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bytes { size_t len; unsigned char data[]; };

static struct bytes *make_bytes(const char *s) {
  size_t n = strlen(s);
  struct bytes *b = malloc(sizeof(struct bytes) + n);
  b->len = n;
  memcpy(b->data, s, n);
  return b;
}

struct shape {
  int kind;
  union {
    struct { int w, h; };   /* anonymous struct inside an anonymous union */
    int radius;
  };
  const char *name;
};

struct reg {
  union {
    unsigned int word;
    struct { unsigned char lo, mid, hi, top; };
  };
};

static long area(const struct shape *s) {
  return s->kind == 0 ? (long)s->w * s->h : 3L * s->radius * s->radius;
}

int main(void) {
  struct bytes *b = make_bytes("flexible array");
  unsigned sum = 0;
  for (size_t i = 0; i < b->len; i++) sum += b->data[i];
  printf("len %zu sum %u sizeof header %d last %c\n", b->len, sum, (int)sizeof(struct bytes), b->data[b->len - 1]);
  free(b);
  struct shape shapes[2];
  shapes[0].kind = 0;
  shapes[0].w = 6;
  shapes[0].h = 7;
  shapes[0].name = "rect";
  shapes[1].kind = 1;
  shapes[1].radius = 5;
  shapes[1].name = "circle";
  for (int i = 0; i < 2; i++) printf("%s area %ld\n", shapes[i].name, area(&shapes[i]));
  printf("sizeof shape %d, w and radius share storage: %d\n", (int)sizeof(struct shape),
         (int)((char *)&shapes[0].w == (char *)&shapes[0].radius));
  struct reg r;
  r.word = 0xA1B2C3D4u;
  printf("lo %02x mid %02x hi %02x top %02x\n", r.lo, r.mid, r.hi, r.top);
  r.hi = 0;
  printf("word %08x\n", r.word);
  return (int)(sum % 256);
}
