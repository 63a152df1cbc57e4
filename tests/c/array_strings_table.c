/* Two-dimensional char arrays and arrays of string pointers: lookups, sorting, formatting. */
#include <stdio.h>
#include <string.h>

static char months[12][10] = {"January", "February", "March", "April", "May", "June", "July",
                              "August", "September", "October", "November", "December"};
static const char *const units[] = {"", "one", "two", "three", "four", "five",
                                    "six", "seven", "eight", "nine"};
static const char *const teens[] = {"ten", "eleven", "twelve", "thirteen", "fourteen",
                                    "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
static const char *const tens[] = {"", "", "twenty", "thirty", "forty", "fifty",
                                   "sixty", "seventy", "eighty", "ninety"};

static int spell(int n, char *out) {
  out[0] = 0;
  if (n >= 100) {
    strcpy(out, units[n / 100]);
    strcpy(out + strlen(out), " hundred");
    n %= 100;
    if (n) strcpy(out + strlen(out), " and ");
  }
  if (n >= 20) {
    strcpy(out + strlen(out), tens[n / 10]);
    if (n % 10) {
      strcpy(out + strlen(out), "-");
      strcpy(out + strlen(out), units[n % 10]);
    }
  } else if (n >= 10) {
    strcpy(out + strlen(out), teens[n - 10]);
  } else if (n > 0) {
    strcpy(out + strlen(out), units[n]);
  }
  return (int)strlen(out);
}

int main(void) {
  int letters = 0;
  for (int m = 0; m < 12; m++) letters += (int)strlen(months[m]);
  printf("letters in month names %d\n", letters);
  /* Sort the month names in place (rows are copied). */
  for (int i = 0; i < 12; i++)
    for (int j = i + 1; j < 12; j++)
      if (strcmp(months[j], months[i]) < 0) {
        char tmp[10];
        strcpy(tmp, months[i]);
        strcpy(months[i], months[j]);
        strcpy(months[j], tmp);
      }
  for (int m = 0; m < 12; m++) printf("%s%c", months[m], m == 11 ? '\n' : ' ');
  char buf[64];
  int nums[] = {7, 13, 20, 42, 99, 100, 115, 342, 999};
  int total = 0;
  for (int i = 0; i < 9; i++) {
    total += spell(nums[i], buf);
    printf("%d: %s\n", nums[i], buf);
  }
  printf("total %d\n", total);
  return total % 256;
}
