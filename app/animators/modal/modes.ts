/**
 * Modal dynamics of the tree (Shinya and Fournier 1992, Stam 1997, Diener et al. 2009): the tree's
 * small motions as a superposition of its lowest natural modes, each a damped oscillator driven by
 * the wind's load projected on it. Plain TypeScript over typed arrays, no Babylon.
 *
 * The modes are the reference solver's (app/physics/reference): the skeleton as a frame of tapered
 * Euler-Bernoulli beams, K φ = ω² M φ, φ with 6 dofs per joint and M-orthonormal, so every modal
 * mass m_k = φ_kᵀ M φ_k is 1 and the generalised force is f_k = φ_kᵀ F. Per step:
 *  1. each joint's velocity from the modal velocities, v = Σ_k q̇_k φ_k (translations);
 *  2. the shared wind sampled at every joint (rest position plus the tree's place);
 *  3. the nodal loads F of the drag in the relative wind u - v (app/wind/drag.ts): each element's
 *     cross-flow drag per length at its two ends, linear between them, as consistent joint forces
 *     and moments (reference/loads.ts addLinearLoad, the same as the reference's static load); each
 *     leaf's drag at the joint of its nearest node with the moment of its offset. The velocity in
 *     the drag is the aerodynamic damping;
 *  4. f_k = φ_kᵀ F, held over the step, and q̈_k + 2 ζ ω_k q̇_k + ω_k² q_k = f_k integrated exactly
 *     (the 2 x 2 system's matrix exponential with the zero-order-hold force): unconditionally stable
 *     at any dt, exact for a free mode (its frequency and decay are those asked for).
 * Small deflections: node n moves by d_n = Σ_k q_k φ_k(n), the translation of its joint.
 *
 * Static correction (the mode-acceleration method; Cornwell, Craig and Johnson 1983, Dickens et al.
 * 1997): the modes left out are far stiffer than the wind's fluctuations are fast, so they answer
 * quasi-statically. Their share of the displacement is the static solution less what the kept modes
 * already hold, r = K⁻¹F - Σ_k φ_k f_k / ω_k², added to d (one O(n) static solve of the reference
 * per step). With it the steady-state bend under a steady wind is the reference's exactly, whatever
 * the number of modes; without it a dozen modes miss up to a quarter of the twigs' bend on some trees.
 */
import { ReferenceTree, addLinearLoad, lowestModes, type BeamFrame, type StaticSolver } from "../../physics/reference";
import type { PhysicalMaterial } from "../../physics/material";
import type { TreeSkeleton } from "../../tree/skeleton";
import { dampingRatio } from "../../physics/damping";
import { branchDragPerLength, crossFlowDrag, leafDrag } from "../../wind/drag";

export { dampingRatio };

const { sqrt, abs, max, min } = Math;

/** The most modes the method offers (the reference's 20 lowest). */
export const MAX_MODES = 20;

/** What the modal step needs of the WindField. */
export interface WindSampler {
  sample(x: number, y: number, z: number, t: number, out: Float64Array, offset?: number): void;
}

/** The tree's lowest modes on its beam frame: precomputed once per skeleton, material and count. */
export interface ModalBasis {
  readonly frame: BeamFrame;
  /** Modes found (at most the count asked for). */
  readonly count: number;
  /** ω_k, rad/s, ascending. */
  readonly omega: Float64Array;
  /** Per mode: 6 per joint, M-orthonormal (modal mass 1). */
  readonly vectors: readonly Float64Array[];
  /** Modal masses φ_kᵀ M φ_k (1 up to rounding: the vectors are M-orthonormal). */
  readonly modalMass: Float64Array;
  /** The frame's O(n) static solve, u = K⁻¹ F (the static correction's). */
  readonly solver: StaticSolver;
}

const cache = new WeakMap<TreeSkeleton, Map<string, ModalBasis>>();

/**
 * The `count` lowest modes of the skeleton with the material (elementsPerSegment beam elements per
 * centre-line segment). Cached per skeleton object: views showing the same tree share one solve.
 */
