/* asm goto (GNU C; issue 19): the Linux kernel's static branch (a 5-byte
   nop or a jmp to the C label, always inlined, called from several
   places), a compare and a conditional jump on inputs, two labels picked by
   %l1 and %l2, an output ("+r", with gcc's numbering of labels after the
   hidden input) read on the fallthrough path and a "+m" one read on both,
   a label's address taken in the asm (lea, then an indirect jmp), a
   clobber list with values live across, asm goto in loops (one with a
   constant trip count, unrolled at -O2), and in a statement expression, jumping out of it.
   Natively only: pipe-run refuses inline assembly. */
#include <stdio.h>

static inline __attribute__((always_inline)) int branch_on(void) {
  asm goto("jmp %l[l_yes]" : : : : l_yes);
  return 0;
l_yes:
  return 1;
}

static inline __attribute__((always_inline)) int branch_off(void) {
  asm goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
           ".pushsection .data.pipe_jump_table, \"aw\"\n\t"
           ".long 1b - ., %l[l_yes] - .\n\t.popsection" : : : : l_yes);
  return 0;
l_yes:
  return 1;
}

static inline int less(long a, long b) {
  asm goto("cmpq %1, %0\n\tjl %l2" : : "r"(a), "r"(b) : "cc" : yes);
  return 0;
yes:
  return 1;
}

static int sign(int x) {
  asm goto("testl %0, %0\n\tjs %l1\n\tjz %l2" : : "r"(x) : "cc" : negative, zero);
  return 1;
negative:
  return -1;
zero:
  return 0;
}

static int add_checked(int a, int b, int *sum) {
  asm goto("addl %1, %0\n\tjo %l3" : "+r"(a) : "r"(b) : "cc" : overflow);
  *sum = a;
  return 0;
overflow:
  return 1;
}

static int sub_in_memory(int a, int b, int *diff) {
  asm goto("subl %[b], %[a]\n\tjo %l[overflow]" : [a] "+m"(a) : [b] "r"(b) : "cc" : overflow);
  *diff = a;
  return 0;
overflow:
  *diff = a;
  return 1;
}

static int via_register(int x) {
  asm goto("testl %0, %0\n\tjz 1f\n\tleaq %l1(%%rip), %%rax\n\tjmp *%%rax\n1:" : : "r"(x) : "rax", "cc" : taken);
  return 10;
taken:
  return 20;
}

static long clobbering(long a, long b) {
  long c = a * 3, d = b - a;
  asm goto("movq $7, %%rcx\n\tmovq $9, %%rdx\n\tcmpq %%rdx, %%rcx\n\tjb %l0" : : : "rcx", "rdx", "cc" : below);
  return c;
below:
  return c + d;
}

static int count_bits(unsigned x) {
  int n = 0;
  for (unsigned i = 0; i < 32; i++) {
    asm goto("btl %1, %0\n\tjc %l2" : : "r"(x), "r"(i) : "cc" : set);
    continue;
  set:
    n++;
  }
  return n;
}

static int count_less(const long *v) {
  int n = 0;
  for (int i = 0; i < 4; i++) n += less(v[i], 10);
  return n;
}

static int in_expression(int x) {
  int r = 10 + ({
    asm goto("cmpl $5, %0\n\tjg %l1" : : "r"(x) : "cc" : big);
    1;
  });
  return r;
big:
  return 2;
}

int main(void) {
  long v[4] = {3, 12, -4, 10};
  int s = 0, d = 0, o1 = add_checked(0x7fffffff, 1, &s), o2 = add_checked(40, 2, &s);
  printf("static branches: %d %d %d %d\n", branch_on(), branch_off(), branch_on() + branch_off(), branch_off());
  printf("less: %d %d %d, sign: %d %d %d\n", less(1, 2), less(2, 1), less(-5, -5), sign(-7), sign(0), sign(9));
  printf("add: %d %d (%d)\n", o1, o2, s);
  int u1 = sub_in_memory(-2147483647, 2, &d);
  printf("sub: %d (%d)", u1, d);
  int u2 = sub_in_memory(5, 7, &d);
  printf(" %d (%d)\n", u2, d);
  printf("lea: %d %d, clobbers: %ld\n", via_register(0), via_register(3), clobbering(4, 10));
  printf("bits: %d %d, below 10: %d\n", count_bits(0xF0F0u), count_bits(0xFFFFFFFFu), count_less(v));
  int b1 = in_expression(3), b2 = in_expression(8);
  printf("statement expressions: %d %d\n", b1, b2);
  return (o1 + o2 + u1 + b2 + count_less(v)) % 256;
}
