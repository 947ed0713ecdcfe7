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
  const row = Math.floor(b / BRANCHES_PER_ROW);
  return 4 * (row * BRANCH_TEXTURE_WIDTH + (b - row * BRANCHES_PER_ROW) * TEXELS_PER_BRANCH + j);
}

// ---- quaternion library (§6.4.1: angle-axis to quaternion, concatenation, rotation) -----------
/** Quaternion from a rotation vector (axis * angle). Exactly identity for a zero vector. */
export function quatFromRotationVector(rx: number, ry: number, rz: number, out: Float64Array | number[], o = 0): void {
  const angle = Math.sqrt(rx * rx + ry * ry + rz * rz);
  if (angle === 0) {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 1;
    return;
  }
  const s = Math.sin(0.5 * angle) / angle;
  out[o] = rx * s; out[o + 1] = ry * s; out[o + 2] = rz * s; out[o + 3] = Math.cos(0.5 * angle);
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
  const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
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
/** Branch sway gain and frequency factor per level (index = level; 0 unused). */
const LEVEL_GAIN = [0, 1, 1.15, 1.3];
const LEVEL_FREQUENCY = [0, 1, 1.7, 2.6];
/** Perpendicular sway of the trunk relative to the parallel sway (§6.3.3: "much lower"). */
const PERPENDICULAR_RATIO = 0.15;
/** Time constant of the delayed wind power (Example 6-1), seconds. */
const WIND_POWER_DELAY = 0.5;

/**
 * Simulation per branch (§6.3.3, §6.4) and skinning per vertex (§6.5) for one tree.
 * Construct once per tree; `step(t, dt)` once per frame; `deformVertex` for any vertex.
 */
export class ProceduralWindTwin {
  readonly branchCount: number;
  /** Content of the RGBA32F branch texture (BRANCH_TEXTURE_WIDTH x textureHeight). */
  readonly branchData: Float32Array;
  readonly textureWidth = BRANCH_TEXTURE_WIDTH;
  readonly textureHeight: number;
  /** Trunk fundamental frequency after the stiffness parameter, Hz (Fig. 6-3). */
  trunkFrequency = 1;
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
  /** Trunk tip x, z, y at rest: where the trunk's wind is sampled. */
  private readonly trunkSample = new Float64Array(3);
  private readonly trunkBandRatio = new Float64Array(TRUNK_BAND_RATIOS.length);
  private readonly trunkBandPhase = new Float64Array(TRUNK_BAND_RATIOS.length);
  private readonly simpleBandPhase = new Float64Array(2 * SIMPLE_BAND_RATIOS.length);
  private trunkFrequencyAtUnitStiffness = 1;
  private sizeGain = 1;
  // Per frame.
  private readonly delayedWindPower: Float64Array;
  private readonly windAt = new Float64Array(3);
  private readonly gpu: WindGpuState = { dirX: 1, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 };
  private readonly q1 = new Float64Array(4);
  private readonly q2 = new Float64Array(4);
  private readonly q3 = new Float64Array(4);
  // Trunk lean (segment A of Fig. 6-2): m a + c v + k x = f (Ota 2003) on the lean angle, xz.
  private leanX = 0;
  private leanZ = 0;
  private leanVX = 0;
  private leanVZ = 0;
  private previousParallel = 0;
  private offsetX = 0;
  private offsetY = 0;
  private offsetZ = 0;
  // Scratch for deformVertex / tipPosition.
  private readonly qk = new Float64Array(4);
  private readonly tmp = new Float64Array(3);
  private readonly wScratch = new Float64Array(4);
  private readonly vScratch = new Float64Array(6);

  constructor(skeleton: TreeSkeleton, params: ProceduralWindParams, rng: Rng) {
    const n = skeleton.branchCount;
    this.skeleton = skeleton;
    this.params = { ...params };
    this.branchCount = n;
    this.textureHeight = Math.max(1, Math.ceil(n / BRANCHES_PER_ROW));
    this.branchData = new Float32Array(4 * BRANCH_TEXTURE_WIDTH * this.textureHeight);
    this.levelOf = new Uint8Array(n);
    this.parentOf = new Int32Array(n);
    this.relativeStiffness = new Float64Array(n);
    this.phaseDraw = new Float64Array(n);
    this.phaseDraw2 = new Float64Array(n);
    this.side = new Float64Array(2 * n);
    this.delayedWindPower = new Float64Array(n);
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
    this.trunkFrequency = this.trunkFrequencyAtUnitStiffness / Math.sqrt(params.stiffness);
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
      const r = Math.max(1e-4, 0.5 * (s.branchRootRadius[b] + s.branchTipRadius[b]));
      const l = Math.max(1e-4, s.branchLength[b]);
      logK[b] = Math.log((2 * r) ** 4 / (4 * l ** 3));
      const lv = Math.min(3, s.branchLevel[b]);
      logMean[lv] += logK[b];
      count[lv] += 1;
    }
    const t0x = s.branchFrame[0], t0z = s.branchFrame[2];
    const base = 3 * s.branchFirstNode[0];
    const bx = s.nodePosition[base], by = s.nodePosition[base + 1], bz = s.nodePosition[base + 2];
    const t0y = s.branchFrame[1];
    for (let b = 0; b < n; b++) {
      const lv = Math.min(3, s.branchLevel[b]);
      this.levelOf[b] = lv;
      this.parentOf[b] = s.branchParent[b];
      const kRel = Math.exp(logK[b] - logMean[lv] / count[lv]);
      this.relativeStiffness[b] = kRel;
      const first = s.branchFirstNode[b];
      const tip = first + s.branchNodeCount[b] - 1;
      // Side of the tree (§6.3.3 three cases): horizontal offset of the tip from the trunk axis.
      const px = s.nodePosition[3 * tip] - bx, py = s.nodePosition[3 * tip + 1] - by, pz = s.nodePosition[3 * tip + 2] - bz;
      const along = px * t0x + py * t0y + pz * t0z;
      const hx = px - along * t0x, hz = pz - along * t0z;
      const hl = Math.hypot(hx, hz);
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
    // Trunk size (Fig. 6-3): first bending mode of a cantilever, f = 0.56 (r/2) sqrt(E/rho) / H^2,
    // with sqrt(E/rho) ~ 3300 m/s for green wood, lowered by 0.2 for the crown's mass.
    const height = Math.max(0.5, s.branchLength[0]);
    const radius = Math.max(0.01, s.branchRootRadius[0]);
    this.trunkFrequencyAtUnitStiffness = Math.min(2, Math.max(0.15, 0.2 * 0.56 * (radius / 2) * 3300 / (height * height)));
    // More slender trunks sway further.
    this.sizeGain = Math.min(2, Math.max(0.5, height / radius / 60));
    const tip0 = s.branchFirstNode[0] + s.branchNodeCount[0] - 1;
    this.trunkSample[0] = s.nodePosition[3 * tip0];
    this.trunkSample[1] = s.nodePosition[3 * tip0 + 2];
    this.trunkSample[2] = s.nodePosition[3 * tip0 + 1];
  }

  /** Restarts from rest (time 0, no lean). */
  reset(): void {
    this.leanX = this.leanZ = this.leanVX = this.leanVZ = 0;
    this.previousParallel = 0;
    this.delayedWindPower.fill(0);
    for (let b = 0; b < this.branchCount; b++) {
      const o1 = branchTexel(b, 1);
      this.branchData[o1] = this.branchData[o1 + 1] = this.branchData[o1 + 2] = 0;
      this.branchData[o1 + 3] = 1;
    }
  }

  /**
   * Simulation step (§6.4) at time t after a step of dt seconds: the trunk (§6.3.3 "Animating
   * the Trunk"), then every branch (§6.3.3 "Animating the Branches"), each as a quaternion
   * about its own origin, written into texel 1 of `branchData`. No allocation.
   */
  step(t: number, dt: number, wind: WindSource): void {
    const p = this.params;
    const s = this.skeleton;
    const d = this.branchData;
    const gpu = this.gpu;
    wind.gpuState(t, gpu);
    this.time = t;
    const stiffness = p.stiffness;
    const f0 = this.trunkFrequency;
    const omega0 = 2 * Math.PI * f0;

    // --- Trunk (§6.3.3): drag from the local wind at the crown -------------------------------
    const wa = this.windAt;
    wind.sample(this.trunkSample[0] + this.offsetX, this.trunkSample[2] + this.offsetY, this.trunkSample[1] + this.offsetZ, t, wa, 0);
    const ux = wa[0], uz = wa[2];
    const speed = Math.hypot(ux, uz);
    let dirX = gpu.dirX, dirZ = gpu.dirZ;
    if (speed > 1e-9) { dirX = ux / speed; dirZ = uz / speed; }
    // Drag ~ speed^2, normalised at the reference speed.
    const drag = (speed / REFERENCE_WIND_SPEED) ** 2;
    const leanGain = (0.06 * this.sizeGain) / stiffness;
    // Segment A (leaning away from the wind) and B (spring-back overshoot when the drag drops):
    // x'' + 2 zeta w x' + w^2 x = w^2 g f, the lean follows the drag vector.
    const zeta = 0.06 + 0.8 * p.damping;
    const fx = leanGain * drag * dirX, fz = leanGain * drag * dirZ;
    const sub = Math.max(1, Math.ceil(dt * 240));
    const h = dt / sub;
    for (let i = 0; i < sub; i++) {
      this.leanVX += h * (omega0 * omega0 * (fx - this.leanX) - 2 * zeta * omega0 * this.leanVX);
      this.leanVZ += h * (omega0 * omega0 * (fz - this.leanZ) - 2 * zeta * omega0 * this.leanVZ);
      this.leanX += h * this.leanVX;
      this.leanZ += h * this.leanVZ;
    }
    // Higher-frequency noise (Fig. 6-2): superimposed bands, amplitude ~ 1/f^(1 + damping).
    const noiseAmp = 0.5 * leanGain * drag;
    let par = 0, perp = 0, twist = 0;
    if (noiseAmp !== 0) {
      for (let i = 0; i < this.trunkBandRatio.length; i++) {
        const r = this.trunkBandRatio[i];
        par += Math.pow(r, -(1 + p.damping)) * Math.sin(2 * Math.PI * f0 * r * t + this.trunkBandPhase[i]);
      }
      for (let i = 0; i < SIMPLE_BAND_RATIOS.length; i++) {
        const r = SIMPLE_BAND_RATIOS[i];
        const a = Math.pow(r, -(1 + p.damping));
        perp += a * Math.sin(2 * Math.PI * f0 * r * t + this.simpleBandPhase[i]);
        twist += a * Math.cos(2 * Math.PI * f0 * r * 0.93 * t + this.simpleBandPhase[2 + i]);
      }
      par *= noiseAmp;
      perp *= PERPENDICULAR_RATIO * noiseAmp;
      twist *= p.trunkTwist * noiseAmp;
    }
    // Tip displacement angle (xz): lean + parallel noise along the wind, perpendicular across.
    let dispX = this.leanX + par * dirX - perp * dirZ;
    let dispZ = this.leanZ + par * dirZ + perp * dirX;
    const dispLen = Math.hypot(dispX, dispZ);
    if (dispLen > 0) {
      const sat = (MAX_TRUNK_ANGLE * Math.tanh(dispLen / MAX_TRUNK_ANGLE)) / dispLen;
      dispX *= sat;
      dispZ *= sat;
    }
    // Trunk swing velocity along the wind, for the branches' inertia (§6.3.3 "Improvements").
    const parallel = dispX * dirX + dispZ * dirZ;
    const parallelVelocity = dt > 0 ? (parallel - this.previousParallel) / dt : 0;
    this.previousParallel = parallel;
    const swingScale = omega0 * (noiseAmp + leanGain * drag * 0.25) + 1e-9;
    const release = Math.min(1, Math.max(0, -parallelVelocity / swingScale)) * p.inertia;
    // Rotation vector t0 x disp bends the trunk toward disp; then the twist about t0.
    const t0x = s.branchFrame[0], t0y = s.branchFrame[1], t0z = s.branchFrame[2];
    quatFromRotationVector(t0y * dispZ, t0z * dispX - t0x * dispZ, -t0y * dispX, this.q1, 0);
    quatFromRotationVector(t0x * twist, t0y * twist, t0z * twist, this.q2, 0);
    quatMultiply(this.q1, 0, this.q2, 0, this.q3, 0);
    writeQuat(d, branchTexel(0, 1), this.q3);
    d[branchTexel(0, 4) + 2] = speed / REFERENCE_WIND_SPEED;

    // --- Branches (§6.3.3, Example 6-1) -----------------------------------------------------
    const alpha = dt > 0 ? 1 - Math.exp(-dt / WIND_POWER_DELAY) : 1;
    const freqScale = p.flutterFrequency / Math.sqrt(stiffness);
    const hfGain = 0.25 * (1 - 0.8 * p.damping);
    for (let b = 1; b < this.branchCount; b++) {
      const lv = this.levelOf[b];
      const o0 = branchTexel(b, 0), o4 = branchTexel(b, 4);
      wind.sample(d[o0] + this.offsetX, d[o0 + 1] + this.offsetY, d[o0 + 2] + this.offsetZ, t, wa, 0);
      const bux = wa[0], buy = wa[1], buz = wa[2];
      const bs = Math.hypot(bux, buz);
      let wdx = gpu.dirX, wdz = gpu.dirZ;
      if (bs > 1e-9) { wdx = bux / bs; wdz = buz / bs; }
      // windPower: the local wind at the branch origin over the reference speed, to the power 1.5
      // (between the drag's u^2 and a linear response: gentle in a breeze, strong in a gale).
      const windPower = Math.pow(bs / REFERENCE_WIND_SPEED, 1.5);
      d[o4 + 2] = windPower;
      const delayed = (this.delayedWindPower[b] += alpha * (windPower - this.delayedWindPower[b]));
      const kRel = this.relativeStiffness[b];
      const ampFactor = Math.min(2, Math.max(0.5, Math.pow(kRel, -0.25)));
      const freqFactor = Math.min(1.4, Math.max(0.7, Math.pow(kRel, 0.125)));
      const swayA = (p.branchSway * LEVEL_GAIN[lv] * ampFactor) / stiffness;
      const swayB = 0.6 * swayA;
      const omega = 2 * Math.PI * freqScale * LEVEL_FREQUENCY[lv] * freqFactor;
      const phase = d[o4 + 1];
      const phase2 = 2 * Math.PI * this.phaseDraw2[b] * p.phaseRandomization;
      // facingWind: -1 on the windward side (Fig. 6-4), +1 behind the trunk (Fig. 6-5), 0 across (Fig. 6-6).
      const sx = this.side[2 * b], sz = this.side[2 * b + 1];
      const facingWind = sx * wdx + sz * wdz;
      // Example 6-1: a sways in the wind plane, b around the parent's axis (timeWithDelay: a quarter period late).
      let a = swayA * (Math.cos(omega * t + phase) + hfGain * Math.cos(2.91 * omega * t + phase2));
      const oldA = a;
      const pressed = -0.5 * a + swayA; // branchSuppressPower = 1: pressed toward the trunk
      const flap = oldA * (1 + 0.5 * Math.max(0, facingWind)); // behind the trunk: higher amplitude
      const pressAmount = Math.tanh(delayed) * (1 - release) * Math.min(1, Math.max(0, 1 - facingWind));
      a = (flap + (pressed - flap) * pressAmount) * windPower;
      // Drag bends a branch across the wind downwind around its parent's axis (Fig. 6-6).
      const pb = this.parentOf[b];
      const tpx = s.branchFrame[9 * pb], tpy = s.branchFrame[9 * pb + 1], tpz = s.branchFrame[9 * pb + 2];
      // (t_parent x side) . windDir: the sign that turns the tip downwind.
      const downwind = tpy * (sz * wdx - sx * wdz);
      let bb = swayB * (Math.sin(omega * 0.83 * t + phase) + 0.5 * downwind) * windPower;
      a = MAX_BRANCH_ANGLE * Math.tanh(a / MAX_BRANCH_ANGLE);
      bb = MAX_BRANCH_ANGLE * Math.tanh(bb / MAX_BRANCH_ANGLE);
      // rotation1 about the wind tangent (up x windDir: positive turns tips downwind).
      quatFromRotationVector(wdz * a, 0, -wdx * a, this.q1, 0);
      // rotation2: around the parent's axis, plus a slight twist about its own axis (lift, Fig. 6-6).
      const twistAngle = 0.3 * bb;
      quatFromRotationVector(tpx * bb, tpy * bb, tpz * bb, this.q2, 0);
      const tbx = s.branchFrame[9 * b], tby = s.branchFrame[9 * b + 1], tbz = s.branchFrame[9 * b + 2];
      quatFromRotationVector(tbx * twistAngle, tby * twistAngle, tbz * twistAngle, this.q3, 0);
      quatMultiply(this.q2, 0, this.q3, 0, this.q2, 0);
      // The weighted sum of the cases (Example 6-1: lerp(rotation1, rotation2, 1 - |facingWind|)).
      quatNlerp(this.q1, 0, this.q2, 0, 1 - Math.abs(facingWind), this.q3, 0);
      // The wind's vertical component (the WindField's vertical mean plus turbulence): drag on a
      // branch goes with the wind across it (a cylinder's independence principle), so the vertical
      // wind across branch b, buy |t_b x up|, lifts it (updraft) or presses it down about
      // t_b x up, with the same windPower law and sway gain as the horizontal sway. A vertical
      // branch, and the trunk, feel none of it; where the wind has no vertical component at all
      // (vertical 0 and no turbulence) the branch moves exactly as before.
      const across = Math.sqrt(tbx * tbx + tbz * tbz); // |t_b x up|, t_b x up = (-tbz, 0, tbx)
      if (buy !== 0 && across > 1e-6) {
        const vn = buy * across;
        let lift = swayA * Math.sign(vn) * Math.pow(Math.abs(vn) / REFERENCE_WIND_SPEED, 1.5);
        lift = (MAX_BRANCH_ANGLE * Math.tanh(lift / MAX_BRANCH_ANGLE)) / across;
        quatFromRotationVector(-tbz * lift, 0, tbx * lift, this.q1, 0);
        quatMultiply(this.q1, 0, this.q3, 0, this.q3, 0);
      }
      writeQuat(d, branchTexel(b, 1), this.q3);
    }
    this.composeAncestors();
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
    const s = this.skeleton, d = this.branchData, n = this.branchCount;
    const rp = this.qk, qb = this.q1, tmp = this.tmp;
    for (let b = 0; b < n; b++) {
      const p = this.parentOf[b];
      const o5 = branchTexel(b, 5), o6 = branchTexel(b, 6);
      if (p < 0) {
        d[o5] = d[o5 + 1] = d[o5 + 2] = 0;
        d[o5 + 3] = 1;
        d[o6] = d[o6 + 1] = d[o6 + 2] = 0;
        continue;
      }
      const p0 = branchTexel(p, 0), p1 = branchTexel(p, 1), p3 = branchTexel(p, 3), p5 = branchTexel(p, 5), p6 = branchTexel(p, 6);
      blendedRotation(d, p1, 1 - Math.pow(Math.max(1 - s.branchParentX[b], 0), d[p3 + 3]), rp);
      // Q_b = Q_p R_p
      quatMultiply(d, p5, rp, 0, qb, 0);
      // t_b = Q_p (o_p - R_p o_p) + t_p
      const ox = d[p0], oy = d[p0 + 1], oz = d[p0 + 2];
      quatRotate(rp, 0, ox, oy, oz, tmp, 0);
      quatRotate(d, p5, ox - tmp[0], oy - tmp[1], oz - tmp[2], tmp, 0);
      d[o5] = qb[0]; d[o5 + 1] = qb[1]; d[o5 + 2] = qb[2]; d[o5 + 3] = qb[3];
      d[o6] = tmp[0] + d[p6]; d[o6 + 1] = tmp[1] + d[p6 + 1]; d[o6 + 2] = tmp[2] + d[p6 + 2];
    }
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
    const b = Math.round(branchIndex);
    if (!(b >= 0 && b < this.branchCount)) {
      for (let i = 0; i < 3; i++) {
        out[i] = position[i];
        out[3 + i] = normal[i];
      }
      return;
    }
    const o0 = branchTexel(b, 0), o1 = o0 + 4, o3 = o0 + 12, o5 = o0 + 20, o6 = o0 + 24;
    const level = Math.round(d[o6 + 3]);
    const x = level >= 0 && level < 4 ? wVector[level] : 0;
    // The vertex's own bone, blended with its parent's by 1 - (1 - x)^e (§6.5 two-bone blend).
    blendedRotation(d, o1, 1 - Math.pow(Math.max(1 - x, 0), d[o3 + 3]), qk);
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

/** nlerp(identity, q, k), normalised: the two-bone blend of §6.5, q read from d at offset o. */
function blendedRotation(d: ArrayLike<number>, o: number, k: number, out: Float64Array): void {
  const qx = d[o] * k, qy = d[o + 1] * k, qz = d[o + 2] * k, qw = 1 - k + d[o + 3] * k;
  const inv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  out[0] = qx * inv; out[1] = qy * inv; out[2] = qz * inv; out[3] = qw * inv;
}

function writeQuat(d: Float32Array, o: number, q: Float64Array): void {
  // Short way round: w >= 0 keeps nlerp(identity, q, k) a monotone blend.
  const sign = q[3] < 0 ? -1 : 1;
  d[o] = sign * q[0]; d[o + 1] = sign * q[1]; d[o + 2] = sign * q[2]; d[o + 3] = sign * q[3];
}
