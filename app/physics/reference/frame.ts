/**
 * The reference solver's model: the skeleton as a 3D frame of Euler-Bernoulli beam elements.
 * Plain TypeScript over typed arrays, no Babylon.
 *
 * Joints are the skeleton's joints (`skeletonJoints`: a branch's base merged with the node it grows
 * from, so joints are rigid) plus `elementsPerSegment - 1` joints inside every centre-line segment.
 * Each joint has 6 degrees of freedom (displacement xyz, small rotation xyz); the trunk's base is
 * clamped. Each element runs from its parent joint a to its joint b, straight, with a circular
 * section whose radius varies linearly from r_a to r_b: A = π r², I = π r⁴ / 4, J = π r⁴ / 2,
 * shear modulus G = E / (2 (1 + ν)) with Poisson's ratio ν = 0.3 (green wood is orthotropic; the
 * torsion of thin branches matters little to their bending). No shear deformation, no rotary inertia
 * of the sections in bending (Euler-Bernoulli).
 *
 * Stiffness comes from the element's exact flexibility: clamped at a and loaded at b by a force F and
 * a moment M (about b), the end's displacement and rotation are, with t the element's unit axis,
 *   θ = B0 (M - (t·M) t) + T0 (t·M) t + B1 t × F
 *   u = B1 M × t + B2 (F - (t·F) t) + A0 (t·F) t
 * where B_k = ∫ (L - s)^k / EI(s) ds, T0 = ∫ ds / GJ(s), A0 = ∫ ds / EA(s) (integrals in closed form
 * for the linear radius). The static solve (static.ts) uses these directly; `elementStiffness` inverts
 * them into the 12 x 12 matrix of the same element, for checking. Mass is the consistent mass of
 * the element (Hermite cubics across, linear along and in torsion) integrated exactly over the
 * varying section.
 */
import type { PhysicalMaterial } from "../material";
import { skeletonJoints, type TreeSkeleton } from "../../tree/skeleton";

const { sqrt, abs, PI, cos } = Math;

/** Poisson's ratio of the wood, for the shear modulus in torsion. */
export const POISSON_RATIO = 0.3;
/** Elements shorter than this (metres) are rigid links: no flexibility, no mass. */
export const RIGID_LENGTH = 1e-9;
/** Radii are at least this (metres), so that no element is infinitely flexible. */
export const MIN_RADIUS = 1e-4;

/** Gauss-Legendre nodes and weights on [0, 1]. */
function gaussLegendre(n: number): { x: Float64Array; w: Float64Array } {
  const x = new Float64Array(n), w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let z = cos((PI * (i + 0.75)) / (n + 0.5));
    let dp = 1;
    for (let it = 0; it < 100; it++) {
      let p0 = 1, p1 = 0;
      for (let k = 1; k <= n; k++) {
        const p2 = p1;
        p1 = p0;
        p0 = ((2 * k - 1) * z * p1 - (k - 1) * p2) / k;
      }
      dp = (n * (z * p0 - p1)) / (z * z - 1);
      const dz = p0 / dp;
      z -= dz;
      if (abs(dz) < 1e-16) break;
    }
    x[i] = 0.5 * (1 - z);
    w[i] = 1 / ((1 - z * z) * dp * dp);
  }
  return { x, w };
}

const GAUSS = gaussLegendre(8);

/**
 * J_k = ∫₀¹ (1 - ξ)^k (1 + a ξ)^-4 dξ for k = 0, 1, 2, written to out[0..2]: the bending integrals of
 * an element whose radius goes from r to r (1 + a). Closed form where it is well conditioned, Gauss
 * quadrature (exact to rounding there, the pole at ξ = -1/a being far) where the closed form cancels.
 */
export function taperIntegrals(a: number, out: Float64Array): void {
  if (abs(a) > 0.25) {
    const c = 1 + a, c1 = 1 / c, c2 = c1 * c1, c3 = c2 * c1;
    out[0] = (1 - c3) / (3 * a);
    out[1] = ((c * (1 - c3)) / 3 - (1 - c2) / 2) / (a * a);
    out[2] = ((c * c * (1 - c3)) / 3 - c * (1 - c2) + (1 - c1)) / (a * a * a);
    return;
  }
  let j0 = 0, j1 = 0, j2 = 0;
  for (let i = 0; i < GAUSS.x.length; i++) {
    const xi = GAUSS.x[i], z = 1 + a * xi, f = GAUSS.w[i] / (z * z * z * z), m = 1 - xi;
    j0 += f;
    j1 += f * m;
    j2 += f * m * m;
  }
  out[0] = j0;
  out[1] = j1;
  out[2] = j2;
}

