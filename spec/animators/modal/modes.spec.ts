/**
 * The modal step: a free mode's frequency and logarithmic decrement (ζ from the damping slider),
 * the modal statics against the reference solver's static deflection as modes are added, the
 * dynamics settling on the modal statics in a steady wind, and the twin's per-vertex blend.
 */
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../../app/lsystem/presets";
import { materialOf } from "../../../app/physics/material";
import { ReferenceTree, windLoads } from "../../../app/physics/reference";
import { tipNode, type TreeSkeleton } from "../../../app/tree/skeleton";
import { buildTreeGeometry } from "../../../app/tree/geometry";
import { ModalDynamics, dampingRatio, modalBasis, massProduct, oscillatorStep, MAX_MODES } from "../../../app/animators/modal/modes";
import { ModalTwin } from "../../../app/animators/modal/twin";

const mat = materialOf("oak");

function preset(name: string): TreeSkeleton {
  const p = TREE_PRESETS.find((t) => t.name === name)!;
  return grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1, fileName: `${name}.lsys` });
}

const demo = preset("demo");

/** A steady, uniform wind along +x. */
const steady = (speed: number) => ({
  sample(_x: number, _y: number, _z: number, _t: number, out: Float64Array, o = 0): void {
    out[o] = speed; out[o + 1] = 0; out[o + 2] = 0;
  },
});

describe("the damping slider", () => {
  it("maps 0 → ζ 0.01, 0.5 → 0.1, 1 → 1 on a log scale", () => {
    expect(dampingRatio(0)).toBeCloseTo(0.01, 12);
    expect(dampingRatio(0.5)).toBeCloseTo(0.1, 12);
    expect(dampingRatio(1)).toBeCloseTo(1, 12);
  });
});

describe("the exact oscillator step", () => {
  it("is the closed form of an underdamped mode", () => {
    const w = 7, z = 0.2, dt = 0.05, out = new Float64Array(6);
    oscillatorStep(w, z, dt, out);
    const wd = w * Math.sqrt(1 - z * z), e = Math.exp(-z * w * dt), c = Math.cos(wd * dt), s = Math.sin(wd * dt);
    expect(out[0]).toBeCloseTo(e * (c + (z * w / wd) * s), 12);
    expect(out[1]).toBeCloseTo(e * s / wd, 12);
    expect(out[2]).toBeCloseTo(-e * w * w * s / wd, 12);
    expect(out[3]).toBeCloseTo(e * (c - (z * w / wd) * s), 12);
    expect(out[4]).toBeCloseTo((1 - out[0]) / (w * w), 12); // a held force's step response
  });

  it("is stable for a stiff mode at a long step (ζ = 0.01)", () => {
    const out = new Float64Array(6);
    oscillatorStep(2 * Math.PI * 400, 0.01, 1 / 30, out);
    expect(out.every(Number.isFinite)).toBe(true);
    expect(Math.hypot(out[0], out[3])).toBeLessThan(Math.SQRT2);
  });
});

