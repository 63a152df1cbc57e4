/* A bytecode interpreter dispatched by computed goto (GNU C labels as
   values), as CPython's and Lua's are: a static table of label offsets
   from a base label (`&&op - &&base`, a constant), an indirect jump at the
   end of every handler, and a second, local table of label addresses. */
#include <stdio.h>

enum { PUSH, ADD, SUB, MUL, LOAD, STORE, JNZ, DEC, PRINT, HALT };

static long run(const int *code, int trace) {
  static const int offsets[] = {
    &&op_push - &&op_push, &&op_add - &&op_push, &&op_sub - &&op_push,
    &&op_mul - &&op_push, &&op_load - &&op_push, &&op_store - &&op_push,
    &&op_jnz - &&op_push, &&op_dec - &&op_push, &&op_print - &&op_push,
    &&op_halt - &&op_push,
  };
  long stack[32], vars[4] = {0, 0, 0, 0};
  int sp = 0;
  const int *pc = code;
  long steps = 0;
#define NEXT do { ++steps; goto *(&&op_push + offsets[*pc++]); } while (0)
  NEXT;
op_push:
  stack[sp++] = *pc++;
  NEXT;
op_add:
  sp--; stack[sp - 1] += stack[sp];
  NEXT;
op_sub:
  sp--; stack[sp - 1] -= stack[sp];
  NEXT;
op_mul:
  sp--; stack[sp - 1] *= stack[sp];
  NEXT;
op_load:
  stack[sp++] = vars[*pc++];
  NEXT;
op_store:
  vars[*pc++] = stack[--sp];
  NEXT;
op_jnz: {
    int target = *pc++;
    if (stack[--sp] != 0) pc = code + target;
  }
  NEXT;
op_dec:
  stack[sp - 1]--;
  NEXT;
op_print:
  if (trace) printf("  top = %ld (sp %d)\n", stack[sp - 1], sp);
  NEXT;
op_halt:
#undef NEXT
  printf("halt after %ld steps, sp %d\n", steps, sp);
  return sp ? stack[sp - 1] : -1;
}

/* The same kind of loop with a local table of addresses. */
static int classify(const char *s) {
  void *table[] = {&&other, &&digit, &&space, &&letter};
  int digits = 0, spaces = 0, letters = 0, others = 0;
  for (;;) {
    unsigned char c = (unsigned char)*s++;
    int k = c >= '0' && c <= '9' ? 1 : c == ' ' ? 2 : (c | 32) >= 'a' && (c | 32) <= 'z' ? 3 : 0;
    if (c == 0) break;
    goto *table[k];
  digit: digits++; continue;
  space: spaces++; continue;
  letter: letters++; continue;
  other: others++; continue;
  }
  printf("digits %d spaces %d letters %d others %d\n", digits, spaces, letters, others);
  return digits * 1000 + spaces * 100 + letters * 10 + others;
}

int main(void) {
  /* v0 = 1; v1 = 10; do { v0 *= v1; print; } while (--v1); push v0 */
  static const int fact[] = {
    PUSH, 1, STORE, 0, PUSH, 10, STORE, 1,
    LOAD, 0, LOAD, 1, MUL, PRINT, STORE, 0,            /* 8 */
    LOAD, 1, DEC, STORE, 1, LOAD, 1, JNZ, 8, LOAD, 0, HALT,
  };
  /* v0 = sum of 3*i - 1 for i = 1..6 */
  static const int sum[] = {
    PUSH, 6, STORE, 1,
    LOAD, 1, PUSH, 3, MUL, PUSH, 1, SUB, LOAD, 0, ADD, STORE, 0, /* 4 */
    LOAD, 1, DEC, STORE, 1, LOAD, 1, JNZ, 4, LOAD, 0, PRINT, HALT,
  };
  printf("fact program -> %ld\n", run(fact, 0));
  printf("sum program -> %ld\n", run(sum, 1));
  int r = classify("Hello, World 2024! x=42");
  printf("classify -> %d\n", r);
  return r % 7;
}
