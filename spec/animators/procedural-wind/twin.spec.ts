import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
import { tipNode } from "../../../app/tree/skeleton";
import { WindField, type WindGpuState, type WindSettings } from "../../../app/wind/wind-field";
import { ReferenceTree } from "../../../app/physics/reference";
import { defaultMaterial } from "../../../app/physics/material";
import { proceduralWindParams, type ProceduralWindParams } from "../../../app/animators/procedural-wind/params";
import {
  ProceduralWindTwin, type WindSource, quatFromRotationVector, quatMultiply, quatRotate, branchTexel,
} from "../../../app/animators/procedural-wind/twin";
import { freeMotionOf } from "../../../app/physics/calibration";
import { dampingRatio } from "../../../app/physics/damping";
import { fourLevelTree } from "./fixtures";

const DT = 1 / 60;
const skeleton = fourLevelTree();
const defaults = defaultsOf(proceduralWindParams);

function wind(patch: Partial<WindSettings>, modulation = true): WindField {
  return new WindField({ speed: 8, direction: 0, turbulence: 0.3, gust: 0, seed: 3, ...patch }, { modulation, width: 256, height: 64 });
}

function twin(patch: Partial<ProceduralWindParams> = {}, seed = 7): ProceduralWindTwin {
  return new ProceduralWindTwin(skeleton, { ...defaults, ...patch }, new Rng(seed));
}

/** A steady wind along +x of `speed` m/s that stops at `stop` s: a function of time, as a WindField is. */
function stoppingWind(speed: number, stop: number): WindSource {
  const u = (t: number) => (t < stop ? speed : 0);
  return {
    gpuState(t: number, out: WindGpuState) {
      out.dirX = 1; out.dirZ = 0; out.strength = u(t); out.vertical = 0; out.turbulenceAmplitude = 0; out.advection = 0;
      return out;
    },
    sample(_x: number, _y: number, _z: number, t: number, out: Float64Array, o = 0) {
      out[o] = u(t); out[o + 1] = 0; out[o + 2] = 0;
    },
  };
}

/** Runs `seconds` and returns the tip positions per frame (frames x branches x 3). */
function run(tw: ProceduralWindTwin, w: WindField, seconds: number): Float64Array[] {
  const frames: Float64Array[] = [];
  const n = Math.round(seconds / DT);
  for (let f = 1; f <= n; f++) {
    tw.step(f * DT, DT, w);
    const tips = new Float64Array(3 * skeleton.branchCount);
    for (let b = 0; b < skeleton.branchCount; b++) tw.tipPosition(b, tips, 3 * b);
    frames.push(tips);
  }
  return frames;
}

function rest(b: number): number[] {
  const k = tipNode(skeleton, b);
  return [skeleton.nodePosition[3 * k], skeleton.nodePosition[3 * k + 1], skeleton.nodePosition[3 * k + 2]];
}

/** RMS distance of branch b's tip from rest, over frames after `skip`. */
function rmsDisplacement(frames: Float64Array[], b: number, skip = 120): number {
  const r = rest(b);
  let sum = 0, n = 0;
  for (let f = skip; f < frames.length; f++) {
    const p = frames[f];
    sum += (p[3 * b] - r[0]) ** 2 + (p[3 * b + 1] - r[1]) ** 2 + (p[3 * b + 2] - r[2]) ** 2;
    n++;
  }
  return Math.sqrt(sum / n);
}

function series(frames: Float64Array[], b: number, axis: number, skip = 120): number[] {
  return frames.slice(skip).map((p) => p[3 * b + axis]);
}

function std(xs: number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
}

/** Frequency (Hz) of the largest DFT peak of a series sampled at 1/DT, mean removed. */
function dominantFrequency(xs: number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const n = xs.length;
  let best = 0, bestF = 0;
  for (let k = 1; k < n / 2; k++) {
    let re = 0, im = 0;
    for (let i = 0; i < n; i++) {
      const ph = (2 * Math.PI * k * i) / n;
      re += (xs[i] - m) * Math.cos(ph);
      im -= (xs[i] - m) * Math.sin(ph);
    }
    const p = re * re + im * im;
    if (p > best) { best = p; bestF = k / (n * DT); }
  }
  return bestF;
}

