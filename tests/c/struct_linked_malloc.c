/* A malloc'd singly linked list: push, append, remove, reverse, merge of sorted lists, free. */
#include <stdio.h>
#include <stdlib.h>

struct node { long value; struct node *next; };

static struct node *push(struct node *head, long v) {
  struct node *n = malloc(sizeof *n);
  n->value = v;
  n->next = head;
  return n;
}

static struct node *remove_if(struct node *head, int (*pred)(long)) {
  struct node **link = &head;
  while (*link) {
    if (pred((*link)->value)) {
      struct node *dead = *link;
      *link = dead->next;
      free(dead);
    } else {
      link = &(*link)->next;
    }
  }
  return head;
}

static struct node *merge(struct node *a, struct node *b) {
  struct node dummy = {0, 0}, *tail = &dummy;
  while (a && b) {
    if (a->value <= b->value) { tail->next = a; a = a->next; }
    else { tail->next = b; b = b->next; }
    tail = tail->next;
  }
  tail->next = a ? a : b;
  return dummy.next;
}

static struct node *sort(struct node *head) {
  if (!head || !head->next) return head;
  struct node *slow = head, *fast = head->next;
  while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
  struct node *second = slow->next;
  slow->next = 0;
  return merge(sort(head), sort(second));
}

static int is_multiple_of_3(long v) { return v % 3 == 0; }

static void print(const char *label, const struct node *n) {
  printf("%s:", label);
  for (; n; n = n->next) printf(" %ld", n->value);
  printf("\n");
}

static void free_list(struct node *n) {
  while (n) { struct node *next = n->next; free(n); n = next; }
}

int main(void) {
  struct node *list = 0;
  unsigned seed = 12345;
  for (int i = 0; i < 25; i++) {
    seed = seed * 1103515245u + 12345u;
    list = push(list, (long)(seed >> 16) % 100);
  }
  print("start", list);
  list = sort(list);
  print("sorted", list);
  list = remove_if(list, is_multiple_of_3);
  print("no 3s", list);
  long sum = 0;
  int count = 0;
  for (struct node *n = list; n; n = n->next) { sum += n->value; count++; }
  printf("count %d sum %ld\n", count, sum);
  free_list(list);
  return count;
}
