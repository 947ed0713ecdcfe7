/**
 * The reference solver against closed forms: a uniform cantilever's first three bending frequencies
 * (β_n L = 1.8751, 4.6941, 7.8548) and its tip deflection under a uniform load (w L⁴ / 8 E I); a
 * linearly tapered cantilever's shape under a uniform load against Habel 2009's eq. 25 and Table 1;
 * the error falling as the elements are refined; the O(n) static solve equal to a dense solve of the
 * assembled stiffness; modes M-orthogonal; 20 modes of the Habel-scale tree.
 */
import { ReferenceTree, addLinearLoad } from "../../app/physics/reference";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { applyTaper } from "../../app/tree/taper";
import { tipNode } from "../../app/tree/skeleton";
import { handTree } from "../tree/fixtures";
import { cantilever, denseSolve, testMaterial } from "./reference-support";

const mat = testMaterial();
const E = mat.youngModulus, rho = mat.woodDensity;

describe("a uniform cantilever", () => {
  const L = 2, r = 0.01, I = (Math.PI * r ** 4) / 4, A = Math.PI * r * r;

  function bendingHz(t: ReferenceTree): number[] {
    // Bending modes come in pairs (two planes); torsion and stretching are far above the third pair.
    const hz = Array.from(t.modes(6).hz);
    return [hz[0], hz[2], hz[4]];
  }

  it("sways at β_n L = 1.8751, 4.6941, 7.8548 within 1 %", () => {
    const t = new ReferenceTree(cantilever(L, r, r, 11), mat);
    const hz = bendingHz(t);
    const errors = [1.8751, 4.6941, 7.8548].map((bl, i) => {
      const exact = (bl * bl * Math.sqrt((E * I) / (rho * A * L ** 4))) / (2 * Math.PI);
      return hz[i] / exact - 1;
    });
    process.stdout.write(`uniform cantilever, 10 elements: β_n L relative frequency errors ${errors.map((e) => e.toExponential(2)).join(", ")}\n`);
    for (const e of errors) expect(Math.abs(e)).toBeLessThan(0.01);
  });

  it("finds each bending frequency twice (two planes) and the pairs' shapes are bending", () => {
    const t = new ReferenceTree(cantilever(L, r, r, 11), mat);
    const m = t.modes(6);
    for (let i = 0; i < 6; i += 2) expect(Math.abs(m.hz[i + 1] / m.hz[i] - 1)).toBeLessThan(1e-6);
    const tip = tipNode(t.skeleton, 0);
    expect(Math.abs(m.shapes[0][3 * tip + 1])).toBeLessThan(1e-6); // no stretching in the first mode
  });

  it("frequency error falls as the elements are refined", () => {
    const errs = [2, 4, 8].map((n) => {
      const t = new ReferenceTree(cantilever(L, r, r, 2), mat, { elementsPerSegment: n });
      const exact = (7.8548 ** 2 * Math.sqrt((E * I) / (rho * A * L ** 4))) / (2 * Math.PI);
      return Math.abs(bendingHz(t)[2] / exact - 1);
    });
    expect(errs[1]).toBeLessThan(errs[0] / 4);
    expect(errs[2]).toBeLessThan(errs[1] / 4);
  });

  it("bends w L⁴ / 8 E I at the tip under the wind's uniform drag (within 1 %)", () => {
    const U = 20;
    const t = new ReferenceTree(cantilever(L, r, r, 5), mat);
    const tip = t.staticDeflection(U, 0, 1);
    const w = 0.5 * mat.airDensity * mat.dragCoefficient * 2 * r * U * U;
    const exact = (w * L ** 4) / (8 * E * I);
    const err = tip[2] / exact - 1;
    process.stdout.write(`uniform cantilever tip under uniform drag: relative error ${err.toExponential(2)} (wL⁴/8EI = ${exact.toExponential(4)} m)\n`);
    expect(Math.abs(err)).toBeLessThan(0.01);
    expect(Math.abs(tip[0]) + Math.abs(tip[1])).toBeLessThan(1e-12);
  });
});

/** Habel 2009 eq. (25), in the normalisation F / (E' r1⁴) = 1 (deflection in units of L). */
function eq25(x: number, alpha: number): number {
  const a = alpha - 1, y = x * a, z = 1 + y;
  return (y * (6 + y * (2 * y * (3 + (alpha - 3) * alpha) + 3 * (4 + (alpha - 2) * alpha))) - 6 * z * z * Math.log(z)) / (3 * Math.PI * z * z * a ** 4);
}