export function modalBasis(skeleton: TreeSkeleton, material: PhysicalMaterial, count: number, elementsPerSegment = 1): ModalBasis {
  if (!(Number.isInteger(count) && count >= 1 && count <= MAX_MODES)) throw new RangeError(`modes must be a whole number from 1 to ${MAX_MODES}, got ${count}`);
  const key = `${count}|${elementsPerSegment}|${material.woodDensity}|${material.youngModulus}`;
  let byKey = cache.get(skeleton);
  const hit = byKey?.get(key);
  if (hit) return hit;
  const ref = new ReferenceTree(skeleton, material, { elementsPerSegment });
  const frame = ref.frame;
  const free = frame.dofCount - 6;
  const fm = lowestModes(frame, ref.solver, min(count, max(1, free)));
  const n = fm.omega2.length;
  const omega = new Float64Array(n);
  for (let k = 0; k < n; k++) omega[k] = sqrt(max(0, fm.omega2[k]));
  const modalMass = new Float64Array(n);
  for (let k = 0; k < n; k++) modalMass[k] = massProduct(frame, fm.vectors[k], fm.vectors[k]);
  const basis: ModalBasis = { frame, count: n, omega, vectors: fm.vectors, modalMass, solver: ref.solver };
  if (!byKey) cache.set(skeleton, (byKey = new Map()));
  byKey.set(key, basis);
  return basis;
}

/** aᵀ M b over the frame's element consistent masses (12 x 12 each, over its parent's and own 6 dofs). */
export function massProduct(frame: BeamFrame, a: Float64Array, b: Float64Array): number {
  let s = 0;
  const M = frame.mass;
  for (let j = 1; j < frame.jointCount; j++) {
    if (frame.length[j] === 0) continue;
    const p = 6 * frame.jointParent[j], o = 6 * j, mo = 144 * j;
    for (let r = 0; r < 12; r++) {
      const ar = a[r < 6 ? p + r : o + r - 6];
      if (ar === 0) continue;
      let row = 0;
      for (let c = 0; c < 12; c++) row += M[mo + 12 * r + c] * b[c < 6 ? p + c : o + c - 6];
      s += ar * row;
    }
  }
  return s;
}

/**
 * The exact step of q̈ + 2 ζ ω q̇ + ω² q = f over dt with f held: (q, q̇) ← Φ (q, q̇) + Γ f, written to
 * out as Φ11, Φ12, Φ21, Φ22, Γ1, Γ2. The exponential of the 3 x 3 augmented matrix by scaling and
 * squaring of its Taylor series: one formula for under-, critically and over-damped modes.
 */
export function oscillatorStep(omega: number, zeta: number, dt: number, out: Float64Array, o = 0): void {
  // A = [[0, 1, 0], [-ω², -2ζω, 1], [0, 0, 0]] dt.
  const a = [0, dt, 0, -omega * omega * dt, -2 * zeta * omega * dt, dt, 0, 0, 0];
  const norm = max(abs(a[1]) + abs(a[4]), abs(a[3]) + abs(a[4]) + abs(a[5]), 1e-300);
  let squarings = 0;
  let scale = 1;
  while (norm * scale > 0.25) { scale *= 0.5; squarings++; }
  for (let i = 0; i < 9; i++) a[i] *= scale;
  // Taylor series to convergence.
  const e = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  let term = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let k = 1; k <= 30; k++) {
    const t = mul3(term, a);
    for (let i = 0; i < 9; i++) t[i] /= k;
    term = t;
    let big = 0;
    for (let i = 0; i < 9; i++) { e[i] += t[i]; big = max(big, abs(t[i])); }
    if (big < 1e-18) break;
  }
  let r = e;
  for (let s = 0; s < squarings; s++) r = mul3(r, r);
  out[o] = r[0]; out[o + 1] = r[1]; out[o + 2] = r[3]; out[o + 3] = r[4]; out[o + 4] = r[2]; out[o + 5] = r[5];
}

function mul3(x: number[], y: number[]): number[] {
  const z = new Array<number>(9);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) z[3 * i + j] = x[3 * i] * y[j] + x[3 * i + 1] * y[3 + j] + x[3 * i + 2] * y[6 + j];
  }
  return z;
}