describe("procedural-wind twin (Zioma 2007)", () => {
  test.each([false, true])("stateless (§6.4), paper-literal %p: frame 600 evaluated directly gives the tips of 600 steps, in turbulence and gusts", (paperLiteral) => {
    const w = wind({ speed: 11, turbulence: 0.6, gust: 1, direction: 40 });
    const stepped = twin({ paperLiteral, inertia: 1 });
    const frames = run(stepped, w, 10);
    const direct = twin({ paperLiteral, inertia: 1 });
    direct.step(600 * DT, DT, w);
    const tips = new Float64Array(3 * skeleton.branchCount);
    for (let b = 0; b < skeleton.branchCount; b++) direct.tipPosition(b, tips, 3 * b);
    const last = frames[599];
    let moved = 0;
    for (let i = 0; i < tips.length; i++) {
      expect(tips[i]).toBeCloseTo(last[i], 6);
      moved = Math.max(moved, Math.abs(last[i] - frames[300][i]));
    }
    expect(moved).toBeGreaterThan(1e-5);
    // And the branch data the shader reads are the same numbers.
    expect(Array.from(direct.branchData)).toEqual(Array.from(stepped.branchData));
  });

  test("calibrated: in a steady wind the tips' static displacements are the reference beam frame's (drag.ts loads, the material)", () => {
    // Exact at every tip along x (where the own rotations were fitted) but for the attachment
    // points, which follow the parent's two-bone blend (§6.5) rather than the beam's curve, and
    // the drag's direction, superposed from the x and z fits (|u⊥| u⊥ is not linear in it).
    let worst = 0, sum = 0, count = 0;
    const ref = new ReferenceTree(skeleton, defaultMaterial());
    for (const [speed, direction] of [[8, 0], [15, 90], [12, 225]]) {
      const th = (direction * Math.PI) / 180;
      const expected = ref.staticDeflection(speed, Math.cos(th), Math.sin(th));
      const frames = run(twin({ branchSway: 0, trunkTwist: 0 }), wind({ speed, direction, turbulence: 0 }, false), 1);
      const last = frames[frames.length - 1];
      for (let b = 0; b < skeleton.branchCount; b++) {
        const r = rest(b);
        const d = [last[3 * b] - r[0], last[3 * b + 1] - r[1], last[3 * b + 2] - r[2]];
        const e = [expected[3 * b], expected[3 * b + 1], expected[3 * b + 2]];
        const err = Math.hypot(d[0] - e[0], d[1] - e[1], d[2] - e[2]) / Math.hypot(e[0], e[1], e[2]);
        worst = Math.max(worst, err);
        sum += err;
        count++;
      }
    }
    console.log(`procedural-wind static tips vs reference: mean error ${(sum / count * 100).toFixed(1)} %, worst ${(worst * 100).toFixed(1)} %`);
    expect(sum / count).toBeLessThan(0.1);
    expect(worst).toBeLessThan(0.25);
  });

  test("calibrated amplitudes come from the material; paper-literal keeps Zioma's hand-set ones", () => {
    const w = wind({ speed: 10, turbulence: 0 }, false);
    const meanMotion = (paperLiteral: boolean, youngModulus: number): number => {
      const tw = new ProceduralWindTwin(skeleton, { ...defaults, paperLiteral }, new Rng(7), { ...defaultMaterial(), youngModulus });
      const frames = run(tw, w, 4);
      let sum = 0;
      for (let b = 0; b < skeleton.branchCount; b++) sum += rmsDisplacement(frames, b);
      return sum / skeleton.branchCount;
    };
    // A wood four times as stiff bends a quarter as far (linear beams); the paper's constants ignore it.
    const soft = meanMotion(false, 8e9), stiff = meanMotion(false, 32e9);
    expect(stiff / soft).toBeGreaterThan(0.2);
    expect(stiff / soft).toBeLessThan(0.3);
    expect(meanMotion(true, 32e9)).toBe(meanMotion(true, 8e9));
    // And the paper's amplitudes are its own: centimetres on this 6 m tree where the beam says tenths of a millimetre.
    expect(meanMotion(true, 8.6e9)).toBeGreaterThan(20 * meanMotion(false, 8.6e9));
  });

  test("zero wind (speed 0, gust 0) leaves the tree exactly at rest", () => {
    const tw = twin();
    const frames = run(tw, wind({ speed: 0, gust: 0, turbulence: 0.5 }), 5);
    const q = [0, 0, 0, 0];
    for (let b = 0; b < skeleton.branchCount; b++) {
      tw.branchQuaternion(b, q);
      expect(q).toEqual([0, 0, 0, 1]);
      const r = rest(b);
      const p = frames[frames.length - 1];
      expect([p[3 * b], p[3 * b + 1], p[3 * b + 2]]).toEqual(r.map((v) => Math.fround(v)));
    }
    // Any vertex, any w-vector: unchanged position and normal.
    const out = [0, 0, 0, 0, 0, 0];
    tw.deformVertex([0.3, 4.2, -0.7], [0, 0, 1], 7, [0.5, 0.5, 0.3, 0], out);
    expect(out).toEqual([0.3, 4.2, -0.7, 0, 0, 1]);
  });

  test("the amplitude grows with the wind speed", () => {
    const rms = [3, 8, 16].map((speed) => {
      const frames = run(twin(), wind({ speed }), 20);
      let s = 0;
      for (let b = 0; b < skeleton.branchCount; b++) s += rmsDisplacement(frames, b);
      return s / skeleton.branchCount;
    });
    expect(rms[0]).toBeGreaterThan(0);
    expect(rms[1]).toBeGreaterThan(1.5 * rms[0]);
    expect(rms[2]).toBeGreaterThan(1.5 * rms[1]);
  });

  test("a stiffer tree moves less and more slowly (Fig. 6-3)", () => {
    // Calibrated, the trunk answers the turbulence at its first mode, 1/√s slower, 1/s smaller.
    const gusty = () => wind({ speed: 10, turbulence: 0.6 }, false);
    const soft = run(twin({ stiffness: 1, branchSway: 0 }), gusty(), 20);
    const stiff = run(twin({ stiffness: 3, branchSway: 0 }), gusty(), 20);
    const xSoft = series(soft, 0, 0), xStiff = series(stiff, 0, 0);
    expect(std(xStiff)).toBeLessThan(0.6 * std(xSoft));
    expect(rmsDisplacement(stiff, 0)).toBeLessThan(0.6 * rmsDisplacement(soft, 0));
    expect(dominantFrequency(xStiff)).toBeLessThan(0.8 * dominantFrequency(xSoft));
  });

  test("the trunk moves much more along the wind than across it", () => {
    for (const direction of [0, 90, 210]) {
      const frames = run(twin(), wind({ speed: 10, direction, turbulence: 0.2 }), 20);
      const th = (direction * Math.PI) / 180;
      const dx = Math.cos(th), dz = Math.sin(th);
      const r = rest(0);
      let par = 0, perp = 0;
      for (let f = 120; f < frames.length; f++) {
        const ex = frames[f][0] - r[0], ez = frames[f][2] - r[2];
        par += (ex * dx + ez * dz) ** 2;
        perp += (-ex * dz + ez * dx) ** 2;
      }
      // Across: the turbulence's lateral part and the crown's asymmetry (the beam's cross compliance).
      expect(Math.sqrt(par)).toBeGreaterThan(2.5 * Math.sqrt(perp));
    }
  });

  test("a branch behind the trunk sways more than one facing the wind (Figs 6-4, 6-5)", () => {
    // Wind toward +x: branch 1 points +x (behind the trunk), branch 4 points -x (facing the wind).
    const tw = twin({ phaseRandomization: 0 });
    const w = wind({ speed: 10, turbulence: 0 }, false);
    const angleBehind: number[] = [], angleFacing: number[] = [];
    const q = [0, 0, 0, 0];
    for (let f = 1; f <= 1200; f++) {
      tw.step(f * DT, DT, w);
      tw.branchQuaternion(1, q);
      angleBehind.push(2 * Math.atan2(q[2], q[3]));
      tw.branchQuaternion(4, q);
      angleFacing.push(2 * Math.atan2(q[2], q[3]));
    }
    expect(std(angleBehind.slice(120))).toBeGreaterThan(1.5 * std(angleFacing.slice(120)));
    // The facing branch is pressed toward the trunk: on average turned downwind (negative about z for +x wind... its tip moves +x).
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(Math.abs(mean(angleFacing.slice(120)))).toBeGreaterThan(Math.abs(mean(angleBehind.slice(120))));
  });

  test("trunkTwist turns the trunk about its own axis, and only it does (§6.3.3)", () => {
    const w = wind({ speed: 12 });
    // Component of the trunk's rotation about its axis t0, per frame. Calibrated, the crown's
    // asymmetric load twists the trunk a little of itself (the beam's torsion); trunkTwist adds to that.
    const along = (trunkTwist: number, paperLiteral: boolean): number[] => {
      const tw = twin({ trunkTwist, paperLiteral });
      const q = [0, 0, 0, 0], out: number[] = [];
      for (let f = 1; f <= 600; f++) {
        tw.step(f * DT, DT, w);
        tw.branchQuaternion(0, q);
        out.push(q[0] * skeleton.branchFrame[0] + q[1] * skeleton.branchFrame[1] + q[2] * skeleton.branchFrame[2]);
      }
      return out;
    };
    const rmsOf = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0) / xs.length);
    const twistRms = (trunkTwist: number): number => {
      const base = along(0, false);
      return rmsOf(along(trunkTwist, false).map((x, i) => x - base[i]));
    };
    // Paper-literal: a pure lean has no component about t0 at all.
    expect(rmsOf(along(0, true))).toBeLessThan(1e-7);
    expect(rmsOf(along(0.3, true))).toBeGreaterThan(1e-4);
    const none = twistRms(0), some = twistRms(0.3), more = twistRms(0.6);
    expect(none).toBe(0);
    expect(some).toBeGreaterThan(0);
    expect(more).toBeGreaterThan(1.7 * some);
  });

  test("paper-literal: flutterFrequency sets how fast the branches sway", () => {
    const w = wind({ speed: 10, turbulence: 0 }, false);
    const sway = (flutterFrequency: number): number[] => {
      const tw = twin({ flutterFrequency, phaseRandomization: 0, paperLiteral: true });
      const q = [0, 0, 0, 0], out: number[] = [];
      for (let f = 1; f <= 1200; f++) {
        tw.step(f * DT, DT, w);
        tw.branchQuaternion(1, q);
        out.push(2 * Math.atan2(q[2], q[3]));
      }
      return out.slice(120);
    };
    const slow = dominantFrequency(sway(0.5)), fast = dominantFrequency(sway(1.5));
    expect(fast).toBeGreaterThan(2.4 * slow);
    expect(fast).toBeLessThan(3.6 * slow);
  });

  test("inertia releases the windward branch while the trunk swings back (§6.3.3)", () => {
    // Gusts make the trunk swing back; with inertia the branch pressed toward it (4) is let go.
    const w = wind({ speed: 12, gust: 1, turbulence: 0.5 });
    const facingSway = (inertia: number): number => {
      const tw = twin({ inertia, phaseRandomization: 0, branchSway: 0.6 });
      const q = [0, 0, 0, 0], angles: number[] = [];
      for (let f = 1; f <= 2400; f++) {
        tw.step(f * DT, DT, w);
        tw.branchQuaternion(4, q);
        angles.push(2 * Math.atan2(q[2], q[3]));
      }
      return std(angles.slice(120));
    };
    const held = facingSway(0), released = facingSway(1);
    expect(released).toBeGreaterThan(1.05 * held);
  });

  test("same seed, same tips; another seed, other tips", () => {
    const a = run(twin({}, 11), wind({ speed: 9 }), 3);
    const b = run(twin({}, 11), wind({ speed: 9 }), 3);
    const c = run(twin({}, 12), wind({ speed: 9 }), 3);
    expect(a[a.length - 1]).toEqual(b[b.length - 1]);
    expect(a[a.length - 1]).not.toEqual(c[c.length - 1]);
  });

  test("damping lowers the overshoot when the wind drops (Fig. 6-2 segment B), and sets the first mode's ζ", () => {
    // A steady wind that stops at 10 s (a function of time): the trunk springs back past its rest
    // position and rings at its first mode, ζ = dampingRatio(damping) (the air's share is 0 in calm).
    const ring = (damping: number) => {
      const tw = twin({ damping, branchSway: 0 });
      const w = stoppingWind(12, 10);
      const p = [0, 0, 0];
      tw.step(10, DT, w);
      tw.tipPosition(0, p, 0);
      const lean = p[0] - rest(0)[0];
      const x: number[] = [];
      for (let f = 1; f <= 600; f++) {
        tw.step(10 + f * DT, DT, w);
        tw.tipPosition(0, p, 0);
        x.push(p[0] - rest(0)[0]);
      }
      return { lean, overshoot: -Math.min(...x), x, hz: tw.trunkFrequency };
    };
    const low = ring(0.05), high = ring(0.9);
    expect(low.lean).toBeGreaterThan(0);
    expect(low.overshoot).toBeGreaterThan(0.5 * low.lean);
    expect(high.overshoot).toBeLessThan(0.3 * low.overshoot);
    const m = freeMotionOf(Float64Array.from(low.x), DT);
    expect(Math.abs(m.hz / low.hz - 1)).toBeLessThan(0.05);
    expect(Math.abs(m.zeta / dampingRatio(0.05) - 1)).toBeLessThan(0.1);
  });

  test("quaternion concatenation matches composing the rotations", () => {
    const a = [0, 0, 0, 0], b = [0, 0, 0, 0], ab = [0, 0, 0, 0];
    quatFromRotationVector(0.3, -0.2, 0.5, a, 0);
    quatFromRotationVector(-0.7, 0.1, 0.25, b, 0);
    quatMultiply(a, 0, b, 0, ab, 0);
    const v1 = [0, 0, 0], v2 = [0, 0, 0];
    quatRotate(b, 0, 1, 2, 3, v1, 0);
    quatRotate(a, 0, v1[0], v1[1], v1[2], v1, 0);
    quatRotate(ab, 0, 1, 2, 3, v2, 0);
    for (let i = 0; i < 3; i++) expect(v2[i]).toBeCloseTo(v1[i], 12);
    // A rotation of pi/2 about y turns +x into -z.
    quatFromRotationVector(0, Math.PI / 2, 0, a, 0);
    quatRotate(a, 0, 1, 0, 0, v1, 0);
    expect(v1[0]).toBeCloseTo(0, 12);
    expect(v1[2]).toBeCloseTo(-1, 12);
  });

  test("deformVertex concatenates the branch and its ancestors about their origins (§6.4, §6.5)", () => {
    const tw = twin();
    const w = wind({ speed: 14 });
    for (let f = 1; f <= 90; f++) tw.step(f * DT, DT, w);
    // The tip of the level-3 twig 3: w = 1 along itself, ancestors at their parentX.
    const b = 3;
    const node = tipNode(skeleton, b);
    const wv = [0, 0, 0, 0];
    tw.nodeWVector(node, wv);
    expect(wv[3]).toBe(1);
    const out = [0, 0, 0, 0, 0, 0];
    const p0 = rest(b);
    tw.deformVertex(p0, [0, 1, 0], b, wv, out);
    // By hand: chain b -> 2 -> 1 -> 0, each blended rotation about its origin.
    let p = p0.slice();
    const chain = [3, 2, 1, 0];
    for (const c of chain) {
      const d = tw.branchData;
      const o0 = branchTexel(c, 0), o1 = branchTexel(c, 1), o3 = branchTexel(c, 3);
      const level = skeleton.branchLevel[c];
      const k = 1 - Math.pow(1 - wv[level], d[o3 + 3]);
      const q = [d[o1] * k, d[o1 + 1] * k, d[o1 + 2] * k, 1 - k + d[o1 + 3] * k];
      const l = Math.hypot(q[0], q[1], q[2], q[3]);
      const qn = q.map((x) => x / l);
      const r = [0, 0, 0];
      quatRotate(qn, 0, p[0] - d[o0], p[1] - d[o0 + 1], p[2] - d[o0 + 2], r, 0);
      p = [r[0] + d[o0], r[1] + d[o0 + 1], r[2] + d[o0 + 2]];
    }
    // 1e-6 m: the ancestors' composite is stored in float32, exactly as the vertex shader reads it.
    for (let i = 0; i < 3; i++) expect(out[i]).toBeCloseTo(p[i], 6);
    expect(Math.hypot(out[3], out[4], out[5])).toBeCloseTo(1, 7);
    // It moved.
    expect(Math.hypot(out[0] - p0[0], out[1] - p0[1], out[2] - p0[2])).toBeGreaterThan(1e-3);
  });

  test("a vertex at a branch's base follows its parent (two-bone blend at the joint, §6.5)", () => {
    const tw = twin();
    const w = wind({ speed: 14 });
    for (let f = 1; f <= 90; f++) tw.step(f * DT, DT, w);
    const b = 1; // level 1 at parentX 0.5 of the trunk
    const base = skeleton.branchFirstNode[b];
    const p = [skeleton.nodePosition[3 * base], skeleton.nodePosition[3 * base + 1], skeleton.nodePosition[3 * base + 2]];
    const own = [0, 0, 0, 0, 0, 0], parent = [0, 0, 0, 0, 0, 0];
    tw.deformVertex(p, [1, 0, 0], b, [0.5, 0, 0, 0], own);
    tw.deformVertex(p, [1, 0, 0], 0, [0.5, 0, 0, 0], parent);
    // 1e-6: through the float32 composite transform (see above); a hinge would be off by centimetres.
    for (let i = 0; i < 6; i++) expect(own[i]).toBeCloseTo(parent[i], 6);
  });

  test("the wind's vertical component: an updraft lifts the branches, a downdraft presses them down, the trunk stays", () => {
    // Speed 0: the only wind is the vertical mean (no turbulence at speed 0), modulated, no gusts.
    const still = wind({ speed: 0, vertical: 0, turbulence: 0 });
    const calm = run(twin(), still, 3);
    const up = run(twin(), wind({ speed: 0, vertical: 8, turbulence: 0 }), 3);
    const down = run(twin(), wind({ speed: 0, vertical: -8, turbulence: 0 }), 3);
    const last = (frames: Float64Array[]) => frames[frames.length - 1];
    for (let b = 0; b < skeleton.branchCount; b++) {
      const r = rest(b), c = last(calm), u = last(up), d = last(down);
      expect(c[3 * b + 1]).toBeCloseTo(r[1], 6); // no wind, no motion
      if (b === 0) {
        // The trunk is vertical: a vertical wind has nothing across it to push.
        for (let k = 0; k < 3; k++) expect(u[k]).toBeCloseTo(r[k], 6);
        continue;
      }
      // The fixture is a stiff 6 m oak: an 8 m/s updraft lifts its tips by tenths of a millimetre.
      expect(u[3 * b + 1] - c[3 * b + 1]).toBeGreaterThan(1e-5);
      expect(d[3 * b + 1] - c[3 * b + 1]).toBeLessThan(-1e-5);
    }
    // On top of a horizontal wind the updraft still lifts the tips on average, and the faster the higher.
    const meanY = (vertical: number): number => {
      const frames = run(twin(), wind({ speed: 8, vertical, turbulence: 0 }, false), 6);
      let sum = 0, n = 0;
      for (let f = 120; f < frames.length; f++) for (let b = 1; b < skeleton.branchCount; b++) { sum += frames[f][3 * b + 1]; n++; }
      return sum / n;
    };
    const y0 = meanY(0), y4 = meanY(4), y8 = meanY(8);
    // Drag goes with the square of the wind across: twice the updraft, about four times the lift.
    expect(y4).toBeGreaterThan(y0 + 1e-6);
    expect(y8 - y0).toBeGreaterThan(3 * (y4 - y0));
  });

  test("no NaN over a long gusty run at 40 m/s", () => {
    const tw = twin({ damping: 0, stiffness: 0.25, branchSway: 0.6 });
    run(tw, wind({ speed: 40, gust: 1, turbulence: 1 }), 10);
    expect(tw.hasNonFinite()).toBe(false);
  });
});
