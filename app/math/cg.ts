/**
 * Small sparse linear algebra for implicit integrators: a symmetric block-3×3 CSR matrix (one
 * block per pair of coupled masses, xyz each), preconditioners, and the preconditioned conjugate
 * gradient method (Shewchuk 1994, "An Introduction to the Conjugate Gradient Method Without the
 * Agonizing Pain", §B3), as Baraff and Witkin 1998 §5 use it. Plain TypeScript over Float64Array;
 * everything is allocated at construction, `solve` and `apply` allocate nothing.
 */

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, abs } = Math;

/** y = A x for a square operator of `size` scalar unknowns. */
export interface LinearOperator {
  readonly size: number;
  apply(x: Float64Array, y: Float64Array): void;
}

/** z ≈ A⁻¹ r, for a symmetric positive definite approximation of A⁻¹. */
export interface Preconditioner {
  apply(r: Float64Array, z: Float64Array): void;
}

/**
 * A symmetric matrix of n × n blocks of 3 × 3, both triangles stored (a row's blocks in column
 * order), so `apply` is one pass. The pattern is fixed at construction (once per topology);
 * `values` are refilled each step (`clear`, then add into the blocks found with `index`).
 */
export class BlockCsr3 implements LinearOperator {
  readonly size: number;
  /** First block of each block row; rowStart[n] = number of blocks. */
  readonly rowStart: Int32Array;
  /** Block column of every stored block. */
  readonly col: Int32Array;
  /** 9 values per block, row-major. */
  readonly values: Float64Array;
  /** Index of each row's diagonal block. */
  readonly diagIndex: Int32Array;

  /**
   * `n` block rows; `pairs`: flat (i, j) block coordinates, i ≠ j, each unordered pair once or
   * more (duplicates and both orders are merged). Every diagonal block is stored.
   */
  constructor(readonly n: number, pairs: ArrayLike<number>) {
    this.size = 3 * n;
    const rows: Set<number>[] = [];
    for (let i = 0; i < n; i++) rows.push(new Set([i]));
    for (let p = 0; p + 1 < pairs.length; p += 2) {
      const i = pairs[p], j = pairs[p + 1];
      if (!(i >= 0 && i < n && j >= 0 && j < n)) throw new RangeError(`block (${i}, ${j}) is outside a ${n} × ${n} block matrix`);
      rows[i].add(j);
      rows[j].add(i);
    }
    this.rowStart = new Int32Array(n + 1);
    let nnz = 0;
    for (let i = 0; i < n; i++) {
      this.rowStart[i] = nnz;
      nnz += rows[i].size;
    }
    this.rowStart[n] = nnz;
    this.col = new Int32Array(nnz);
    this.values = new Float64Array(9 * nnz);
    this.diagIndex = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const cols = [...rows[i]].sort((a, b) => a - b);
      for (let c = 0; c < cols.length; c++) {
        this.col[this.rowStart[i] + c] = cols[c];
        if (cols[c] === i) this.diagIndex[i] = this.rowStart[i] + c;
      }
    }
  }

  /** Number of stored blocks (both triangles). */
  get blockCount(): number {
    return this.rowStart[this.n];
  }

  /** Index of block (i, j), -1 when it is not in the pattern. */
  index(i: number, j: number): number {
    if (i < 0 || j < 0) return -1;
    const end = this.rowStart[i + 1];
    for (let b = this.rowStart[i]; b < end; b++) if (this.col[b] === j) return b;
    return -1;
  }

  clear(): void {
    this.values.fill(0);
  }

  apply(x: Float64Array, y: Float64Array): void {
    const { rowStart, col, values: v } = this;
    for (let i = 0; i < this.n; i++) {
      let y0 = 0, y1 = 0, y2 = 0;
      const end = rowStart[i + 1];
      for (let b = rowStart[i]; b < end; b++) {
        const j = 3 * col[b], o = 9 * b;
        const x0 = x[j], x1 = x[j + 1], x2 = x[j + 2];
        y0 += v[o] * x0 + v[o + 1] * x1 + v[o + 2] * x2;
        y1 += v[o + 3] * x0 + v[o + 4] * x1 + v[o + 5] * x2;
        y2 += v[o + 6] * x0 + v[o + 7] * x1 + v[o + 8] * x2;
      }
      y[3 * i] = y0;
      y[3 * i + 1] = y1;
      y[3 * i + 2] = y2;
    }
  }

  /** The full matrix, row-major (size × size); for tests and small systems. */
  toDense(): Float64Array {
    const m = this.size, out = new Float64Array(m * m);
    for (let i = 0; i < this.n; i++) {
      for (let b = this.rowStart[i]; b < this.rowStart[i + 1]; b++) {
        const j = this.col[b];
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[(3 * i + r) * m + 3 * j + c] = this.values[9 * b + 3 * r + c];
      }
    }
    return out;
  }
}

