/**
 * The CPU twin of the procedural-wind method (Zioma 2007, GPU Gems 3 ch. 6, §6.3 to §6.5).
 * No Babylon here. A frame is two steps, as §6.5.1 splits it: the simulation per branch, then the
 * skinning per vertex. `prepare` does the per-tree part of the simulation (the trunk's response
 * to the wind at the crown, the uniforms); `ownRotation` is one branch's rotation (§6.3.3's
 * rules) and `composeChain` one branch's concatenation of its ancestors' rotations, the twins of
 * the per-branch GPU pass (pass.glsl.ts) line by line; `step` runs them for every branch on the
 * CPU (the fallback where the pass cannot run, and what probe() evaluates) and writes
 * `branchData`, the content of the float data texture the vertex shader reads. `deformVertex`
 * is the per-vertex skinning step, the same math as procedural-wind.glsl.ts.
 */
import { dampingRatio } from "../../physics/damping";
import type { WindGpuState } from "../../wind/wind-field";
import { windAt as passWindAt } from "../branch-pass-wind";
import {
  ProceduralWindState, DELAY_SPACING, DELAY_TAPS, LEVEL_FREQUENCY, LEVEL_GAIN, MAX_BRANCH_ANGLE, MAX_TRUNK_ANGLE,
  PERPENDICULAR_RATIO, REFERENCE_WIND_SPEED, SIMPLE_BAND_RATIOS, SWAY_PER_BEND, WIND_POWER_DELAY, blendedRotation,
  branchTexel, quatFromRotationVector, quatMultiply, quatNlerp, quatRotate, writeQuat,
} from "./state";
import type { WindSource } from "./state";

export * from "./state";

const { abs, cos, exp, hypot, max, min, pow, sin, sqrt, tanh } = Math;

/** tanh's argument is clamped here and in the GLSL alike (a GPU's tanh may overflow past about 44). */
export const TANH_CLAMP = 10;

function clampedTanh(x: number): number {
  return tanh(min(max(x, -TANH_CLAMP), TANH_CLAMP));
}

function gpuState(): WindGpuState {
  return { dirX: 1, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 };
}

/** The twin: ProceduralWindState plus the per-frame step (calibrated or paper-literal). */
export class ProceduralWindTwin extends ProceduralWindState {
  /** The wind's GPU contract at the tree's foot for each delayed-power tap k at max(0, t - k Δ) (tap 0: now). */
  readonly taps: WindGpuState[] = Array.from({ length: DELAY_TAPS }, gpuState);
  /** Per frame, from `prepare`: what the pass reads as uniforms (pass.ts writes them). */
  release = 0;
  crownPower = 0;
  hfGain = 0;
  swayGain = 0;
  rootStiffness = 1;
  /** 2π times the phase randomization: a branch's second phase is this times its draw. */
  phase2Scale = 0;
  /** Paper-literal: the branch frequency over √stiffness, Hz. */
  freqScale = 0;
  /** The wind `prepare` read (the branches read the same). */
  protected source: WindSource | null = null;
  /** Every branch's rotation and composite are of `time` (false after prepare alone; true at rest, before any). */
  protected complete = true;
  private readonly wb = new Float64Array(3);
  private readonly chain = new Int32Array(64);

  /**
   * Simulation step (§6.4) at time t: the trunk (§6.3.3 "Animating the Trunk"), then every branch
   * (§6.3.3 "Animating the Branches"), each as a quaternion about its own origin, written into
   * texel 1 of `branchData`, and every branch's ancestors concatenated (texels 5, 6). A function
   * of t, the wind and the tree: nothing read here was written by an earlier step (dt is not used:
   * it stays in the signature for the Animator's update). No allocation.
   */
  step(t: number, _dt: number, wind: WindSource): void {
    this.prepare(t, wind);
    this.completeStep();
  }