export interface FrameOptions {
  /** Beam elements per centre-line segment of the skeleton (default 1). */
  readonly elementsPerSegment?: number;
}

/** The local mass's sparse sets (see BeamFrame.massLocal) and where each starts. */
const LOCAL_SETS = [[1, 5, 7, 11], [2, 4, 8, 10], [0, 6], [3, 9]];
const LOCAL_OFFSETS = [0, 16, 32, 36];
const MASS_LOCAL = 40;

/** The frame: joints, elements (one per joint but the root, from its parent), flexibility and mass. */
export class BeamFrame {
  readonly jointCount: number;
  /** 6 per joint: ux, uy, uz, θx, θy, θz. The root's six are clamped (always zero). */
  readonly dofCount: number;
  /** Parent joint, -1 for the root; parents come first. */
  readonly jointParent: Int32Array;
  /** xyz per joint, metres. */
  readonly jointPosition: Float64Array;
  /** The joint of every skeleton node. */
  readonly nodeJoint: Int32Array;
  /** Per element (indexed by its end joint b): unit axis xyz. */
  readonly axis: Float64Array;
  /** Per element: length, metres (0 for the root). */
  readonly length: Float64Array;
  /** Per element: radius at its parent joint's end and at its own. */
  readonly radiusA: Float64Array;
  readonly radiusB: Float64Array;
  /** Per element: B0, B1, B2, T0, A0 (see the file's comment). */
  readonly flexibility: Float64Array;
  /** Per element: the consistent mass, 12 x 12 row-major over (parent joint's 6, own 6), global axes. */
  readonly mass: Float64Array;
  /** Per element: the branch it lies on (its end joint's), -1 for the root. */
  readonly elementBranch: Int32Array;
  /**
   * Per element, the same mass in its own axes, where it is sparse (MASS_LOCAL floats): bending in
   * e1 over local dofs (1, 5, 7, 11), bending in e2 over (2, 4, 8, 10), 4 x 4 each, then axial over
   * (0, 6) and torsion over (3, 9), 2 x 2 each; and the axes R (t, e1, e2 as rows, 9 floats): what
   * massTimes multiplies by, M x = Tᵀ (Ml (T x)), 112 products an element instead of 288.
   */
  private readonly massLocal: Float64Array;
  private readonly massAxes: Float64Array;

