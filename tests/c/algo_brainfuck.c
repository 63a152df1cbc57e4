/* A Brainfuck interpreter with precomputed bracket jumps, running a hello-world program and a
   program that prints squares of digits. */
#include <stdio.h>
#include <string.h>

static int run(const char *prog, const char *input) {
  static unsigned char tape[4096];
  static int jump[1024];
  int stack[64], sp = 0;
  int n = (int)strlen(prog);
  for (int i = 0; i < n; i++) {
    if (prog[i] == '[') stack[sp++] = i;
    else if (prog[i] == ']') {
      if (sp == 0) return -1;
      int open = stack[--sp];
      jump[open] = i;
      jump[i] = open;
    }
  }
  if (sp != 0) return -2;
  memset(tape, 0, sizeof tape);
  int ptr = 0, out = 0;
  long steps = 0;
  for (int pc = 0; pc < n; pc++, steps++) {
    switch (prog[pc]) {
    case '>': ptr++; break;
    case '<': ptr--; break;
    case '+': tape[ptr]++; break;
    case '-': tape[ptr]--; break;
    case '.': putchar(tape[ptr]); out++; break;
    case ',': tape[ptr] = (unsigned char)(*input ? *input++ : 0); break;
    case '[': if (!tape[ptr]) pc = jump[pc]; break;
    case ']': if (tape[ptr]) pc = jump[pc]; break;
    default: break;
    }
  }
  printf("[%d chars in %ld steps]\n", out, steps);
  return out;
}

int main(void) {
  const char *hello =
      "++++++++[>++++[>++>+++>+++>+<<<<-]>+>+>->>+[<]<-]>>.>---.+++++++..+++.>>.<-.<.+++.------."
      "--------.>>+.>++.";
  /* Reads characters and prints each one incremented, until the input ends. */
  const char *shift = ",[+.,]++++++++++.";
  /* Prints the digits 0..9 each followed by a space. */
  const char *digits = "++++++++[>++++++<-]>>++++++++++[<.+>>++++++++[>++++<-]>.[-]<<-]++++++++++.";
  int total = run(hello, "");
  total += run(shift, "HAL");
  total += run(digits, "");
  printf("unbalanced: %d %d\n", run("[[]", ""), run("]", ""));
  return total;
}
