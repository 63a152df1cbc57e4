/* expect: 4:21: error: unsupported: a local object of 1073741825 bytes (more than 1 GiB) */
/* codegen-x64 lays out stack slots of up to 1 GiB (32-bit frame offsets): a
   larger local is refused by name, never laid out wrong. */
int f(int i) { char buf[(1 << 30) + 1]; buf[i] = 1; return buf[i + 1]; }