/** Inverse of the symmetric 3 × 3 block at a[o..o+8] into out[q..q+8] (adjugate over determinant). */
function invert3(a: Float64Array, o: number, out: Float64Array, q: number): void {
  const a00 = a[o], a01 = a[o + 1], a02 = a[o + 2], a11 = a[o + 4], a12 = a[o + 5], a22 = a[o + 8];
  const c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11;
  const det = a00 * c00 + a01 * c01 + a02 * c02;
  if (!(abs(det) > 0)) throw new RangeError("a 3 × 3 diagonal block is singular: the matrix is not positive definite");
  const s = 1 / det;
  out[q] = c00 * s;
  out[q + 1] = out[q + 3] = c01 * s;
  out[q + 2] = out[q + 6] = c02 * s;
  out[q + 4] = (a00 * a22 - a02 * a02) * s;
  out[q + 5] = out[q + 7] = (a01 * a02 - a00 * a12) * s;
  out[q + 8] = (a00 * a11 - a01 * a01) * s;
}

/** Block Jacobi: z_i = A_ii⁻¹ r_i. Call `update()` after refilling the matrix. */
export class BlockJacobi implements Preconditioner {
  private readonly inv: Float64Array;

  constructor(private readonly matrix: BlockCsr3) {
    this.inv = new Float64Array(9 * matrix.n);
  }

  update(): void {
    const A = this.matrix;
    for (let i = 0; i < A.n; i++) invert3(A.values, 9 * A.diagIndex[i], this.inv, 9 * i);
  }

  apply(r: Float64Array, z: Float64Array): void {
    const inv = this.inv;
    for (let i = 0; i < this.matrix.n; i++) {
      const o = 9 * i, k = 3 * i, r0 = r[k], r1 = r[k + 1], r2 = r[k + 2];
      z[k] = inv[o] * r0 + inv[o + 1] * r1 + inv[o + 2] * r2;
      z[k + 1] = inv[o + 3] * r0 + inv[o + 4] * r1 + inv[o + 5] * r2;
      z[k + 2] = inv[o + 6] * r0 + inv[o + 7] * r1 + inv[o + 8] * r2;
    }
  }
}

/**
 * Block LDLᵀ of a matrix whose blocks couple each unknown only to its parent and grandparent in a
 * tree (`parent[i] < i`, -1 at a root): the pattern of a mass-spring tree with springs along
 * segments and angular springs over two segments. Eliminating children before parents (i from
 * n - 1 down to 0) leaves each unknown, when its turn comes, coupled to its parent and grandparent
 * only, and those two are already coupled: no fill-in, so the factor is exact and costs O(n)
 * (the tree counterpart of Baraff 1996, "Linear-time dynamics using Lagrange multipliers"). As a
 * preconditioner it makes CG converge in one or two iterations, whatever the stiffness ratio.
 * Call `factor()` after refilling the matrix.
 */
export class TreeBlockLdlt implements Preconditioner {
  private readonly gp: Int32Array;
  private readonly parentBlock: Int32Array;
  private readonly grandBlock: Int32Array;
  /** Working pivots D_i, then their inverses. */
  private readonly d: Float64Array;
  private readonly dInv: Float64Array;
  /** A_(i, parent) and A_(i, grandparent), updated as descendants are eliminated. */
  private readonly bp: Float64Array;
  private readonly bg: Float64Array;
  /** D_i⁻¹ A_(i, parent), D_i⁻¹ A_(i, grandparent): Lᵀ's blocks. */
  private readonly tp: Float64Array;
  private readonly tg: Float64Array;
  private readonly w: Float64Array;

