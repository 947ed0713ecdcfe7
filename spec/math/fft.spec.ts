import { fft, fft2d, fft2dSplit, fftSplit, ifft, ifft2d } from "../../app/math/fft";
import { Rng } from "../../app/math/rng";

/** Naive DFT, interleaved; sign -1 forward, +1 inverse (inverse also divides by n). */
function dft(x: Float64Array, sign = -1): Float64Array {
  const n = x.length / 2;
  const out = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    let re = 0, im = 0;
    for (let j = 0; j < n; j++) {
      const a = (sign * 2 * Math.PI * k * j) / n;
      re += x[2 * j] * Math.cos(a) - x[2 * j + 1] * Math.sin(a);
      im += x[2 * j] * Math.sin(a) + x[2 * j + 1] * Math.cos(a);
    }
    out[2 * k] = sign > 0 ? re / n : re;
    out[2 * k + 1] = sign > 0 ? im / n : im;
  }
  return out;
}

function dft2d(x: Float64Array, rows: number, cols: number, sign = -1): Float64Array {
  const out = new Float64Array(x.length);
  for (let u = 0; u < rows; u++)
    for (let v = 0; v < cols; v++) {
      let re = 0, im = 0;
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < cols; c++) {
          const a = sign * 2 * Math.PI * ((u * r) / rows + (v * c) / cols);
          const q = 2 * (r * cols + c);
          re += x[q] * Math.cos(a) - x[q + 1] * Math.sin(a);
          im += x[q] * Math.sin(a) + x[q + 1] * Math.cos(a);
        }
      const s = sign > 0 ? 1 / (rows * cols) : 1;
      out[2 * (u * cols + v)] = re * s;
      out[2 * (u * cols + v) + 1] = im * s;
    }
  return out;
}

function random(n: number, seed: number): Float64Array {
  const rng = new Rng(seed);
  return Float64Array.from({ length: n }, () => rng.range(-1, 1));
}

/** kissfft works in float32: relative error about 1e-7 times log n. */
function expectClose(a: Float64Array, b: Float64Array, tol = 2e-5): void {
  let scale = 1;
  for (let i = 0; i < b.length; i++) scale = Math.max(scale, Math.abs(b[i]));
  let err = 0;
  for (let i = 0; i < b.length; i++) err = Math.max(err, Math.abs(a[i] - b[i]));
  expect(a.length).toBe(b.length);
  expect(err / scale).toBeLessThan(tol);
}

describe("fft (kissfft-js wrapper)", () => {
  it.each([1, 2, 3, 5, 8, 12, 64, 100, 256])("forward and inverse of size %i match a naive DFT", (n) => {
    const x = random(2 * n, n);
    const before = x.slice();
    expectClose(fft(x), dft(x));
    expectClose(ifft(x), dft(x, +1));
    expect(x).toEqual(before); // input untouched
    expectClose(ifft(fft(x)), x, 1e-6);
  });

  it("copies results out of kissfft's heap: a later call does not change an earlier result", () => {
    const a = fft(random(128, 1));
    const keep = a.slice();
    fft(random(128, 2));
    expect(a).toEqual(keep);
  });

  it("works in place and on separate re/im arrays", () => {
    const x = random(64, 3);
    const want = dft(x);
    const y = x.slice();
    expect(fft(y, y)).toBe(y);
    expectClose(y, want);
    const re = Float64Array.from({ length: 32 }, (_, i) => x[2 * i]);
    const im = Float64Array.from({ length: 32 }, (_, i) => x[2 * i + 1]);
    fftSplit(re, im);
    expectClose(Float64Array.from({ length: 64 }, (_, i) => (i % 2 ? im[(i - 1) / 2] : re[i / 2])), want);
    fftSplit(re, im, true);
    expectClose(re, Float64Array.from({ length: 32 }, (_, i) => x[2 * i]), 1e-6);
  });

  it("2D (rows then columns) matches a naive 2D DFT, both ways", () => {
    const rows = 4, cols = 6;
    const x = random(2 * rows * cols, 9);
    expectClose(fft2d(x, rows, cols), dft2d(x, rows, cols));
    expectClose(ifft2d(x, rows, cols), dft2d(x, rows, cols, +1));
    expectClose(ifft2d(fft2d(x, rows, cols), rows, cols), x, 1e-6);
    const re = Float64Array.from({ length: rows * cols }, (_, i) => x[2 * i]);
    const im = Float64Array.from({ length: rows * cols }, (_, i) => x[2 * i + 1]);
    fft2dSplit(re, im, rows, cols);
    const want = dft2d(x, rows, cols);
    expectClose(Float64Array.from({ length: 2 * rows * cols }, (_, i) => (i % 2 ? im[(i - 1) / 2] : re[i / 2])), want);
  });

  it("rejects bad shapes with a RangeError", () => {
    expect(() => fft(new Float64Array(3))).toThrow(RangeError);
    expect(() => fft2d(new Float64Array(10), 2, 3)).toThrow(RangeError);
    expect(() => fftSplit(new Float64Array(4), new Float64Array(3))).toThrow(RangeError);
  });
});
