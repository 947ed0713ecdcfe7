/** The small dense symmetric eigen-solver (Householder + implicit QL): A V = V Λ, Vᵀ V = I, ascending. */
import { symmetricEigen } from "../../app/physics/reference/dense-eigen";
import { Rng } from "../../app/math/rng";

it("diagonalises a random symmetric matrix, and one with a fourfold eigenvalue", () => {
  const n = 30, rng = new Rng(3), a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) a[i * n + j] = a[j * n + i] = rng.gaussian();
  const d = new Float64Array(n), V = new Float64Array(n * n);
  symmetricEigen(a, n, d, V);
  for (let i = 1; i < n; i++) expect(d[i]).toBeGreaterThanOrEqual(d[i - 1]);
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) {
    let av = 0, vv = 0;
    for (let j = 0; j < n; j++) { av += a[i * n + j] * V[j * n + k]; vv += V[j * n + i] * V[j * n + k]; }
    expect(Math.abs(av - d[k] * V[i * n + k])).toBeLessThan(1e-12);
    expect(Math.abs(vv - (i === k ? 1 : 0))).toBeLessThan(1e-12);
  }
  const I = new Float64Array(16);
  for (let i = 0; i < 4; i++) I[5 * i] = 2;
  symmetricEigen(I, 4, d, V);
  expect(Array.from(d.subarray(0, 4))).toEqual([2, 2, 2, 2]);
});
