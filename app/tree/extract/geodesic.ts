/**
 * Geodesic distance on the wood: Dijkstra over the mesh graph (mesh.ts), edges weighted by their
 * length, with a binary heap. The one implementation both methods measure with: the separate
 * parts' centre lines (level sets of the distance from one end are a bent part's cross-sections)
 * and the welded mesh's Reeb graph (its sweep goes down the distance from the base, in the order
 * the vertices settle). Plain TypeScript over typed arrays: no Babylon.
 */
import type { MeshGraph } from "./mesh";

/** Distances and the heap, sized to the mesh and reused across runs (one part after another). */
export class Geodesic {
  /** Distance of each vertex: the caller sets the sources' before `run`; Infinity where not reached (reset by `clear`). */
  readonly dist: Float64Array;
  private readonly heap: Int32Array;
  /** Each vertex's place in the heap: -1 not queued, -2 settled. */
  private readonly pos: Int32Array;
  constructor(n: number) {
    this.dist = new Float64Array(n).fill(Infinity);
    this.heap = new Int32Array(n);
    this.pos = new Int32Array(n).fill(-1);
  }

  /**
   * Dijkstra over `g` from `sources`, whose `dist` the caller has set. Writes the vertices in the
   * order they settle (increasing distance) into `settled` when given, and returns how many did.
   * (Edge lengths by Math.sqrt of the sum of squares, not Math.hypot, whose guard against an
   * overflow that lengths in metres never reach makes it markedly slower.)
   */
  run(g: MeshGraph, P: Float32Array, sources: readonly number[], settled?: Int32Array): number {
    const dist = this.dist, heap = this.heap, pos = this.pos, start = g.start, next = g.next;
    let size = 0, count = 0;
    for (const v of sources) {
      if (pos[v] >= 0) continue;
      // Sift up.
      let i = size++;
      const d = dist[v];
      while (i > 0) {
        const p = (i - 1) >> 1, u = heap[p];
        if (dist[u] <= d) break;
        heap[i] = u;
        pos[u] = i;
        i = p;
      }
      heap[i] = v;
      pos[v] = i;
    }
    while (size > 0) {
      const u = heap[0];
      pos[u] = -2; // settled
      if (settled) settled[count] = u;
      count++;
      const last = heap[--size];
      if (size > 0) {
        // Sift down.
        let i = 0;
        const d = dist[last];
        for (;;) {
          const l = 2 * i + 1;
          if (l >= size) break;
          const r = l + 1, c = r < size && dist[heap[r]] < dist[heap[l]] ? r : l;
          if (dist[heap[c]] >= d) break;
          heap[i] = heap[c];
          pos[heap[i]] = i;
          i = c;
        }
        heap[i] = last;
        pos[last] = i;
      }
      const ux = P[3 * u], uy = P[3 * u + 1], uz = P[3 * u + 2], du = dist[u];
      for (let k = start[u], ke = start[u + 1]; k < ke; k++) {
        const v = next[k];
        const pv = pos[v];
        if (pv === -2) continue;
        const dx = P[3 * v] - ux, dy = P[3 * v + 1] - uy, dz = P[3 * v + 2] - uz;
        const w = du + Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (w >= dist[v]) continue;
        dist[v] = w;
        // Sift up from where it is (or from a new leaf).
        let i = pv < 0 ? size++ : pv;
        while (i > 0) {
          const p = (i - 1) >> 1, q = heap[p];
          if (dist[q] <= w) break;
          heap[i] = q;
          pos[q] = i;
          i = p;
        }
        heap[i] = v;
        pos[v] = i;
      }
    }
    return count;
  }

  /** Forgets the distances of `verts` (those a run reached), ready for the next run. */
  clear(verts: ArrayLike<number>): void {
    for (let k = 0; k < verts.length; k++) {
      this.dist[verts[k]] = Infinity;
      this.pos[verts[k]] = -1;
    }
  }
}
