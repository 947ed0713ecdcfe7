/**
 * The frame's lowest natural modes, K φ = ω² M φ, by shift-invert block Lanczos: the Krylov space of
 * A = K⁻¹ M (its largest eigenvalues 1/ω² are the lowest modes, well separated), built in the M inner
 * product with full reorthogonalisation (twice where needed), so that A's projection is symmetric.
 * Applying K⁻¹ is the O(n) static solve (static.ts): no matrix is ever assembled or factored. Blocks
 * of several vectors find repeated frequencies (a round trunk sways alike in x and z), which a
 * single-vector Lanczos would find only once. The projected matrix's eigen-pairs come from
 * dense-eigen.ts. Plain TypeScript, no Babylon.
 */
import { Rng } from "../../math/rng";
import type { BeamFrame } from "./frame";
import type { StaticSolver } from "./static";
import { symmetricEigen } from "./dense-eigen";

const { sqrt, abs, max, min } = Math;

export interface LanczosOptions {
  /** Vectors per block (default 2: a round trunk's pairs of equal frequencies, x and z). */
  readonly blockSize?: number;
  /** A Ritz pair is converged when its residual ‖Aᵏ x - θᵏ x‖_M ≤ tolerance · θᵏ (default 1e-8). */
  readonly tolerance?: number;
  /** Largest Krylov space (default: 3 count + 40, at most the free degrees of freedom). */
  readonly maxDimension?: number;
  /**
   * The Krylov space is that of Aᵏ (default k = 3): k cheap O(n) solves per vector for a k-fold
   * relative gap between the wanted θᵏ and the rest, so a smaller space (whose reorthogonalisation,
   * quadratic in its size, is the solver's main cost).
   */
  readonly power?: number;
  /** Seed of the start block (default 1). */
  readonly seed?: number;
}

export interface FrameModes {
  /** ω², ascending, (rad/s)². */
  readonly omega2: Float64Array;
  /** Per mode: 6 per joint, M-orthonormal (φᵢᵀ M φⱼ = δᵢⱼ). */
  readonly vectors: Float64Array[];
  /** Largest relative residual ‖A x - θ x‖_M / θ among the modes returned. */
  readonly residual: number;
  /** Dimension of the Krylov space used. */
  readonly dimension: number;
}