describe("modal dynamics of the demo tree", () => {
  const basis = modalBasis(demo, mat, MAX_MODES);

  it("has M-orthonormal modes: modal masses 1", () => {
    process.stdout.write(`demo tree: ${basis.frame.jointCount} joints, ${basis.count} modes, Hz ${Array.from(basis.omega).map((w) => (w / (2 * Math.PI)).toFixed(2)).join(" ")}\n`);
    expect(basis.count).toBe(MAX_MODES);
    for (let k = 0; k < basis.count; k++) expect(basis.modalMass[k]).toBeCloseTo(1, 6);
    expect(Math.abs(massProduct(basis.frame, basis.vectors[0], basis.vectors[1]))).toBeLessThan(1e-6);
  });

  it("a single mode released from q0 rings at f_k, its logarithmic decrement giving ζ within 2 % (damping 0.3)", () => {
    const zeta = dampingRatio(0.3);
    for (const k of [0, 5]) {
      const d = new ModalDynamics(demo, mat, basis, basis.count, zeta);
      d.q[k] = 0.1;
      const fk = basis.omega[k] / (2 * Math.PI), dt = 1 / 600, n = Math.ceil(12 / fk / dt);
      const qs = new Float64Array(n + 1);
      qs[0] = d.q[k];
      for (let i = 1; i <= n; i++) { d.force.fill(0); d.integrate(dt); qs[i] = d.q[k]; }
      // Peaks by parabolic interpolation.
      const peaks: { t: number; x: number }[] = [];
      for (let i = 1; i < n; i++) {
        if (qs[i] > qs[i - 1] && qs[i] >= qs[i + 1]) {
          const a = qs[i - 1], b = qs[i], c = qs[i + 1], off = (0.5 * (a - c)) / (a - 2 * b + c);
          peaks.push({ t: (i + off) * dt, x: b - 0.25 * (a - c) * off });
        }
      }
      const cycles = peaks.length - 1;
      const delta = Math.log(peaks[0].x / peaks[cycles].x) / cycles;
      const zMeasured = delta / Math.sqrt(4 * Math.PI * Math.PI + delta * delta);
      const fd = cycles / (peaks[cycles].t - peaks[0].t);
      const fMeasured = fd / Math.sqrt(1 - zMeasured * zMeasured);
      process.stdout.write(`mode ${k}: f_k ${fk.toFixed(4)} Hz, measured ${fMeasured.toFixed(4)} Hz; ζ ${zeta.toFixed(5)}, from the decrement ${zMeasured.toFixed(5)} (${cycles} cycles)\n`);
      expect(Math.abs(zMeasured / zeta - 1)).toBeLessThan(0.02);
      expect(Math.abs(fMeasured / fk - 1)).toBeLessThan(0.005);
    }
  });

  it("with the static correction, the statics are the reference's static deflection at every tip, whatever the number of modes", () => {
    const ref = new ReferenceTree(demo, mat);
    const U = 10, nb = demo.branchCount;
    const exact = ref.staticDeflection(U, 1, 0);
    const load = new Float64Array(basis.frame.dofCount);
    windLoads(basis.frame, demo, mat, U, 1, 0, load, new Float64Array(6));
    let big = 0;
    for (let i = 0; i < exact.length; i++) big = Math.max(big, Math.abs(exact[i]));
    expect(big).toBeGreaterThan(1e-3);
    for (const count of [1, 5, 12, 20]) {
      const d = new ModalDynamics(demo, mat, basis, count, 0.05);
      expect(d.staticCorrection).toBe(true);
      d.project(load);
      d.solveStatic();
      let worst = 0;
      for (let b = 0; b < nb; b++) {
        const k = tipNode(demo, b);
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(d.nodeDisplacement[3 * k + c] - exact[3 * b + c]));
      }
      expect(worst).toBeLessThan(1e-9 * big + 1e-12);
      // Off, the same modes alone leave part of the bend out.
      d.setStaticCorrection(false);
      d.composeNodes();
      let missed = 0;
      for (let b = 0; b < nb; b++) missed = Math.max(missed, Math.abs(d.nodeDisplacement[3 * tipNode(demo, b)] - exact[3 * b]));
      expect(missed).toBeGreaterThan(1e-4 * big);
    }
  });

  it("modal statics approach the reference's static deflection at the tips as modes are added (no static correction)", () => {
    const ref = new ReferenceTree(demo, mat);
    const U = 10, nb = demo.branchCount;
    const exact = ref.staticDeflection(U, 1, 0);
    const load = new Float64Array(basis.frame.dofCount);
    windLoads(basis.frame, demo, mat, U, 1, 0, load, new Float64Array(6));
    let refMean = 0;
    for (let b = 0; b < nb; b++) refMean += exact[3 * b] / nb;
    const ratios: number[] = [];
    for (const count of [1, 2, 5, 10, 20]) {
      const d = new ModalDynamics(demo, mat, basis, count, 0.05);
      d.staticCorrection = false;
      d.project(load);
      d.solveStatic();
      let mean = 0;
      for (let b = 0; b < nb; b++) mean += d.nodeDisplacement[3 * tipNode(demo, b)] / nb;
      ratios.push(mean / refMean);
    }
    process.stdout.write(`demo tree, ${U} m/s: reference mean tip deflection downwind ${(refMean * 100).toFixed(2)} cm; modal / reference with 1, 2, 5, 10, 20 modes: ${ratios.map((r) => r.toFixed(3)).join(", ")}\n`);
    for (let i = 1; i < ratios.length; i++) expect(Math.abs(1 - ratios[i])).toBeLessThanOrEqual(Math.abs(1 - ratios[i - 1]) + 0.02);
    expect(Math.abs(1 - ratios[ratios.length - 1])).toBeLessThan(0.15);
  });

  it("settles in a steady wind on the modal statics of the same load (leaves included)", () => {
    const U = 8, count = 12;
    const d = new ModalDynamics(demo, mat, basis, count, dampingRatio(0.6));
    for (let i = 0; i < 60 * 40; i++) d.step(steady(U), i / 60, 1 / 60);
    const s = new ModalDynamics(demo, mat, basis, count, 0.1);
    const load = new Float64Array(basis.frame.dofCount);
    windLoads(basis.frame, demo, mat, U, 1, 0, load, new Float64Array(6));
    s.project(load);
    s.solveStatic();
    let worst = 0, big = 0;
    for (let b = 0; b < demo.branchCount; b++) {
      const k = tipNode(demo, b);
      for (let c = 0; c < 3; c++) {
        worst = Math.max(worst, Math.abs(d.nodeDisplacement[3 * k + c] - s.nodeDisplacement[3 * k + c]));
        big = Math.max(big, Math.abs(s.nodeDisplacement[3 * k + c]));
      }
    }
    process.stdout.write(`steady ${U} m/s, 40 s: largest tip difference from the modal statics ${worst.toExponential(2)} m of ${big.toFixed(4)} m\n`);
    expect(big).toBeGreaterThan(1e-3);
    expect(worst).toBeLessThan(1e-3 * big);
    expect(d.hasNonFinite()).toBe(false);
  });

  it("comes back to rest when the wind stops", () => {
    const d = new ModalDynamics(demo, mat, basis, 12, dampingRatio(0.3));
    for (let i = 0; i < 300; i++) d.step(steady(12), i / 60, 1 / 60);
    const e0 = d.energy();
    for (let i = 0; i < 60 * 60; i++) d.step(steady(0), i / 60, 1 / 60);
    expect(e0).toBeGreaterThan(0);
    expect(d.energy()).toBeLessThan(1e-6 * e0);
  });

  it("the twin moves every vertex by Σ w_i d(node_i)", () => {
    const d = new ModalDynamics(demo, mat, basis, 12, dampingRatio(0.3));
    for (let i = 0; i < 90; i++) d.step(steady(14), i / 60, 1 / 60);
    const twin = new ModalTwin(demo);
    twin.setDisplacements(d.nodeDisplacement);
    const g = buildTreeGeometry(demo);
    const out = new Float64Array(6);
    let worst = 0, moved = 0;
    for (const m of [g.bark, g.leaves!]) {
      const n = m.positions.length / 3;
      for (let v = 0; v < n; v++) {
        const P = m.positions.subarray(3 * v, 3 * v + 3), N = m.normals.subarray(3 * v, 3 * v + 3);
        twin.deformVertex(P, N, m.skinNodes.subarray(4 * v, 4 * v + 4), m.skinWeights.subarray(4 * v, 4 * v + 4), out);
        for (let c = 0; c < 3; c++) {
          let e = P[c];
          for (let i = 0; i < 4; i++) e += m.skinWeights[4 * v + i] * d.nodeDisplacement[3 * m.skinNodes[4 * v + i] + c];
          worst = Math.max(worst, Math.abs(out[c] - e));
          moved = Math.max(moved, Math.abs(out[c] - P[c]));
          expect(out[3 + c]).toBe(N[c]);
        }
      }
    }
    expect(moved).toBeGreaterThan(1e-3);
    expect(worst).toBeLessThan(1e-6 * Math.max(1, moved));
  });
});