  constructor(skeleton: TreeSkeleton, material: PhysicalMaterial, options: FrameOptions = {}) {
    const m = options.elementsPerSegment ?? 1;
    if (!(Number.isInteger(m) && m >= 1)) throw new RangeError(`elementsPerSegment must be a whole number from 1, got ${m}`);
    const E = material.youngModulus, rho = material.woodDensity;
    if (!(E > 0) || !(rho > 0)) throw new RangeError("the material needs a positive Young's modulus and wood density");
    const G = E / (2 * (1 + POISSON_RATIO));
    const s = skeleton;
    const sj = skeletonJoints(s, "beam joint");
    const nsj = sj.node.length;
    // Every skeleton joint but the root brings one segment, cut into m elements.
    const nj = 1 + (nsj - 1) * m;
    this.jointCount = nj;
    this.dofCount = 6 * nj;
    this.jointParent = new Int32Array(nj);
    this.jointPosition = new Float64Array(3 * nj);
    this.axis = new Float64Array(3 * nj);
    this.length = new Float64Array(nj);
    this.radiusA = new Float64Array(nj);
    this.radiusB = new Float64Array(nj);
    this.flexibility = new Float64Array(5 * nj);
    this.mass = new Float64Array(144 * nj);
    this.massLocal = new Float64Array(MASS_LOCAL * nj);
    this.massAxes = new Float64Array(9 * nj);
    this.elementBranch = new Int32Array(nj);
    this.nodeJoint = new Int32Array(s.nodeCount);
    const np = s.nodePosition, nr = s.nodeRadius;
    const frameJoint = new Int32Array(nsj); // skeleton joint -> frame joint
    this.jointParent[0] = -1;
    const root = sj.node[0];
    this.jointPosition.set([np[3 * root], np[3 * root + 1], np[3 * root + 2]], 0);
    this.elementBranch[0] = -1;
    let next = 1;
    for (let j = 1; j < nsj; j++) {
      const k = sj.node[j];
      const b = s.nodeBranch[k];
      const first = k === s.branchFirstNode[b];
      // A branch's base apart from its origin: a link of the base's own radius.
      const r0 = Math.max(MIN_RADIUS, first ? nr[k] : nr[k - 1]), r1 = Math.max(MIN_RADIUS, nr[k]);
      const pa = frameJoint[sj.parent[j]];
      const ax = this.jointPosition[3 * pa], ay = this.jointPosition[3 * pa + 1], az = this.jointPosition[3 * pa + 2];
      const bx = np[3 * k], by = np[3 * k + 1], bz = np[3 * k + 2];
      let parent = pa;
      for (let e = 1; e <= m; e++) {
        const f = e / m, f0 = (e - 1) / m;
        const jb = next++;
        this.jointParent[jb] = parent;
        this.jointPosition[3 * jb] = ax + (bx - ax) * f;
        this.jointPosition[3 * jb + 1] = ay + (by - ay) * f;
        this.jointPosition[3 * jb + 2] = az + (bz - az) * f;
        this.radiusA[jb] = r0 + (r1 - r0) * f0;
        this.radiusB[jb] = r0 + (r1 - r0) * f;
        this.elementBranch[jb] = b;
        this.setElement(jb, E, G, rho);
        parent = jb;
      }
      frameJoint[j] = parent;
    }
    for (let k = 0; k < s.nodeCount; k++) this.nodeJoint[k] = frameJoint[sj.jointOfNode[k]];
  }

  private setElement(j: number, E: number, G: number, rho: number): void {
    const p = this.jointParent[j], x = this.jointPosition;
    const dx = x[3 * j] - x[3 * p], dy = x[3 * j + 1] - x[3 * p + 1], dz = x[3 * j + 2] - x[3 * p + 2];
    const L = sqrt(dx * dx + dy * dy + dz * dz);
    if (L < RIGID_LENGTH) return; // rigid link: zero flexibility and mass
    const tx = dx / L, ty = dy / L, tz = dz / L;
    this.length[j] = L;
    this.axis[3 * j] = tx;
    this.axis[3 * j + 1] = ty;
    this.axis[3 * j + 2] = tz;
    const ra = this.radiusA[j], rb = this.radiusB[j];
    const Ia = (PI * ra ** 4) / 4;
    const jk = new Float64Array(3);
    taperIntegrals(rb / ra - 1, jk);
    const f = this.flexibility, o = 5 * j;
    f[o] = (L / (E * Ia)) * jk[0];
    f[o + 1] = ((L * L) / (E * Ia)) * jk[1];
    f[o + 2] = ((L * L * L) / (E * Ia)) * jk[2];
    f[o + 3] = (L / (G * 2 * Ia)) * jk[0];
    f[o + 4] = L / (E * PI * ra * rb);
    this.setMass(j, L, tx, ty, tz, ra, rb, rho);
  }

