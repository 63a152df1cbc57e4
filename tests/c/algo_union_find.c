/* Union-find with path compression and union by rank: connected components of a random graph
   and Kruskal's minimum spanning tree on a small weighted graph. */
#include <stdio.h>

#define N 200

static int parent[N], rnk[N];

static void make_sets(int n) { for (int i = 0; i < n; i++) { parent[i] = i; rnk[i] = 0; } }

static int find(int x) {
  int root = x;
  while (parent[root] != root) root = parent[root];
  while (parent[x] != root) { int next = parent[x]; parent[x] = root; x = next; }
  return root;
}

static int unite(int a, int b) {
  a = find(a);
  b = find(b);
  if (a == b) return 0;
  if (rnk[a] < rnk[b]) { int t = a; a = b; b = t; }
  parent[b] = a;
  if (rnk[a] == rnk[b]) rnk[a]++;
  return 1;
}

struct edge { int u, v, w; };

int main(void) {
  make_sets(N);
  unsigned s = 42;
  int components = N;
  for (int i = 0; i < 150; i++) {
    s = s * 1103515245u + 12345u;
    int a = (int)((s >> 16) % N);
    s = s * 1103515245u + 12345u;
    int b = (int)((s >> 16) % N);
    components -= unite(a, b);
  }
  int largest = 0;
  static int size[N];
  for (int i = 0; i < N; i++) size[find(i)]++;
  for (int i = 0; i < N; i++) if (size[i] > largest) largest = size[i];
  printf("components %d largest %d\n", components, largest);
  struct edge edges[] = {{0, 1, 7}, {0, 3, 5}, {1, 2, 8}, {1, 3, 9}, {1, 4, 7}, {2, 4, 5},
                         {3, 4, 15}, {3, 5, 6}, {4, 5, 8}, {4, 6, 9}, {5, 6, 11}};
  int ne = (int)(sizeof edges / sizeof edges[0]);
  for (int i = 1; i < ne; i++)
    for (int j = i; j > 0 && edges[j - 1].w > edges[j].w; j--) {
      struct edge t = edges[j]; edges[j] = edges[j - 1]; edges[j - 1] = t;
    }
  make_sets(7);
  int total = 0;
  for (int i = 0; i < ne; i++)
    if (unite(edges[i].u, edges[i].v)) {
      printf("mst edge %d-%d (%d)\n", edges[i].u, edges[i].v, edges[i].w);
      total += edges[i].w;
    }
  printf("mst weight %d\n", total);
  return total;
}
