/**
 * The implicit step's direct solver: a sparse matrix of 3 × 3 blocks factored C Cᵀ in the order the
 * particle tree eliminates (tips and leaves first), checked against a dense Cholesky solve on
 * matrices like the step's: light particles (0.1 g to 0.1 kg) on springs of up to 10⁹ N/m at dt²,
 * each a rank-one block k n nᵀ, so a pivot's block is nearly singular but for its mass.
 */
import { BlockCholesky, cholesky3 } from "../../../app/animators/sph-particles/block-cholesky";
import { Rng } from "../../../app/math/rng";

/** A chain of `stations` bone particles, each with a ring of three, on random stiff springs; the matrix M + dt² K, blockwise and dense. */
function springMatrix(stations: number, rng: Rng, stiffest: number) {
  const n = 4 * stations, pairs: number[] = [], springs: { a: number; b: number; k: number }[] = [];
  for (let s = 0; s < stations; s++) {
    const bone = 4 * s;
    for (let r = 1; r <= 3; r++) {
      springs.push({ a: bone, b: bone + r, k: 0 }, { a: bone + r, b: bone + 1 + (r % 3), k: 0 });
      if (s > 0) springs.push({ a: bone - 4 + r, b: bone + r, k: 0 }, { a: bone - 4 + r, b: bone + 1 + (r % 3), k: 0 });
    }
    if (s > 0) springs.push({ a: bone - 4, b: bone, k: 0 });
  }
  const position = Float64Array.from({ length: 3 * n }, () => rng.range(-1, 1));
  const mass = Float64Array.from({ length: n }, () => 10 ** rng.range(-4, -1));
  const dt2 = (1 / 60) ** 2;
  const dense = Array.from({ length: 3 * n }, () => new Float64Array(3 * n));
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) dense[3 * i + a][3 * i + a] = mass[i];
  for (const sp of springs) {
    sp.k = dt2 * 10 ** rng.range(Math.log10(stiffest) - 4, Math.log10(stiffest));
    pairs.push(sp.a, sp.b);
  }
  const order = Int32Array.from({ length: n }, (_, i) => n - 1 - i);
  const A = new BlockCholesky(n, pairs, order);
  const m9 = new Float64Array(9);
  for (let i = 0; i < n; i++) A.addDiagIso(i, mass[i]);
  for (const { a, b, k } of springs) {
    const d = [0, 1, 2].map((c) => position[3 * b + c] - position[3 * a + c]), l = Math.hypot(...d);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) m9[3 * r + c] = (k * d[r] * d[c]) / (l * l);
    A.addDiag(a, m9, 0, 1);
    A.addDiag(b, m9, 0, 1);
    A.addOff(a, b, A.blockIndex(a, b), m9, 0, -1);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
      dense[3 * a + r][3 * a + c] += m9[3 * r + c];
      dense[3 * b + r][3 * b + c] += m9[3 * r + c];
      dense[3 * a + r][3 * b + c] -= m9[3 * r + c];
      dense[3 * b + r][3 * a + c] -= m9[3 * r + c];
    }
  }
  return { n, A, dense };
}

/** x with L Lᵀ x = b, L the dense Cholesky factor of `dense`. */
function denseSolve(dense: Float64Array[], b: Float64Array): Float64Array {
  const N = b.length, L = dense.map((r) => Float64Array.from(r));
  for (let j = 0; j < N; j++) {
    let s = L[j][j];
    for (let k = 0; k < j; k++) s -= L[j][k] ** 2;
    L[j][j] = Math.sqrt(s);
    for (let i = j + 1; i < N; i++) {
      let t = L[i][j];
      for (let k = 0; k < j; k++) t -= L[i][k] * L[j][k];
      L[i][j] = t / L[j][j];
    }
  }
  const y = Float64Array.from(b);
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < i; k++) y[i] -= L[i][k] * y[k];
    y[i] /= L[i][i];
  }
  for (let i = N - 1; i >= 0; i--) {
    for (let k = i + 1; k < N; k++) y[i] -= L[k][i] * y[k];
    y[i] /= L[i][i];
  }
  return y;
}

describe("block Cholesky", () => {
  it.each([1e3, 1e9])("solves the step's matrix as a dense Cholesky does (stiffest spring %p N/m)", (stiffest) => {
    const rng = new Rng(11);
    const { n, A, dense } = springMatrix(20, rng, stiffest);
    const b = Float64Array.from({ length: 3 * n }, () => rng.range(-1, 1));
    const want = denseSolve(dense, b);
    A.factor();
    const got = new Float64Array(3 * n);
    A.solve(b, got);
    let err = 0, size = 0;
    for (let i = 0; i < 3 * n; i++) {
      err += (got[i] - want[i]) ** 2;
      size += want[i] ** 2;
    }
    const relative = Math.sqrt(err / size);
    console.log(`stiffest spring ${stiffest} N/m: the block solve is ${relative.toExponential(2)} from the dense one`);
    expect(relative).toBeLessThan(1e-6);
  });

  it("factors a 3 × 3 block as C Cᵀ and refuses one that is not positive definite", () => {
    const d = Float64Array.from([4, 2, 0, 2, 5, 1, 0, 1, 3]);
    const a = Float64Array.from(d);
    expect(cholesky3(d, 0)).toBe(true);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += d[3 * r + k] * d[3 * c + k];
      expect(s).toBeCloseTo(a[3 * r + c], 12);
    }
    expect(cholesky3(Float64Array.from([1, 2, 0, 2, 1, 0, 0, 0, 1]), 0)).toBe(false);
    const A = new BlockCholesky(2, [0, 1], [1, 0]);
    A.addDiagIso(0, 1);
    A.addDiagIso(1, -1);
    expect(() => A.factor()).toThrow(/not positive definite/);
  });
});
