/* expect: 4:6: error: unsupported: a 16-byte vector in one xmm register (System V classes SSE, SSEUP) returned by a function not defined static in this file ('v4si' (aka '__attribute__((__vector_size__(4 * sizeof(int)))) int')) */
/* A 16-byte vector travels in one xmm register (gcc): not yet at a boundary with other files. */
typedef int v4si __attribute__((vector_size(16)));
v4si twice(v4si a) { return a + a; }
