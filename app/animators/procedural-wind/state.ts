/**
 * The procedural-wind twin's data and the parts of its per-frame work that are not the step
 * itself: the branch texture's layout, the static build from the physical tree, the pose
 * composition of §6.5 and the per-vertex skinning (twin.ts adds the step). No Babylon.
 */
import type { Rng } from "../../math/rng";
import type { TreeSkeleton } from "../../tree/skeleton";
import { nodeWVector } from "../../tree/geometry";
import type { WindGpuState } from "../../wind/wind-field";
import type { PassWindSource } from "../branch-pass-wind";
import type { ProceduralWindParams } from "./params";
import { defaultMaterial, type PhysicalMaterial } from "../../physics/material";
import { CALIBRATION_SPEED, treeResponse } from "./physics";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { atan2, ceil, cos, exp, floor, hypot, log, max, min, pow, round, sin, sqrt } = Math;

/**
 * What the method needs of the WindField: the GPU contract (gpuState at the tree's foot, the
 * turbulence texture) and the primitives (§6.3.1), which every branch reads at its own origin as
 * the per-branch pass does (branch-pass-wind.ts), and the wind at a point (`sample`), which the
 * trunk's response window reads at the crown on the CPU.
 */
export interface WindSource extends PassWindSource {
  sample(x: number, y: number, z: number, t: number, out: Float64Array, offset?: number): void;
}

// ---- data-texture layout (shared with the GLSL) -------------------------------------------------
/** Texels (RGBA32F) per branch:
 *  0: origin.xyz, parent index (-1 for the trunk)     (§6.4 "origin of the branch", "index specifying parent")
 *  1: rotation quaternion xyzw, per frame              (§6.4 Fig. 6-8, computed by `step`)
 *  2: main axis t.xyz, hierarchy level                 (§6.4 "main axis of the branch")
 *  3: tangent r.xyz, joint-blend exponent              (§6.5 two-bone blend weight)
 *  4: stiffness factor, phase, wind power, length      (§6.3.3 Ota 2003 stiffness; per frame wind power) */
export const TEXELS_PER_BRANCH = 7;
/** Branches per texture row; the texture is TEXELS_PER_BRANCH * BRANCHES_PER_ROW texels wide. */
export const BRANCHES_PER_ROW = 256;
export const BRANCH_TEXTURE_WIDTH = TEXELS_PER_BRANCH * BRANCHES_PER_ROW;
/** Wind speed at which the amplitudes equal their declared values, m/s. */
export const REFERENCE_WIND_SPEED = 10;
/** Largest trunk lean, radians: the lean saturates smoothly toward it (tanh). */
export const MAX_TRUNK_ANGLE = 0.35;
/** Largest branch angle, radians. */
export const MAX_BRANCH_ANGLE = 0.9;

/** Float offset of texel j of branch b in the RGBA data. */
export function branchTexel(b: number, j: number): number {
  const row = floor(b / BRANCHES_PER_ROW);
  return 4 * (row * BRANCH_TEXTURE_WIDTH + (b - row * BRANCHES_PER_ROW) * TEXELS_PER_BRANCH + j);
}

// ---- quaternion library (§6.4.1: angle-axis to quaternion, concatenation, rotation) -----------
/** Quaternion from a rotation vector (axis * angle). Exactly identity for a zero vector. */
export function quatFromRotationVector(rx: number, ry: number, rz: number, out: Float64Array | number[], o = 0): void {
  const angle = sqrt(rx * rx + ry * ry + rz * rz);
  if (angle === 0) {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 1;
    return;
  }
  const s = sin(0.5 * angle) / angle;
  out[o] = rx * s; out[o + 1] = ry * s; out[o + 2] = rz * s; out[o + 3] = cos(0.5 * angle);
}

/** Quaternion concatenation out = a * b (rotate by b, then by a). `out` may alias a or b. */
export function quatMultiply(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, out: Float64Array | number[], o: number): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** Normalised lerp of two quaternions (Example 6-1 lerps rotations), taking the short way. */
export function quatNlerp(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, k: number, out: Float64Array | number[], o: number): void {
  const sign = a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3] < 0 ? -1 : 1;
  const x = a[ao] + (sign * b[bo] - a[ao]) * k;
  const y = a[ao + 1] + (sign * b[bo + 1] - a[ao + 1]) * k;
  const z = a[ao + 2] + (sign * b[bo + 2] - a[ao + 2]) * k;
  const w = a[ao + 3] + (sign * b[bo + 3] - a[ao + 3]) * k;
  const inv = 1 / sqrt(x * x + y * y + z * z + w * w);
  out[o] = x * inv; out[o + 1] = y * inv; out[o + 2] = z * inv; out[o + 3] = w * inv;
}

