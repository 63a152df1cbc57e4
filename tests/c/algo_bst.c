/* A malloc'd binary search tree: insert, lookup, in-order walk with an explicit stack, height,
   delete with two children, and freeing by post-order recursion. */
#include <stdio.h>
#include <stdlib.h>

struct tree { int key; int count; struct tree *left, *right; };

static struct tree *insert(struct tree *t, int key) {
  if (!t) {
    t = calloc(1, sizeof *t);
    t->key = key;
    t->count = 1;
    return t;
  }
  if (key < t->key) t->left = insert(t->left, key);
  else if (key > t->key) t->right = insert(t->right, key);
  else t->count++;
  return t;
}

static int height(const struct tree *t) {
  if (!t) return 0;
  int l = height(t->left), r = height(t->right);
  return 1 + (l > r ? l : r);
}

static struct tree *erase(struct tree *t, int key) {
  if (!t) return 0;
  if (key < t->key) t->left = erase(t->left, key);
  else if (key > t->key) t->right = erase(t->right, key);
  else if (t->left && t->right) {
    struct tree *m = t->right;
    while (m->left) m = m->left;
    t->key = m->key;
    t->count = m->count;
    m->count = 1;
    t->right = erase(t->right, m->key);
  } else {
    struct tree *child = t->left ? t->left : t->right;
    free(t);
    return child;
  }
  return t;
}

static void walk(struct tree *t) {
  struct tree *stack[64];
  int sp = 0;
  while (t || sp) {
    while (t) { stack[sp++] = t; t = t->left; }
    t = stack[--sp];
    printf("%d%s ", t->key, t->count > 1 ? "+" : "");
    t = t->right;
  }
  printf("\n");
}

static void destroy(struct tree *t) {
  if (!t) return;
  destroy(t->left);
  destroy(t->right);
  free(t);
}

static const struct tree *lookup(const struct tree *t, int key) {
  while (t && t->key != key) t = key < t->key ? t->left : t->right;
  return t;
}

int main(void) {
  struct tree *root = 0;
  unsigned s = 5;
  for (int i = 0; i < 40; i++) {
    s = s * 1103515245u + 12345u;
    root = insert(root, (int)((s >> 16) % 60));
  }
  walk(root);
  printf("height %d\n", height(root));
  int present = 0;
  for (int k = 0; k < 60; k++) present += lookup(root, k) != 0;
  printf("distinct keys %d\n", present);
  for (int k = 0; k < 60; k += 4) root = erase(root, k);
  walk(root);
  printf("height %d root %d\n", height(root), root ? root->key : -1);
  destroy(root);
  return present;
}
