/**
 * The CPU twin of the procedural-wind method (Zioma 2007, GPU Gems 3 ch. 6, §6.3 to §6.5).
 * No Babylon here: the per-branch simulation runs once per frame on the CPU, as the DirectX 10
 * stream-out step of §6.5.1 does ("simulation per branch, skinning per vertex"), and writes each
 * branch's rotation quaternion into `branchData`, the content of the float data texture the
 * vertex shader reads. `deformVertex` is the per-vertex skinning step, the same math as
 * procedural-wind.glsl.ts, reading the same `branchData`.
 */
import type { Rng } from "../../math/rng";
import type { TreeSkeleton } from "../../tree/skeleton";
import { nodeWVector } from "../../tree/geometry";
import type { WindGpuState } from "../../wind/wind-field";
import type { ProceduralWindParams } from "./params";
import { defaultMaterial, type PhysicalMaterial } from "../../physics/material";
import { dampingRatio } from "../../physics/damping";
import { CALIBRATION_SPEED, treeResponse } from "./physics";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { abs, atan2, ceil, cos, exp, floor, hypot, log, max, min, pow, round, sin, sqrt, tanh } = Math;

/**
 * What the method needs of the WindField: the GPU state (for the mean direction) and the local
 * wind at a point, i.e. the turbulence-texture contract plus the local primitives (§6.3.1).
 */
export interface WindSource {
  gpuState(t: number, out: WindGpuState): unknown;
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
const TRUNK_BAND_RATIOS = [1, 2.13, 4.71, 9.37];
/** Perpendicular and twist noise are "much simpler" (§6.3.3): two bands each. */
const SIMPLE_BAND_RATIOS = [1.07, 2.91];
/** Paper-literal: branch sway gain and frequency factor per level (index = level; 0 unused). */
const LEVEL_GAIN = [0, 1, 1.15, 1.3];
const LEVEL_FREQUENCY = [0, 1, 1.7, 2.6];
/** Paper-literal: perpendicular sway of the trunk relative to the parallel sway (§6.3.3: "much lower"). */
const PERPENDICULAR_RATIO = 0.15;
/** Paper-literal: time constant of the delayed wind power (Example 6-1), seconds. */
const WIND_POWER_DELAY = 0.5;
/** Paper-literal: the delayed wind power as a window of past samples (stateless): taps and spacing, s. */
const DELAY_TAPS = 9;
const DELAY_SPACING = 0.25;
/** Calibrated: the Branch sway value at which a branch sways by a third of its static bend. */
const SWAY_PER_BEND = 0.36;
/** Uniform cantilever: ω₁² = 12.36 EI / (m L⁴), tip deflection under its own weight m a L⁴ / (8 EI): ω₁² = 1.545 a / δ. */
const CANTILEVER_RAYLEIGH = 12.36 / 8;
/** The trunk's response window (§6.4 "precomputed ... as an array of samples"): most taps, longest window, s. */
const MAX_TAPS = 1024;
const MAX_WINDOW = 40;
/** Taps per period of the oscillation, at least. */
const TAPS_PER_PERIOD = 16;

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
export class ProceduralWindTwin {
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

