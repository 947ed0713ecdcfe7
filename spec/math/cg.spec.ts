import { BlockCsr3, BlockJacobi, ConjugateGradient, TreeBlockLdlt, type LinearOperator } from "../../app/math/cg";
import { Rng } from "../../app/math/rng";

class Dense implements LinearOperator {
  constructor(readonly size: number, readonly a: Float64Array) {}
  apply(x: Float64Array, y: Float64Array): void {
    for (let i = 0; i < this.size; i++) {
      let s = 0;
      for (let j = 0; j < this.size; j++) s += this.a[i * this.size + j] * x[j];
      y[i] = s;
    }
  }
}

/** A random SPD matrix BᵀB + n I. */
function randomSpd(n: number, seed: number): Float64Array {
  const rng = new Rng(seed), b = new Float64Array(n * n), a = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) b[i] = rng.next() * 2 - 1;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let s = i === j ? n : 0;
    for (let k = 0; k < n; k++) s += b[k * n + i] * b[k * n + j];
    a[i * n + j] = s;
  }
  return a;
}

describe("ConjugateGradient", () => {
  it("solves a known SPD system", () => {
    // [[4, 1], [1, 3]] x = [1, 2] → x = [1/11, 7/11]
    const A = new Dense(2, Float64Array.from([4, 1, 1, 3]));
    const cg = new ConjugateGradient(2);
    cg.tolerance = 1e-12;
    const x = new Float64Array(2);
    expect(cg.solve(A, Float64Array.from([1, 2]), x)).toBe(true);
    expect(x[0]).toBeCloseTo(1 / 11, 12);
    expect(x[1]).toBeCloseTo(7 / 11, 12);
    expect(cg.iterations).toBeLessThanOrEqual(2);
    expect(cg.residual).toBeLessThanOrEqual(1e-12);
  });

  it("converges within n iterations on a small dense SPD system and reports iterations and residual", () => {
    const n = 12, a = randomSpd(n, 3), A = new Dense(n, a);
    const want = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1));
    const b = new Float64Array(n);
    A.apply(want, b);
    const cg = new ConjugateGradient(n);
    cg.tolerance = 1e-10;
    const x = new Float64Array(n);
    expect(cg.solve(A, b, x)).toBe(true);
    expect(cg.iterations).toBeGreaterThan(0);
    expect(cg.iterations).toBeLessThanOrEqual(n);
    expect(cg.residual).toBeLessThanOrEqual(1e-10);
    for (let i = 0; i < n; i++) expect(x[i]).toBeCloseTo(want[i], 7);
  });

  it("stops at maxIterations and says it did not converge", () => {
    const n = 30, A = new Dense(n, randomSpd(n, 5));
    const cg = new ConjugateGradient(n);
    cg.tolerance = 1e-14;
    cg.maxIterations = 2;
    const b = new Float64Array(n).fill(1);
    expect(cg.solve(A, b, new Float64Array(n))).toBe(false);
    expect(cg.iterations).toBe(2);
    expect(cg.residual).toBeGreaterThan(1e-14);
  });
});

/** A block matrix on a random tree with parent and grandparent couplings, SPD by construction. */
function treeMatrix(n: number, seed: number): { A: BlockCsr3; parent: Int32Array } {
  const rng = new Rng(seed), parent = new Int32Array(n);
  parent[0] = -1;
  for (let i = 1; i < n; i++) parent[i] = Math.floor(rng.next() * i);
  const pairs: number[] = [];
  for (let i = 1; i < n; i++) {
    pairs.push(i, parent[i]);
    if (parent[parent[i]] >= 0) pairs.push(i, parent[parent[i]]);
  }
  const A = new BlockCsr3(n, pairs);
  // Sum of (stiff and soft) springs c cᵀ ⊗ I over (i, p, g) plus a small mass: SPD, badly conditioned.
  for (let i = 0; i < n; i++) { const o = 9 * A.diagIndex[i]; A.values[o] = A.values[o + 4] = A.values[o + 8] = 1e-3; }
  for (let i = 1; i < n; i++) {
    const ids = [i, parent[i], parent[parent[i]]], c = [1, -1.5, 0.5], k = [1e6, 1 + rng.next()];
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) {
      if (ids[a] < 0 || ids[b] < 0) continue;
      const o = 9 * A.index(ids[a], ids[b]);
      const s = (a < 2 && b < 2 ? k[0] * (a === b ? 1 : -1) : 0) + k[1] * c[a] * c[b];
      for (let r = 0; r < 3; r++) A.values[o + 4 * r] += s;
      A.values[o + 1] += 0.1 * s; A.values[o + 3] += 0.1 * s; // an off-axis coupling, still symmetric
    }
  }
  return { A, parent };
}

describe("BlockCsr3 and preconditioners", () => {
  it("applies like its dense form", () => {
    const { A } = treeMatrix(20, 1);
    const d = new Dense(A.size, A.toDense());
    const x = Float64Array.from({ length: A.size }, (_, i) => Math.cos(i));
    const y1 = new Float64Array(A.size), y2 = new Float64Array(A.size);
    A.apply(x, y1);
    d.apply(x, y2);
    for (let i = 0; i < A.size; i++) expect(y1[i]).toBeCloseTo(y2[i], 6);
    const dense = A.toDense();
    for (let i = 0; i < A.size; i++) for (let j = 0; j < A.size; j++) expect(dense[i * A.size + j]).toBe(dense[j * A.size + i]);
  });

  it("the tree LDLᵀ is exact: CG converges in one iteration where block Jacobi needs many", () => {
    const { A, parent } = treeMatrix(200, 2);
    const b = Float64Array.from({ length: A.size }, (_, i) => Math.sin(0.3 * i));
    const ldlt = new TreeBlockLdlt(A, parent);
    ldlt.factor();
    const cg = new ConjugateGradient(A.size);
    cg.tolerance = 1e-8;
    cg.maxIterations = 5000;
    const x = new Float64Array(A.size);
    expect(cg.solve(A, b, x, ldlt)).toBe(true);
    expect(cg.iterations).toBeLessThanOrEqual(2);
    const jac = new BlockJacobi(A);
    jac.update();
    x.fill(0);
    cg.solve(A, b, x, jac);
    expect(cg.iterations).toBeGreaterThan(20);
  });

  it("refuses a pattern that is not parent and grandparent couplings", () => {
    const A = new BlockCsr3(4, [1, 0, 2, 1, 3, 0]);
    expect(() => new TreeBlockLdlt(A, Int32Array.from([-1, 0, 1, 2]))).toThrow(RangeError);
  });
});
