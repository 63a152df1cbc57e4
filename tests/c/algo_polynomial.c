/* Polynomials with long long coefficients: evaluation by Horner's rule, multiplication,
   derivative, composition, and printing in conventional notation. */
#include <stdio.h>
#include <string.h>

#define MAXDEG 16

typedef struct { int deg; long long c[MAXDEG + 1]; } poly;

static poly make(int deg, const long long *coeffs) {
  poly p;
  memset(&p, 0, sizeof p);
  p.deg = deg;
  for (int i = 0; i <= deg; i++) p.c[i] = coeffs[i];
  return p;
}

static long long eval(const poly *p, long long x) {
  long long r = 0;
  for (int i = p->deg; i >= 0; i--) r = r * x + p->c[i];
  return r;
}

static poly mul(const poly *a, const poly *b) {
  poly r;
  memset(&r, 0, sizeof r);
  r.deg = a->deg + b->deg;
  for (int i = 0; i <= a->deg; i++)
    for (int j = 0; j <= b->deg; j++) r.c[i + j] += a->c[i] * b->c[j];
  return r;
}

static poly derivative(const poly *p) {
  poly r;
  memset(&r, 0, sizeof r);
  r.deg = p->deg > 0 ? p->deg - 1 : 0;
  for (int i = 1; i <= p->deg; i++) r.c[i - 1] = p->c[i] * i;
  return r;
}

static poly compose(const poly *f, const poly *g) {
  long long one[] = {1};
  poly r = make(0, one), power = make(0, one);
  r.c[0] = 0;
  for (int i = 0; i <= f->deg; i++) {
    for (int k = 0; k <= power.deg; k++) r.c[k] += f->c[i] * power.c[k];
    if (power.deg > r.deg) r.deg = power.deg;
    if (i < f->deg) power = mul(&power, g);
  }
  return r;
}

static void print(const char *name, const poly *p) {
  printf("%s =", name);
  int first = 1;
  for (int i = p->deg; i >= 0; i--) {
    long long c = p->c[i];
    if (c == 0 && !(i == 0 && first)) continue;
    printf(" %s", c < 0 ? "-" : first ? "" : "+");
    if (!first || c < 0) printf(" ");
    long long a = c < 0 ? -c : c;
    if (a != 1 || i == 0) printf("%lld", a);
    if (i > 0) printf("x");
    if (i > 1) printf("^%d", i);
    first = 0;
  }
  printf("\n");
}

int main(void) {
  long long fc[] = {-1, 0, 3, 1}, gc[] = {2, -1};
  poly f = make(3, fc), g = make(1, gc);
  print("f", &f);
  print("g", &g);
  poly fg = mul(&f, &g), df = derivative(&f), fog = compose(&f, &g);
  print("f*g", &fg);
  print("f'", &df);
  print("f(g)", &fog);
  long long total = 0;
  for (long long x = -3; x <= 3; x++) {
    long long a = eval(&fog, x), b = eval(&f, eval(&g, x));
    printf("x=%lld f(g(x))=%lld %s f*g=%lld\n", x, a, a == b ? "ok" : "BAD", eval(&fg, x));
    total += a;
  }
  return (int)(total & 0xFF);
}
