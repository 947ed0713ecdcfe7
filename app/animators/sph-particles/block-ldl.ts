/**
 * A sparse symmetric positive definite matrix of 3 × 3 blocks, factored A = L D Lᵀ in a fixed
 * elimination order, for the particle tree's implicit step. Plain TypeScript, no Babylon.
 *
 * Why direct: the wood's stiffness at 0.1 m spacing (axial ω ≈ 3 × 10⁴ rad/s) makes the implicit
 * step's matrix so ill-conditioned that conjugate gradients took about 3,000 iterations on a
 * 200-particle tree. The tree's coupling is local along its central axes (a station touches its
 * neighbours and eq. 6's terms reach two stations back), so eliminating from the leaves and the
 * tips toward the root (particle-tree.ts creates particles base to tip, parents before children,
 * leaves last: the reverse of that order) fills in only blocks between stations already coupled.
 * The pattern (with fill) is analysed once; broken links leave zeros in it, so breaking needs no
 * new analysis. `factor` and `solve` allocate nothing.
 */

export class BlockLdl {
  /** Elimination position of every block row, and the block row at every position. */
  readonly position: Int32Array;
  readonly order: Int32Array;
  /** Diagonal blocks (9 per position), then D⁻¹ after `factor`. */
  readonly diag: Float64Array;
  /** Upper blocks A(p, q), q > p in elimination order (9 each), then Wq = D⁻¹ A(p, q) after `factor`. */
  readonly upper: Float64Array;
  private readonly rowStart: Int32Array;
  private readonly col: Int32Array;
  private readonly updA: Int32Array;
  private readonly updB: Int32Array;
  private readonly updTarget: Int32Array;
  private readonly updStart: Int32Array;
  private readonly w = new Float64Array(9);
  private readonly y: Float64Array;

  /** `n` block rows, `pairs` flat (i, j) couplings (any order, duplicates merged), `order` the block rows in elimination order. */
  constructor(readonly n: number, pairs: ArrayLike<number>, order: ArrayLike<number>) {
    if (order.length !== n) throw new RangeError(`an elimination order of ${order.length} rows for ${n} rows`);
    this.order = Int32Array.from(order);
    this.position = new Int32Array(n).fill(-1);
    for (let p = 0; p < n; p++) this.position[this.order[p]] = p;
    if (this.position.some((p) => p < 0)) throw new RangeError("the elimination order must name every row once");
    const adj: Set<number>[] = [];
    for (let p = 0; p < n; p++) adj.push(new Set());
    for (let e = 0; e + 1 < pairs.length; e += 2) {
      const a = this.position[pairs[e]], b = this.position[pairs[e + 1]];
      if (a === b) continue;
      adj[a].add(b);
      adj[b].add(a);
    }
    // Symbolic elimination: a pivot's later neighbours become one clique.
    const upperOf: number[][] = [];
    for (let p = 0; p < n; p++) {
      const up = [...adj[p]].filter((q) => q > p).sort((x, y) => x - y);
      upperOf.push(up);
      for (let i = 0; i < up.length; i++) for (let j = i + 1; j < up.length; j++) {
        adj[up[i]].add(up[j]);
        adj[up[j]].add(up[i]);
      }
    }
    this.rowStart = new Int32Array(n + 1);
    for (let p = 0; p < n; p++) this.rowStart[p + 1] = this.rowStart[p] + upperOf[p].length;
    this.col = new Int32Array(this.rowStart[n]);
    const index = new Map<number, number>();
    for (let p = 0; p < n; p++) upperOf[p].forEach((q, k) => {
      this.col[this.rowStart[p] + k] = q;
      index.set(p * n + q, this.rowStart[p] + k);
    });
    // Schur updates of every pivot: A(a, b) -= A(p, a)ᵀ W(b) for a ≤ b among its later neighbours (target -1 - a: the diagonal of a).
    const ua: number[] = [], ub: number[] = [], ut: number[] = [];
    this.updStart = new Int32Array(n + 1);
    for (let p = 0; p < n; p++) {
      const up = upperOf[p];
      for (let i = 0; i < up.length; i++) for (let j = i; j < up.length; j++) {
        ua.push(this.rowStart[p] + i);
        ub.push(this.rowStart[p] + j);
        ut.push(i === j ? -1 - up[i] : index.get(up[i] * n + up[j])!);
      }
      this.updStart[p + 1] = ua.length;
    }
    this.updA = Int32Array.from(ua);
    this.updB = Int32Array.from(ub);
    this.updTarget = Int32Array.from(ut);
    this.diag = new Float64Array(9 * n);
    this.upper = new Float64Array(9 * this.rowStart[n]);
    this.y = new Float64Array(3 * n);
  }

