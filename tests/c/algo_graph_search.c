/* Graph search on a grid maze: breadth-first search with a ring-buffer queue for the shortest
   path, depth-first search with an explicit stack for reachability, and Dijkstra on a small
   weighted adjacency matrix. */
#include <stdio.h>

static const char *maze[] = {
    "S.#.......",
    ".##.#####.",
    "....#...#.",
    "#.#.#.#.#.",
    "..#...#...",
    ".####.###.",
    "......#..E",
};
enum { R = 7, C = 10 };

static int bfs(int sr, int sc, int er, int ec) {
  static int dist[R][C];
  int queue[R * C], head = 0, tail = 0;
  for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) dist[r][c] = -1;
  dist[sr][sc] = 0;
  queue[tail++] = sr * C + sc;
  static const int dr[] = {1, -1, 0, 0}, dc[] = {0, 0, 1, -1};
  while (head < tail) {
    int cur = queue[head++], r = cur / C, c = cur % C;
    for (int k = 0; k < 4; k++) {
      int nr = r + dr[k], nc = c + dc[k];
      if (nr < 0 || nr >= R || nc < 0 || nc >= C || maze[nr][nc] == '#' || dist[nr][nc] >= 0) continue;
      dist[nr][nc] = dist[r][c] + 1;
      queue[tail++] = nr * C + nc;
    }
  }
  return dist[er][ec];
}

static int reachable_cells(int sr, int sc) {
  static unsigned char seen[R][C];
  int stack[R * C * 4], sp = 0, count = 0;
  stack[sp++] = sr * C + sc;
  while (sp) {
    int cur = stack[--sp], r = cur / C, c = cur % C;
    if (r < 0 || r >= R || c < 0 || c >= C || maze[r][c] == '#' || seen[r][c]) continue;
    seen[r][c] = 1;
    count++;
    stack[sp++] = cur + C; stack[sp++] = cur - C;
    if (c + 1 < C) stack[sp++] = cur + 1;
    if (c > 0) stack[sp++] = cur - 1;
  }
  return count;
}

static void dijkstra(int n, const int w[][6], int src, int *dist) {
  int done[6] = {0};
  for (int i = 0; i < n; i++) dist[i] = 1 << 30;
  dist[src] = 0;
  for (int it = 0; it < n; it++) {
    int u = -1;
    for (int i = 0; i < n; i++) if (!done[i] && (u < 0 || dist[i] < dist[u])) u = i;
    done[u] = 1;
    for (int v = 0; v < n; v++)
      if (w[u][v] && dist[u] + w[u][v] < dist[v]) dist[v] = dist[u] + w[u][v];
  }
}

int main(void) {
  int d = bfs(0, 0, 6, 9);
  printf("shortest path S->E: %d\n", d);
  printf("reachable cells: %d\n", reachable_cells(0, 0));
  static const int w[6][6] = {{0, 7, 9, 0, 0, 14}, {7, 0, 10, 15, 0, 0}, {9, 10, 0, 11, 0, 2},
                              {0, 15, 11, 0, 6, 0}, {0, 0, 0, 6, 0, 9}, {14, 0, 2, 0, 9, 0}};
  int dist[6];
  dijkstra(6, w, 0, dist);
  for (int i = 0; i < 6; i++) printf("dist[%d] = %d\n", i, dist[i]);
  return d + dist[4];
}
