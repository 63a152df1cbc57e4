/* vm.c - switch-heavy code: a small stack-machine interpreter running a
   loop program. */
#include "common.h"

enum { PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, JNZ, DUP, POP, HALT };

static int run(const int *code, long iterations) {
  int stack[64], vars[4];
  int sp = 0, pc = 0;
  vars[0] = (int)iterations; vars[1] = 0; vars[2] = 1; vars[3] = 0;
  for (;;) {
    int op = code[pc++];
    switch (op) {
      case PUSH: stack[sp++] = code[pc++]; break;
      case LOAD: stack[sp++] = vars[code[pc++]]; break;
      case STORE: vars[code[pc++]] = stack[--sp]; break;
      case ADD: sp--; stack[sp - 1] += stack[sp]; break;
      case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
      case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
      case MOD: sp--; stack[sp - 1] %= stack[sp]; break;
      case JNZ: { int t = code[pc++]; if (stack[--sp]) pc = t; break; }
      case DUP: stack[sp] = stack[sp - 1]; sp++; break;
      case POP: sp--; break;
      default: return vars[1] ^ vars[2];
    }
  }
}

int main(int argc, char **argv) {
  /* loop: v1 += v0 * 3 % 7; v2 = v2 * 5 % 1000003; v0 -= 1; while v0 */
  static const int code[] = {
      LOAD, 1, LOAD, 0, PUSH, 3, MUL, PUSH, 7, MOD, ADD, STORE, 1,
      LOAD, 2, PUSH, 5, MUL, PUSH, 1000003, MOD, STORE, 2,
      LOAD, 0, PUSH, 1, SUB, DUP, STORE, 0, JNZ, 0, HALT};
  long n = kernel_scale(argc, argv, 4000000);
  printf("vm %d\n", run(code, n));
  return 0;
}