/** The modal state of one tree and its step; allocation free after construction. */
export class ModalDynamics {
  readonly basis: ModalBasis;
  readonly skeleton: TreeSkeleton;
  /** Modes in use (≤ basis.count). */
  modeCount: number;
  /** Modal coordinates q_k and velocities q̇_k. */
  readonly q: Float64Array;
  readonly qd: Float64Array;
  /** The last step's generalised forces f_k. */
  readonly force: Float64Array;
  /** Per node: xyz displacement d_n = Σ_k q_k φ_k(n) after the last step. */
  readonly nodeDisplacement: Float64Array;
  /** ζ of every mode. */
  zeta: number;
  /** Add the left-out modes' quasi-static share, r = K⁻¹F - Σ_k φ_k f_k / ω_k² (see the file's comment). */
  staticCorrection = true;
  /** The last step's static correction r (6 per joint). */
  readonly residual: Float64Array;
  private readonly material: PhysicalMaterial;
  private readonly steps: Float64Array;
  private stepDt = -1;
  private readonly load: Float64Array;
  private readonly wind: Float64Array;
  private readonly velocity: Float64Array;
  private readonly scratch = new Float64Array(6);
  /** Per joint: leaves it carries and the sum of their offsets from it. */
  private readonly leafCount: Float64Array;
  private readonly leafArm: Float64Array;
  /** Per element: drag factors per length at its two ends. */
  private readonly dragA: Float64Array;
  private readonly dragB: Float64Array;
  private readonly origin = new Float64Array(3);

  constructor(skeleton: TreeSkeleton, material: PhysicalMaterial, basis: ModalBasis, modeCount: number, zeta: number) {
    this.skeleton = skeleton;
    this.material = material;
    this.basis = basis;
    this.modeCount = min(modeCount, basis.count);
    this.zeta = zeta;
    const n = basis.count, f = basis.frame, nj = f.jointCount;
    this.q = new Float64Array(n);
    this.qd = new Float64Array(n);
    this.force = new Float64Array(n);
    this.steps = new Float64Array(6 * n);
    this.load = new Float64Array(f.dofCount);
    this.residual = new Float64Array(f.dofCount);
    this.wind = new Float64Array(3 * nj);
    this.velocity = new Float64Array(3 * nj);
    this.nodeDisplacement = new Float64Array(3 * skeleton.nodeCount);
    this.dragA = new Float64Array(nj);
    this.dragB = new Float64Array(nj);
    for (let j = 1; j < nj; j++) {
      this.dragA[j] = branchDragPerLength(material, f.radiusA[j]);
      this.dragB[j] = branchDragPerLength(material, f.radiusB[j]);
    }
    this.leafCount = new Float64Array(nj);
    this.leafArm = new Float64Array(3 * nj);
    // As reference/loads.ts: a leaf acts at its point on the centre line, carried by the nearer node's joint.
    const s = skeleton, np = s.nodePosition, nx = s.nodeX, jp = f.jointPosition;
    for (let i = 0; i < s.leafCount; i++) {
      const b = s.leafBranch[i], x = s.leafX[i];
      const first = s.branchFirstNode[b], last = first + s.branchNodeCount[b] - 1;
      let k = first;
      while (k < last - 1 && nx[k + 1] < x) k++;
      const span = nx[k + 1] - nx[k], fr = span > 0 ? min(1, max(0, (x - nx[k]) / span)) : 0;
      const jn = f.nodeJoint[fr < 0.5 ? k : k + 1];
      this.leafCount[jn] += 1;
      for (let d = 0; d < 3; d++) this.leafArm[3 * jn + d] += np[3 * k + d] + (np[3 * k + 3 + d] - np[3 * k + d]) * fr - jp[3 * jn + d];
    }
  }

  /** Where the tree stands (added to the joints' positions where the wind is sampled). */
  setPlacement(x: number, y: number, z: number): void {
    this.origin[0] = x; this.origin[1] = y; this.origin[2] = z;
  }