  private readonly skeleton: TreeSkeleton;
  private params: ProceduralWindParams;
  // Static, per branch.
  private readonly levelOf: Uint8Array;
  private readonly parentOf: Int32Array;
  /** Ota 2003 stiffness k = E b t^3 / (4 l^3), relative to the geometric mean of its level. */
  private readonly relativeStiffness: Float64Array;
  /** Uniform draws in [0, 1) for the phase shifts (§6.3.3), scaled by phaseRandomization. */
  private readonly phaseDraw: Float64Array;
  private readonly phaseDraw2: Float64Array;
  /** Unit horizontal vector from the trunk axis to the branch tip: its side of the tree. */
  private readonly side: Float64Array;
  /** Calibrated: own rotation vector per unit |u| u along x, then along z, rad / (m/s)² (6 per branch). */
  private readonly compliance: Float64Array;
  /** Calibrated: natural angular frequency of every branch on its own (branch 0: the first mode), rad/s. */
  private readonly branchOmega: Float64Array;
  private readonly airZetaPerSpeed: number;
  /** Trunk tip x, z, y at rest: where the trunk's wind is sampled. */
  private readonly trunkSample = new Float64Array(3);
  private readonly trunkBandRatio = new Float64Array(TRUNK_BAND_RATIOS.length);
  private readonly trunkBandPhase = new Float64Array(TRUNK_BAND_RATIOS.length);
  private readonly simpleBandPhase = new Float64Array(2 * SIMPLE_BAND_RATIOS.length);
  private trunkFrequencyAtUnitStiffness = 1;
  private sizeGain = 1;
  // Per frame scratch (nothing here carries from one frame to the next).
  private readonly kernel = new Float64Array(MAX_TAPS + 1);
  private readonly kernelRate = new Float64Array(MAX_TAPS + 1);
  private kernelTaps = 0;
  private kernelSpacing = 0;
  private readonly delayedWindPower: Float64Array;
  private readonly windAt = new Float64Array(3);
  private readonly trunkLoad = new Float64Array(4);
  private readonly gpu: WindGpuState = { dirX: 1, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 };
  private readonly q1 = new Float64Array(4);
  private readonly q2 = new Float64Array(4);
  private readonly q3 = new Float64Array(4);
  private offsetX = 0;
  private offsetY = 0;
  private offsetZ = 0;
  // Scratch for deformVertex / tipPosition.
  private readonly qk = new Float64Array(4);
  private readonly tmp = new Float64Array(3);
  private readonly wScratch = new Float64Array(4);
  private readonly vScratch = new Float64Array(6);

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

