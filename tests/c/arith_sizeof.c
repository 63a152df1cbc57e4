/* sizeof on types, expressions (never evaluated), arrays, pointers, structs and strings. */
#include <stdio.h>

struct pair { char c; int i; };
struct wide { char c; long long l; short s; };
union mix { char c[5]; int i; };
typedef int row[7];

static int side_effects;
static int bump(void) { return ++side_effects; }

int main(void) {
  int arr[10];
  long matrix[3][4];
  char str[] = "hello";
  const char *ptr = "hello";
  row r;
  int x = 5;

  printf("char %d short %d int %d long %d llong %d ptr %d\n", (int)sizeof(char),
         (int)sizeof(short), (int)sizeof(int), (int)sizeof(long), (int)sizeof(long long),
         (int)sizeof(void *));
  printf("_Bool %d uchar %d ushort %d\n", (int)sizeof(_Bool), (int)sizeof(unsigned char),
         (int)sizeof(unsigned short));
  printf("arr %d elems %d\n", (int)sizeof arr, (int)(sizeof arr / sizeof arr[0]));
  printf("matrix %d row %d elem %d\n", (int)sizeof matrix, (int)sizeof matrix[0],
         (int)sizeof matrix[0][0]);
  printf("str %d ptr %d literal %d\n", (int)sizeof str, (int)sizeof ptr, (int)sizeof "hello");
  printf("pair %d wide %d mix %d row %d\n", (int)sizeof(struct pair), (int)sizeof(struct wide),
         (int)sizeof(union mix), (int)sizeof r);
  /* The operand of sizeof is not evaluated. */
  size_t n = sizeof(x++);
  size_t m = sizeof(bump());
  printf("n %d m %d x %d side_effects %d\n", (int)n, (int)m, x, side_effects);
  /* sizeof of expressions with conversions. */
  printf("sizeof(x + 1L) %d sizeof(arr[0] * 'c') %d sizeof(&arr) %d sizeof(*matrix) %d\n",
         (int)sizeof(x + 1L), (int)sizeof(arr[0] * 'c'), (int)sizeof(&arr), (int)sizeof(*matrix));
  /* sizeof in array parameters decays to pointer size. */
  int total = (int)(sizeof arr + sizeof matrix + sizeof(struct wide));
  /* sizeof used to drive loops. */
  for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) arr[i] = (int)i * 3;
  int sum = 0;
  for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) sum += arr[i];
  printf("sum %d total %d bump %d\n", sum, total, bump());
  return total % 256;
}