/** Rotates v by unit quaternion q; writes the rotated vector. */
export function quatRotate(q: ArrayLike<number>, qo: number, vx: number, vy: number, vz: number, out: Float64Array | number[], o: number): void {
  // v' = v + 2 u x (u x v + w v): the same form as the GLSL (exact for the identity).
  const ux = q[qo], uy = q[qo + 1], uz = q[qo + 2], w = q[qo + 3];
  const cx = uy * vz - uz * vy + w * vx;
  const cy = uz * vx - ux * vz + w * vy;
  const cz = ux * vy - uy * vx + w * vz;
  out[o] = vx + 2 * (uy * cz - uz * cy);
  out[o + 1] = vy + 2 * (uz * cx - ux * cz);
  out[o + 2] = vz + 2 * (ux * cy - uy * cx);
}

/** Frequency ratios of the trunk's noise bands (Fig. 6-2): incommensurate, seeded jitter on top. */
export const TRUNK_BAND_RATIOS = [1, 2.13, 4.71, 9.37];
/** Perpendicular and twist noise are "much simpler" (§6.3.3): two bands each. */
export const SIMPLE_BAND_RATIOS = [1.07, 2.91];
/** Paper-literal: branch sway gain and frequency factor per level (index = level; 0 unused). */
export const LEVEL_GAIN = [0, 1, 1.15, 1.3];
export const LEVEL_FREQUENCY = [0, 1, 1.7, 2.6];
/** Paper-literal: perpendicular sway of the trunk relative to the parallel sway (§6.3.3: "much lower"). */
export const PERPENDICULAR_RATIO = 0.15;
/** Paper-literal: time constant of the delayed wind power (Example 6-1), seconds. */
export const WIND_POWER_DELAY = 0.5;
/** Paper-literal: the delayed wind power as a window of past samples (stateless): taps and spacing, s. */
export const DELAY_TAPS = 9;
export const DELAY_SPACING = 0.25;
/** Calibrated: the Branch sway value at which a branch sways by a third of its static bend. */
export const SWAY_PER_BEND = 0.36;
/** Uniform cantilever: ω₁² = 12.36 EI / (m L⁴), tip deflection under its own weight m a L⁴ / (8 EI): ω₁² = 1.545 a / δ. */
export const CANTILEVER_RAYLEIGH = 12.36 / 8;
/** The trunk's response window (§6.4 "precomputed ... as an array of samples"): most taps, longest window, s. */
export const MAX_TAPS = 1024;
export const MAX_WINDOW = 40;
/** Taps per period of the oscillation, at least. */
export const TAPS_PER_PERIOD = 16;

/**
 * Simulation per branch (§6.3.3, §6.4) and skinning per vertex (§6.5) for one tree.
 * Construct once per tree; `step(t, dt)` once per frame; `deformVertex` for any vertex.
 *
 * Stateless, as §6.4 says ("a simulation that doesn't require information from previous
 * iterations"): the branches' rotations at time t are a function of t, the wind and the tree
 * alone, so evaluating any frame directly gives what stepping to it gives. The trunk's response to
 * the drag, m a + c v + k x = f (Ota 2003, §6.3.3), is synthesised without integrating it: x(t) is
 * the oscillator's impulse response h convolved with the drag over a fixed window of past times,
 * x(t) = Σ_k w_k f(t − kΔ), w_k ∝ h(kΔ) Δ, the wind sampled at those times (the WindField is a
 * function of time): the lean of Fig. 6-2 segment A, the spring-back overshoot of segment B.
 *
 * Calibrated (default): the amplitudes are the physical tree's (physics.ts): each branch's static
 * bend is the beam frame's own compliance under the drag of app/wind/drag.ts (distributed along
 * every element, leaves' drag on their branch), scaled by |u| u of the local wind; the trunk's
 * oscillator is the first mode (its frequency, ζ = dampingRatio(damping) plus the air's damping
 * 2 k U folded into the ratio, since a stateless method cannot feed the wood's velocity back into
 * the drag); every branch sways about its static bend at its own natural frequency. Paper-literal:
 * Zioma's hand-set amplitudes and frequencies (the previous constants).
 */
