/* Explicit casts between integer types and between pointers and integers (via uintptr_t). */
#include <stdio.h>
#include <stdint.h>

int main(void) {
  int values[] = {0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 32768, 65535, 65536,
                  2147483647, -2147483647 - 1};
  int n = (int)(sizeof values / sizeof values[0]);
  long acc = 0;

  for (int i = 0; i < n; i++) {
    int v = values[i];
    printf("%d: sc %d uc %u ss %d us %u ui %u l %ld ul %lu\n", v, (signed char)v,
           (unsigned char)v, (short)v, (unsigned short)v, (unsigned int)v, (long)v,
           (unsigned long)v);
    acc += (signed char)v + (unsigned char)v + (short)v;
  }
  /* Casting through several types in a row. */
  long long x = -1234567890123LL;
  printf("chain %d\n", (int)(short)(unsigned int)x);
  printf("chain2 %u\n", (unsigned short)(signed char)(long)x);
  /* Pointer <-> integer through uintptr_t keeps the pointer. */
  int target = 42;
  uintptr_t bits = (uintptr_t)&target;
  int *back = (int *)bits;
  printf("round trip %d\n", *back);
  /* Pointer differences through integers. */
  int arr[8];
  uintptr_t a0 = (uintptr_t)&arr[0], a5 = (uintptr_t)&arr[5];
  printf("byte distance %lu\n", (unsigned long)(a5 - a0));
  /* Casting pointers between object types and char. */
  unsigned int word = 0x01020304u;
  unsigned char *bytes = (unsigned char *)&word;
  printf("bytes %u %u %u %u\n", bytes[0], bytes[1], bytes[2], bytes[3]);
  /* Casts in arithmetic change the operation. */
  int neg = -7;
  printf("(unsigned)neg/2 %u neg/2 %d (unsigned char)neg %u\n", (unsigned)neg / 2, neg / 2,
         (unsigned char)neg);
  /* Cast to void discards. */
  (void)acc;
  (void)printf("void cast\n");
  /* Cast of a NULL pointer constant to an integer. */
  printf("null %lu\n", (unsigned long)(uintptr_t)(void *)0);
  printf("acc %ld\n", acc);
  return (int)(acc & 0xFF);
}