  /** Storage of block (i, j) by block rows, i ≠ j: its index into `upper` and whether it is stored transposed. -1 when not in the pattern. */
  blockIndex(i: number, j: number): number {
    const a = this.position[i], b = this.position[j];
    const p = a < b ? a : b, q = a < b ? b : a;
    for (let k = this.rowStart[p]; k < this.rowStart[p + 1]; k++) if (this.col[k] === q) return k;
    return -1;
  }

  /** Whether block (i, j) is stored as A(j, i) (i comes later in the elimination). */
  transposed(i: number, j: number): boolean {
    return this.position[i] > this.position[j];
  }

  /** Zeroes the values (the pattern stays). */
  clear(): void {
    this.diag.fill(0);
    this.upper.fill(0);
  }

  /** Adds a 3 × 3 (row-major) times s into the diagonal block of row i. */
  addDiag(i: number, m: ArrayLike<number>, o: number, s: number): void {
    const d = 9 * this.position[i];
    for (let e = 0; e < 9; e++) this.diag[d + e] += s * m[o + e];
  }

  /** Adds s I into the diagonal block of row i. */
  addDiagIso(i: number, s: number): void {
    const d = 9 * this.position[i];
    this.diag[d] += s;
    this.diag[d + 4] += s;
    this.diag[d + 8] += s;
  }

