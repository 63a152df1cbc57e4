/* Encoders and decoders: base64 (with padding) and run-length encoding, round-tripped. */
#include <stdio.h>
#include <string.h>

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t b64_encode(const unsigned char *in, size_t n, char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)in[i] << 16;
    if (i + 1 < n) v |= (unsigned)in[i + 1] << 8;
    if (i + 2 < n) v |= in[i + 2];
    out[o++] = b64[(v >> 18) & 63];
    out[o++] = b64[(v >> 12) & 63];
    out[o++] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
    out[o++] = i + 2 < n ? b64[v & 63] : '=';
  }
  out[o] = 0;
  return o;
}

static int b64_value(char c) {
  for (int i = 0; i < 64; i++) if (b64[i] == c) return i;
  return -1;
}

static size_t b64_decode(const char *in, unsigned char *out) {
  size_t o = 0, n = strlen(in);
  for (size_t i = 0; i + 3 < n; i += 4) {
    unsigned v = 0;
    int pad = 0;
    for (int k = 0; k < 4; k++) {
      v <<= 6;
      if (in[i + k] == '=') pad++;
      else v |= (unsigned)b64_value(in[i + k]);
    }
    out[o++] = (unsigned char)(v >> 16);
    if (pad < 2) out[o++] = (unsigned char)(v >> 8);
    if (pad < 1) out[o++] = (unsigned char)v;
  }
  return o;
}

static size_t rle_encode(const char *in, char *out) {
  size_t o = 0;
  for (size_t i = 0; in[i];) {
    size_t j = i;
    while (in[j] == in[i] && j - i < 9) j++;
    out[o++] = (char)('0' + (j - i));
    out[o++] = in[i];
    i = j;
  }
  out[o] = 0;
  return o;
}

static size_t rle_decode(const char *in, char *out) {
  size_t o = 0;
  for (size_t i = 0; in[i]; i += 2)
    for (int k = 0; k < in[i] - '0'; k++) out[o++] = in[i + 1];
  out[o] = 0;
  return o;
}

int main(void) {
  const char *texts[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar", "sea of nodes!"};
  char enc[64];
  unsigned char dec[64];
  int ok = 0;
  for (int i = 0; i < 8; i++) {
    size_t n = strlen(texts[i]);
    b64_encode((const unsigned char *)texts[i], n, enc);
    size_t m = b64_decode(enc, dec);
    int same = m == n && memcmp(dec, texts[i], n) == 0;
    ok += same;
    printf("\"%s\" -> %s %s\n", texts[i], enc, same ? "ok" : "BAD");
  }
  const char *runs[] = {"aaabccddddd", "abc", "zzzzzzzzzzzzzzzzzzzzzzzz", "aabbaa"};
  char r[64], back[64];
  for (int i = 0; i < 4; i++) {
    size_t n = rle_encode(runs[i], r);
    rle_decode(r, back);
    int same = strcmp(back, runs[i]) == 0;
    ok += same;
    printf("%s -> %s (%zu) %s\n", runs[i], r, n, same ? "ok" : "BAD");
  }
  return ok;
}