// Unrolled by four: the reorthogonalisation's dot products and updates are the solver's main cost.
function dot(a: Float64Array, b: Float64Array): number {
  const n = a.length, n4 = n - (n % 4);
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (let i = 0; i < n4; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (let i = n4; i < n; i++) s0 += a[i] * b[i];
  return s0 + s1 + s2 + s3;
}

function axpy(alpha: number, x: Float64Array, y: Float64Array): void {
  const n = y.length, n4 = n - (n % 4);
  for (let i = 0; i < n4; i += 4) {
    y[i] += alpha * x[i];
    y[i + 1] += alpha * x[i + 1];
    y[i + 2] += alpha * x[i + 2];
    y[i + 3] += alpha * x[i + 3];
  }
  for (let i = n4; i < n; i++) y[i] += alpha * x[i];
}

/** The `count` lowest modes of the frame. */
export function lowestModes(frame: BeamFrame, solver: StaticSolver, count: number, options: LanczosOptions = {}): FrameModes {
  const n = frame.dofCount, free = n - 6;
  if (!(Number.isInteger(count) && count >= 1 && count <= free)) throw new RangeError(`count must be a whole number from 1 to ${free}, got ${count}`);
  const b = min(options.blockSize ?? 2, free);
  const tol = options.tolerance ?? 1e-8;
  const maxDim = min(free, max(count + b, options.maxDimension ?? 3 * count + 40));
  const power = options.power ?? 3;
  if (!(Number.isInteger(power) && power >= 1)) throw new RangeError(`power must be a whole number from 1, got ${power}`);
  const rng = new Rng(options.seed ?? 1);
  const Q: Float64Array[] = [], MQ: Float64Array[] = [];
  const cap = maxDim + b;
  const H = new Float64Array(cap * cap); // H[l * cap + i]: the part of A q_i along q_l
  const w = new Float64Array(n), mw = new Float64Array(n), r = new Float64Array(n);

  // Orthogonalises w against Q in the M inner product, recording the coefficients in column `col` of
  // H (col < 0: none): first against the newest 2b vectors, where A's image mostly lies (the Lanczos
  // recurrence), then against all of them (full reorthogonalisation, which then removes only what
  // rounding left). Returns ‖w‖_M; mw = M w.
  const orthogonalise = (col: number): number => {
    for (let pass = 0; pass < 2; pass++) {
      for (let l = pass === 0 ? max(0, Q.length - 2 * b) : 0; l < Q.length; l++) {
        const h = dot(MQ[l], w);
        if (col >= 0) H[l * cap + col] += h;
        axpy(-h, Q[l], w);
      }
    }
    frame.massTimes(w, mw);
    return sqrt(max(0, dot(w, mw)));
  };
  // A fresh direction: K⁻¹ of a random load (smooth, and inside the range of K⁻¹).
  const randomDirection = (): number => {
    for (let i = 0; i < n; i++) r[i] = i < 6 ? 0 : rng.gaussian();
    solver.solve(r, w);
    return orthogonalise(-1);
  };
  const append = (norm: number): void => {
    const q = new Float64Array(n), mq = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      q[i] = w[i] / norm;
      mq[i] = mw[i] / norm;
    }
    Q.push(q);
    MQ.push(mq);
  };
  for (let i = 0; i < b; i++) {
    const norm = randomDirection();
    if (norm > 0) append(norm);
  }

  let p = 0; // vectors whose image has been taken
  let nextCheck = count;
  let theta: Float64Array = new Float64Array(0), Y: Float64Array = new Float64Array(0), residual = Infinity;
  while (p < Q.length && p < maxDim) {
    solver.solve(MQ[p], w);
    for (let i = 1; i < power; i++) {
      frame.massTimes(w, mw);
      solver.solve(mw, w);
    }
    const scale = sqrt(max(0, dot(w, MQ[p]))) || 1;
    let norm = orthogonalise(p);
    if (norm > 1e-10 * scale && Q.length < cap) {
      H[Q.length * cap + p] = norm;
      append(norm);
    } else if (Q.length < cap) {
      // The space is invariant along this direction: carry on from a fresh one.
      norm = randomDirection();
      if (norm > 0) append(norm);
    }
    p++;
    if (p >= nextCheck || p >= maxDim || p >= Q.length) {
      ({ theta, Y, residual } = ritz(H, cap, p, Q.length, count));
      if (residual <= tol) break;
      nextCheck = p + b;
    }
  }
  const k = min(count, p);
  const omega2 = new Float64Array(k);
  const vectors: Float64Array[] = [];
  for (let i = 0; i < k; i++) {
    const col = p - 1 - i; // Ritz values ascending: the largest θ last
    omega2[i] = theta[col] ** (-1 / power);
    const v = new Float64Array(n);
    for (let l = 0; l < p; l++) axpy(Y[l * p + col], Q[l], v);
    vectors.push(v);
  }
  return { omega2, vectors, residual, dimension: p };
}

/**
 * Ritz pairs of the leading p x p block of H (symmetrised) and the largest relative residual of the
 * `count` largest: ‖H[p.., 0..p) y‖ / θ, the part of A x outside the space.
 */
function ritz(H: Float64Array, cap: number, p: number, m: number, count: number): { theta: Float64Array; Y: Float64Array; residual: number } {
  const T = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < p; j++) T[i * p + j] = 0.5 * (H[i * cap + j] + H[j * cap + i]);
  }
  const theta = new Float64Array(p), Y = new Float64Array(p * p);
  symmetricEigen(T, p, theta, Y);
  let residual = 0;
  for (let i = 0; i < min(count, p); i++) {
    const col = p - 1 - i;
    let r2 = 0;
    for (let l = p; l < m; l++) {
      let s = 0;
      for (let j = 0; j < p; j++) s += H[l * cap + j] * Y[j * p + col];
      r2 += s * s;
    }
    residual = max(residual, sqrt(r2) / abs(theta[col]));
  }
  if (count > p) residual = Infinity;
  return { theta, Y, residual };
}