export abstract class ProceduralWindState {
  readonly branchCount: number;
  /** Content of the RGBA32F branch texture (BRANCH_TEXTURE_WIDTH x textureHeight). */
  readonly branchData: Float32Array;
  readonly textureWidth = BRANCH_TEXTURE_WIDTH;
  readonly textureHeight: number;
  /** Trunk fundamental frequency after the stiffness parameter, Hz (Fig. 6-3; calibrated: the first mode). */
  trunkFrequency = 1;
  /** The first mode's frequency of the physical tree (stiffness 1), Hz. */
  readonly firstModeHz: number;
  /** Simulation time of the last step, seconds. */
  time = 0;

  protected readonly skeleton: TreeSkeleton;
  protected params: ProceduralWindParams;
  /** The parameters of the last setParams. */
  get parameters(): Readonly<ProceduralWindParams> {
    return this.params;
  }
  // Static, per branch.
  protected readonly levelOf: Uint8Array;
  protected readonly parentOf: Int32Array;
  /** Ota 2003 stiffness k = E b t^3 / (4 l^3), relative to the geometric mean of its level. */
  readonly relativeStiffness: Float64Array;
  /** Uniform draws in [0, 1) for the phase shifts (§6.3.3), scaled by phaseRandomization. */
  protected readonly phaseDraw: Float64Array;
  readonly phaseDraw2: Float64Array;
  /** Unit horizontal vector from the trunk axis to the branch tip: its side of the tree. */
  readonly side: Float64Array;
  /** Calibrated: own rotation vector per unit |u| u along x, then along z, rad / (m/s)² (6 per branch). Read by the forest (app/forest). */
  readonly compliance: Float64Array;
  /** Calibrated: natural angular frequency of every branch on its own (branch 0: the first mode), rad/s. */
  readonly branchOmega: Float64Array;
  protected readonly airZetaPerSpeed: number;
  /** Trunk tip x, z, y at rest: where the trunk's wind is sampled. */
  protected readonly trunkSample = new Float64Array(3);
  protected readonly trunkBandRatio = new Float64Array(TRUNK_BAND_RATIOS.length);
  protected readonly trunkBandPhase = new Float64Array(TRUNK_BAND_RATIOS.length);
  protected readonly simpleBandPhase = new Float64Array(2 * SIMPLE_BAND_RATIOS.length);
  protected trunkFrequencyAtUnitStiffness = 1;
  protected sizeGain = 1;
  // Per frame scratch (nothing here carries from one frame to the next).
  protected readonly kernel = new Float64Array(MAX_TAPS + 1);
  protected readonly kernelRate = new Float64Array(MAX_TAPS + 1);
  protected kernelTaps = 0;
  protected kernelSpacing = 0;
  protected readonly delayedWindPower: Float64Array;
  protected readonly windAt = new Float64Array(3);
  protected readonly trunkLoad = new Float64Array(4);
  protected readonly gpu: WindGpuState = { dirX: 1, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 };
  protected readonly q1 = new Float64Array(4);
  protected readonly q2 = new Float64Array(4);
  protected readonly q3 = new Float64Array(4);
  /** The tree's world translation (setPlacement). */
  offsetX = 0;
  offsetY = 0;
  offsetZ = 0;
  // Scratch for deformVertex / tipPosition.
  protected readonly qk = new Float64Array(4);
  protected readonly tmp = new Float64Array(3);
  protected readonly wScratch = new Float64Array(4);
  protected readonly vScratch = new Float64Array(6);