  /**
   * The per-tree part of the step at time t (what the per-branch pass gets as uniforms): the wind's
   * contract at the tree's foot now and at the delayed-power taps, the trunk's rotation (texel 1 of
   * branch 0) from its response window over the wind at the crown, the branches' release and gains.
   * The branches' own rotations are left to `completeStep`, `composeChain` or the GPU pass.
   */
  prepare(t: number, wind: WindSource): void {
    this.time = t;
    this.source = wind;
    this.complete = false;
    const p = this.params;
    // The delayed wind power's taps are paper-literal's alone; calibrated reads the wind now.
    const taps = p.paperLiteral ? DELAY_TAPS : 1;
    for (let k = 0; k < taps; k++) wind.gpuState(max(0, t - k * DELAY_SPACING), this.taps[k], this.offsetX, this.offsetZ);
    const g = this.gpu, now = this.taps[0];
    g.dirX = now.dirX; g.dirZ = now.dirZ; g.strength = now.strength; g.vertical = now.vertical;
    g.turbulenceAmplitude = now.turbulenceAmplitude; g.advection = now.advection;
    this.phase2Scale = 2 * Math.PI * p.phaseRandomization;
    this.hfGain = 0.25 * (1 - 0.8 * p.damping);
    this.rootStiffness = sqrt(p.stiffness);
    this.freqScale = p.flutterFrequency / this.rootStiffness;
    if (p.paperLiteral) this.trunkLiteral(t, wind);
    else this.trunkCalibrated(t, wind);
  }

  /** Whether branchData holds every branch at `time` (not only what prepare wrote). */
  get isComplete(): boolean {
    return this.complete;
  }

  /** Every branch's own rotation (after `prepare`), then the ancestors' composites. */
  completeStep(): void {
    if (this.complete) return;
    const d = this.branchData, q = this.q3;
    for (let b = 1; b < this.branchCount; b++) {
      d[branchTexel(b, 4) + 2] = this.ownRotation(b, q);
      writeQuat(d, branchTexel(b, 1), q);
    }
    this.composeAncestors();
    this.complete = true;
  }

  /** Calibrated trunk: the physical tree's compliance and first mode (class comment of state.ts). */
  private trunkCalibrated(t: number, wind: WindSource): void {
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
    this.crownPower = crown / REFERENCE_WIND_SPEED;
    d[branchTexel(0, 4) + 2] = this.crownPower;
    // Inertia (§6.3.3): the trunk swinging back against the wind (its tip's velocity, ω × arm, upwind) releases pressed branches.
    let dirX = this.gpu.dirX, dirZ = this.gpu.dirZ;
    if (crown > 1e-9) { dirX = wa[0] / crown; dirZ = wa[2] / crown; }
    // Tip velocity along the wind for an arm along y: (ω × up)·dir = −ω_z dirX + ω_x dirZ, per metre of height.
    const swingRate = -wrz * dirX + wrx * dirZ;
    const swingScale = omega1 * lean + 1e-12;
    this.release = min(1, max(0, -swingRate / swingScale)) * p.inertia;
    this.swayGain = p.branchSway / SWAY_PER_BEND;
  }

  /**
   * Paper-literal trunk: Zioma's own constants (drag ∝ (u / 10 m/s)², ζ = 0.06 + 0.8 damping),
   * stateless: the lean x'' + 2ζωx' + ω²x = ω² g f through the same response window, the
   * higher-frequency bands of Fig. 6-2 on top.
   */
  private trunkLiteral(t: number, wind: WindSource): void {
    const p = this.params, s = this.skeleton, d = this.branchData, gpu = this.gpu;
    const stiffness = p.stiffness;
    const f0 = this.trunkFrequency;
    const omega0 = 2 * Math.PI * f0;
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
    this.release = min(1, max(0, -parallelVelocity / swingScale)) * p.inertia;
    // Rotation vector t0 x disp bends the trunk toward disp; then the twist about t0.
    const t0x = s.branchFrame[0], t0y = s.branchFrame[1], t0z = s.branchFrame[2];
    quatFromRotationVector(t0y * dispZ, t0z * dispX - t0x * dispZ, -t0y * dispX, this.q1, 0);
    quatFromRotationVector(t0x * twist, t0y * twist, t0z * twist, this.q2, 0);
    quatMultiply(this.q1, 0, this.q2, 0, this.q3, 0);
    writeQuat(d, branchTexel(0, 1), this.q3);
    this.crownPower = speed / REFERENCE_WIND_SPEED;
    d[branchTexel(0, 4) + 2] = this.crownPower;
    this.swayGain = p.branchSway;
  }

