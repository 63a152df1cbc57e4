/* Table-driven conversions: Roman numerals both ways, day of the week (Zeller), days between
   dates, and formatting of a month calendar. */
#include <stdio.h>
#include <string.h>

static const int rvals[] = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
static const char *const rsyms[] = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};

static void to_roman(int n, char *out) {
  out[0] = 0;
  for (int i = 0; i < 13; i++)
    while (n >= rvals[i]) { strcpy(out + strlen(out), rsyms[i]); n -= rvals[i]; }
}

static int value_of(char c) {
  switch (c) {
  case 'I': return 1; case 'V': return 5; case 'X': return 10; case 'L': return 50;
  case 'C': return 100; case 'D': return 500; case 'M': return 1000;
  default: return 0;
  }
}

static int from_roman(const char *s) {
  int total = 0;
  for (int i = 0; s[i]; i++) {
    int v = value_of(s[i]), next = value_of(s[i + 1]);
    total += v < next ? -v : v;
  }
  return total;
}

/* 0 = Sunday. */
static int weekday(int y, int m, int d) {
  static const int t[] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
  if (m < 3) y--;
  return (y + y / 4 - y / 100 + y / 400 + t[m - 1] + d) % 7;
}

static long days_from_civil(long y, int m, int d) {
  y -= m <= 2;
  long era = (y >= 0 ? y : y - 399) / 400;
  long yoe = y - era * 400;
  long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int main(void) {
  int nums[] = {1, 4, 9, 14, 40, 90, 400, 1994, 2024, 3999};
  char buf[32];
  int ok = 0;
  for (int i = 0; i < 10; i++) {
    to_roman(nums[i], buf);
    ok += from_roman(buf) == nums[i];
    printf("%d = %s\n", nums[i], buf);
  }
  static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  printf("1970-01-01 %s, 2000-02-29 %s, 2024-07-04 %s\n", days[weekday(1970, 1, 1)],
         days[weekday(2000, 2, 29)], days[weekday(2024, 7, 4)]);
  printf("days 1970..2000: %ld, 1900-03-01..2100-03-01: %ld\n", days_from_civil(2000, 1, 1),
         days_from_civil(2100, 3, 1) - days_from_civil(1900, 3, 1));
  printf("Su Mo Tu We Th Fr Sa\n");
  int first = weekday(2024, 2, 1);
  for (int i = 0; i < first; i++) printf("   ");
  for (int d = 1; d <= 29; d++) printf("%2d%c", d, (first + d) % 7 == 0 || d == 29 ? '\n' : ' ');
  return ok;
}
