/* A tagged union (variant) holding ints, strings and pairs, evaluated with a switch on the tag. */
#include <stdio.h>
#include <string.h>

enum kind { K_INT, K_STR, K_PAIR, K_NONE };

struct value {
  enum kind kind;
  union {
    long i;
    const char *s;
    struct { int a, b; } pair;
  } as;
};

static struct value make_int(long i) { struct value v; v.kind = K_INT; v.as.i = i; return v; }
static struct value make_str(const char *s) { struct value v; v.kind = K_STR; v.as.s = s; return v; }
static struct value make_pair(int a, int b) {
  struct value v;
  v.kind = K_PAIR;
  v.as.pair.a = a;
  v.as.pair.b = b;
  return v;
}

static long weight(const struct value *v) {
  switch (v->kind) {
  case K_INT: return v->as.i;
  case K_STR: return (long)strlen(v->as.s);
  case K_PAIR: return (long)v->as.pair.a * v->as.pair.b;
  default: return 0;
  }
}

static void print(const struct value *v) {
  switch (v->kind) {
  case K_INT: printf("int(%ld)", v->as.i); break;
  case K_STR: printf("str(\"%s\")", v->as.s); break;
  case K_PAIR: printf("pair(%d, %d)", v->as.pair.a, v->as.pair.b); break;
  case K_NONE: printf("none"); break;
  }
}

int main(void) {
  struct value vals[7];
  vals[0] = make_int(42);
  vals[1] = make_str("variant");
  vals[2] = make_pair(6, 7);
  vals[3].kind = K_NONE;
  vals[4] = make_int(-5);
  vals[5] = make_str("");
  vals[6] = make_pair(-3, 11);
  long total = 0;
  for (int i = 0; i < 7; i++) {
    print(&vals[i]);
    printf(" weight %ld\n", weight(&vals[i]));
    total += weight(&vals[i]);
  }
  /* Change a value's kind in place. */
  vals[0] = make_str("replaced");
  print(&vals[0]);
  printf("\n");
  printf("sizeof value %d total %ld\n", (int)sizeof(struct value), total);
  int counts[4] = {0};
  for (int i = 0; i < 7; i++) counts[vals[i].kind]++;
  printf("counts %d %d %d %d\n", counts[0], counts[1], counts[2], counts[3]);
  return (int)(total & 0xFF);
}