  /** The wind at branch b's origin (world: the tree's placement added) for tap k, into wb. */
  private branchWind(b: number, k: number): void {
    const d = this.branchData, o0 = branchTexel(b, 0);
    const tk = max(0, this.time - k * DELAY_SPACING);
    passWindAt(this.source!, this.taps[k], d[o0] + this.offsetX, d[o0 + 1] + this.offsetY, d[o0 + 2] + this.offsetZ, tk, this.wb);
  }

  /**
   * Branch b's own rotation (b ≥ 1; §6.3.3, Example 6-1) at the prepared time, into q (xyzw, the
   * short way: w ≥ 0). Returns the branch's wind power (texel 4.z). The GLSL twin is pwOwn in
   * pass.glsl.ts. No allocation.
   */
  ownRotation(b: number, q: Float64Array): number {
    const power = this.params.paperLiteral ? this.ownLiteral(b, q) : this.ownCalibrated(b, q);
    if (q[3] < 0) { q[0] = -q[0]; q[1] = -q[1]; q[2] = -q[2]; q[3] = -q[3]; }
    return power;
  }

  /** Calibrated: the static bend under the local drag, the sway about it at the branch's own frequency. */
  private ownCalibrated(b: number, q: Float64Array): number {
    const p = this.params, s = this.skeleton, d = this.branchData, C = this.compliance, t = this.time;
    const inv = 1 / p.stiffness;
    this.branchWind(b, 0);
    const wa = this.wb, o4 = branchTexel(b, 4);
    const bux = wa[0], buy = wa[1], buz = wa[2];
    const bs = hypot(bux, buz);
    let wdx = this.gpu.dirX, wdz = this.gpu.dirZ;
    if (bs > 1e-9) { wdx = bux / bs; wdz = buz / bs; }
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
    const amp = this.swayGain * bend;
    if (amp > 0) {
      const omega = this.branchOmega[b] / this.rootStiffness;
      const phase = d[o4 + 1];
      const phase2 = this.phase2Scale * this.phaseDraw2[b];
      const sx = this.side[2 * b], sz = this.side[2 * b + 1];
      // facingWind: -1 on the windward side (Fig. 6-4), +1 behind the trunk (Fig. 6-5), 0 across (Fig. 6-6).
      const facing = sx * wdx + sz * wdz;
      // Windward: pressed toward the trunk (less sway) unless the trunk swings back; behind: flapping.
      const pressed = max(0, -facing) * (1 - this.release);
      const gain = amp * (1 + 0.5 * max(0, facing)) * (1 - 0.6 * pressed);
      const sa = gain * abs(facing) * (cos(omega * t + phase) + this.hfGain * cos(2.91 * omega * t + phase2));
      const sb = gain * (1 - abs(facing)) * sin(0.83 * omega * t + phase);
      const pb = this.parentOf[b];
      // a about the wind tangent (up x windDir), b about the parent's axis (Fig. 6-6).
      ax += wdz * sa + s.branchFrame[9 * pb] * sb;
      ay += s.branchFrame[9 * pb + 1] * sb;
      az += -wdx * sa + s.branchFrame[9 * pb + 2] * sb;
    }
    const angle = hypot(ax, ay, az);
    if (angle > 0) {
      const sat = (MAX_BRANCH_ANGLE * clampedTanh(angle / MAX_BRANCH_ANGLE)) / angle;
      ax *= sat; ay *= sat; az *= sat;
    }
    quatFromRotationVector(ax, ay, az, q, 0);
    return bs / REFERENCE_WIND_SPEED;
  }

