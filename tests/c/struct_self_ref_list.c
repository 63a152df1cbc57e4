/* Self-referencing structs: a statically allocated linked list and a doubly linked ring. */
#include <stdio.h>

struct node { int value; struct node *next; };
struct dnode { char name; struct dnode *prev, *next; };

static struct node n5 = {5, 0};
static struct node n4 = {4, &n5};
static struct node n3 = {3, &n4};
static struct node n2 = {2, &n3};
static struct node n1 = {1, &n2};

static int length(const struct node *n) {
  int len = 0;
  for (; n; n = n->next) len++;
  return len;
}

static struct node *reverse(struct node *n) {
  struct node *prev = 0;
  while (n) {
    struct node *next = n->next;
    n->next = prev;
    prev = n;
    n = next;
  }
  return prev;
}

static void print(const struct node *n) {
  for (; n; n = n->next) printf("%d%s", n->value, n->next ? " -> " : "\n");
}

int main(void) {
  struct node *head = &n1;
  print(head);
  printf("length %d\n", length(head));
  head = reverse(head);
  print(head);
  /* Insert a local node in the middle. */
  struct node extra = {99, head->next->next};
  head->next->next = &extra;
  print(head);
  /* A ring of 6 nodes linked both ways. */
  struct dnode ring[6];
  for (int i = 0; i < 6; i++) {
    ring[i].name = (char)('A' + i);
    ring[i].next = &ring[(i + 1) % 6];
    ring[i].prev = &ring[(i + 5) % 6];
  }
  struct dnode *p = &ring[0];
  for (int i = 0; i < 8; i++, p = p->next) putchar(p->name);
  putchar('\n');
  for (int i = 0; i < 8; i++, p = p->prev) putchar(p->name);
  putchar('\n');
  /* Unlink C and walk again. */
  ring[2].prev->next = ring[2].next;
  ring[2].next->prev = ring[2].prev;
  int count = 0;
  p = &ring[0];
  do {
    putchar(p->name);
    count++;
    p = p->next;
  } while (p != &ring[0]);
  putchar('\n');
  int sum = 0;
  for (struct node *q = head; q; q = q->next) sum += q->value;
  return sum + count;
}