  setDamping(zeta: number): void {
    if (zeta !== this.zeta) { this.zeta = zeta; this.stepDt = -1; }
  }

  setModeCount(count: number): void {
    const c = min(count, this.basis.count);
    for (let k = c; k < this.basis.count; k++) { this.q[k] = 0; this.qd[k] = 0; this.force[k] = 0; }
    this.modeCount = c;
    // The modes kept changed: so did the share the correction adds (same load).
    this.project(this.load);
    this.computeResidual();
  }

  /** Turns the static correction on or off (takes effect on the displacements at once). */
  setStaticCorrection(on: boolean): void {
    this.staticCorrection = on;
    this.computeResidual();
  }

  /** The generalised forces of the wind at time t (relative to the joints' current velocities) into this.force. */
  generalisedForce(wind: WindSampler, t: number): void {
    const f = this.basis.frame, nj = f.jointCount, nm = this.modeCount, V = this.basis.vectors;
    const vel = this.velocity, w = this.wind, jp = f.jointPosition, o = this.origin;
    vel.fill(0);
    for (let k = 0; k < nm; k++) {
      const c = this.qd[k];
      if (c === 0) continue;
      const v = V[k];
      for (let j = 0; j < nj; j++) {
        vel[3 * j] += c * v[6 * j];
        vel[3 * j + 1] += c * v[6 * j + 1];
        vel[3 * j + 2] += c * v[6 * j + 2];
      }
    }
    for (let j = 0; j < nj; j++) {
      wind.sample(jp[3 * j] + o[0], jp[3 * j + 1] + o[1], jp[3 * j + 2] + o[2], t, w, 3 * j);
      w[3 * j] -= vel[3 * j];
      w[3 * j + 1] -= vel[3 * j + 1];
      w[3 * j + 2] -= vel[3 * j + 2];
    }
    const load = this.load, sc = this.scratch, ax = f.axis, par = f.jointParent;
    load.fill(0);
    for (let j = 1; j < nj; j++) {
      if (f.length[j] === 0) continue;
      const p = par[j], tx = ax[3 * j], ty = ax[3 * j + 1], tz = ax[3 * j + 2];
      crossFlowDrag(this.dragA[j], w[3 * p], w[3 * p + 1], w[3 * p + 2], tx, ty, tz, sc, 0);
      crossFlowDrag(this.dragB[j], w[3 * j], w[3 * j + 1], w[3 * j + 2], tx, ty, tz, sc, 3);
      addLinearLoad(f, j, sc, load);
    }
    if (this.material.leafDragArea > 0) {
      const lc = this.leafCount, arm = this.leafArm;
      for (let j = 0; j < nj; j++) {
        const n = lc[j];
        if (n === 0) continue;
        leafDrag(this.material, w[3 * j], w[3 * j + 1], w[3 * j + 2], sc, 0);
        const Fx = n * sc[0], Fy = n * sc[1], Fz = n * sc[2];
        const dx = arm[3 * j], dy = arm[3 * j + 1], dz = arm[3 * j + 2], oo = 6 * j;
        load[oo] += Fx; load[oo + 1] += Fy; load[oo + 2] += Fz;
        // Σ (offset_i × F) = (Σ offset_i) × F, F the same for every leaf at the joint (per leaf: sc).
        load[oo + 3] += dy * sc[2] - dz * sc[1];
        load[oo + 4] += dz * sc[0] - dx * sc[2];
        load[oo + 5] += dx * sc[1] - dy * sc[0];
      }
    }
    this.project(load);
  }

  /** f_k = φ_kᵀ F for a load vector F (6 per joint), into this.force (F kept for the static correction). */
  project(load: Float64Array): void {
    if (load !== this.load) this.load.set(load);
    const V = this.basis.vectors, nd = load.length;
    for (let k = 0; k < this.modeCount; k++) {
      const v = V[k];
      let s0 = 0, s1 = 0;
      let i = 0;
      for (; i + 1 < nd; i += 2) { s0 += v[i] * load[i]; s1 += v[i + 1] * load[i + 1]; }
      for (; i < nd; i++) s0 += v[i] * load[i];
      this.force[k] = (s0 + s1) / this.basis.modalMass[k];
    }
  }