  constructor(skeleton: TreeSkeleton, params: ProceduralWindParams, rng: Rng, material: PhysicalMaterial = defaultMaterial()) {
    const n = skeleton.branchCount;
    this.skeleton = skeleton;
    this.params = { ...params };
    this.branchCount = n;
    this.textureHeight = max(1, ceil(n / BRANCHES_PER_ROW));
    this.branchData = new Float32Array(4 * BRANCH_TEXTURE_WIDTH * this.textureHeight);
    this.levelOf = new Uint8Array(n);
    this.parentOf = new Int32Array(n);
    this.relativeStiffness = new Float64Array(n);
    this.phaseDraw = new Float64Array(n);
    this.phaseDraw2 = new Float64Array(n);
    this.side = new Float64Array(2 * n);
    this.delayedWindPower = new Float64Array(n);
    this.compliance = new Float64Array(6 * n);
    this.branchOmega = new Float64Array(n);
    for (let i = 0; i < this.trunkBandRatio.length; i++) {
      this.trunkBandRatio[i] = TRUNK_BAND_RATIOS[i] * (i === 0 ? 1 : rng.range(0.93, 1.07));
      this.trunkBandPhase[i] = rng.range(0, 2 * Math.PI);
    }
    for (let i = 0; i < this.simpleBandPhase.length; i++) this.simpleBandPhase[i] = rng.range(0, 2 * Math.PI);
    for (let b = 0; b < n; b++) {
      this.phaseDraw[b] = rng.next();
      this.phaseDraw2[b] = rng.next();
    }
    this.buildStatic();
    // The physical tree (physics.ts): static bends as own rotations, natural frequencies, the air's damping.
    const response = treeResponse(skeleton, material);
    const scale = 1 / (CALIBRATION_SPEED * CALIBRATION_SPEED);
    const rot = new Float64Array(3 * n), rotZ = new Float64Array(3 * n);
    this.fitOwnRotations(response.windX, rot);
    this.fitOwnRotations(response.windZ, rotZ);
    for (let b = 0; b < n; b++) {
      for (let k = 0; k < 3; k++) {
        this.compliance[6 * b + k] = rot[3 * b + k] * scale;
        this.compliance[6 * b + 3 + k] = rotZ[3 * b + k] * scale;
      }
    }
    this.fitOwnRotations(response.inertiaX, rot);
    this.fitOwnRotations(response.inertiaZ, rotZ);
    for (let b = 0; b < n; b++) {
      // Own tip deflection under a unit sideways acceleration, the worse of x and z; ω² = 1.545 a / δ.
      const angle = max(hypot(rot[3 * b], rot[3 * b + 1], rot[3 * b + 2]), hypot(rotZ[3 * b], rotZ[3 * b + 1], rotZ[3 * b + 2]));
      const delta = angle * max(1e-3, s0(skeleton, b));
      this.branchOmega[b] = min(40, max(0.3, sqrt(CANTILEVER_RAYLEIGH / max(delta, 1e-9))));
    }
    this.firstModeHz = response.firstHz;
    this.branchOmega[0] = 2 * Math.PI * response.firstHz;
    this.airZetaPerSpeed = response.airZetaPerSpeed;
    this.reset();
    this.setParams(params);
  }

  /** World translation of the tree (where the local wind is sampled, §6.3.1). */
  setPlacement(offsetX: number, offsetY: number, offsetZ: number): void {
    this.offsetX = offsetX;
    this.offsetY = offsetY;
    this.offsetZ = offsetZ;
  }

  setParams(params: ProceduralWindParams): void {
    this.params = { ...params };
    const f = params.paperLiteral ? this.trunkFrequencyAtUnitStiffness : this.firstModeHz;
    this.trunkFrequency = f / sqrt(params.stiffness);
    for (let b = 0; b < this.branchCount; b++) {
      this.branchData[branchTexel(b, 4) + 1] = 2 * Math.PI * this.phaseDraw[b] * params.phaseRandomization;
    }
  }