  /**
   * Paper-literal: Zioma's hand-set amplitudes per level and Example 6-1's rules; the delayed wind
   * power as a window of past samples at the branch's origin (stateless).
   */
  private ownLiteral(b: number, q: Float64Array): number {
    const p = this.params, s = this.skeleton, d = this.branchData, gpu = this.gpu, t = this.time;
    const wa = this.wb;
    // The delayed wind power (Example 6-1): an exponential window of past samples.
    let delayed = 0, wsum = 0;
    for (let k = 0; k < DELAY_TAPS; k++) {
      const wk = exp(-(k * DELAY_SPACING) / WIND_POWER_DELAY) * (k === 0 || k === DELAY_TAPS - 1 ? 0.5 : 1);
      wsum += wk;
      this.branchWind(b, k);
      delayed += wk * pow(hypot(wa[0], wa[2]) / REFERENCE_WIND_SPEED, 1.5);
    }
    const lv = this.levelOf[b];
    const o4 = branchTexel(b, 4);
    this.branchWind(b, 0);
    const bux = wa[0], buy = wa[1], buz = wa[2];
    const bs = hypot(bux, buz);
    let wdx = gpu.dirX, wdz = gpu.dirZ;
    if (bs > 1e-9) { wdx = bux / bs; wdz = buz / bs; }
    // windPower: the local wind at the branch origin over the reference speed, to the power 1.5
    // (between the drag's u^2 and a linear response: gentle in a breeze, strong in a gale).
    const windPower = pow(bs / REFERENCE_WIND_SPEED, 1.5);
    const delayedPower = delayed / wsum;
    const kRel = this.relativeStiffness[b];
    const ampFactor = min(2, max(0.5, pow(kRel, -0.25)));
    const freqFactor = min(1.4, max(0.7, pow(kRel, 0.125)));
    const swayA = (this.swayGain * LEVEL_GAIN[lv] * ampFactor) / p.stiffness;
    const swayB = 0.6 * swayA;
    const omega = 2 * Math.PI * this.freqScale * LEVEL_FREQUENCY[lv] * freqFactor;
    const phase = d[o4 + 1];
    const phase2 = this.phase2Scale * this.phaseDraw2[b];
    // facingWind: -1 on the windward side (Fig. 6-4), +1 behind the trunk (Fig. 6-5), 0 across (Fig. 6-6).
    const sx = this.side[2 * b], sz = this.side[2 * b + 1];
    const facingWind = sx * wdx + sz * wdz;
    // Example 6-1: a sways in the wind plane, b around the parent's axis (timeWithDelay: a quarter period late).
    let a = swayA * (cos(omega * t + phase) + this.hfGain * cos(2.91 * omega * t + phase2));
    const oldA = a;
    const pressed = -0.5 * a + swayA; // branchSuppressPower = 1: pressed toward the trunk
    const flap = oldA * (1 + 0.5 * max(0, facingWind)); // behind the trunk: higher amplitude
    const pressAmount = clampedTanh(delayedPower) * (1 - this.release) * min(1, max(0, 1 - facingWind));
    a = (flap + (pressed - flap) * pressAmount) * windPower;
    // Drag bends a branch across the wind downwind around its parent's axis (Fig. 6-6).
    const pb = this.parentOf[b];
    const tpx = s.branchFrame[9 * pb], tpy = s.branchFrame[9 * pb + 1], tpz = s.branchFrame[9 * pb + 2];
    // (t_parent x side) . windDir: the sign that turns the tip downwind.
    const downwind = tpy * (sz * wdx - sx * wdz);
    let bb = swayB * (sin(omega * 0.83 * t + phase) + 0.5 * downwind) * windPower;
    a = MAX_BRANCH_ANGLE * clampedTanh(a / MAX_BRANCH_ANGLE);
    bb = MAX_BRANCH_ANGLE * clampedTanh(bb / MAX_BRANCH_ANGLE);
    // rotation1 about the wind tangent (up x windDir: positive turns tips downwind).
    quatFromRotationVector(wdz * a, 0, -wdx * a, this.q1, 0);
    // rotation2: around the parent's axis, plus a slight twist about its own axis (lift, Fig. 6-6).
    const twistAngle = 0.3 * bb;
    quatFromRotationVector(tpx * bb, tpy * bb, tpz * bb, this.q2, 0);
    const tbx = s.branchFrame[9 * b], tby = s.branchFrame[9 * b + 1], tbz = s.branchFrame[9 * b + 2];
    quatFromRotationVector(tbx * twistAngle, tby * twistAngle, tbz * twistAngle, q, 0);
    quatMultiply(this.q2, 0, q, 0, this.q2, 0);
    // The weighted sum of the cases (Example 6-1: lerp(rotation1, rotation2, 1 - |facingWind|)).
    quatNlerp(this.q1, 0, this.q2, 0, 1 - abs(facingWind), q, 0);
    // The wind's vertical component across branch b, buy |t_b x up|, lifts it (updraft) or
    // presses it down about t_b x up, with the same windPower law and sway gain.
    const across = sqrt(tbx * tbx + tbz * tbz); // |t_b x up|, t_b x up = (-tbz, 0, tbx)
    if (buy !== 0 && across > 1e-6) {
      const vn = buy * across;
      let lift = swayA * Math.sign(vn) * pow(abs(vn) / REFERENCE_WIND_SPEED, 1.5);
      lift = (MAX_BRANCH_ANGLE * clampedTanh(lift / MAX_BRANCH_ANGLE)) / across;
      quatFromRotationVector(-tbz * lift, 0, tbx * lift, this.q1, 0);
      quatMultiply(this.q1, 0, q, 0, q, 0);
    }
    return windPower;
  }