/** The tapered cantilever's deflection under a uniform transverse load F (N/m), in eq. 25's normalisation. */
function taperedShape(alpha: number, nodes: number, perSegment = 1): { x: number[]; u: number[] } {
  const L = 1.5, r1 = 0.03, F = 2;
  const t = new ReferenceTree(cantilever(L, r1, alpha * r1, nodes), mat, { elementsPerSegment: perSegment });
  const fr = t.frame, load = new Float64Array(fr.dofCount), q = Float64Array.of(0, 0, F, 0, 0, F);
  for (let j = 1; j < fr.jointCount; j++) addLinearLoad(fr, j, q, load);
  t.solver.solve(load, t.displacement);
  const scale = (F * L ** 3) / (E * r1 ** 4); // F / (E' r1⁴), E' = E L, r1 / L
  const x: number[] = [], u: number[] = [];
  for (let j = 0; j < fr.jointCount; j++) {
    x.push(fr.jointPosition[3 * j + 1] / L);
    u.push(t.displacement[6 * j + 2] / L / scale);
  }
  return { x, u };
}

describe("a linearly tapered cantilever (Habel 2009 §4.1)", () => {
  const TABLE_1 = [
    { alpha: 0.05, c2: 0.221875, c4: 0.754029, dx: 0.0469 },
    { alpha: 0.1, c2: 0.3326, c4: 0.398924, dx: 0.0024 },
    { alpha: 0.2, c2: 0.374571, c4: 0.129428, dx: 0.0081 },
    { alpha: 0.3, c2: 0.364816, c4: 0.024577, dx: 0.006 },
  ];

  it.each(TABLE_1)("bends as eq. 25 within 1 % of the tip deflection, and as Table 1's fit within its Δx_max (α = $alpha)", ({ alpha, c2, c4, dx }) => {
    const { x, u } = taperedShape(alpha, 21);
    const tip = eq25(1, alpha);
    let err25 = 0, errFit = 0;
    for (let i = 1; i < x.length; i++) {
      err25 = Math.max(err25, Math.abs(u[i] - eq25(x[i], alpha)));
      errFit = Math.max(errFit, Math.abs(u[i] - (c2 * x[i] ** 2 + c4 * x[i] ** 4)));
    }
    process.stdout.write(`tapered α = ${alpha}, 20 elements: max |u - eq.25| / u(1) = ${(err25 / tip).toExponential(2)}; max |u - Table 1 fit| = ${errFit.toFixed(4)} (Δx_max ${dx})\n`);
    expect(err25 / tip).toBeLessThan(0.01);
    expect(errFit).toBeLessThan(dx + 0.01 * tip);
  });

  it("converges to eq. 25 as the elements are refined", () => {
    const alpha = 0.1;
    const errs = [1, 2, 4, 8].map((n) => {
      const { x, u } = taperedShape(alpha, 5, n);
      let e = 0;
      for (let i = 1; i < x.length; i++) e = Math.max(e, Math.abs(u[i] - eq25(x[i], alpha)));
      return e / eq25(1, alpha);
    });
    process.stdout.write(`tapered α = 0.1, 4/8/16/32 elements: errors ${errs.map((e) => e.toExponential(2)).join(", ")}\n`);
    for (let i = 1; i < errs.length; i++) expect(errs[i]).toBeLessThan(errs[i - 1]);
    expect(errs[3]).toBeLessThan(errs[0] / 100);
  });
});

