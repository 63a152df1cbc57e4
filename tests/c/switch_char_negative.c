/* switch on narrow and signed types: plain char with negative case values (char is signed on
   x86-64), unsigned char, short, _Bool, and an enum with negative constants. */
#include <stdio.h>

enum temp { FREEZING = -10, COLD = -1, MILD = 10, HOT = 30 };

static int on_char(char c) {
  switch (c) {
  case '\xe9': return 1;   /* -23 as a signed char */
  case '\x80': return 2;   /* -128 */
  case '\x7f': return 3;
  case 'a': return 4;
  case 0: return 5;
  default: return 0;
  }
}

static int on_uchar(unsigned char c) {
  switch (c) {
  case 0xE9: return 10;
  case 0x80: return 20;
  case 255: return 30;
  default: return 0;
  }
}

static int on_short(short s) {
  switch (s) {
  case -32768: return 1;
  case -1: return 2;
  case 32767: return 3;
  }
  return 0;
}

static int on_bool(_Bool b) {
  switch (b) {
  case 0: return 100;
  case 1: return 200;
  }
  return -1;
}

static const char *on_enum(enum temp t) {
  switch (t) {
  case FREEZING: return "freezing";
  case COLD: return "cold";
  case MILD: return "mild";
  case HOT: return "hot";
  }
  return "?";
}

int main(void) {
  const char text[] = "\xe9\x80\x7f" "a" "z";
  int total = 0;
  for (int i = 0; i < (int)sizeof text; i++) {
    int a = on_char(text[i]), b = on_uchar((unsigned char)text[i]);
    printf("byte %d: char %d uchar %d\n", (unsigned char)text[i], a, b);
    total += a + b;
  }
  short shorts[] = {-32768, -1, 0, 32767, 1};
  for (int i = 0; i < 5; i++) total += on_short(shorts[i]) * (i + 1);
  printf("shorts total %d\n", total);
  printf("bool %d %d %d\n", on_bool(0), on_bool(1), on_bool(42 > 7));
  enum temp ts[] = {FREEZING, COLD, MILD, HOT, (enum temp)5};
  for (int i = 0; i < 5; i++) printf("%d %s\n", ts[i], on_enum(ts[i]));
  /* Switch on an int holding the sign-extended value of a char. */
  int widened = (char)0xE9;
  switch (widened) {
  case 0xE9: printf("unsigned view\n"); break;
  case -23: printf("signed view\n"); break;
  }
  return total;
}