  /** The consistent mass of element j in global axes. */
  private setMass(j: number, L: number, tx: number, ty: number, tz: number, ra: number, rb: number, rho: number): void {
    // Local axes t, e1, e2 (right-handed); local dofs per end: u_t, u_1, u_2, θ_t, θ_1, θ_2.
    const hx = abs(tx) < 0.9 ? 1 : 0, hy = hx ? 0 : 1;
    let e1x = hx - tx * (hx * tx + hy * ty), e1y = hy - ty * (hx * tx + hy * ty), e1z = -tz * (hx * tx + hy * ty);
    const l1 = sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
    e1x /= l1; e1y /= l1; e1z /= l1;
    const e2x = ty * e1z - tz * e1y, e2y = tz * e1x - tx * e1z, e2z = tx * e1y - ty * e1x;
    const R = [tx, ty, tz, e1x, e1y, e1z, e2x, e2y, e2z];
    const ml = new Float64Array(144);
    const nv = new Float64Array(12), nw = new Float64Array(12);
    for (let g = 0; g < GAUSS.x.length; g++) {
      const xi = GAUSS.x[g], wgt = GAUSS.w[g] * L;
      const r = ra + (rb - ra) * xi;
      const mA = rho * PI * r * r * wgt, mJ = (rho * PI * r ** 4 * wgt) / 2;
      const x2 = xi * xi, x3 = x2 * xi;
      const N1 = 1 - 3 * x2 + 2 * x3, N2 = L * (xi - 2 * x2 + x3), N3 = 3 * x2 - 2 * x3, N4 = L * (x3 - x2);
      nv.fill(0);
      nw.fill(0);
      nv[1] = N1; nv[5] = N2; nv[7] = N3; nv[11] = N4; // v along e1, v' = θ_2
      nw[2] = N1; nw[4] = -N2; nw[8] = N3; nw[10] = -N4; // w along e2, w' = -θ_1
      for (let a = 0; a < 12; a++) {
        for (let b = 0; b < 12; b++) ml[12 * a + b] += mA * (nv[a] * nv[b] + nw[a] * nw[b]);
      }
      const lin = [1 - xi, xi];
      for (let a = 0; a < 2; a++) {
        for (let b = 0; b < 2; b++) {
          ml[12 * (6 * a) + 6 * b] += mA * lin[a] * lin[b]; // axial
          ml[12 * (6 * a + 3) + 6 * b + 3] += mJ * lin[a] * lin[b]; // torsion
        }
      }
    }
    // The sparse local blocks and the axes, for massTimes.
    const ol = MASS_LOCAL * j;
    for (let set = 0; set < 4; set++) {
      const idx = LOCAL_SETS[set], size = idx.length, base = ol + LOCAL_OFFSETS[set];
      for (let a = 0; a < size; a++) for (let b = 0; b < size; b++) this.massLocal[base + size * a + b] = ml[12 * idx[a] + idx[b]];
    }
    for (let k = 0; k < 9; k++) this.massAxes[9 * j + k] = R[k];
    // M = Tᵀ Ml T, T = diag(R, R, R, R).
    const out = this.mass, o = 144 * j;
    const tmp = new Float64Array(144); // Ml T
    for (let a = 0; a < 12; a++) {
      for (let c = 0; c < 12; c++) {
        const cb = c - (c % 3), cc = c % 3;
        let sum = 0;
        for (let k = 0; k < 3; k++) sum += ml[12 * a + cb + k] * R[3 * k + cc];
        tmp[12 * a + c] = sum;
      }
    }
    for (let a = 0; a < 12; a++) {
      const ab = a - (a % 3), ac = a % 3;
      for (let c = 0; c < 12; c++) {
        let sum = 0;
        for (let k = 0; k < 3; k++) sum += R[3 * k + ac] * tmp[12 * (ab + k) + c];
        out[o + 12 * a + c] = sum;
      }
    }
  }