  constructor(private readonly matrix: BlockCsr3, private readonly parent: Int32Array) {
    const n = matrix.n;
    if (parent.length !== n) throw new RangeError(`parent has ${parent.length} entries for ${n} block rows`);
    this.gp = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const p = parent[i];
      if (p >= i) throw new RangeError(`parent[${i}] = ${p}: parents must come before children`);
      this.gp[i] = p < 0 ? -1 : parent[p];
    }
    for (let i = 0; i < n; i++) {
      for (let b = matrix.rowStart[i]; b < matrix.rowStart[i + 1]; b++) {
        const j = matrix.col[b];
        const ok = j === i || j === parent[i] || j === this.gp[i] || i === parent[j] || i === this.gp[j];
        if (!ok) throw new RangeError(`block (${i}, ${j}) couples two unknowns that are not parent or grandparent of each other`);
      }
    }
    this.parentBlock = new Int32Array(n);
    this.grandBlock = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.parentBlock[i] = matrix.index(i, parent[i]);
      this.grandBlock[i] = matrix.index(i, this.gp[i]);
    }
    this.d = new Float64Array(9 * n);
    this.dInv = new Float64Array(9 * n);
    this.bp = new Float64Array(9 * n);
    this.bg = new Float64Array(9 * n);
    this.tp = new Float64Array(9 * n);
    this.tg = new Float64Array(9 * n);
    this.w = new Float64Array(3 * n);
  }

  factor(): void {
    const A = this.matrix, v = A.values, { d, dInv, bp, bg, tp, tg, parent, gp } = this;
    const n = A.n;
    for (let i = 0; i < n; i++) {
      const o = 9 * i;
      for (let k = 0; k < 9; k++) d[o + k] = v[9 * A.diagIndex[i] + k];
      const pb = this.parentBlock[i], gb = this.grandBlock[i];
      for (let k = 0; k < 9; k++) {
        bp[o + k] = pb >= 0 ? v[9 * pb + k] : 0;
        bg[o + k] = gb >= 0 ? v[9 * gb + k] : 0;
      }
    }
    for (let i = n - 1; i >= 0; i--) {
      const o = 9 * i;
      invert3(d, o, dInv, o);
      mul3(dInv, o, bp, o, tp, o); // T_p = D⁻¹ B_p
      mul3(dInv, o, bg, o, tg, o); // T_g = D⁻¹ B_g
      const p = parent[i], g = gp[i];
      if (p >= 0) {
        subTransposeMul3(bp, o, tp, o, d, 9 * p); // D_p -= B_pᵀ D⁻¹ B_p
        if (g >= 0) {
          subTransposeMul3(bg, o, tg, o, d, 9 * g); // D_g -= B_gᵀ D⁻¹ B_g
          subTransposeMul3(bp, o, tg, o, bp, 9 * p); // A_(p, g) -= B_pᵀ D⁻¹ B_g
        }
      }
    }
  }

  apply(r: Float64Array, z: Float64Array): void {
    const { w, dInv, tp, tg, parent, gp } = this;
    const n = this.matrix.n;
    w.set(r);
    // Forward: w_a -= L_(a,i) w_i = T_aᵀ w_i for a = parent, grandparent.
    for (let i = n - 1; i >= 0; i--) {
      const o = 9 * i, k = 3 * i, w0 = w[k], w1 = w[k + 1], w2 = w[k + 2];
      const p = parent[i], g = gp[i];
      if (p >= 0) {
        const q = 3 * p;
        w[q] -= tp[o] * w0 + tp[o + 3] * w1 + tp[o + 6] * w2;
        w[q + 1] -= tp[o + 1] * w0 + tp[o + 4] * w1 + tp[o + 7] * w2;
        w[q + 2] -= tp[o + 2] * w0 + tp[o + 5] * w1 + tp[o + 8] * w2;
      }
      if (g >= 0) {
        const q = 3 * g;
        w[q] -= tg[o] * w0 + tg[o + 3] * w1 + tg[o + 6] * w2;
        w[q + 1] -= tg[o + 1] * w0 + tg[o + 4] * w1 + tg[o + 7] * w2;
        w[q + 2] -= tg[o + 2] * w0 + tg[o + 5] * w1 + tg[o + 8] * w2;
      }
    }
    // Diagonal, then backward: z_i = D_i⁻¹ w_i - T_p z_p - T_g z_g (parents first).
    for (let i = 0; i < n; i++) {
      const o = 9 * i, k = 3 * i, w0 = w[k], w1 = w[k + 1], w2 = w[k + 2];
      let z0 = dInv[o] * w0 + dInv[o + 1] * w1 + dInv[o + 2] * w2;
      let z1 = dInv[o + 3] * w0 + dInv[o + 4] * w1 + dInv[o + 5] * w2;
      let z2 = dInv[o + 6] * w0 + dInv[o + 7] * w1 + dInv[o + 8] * w2;
      const p = parent[i], g = gp[i];
      if (p >= 0) {
        const q = 3 * p, a = z[q], b = z[q + 1], c = z[q + 2];
        z0 -= tp[o] * a + tp[o + 1] * b + tp[o + 2] * c;
        z1 -= tp[o + 3] * a + tp[o + 4] * b + tp[o + 5] * c;
        z2 -= tp[o + 6] * a + tp[o + 7] * b + tp[o + 8] * c;
      }
      if (g >= 0) {
        const q = 3 * g, a = z[q], b = z[q + 1], c = z[q + 2];
        z0 -= tg[o] * a + tg[o + 1] * b + tg[o + 2] * c;
        z1 -= tg[o + 3] * a + tg[o + 4] * b + tg[o + 5] * c;
        z2 -= tg[o + 6] * a + tg[o + 7] * b + tg[o + 8] * c;
      }
      z[k] = z0;
      z[k + 1] = z1;
      z[k + 2] = z2;
    }
  }
}