  protected buildStatic(): void {
    const s = this.skeleton;
    const n = this.branchCount;
    const d = this.branchData;
    // Ota 2003 via §6.3.3: k = E b t^3 / (4 l^3); a round branch has b = t = 2r.
    const logMean = new Float64Array(4), count = new Float64Array(4);
    const logK = new Float64Array(n);
    for (let b = 0; b < n; b++) {
      const r = max(1e-4, 0.5 * (s.branchRootRadius[b] + s.branchTipRadius[b]));
      const l = max(1e-4, s.branchLength[b]);
      logK[b] = log((2 * r) ** 4 / (4 * l ** 3));
      const lv = min(3, s.branchLevel[b]);
      logMean[lv] += logK[b];
      count[lv] += 1;
    }
    const t0x = s.branchFrame[0], t0z = s.branchFrame[2];
    const base = 3 * s.branchFirstNode[0];
    const bx = s.nodePosition[base], by = s.nodePosition[base + 1], bz = s.nodePosition[base + 2];
    const t0y = s.branchFrame[1];
    for (let b = 0; b < n; b++) {
      const lv = min(3, s.branchLevel[b]);
      this.levelOf[b] = lv;
      this.parentOf[b] = s.branchParent[b];
      const kRel = exp(logK[b] - logMean[lv] / count[lv]);
      this.relativeStiffness[b] = kRel;
      const first = s.branchFirstNode[b];
      const tip = first + s.branchNodeCount[b] - 1;
      // Side of the tree (§6.3.3 three cases): horizontal offset of the tip from the trunk axis.
      const px = s.nodePosition[3 * tip] - bx, py = s.nodePosition[3 * tip + 1] - by, pz = s.nodePosition[3 * tip + 2] - bz;
      const along = px * t0x + py * t0y + pz * t0z;
      const hx = px - along * t0x, hz = pz - along * t0z;
      const hl = hypot(hx, hz);
      if (b > 0 && hl > 1e-6) {
        this.side[2 * b] = hx / hl;
        this.side[2 * b + 1] = hz / hl;
      }
      const o0 = branchTexel(b, 0), o2 = branchTexel(b, 2), o3 = branchTexel(b, 3), o4 = branchTexel(b, 4), o1 = branchTexel(b, 1);
      d[o0] = s.nodePosition[3 * first];
      d[o0 + 1] = s.nodePosition[3 * first + 1];
      d[o0 + 2] = s.nodePosition[3 * first + 2];
      d[o0 + 3] = s.branchParent[b];
      d[o1 + 3] = 1;
      for (let k = 0; k < 3; k++) {
        d[o2 + k] = s.branchFrame[9 * b + k];
        d[o3 + k] = s.branchFrame[9 * b + 3 + k];
      }
      d[o2 + 3] = lv;
      // §6.5: the influence of the own bone over the parent's grows along the branch as
      // 1 - (1 - x)^e. e = 2 is the slope of a uniform cantilever under a tip load; a stiffer
      // branch (relative to its level) is more rigid: larger e, the joint bends near its base.
      d[o3 + 3] = b === 0 ? 2 : 1 + (2 * kRel) / (1 + kRel);
      d[o4] = kRel;
      d[o4 + 3] = s.branchLength[b];
      // Texels 5, 6: the ancestors' composite rigid transform (identity at rest); 6.w = level.
      d[branchTexel(b, 5) + 3] = 1;
      d[branchTexel(b, 6) + 3] = lv;
    }
    // Paper-literal trunk size (Fig. 6-3): first bending mode of a cantilever, f = 0.56 (r/2) sqrt(E/rho) / H^2,
    // with sqrt(E/rho) ~ 3300 m/s for green wood, lowered by 0.2 for the crown's mass.
    const height = max(0.5, s.branchLength[0]);
    const radius = max(0.01, s.branchRootRadius[0]);
    this.trunkFrequencyAtUnitStiffness = min(2, max(0.15, 0.2 * 0.56 * (radius / 2) * 3300 / (height * height)));
    // More slender trunks sway further.
    this.sizeGain = min(2, max(0.5, height / radius / 60));
    const tip0 = s.branchFirstNode[0] + s.branchNodeCount[0] - 1;
    this.trunkSample[0] = s.nodePosition[3 * tip0];
    this.trunkSample[1] = s.nodePosition[3 * tip0 + 2];
    this.trunkSample[2] = s.nodePosition[3 * tip0 + 1];
  }

  /**
   * Own rotation vector of every branch (about its origin, §6.4) that puts its tip at rest
   * position + `tips` (3 per branch) once its ancestors' rotations are applied as the skinning
   * applies them (composeAncestors): parents first, the rotation taking the tip's arm v to the
   * arm it must have in the frame its ancestors leave it in. Writes out (3 per branch); leaves
   * every quaternion at identity afterwards.
   */
  protected fitOwnRotations(tips: Float64Array, out: Float64Array): void {
    const s = this.skeleton, d = this.branchData, q = this.q1;
    for (let b = 0; b < this.branchCount; b++) {
      this.composeOne(b);
      const node = s.branchFirstNode[b] + s.branchNodeCount[b] - 1;
      const o0 = branchTexel(b, 0), o5 = branchTexel(b, 5), o6 = branchTexel(b, 6);
      const vx = s.nodePosition[3 * node] - d[o0], vy = s.nodePosition[3 * node + 1] - d[o0 + 1], vz = s.nodePosition[3 * node + 2] - d[o0 + 2];
      // Q_b⁻¹ (target − t_b) − o_b.
      q[0] = -d[o5]; q[1] = -d[o5 + 1]; q[2] = -d[o5 + 2]; q[3] = d[o5 + 3];
      quatRotate(q, 0, vx + d[o0] + tips[3 * b] - d[o6], vy + d[o0 + 1] + tips[3 * b + 1] - d[o6 + 1], vz + d[o0 + 2] + tips[3 * b + 2] - d[o6 + 2], this.tmp, 0);
      const wx = this.tmp[0] - d[o0], wy = this.tmp[1] - d[o0 + 1], wz = this.tmp[2] - d[o0 + 2];
      const cx = vy * wz - vz * wy, cy = vz * wx - vx * wz, cz = vx * wy - vy * wx;
      const cl = hypot(cx, cy, cz);
      const angle = atan2(cl, vx * wx + vy * wy + vz * wz);
      const k = cl > 0 ? angle / cl : 0;
      out[3 * b] = cx * k; out[3 * b + 1] = cy * k; out[3 * b + 2] = cz * k;
      quatFromRotationVector(cx * k, cy * k, cz * k, this.q2, 0);
      writeQuat(d, branchTexel(b, 1), this.q2);
    }
    this.reset();
  }