  /** out = M x over all dofs (the root's rows zero): Tᵀ (Ml (T x)) per element (massLocal). */
  massTimes(x: Float64Array, out: Float64Array): void {
    out.fill(0);
    const L = this.massLocal, A = this.massAxes, par = this.jointParent, len = this.length;
    for (let j = 1; j < this.jointCount; j++) {
      if (len[j] === 0) continue;
      const pa = 6 * par[j], pb = 6 * j, r = 9 * j, o = MASS_LOCAL * j;
      const r0 = A[r], r1 = A[r + 1], r2 = A[r + 2], r3 = A[r + 3], r4 = A[r + 4], r5 = A[r + 5], r6 = A[r + 6], r7 = A[r + 7], r8 = A[r + 8];
      // T x: each 3-vector (u_a, θ_a, u_b, θ_b) in the element's axes (t, e1, e2).
      let x0 = x[pa], x1 = x[pa + 1], x2 = x[pa + 2];
      const ua0 = r0 * x0 + r1 * x1 + r2 * x2, ua1 = r3 * x0 + r4 * x1 + r5 * x2, ua2 = r6 * x0 + r7 * x1 + r8 * x2;
      x0 = x[pa + 3]; x1 = x[pa + 4]; x2 = x[pa + 5];
      const ta0 = r0 * x0 + r1 * x1 + r2 * x2, ta1 = r3 * x0 + r4 * x1 + r5 * x2, ta2 = r6 * x0 + r7 * x1 + r8 * x2;
      x0 = x[pb]; x1 = x[pb + 1]; x2 = x[pb + 2];
      const ub0 = r0 * x0 + r1 * x1 + r2 * x2, ub1 = r3 * x0 + r4 * x1 + r5 * x2, ub2 = r6 * x0 + r7 * x1 + r8 * x2;
      x0 = x[pb + 3]; x1 = x[pb + 4]; x2 = x[pb + 5];
      const tb0 = r0 * x0 + r1 * x1 + r2 * x2, tb1 = r3 * x0 + r4 * x1 + r5 * x2, tb2 = r6 * x0 + r7 * x1 + r8 * x2;
      // Ml: bending in e1 over (ua1, ta2, ub1, tb2), in e2 over (ua2, ta1, ub2, tb1), axial (ua0, ub0), torsion (ta0, tb0).
      const v0 = L[o] * ua1 + L[o + 1] * ta2 + L[o + 2] * ub1 + L[o + 3] * tb2;
      const v1 = L[o + 4] * ua1 + L[o + 5] * ta2 + L[o + 6] * ub1 + L[o + 7] * tb2;
      const v2 = L[o + 8] * ua1 + L[o + 9] * ta2 + L[o + 10] * ub1 + L[o + 11] * tb2;
      const v3 = L[o + 12] * ua1 + L[o + 13] * ta2 + L[o + 14] * ub1 + L[o + 15] * tb2;
      const w0 = L[o + 16] * ua2 + L[o + 17] * ta1 + L[o + 18] * ub2 + L[o + 19] * tb1;
      const w1 = L[o + 20] * ua2 + L[o + 21] * ta1 + L[o + 22] * ub2 + L[o + 23] * tb1;
      const w2 = L[o + 24] * ua2 + L[o + 25] * ta1 + L[o + 26] * ub2 + L[o + 27] * tb1;
      const w3 = L[o + 28] * ua2 + L[o + 29] * ta1 + L[o + 30] * ub2 + L[o + 31] * tb1;
      const a0 = L[o + 32] * ua0 + L[o + 33] * ub0, a1 = L[o + 34] * ua0 + L[o + 35] * ub0;
      const q0 = L[o + 36] * ta0 + L[o + 37] * tb0, q1 = L[o + 38] * ta0 + L[o + 39] * tb0;
      // Tᵀ: local (t, e1, e2) components back to global, added at both ends.
      // end a: u = (a0, v0, w0), θ = (q0, w1, v1); end b: u = (a1, v2, w2), θ = (q1, w3, v3).
      out[pa] += r0 * a0 + r3 * v0 + r6 * w0; out[pa + 1] += r1 * a0 + r4 * v0 + r7 * w0; out[pa + 2] += r2 * a0 + r5 * v0 + r8 * w0;
      out[pa + 3] += r0 * q0 + r3 * w1 + r6 * v1; out[pa + 4] += r1 * q0 + r4 * w1 + r7 * v1; out[pa + 5] += r2 * q0 + r5 * w1 + r8 * v1;
      out[pb] += r0 * a1 + r3 * v2 + r6 * w2; out[pb + 1] += r1 * a1 + r4 * v2 + r7 * w2; out[pb + 2] += r2 * a1 + r5 * v2 + r8 * w2;
      out[pb + 3] += r0 * q1 + r3 * w3 + r6 * v3; out[pb + 4] += r1 * q1 + r4 * w3 + r7 * v3; out[pb + 5] += r2 * q1 + r5 * w3 + r8 * v3;
    }
    for (let c = 0; c < 6; c++) out[c] = 0;
  }

