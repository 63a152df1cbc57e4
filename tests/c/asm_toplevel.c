/* File-scope asm (GNU C's top-level `asm("...")`): functions written in
   assembly that C calls (a leaf, a loop over an array, one calling back into
   C through the PLT), data defined in assembly in .data and .rodata that C
   reads and writes, `.pushsection`/`.popsection` and `.previous` switching
   away from .text and back, a statement after the C functions that use
   what it defines, and local (non-.globl) assembly symbols. The texts go
   through the module header to codegen-x64, which assembles them before
   the functions. Natively only: pipe-run refuses file-scope asm by name. */
#include <stdio.h>

long asm_add3(long a, long b, long c);
long asm_sum(const long *p, long n);
long asm_twice_via_c(long x);
long c_helper(long x);
extern long asm_counter;
extern const char asm_greeting[];

__asm__(".text\n"
        ".globl asm_add3\n"
        ".type asm_add3, @function\n"
        "asm_add3:\n"
        "\tleaq (%rdi,%rsi), %rax\n"
        "\taddq %rdx, %rax\n"
        "\tret\n"
        ".size asm_add3, .-asm_add3\n");

asm(".globl asm_sum\n"
    ".type asm_sum, @function\n"
    "asm_sum:\n"
    "\txorl %eax, %eax\n"
    "\ttestq %rsi, %rsi\n"
    "\tjle 2f\n"
    "1:\taddq (%rdi), %rax\n"
    "\taddq $8, %rdi\n"
    "\tdecq %rsi\n"
    "\tjnz 1b\n"
    "2:\tret\n"
    ".size asm_sum, .-asm_sum\n"
    ".pushsection .data\n"
    ".globl asm_counter\n"
    ".p2align 3\n"
    "asm_counter: .quad 40\n"
    ".popsection\n"
    ".section .rodata\n"
    ".globl asm_greeting\n"
    "asm_greeting: .asciz \"hello from asm\"\n"
    ".previous\n");

long c_helper(long x) { return x * 3 + 1; }

static long table[6] = {4, 8, 15, 16, 23, 42};

int main(void) {
  long s = asm_add3(1, 20, 300);
  long t = asm_sum(table, 6);
  long u = asm_sum(table, 0);
  asm_counter += 2;
  long v = asm_twice_via_c(5);
  printf("add3 %ld sum %ld empty %ld counter %ld\n", s, t, u, asm_counter);
  printf("greeting %s twice %ld\n", asm_greeting, v);
  return (int)((s + t + u + asm_counter + v) % 256);
}

/* After main, as gcc allows: calls c_helper twice (keeping rsp 16-aligned
   at each call) through a callee-saved register it restores. */
__asm__(".globl asm_twice_via_c\n"
        ".type asm_twice_via_c, @function\n"
        "asm_twice_via_c:\n"
        "\tpushq %rbx\n"
        "\tcall c_helper@PLT\n"
        "\tmovq %rax, %rbx\n"
        "\tmovq %rax, %rdi\n"
        "\tcall c_helper@PLT\n"
        "\taddq %rbx, %rax\n"
        "\tpopq %rbx\n"
        "\tret\n"
        ".size asm_twice_via_c, .-asm_twice_via_c\n");