  /** Every branch at rest: identity rotations and ancestors' transforms. */
  reset(): void {
    for (let b = 0; b < this.branchCount; b++) {
      const o1 = branchTexel(b, 1);
      this.branchData[o1] = this.branchData[o1 + 1] = this.branchData[o1 + 2] = 0;
      this.branchData[o1 + 3] = 1;
    }
    this.composeAncestors();
  }

  /**
   * The oscillator's impulse response over the window (§6.4: "precomputed ... as an array of
   * samples"): w_k ∝ h(kΔ) Δ (trapezoid), normalised so a steady load gives exactly its static
   * response, and w'_k = h'(kΔ) Δ for the velocity, h of m a + c v + k x = f per unit static
   * response: h(τ) = ω²/ω_d e^(−ζωτ) sin ω_d τ (and the critical / overdamped forms).
   */
  protected buildKernel(omega: number, zeta: number): void {
    const window = min(MAX_WINDOW, 7 / (min(zeta, 1) * omega));
    const spacing = max((2 * Math.PI) / omega / TAPS_PER_PERIOD, window / MAX_TAPS);
    const taps = min(MAX_TAPS, ceil(window / spacing));
    const w = this.kernel, dw = this.kernelRate;
    const a = zeta * omega;
    // Underdamped: e^(-aτ) (cos ω_d τ, sin ω_d τ) by one complex product a tap (no exp, sin, cos each).
    const wd = zeta < 0.999 ? omega * sqrt(1 - zeta * zeta) : 0;
    const qr = exp(-a * spacing) * cos(wd * spacing), qi = exp(-a * spacing) * sin(wd * spacing);
    let zr = 1, zi = 0;
    let sum = 0;
    for (let k = 0; k <= taps; k++) {
      const tau = k * spacing;
      let h: number, dh: number;
      if (zeta < 0.999) {
        h = (omega * omega / wd) * zi;
        dh = (omega * omega / wd) * (wd * zr - a * zi);
        const r = zr * qr - zi * qi;
        zi = zr * qi + zi * qr;
        zr = r;
      } else if (zeta <= 1.001) {
        const e = exp(-a * tau);
        h = omega * omega * tau * e;
        dh = omega * omega * e * (1 - omega * tau);
      } else {
        const r = omega * sqrt(zeta * zeta - 1), e1 = exp(-(a - r) * tau), e2 = exp(-(a + r) * tau);
        h = (omega * omega / (2 * r)) * (e1 - e2);
        dh = (omega * omega / (2 * r)) * (-(a - r) * e1 + (a + r) * e2);
      }
      const trap = k === 0 || k === taps ? 0.5 : 1;
      w[k] = h * spacing * trap;
      dw[k] = dh * spacing * trap;
      sum += w[k];
    }
    const inv = sum > 0 ? 1 / sum : 0;
    for (let k = 0; k <= taps; k++) { w[k] *= inv; dw[k] *= inv; }
    this.kernelTaps = taps;
    this.kernelSpacing = spacing;
  }

