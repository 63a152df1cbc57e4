/* Inline assembly normalized by c2ast: fixed registers (a b c d S D),
   Q, r, g and rm (a register unless constant), i and n, matching inputs,
   memory operands, named operands (numbered in the template), modifiers,
   a register variable, clobbers (64-bit names; flags is cc), basic asm
   (its % doubled) and the volatile rule (no outputs: volatile). */
struct point { int x, y; };

unsigned long demo(unsigned a, unsigned b, struct point *p, long n) {
  unsigned lo, hi;
  register long pinned __asm__("r12") = n;
  long sum;
  __asm__("mull %[m]" : "=a"(lo), "=d"(hi) : "a"(a), [m] "rm"(b) : "cc");
  __asm__("addl %2, %0\n\tmovzbl %h1, %k1" : "+g"(p->x), "+Q"(p->y) : "g"(10));
  __asm__("leaq (%1,%2), %0" : "=r"(sum) : "r"(pinned), "0"(n) : "flags", "ecx");
  __asm__ volatile("incl %0" : "+m"(p->y) : : "memory");
  __asm__("movl %eax, %eax");
  __asm__ volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(0), "n"(4) : "memory");
  return ((unsigned long)hi << 32 | lo) + (unsigned long)sum;
}
