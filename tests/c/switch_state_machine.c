/* A state machine driven by a switch inside a loop: parsing a simple CSV with quoted fields. */
#include <stdio.h>

enum state { FIELD_START, UNQUOTED, QUOTED, QUOTE_IN_QUOTED, DONE };

static int parse_csv_line(const char *line, char fields[][16], int max) {
  enum state st = FIELD_START;
  int nf = 0, len = 0;
  const char *p = line;
  while (st != DONE) {
    char c = *p++;
    switch (st) {
    case FIELD_START:
      if (c == '"') { st = QUOTED; break; }
      st = UNQUOTED;
      /* fall through */
    case UNQUOTED:
      if (c == ',' || c == 0) {
        fields[nf][len] = 0;
        nf++;
        len = 0;
        st = c == 0 || nf == max ? DONE : FIELD_START;
      } else if (len < 15) {
        fields[nf][len++] = c;
      }
      break;
    case QUOTED:
      if (c == '"') st = QUOTE_IN_QUOTED;
      else if (c == 0) { fields[nf][len] = 0; nf++; st = DONE; }
      else if (len < 15) fields[nf][len++] = c;
      break;
    case QUOTE_IN_QUOTED:
      if (c == '"') {
        if (len < 15) fields[nf][len++] = '"';
        st = QUOTED;
      } else {
        p--;
        st = UNQUOTED;
      }
      break;
    case DONE:
      break;
    }
  }
  return nf;
}

int main(void) {
  const char *lines[] = {
      "a,b,c",
      "\"quoted, with comma\",plain,",
      "\"say \"\"hi\"\"\",2,3,4",
      "",
      "one",
      "x,\"unterminated",
  };
  char fields[8][16];
  int total = 0;
  for (int i = 0; i < 6; i++) {
    int n = parse_csv_line(lines[i], fields, 8);
    printf("%d fields:", n);
    for (int f = 0; f < n; f++) printf(" [%s]", fields[f]);
    printf("\n");
    total += n;
  }
  return total;
}