  private buildStatic(): void {
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
  private fitOwnRotations(tips: Float64Array, out: Float64Array): void {
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
  private buildKernel(omega: number, zeta: number): void {
    const window = min(MAX_WINDOW, 7 / (min(zeta, 1) * omega));
    const spacing = max((2 * Math.PI) / omega / TAPS_PER_PERIOD, window / MAX_TAPS);
    const taps = min(MAX_TAPS, ceil(window / spacing));
    const w = this.kernel, dw = this.kernelRate;
    const a = zeta * omega;
    let sum = 0;
    for (let k = 0; k <= taps; k++) {
      const tau = k * spacing, e = exp(-a * tau);
      let h: number, dh: number;
      if (zeta < 0.999) {
        const wd = omega * sqrt(1 - zeta * zeta), sn = sin(wd * tau), cs = cos(wd * tau);
        h = (omega * omega / wd) * e * sn;
        dh = (omega * omega / wd) * e * (wd * cs - a * sn);
      } else if (zeta <= 1.001) {
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
  private filterTrunkLoad(t: number, wind: WindSource, dragPower: number): void {
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
   * Simulation step (§6.4) at time t: the trunk (§6.3.3 "Animating the Trunk"), then every branch
   * (§6.3.3 "Animating the Branches"), each as a quaternion about its own origin, written into
   * texel 1 of `branchData`. A function of t, the wind and the tree: nothing read here was written
   * by an earlier step (dt is not used: it stays in the signature for the Animator's update). No allocation.
   */
  step(t: number, _dt: number, wind: WindSource): void {
    this.time = t;
    wind.gpuState(t, this.gpu);
    if (this.params.paperLiteral) this.stepLiteral(t, wind);
    else this.stepCalibrated(t, wind);
    this.composeAncestors();
  }

  /** Calibrated: the physical tree's compliance, first mode and natural frequencies (class comment). */
  private stepCalibrated(t: number, wind: WindSource): void {
    const p = this.params, s = this.skeleton, d = this.branchData, C = this.compliance;
    const stiffness = p.stiffness;
    const omega1 = this.branchOmega[0] / sqrt(stiffness);
    // ζ of the first mode: the slider's (physics/damping.ts) plus the air's at the mean wind.
    const zeta = dampingRatio(p.damping) + this.airZetaPerSpeed * abs(this.gpu.strength);
    this.buildKernel(omega1, zeta);
    this.filterTrunkLoad(t, wind, 2);
    const L = this.trunkLoad, inv = 1 / stiffness;
    // Trunk: its own rotation under the filtered load (segment A's lean and B's overshoot).
    let rx = (C[0] * L[0] + C[3] * L[1]) * inv, ry = (C[1] * L[0] + C[4] * L[1]) * inv, rz = (C[2] * L[0] + C[5] * L[1]) * inv;
    const wrx = (C[0] * L[2] + C[3] * L[3]) * inv, wrz = (C[2] * L[2] + C[5] * L[3]) * inv;
    const lean = hypot(rx, ry, rz);
    if (lean > 0) {
      const sat = (MAX_TRUNK_ANGLE * tanh(lean / MAX_TRUNK_ANGLE)) / lean;
      rx *= sat; ry *= sat; rz *= sat;
    }
    // Twist (§6.3.3): "much simpler" noise about the trunk axis, relative to the lean.
    let twist = 0;
    if (lean > 0 && p.trunkTwist > 0) {
      for (let i = 0; i < SIMPLE_BAND_RATIOS.length; i++) {
        const r = SIMPLE_BAND_RATIOS[i];
        twist += pow(r, -2) * cos(omega1 * r * 0.93 * t + this.simpleBandPhase[2 + i]);
      }
      twist *= p.trunkTwist * 0.5 * lean;
    }
    const t0x = s.branchFrame[0], t0y = s.branchFrame[1], t0z = s.branchFrame[2];
    quatFromRotationVector(rx, ry, rz, this.q1, 0);
    quatFromRotationVector(t0x * twist, t0y * twist, t0z * twist, this.q2, 0);
    quatMultiply(this.q1, 0, this.q2, 0, this.q3, 0);
    writeQuat(d, branchTexel(0, 1), this.q3);
    const wa = this.windAt;
    wind.sample(this.trunkSample[0] + this.offsetX, this.trunkSample[2] + this.offsetY, this.trunkSample[1] + this.offsetZ, t, wa, 0);
    const crown = hypot(wa[0], wa[2]);
    d[branchTexel(0, 4) + 2] = crown / REFERENCE_WIND_SPEED;
    // Inertia (§6.3.3): the trunk swinging back against the wind (its tip's velocity, ω × arm, upwind) releases pressed branches.
    let dirX = this.gpu.dirX, dirZ = this.gpu.dirZ;
    if (crown > 1e-9) { dirX = wa[0] / crown; dirZ = wa[2] / crown; }
    // Tip velocity along the wind for an arm along y: (ω × up)·dir = −ω_z dirX + ω_x dirZ, per metre of height.
    const swingRate = -wrz * dirX + wrx * dirZ;
    const swingScale = omega1 * lean + 1e-12;
    const release = min(1, max(0, -swingRate / swingScale)) * p.inertia;

    const hfGain = 0.25 * (1 - 0.8 * p.damping);
    const swayGain = p.branchSway / SWAY_PER_BEND;
    const rootStiffness = sqrt(stiffness);
    for (let b = 1; b < this.branchCount; b++) {
      const o0 = branchTexel(b, 0), o4 = branchTexel(b, 4);
      wind.sample(d[o0] + this.offsetX, d[o0 + 1] + this.offsetY, d[o0 + 2] + this.offsetZ, t, wa, 0);
      const bux = wa[0], buy = wa[1], buz = wa[2];
      const bs = hypot(bux, buz);
      let wdx = this.gpu.dirX, wdz = this.gpu.dirZ;
      if (bs > 1e-9) { wdx = bux / bs; wdz = buz / bs; }
      d[o4 + 2] = bs / REFERENCE_WIND_SPEED;
      // The static bend under the drag |u| u of the local wind: the beam's own rotation (physics.ts).
      const gx = bs * bux, gz = bs * buz, c = 6 * b;
      let ax = (C[c] * gx + C[c + 3] * gz) * inv, ay = (C[c + 1] * gx + C[c + 4] * gz) * inv, az = (C[c + 2] * gx + C[c + 5] * gz) * inv;
      const bend = hypot(ax, ay, az);
      const tbx = s.branchFrame[9 * b], tbz = s.branchFrame[9 * b + 2];
      // The vertical wind across the branch, buy |t_b x up|, bends it about t_b x up with the same compliance.
      const across = sqrt(tbx * tbx + tbz * tbz);
      if (buy !== 0 && across > 1e-6) {
        const k = 0.5 * (hypot(C[c], C[c + 1], C[c + 2]) + hypot(C[c + 3], C[c + 4], C[c + 5]));
        const vn = buy * across;
        const lift = (k * vn * abs(vn) * inv) / across;
        ax += -tbz * lift; az += tbx * lift;
      }
      // Sway about the static bend (§6.3.3, Example 6-1), at the branch's own natural frequency.
      const amp = swayGain * bend;
      if (amp > 0) {
        const omega = this.branchOmega[b] / rootStiffness;
        const phase = d[o4 + 1];
        const phase2 = 2 * Math.PI * this.phaseDraw2[b] * p.phaseRandomization;
        const sx = this.side[2 * b], sz = this.side[2 * b + 1];
        // facingWind: -1 on the windward side (Fig. 6-4), +1 behind the trunk (Fig. 6-5), 0 across (Fig. 6-6).
        const facing = sx * wdx + sz * wdz;
        // Windward: pressed toward the trunk (less sway) unless the trunk swings back; behind: flapping.
        const pressed = max(0, -facing) * (1 - release);
        const gain = amp * (1 + 0.5 * max(0, facing)) * (1 - 0.6 * pressed);
        const sa = gain * abs(facing) * (cos(omega * t + phase) + hfGain * cos(2.91 * omega * t + phase2));
        const sb = gain * (1 - abs(facing)) * sin(0.83 * omega * t + phase);
        const pb = this.parentOf[b];
        // a about the wind tangent (up x windDir), b about the parent's axis (Fig. 6-6).
        ax += wdz * sa + s.branchFrame[9 * pb] * sb;
        ay += s.branchFrame[9 * pb + 1] * sb;
        az += -wdx * sa + s.branchFrame[9 * pb + 2] * sb;
      }
      const angle = hypot(ax, ay, az);
      if (angle > 0) {
        const sat = (MAX_BRANCH_ANGLE * tanh(angle / MAX_BRANCH_ANGLE)) / angle;
        ax *= sat; ay *= sat; az *= sat;
      }
      quatFromRotationVector(ax, ay, az, this.q3, 0);
      writeQuat(d, branchTexel(b, 1), this.q3);
    }
  }

  /**
   * Paper-literal: Zioma's own constants (hand-set amplitudes per level, drag ∝ (u / 10 m/s)²,
   * ζ = 0.06 + 0.8 damping), stateless: the trunk's lean x'' + 2ζωx' + ω²x = ω² g f through the
   * same response window, the delayed wind power of Example 6-1 as a window of past samples.
   */
  private stepLiteral(t: number, wind: WindSource): void {
    const p = this.params;
    const s = this.skeleton;
    const d = this.branchData;
    const gpu = this.gpu;
    const stiffness = p.stiffness;
    const f0 = this.trunkFrequency;
    const omega0 = 2 * Math.PI * f0;

    // --- Trunk (§6.3.3): drag from the local wind at the crown -------------------------------
    const wa = this.windAt;
    wind.sample(this.trunkSample[0] + this.offsetX, this.trunkSample[2] + this.offsetY, this.trunkSample[1] + this.offsetZ, t, wa, 0);
    const ux = wa[0], uz = wa[2];
    const speed = hypot(ux, uz);
    let dirX = gpu.dirX, dirZ = gpu.dirZ;
    if (speed > 1e-9) { dirX = ux / speed; dirZ = uz / speed; }
    // Drag ~ speed^2, normalised at the reference speed.
    const drag = (speed / REFERENCE_WIND_SPEED) ** 2;
    const leanGain = (0.06 * this.sizeGain) / stiffness;
    // Segment A (leaning away from the wind) and B (spring-back overshoot when the drag drops):
    // x'' + 2 zeta w x' + w^2 x = w^2 g f, the lean follows the drag vector: x = h * (g f).
    const zeta = 0.06 + 0.8 * p.damping;
    this.buildKernel(omega0, zeta);
    this.filterTrunkLoad(t, wind, 2);
    const kg = leanGain / (REFERENCE_WIND_SPEED * REFERENCE_WIND_SPEED);
    const leanX = kg * this.trunkLoad[0], leanZ = kg * this.trunkLoad[1];
    const leanVX = kg * this.trunkLoad[2], leanVZ = kg * this.trunkLoad[3];
    // Higher-frequency noise (Fig. 6-2): superimposed bands, amplitude ~ 1/f^(1 + damping).
    const noiseAmp = 0.5 * leanGain * drag;
    let par = 0, parRate = 0, perp = 0, twist = 0;
    if (noiseAmp !== 0) {
      for (let i = 0; i < this.trunkBandRatio.length; i++) {
        const r = this.trunkBandRatio[i], w = 2 * Math.PI * f0 * r;
        const a = pow(r, -(1 + p.damping));
        par += a * sin(w * t + this.trunkBandPhase[i]);
        parRate += a * w * cos(w * t + this.trunkBandPhase[i]);
      }
      for (let i = 0; i < SIMPLE_BAND_RATIOS.length; i++) {
        const r = SIMPLE_BAND_RATIOS[i];
        const a = pow(r, -(1 + p.damping));
        perp += a * sin(2 * Math.PI * f0 * r * t + this.simpleBandPhase[i]);
        twist += a * cos(2 * Math.PI * f0 * r * 0.93 * t + this.simpleBandPhase[2 + i]);
      }
      par *= noiseAmp;
      parRate *= noiseAmp;
      perp *= PERPENDICULAR_RATIO * noiseAmp;
      twist *= p.trunkTwist * noiseAmp;
    }
    // Tip displacement angle (xz): lean + parallel noise along the wind, perpendicular across.
    let dispX = leanX + par * dirX - perp * dirZ;
    let dispZ = leanZ + par * dirZ + perp * dirX;
    const dispLen = hypot(dispX, dispZ);
    if (dispLen > 0) {
      const sat = (MAX_TRUNK_ANGLE * tanh(dispLen / MAX_TRUNK_ANGLE)) / dispLen;
      dispX *= sat;
      dispZ *= sat;
    }
    // Trunk swing velocity along the wind, for the branches' inertia (§6.3.3 "Improvements"):
    // the lean's rate from the window (w'_k) and the noise's own derivative, no previous frame.
    const parallelVelocity = leanVX * dirX + leanVZ * dirZ + parRate;
    const swingScale = omega0 * (noiseAmp + leanGain * drag * 0.25) + 1e-9;
    const release = min(1, max(0, -parallelVelocity / swingScale)) * p.inertia;
    // Rotation vector t0 x disp bends the trunk toward disp; then the twist about t0.
    const t0x = s.branchFrame[0], t0y = s.branchFrame[1], t0z = s.branchFrame[2];
    quatFromRotationVector(t0y * dispZ, t0z * dispX - t0x * dispZ, -t0y * dispX, this.q1, 0);
    quatFromRotationVector(t0x * twist, t0y * twist, t0z * twist, this.q2, 0);
    quatMultiply(this.q1, 0, this.q2, 0, this.q3, 0);
    writeQuat(d, branchTexel(0, 1), this.q3);
    d[branchTexel(0, 4) + 2] = speed / REFERENCE_WIND_SPEED;

    // --- The delayed wind power (Example 6-1): an exponential window of past samples, per branch.
    const delayed = this.delayedWindPower;
    delayed.fill(0);
    let wsum = 0;
    for (let k = 0; k < DELAY_TAPS; k++) {
      const wk = exp(-(k * DELAY_SPACING) / WIND_POWER_DELAY) * (k === 0 || k === DELAY_TAPS - 1 ? 0.5 : 1);
      wsum += wk;
      const tk = max(0, t - k * DELAY_SPACING);
      for (let b = 1; b < this.branchCount; b++) {
        const o0 = branchTexel(b, 0);
        wind.sample(d[o0] + this.offsetX, d[o0 + 1] + this.offsetY, d[o0 + 2] + this.offsetZ, tk, wa, 0);
        delayed[b] += wk * pow(hypot(wa[0], wa[2]) / REFERENCE_WIND_SPEED, 1.5);
      }
    }

    // --- Branches (§6.3.3, Example 6-1) -----------------------------------------------------
    const freqScale = p.flutterFrequency / sqrt(stiffness);
    const hfGain = 0.25 * (1 - 0.8 * p.damping);
    for (let b = 1; b < this.branchCount; b++) {
      const lv = this.levelOf[b];
      const o0 = branchTexel(b, 0), o4 = branchTexel(b, 4);
      wind.sample(d[o0] + this.offsetX, d[o0 + 1] + this.offsetY, d[o0 + 2] + this.offsetZ, t, wa, 0);
      const bux = wa[0], buy = wa[1], buz = wa[2];
      const bs = hypot(bux, buz);
      let wdx = gpu.dirX, wdz = gpu.dirZ;
      if (bs > 1e-9) { wdx = bux / bs; wdz = buz / bs; }
      // windPower: the local wind at the branch origin over the reference speed, to the power 1.5
      // (between the drag's u^2 and a linear response: gentle in a breeze, strong in a gale).
      const windPower = pow(bs / REFERENCE_WIND_SPEED, 1.5);
      d[o4 + 2] = windPower;
      const delayedPower = delayed[b] / wsum;
      const kRel = this.relativeStiffness[b];
      const ampFactor = min(2, max(0.5, pow(kRel, -0.25)));
      const freqFactor = min(1.4, max(0.7, pow(kRel, 0.125)));
      const swayA = (p.branchSway * LEVEL_GAIN[lv] * ampFactor) / stiffness;
      const swayB = 0.6 * swayA;
      const omega = 2 * Math.PI * freqScale * LEVEL_FREQUENCY[lv] * freqFactor;
      const phase = d[o4 + 1];
      const phase2 = 2 * Math.PI * this.phaseDraw2[b] * p.phaseRandomization;
      // facingWind: -1 on the windward side (Fig. 6-4), +1 behind the trunk (Fig. 6-5), 0 across (Fig. 6-6).
      const sx = this.side[2 * b], sz = this.side[2 * b + 1];
      const facingWind = sx * wdx + sz * wdz;
      // Example 6-1: a sways in the wind plane, b around the parent's axis (timeWithDelay: a quarter period late).
      let a = swayA * (cos(omega * t + phase) + hfGain * cos(2.91 * omega * t + phase2));
      const oldA = a;
      const pressed = -0.5 * a + swayA; // branchSuppressPower = 1: pressed toward the trunk
      const flap = oldA * (1 + 0.5 * max(0, facingWind)); // behind the trunk: higher amplitude
      const pressAmount = tanh(delayedPower) * (1 - release) * min(1, max(0, 1 - facingWind));
      a = (flap + (pressed - flap) * pressAmount) * windPower;
      // Drag bends a branch across the wind downwind around its parent's axis (Fig. 6-6).
      const pb = this.parentOf[b];
      const tpx = s.branchFrame[9 * pb], tpy = s.branchFrame[9 * pb + 1], tpz = s.branchFrame[9 * pb + 2];
      // (t_parent x side) . windDir: the sign that turns the tip downwind.
      const downwind = tpy * (sz * wdx - sx * wdz);
      let bb = swayB * (sin(omega * 0.83 * t + phase) + 0.5 * downwind) * windPower;
      a = MAX_BRANCH_ANGLE * tanh(a / MAX_BRANCH_ANGLE);
      bb = MAX_BRANCH_ANGLE * tanh(bb / MAX_BRANCH_ANGLE);
      // rotation1 about the wind tangent (up x windDir: positive turns tips downwind).
      quatFromRotationVector(wdz * a, 0, -wdx * a, this.q1, 0);
      // rotation2: around the parent's axis, plus a slight twist about its own axis (lift, Fig. 6-6).
      const twistAngle = 0.3 * bb;
      quatFromRotationVector(tpx * bb, tpy * bb, tpz * bb, this.q2, 0);
      const tbx = s.branchFrame[9 * b], tby = s.branchFrame[9 * b + 1], tbz = s.branchFrame[9 * b + 2];
      quatFromRotationVector(tbx * twistAngle, tby * twistAngle, tbz * twistAngle, this.q3, 0);
      quatMultiply(this.q2, 0, this.q3, 0, this.q2, 0);
      // The weighted sum of the cases (Example 6-1: lerp(rotation1, rotation2, 1 - |facingWind|)).
      quatNlerp(this.q1, 0, this.q2, 0, 1 - abs(facingWind), this.q3, 0);
      // The wind's vertical component across branch b, buy |t_b x up|, lifts it (updraft) or
      // presses it down about t_b x up, with the same windPower law and sway gain.
      const across = sqrt(tbx * tbx + tbz * tbz); // |t_b x up|, t_b x up = (-tbz, 0, tbx)
      if (buy !== 0 && across > 1e-6) {
        const vn = buy * across;
        let lift = swayA * Math.sign(vn) * pow(abs(vn) / REFERENCE_WIND_SPEED, 1.5);
        lift = (MAX_BRANCH_ANGLE * tanh(lift / MAX_BRANCH_ANGLE)) / across;
        quatFromRotationVector(-tbz * lift, 0, tbx * lift, this.q1, 0);
        quatMultiply(this.q1, 0, this.q3, 0, this.q3, 0);
      }
      writeQuat(d, branchTexel(b, 1), this.q3);
    }
  }

  /**
   * §6.5.1 (DirectX 10 path): what a branch's ancestors do to it is the same for all its
   * vertices, because a vertex's w-vector below its own level holds the chain of attachment
   * points (Habel 2009 §3), which are constant along the branch. So the ancestors' blended
   * rotations are concatenated once per branch here, parents first (a parent's index is always
   * lower), into one rigid transform M_b(x) = Q_b x + t_b, stored in texels 5 and 6:
   *   M_b = M_p ∘ T_p,  T_p(x) = R_p (x - o_p) + o_p,  R_p = nlerp(1, q_p, k_p(x_b)),
   *   Q_b = Q_p R_p,   t_b = Q_p (o_p - R_p o_p) + t_p.
   * The vertex shader then applies only the vertex's own blended rotation and M_b.
   */
  private composeAncestors(): void {
    for (let b = 0; b < this.branchCount; b++) this.composeOne(b);
  }

  /** Texels 5 and 6 of branch b from its parent's (already composed) transform and quaternion. */
  private composeOne(b: number): void {
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
  private readonly tmpPos = new Float64Array(3);

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

const UP = [0, 1, 0];

/** Distance from branch b's origin to its tip at rest, m. */
function s0(s: TreeSkeleton, b: number): number {
  const first = s.branchFirstNode[b], tip = first + s.branchNodeCount[b] - 1;
  return hypot(s.nodePosition[3 * tip] - s.nodePosition[3 * first], s.nodePosition[3 * tip + 1] - s.nodePosition[3 * first + 1], s.nodePosition[3 * tip + 2] - s.nodePosition[3 * first + 2]);
}

/** nlerp(identity, q, k), normalised: the two-bone blend of §6.5, q read from d at offset o. */
function blendedRotation(d: ArrayLike<number>, o: number, k: number, out: Float64Array): void {
  const qx = d[o] * k, qy = d[o + 1] * k, qz = d[o + 2] * k, qw = 1 - k + d[o + 3] * k;
  const inv = 1 / sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  out[0] = qx * inv; out[1] = qy * inv; out[2] = qz * inv; out[3] = qw * inv;
}

function writeQuat(d: Float32Array, o: number, q: Float64Array): void {
  // Short way round: w >= 0 keeps nlerp(identity, q, k) a monotone blend.
  const sign = q[3] < 0 ? -1 : 1;
  d[o] = sign * q[0]; d[o + 1] = sign * q[1]; d[o + 2] = sign * q[2]; d[o + 3] = sign * q[3];
}