  /**
   * The kernel over the trunk's load, the horizontal |u| u of the wind at the crown (m²/s²),
   * sampled at t − kΔ (before time 0 the wind is taken as at 0: the tree starts in equilibrium).
   * Writes the response x (xz) and its rate (xz) into trunkLoad[0..3]. `gain` multiplies |u| u.
   */
  protected filterTrunkLoad(t: number, wind: WindSource, dragPower: number): void {
    const wa = this.windAt, w = this.kernel, dw = this.kernelRate, out = this.trunkLoad;
    const sx = this.trunkSample[0] + this.offsetX, sy = this.trunkSample[2] + this.offsetY, sz = this.trunkSample[1] + this.offsetZ;
    let x = 0, z = 0, vx = 0, vz = 0;
    for (let k = 0; k <= this.kernelTaps; k++) {
      wind.sample(sx, sy, sz, max(0, t - k * this.kernelSpacing), wa, 0);
      const sp = hypot(wa[0], wa[2]);
      const g = sp > 0 ? pow(sp, dragPower - 1) : 0;
      x += w[k] * g * wa[0]; z += w[k] * g * wa[2];
      vx += dw[k] * g * wa[0]; vz += dw[k] * g * wa[2];
    }
    out[0] = x; out[1] = z; out[2] = vx; out[3] = vz;
  }

  /**
   * §6.5.1 (DirectX 10 path): what a branch's ancestors do to it is the same for all its
   * vertices, because a vertex's w-vector below its own level holds the chain of attachment
   * points (Habel 2009 §3), which are constant along the branch. So the ancestors' blended
   * rotations are concatenated once per branch here, parents first (a parent's index is always
   * lower), into one rigid transform M_b(x) = Q_b x + t_b, stored in texels 5 and 6 (the GPU pass
   * walks each branch's chain from the root instead: twin.ts's composeChain):
   *   M_b = M_p ∘ T_p,  T_p(x) = R_p (x - o_p) + o_p,  R_p = nlerp(1, q_p, k_p(x_b)),
   *   Q_b = Q_p R_p,   t_b = Q_p (o_p - R_p o_p) + t_p.
   * The vertex shader then applies only the vertex's own blended rotation and M_b.
   */
  protected composeAncestors(): void {
    for (let b = 0; b < this.branchCount; b++) this.composeOne(b);
  }

  /** Texels 5 and 6 of branch b from its parent's (already composed) transform and quaternion. */
  protected composeOne(b: number): void {
    const s = this.skeleton, d = this.branchData;
    const rp = this.qk, qb = this.q1, tmp = this.tmp;
    const p = this.parentOf[b];
    const o5 = branchTexel(b, 5), o6 = branchTexel(b, 6);
    if (p < 0) {
      d[o5] = d[o5 + 1] = d[o5 + 2] = 0;
      d[o5 + 3] = 1;
      d[o6] = d[o6 + 1] = d[o6 + 2] = 0;
      return;
    }
    const p0 = branchTexel(p, 0), p1 = branchTexel(p, 1), p3 = branchTexel(p, 3), p5 = branchTexel(p, 5), p6 = branchTexel(p, 6);
    blendedRotation(d, p1, 1 - pow(max(1 - s.branchParentX[b], 0), d[p3 + 3]), rp);
    // Q_b = Q_p R_p
    quatMultiply(d, p5, rp, 0, qb, 0);
    // t_b = Q_p (o_p - R_p o_p) + t_p
    const ox = d[p0], oy = d[p0 + 1], oz = d[p0 + 2];
    quatRotate(rp, 0, ox, oy, oz, tmp, 0);
    quatRotate(d, p5, ox - tmp[0], oy - tmp[1], oz - tmp[2], tmp, 0);
    d[o5] = qb[0]; d[o5 + 1] = qb[1]; d[o5 + 2] = qb[2]; d[o5 + 3] = qb[3];
    d[o6] = tmp[0] + d[p6]; d[o6 + 1] = tmp[1] + d[p6 + 1]; d[o6 + 2] = tmp[2] + d[p6 + 2];
  }

