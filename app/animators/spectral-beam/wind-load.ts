/**
 * The steady wind's load on every branch and the tip deflection it causes, from the physical tree:
 * the drag of app/wind/drag.ts with the tree's material, on a branch that is Habel,
 * Kusternig and Wimmer's (2009, §4.1) linearly tapered Euler-Bernoulli cantilever, I(s) = π r(s)⁴ / 4
 * (eq. 5, 6) with r(s) from s1 at the root to s2 at the tip. Plain TypeScript, no Babylon.
 *
 * Every load a branch carries goes in as what it is: its own wood's drag distributed along it
 * (linear in the radius, integrated by Gauss-Legendre), its leaves' drag at their point on its centre
 * line, and each child's whole load (its total force and moment) at the child's base. The tip
 * deflection of the cantilever under them is exact for the beam (no equivalent uniform load):
 *   δ_tip = (1/E) ∫₀ᴸ (M(s) × t) (L - s) / I(s) ds,
 * M(s) the moment about the axis point at s of the loads beyond s. A force P at q (a = (q - c)·t
 * along the axis, c the root) with a couple C adds, with M₀ = (q - c) × P + C its moment about the
 * root and P⊥ its part across the axis,
 *   E δ_tip += (M₀ × t) J0(a) - P⊥ J1(a),   J0(a) = ∫₀ᵃ (L - s)/I ds,  J1(a) = ∫₀ᵃ s (L - s)/I ds,
 * in closed form for the linear taper (taperIntegrals). For a uniform load it is eq. 25's tip,
 * L · F L³/(E s1⁴) · u(1) (spec/animators/spectral-beam/wind-load.spec.ts checks it).
 */
import { branchDragPerLength, crossFlowDrag, leafDrag, type DragConstants } from "../../wind/drag";
import type { TreeSkeleton } from "../../tree/skeleton";

const { PI, abs, min, max, sqrt } = Math;

/** 8-point Gauss-Legendre on [-1, 1]: nodes and weights (the own wood's distributed drag). */
const GL_X = [-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498, 0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363];
const GL_W = [0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620, 0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763];

/** Below this |s2 - s1| / s1 the taper is treated as uniform (the closed form cancels; error ~ this). */
const UNIFORM_TAPER = 1e-4;

/**
 * J0(a) = ∫₀ᵃ (L - s)/I(s) ds and J1(a) = ∫₀ᵃ s (L - s)/I(s) ds for I(s) = π r(s)⁴/4,
 * r(s) = s1 + (s2 - s1) s / L (eq. 6), into out[0], out[1]. With k = (s2 - s1)/L and r = r(a):
 *   J0 = (4/π) k⁻² [1/(2ρ²) - s2/(3ρ³)] from ρ = s1 to r,
 *   J1 = (4/π) k⁻³ [1/ρ - (s1 + s2)/(2ρ²) + s1 s2/(3ρ³)] from ρ = s1 to r.
 */
export function taperIntegrals(L: number, s1: number, s2: number, a: number, out: Float64Array): void {
  const c = 4 / PI;
  const k = (s2 - s1) / L;
  if (abs(s2 - s1) <= UNIFORM_TAPER * s1) {
    const i4 = c / (s1 * s1 * s1 * s1);
    out[0] = i4 * (L * a - (a * a) / 2);
    out[1] = i4 * ((L * a * a) / 2 - (a * a * a) / 3);
    return;
  }
  const r = s1 + k * a, ir = 1 / r, i1 = 1 / s1;
  const f0r = 0.5 * ir * ir - (s2 * ir * ir * ir) / 3, f0s = 0.5 * i1 * i1 - (s2 * i1 * i1 * i1) / 3;
  const f1r = ir - 0.5 * (s1 + s2) * ir * ir + (s1 * s2 * ir * ir * ir) / 3, f1s = i1 - 0.5 * (s1 + s2) * i1 * i1 + (s1 * s2 * i1 * i1 * i1) / 3;
  out[0] = (c * (f0r - f0s)) / (k * k);
  out[1] = (c * (f1r - f1s)) / (k * k * k);
}

/**
 * Per branch, for a steady wind of 1 m/s along a unit direction: the drag it carries and its own tip
 * deflection. Drag goes as |u| u, so at speed v both scale with v². Buffers are kept: compute()
 * allocates nothing.
 */
export class BranchWindLoads {
  /** Tip deflection of each branch's own bend (its cantilever under all it carries), m per (m/s)², xyz. */
  readonly tip: Float64Array;
  /** Total drag carried (own wood, leaves, every branch beyond), N per (m/s)², xyz. */
  readonly force: Float64Array;
  /** Its moment about the branch's root, N·m per (m/s)², xyz. */
  private readonly moment: Float64Array;
  private readonly j = new Float64Array(2);
  private readonly f = new Float64Array(3);

  constructor(branchCount: number) {
    this.tip = new Float64Array(3 * branchCount);
    this.force = new Float64Array(3 * branchCount);
    this.moment = new Float64Array(3 * branchCount);
  }