describe("a small tree's frame", () => {
  it("solves its statics in O(n) exactly as a dense solve of the assembled stiffness (1e-9)", () => {
    const t = new ReferenceTree(handTree().skeleton, mat);
    const fr = t.frame, n = fr.dofCount, nf = n - 6;
    const K = new Float64Array(nf * nf), ke = new Float64Array(144);
    for (let j = 1; j < fr.jointCount; j++) {
      fr.elementStiffness(j, ke);
      const dofs = [...Array(6).keys()].map((c) => 6 * fr.jointParent[j] + c).concat([...Array(6).keys()].map((c) => 6 * j + c));
      for (let a = 0; a < 12; a++) for (let b = 0; b < 12; b++) {
        const ra = dofs[a] - 6, rb = dofs[b] - 6;
        if (ra >= 0 && rb >= 0) K[ra * nf + rb] += ke[12 * a + b];
      }
    }
    const load = new Float64Array(n);
    for (let i = 6; i < n; i++) load[i] = Math.sin(1.7 * i) * (i % 6 < 3 ? 1 : 0.3);
    const dense = denseSolve(K, load.subarray(6), nf);
    const u = new Float64Array(n);
    t.solver.solve(load, u);
    let diff = 0, big = 0;
    for (let i = 0; i < nf; i++) {
      diff = Math.max(diff, Math.abs(u[i + 6] - dense[i]));
      big = Math.max(big, Math.abs(dense[i]));
    }
    process.stdout.write(`hand tree (${fr.jointCount} joints): O(n) solve vs dense, max relative difference ${(diff / big).toExponential(2)}\n`);
    expect(diff / big).toBeLessThan(1e-9);
  });

  it("multiplies by the consistent mass in each element's own axes exactly as by the assembled 12 x 12 blocks", () => {
    const t = new ReferenceTree(handTree().skeleton, mat, { elementsPerSegment: 2 });
    const fr = t.frame, n = fr.dofCount, x = new Float64Array(n), fast = new Float64Array(n), dense = new Float64Array(n);
    for (let i = 0; i < n; i++) x[i] = Math.sin(2.3 * i + 0.4) + 0.2 * Math.cos(7.1 * i);
    fr.massTimes(x, fast);
    // The assembled product: every element's 12 x 12 block over (parent joint's 6, own 6).
    for (let j = 1; j < fr.jointCount; j++) {
      if (fr.length[j] === 0) continue;
      const pa = 6 * fr.jointParent[j], pb = 6 * j;
      for (let a = 0; a < 12; a++) {
        let sum = 0;
        for (let c = 0; c < 12; c++) sum += fr.mass[144 * j + 12 * a + c] * x[c < 6 ? pa + c : pb + c - 6];
        dense[a < 6 ? pa + a : pb + a - 6] += sum;
      }
    }
    for (let c = 0; c < 6; c++) dense[c] = 0;
    let diff = 0, big = 0;
    for (let i = 0; i < n; i++) { diff = Math.max(diff, Math.abs(fast[i] - dense[i])); big = Math.max(big, Math.abs(dense[i])); }
    expect(big).toBeGreaterThan(0);
    expect(diff / big).toBeLessThan(1e-12);
  });

  it("has M-orthonormal modes that satisfy K⁻¹ M φ = φ / ω²", () => {
    const t = new ReferenceTree(handTree().skeleton, mat, { elementsPerSegment: 2 });
    const m = t.modes(8);
    const fr = t.frame, mv = new Float64Array(fr.dofCount), av = new Float64Array(fr.dofCount);
    for (let i = 0; i < 8; i++) {
      fr.massTimes(m.frame.vectors[i], mv);
      for (let k = 0; k < 8; k++) {
        let s = 0;
        for (let d = 0; d < fr.dofCount; d++) s += m.frame.vectors[k][d] * mv[d];
        expect(Math.abs(s - (i === k ? 1 : 0))).toBeLessThan(1e-8);
      }
      t.solver.solve(mv, av);
      let r = 0, v = 0;
      for (let d = 0; d < fr.dofCount; d++) {
        r = Math.max(r, Math.abs(av[d] * m.frame.omega2[i] - m.frame.vectors[i][d]));
        v = Math.max(v, Math.abs(m.frame.vectors[i][d]));
      }
      expect(r / v).toBeLessThan(1e-6);
      if (i > 0) expect(m.hz[i]).toBeGreaterThanOrEqual(m.hz[i - 1]);
    }
    expect(m.hz[0]).toBeGreaterThan(0);
  });

  it("bends downwind under a steady wind, more with the leaves' drag", () => {
    const s = handTree().skeleton;
    const bare = new ReferenceTree(s, mat).staticDeflection(10, 1, 0);
    const leafy = new ReferenceTree(s, { ...mat, leafDragArea: 0.004 }).staticDeflection(10, 1, 0);
    for (let b = 0; b < s.branchCount; b++) {
      expect(bare[3 * b]).toBeGreaterThan(0);
      expect(leafy[3 * b]).toBeGreaterThan(bare[3 * b]);
    }
    const doubled = new ReferenceTree(s, mat).staticDeflection(20, 1, 0);
    expect(doubled[0] / bare[0]).toBeCloseTo(4, 9); // drag grows with U²
  });
});

describe("the Habel-scale tree", () => {
  it("has 20 positive, ascending modes, converged", () => {
    const habel = TREE_PRESETS.find((p) => p.name === "habel")!;
    const s = applyTaper(grammarToSkeleton(habel.text, { depth: habel.defaultDepth, seed: 1, fileName: "habel.lsys" }), 0.6);
    const t = new ReferenceTree(s, mat);
    const m = t.modes(20);
    process.stdout.write(`Habel tree: ${t.frame.jointCount} joints, Krylov ${m.frame.dimension}, residual ${m.frame.residual.toExponential(2)}, Hz ${Array.from(m.hz).map((h) => h.toFixed(3)).join(" ")}\n`);
    expect(m.hz.length).toBe(20);
    expect(m.hz[0]).toBeGreaterThan(0);
    for (let i = 1; i < 20; i++) expect(m.hz[i]).toBeGreaterThanOrEqual(m.hz[i - 1]);
    expect(m.frame.residual).toBeLessThan(1e-6);
    for (const shape of m.shapes) expect(shape.every(Number.isFinite)).toBe(true);
  });
});
