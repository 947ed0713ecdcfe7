/**
 * The CPU twin of the procedural-wind method (Zioma 2007, GPU Gems 3 ch. 6, §6.3 to §6.5).
 * No Babylon here: the per-branch simulation runs once per frame on the CPU, as the DirectX 10
 * stream-out step of §6.5.1 does ("simulation per branch, skinning per vertex"), and writes each
 * branch's rotation quaternion into `branchData`, the content of the float data texture the
 * vertex shader reads. `deformVertex` is the per-vertex skinning step, the same math as
 * procedural-wind.glsl.ts, reading the same `branchData`.
 */
import { dampingRatio } from "../../physics/damping";
import { ProceduralWindState, DELAY_SPACING, DELAY_TAPS, LEVEL_FREQUENCY, LEVEL_GAIN, MAX_BRANCH_ANGLE, MAX_TRUNK_ANGLE, PERPENDICULAR_RATIO, REFERENCE_WIND_SPEED, SIMPLE_BAND_RATIOS, SWAY_PER_BEND, WIND_POWER_DELAY, branchTexel, quatFromRotationVector, quatMultiply, quatNlerp, writeQuat } from "./state";
import type { WindSource } from "./state";

export * from "./state";

const { abs, cos, exp, hypot, max, min, pow, sin, sqrt, tanh } = Math;

/** The twin: ProceduralWindState plus the per-frame step (calibrated or paper-literal). */
export class ProceduralWindTwin extends ProceduralWindState {
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

}