  /** Adds s M into block (i, j) (and s Mᵀ into (j, i)); k = blockIndex(i, j). */
  addOff(i: number, j: number, k: number, m: ArrayLike<number>, o: number, s: number): void {
    const u = 9 * k;
    if (this.position[i] < this.position[j]) for (let e = 0; e < 9; e++) this.upper[u + e] += s * m[o + e];
    else for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) this.upper[u + 3 * r + c] += s * m[o + 3 * c + r];
  }

  /** Adds s I into block (i, j); k = blockIndex(i, j). */
  addOffIso(k: number, s: number): void {
    const u = 9 * k;
    this.upper[u] += s;
    this.upper[u + 4] += s;
    this.upper[u + 8] += s;
  }

  /** Factors in place. Throws if a pivot is not positive definite. */
  factor(): void {
    const n = this.n, D = this.diag, U = this.upper, w = this.w;
    for (let p = 0; p < n; p++) {
      if (!invert3(D, 9 * p)) throw new Error(`the implicit step's matrix is singular at row ${this.order[p]}`);
      // Schur complement on the later rows, from the unscaled A(p, ·) (the W's are formed after).
      for (let e = this.updStart[p]; e < this.updStart[p + 1]; e++) {
        const a = 9 * this.updA[e], b = 9 * this.updB[e], t = this.updTarget[e];
        // w = D⁻¹ A(p, b)
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) w[3 * r + c] = D[9 * p + 3 * r] * U[b + c] + D[9 * p + 3 * r + 1] * U[b + 3 + c] + D[9 * p + 3 * r + 2] * U[b + 6 + c];
        const T = t < 0 ? D : U, o = t < 0 ? 9 * (-1 - t) : 9 * t;
        // target -= A(p, a)ᵀ w
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) T[o + 3 * r + c] -= U[a + r] * w[c] + U[a + 3 + r] * w[3 + c] + U[a + 6 + r] * w[6 + c];
      }
      for (let k = this.rowStart[p]; k < this.rowStart[p + 1]; k++) {
        const b = 9 * k;
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) w[3 * r + c] = D[9 * p + 3 * r] * U[b + c] + D[9 * p + 3 * r + 1] * U[b + 3 + c] + D[9 * p + 3 * r + 2] * U[b + 6 + c];
        for (let e = 0; e < 9; e++) U[b + e] = w[e];
      }
    }
  }

  /** Solves A x = b with the factors (rows in the caller's numbering, xyz each). */
  solve(b: Float64Array, x: Float64Array): void {
    const n = this.n, D = this.diag, U = this.upper, y = this.y, col = this.col;
    for (let p = 0; p < n; p++) {
      const i = this.order[p];
      y[3 * p] = b[3 * i]; y[3 * p + 1] = b[3 * i + 1]; y[3 * p + 2] = b[3 * i + 2];
    }
    for (let p = 0; p < n; p++) {
      const y0 = y[3 * p], y1 = y[3 * p + 1], y2 = y[3 * p + 2];
      for (let k = this.rowStart[p]; k < this.rowStart[p + 1]; k++) {
        const q = 3 * col[k], u = 9 * k; // y_q -= Wᵀ y_p
        y[q] -= U[u] * y0 + U[u + 3] * y1 + U[u + 6] * y2;
        y[q + 1] -= U[u + 1] * y0 + U[u + 4] * y1 + U[u + 7] * y2;
        y[q + 2] -= U[u + 2] * y0 + U[u + 5] * y1 + U[u + 8] * y2;
      }
    }
    for (let p = 0; p < n; p++) {
      const d = 9 * p, y0 = y[3 * p], y1 = y[3 * p + 1], y2 = y[3 * p + 2];
      y[3 * p] = D[d] * y0 + D[d + 1] * y1 + D[d + 2] * y2;
      y[3 * p + 1] = D[d + 3] * y0 + D[d + 4] * y1 + D[d + 5] * y2;
      y[3 * p + 2] = D[d + 6] * y0 + D[d + 7] * y1 + D[d + 8] * y2;
    }
    for (let p = n - 1; p >= 0; p--) {
      let s0 = y[3 * p], s1 = y[3 * p + 1], s2 = y[3 * p + 2];
      for (let k = this.rowStart[p]; k < this.rowStart[p + 1]; k++) {
        const q = 3 * col[k], u = 9 * k; // x_p -= W x_q
        s0 -= U[u] * y[q] + U[u + 1] * y[q + 1] + U[u + 2] * y[q + 2];
        s1 -= U[u + 3] * y[q] + U[u + 4] * y[q + 1] + U[u + 5] * y[q + 2];
        s2 -= U[u + 6] * y[q] + U[u + 7] * y[q + 1] + U[u + 8] * y[q + 2];
      }
      y[3 * p] = s0; y[3 * p + 1] = s1; y[3 * p + 2] = s2;
    }
    for (let p = 0; p < n; p++) {
      const i = this.order[p];
      x[3 * i] = y[3 * p]; x[3 * i + 1] = y[3 * p + 1]; x[3 * i + 2] = y[3 * p + 2];
    }
  }
}

/** Inverts the symmetric-or-not 3 × 3 block at d[o..o+8] in place; false if singular. */
export function invert3(d: Float64Array, o: number): boolean {
  const a = d[o], b = d[o + 1], c = d[o + 2], e = d[o + 3], f = d[o + 4], g = d[o + 5], h = d[o + 6], i = d[o + 7], k = d[o + 8];
  const A = f * k - g * i, B = -(e * k - g * h), C = e * i - f * h;
  const det = a * A + b * B + c * C;
  if (!(Math.abs(det) > 0) || !Number.isFinite(det)) return false;
  const s = 1 / det;
  d[o] = A * s; d[o + 1] = -(b * k - c * i) * s; d[o + 2] = (b * g - c * f) * s;
  d[o + 3] = B * s; d[o + 4] = (a * k - c * h) * s; d[o + 5] = -(a * g - c * e) * s;
  d[o + 6] = C * s; d[o + 7] = -(a * i - b * h) * s; d[o + 8] = (a * f - b * e) * s;
  return true;
}