  /**
   * Branch b's texels 1, 4.z, 5 and 6 at the prepared time from its own chain alone, as the
   * per-branch pass computes them (pass.glsl.ts's pwComposite): the ancestors' own rotations
   * evaluated afresh, concatenated from the root down (the same operations as composeOne), the
   * branch's own rotation. What one tip's probe needs, without the rest of the tree.
   */
  composeChain(b: number): void {
    const s = this.skeleton, d = this.branchData, chain = this.chain;
    // chain[0] = b, chain[i] = the parent of chain[i - 1], up to the root.
    let n = 0;
    for (let c = b; c >= 0 && n < chain.length; c = this.parentOf[c]) chain[n++] = c;
    const Q = this.qa, R = this.qk, own = this.q3, tmp = this.tmp;
    Q[0] = 0; Q[1] = 0; Q[2] = 0; Q[3] = 1;
    let tx = 0, ty = 0, tz = 0;
    for (let i = n - 1; i >= 1; i--) {
      const a = chain[i], c = chain[i - 1];
      const a0 = branchTexel(a, 0), a3 = branchTexel(a, 3);
      this.ownOrTrunk(a, own);
      blendedRotation(own, 0, 1 - pow(max(1 - s.branchParentX[c], 0), d[a3 + 3]), R);
      // t_c = Q_a (o_a - R_a o_a) + t_a; Q_c = Q_a R_a.
      const ox = d[a0], oy = d[a0 + 1], oz = d[a0 + 2];
      quatRotate(R, 0, ox, oy, oz, tmp, 0);
      quatRotate(Q, 0, ox - tmp[0], oy - tmp[1], oz - tmp[2], tmp, 0);
      tx += tmp[0]; ty += tmp[1]; tz += tmp[2];
      quatMultiply(Q, 0, R, 0, Q, 0);
    }
    const o1 = branchTexel(b, 1), o4 = branchTexel(b, 4), o5 = branchTexel(b, 5), o6 = branchTexel(b, 6);
    d[o4 + 2] = this.ownOrTrunk(b, own);
    d[o1] = own[0]; d[o1 + 1] = own[1]; d[o1 + 2] = own[2]; d[o1 + 3] = own[3];
    d[o5] = Q[0]; d[o5 + 1] = Q[1]; d[o5 + 2] = Q[2]; d[o5 + 3] = Q[3];
    d[o6] = tx; d[o6 + 1] = ty; d[o6 + 2] = tz;
  }
  private readonly qa = new Float64Array(4);

  /** Branch b's own rotation; the trunk's (branch 0) is prepare's. Returns its wind power. */
  private ownOrTrunk(b: number, q: Float64Array): number {
    if (b === 0) {
      const o1 = branchTexel(b, 1);
      q[0] = this.branchData[o1]; q[1] = this.branchData[o1 + 1]; q[2] = this.branchData[o1 + 2]; q[3] = this.branchData[o1 + 3];
      return this.crownPower;
    }
    return this.ownRotation(b, q);
  }
}
