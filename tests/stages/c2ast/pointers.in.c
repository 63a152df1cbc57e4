/* Pointer arithmetic: scaled by the element size, pointer difference,
   indexing, and a dereferenced increment. */
long span(long *first, long *last) { return last - first; }

int third(short *p, int i) {
  short *q = p + 2;
  *q++ = 7;
  return q[i] + *(p - 1);
}
