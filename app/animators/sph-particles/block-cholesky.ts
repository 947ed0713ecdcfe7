/**
 * A sparse symmetric positive definite matrix of 3 × 3 blocks, factored A = C Cᵀ (Cholesky) in a
 * fixed elimination order, for the particle tree's implicit step. Plain TypeScript, no Babylon.
 *
 * Why direct: the wood's stiffness at 0.1 m spacing (axial ω ≈ 3 × 10⁴ rad/s) makes the implicit
 * step's matrix so ill-conditioned that conjugate gradients took about 3,000 iterations on a
 * 200-particle tree. The tree's coupling is local along its central axes (a station touches its
 * neighbours and eq. 6's terms reach two stations back), so eliminating from the leaves and the
 * tips toward the root (particle-tree.ts creates particles base to tip, parents before children,
 * leaves last: the reverse of that order) fills in only blocks between stations already coupled.
 * The pattern (with fill) is analysed once; broken links leave zeros in it, so breaking needs no
 * new analysis. `factor` and `solve` allocate nothing.
 *
 * Why Cholesky within each pivot block too: a pivot's block is a light particle's mass plus the
 * stiff links on it, m I + hK k n nᵀ with hK k / m up to 10¹⁰ (a twig's ring particle of 0.1 g
 * on a link of 10⁹ N/m at dt²). Its explicit inverse by cofactors (an L D Lᵀ with D⁻¹ formed)
 * loses the soft directions to cancellation: on the demo tree the solve came back with errors of
 * the size of the answer, so every step fed energy into the tree's softest motions (its twigs
 * swayed by themselves and the paper's 0.1 m spacing blew up). Triangular solves with the block's
 * own Cholesky factor make the whole the scalar Cholesky factorisation, backward stable for any
 * positive definite matrix (block-cholesky.spec).
 */

export class BlockCholesky {
  /** Elimination position of every block row, and the block row at every position. */
  readonly position: Int32Array;
  readonly order: Int32Array;
  /** Diagonal blocks (9 per position), then their Cholesky factors C_p (lower triangular) after `factor`. */
  readonly diag: Float64Array;
  /** Upper blocks A(p, q), q > p in elimination order (9 each), then V(p, q) = C_p⁻¹ A(p, q) (C's block (q, p) is Vᵀ) after `factor`. */
  readonly upper: Float64Array;
  private readonly rowStart: Int32Array;
  private readonly col: Int32Array;
  private readonly updA: Int32Array;
  private readonly updB: Int32Array;
  private readonly updTarget: Int32Array;
  private readonly updStart: Int32Array;
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