  /**
   * Skinning step (§6.4, §6.5) for one vertex in the tree's local space: for its own branch and
   * every ancestor up to the trunk, rotate about the branch origin by the branch quaternion,
   * blended with identity (the parent bone) by 1 - (1 - w[level])^e. Writes position xyz then
   * normal xyz into out. The same math as PROCEDURAL_WIND_GLSL's pwDeform.
   */
  deformVertex(position: ArrayLike<number>, normal: ArrayLike<number>, branchIndex: number, wVector: ArrayLike<number>, out: Float32Array | Float64Array | number[]): void {
    const d = this.branchData;
    const qk = this.qk, tmp = this.tmp;
    const b = round(branchIndex);
    if (!(b >= 0 && b < this.branchCount)) {
      for (let i = 0; i < 3; i++) {
        out[i] = position[i];
        out[3 + i] = normal[i];
      }
      return;
    }
    const o0 = branchTexel(b, 0), o1 = o0 + 4, o3 = o0 + 12, o5 = o0 + 20, o6 = o0 + 24;
    const level = round(d[o6 + 3]);
    const x = level >= 0 && level < 4 ? wVector[level] : 0;
    // The vertex's own bone, blended with its parent's by 1 - (1 - x)^e (§6.5 two-bone blend).
    blendedRotation(d, o1, 1 - pow(max(1 - x, 0), d[o3 + 3]), qk);
    const vx = position[0] - d[o0], vy = position[1] - d[o0 + 1], vz = position[2] - d[o0 + 2];
    quatRotate(qk, 0, vx, vy, vz, tmp, 0);
    const px = tmp[0] + d[o0], py = tmp[1] + d[o0 + 1], pz = tmp[2] + d[o0 + 2];
    quatRotate(qk, 0, normal[0], normal[1], normal[2], tmp, 0);
    const nx = tmp[0], ny = tmp[1], nz = tmp[2];
    // Then every ancestor at once: M_b(x) = Q_b x + t_b (composeAncestors).
    quatRotate(d, o5, px, py, pz, tmp, 0);
    out[0] = tmp[0] + d[o6]; out[1] = tmp[1] + d[o6 + 1]; out[2] = tmp[2] + d[o6 + 2];
    quatRotate(d, o5, nx, ny, nz, tmp, 0);
    out[3] = tmp[0]; out[4] = tmp[1]; out[5] = tmp[2];
  }

  /** The w-vector of a skeleton node (Habel 2009 §3), as the geometry binds it (tree/geometry.ts). */
  nodeWVector(node: number, out: Float64Array | number[]): void {
    nodeWVector(this.skeleton, node, out);
  }

  /** Deformed tree-local position of branch b's tip node, into out[o..o+2]. No allocation. */
  tipPosition(b: number, out: Float32Array | Float64Array | number[], o: number): void {
    const s = this.skeleton;
    const node = s.branchFirstNode[b] + s.branchNodeCount[b] - 1;
    this.nodeWVector(node, this.wScratch);
    const pos = this.tmpPos;
    pos[0] = s.nodePosition[3 * node]; pos[1] = s.nodePosition[3 * node + 1]; pos[2] = s.nodePosition[3 * node + 2];
    this.deformVertex(pos, UP, b, this.wScratch, this.vScratch);
    out[o] = this.vScratch[0]; out[o + 1] = this.vScratch[1]; out[o + 2] = this.vScratch[2];
  }
  protected readonly tmpPos = new Float64Array(3);

  /** Branch b's quaternion of the last step (xyzw), read from the data texture. */
  branchQuaternion(b: number, out: Float64Array | number[]): void {
    const o1 = branchTexel(b, 1);
    for (let k = 0; k < 4; k++) out[k] = this.branchData[o1 + k];
  }

  /** True when any quaternion holds NaN or infinity. */
  hasNonFinite(): boolean {
    for (let b = 0; b < this.branchCount; b++) {
      const o1 = branchTexel(b, 1);
      for (let k = 0; k < 4; k++) if (!Number.isFinite(this.branchData[o1 + k])) return true;
    }
    return false;
  }
}

export const UP = [0, 1, 0];

/** Distance from branch b's origin to its tip at rest, m. */
export function s0(s: TreeSkeleton, b: number): number {
  const first = s.branchFirstNode[b], tip = first + s.branchNodeCount[b] - 1;
  return hypot(s.nodePosition[3 * tip] - s.nodePosition[3 * first], s.nodePosition[3 * tip + 1] - s.nodePosition[3 * first + 1], s.nodePosition[3 * tip + 2] - s.nodePosition[3 * first + 2]);
}

/** nlerp(identity, q, k), normalised: the two-bone blend of §6.5, q read from d at offset o. */
export function blendedRotation(d: ArrayLike<number>, o: number, k: number, out: Float64Array): void {
  const qx = d[o] * k, qy = d[o + 1] * k, qz = d[o + 2] * k, qw = 1 - k + d[o + 3] * k;
  const inv = 1 / sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  out[0] = qx * inv; out[1] = qy * inv; out[2] = qz * inv; out[3] = qw * inv;
}

export function writeQuat(d: Float32Array, o: number, q: Float64Array): void {
  // Short way round: w >= 0 keeps nlerp(identity, q, k) a monotone blend.
  const sign = q[3] < 0 ? -1 : 1;
  d[o] = sign * q[0]; d[o + 1] = sign * q[1]; d[o + 2] = sign * q[2]; d[o + 3] = sign * q[3];
}
