/**
 * The nearest point of a skeleton's centre lines to many points, through a uniform grid of the
 * segments' boxes instead of every segment for every point. Gives exactly what the brute-force
 * scan (nearestOnLine over every branch, in order) gives, ties included: the smallest squared
 * distance, then the first branch and segment. Plain TypeScript over typed arrays.
 */
import { nearestOnLine } from "./polyline";

export interface NearestOnSkeleton {
  /** Squared distance, the branch, the segment within it (from its first node) and the fraction along that segment. */
  d2: number;
  branch: number;
  seg: number;
  f: number;
}

/** The most cells the grid may have: enough for a fine grid over any tree, bounded memory. */
const MAX_CELLS = 1 << 18;

export class SegmentGrid {
  private readonly lo = [0, 0, 0];
  private readonly h: number;
  private readonly dims = [1, 1, 1];
  /** CSR: the segments (global numbers, in branch order) overlapping each cell. */
  private readonly cellStart: Int32Array;
  private readonly cellItems: Int32Array;
  /** Per global segment: its branch and its first node. */
  private readonly segBranch: Int32Array;
  private readonly segNode: Int32Array;
  private readonly seen: Int32Array;
  private stamp = 0;
  private readonly one = { d2: 0, seg: 0, f: 0 };
  private readonly c0 = [0, 0, 0];

  /**
   * `nodePosition`: xyz per node; branch b's centre line is nodes `branchFirstNode[b]` onward,
   * `branchNodeCount[b]` of them.
   */
  constructor(private readonly nodePosition: ArrayLike<number>, private readonly branchFirstNode: ArrayLike<number>, branchNodeCount: ArrayLike<number>) {
    let n = 0;
    for (let b = 0; b < branchNodeCount.length; b++) n += Math.max(0, branchNodeCount[b] - 1);
    this.segBranch = new Int32Array(n);
    this.segNode = new Int32Array(n);
    this.seen = new Int32Array(n);
    const hi = [-Infinity, -Infinity, -Infinity];
    this.lo[0] = this.lo[1] = this.lo[2] = Infinity;
    let k = 0, length = 0;
    for (let b = 0; b < branchNodeCount.length; b++) {
      for (let j = branchFirstNode[b]; j < branchFirstNode[b] + branchNodeCount[b]; j++) {
        for (let c = 0; c < 3; c++) {
          this.lo[c] = Math.min(this.lo[c], nodePosition[3 * j + c]);
          hi[c] = Math.max(hi[c], nodePosition[3 * j + c]);
        }
        if (j + 1 < branchFirstNode[b] + branchNodeCount[b]) {
          this.segBranch[k] = b;
          this.segNode[k++] = j;
          length += Math.hypot(nodePosition[3 * j + 3] - nodePosition[3 * j], nodePosition[3 * j + 4] - nodePosition[3 * j + 1], nodePosition[3 * j + 5] - nodePosition[3 * j + 2]);
        }
      }
    }
    if (n === 0) {
      this.h = 1;
      this.cellStart = new Int32Array(2);
      this.cellItems = new Int32Array(0);
      return;
    }
    // Cells about a segment long, fewer where that would be too many.
    const extent = [0, 1, 2].map((c) => Math.max(1e-9, hi[c] - this.lo[c]));
    let h = Math.max(length / n, 1e-6);
    const cellsAt = (size: number) => extent.reduce((m, e) => m * (Math.floor(e / size) + 1), 1);
    while (cellsAt(h) > MAX_CELLS) h *= 1.5;
    this.h = h;
    for (let c = 0; c < 3; c++) this.dims[c] = Math.floor(extent[c] / h) + 1;
    const cells = this.dims[0] * this.dims[1] * this.dims[2];
    // Two passes over each segment's box of cells: count, then fill.
    this.cellStart = new Int32Array(cells + 1);
    const visit = (s: number, into: (cell: number) => void) => {
      const j = 3 * this.segNode[s];
      const a = [0, 0, 0], z = [0, 0, 0];
      for (let c = 0; c < 3; c++) {
        a[c] = this.cellOf(Math.min(nodePosition[j + c], nodePosition[j + 3 + c]), c);
        z[c] = this.cellOf(Math.max(nodePosition[j + c], nodePosition[j + 3 + c]), c);
      }
      for (let x = a[0]; x <= z[0]; x++) for (let y = a[1]; y <= z[1]; y++) for (let w = a[2]; w <= z[2]; w++) into((w * this.dims[1] + y) * this.dims[0] + x);
    };
    for (let s = 0; s < n; s++) visit(s, (cell) => this.cellStart[cell + 1]++);
    for (let c = 0; c < cells; c++) this.cellStart[c + 1] += this.cellStart[c];
    this.cellItems = new Int32Array(this.cellStart[cells]);
    const fill = this.cellStart.slice(0, cells);
    for (let s = 0; s < n; s++) visit(s, (cell) => (this.cellItems[fill[cell]++] = s));
  }

