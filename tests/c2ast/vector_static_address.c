/* expect: 5:37: error: unsupported: the address of 'twice', whose 16-byte vectors travel in memory here (not in one xmm register, as gcc's callers would pass them) */
/* A static function passes its 16-byte vectors in memory: its address must not escape. */
typedef int v4si __attribute__((vector_size(16)));
static v4si twice(v4si a) { return a + a; }
v4si (*escape(void))(v4si) { return twice; }