  /** Advances the modal coordinates by dt under the forces in this.force (exact for forces held over the step). */
  integrate(dt: number): void {
    if (dt !== this.stepDt) {
      for (let k = 0; k < this.basis.count; k++) oscillatorStep(this.basis.omega[k], this.zeta, dt, this.steps, 6 * k);
      this.stepDt = dt;
    }
    const S = this.steps;
    for (let k = 0; k < this.modeCount; k++) {
      const o = 6 * k, q = this.q[k], v = this.qd[k], fk = this.force[k];
      this.q[k] = S[o] * q + S[o + 1] * v + S[o + 4] * fk;
      this.qd[k] = S[o + 2] * q + S[o + 3] * v + S[o + 5] * fk;
    }
  }

  /** One step: the wind's load at time t, the modes advanced by dt, the nodes' displacements. */
  step(wind: WindSampler, t: number, dt: number): void {
    this.generalisedForce(wind, t);
    this.integrate(dt);
    this.computeResidual();
    this.composeNodes();
  }

  /**
   * r = K⁻¹F - Σ_k φ_k f_k / ω_k² for the load of the last generalisedForce() (this.load, this.force),
   * into this.residual; zero when the correction is off.
   */
  private computeResidual(): void {
    const r = this.residual;
    if (!this.staticCorrection) {
      r.fill(0);
      return;
    }
    this.basis.solver.solve(this.load, r);
    const V = this.basis.vectors, nd = r.length;
    for (let k = 0; k < this.modeCount; k++) {
      const w2 = this.basis.omega[k] ** 2;
      if (!(w2 > 0)) continue;
      const c = this.force[k] / w2, v = V[k];
      for (let i = 0; i < nd; i++) r[i] -= c * v[i];
    }
  }

  /** d_n = Σ_k q_k φ_k(n) + r(n) for every node, into this.nodeDisplacement. */
  composeNodes(): void {
    const d = this.nodeDisplacement, nj = this.basis.frame.nodeJoint, V = this.basis.vectors, nn = this.skeleton.nodeCount;
    const r = this.residual;
    for (let n = 0; n < nn; n++) {
      const j = 6 * nj[n];
      d[3 * n] = r[j];
      d[3 * n + 1] = r[j + 1];
      d[3 * n + 2] = r[j + 2];
    }
    for (let k = 0; k < this.modeCount; k++) {
      const c = this.q[k];
      if (c === 0) continue;
      const v = V[k];
      for (let n = 0; n < nn; n++) {
        const j = 6 * nj[n];
        d[3 * n] += c * v[j];
        d[3 * n + 1] += c * v[j + 1];
        d[3 * n + 2] += c * v[j + 2];
      }
    }
  }

  /** The modal statics q_k = f_k / ω_k² under the forces in this.force (no motion): the steady state of a steady load. */
  solveStatic(): void {
    for (let k = 0; k < this.modeCount; k++) {
      const w2 = this.basis.omega[k] ** 2;
      this.q[k] = w2 > 0 ? this.force[k] / w2 : 0;
      this.qd[k] = 0;
    }
    this.computeResidual();
    this.composeNodes();
  }

  reset(): void {
    this.q.fill(0);
    this.qd.fill(0);
    this.force.fill(0);
    this.load.fill(0);
    this.residual.fill(0);
    this.nodeDisplacement.fill(0);
  }

  hasNonFinite(): boolean {
    for (let k = 0; k < this.modeCount; k++) if (!Number.isFinite(this.q[k]) || !Number.isFinite(this.qd[k])) return true;
    return false;
  }

  /** Total energy in the modes, ½ Σ (q̇² + ω² q²) (J, modal mass 1). */
  energy(): number {
    let e = 0;
    for (let k = 0; k < this.modeCount; k++) e += 0.5 * (this.qd[k] ** 2 + (this.basis.omega[k] * this.q[k]) ** 2);
    return e;
  }
}