  /**
   * For a wind along (dx, dy, dz) (unit), on the tree `s` of material `m` with Young's modulus E:
   * fills tip and force. Leaves carry no load when `leafless`.
   */
  compute(s: TreeSkeleton, m: DragConstants, youngModulus: number, dx: number, dy: number, dz: number, leafless: boolean): void {
    const n = s.branchCount;
    const tip = this.tip, F = this.force, M = this.moment, f = this.f;
    tip.fill(0); F.fill(0); M.fill(0);
    const np = s.nodePosition;
    // Own wood: ½ ρ C_d (2 r(s)) |u⊥| u⊥ per unit length (drag.ts), linear in r, at 8 Gauss points.
    for (let b = 0; b < n; b++) {
      const L = branchLength(s, b), t = 9 * b;
      const s1 = rootRadius(s, b), s2 = tipRadius(s, b);
      for (let g = 0; g < GL_X.length; g++) {
        const x = 0.5 * (GL_X[g] + 1), w = 0.5 * GL_W[g] * L;
        crossFlowDrag(branchDragPerLength(m, s1 + (s2 - s1) * x), dx, dy, dz, s.branchFrame[t], s.branchFrame[t + 1], s.branchFrame[t + 2], f, 0);
        const a = x * L;
        this.add(s, b, a * s.branchFrame[t], a * s.branchFrame[t + 1], a * s.branchFrame[t + 2], w * f[0], w * f[1], w * f[2], 0, 0, 0);
      }
    }
    // Leaves: ½ ρ (C_d A) |u| u each, at their point on their branch's centre line (as the reference has it).
    if (!leafless && m.leafDragArea > 0) {
      leafDrag(m, dx, dy, dz, f, 0);
      for (let i = 0; i < s.leafCount; i++) {
        const b = s.leafBranch[i], t = 9 * b, a = s.leafX[i] * branchLength(s, b);
        this.add(s, b, a * s.branchFrame[t], a * s.branchFrame[t + 1], a * s.branchFrame[t + 2], f[0], f[1], f[2], 0, 0, 0);
      }
    }
    // Children first (a parent's index is lower): each child's whole load at its base, as a force and a couple.
    for (let b = n - 1; b > 0; b--) {
      const p = s.branchParent[b];
      if (p < 0) continue;
      const cb = 3 * s.branchFirstNode[b], cp = 3 * s.branchFirstNode[p], k = 3 * b;
      this.add(s, p, np[cb] - np[cp], np[cb + 1] - np[cp + 1], np[cb + 2] - np[cp + 2], F[k], F[k + 1], F[k + 2], M[k], M[k + 1], M[k + 2]);
    }
    const inv = 1 / youngModulus;
    for (let i = 0; i < 3 * n; i++) tip[i] *= inv;
  }

  /** A force (Fx, Fy, Fz) at (qx, qy, qz) from branch b's root, with a couple C: into b's force, moment and E·δ_tip. */
  private add(s: TreeSkeleton, b: number, qx: number, qy: number, qz: number, Fx: number, Fy: number, Fz: number, Cx: number, Cy: number, Cz: number): void {
    const t = 9 * b, tx = s.branchFrame[t], ty = s.branchFrame[t + 1], tz = s.branchFrame[t + 2];
    const L = branchLength(s, b);
    const a = min(L, max(0, qx * tx + qy * ty + qz * tz));
    taperIntegrals(L, rootRadius(s, b), tipRadius(s, b), a, this.j);
    const J0 = this.j[0], J1 = this.j[1];
    const M0x = qy * Fz - qz * Fy + Cx, M0y = qz * Fx - qx * Fz + Cy, M0z = qx * Fy - qy * Fx + Cz;
    const Ft = Fx * tx + Fy * ty + Fz * tz;
    const k = 3 * b, T = this.tip;
    // (M0 × t) J0 - P⊥ J1
    T[k] += (M0y * tz - M0z * ty) * J0 - (Fx - Ft * tx) * J1;
    T[k + 1] += (M0z * tx - M0x * tz) * J0 - (Fy - Ft * ty) * J1;
    T[k + 2] += (M0x * ty - M0y * tx) * J0 - (Fz - Ft * tz) * J1;
    this.force[k] += Fx; this.force[k + 1] += Fy; this.force[k + 2] += Fz;
    this.moment[k] += M0x; this.moment[k + 1] += M0y; this.moment[k + 2] += M0z;
  }

  /** |force of branch b across its axis|, N per (m/s)²: what drives its oscillator (eq. 15). */
  crossForce(s: TreeSkeleton, b: number): number {
    const t = 9 * b, k = 3 * b, F = this.force;
    const tx = s.branchFrame[t], ty = s.branchFrame[t + 1], tz = s.branchFrame[t + 2];
    const Ft = F[k] * tx + F[k + 1] * ty + F[k + 2] * tz;
    const x = F[k] - Ft * tx, y = F[k + 1] - Ft * ty, z = F[k + 2] - Ft * tz;
    return sqrt(x * x + y * y + z * z);
  }
}

/** L of branch b (at least 1 mm), s1 and s2 (at least 0.1 mm): a branch's beam, as the rest of the method reads it. */
export function branchLength(s: TreeSkeleton, b: number): number {
  return max(1e-3, s.branchLength[b]);
}
export function rootRadius(s: TreeSkeleton, b: number): number {
  return max(1e-4, s.branchRootRadius[b]);
}
export function tipRadius(s: TreeSkeleton, b: number): number {
  return min(rootRadius(s, b), max(1e-5, s.branchTipRadius[b]));
}