/** out = a b for 3 × 3 row-major blocks. */
function mul3(a: Float64Array, ao: number, b: Float64Array, bo: number, out: Float64Array, oo: number): void {
  for (let r = 0; r < 3; r++) {
    const a0 = a[ao + 3 * r], a1 = a[ao + 3 * r + 1], a2 = a[ao + 3 * r + 2];
    for (let c = 0; c < 3; c++) out[oo + 3 * r + c] = a0 * b[bo + c] + a1 * b[bo + 3 + c] + a2 * b[bo + 6 + c];
  }
}

/** out -= aᵀ b for 3 × 3 row-major blocks. */
function subTransposeMul3(a: Float64Array, ao: number, b: Float64Array, bo: number, out: Float64Array, oo: number): void {
  for (let r = 0; r < 3; r++) {
    const a0 = a[ao + r], a1 = a[ao + 3 + r], a2 = a[ao + 6 + r];
    for (let c = 0; c < 3; c++) out[oo + 3 * r + c] -= a0 * b[bo + c] + a1 * b[bo + 3 + c] + a2 * b[bo + 6 + c];
  }
}

/** Identity: plain CG. */
export const NO_PRECONDITIONER: Preconditioner = {
  apply(r: Float64Array, z: Float64Array): void {
    z.set(r);
  },
};

/**
 * Preconditioned conjugate gradient for a symmetric positive definite A. Stops when
 * |b - A x| ≤ tolerance |b| or after maxIterations; `iterations` and `residual` (the relative
 * residual |b - A x| / |b| reached) say how it went. Work vectors are allocated once.
 */
export class ConjugateGradient {
  /** Relative residual to reach. */
  tolerance = 1e-6;
  maxIterations = 200;
  /** Iterations the last solve took. */
  iterations = 0;
  /** Relative residual |b - A x| / |b| after the last solve. */
  residual = 0;
  private readonly r: Float64Array;
  private readonly z: Float64Array;
  private readonly p: Float64Array;
  private readonly q: Float64Array;

  constructor(readonly size: number) {
    this.r = new Float64Array(size);
    this.z = new Float64Array(size);
    this.p = new Float64Array(size);
    this.q = new Float64Array(size);
  }

  /** Solves A x = b from the x given (a warm start, or zeros). Returns whether it converged. */
  solve(A: LinearOperator, b: Float64Array, x: Float64Array, precond: Preconditioner = NO_PRECONDITIONER): boolean {
    const n = this.size, { r, z, p, q } = this;
    if (A.size !== n || b.length !== n || x.length !== n) throw new RangeError(`CG of size ${n} given an operator of ${A.size}, b of ${b.length}, x of ${x.length}`);
    let bb = 0;
    for (let i = 0; i < n; i++) bb += b[i] * b[i];
    const bNorm = sqrt(bb);
    this.iterations = 0;
    if (bNorm === 0) {
      x.fill(0);
      this.residual = 0;
      return true;
    }
    A.apply(x, q);
    let rr = 0;
    for (let i = 0; i < n; i++) {
      r[i] = b[i] - q[i];
      rr += r[i] * r[i];
    }
    const target = this.tolerance * bNorm;
    if (sqrt(rr) <= target) {
      this.residual = sqrt(rr) / bNorm;
      return true;
    }
    precond.apply(r, z);
    let rz = 0;
    for (let i = 0; i < n; i++) {
      p[i] = z[i];
      rz += r[i] * z[i];
    }
    while (this.iterations < this.maxIterations) {
      A.apply(p, q);
      let pq = 0;
      for (let i = 0; i < n; i++) pq += p[i] * q[i];
      if (!(pq > 0)) break; // not positive definite along p (or p = 0)
      const alpha = rz / pq;
      rr = 0;
      for (let i = 0; i < n; i++) {
        x[i] += alpha * p[i];
        r[i] -= alpha * q[i];
        rr += r[i] * r[i];
      }
      this.iterations++;
      if (sqrt(rr) <= target) break;
      precond.apply(r, z);
      let rzNew = 0;
      for (let i = 0; i < n; i++) rzNew += r[i] * z[i];
      const beta = rzNew / rz;
      rz = rzNew;
      for (let i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
    }
    this.residual = sqrt(rr) / bNorm;
    return this.residual <= this.tolerance;
  }
}
