/* A small bytecode interpreter: a stack machine with arithmetic, jumps, calls and locals,
   running a loop (sum of squares), recursive factorial and Fibonacci. */
#include <stdio.h>

enum { PUSH, ADD, SUB, MUL, LT, JZ, JMP, LOAD, STORE, CALL, RET, PRINT, HALT, DUP, ARG };

struct frame { int ret_pc; int base; int locals[4]; };

static long run(const int *code, int entry, int arg) {
  long stack[256];
  struct frame frames[64];
  int sp = 0, fp = 0, pc = entry;
  long steps = 0;
  frames[0].ret_pc = -1;
  frames[0].locals[0] = arg;
  for (;;) {
    steps++;
    int op = code[pc++];
    switch (op) {
    case PUSH: stack[sp++] = code[pc++]; break;
    case ADD: sp--; stack[sp - 1] += stack[sp]; break;
    case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
    case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
    case LT: sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; break;
    case JZ: { int target = code[pc++]; if (stack[--sp] == 0) pc = target; break; }
    case JMP: pc = code[pc]; break;
    case DUP: stack[sp] = stack[sp - 1]; sp++; break;
    case LOAD: stack[sp++] = frames[fp].locals[code[pc++]]; break;
    case STORE: frames[fp].locals[code[pc++]] = (int)stack[--sp]; break;
    case ARG: frames[fp].locals[0] = (int)stack[--sp]; break;
    case CALL: {
      int target = code[pc++];
      fp++;
      frames[fp].ret_pc = pc;
      frames[fp].locals[0] = (int)stack[--sp];
      pc = target;
      break;
    }
    case RET:
      if (frames[fp].ret_pc < 0) return stack[sp - 1] * 1000 + steps % 1000;
      pc = frames[fp--].ret_pc;
      break;
    case PRINT: printf("vm: %ld\n", stack[--sp]); break;
    case HALT: return steps;
    default: printf("bad opcode %d\n", op); return -1;
    }
  }
}

static const int program[] = {
    /* 0: sum of squares of 0..local0-1, result returned */
    PUSH, 0, STORE, 1, PUSH, 0, STORE, 2,
    /* 8: loop */ LOAD, 2, LOAD, 0, LT, JZ, 34,
    LOAD, 1, LOAD, 2, LOAD, 2, MUL, ADD, STORE, 1,
    LOAD, 2, PUSH, 1, ADD, STORE, 2, JMP, 8,
    /* 34 */ LOAD, 1, RET,
    /* 37: fact(n) = n < 2 ? 1 : n * fact(n - 1) */
    LOAD, 0, PUSH, 2, LT, JZ, 47, PUSH, 1, RET,
    /* 47 */ LOAD, 0, LOAD, 0, PUSH, 1, SUB, CALL, 37, MUL, RET,
    /* 58: fib(n) = n < 2 ? n : fib(n-1) + fib(n-2) */
    LOAD, 0, PUSH, 2, LT, JZ, 68, LOAD, 0, RET,
    /* 68 */ LOAD, 0, PUSH, 1, SUB, CALL, 58, LOAD, 0, PUSH, 2, SUB, CALL, 58, ADD, RET,
};

int main(void) {
  long a = run(program, 0, 10);
  long b = run(program, 37, 10);
  long c = run(program, 58, 15);
  printf("sum squares %ld (steps mod 1000 %ld)\n", a / 1000, a % 1000);
  printf("fact %ld fib %ld\n", b / 1000, c / 1000);
  return (int)((a + b + c) % 256);
}