  /**
   * Factors in place: A = C Cᵀ, C block lower triangular, each pivot block by its own 3 × 3
   * Cholesky (so the whole is the scalar Cholesky factorisation, stable for any symmetric
   * positive definite A). Throws if a pivot is not positive definite.
   */
  factor(): void {
    const n = this.n, D = this.diag, U = this.upper;
    for (let p = 0; p < n; p++) {
      if (!cholesky3(D, 9 * p)) throw new Error(`the implicit step's matrix is not positive definite at row ${this.order[p]}`);
      // V(p, q) = C_p⁻¹ A(p, q): forward substitution on each column.
      for (let k = this.rowStart[p]; k < this.rowStart[p + 1]; k++) lowerSolve3(D, 9 * p, U, 9 * k);
      // Schur complement on the later rows: A(a, b) -= V(p, a)ᵀ V(p, b).
      for (let e = this.updStart[p]; e < this.updStart[p + 1]; e++) {
        const a = 9 * this.updA[e], b = 9 * this.updB[e], t = this.updTarget[e];
        const T = t < 0 ? D : U, o = t < 0 ? 9 * (-1 - t) : 9 * t;
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) T[o + 3 * r + c] -= U[a + r] * U[b + c] + U[a + 3 + r] * U[b + 3 + c] + U[a + 6 + r] * U[b + 6 + c];
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
    // C z = b: z_p = C_p⁻¹ (b_p - Σ V(p', p)ᵀ z_p'), the later rows updated as each p is done.
    for (let p = 0; p < n; p++) {
      const d = 9 * p;
      const y0 = y[3 * p] / D[d];
      const y1 = (y[3 * p + 1] - D[d + 3] * y0) / D[d + 4];
      const y2 = (y[3 * p + 2] - D[d + 6] * y0 - D[d + 7] * y1) / D[d + 8];
      y[3 * p] = y0; y[3 * p + 1] = y1; y[3 * p + 2] = y2;
      for (let k = this.rowStart[p]; k < this.rowStart[p + 1]; k++) {
        const q = 3 * col[k], u = 9 * k; // y_q -= Vᵀ y_p
        y[q] -= U[u] * y0 + U[u + 3] * y1 + U[u + 6] * y2;
        y[q + 1] -= U[u + 1] * y0 + U[u + 4] * y1 + U[u + 7] * y2;
        y[q + 2] -= U[u + 2] * y0 + U[u + 5] * y1 + U[u + 8] * y2;
      }
    }
    // Cᵀ x = z: x_p = C_p⁻ᵀ (z_p - Σ V(p, q) x_q), from the last row back.
    for (let p = n - 1; p >= 0; p--) {
      let s0 = y[3 * p], s1 = y[3 * p + 1], s2 = y[3 * p + 2];
      for (let k = this.rowStart[p]; k < this.rowStart[p + 1]; k++) {
        const q = 3 * col[k], u = 9 * k;
        s0 -= U[u] * y[q] + U[u + 1] * y[q + 1] + U[u + 2] * y[q + 2];
        s1 -= U[u + 3] * y[q] + U[u + 4] * y[q + 1] + U[u + 5] * y[q + 2];
        s2 -= U[u + 6] * y[q] + U[u + 7] * y[q + 1] + U[u + 8] * y[q + 2];
      }
      const d = 9 * p;
      const x2 = s2 / D[d + 8];
      const x1 = (s1 - D[d + 7] * x2) / D[d + 4];
      const x0 = (s0 - D[d + 3] * x1 - D[d + 6] * x2) / D[d];
      y[3 * p] = x0; y[3 * p + 1] = x1; y[3 * p + 2] = x2;
    }
    for (let p = 0; p < n; p++) {
      const i = this.order[p];
      x[3 * i] = y[3 * p]; x[3 * i + 1] = y[3 * p + 1]; x[3 * i + 2] = y[3 * p + 2];
    }
  }
}

/**
 * The symmetric 3 × 3 block at d[o..o+8] (its lower triangle read) replaced in place by its
 * Cholesky factor C (lower triangular, C Cᵀ = the block; the upper triangle zeroed); false if the
 * block is not positive definite.
 */
export function cholesky3(d: Float64Array, o: number): boolean {
  const a00 = d[o], a10 = d[o + 3], a11 = d[o + 4], a20 = d[o + 6], a21 = d[o + 7], a22 = d[o + 8];
  if (!(a00 > 0) || !Number.isFinite(a00)) return false;
  const c00 = Math.sqrt(a00), c10 = a10 / c00, c20 = a20 / c00;
  const s11 = a11 - c10 * c10;
  if (!(s11 > 0)) return false;
  const c11 = Math.sqrt(s11), c21 = (a21 - c20 * c10) / c11;
  const s22 = a22 - c20 * c20 - c21 * c21;
  if (!(s22 > 0) || !Number.isFinite(s22)) return false;
  d[o] = c00; d[o + 1] = 0; d[o + 2] = 0;
  d[o + 3] = c10; d[o + 4] = c11; d[o + 5] = 0;
  d[o + 6] = c20; d[o + 7] = c21; d[o + 8] = Math.sqrt(s22);
  return true;
}

/** The 3 × 3 block at m[q..q+8] replaced by C⁻¹ times it, C the lower triangular factor at c[o..o+8]. */
function lowerSolve3(c: Float64Array, o: number, m: Float64Array, q: number): void {
  for (let col = 0; col < 3; col++) {
    const x0 = m[q + col] / c[o];
    const x1 = (m[q + 3 + col] - c[o + 3] * x0) / c[o + 4];
    const x2 = (m[q + 6 + col] - c[o + 6] * x0 - c[o + 7] * x1) / c[o + 8];
    m[q + col] = x0; m[q + 3 + col] = x1; m[q + 6 + col] = x2;
  }
}