  /**
   * The 12 x 12 stiffness of element j (row-major over its parent joint's 6 dofs, then its own),
   * global axes: the inverse of its flexibility, carried to both ends by the rigid motion of a.
   * For checks against the O(n) solve; the solvers never assemble it.
   */
  elementStiffness(j: number, out: Float64Array): void {
    const C = new Float64Array(36);
    const t = [this.axis[3 * j], this.axis[3 * j + 1], this.axis[3 * j + 2]];
    const f = this.flexibility.subarray(5 * j, 5 * j + 5);
    const load = new Float64Array(6), res = new Float64Array(6);
    for (let c = 0; c < 6; c++) {
      load.fill(0);
      load[c] = 1;
      elementCompliance(t[0], t[1], t[2], f, load, res);
      for (let r = 0; r < 6; r++) C[6 * r + c] = res[r];
    }
    const Kbb = invert6(C);
    // δ = q_b - Γ q_a, Γ = [[I, -[d]x], [0, I]]: the rigid motion of a carried to b.
    const L = this.length[j], d = [t[0] * L, t[1] * L, t[2] * L];
    const Gm = new Float64Array(72); // 6 x 12: [-Γ, I]
    for (let r = 0; r < 6; r++) {
      Gm[12 * r + r] = -1;
      Gm[12 * r + 6 + r] = 1;
    }
    // -Γ's upper right is +[d]x: row u gets d x θ_a.
    const dx = [[0, -d[2], d[1]], [d[2], 0, -d[0]], [-d[1], d[0], 0]];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) Gm[12 * r + 3 + c] = dx[r][c];
    const KG = new Float64Array(72);
    for (let r = 0; r < 6; r++) for (let c = 0; c < 12; c++) {
      let sum = 0;
      for (let k = 0; k < 6; k++) sum += Kbb[6 * r + k] * Gm[12 * k + c];
      KG[12 * r + c] = sum;
    }
    for (let r = 0; r < 12; r++) for (let c = 0; c < 12; c++) {
      let sum = 0;
      for (let k = 0; k < 6; k++) sum += Gm[12 * k + r] * KG[12 * k + c];
      out[12 * r + c] = sum;
    }
  }
}

/**
 * The end displacement and rotation (u, θ) of an element clamped at a under the end load (F, M) at b,
 * from its flexibility f = (B0, B1, B2, T0, A0) and unit axis t. res = (ux, uy, uz, θx, θy, θz).
 */
export function elementCompliance(tx: number, ty: number, tz: number, f: Float64Array, load: Float64Array, res: Float64Array): void {
  const Fx = load[0], Fy = load[1], Fz = load[2], Mx = load[3], My = load[4], Mz = load[5];
  const B0 = f[0], B1 = f[1], B2 = f[2], T0 = f[3], A0 = f[4];
  const tM = tx * Mx + ty * My + tz * Mz, tF = tx * Fx + ty * Fy + tz * Fz;
  res[3] = B0 * (Mx - tM * tx) + T0 * tM * tx + B1 * (ty * Fz - tz * Fy);
  res[4] = B0 * (My - tM * ty) + T0 * tM * ty + B1 * (tz * Fx - tx * Fz);
  res[5] = B0 * (Mz - tM * tz) + T0 * tM * tz + B1 * (tx * Fy - ty * Fx);
  res[0] = B1 * (My * tz - Mz * ty) + B2 * (Fx - tF * tx) + A0 * tF * tx;
  res[1] = B1 * (Mz * tx - Mx * tz) + B2 * (Fy - tF * ty) + A0 * tF * ty;
  res[2] = B1 * (Mx * ty - My * tx) + B2 * (Fz - tF * tz) + A0 * tF * tz;
}

/** Inverse of a 6 x 6 matrix (Gauss-Jordan with partial pivoting). */
function invert6(A: Float64Array): Float64Array {
  const n = 6, a = Float64Array.from(A), inv = new Float64Array(36);
  for (let i = 0; i < n; i++) inv[7 * i] = 1;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (abs(a[6 * r + c]) > abs(a[6 * p + c])) p = r;
    if (p !== c) {
      for (let k = 0; k < n; k++) {
        let t = a[6 * c + k]; a[6 * c + k] = a[6 * p + k]; a[6 * p + k] = t;
        t = inv[6 * c + k]; inv[6 * c + k] = inv[6 * p + k]; inv[6 * p + k] = t;
      }
    }
    const d = 1 / a[6 * c + c];
    for (let k = 0; k < n; k++) { a[6 * c + k] *= d; inv[6 * c + k] *= d; }
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const m = a[6 * r + c];
      if (m === 0) continue;
      for (let k = 0; k < n; k++) { a[6 * r + k] -= m * a[6 * c + k]; inv[6 * r + k] -= m * inv[6 * c + k]; }
    }
  }
  return inv;
}
