/**
 * Implicit (backward) Euler for the mass-spring tree (Van Haevre 2006 §4.2: "evaluated by means
 * of implicit Euler steps. Each step results in a linear system of equations and is solved using
 * the conjugate gradient method"), as Baraff and Witkin 1998 §4.1, eq. 6:
 *
 *   (M - h ∂f/∂v - h² ∂f/∂x) Δv = h (f0 + h ∂f/∂x v0),   v1 = v0 + Δv,   x1 = x0 + h v1.
 *
 * Jacobians of eq. 3's forces, F = -(k C + k_d Ċ) ∇C: ∂f/∂v = -k_d ∇C ∇Cᵀ exactly (and -α M of
 * the air damping, system.ts), and
 * ∂f/∂x = -k (∇C ∇Cᵀ + C ∇²C) with the damping's -k_d Ċ ∇²C dropped (as Baraff and Witkin do).
 * Of k C ∇²C: the linear spring keeps it while stretched (C > 0, the tension's geometric
 * stiffness k C / |x_ij| (I - x̂x̂ᵀ)) and drops it while compressed, where it would make the matrix
 * indefinite; eq. 2's angular term and the angular spring in the parent's frame drop it
 * (Gauss-Newton: -k JᵀJ with J = ∂C_v/∂(x_i, x_j, x_k) = (I, M - I, -M), system.ts; the frame R_k
 * behind the parent is the step's start's, so the rows of that spring reach i, j and k only). The
 * spring's pull through R_k on the segments below k (frames.ts) stays out of the matrix: it is
 * taken at the step's end by the spring's own rate, s + h k Ċ_v, where the matrix takes the
 * spring's pull on i, j and k (taken at the start, it damped the sympodial tree's first mode 0.005
 * more at five steps a frame, a share of h). At the rest pose (C = 0 everywhere) the Jacobian of
 * the rows kept is exact. What remains is symmetric positive definite, M plus positive
 * semi-definite blocks.
 *
 * Fixed masses (the anchor and the trunk base): their rows and columns are the identity and their
 * right-hand side 0, so Δv = 0 there. The matrix is a BlockCsr3 (one block per mass, its parent
 * and grandparent), built once; CG (app/math/cg.ts) solves it to `tolerance`, preconditioned by
 * the tree's exact block LDLᵀ (`TreeBlockLdlt`, no fill-in on this pattern) or block Jacobi.
 * Allocation free after construction.
 */
import { BlockCsr3, BlockJacobi, ConjugateGradient, TreeBlockLdlt, type Preconditioner } from "../../math/cg";
import type { MassSpringSystem } from "./system";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, log, atan, max } = Math;

/**
 * At most this many implicit Euler steps per frame (`advance`): 8 on a large tree (the habel
 * tree's 5099 masses: ~3 ms a step), up to 32 where the tree is small enough that 32 cost no more
 * than 8 of SUBSTEP_MASSES / 8 masses.
 */
export const MAX_SUBSTEPS = 8;
const MAX_SMALL_SUBSTEPS = 32;
const SUBSTEP_MASSES = 40000;
/** Substeps are added until implicit Euler's own damping of the first mode is at most this share of ζ. */
const NUMERICAL_SHARE = 0.75;

/**
 * The damping ratio implicit Euler itself gives an undamped oscillator of angular frequency ω at
 * steps of h (x = ω h): one step multiplies it by 1 / (1 - i x), so per step its log amplitude
 * falls by ½ ln(1 + x²) while its phase turns by atan x.
 */
export function numericalDamping(x: number): number {
  if (!(x > 0)) return 0;
  const d = 0.5 * log(1 + x * x), p = atan(x);
  return d / sqrt(d * d + p * p);
}

export type PreconditionerKind = "tree-ldlt" | "jacobi";

export interface ImplicitEulerStats {
  /** CG iterations of the last step. */
  readonly iterations: number;
  /** Relative residual the last step's CG reached. */
  readonly residual: number;
  /** Whether it reached the tolerance. */
  readonly converged: boolean;
}