  private cellOf(v: number, c: number): number {
    return Math.min(this.dims[c] - 1, Math.max(0, Math.floor((v - this.lo[c]) / this.h)));
  }

  /** The nearest point of every centre line to (px, py, pz), into `out` (no allocation). */
  nearest(px: number, py: number, pz: number, out: NearestOnSkeleton): NearestOnSkeleton {
    out.d2 = Infinity;
    out.branch = 0;
    out.seg = 0;
    out.f = 0;
    const n = this.segNode.length;
    if (n === 0) return out;
    if (++this.stamp === 0x7fffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    let best = -1;
    const c0 = this.c0;
    c0[0] = this.cellOf(px, 0);
    c0[1] = this.cellOf(py, 1);
    c0[2] = this.cellOf(pz, 2);
    const maxRing = Math.max(this.dims[0], this.dims[1], this.dims[2]);
    const [nx, ny, nz] = this.dims;
    for (let r = 0; r <= maxRing; r++) {
      // The cells of ring r (Chebyshev distance r from p's cell) inside the grid, each once.
      const w0 = Math.max(0, c0[2] - r), w1 = Math.min(nz - 1, c0[2] + r);
      const y0 = Math.max(0, c0[1] - r), y1 = Math.min(ny - 1, c0[1] + r);
      for (let w = w0; w <= w1; w++) {
        for (let y = y0; y <= y1; y++) {
          const row = (w * ny + y) * nx;
          if (Math.abs(w - c0[2]) === r || Math.abs(y - c0[1]) === r) {
            for (let x = Math.max(0, c0[0] - r); x <= Math.min(nx - 1, c0[0] + r); x++) best = this.scanCell(row + x, px, py, pz, out, best);
          } else {
            if (c0[0] - r >= 0) best = this.scanCell(row + c0[0] - r, px, py, pz, out, best);
            if (r > 0 && c0[0] + r < nx) best = this.scanCell(row + c0[0] + r, px, py, pz, out, best);
          }
        }
      }
      // Every point of a cell beyond ring r is at least r·h from p, whether p lies in its cell or
      // outside the grid (clamped to the nearest cell): nothing there can be nearer, or as near.
      if (best >= 0 && Math.sqrt(out.d2) < r * this.h) break;
    }
    return out;
  }

  /** The segments of one cell against p: the smallest d2, ties to the first segment in branch order (as the brute-force scan). */
  private scanCell(cell: number, px: number, py: number, pz: number, out: NearestOnSkeleton, best: number): number {
    const one = this.one;
    for (let i = this.cellStart[cell]; i < this.cellStart[cell + 1]; i++) {
      const s = this.cellItems[i];
      if (this.seen[s] === this.stamp) continue;
      this.seen[s] = this.stamp;
      nearestOnLine(this.nodePosition, px, py, pz, one, this.segNode[s], 2);
      if (one.d2 < out.d2 || (one.d2 === out.d2 && s < best)) {
        const b = this.segBranch[s];
        out.d2 = one.d2;
        out.branch = b;
        out.seg = this.segNode[s] - this.branchFirstNode[b];
        out.f = one.f;
        best = s;
      }
    }
    return best;
  }
}
