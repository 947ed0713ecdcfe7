import { smallTree, twigChain } from "./fixtures";
import { DEFAULT_MASS_SPRING, MassSpringSystem, explicitEulerStep } from "../../../app/animators/mass-spring/system";
import { ImplicitEuler } from "../../../app/animators/mass-spring/implicit";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../../app/lsystem/presets";

const H = 1 / 30;

function segmentAngle(sys: MassSpringSystem, i: number): number {
  const x = sys.position, j = sys.parent[i], k = sys.parent[j];
  const a = [0, 1, 2].map((c) => x[3 * i + c] - x[3 * j + c]), b = [0, 1, 2].map((c) => x[3 * k + c] - x[3 * j + c]);
  const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  return Math.acos(Math.max(-1, Math.min(1, dot / (Math.hypot(...a) * Math.hypot(...b)))));
}

describe("MassSpringSystem (Van Haevre 2006 §4.2)", () => {
  it("one connected tree: a branch's base merges with the node it grows from; root and anchor fixed", () => {
    const s = smallTree(), sys = new MassSpringSystem(s);
    expect(sys.count).toBe(1 + s.nodeCount - (s.branchCount - 1)); // the anchor, less the merged base nodes
    for (let b = 1; b < s.branchCount; b++) expect(sys.massOfNode[s.branchFirstNode[b]]).toBe(sys.massOfNode[s.branchOrigin[b]]);
    for (let i = 1; i < sys.count; i++) expect(sys.parent[i]).toBeLessThan(i);
    expect(Array.from(sys.fixed.slice(0, 2))).toEqual([1, 1]);
    expect(sys.massOfNode[0]).toBe(1);
  });

  it("(d) each joint's mass exceeds the sum of its descendants' masses", () => {
    const sys = new MassSpringSystem(smallTree()), d = sys.descendantMass();
    for (let i = 1; i < sys.count; i++) expect(sys.mass[i]).toBeGreaterThan(d[i]);
    // and the angular springs are softer higher up the tree (they follow the masses)
    for (let i = 2; i < sys.count; i++) if (sys.parent[i] >= 2) expect(sys.bendK[i]).toBeLessThan(sys.bendK[sys.parent[i]]);
    // as rotational stiffnesses k_bend L² (∝ the moment of inertia each joint carries), on a real tree too
    const habel = new MassSpringSystem(grammarToSkeleton(TREE_PRESETS.find((p) => p.name === "habel")!.text, { seed: 1 }));
    const rot = (i: number) => habel.bendK[i] * habel.restLength[i] ** 2;
    let rising = 0;
    for (let i = 2; i < habel.count; i++) if (habel.parent[i] >= 2 && !(rot(i) < rot(habel.parent[i]))) rising++;
    expect(rising).toBe(0);
  });

  it("is at rest in its rest pose: no spring force", () => {
    const sys = new MassSpringSystem(smallTree()), f = new Float64Array(3 * sys.count);
    sys.forces(f);
    for (let i = 0; i < f.length; i++) expect(Math.abs(f[i])).toBeLessThan(1e-9 * sys.mass[1]);
  });

  it("(a) at dt = 1/30 s implicit Euler stays bounded over 10 s where explicit Euler diverges", () => {
    const s = smallTree();
    const imp = new MassSpringSystem(s), exp = new MassSpringSystem(s);
    const solver = new ImplicitEuler(imp);
    const f = new Float64Array(3 * exp.count);
    for (let step = 0; step < 300; step++) {
      const gust = step < 60 ? 1 : 0;
      imp.windDrag(15 * gust, 0, 5 * gust);
      exp.windDrag(15 * gust, 0, 5 * gust);
      solver.step(H);
      explicitEulerStep(exp, H, f);
      expect(solver.stats.converged).toBe(true);
    }
    expect(imp.isFinite()).toBe(true);
    expect(imp.maxDisplacement()).toBeLessThan(1);
    expect(exp.isFinite() ? exp.maxDisplacement() : Infinity).toBeGreaterThan(1e3);
  });

  it("(b) with the external force off after a push, the tree returns to rest", () => {
    const sys = new MassSpringSystem(smallTree()), solver = new ImplicitEuler(sys);
    let pushed = 0;
    for (let step = 0; step < 30; step++) {
      sys.windDrag(20, 0, 0);
      solver.step(H);
      pushed = Math.max(pushed, sys.maxDisplacement());
    }
    expect(pushed).toBeGreaterThan(0.05);
    sys.external.fill(0);
    for (let step = 0; step < 600; step++) solver.step(H);
    expect(sys.maxDisplacement()).toBeLessThan(1e-3);
  });

  it("(c) segment lengths stay within 1 % under a strong wind-like force", () => {
    const sys = new MassSpringSystem(smallTree()), solver = new ImplicitEuler(sys);
    let strain = 0, bend = 0;
    for (let step = 0; step < 150; step++) {
      sys.windDrag(40, 0, 10);
      solver.step(H);
      strain = Math.max(strain, sys.maxStrain());
      bend = Math.max(bend, sys.maxDisplacement());
    }
    expect(bend).toBeGreaterThan(0.1);
    expect(strain).toBeLessThan(0.01);
  });

  it("(e) angular springs hold rest angles: a static load bends a branch, removing it restores the angle", () => {
    const sys = new MassSpringSystem(smallTree()), solver = new ImplicitEuler(sys);
    const s = sys.skeleton;
    const tip = sys.massOfNode[s.branchFirstNode[1] + 3], joint = sys.massOfNode[s.branchFirstNode[1] + 1];
    const rest = segmentAngle(sys, sys.massOfNode[s.branchFirstNode[1] + 2]);
    const load = 0.2 * sys.mass[joint] * 9.81;
    for (let step = 0; step < 300; step++) {
      sys.external.fill(0);
      sys.external[3 * tip + 1] = -load;
      solver.step(H);
    }
    const loaded = segmentAngle(sys, sys.massOfNode[s.branchFirstNode[1] + 2]);
    expect(Math.abs(loaded - rest)).toBeGreaterThan(0.01);
    expect(Math.abs(sys.velocity[3 * tip + 1])).toBeLessThan(1e-3); // static
    sys.external.fill(0);
    for (let step = 0; step < 600; step++) solver.step(H);
    for (let i = 2; i < sys.count; i++) expect(Math.abs(segmentAngle(sys, i) - Math.acos(Math.max(-1, Math.min(1, sys.cosAlpha[i]))))).toBeLessThan(1e-3);
  });

  it("(f) the analytic ∂f/∂x matches finite differences", () => {
    const check = (sys: MassSpringSystem, tol: number): void => {
      const h = 1e-2, solver = new ImplicitEuler(sys);
      sys.velocity.fill(0);
      solver.assemble(h);
      const n = sys.count, A = solver.matrix.toDense(), m = 3 * n;
      const f0 = new Float64Array(m), f1 = new Float64Array(m);
      let worst = 0, scale = 0;
      for (let col = 6; col < m; col++) {
        const e = 1e-6 * Math.max(1, Math.abs(sys.position[col]));
        const keep = sys.position[col];
        sys.position[col] = keep + e;
        sys.forces(f1);
        sys.position[col] = keep - e;
        sys.forces(f0);
        sys.position[col] = keep;
        for (let row = 6; row < m; row++) {
          const fd = (f1[row] - f0[row]) / (2 * e);
          const ri = Math.floor(row / 3);
          const analytic = -(A[row * m + col] - (row === col ? sys.mass[ri] : 0)) / (h * h);
          worst = Math.max(worst, Math.abs(fd - analytic));
          scale = Math.max(scale, Math.abs(fd));
        }
      }
      expect(worst / scale).toBeLessThan(tol);
    };
    const undamped = { ...DEFAULT_MASS_SPRING, damping: 0 };
    // At rest (C = 0 everywhere) every spring's Jacobian is exact.
    const atRest = new MassSpringSystem(smallTree(), undamped);
    zeroDamping(atRest);
    check(atRest, 1e-5);
    // Stretched and perturbed, linear springs only: their tension's geometric stiffness included.
    const stretched = new MassSpringSystem(smallTree(), { ...undamped, stiffness: 0 });
    zeroDamping(stretched);
    for (let i = 2; i < stretched.count; i++) {
      for (let c = 0; c < 3; c++) stretched.position[3 * i + c] = stretched.rest[3 + c] + 1.05 * (stretched.rest[3 * i + c] - stretched.rest[3 + c]) + 0.01 * Math.sin(7 * i + c);
    }
    expect(stretched.maxStrain()).toBeGreaterThan(0.02);
    check(stretched, 1e-5);
  });

  // Once, with each joint's spring sized for its own mass and eq. 3's damping proportional to
  // the stiffness, a twig chain's slowest modes sat at ~0.17 Hz with ζ ≈ 0.04 and decayed at
  // ~0.04 /s (3.5 cm still off rest 30 s after a 1.7 m swing).
  it("(g) a long twig chain's slowest motion decays at over 1 /s at damping 0.3 (small, linear amplitude)", () => {
    const sys = new MassSpringSystem(twigChain(16)), solver = new ImplicitEuler(sys), h = 1 / 60;
    for (let step = 0; step < 60; step++) {
      sys.windDrag(10, 0, 3);
      solver.step(h);
    }
    // The wind's shape scaled to 1 mm, released from rest: every mode the push excites.
    const scale = 1e-3 / sys.maxDisplacement();
    for (let c = 0; c < sys.position.length; c++) sys.position[c] = sys.rest[c] + scale * (sys.position[c] - sys.rest[c]);
    sys.velocity.fill(0);
    sys.external.fill(0);
    const envelope = (from: number, to: number): number => {
      let m = 0;
      for (let step = Math.round(from / h); step < Math.round(to / h); step++) {
        solver.step(h);
        m = Math.max(m, sys.maxDisplacement());
      }
      return m;
    };
    envelope(0, 1);
    const early = envelope(1, 2);
    envelope(2, 4);
    const late = envelope(4, 5);
    const rate = Math.log(early / late) / 3;
    expect(rate).toBeGreaterThan(1);
  });

  it("(h) the habel tree, swung over 1 m by a strong wind, is back within 5 mm of rest 5 s after the wind stops", () => {
    const s = grammarToSkeleton(TREE_PRESETS.find((p) => p.name === "habel")!.text, { seed: 1 });
    const sys = new MassSpringSystem(s), solver = new ImplicitEuler(sys);
    let swung = 0;
    for (let step = 0; step < 60; step++) {
      sys.windDrag(25, 0, 7.5);
      solver.step(H);
      swung = Math.max(swung, sys.maxDisplacement());
    }
    expect(swung).toBeGreaterThan(1);
    sys.external.fill(0);
    for (let step = 0; step < 150; step++) solver.step(H);
    expect(sys.isFinite()).toBe(true);
    expect(sys.maxDisplacement()).toBeLessThan(5e-3);
  });
});

function zeroDamping(sys: MassSpringSystem): void {
  sys.linearKd.fill(0);
  sys.bendKd.fill(0);
  sys.airDamping = 0;
}
