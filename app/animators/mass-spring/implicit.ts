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
 * indefinite; eq. 2's angular term drops it (Gauss-Newton); the holding term is linear, ∇²C = 0.
 * At the rest pose (C = 0 everywhere) the Jacobian is exact. What remains is symmetric positive
 * definite, M plus positive semi-definite blocks.
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
const { sqrt } = Math;

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
    const sys = this.system, A = this.matrix, val = A.values, n = sys.count;
    const x = sys.position, v = sys.velocity, parent = sys.parent, fixed = sys.fixed, blocks = this.blocks, g = this.g;
    const f = this.force, rhs = this.rhs;
    sys.forces(f);
    A.clear();
    rhs.fill(0); // here: ∂f/∂x v0, accumulated spring by spring
    // M, and the air damping's -h ∂f/∂v = h α M (no ∂f/∂x).
    const air = 1 + h * sys.airDamping;
    for (let i = 0; i < n; i++) {
      const o = 9 * A.diagIndex[i], m = fixed[i] ? 1 : air * sys.mass[i];
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
        const sOuter = h * sys.linearKd[i] + h2 * kl, sIso = h2 * t;
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
      // Angular spring, eq. 2 (Gauss-Newton): (h k_d2 + h² k2) ∇C ∇Cᵀ.
      const ca = sys.cosAlpha[i], lj2 = sys.restLength[j] * sys.restLength[j];
      const k2 = sys.bendK[i] / lj2, kd2 = sys.bendKd[i] / lj2;
      g[0] = bx - ca * lb * ux; g[1] = by - ca * lb * uy; g[2] = bz - ca * lb * uz;
      g[6] = ax - ca * la * bx / lb; g[7] = ay - ca * la * by / lb; g[8] = az - ca * la * bz / lb;
      g[3] = -(g[0] + g[6]); g[4] = -(g[1] + g[7]); g[5] = -(g[2] + g[8]);
      const s2 = h * kd2 + h2 * k2;
      let gv = 0;
      for (let a = 0; a < 3; a++) {
        const m = a === 0 ? i : a === 1 ? j : k;
        gv += g[3 * a] * v[3 * m] + g[3 * a + 1] * v[3 * m + 1] + g[3 * a + 2] * v[3 * m + 2];
      }
      // Holding term: (h k_d + h² k) c_a c_b I with c = (1, -(1 + λ), λ).
      const lam = sys.lambda[i], kb = sys.bendK[i], sb = h * sys.bendKd[i] + h2 * kb;
      const cvx = vax + lam * (v[3 * k] - v[3 * j]), cvy = vay + lam * (v[3 * k + 1] - v[3 * j + 1]), cvz = vaz + lam * (v[3 * k + 2] - v[3 * j + 2]);
      for (let a = 0; a < 3; a++) {
        const ma = a === 0 ? i : a === 1 ? j : k, ca_ = a === 0 ? 1 : a === 1 ? -(1 + lam) : lam;
        const ga0 = g[3 * a], ga1 = g[3 * a + 1], ga2 = g[3 * a + 2];
        // (∂f/∂x v0)_a = -k2 g_a (g · v) - k c_a Ċ_v
        addVec(rhs, ma, -k2 * ga0 * gv - kb * ca_ * cvx, -k2 * ga1 * gv - kb * ca_ * cvy, -k2 * ga2 * gv - kb * ca_ * cvz, fixed);
        for (let b = 0; b < 3; b++) {
          const idx = blocks[bi + 3 * a + b];
          if (idx < 0) continue;
          const cb = b === 0 ? 1 : b === 1 ? -(1 + lam) : lam;
          const o = 9 * idx, gb0 = g[3 * b], gb1 = g[3 * b + 1], gb2 = g[3 * b + 2];
          val[o] += s2 * ga0 * gb0; val[o + 1] += s2 * ga0 * gb1; val[o + 2] += s2 * ga0 * gb2;
          val[o + 3] += s2 * ga1 * gb0; val[o + 4] += s2 * ga1 * gb1; val[o + 5] += s2 * ga1 * gb2;
          val[o + 6] += s2 * ga2 * gb0; val[o + 7] += s2 * ga2 * gb1; val[o + 8] += s2 * ga2 * gb2;
          const d = sb * ca_ * cb;
          val[o] += d; val[o + 4] += d; val[o + 8] += d;
        }
      }
    }
    // rhs = h (f0 + h ∂f/∂x v0), 0 on the fixed masses.
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) rhs[3 * i + c] = fixed[i] ? 0 : h * (f[3 * i + c] + h * rhs[3 * i + c]);
    }
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