export class ImplicitEuler {
  readonly matrix: BlockCsr3;
  readonly cg: ConjugateGradient;
  /** Total force f0 of the last step. */
  readonly force: Float64Array;
  private readonly rhs: Float64Array;
  private readonly dv: Float64Array;
  /** Block index for (a, b), a, b ∈ (i, j, k) of segment i: 9 per mass, -1 where a fixed mass is involved. */
  private readonly blocks: Int32Array;
  private readonly precond: Preconditioner;
  private readonly jacobi: BlockJacobi | null;
  private readonly ldlt: TreeBlockLdlt | null;
  /** ∇C of eq. 2 for (i, j, k), scratch. */
  private readonly g = new Float64Array(9);
  /** Substeps of the last `advance`. */
  substeps = 1;
  private converged = true;

  constructor(readonly system: MassSpringSystem, options: { tolerance?: number; maxIterations?: number; preconditioner?: PreconditionerKind } = {}) {
    const n = system.count, parent = system.parent, fixed = system.fixed;
    const pairs: number[] = [];
    for (let i = 0; i < n; i++) {
      const j = parent[i];
      if (j < 0 || fixed[i] || fixed[j]) continue;
      pairs.push(i, j);
      const k = parent[j];
      if (k >= 0 && !fixed[k]) pairs.push(i, k);
    }
    this.matrix = new BlockCsr3(n, pairs);
    this.blocks = new Int32Array(9 * n).fill(-1);
    for (let i = 2; i < n; i++) {
      const j = parent[i], k = parent[j], ids = [i, j, k];
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) {
          if (fixed[ids[a]] || fixed[ids[b]]) continue;
          this.blocks[9 * i + 3 * a + b] = this.matrix.index(ids[a], ids[b]);
        }
      }
    }
    this.cg = new ConjugateGradient(3 * n);
    this.cg.tolerance = options.tolerance ?? 1e-6;
    this.cg.maxIterations = options.maxIterations ?? 200;
    const kind = options.preconditioner ?? "tree-ldlt";
    this.jacobi = kind === "jacobi" ? new BlockJacobi(this.matrix) : null;
    this.ldlt = kind === "tree-ldlt" ? new TreeBlockLdlt(this.matrix, parent) : null;
    this.precond = (this.jacobi ?? this.ldlt)!;
    this.force = new Float64Array(3 * n);
    this.rhs = new Float64Array(3 * n);
    this.dv = new Float64Array(3 * n);
  }

  get stats(): ImplicitEulerStats {
    return { iterations: this.cg.iterations, residual: this.cg.residual, converged: this.converged };
  }

  /** Fills the matrix M - h ∂f/∂v - h² ∂f/∂x and the right-hand side h (f0 + h ∂f/∂x v0). */
  assemble(h: number): void {
    this.prepare(h);
    this.system.updateFrames();
    this.fill(h, h);
  }

  /** The first mode's ω and the damping terms for steps of h, when stale. */
  private prepare(h: number): void {
    const sys = this.system;
    if (!sys.settings.paperLiteral && sys.modeStale) this.findFirstMode();
    if (sys.dampedFor !== h) sys.setDamping(h, sys.settings.paperLiteral ? 0 : numericalDamping(sys.firstOmega * h));
  }

  /** The matrix M + hd (α M + ∂f/∂v terms) + h² K and the right-hand side; hd = 0 leaves the damping out. */
  private fill(h: number, hd: number): void {
    const sys = this.system, A = this.matrix, val = A.values, n = sys.count;
    const x = sys.position, v = sys.velocity, parent = sys.parent, fixed = sys.fixed, blocks = this.blocks, g = this.g;
    const f = this.force, rhs = this.rhs;
    sys.forces(f, h);
    A.clear();
    rhs.fill(0); // here: ∂f/∂x v0, accumulated spring by spring
    // M, the air damping's -h ∂f/∂v = h α M (no ∂f/∂x), and the drag's bound h 2k|w| (wind-load.ts).
    const air = 1 + hd * sys.airDamping, drag = sys.dragDamping;
    for (let i = 0; i < n; i++) {
      const o = 9 * A.diagIndex[i], m = fixed[i] ? 1 : air * sys.mass[i] + hd * drag[i];
      val[o] = val[o + 4] = val[o + 8] = m;
    }
    const h2 = h * h;
    for (let i = 2; i < n; i++) {
      const j = parent[i], k = parent[j], bi = 9 * i;
      const ax = x[3 * i] - x[3 * j], ay = x[3 * i + 1] - x[3 * j + 1], az = x[3 * i + 2] - x[3 * j + 2];
      const bx = x[3 * k] - x[3 * j], by = x[3 * k + 1] - x[3 * j + 1], bz = x[3 * k + 2] - x[3 * j + 2];
      const la = sqrt(ax * ax + ay * ay + az * az), lb = sqrt(bx * bx + by * by + bz * bz);
      const ux = ax / la, uy = ay / la, uz = az / la;
      const vax = v[3 * i] - v[3 * j], vay = v[3 * i + 1] - v[3 * j + 1], vaz = v[3 * i + 2] - v[3 * j + 2];
      // Linear spring: S = k (x̂x̂ᵀ + max(C, 0)/|x_ij| (I - x̂x̂ᵀ)), ∂f_i/∂x_i = -S; damping k_d x̂x̂ᵀ.
      {
        const kl = sys.linearK[i], c = la - sys.restLength[i];
        const t = c > 0 ? kl * c / la : 0; // tension's geometric stiffness
        const sOuter = hd * sys.linearKd[i] + h2 * kl, sIso = h2 * t;
        // (∂f/∂x v0)_i = -S (v_i - v_j)
        const uv = ux * vax + uy * vay + uz * vaz;
        const kvx = -((kl - t) * ux * uv + t * vax), kvy = -((kl - t) * uy * uv + t * vay), kvz = -((kl - t) * uz * uv + t * vaz);
        addVec(rhs, i, kvx, kvy, kvz, fixed);
        addVec(rhs, j, -kvx, -kvy, -kvz, fixed);
        const ii = blocks[bi], jj = blocks[bi + 4], ij = blocks[bi + 1], ji = blocks[bi + 3];
        addSpring(val, ii, sOuter, sIso, ux, uy, uz);
        addSpring(val, jj, sOuter, sIso, ux, uy, uz);
        addSpring(val, ij, -sOuter, -sIso, ux, uy, uz);
        addSpring(val, ji, -sOuter, -sIso, ux, uy, uz);
      }
      // Eq. 2 (paper-literal, Gauss-Newton): (h k_d2 + h² k2) ∇C ∇Cᵀ.
      const k2 = sys.eq2K[i];
      if (k2 > 0) {
        const ca = sys.cosAlpha[i], kd2 = sys.eq2Kd[i];
        g[0] = bx - ca * lb * ux; g[1] = by - ca * lb * uy; g[2] = bz - ca * lb * uz;
        g[6] = ax - ca * la * bx / lb; g[7] = ay - ca * la * by / lb; g[8] = az - ca * la * bz / lb;
        g[3] = -(g[0] + g[6]); g[4] = -(g[1] + g[7]); g[5] = -(g[2] + g[8]);
        const s2 = hd * kd2 + h2 * k2;
        let gv = 0;
        for (let a = 0; a < 3; a++) {
          const m = a === 0 ? i : a === 1 ? j : k;
          gv += g[3 * a] * v[3 * m] + g[3 * a + 1] * v[3 * m + 1] + g[3 * a + 2] * v[3 * m + 2];
        }
        for (let a = 0; a < 3; a++) {
          const ma = a === 0 ? i : a === 1 ? j : k;
          const ga0 = g[3 * a], ga1 = g[3 * a + 1], ga2 = g[3 * a + 2];
          addVec(rhs, ma, -k2 * ga0 * gv, -k2 * ga1 * gv, -k2 * ga2 * gv, fixed);
          for (let b = 0; b < 3; b++) {
            const idx = blocks[bi + 3 * a + b];
            if (idx < 0) continue;
            const o = 9 * idx, gb0 = g[3 * b], gb1 = g[3 * b + 1], gb2 = g[3 * b + 2];
            val[o] += s2 * ga0 * gb0; val[o + 1] += s2 * ga0 * gb1; val[o + 2] += s2 * ga0 * gb2;
            val[o + 3] += s2 * ga1 * gb0; val[o + 4] += s2 * ga1 * gb1; val[o + 5] += s2 * ga1 * gb2;
            val[o + 6] += s2 * ga2 * gb0; val[o + 7] += s2 * ga2 * gb1; val[o + 8] += s2 * ga2 * gb2;
          }
        }
      }
      // Angular spring in the parent's frame (Gauss-Newton): (h k_d + h² k) J_aᵀ J_b, J = (I, M - I, -M):
      // ii I, ij M - I, ik -M, jj Q - M - Mᵀ + I, jk M - Q, kk Q (Q = MᵀM), and their transposes.
      const kb = sys.bendK[i];
      if (kb > 0) {
        const o = 12 * i, M = sys.angular;
        const m00 = M[o + 3], m01 = M[o + 4], m02 = M[o + 5], m10 = M[o + 6], m11 = M[o + 7], m12 = M[o + 8], m20 = M[o + 9], m21 = M[o + 10], m22 = M[o + 11];
        // Q = MᵀM (symmetric)
        const q00 = m00 * m00 + m10 * m10 + m20 * m20, q01 = m00 * m01 + m10 * m11 + m20 * m21, q02 = m00 * m02 + m10 * m12 + m20 * m22, q11 = m01 * m01 + m11 * m11 + m21 * m21, q12 = m01 * m02 + m11 * m12 + m21 * m22, q22 = m02 * m02 + m12 * m12 + m22 * m22;
        // w = J v0 = (v_i - v_j) + M (v_j - v_k); Mᵀ w.
        const dx = v[3 * j] - v[3 * k], dy = v[3 * j + 1] - v[3 * k + 1], dz = v[3 * j + 2] - v[3 * k + 2];
        const wx = vax + m00 * dx + m01 * dy + m02 * dz, wy = vay + m10 * dx + m11 * dy + m12 * dz, wz = vaz + m20 * dx + m21 * dy + m22 * dz;
        const mx = m00 * wx + m10 * wy + m20 * wz, my = m01 * wx + m11 * wy + m21 * wz, mz = m02 * wx + m12 * wy + m22 * wz;
        // (∂f/∂x v0)_a = -k J_aᵀ w
        addVec(rhs, i, -kb * wx, -kb * wy, -kb * wz, fixed);
        addVec(rhs, j, -kb * (mx - wx), -kb * (my - wy), -kb * (mz - wz), fixed);
        addVec(rhs, k, kb * mx, kb * my, kb * mz, fixed);
        const sb = hd * sys.bendKd[i] + h2 * kb;
        { // ii
          const idx = blocks[bi];
          if (idx >= 0) {
            const b = 9 * idx;
            val[b] += sb;
            val[b + 4] += sb;
            val[b + 8] += sb;
          }
        }
        { // ij
          const idx = blocks[bi + 1];
          if (idx >= 0) {
            const b = 9 * idx;
            val[b] += sb * (-1 + m00);
            val[b + 1] += sb * m01;
            val[b + 2] += sb * m02;
            val[b + 3] += sb * m10;
            val[b + 4] += sb * (-1 + m11);
            val[b + 5] += sb * m12;
            val[b + 6] += sb * m20;
            val[b + 7] += sb * m21;
            val[b + 8] += sb * (-1 + m22);
          }
        }
        { // ji
          const idx = blocks[bi + 3];
          if (idx >= 0) {
            const b = 9 * idx;
            val[b] += sb * (-1 + m00);
            val[b + 1] += sb * m10;
            val[b + 2] += sb * m20;
            val[b + 3] += sb * m01;
            val[b + 4] += sb * (-1 + m11);
            val[b + 5] += sb * m21;
            val[b + 6] += sb * m02;
            val[b + 7] += sb * m12;
            val[b + 8] += sb * (-1 + m22);
          }
        }
        { // ik
          const idx = blocks[bi + 2];
          if (idx >= 0) {
            const b = 9 * idx;
            val[b] += -sb * m00;
            val[b + 1] += -sb * m01;
            val[b + 2] += -sb * m02;
            val[b + 3] += -sb * m10;
            val[b + 4] += -sb * m11;
            val[b + 5] += -sb * m12;
            val[b + 6] += -sb * m20;
            val[b + 7] += -sb * m21;
            val[b + 8] += -sb * m22;
          }
        }
        { // ki
          const idx = blocks[bi + 6];
          if (idx >= 0) {
            const b = 9 * idx;
            val[b] += -sb * m00;
            val[b + 1] += -sb * m10;
            val[b + 2] += -sb * m20;
            val[b + 3] += -sb * m01;
            val[b + 4] += -sb * m11;
            val[b + 5] += -sb * m21;
            val[b + 6] += -sb * m02;
            val[b + 7] += -sb * m12;
            val[b + 8] += -sb * m22;
          }
        }
        { // jj
          const idx = blocks[bi + 4];
          if (idx >= 0) {
            const b = 9 * idx;
            val[b] += sb * (1 - m00 - m00 + q00);
            val[b + 1] += sb * (-m01 - m10 + q01);
            val[b + 2] += sb * (-m02 - m20 + q02);
            val[b + 3] += sb * (-m10 - m01 + q01);
            val[b + 4] += sb * (1 - m11 - m11 + q11);
            val[b + 5] += sb * (-m12 - m21 + q12);
            val[b + 6] += sb * (-m20 - m02 + q02);
            val[b + 7] += sb * (-m21 - m12 + q12);
            val[b + 8] += sb * (1 - m22 - m22 + q22);
          }
        }
        { // jk
          const idx = blocks[bi + 5];
          if (idx >= 0) {
            const b = 9 * idx;
            val[b] += sb * (m00 - q00);
            val[b + 1] += sb * (m01 - q01);
            val[b + 2] += sb * (m02 - q02);
            val[b + 3] += sb * (m10 - q01);
            val[b + 4] += sb * (m11 - q11);
            val[b + 5] += sb * (m12 - q12);
            val[b + 6] += sb * (m20 - q02);
            val[b + 7] += sb * (m21 - q12);
            val[b + 8] += sb * (m22 - q22);
          }
        }
        { // kj
          const idx = blocks[bi + 7];
          if (idx >= 0) {
            const b = 9 * idx;
            val[b] += sb * (m00 - q00);
            val[b + 1] += sb * (m10 - q01);
            val[b + 2] += sb * (m20 - q02);
            val[b + 3] += sb * (m01 - q01);
            val[b + 4] += sb * (m11 - q11);
            val[b + 5] += sb * (m21 - q12);
            val[b + 6] += sb * (m02 - q02);
            val[b + 7] += sb * (m12 - q12);
            val[b + 8] += sb * (m22 - q22);
          }
        }
        { // kk
          const idx = blocks[bi + 8];
          if (idx >= 0) {
            const b = 9 * idx;
            val[b] += sb * q00;
            val[b + 1] += sb * q01;
            val[b + 2] += sb * q02;
            val[b + 3] += sb * q01;
            val[b + 4] += sb * q11;
            val[b + 5] += sb * q12;
            val[b + 6] += sb * q02;
            val[b + 7] += sb * q12;
            val[b + 8] += sb * q22;
          }
        }
      }
    }
    // rhs = h (f0 + h ∂f/∂x v0), 0 on the fixed masses.
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) rhs[3 * i + c] = fixed[i] ? 0 : h * (f[3 * i + c] + h * rhs[3 * i + c]);
    }
  }

  /**
   * ω₁ of the system's lowest mode at rest, by inverse iteration on K x = ω² M x: the matrix
   * M + K (fill with h = 1, no damping), x ← (M + K)⁻¹ M x, whose slowest mode grows fastest, and
   * the Rayleigh quotient xᵀ K x / xᵀ M x. The state is put back afterwards.
   */
  private findFirstMode(): void {
    const sys = this.system, n = sys.count, size = 3 * n;
    const keepX = Float64Array.from(sys.position), keepV = Float64Array.from(sys.velocity), keepE = Float64Array.from(sys.external);
    sys.position.set(sys.rest);
    sys.velocity.fill(0);
    sys.external.fill(0);
    sys.updateFrames();
    this.fill(1, 0);
    if (this.ldlt) this.ldlt.factor();
    if (this.jacobi) this.jacobi.update();
    const xv = new Float64Array(size), mx = new Float64Array(size), ax = new Float64Array(size);
    // Start: every free mass moved along x and z by its height (a sway).
    for (let i = 0; i < n; i++) {
      if (sys.fixed[i]) continue;
      xv[3 * i] = sys.rest[3 * i + 1] - sys.rest[4];
      xv[3 * i + 2] = 0.5 * xv[3 * i];
    }
    let omega2 = 0;
    for (let it = 0; it < 80; it++) {
      for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) mx[3 * i + c] = sys.fixed[i] ? 0 : sys.mass[i] * xv[3 * i + c];
      xv.fill(0);
      this.cg.solve(this.matrix, mx, xv, this.precond);
      // Rayleigh quotient: xᵀ (A - M) x / xᵀ M x
      this.matrix.apply(xv, ax);
      let xax = 0, xmx = 0;
      for (let i = 0; i < n; i++) {
        if (sys.fixed[i]) continue;
        for (let c = 3 * i; c < 3 * i + 3; c++) {
          xax += xv[c] * ax[c];
          xmx += sys.mass[i] * xv[c] * xv[c];
        }
      }
      const next = max(0, xax / xmx - 1);
      const s = 1 / sqrt(xmx);
      for (let c = 0; c < size; c++) xv[c] *= s;
      const done = it > 3 && Math.abs(next - omega2) <= 1e-7 * next;
      omega2 = next;
      if (done) break;
    }
    sys.firstOmega = sqrt(omega2);
    sys.modeStale = false;
    sys.dampedFor = 0;
    sys.position.set(keepX);
    sys.velocity.set(keepV);
    sys.external.set(keepE);
    sys.updateFrames();
  }

  /**
   * One frame of dt seconds as `substeps` implicit Euler steps: calibrated, as many as keep
   * implicit Euler's own damping of the first mode below NUMERICAL_SHARE of the slider's ζ (at
   * most MAX_SUBSTEPS, more on a small tree; system.ts takes what it gives off the physical
   * damping); paper-literal, one.
   */
  advance(dt: number): void {
    const sys = this.system;
    let steps = 1;
    if (!sys.settings.paperLiteral) {
      if (sys.modeStale) this.findFirstMode();
      const target = NUMERICAL_SHARE * sys.zeta, w = sys.firstOmega;
      const most = Math.max(MAX_SUBSTEPS, Math.min(MAX_SMALL_SUBSTEPS, Math.floor(SUBSTEP_MASSES / sys.count)));
      while (steps < most && numericalDamping(w * dt / steps) > target) steps++;
    }
    this.substeps = steps;
    for (let s = 0; s < steps; s++) this.step(dt / steps);
  }

  /** One implicit Euler step of h seconds. */
  step(h: number): void {
    if (!(h > 0)) throw new RangeError(`time step must be above 0; got ${h}`);
    this.assemble(h);
    if (this.ldlt) this.ldlt.factor();
    if (this.jacobi) this.jacobi.update();
    this.dv.fill(0);
    this.converged = this.cg.solve(this.matrix, this.rhs, this.dv, this.precond);
    const sys = this.system, x = sys.position, v = sys.velocity, dv = this.dv;
    for (let i = 0; i < sys.count; i++) {
      if (sys.fixed[i]) continue;
      for (let c = 3 * i; c < 3 * i + 3; c++) {
        v[c] += dv[c];
        x[c] += h * v[c];
      }
    }
  }
}

function addVec(out: Float64Array, i: number, x: number, y: number, z: number, fixed: Uint8Array): void {
  if (fixed[i]) return;
  out[3 * i] += x;
  out[3 * i + 1] += y;
  out[3 * i + 2] += z;
}

/** Block += sOuter ûûᵀ + sIso (I - ûûᵀ). */
function addSpring(val: Float64Array, idx: number, sOuter: number, sIso: number, ux: number, uy: number, uz: number): void {
  if (idx < 0) return;
  const o = 9 * idx, d = sOuter - sIso;
  val[o] += d * ux * ux + sIso; val[o + 1] += d * ux * uy; val[o + 2] += d * ux * uz;
  val[o + 3] += d * uy * ux; val[o + 4] += d * uy * uy + sIso; val[o + 5] += d * uy * uz;
  val[o + 6] += d * uz * ux; val[o + 7] += d * uz * uy; val[o + 8] += d * uz * uz + sIso;
}
