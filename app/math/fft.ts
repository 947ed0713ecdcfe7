/**
 * Complex FFTs over kissfft-js (TOOLCHAIN.md, "kissfft-js 0.1.8").
 *
 * Conventions: complex data is interleaved (re, im, re, im, ...) in a Float64Array, or given as
 * separate re / im arrays. The forward transform is unnormalised,
 *   X[k] = sum_n x[n] exp(-2 pi i k n / N),
 * and the inverse carries the 1/N, so ifft(fft(x)) = x. 2D data is row-major: element (r, c) at
 * index r * cols + c (times 2 when interleaved); the 2D transform is rows, then columns.
 *
 * kissfft-js works in float32 inside its own heap and returns views that the next call
 * overwrites: every result is copied out here. Its FFT.inverse is broken (ReferenceError), so
 * the inverse is computed as ifft(x) = conj(fft(conj(x))) / N. One kissfft object per size is
 * kept for the life of the page (its heap is fixed at 16 MB; a few sizes use a few hundred KB).
 */
import { FFT } from "kissfft-js";

interface Plan {
  readonly fft: FFT;
  /** Interleaved work buffer of 2 * n doubles. */
  readonly work: Float64Array;
}

const plans = new Map<number, Plan>();

function plan(n: number): Plan {
  let p = plans.get(n);
  if (!p) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`fft: size must be a positive integer; got ${n}`);
    p = { fft: new FFT(n), work: new Float64Array(2 * n) };
    plans.set(n, p);
  }
  return p;
}

/**
 * Transforms buf (interleaved, 2n doubles) in place. inverse: conj(fft(conj(x))) / n.
 */
function transformInPlace(buf: Float64Array, n: number, inverse: boolean): void {
  const p = plan(n);
  if (inverse) for (let i = 1; i < 2 * n; i += 2) buf[i] = -buf[i];
  const res = p.fft.forward(buf);
  if (inverse) {
    const s = 1 / n;
    for (let i = 0; i < 2 * n; i += 2) {
      buf[i] = res[i] * s;
      buf[i + 1] = -res[i + 1] * s;
    }
  } else {
    for (let i = 0; i < 2 * n; i++) buf[i] = res[i];
  }
}

function checkInterleaved(name: string, data: ArrayLike<number>, n?: number): number {
  if (data.length % 2 !== 0 || data.length === 0) throw new RangeError(`${name}: interleaved complex data needs an even, non-zero length; got ${data.length}`);
  const len = data.length / 2;
  if (n !== undefined && len !== n) throw new RangeError(`${name}: expected ${n} complex values; got ${len}`);
  return len;
}

/** Forward 1D FFT of interleaved complex data; returns out (a new array unless given; may be the input). */
export function fft(input: ArrayLike<number>, out?: Float64Array): Float64Array {
  const n = checkInterleaved("fft", input);
  const o = out ?? new Float64Array(2 * n);
  checkInterleaved("fft out", o, n);
  if (o !== input) for (let i = 0; i < 2 * n; i++) o[i] = input[i];
  transformInPlace(o, n, false);
  return o;
}

/** Inverse 1D FFT (with the 1/N) of interleaved complex data. */
export function ifft(input: ArrayLike<number>, out?: Float64Array): Float64Array {
  const n = checkInterleaved("ifft", input);
  const o = out ?? new Float64Array(2 * n);
  checkInterleaved("ifft out", o, n);
  if (o !== input) for (let i = 0; i < 2 * n; i++) o[i] = input[i];
  transformInPlace(o, n, true);
  return o;
}

/** 1D FFT in place on separate real and imaginary arrays. */
export function fftSplit(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  if (im.length !== n || n === 0) throw new RangeError(`fftSplit: re and im must have the same non-zero length; got ${re.length} and ${im.length}`);
  const w = plan(n).work;
  for (let i = 0; i < n; i++) {
    w[2 * i] = re[i];
    w[2 * i + 1] = im[i];
  }
  transformInPlace(w, n, inverse);
  for (let i = 0; i < n; i++) {
    re[i] = w[2 * i];
    im[i] = w[2 * i + 1];
  }
}

/**
 * 2D FFT of interleaved, row-major complex data (rows x cols): rows, then columns.
 * Returns out (a new array unless given; may be the input for in place).
 */
export function fft2d(input: ArrayLike<number>, rows: number, cols: number, inverse = false, out?: Float64Array): Float64Array {
  checkInterleaved("fft2d", input, rows * cols);
  const o = out ?? new Float64Array(2 * rows * cols);
  checkInterleaved("fft2d out", o, rows * cols);
  if (o !== input) for (let i = 0; i < 2 * rows * cols; i++) o[i] = input[i];
  const rowLen = 2 * cols;
  for (let r = 0; r < rows; r++) transformInPlace(o.subarray(r * rowLen, (r + 1) * rowLen), cols, inverse);
  const col = plan(rows).work;
  for (let c = 0; c < cols; c++) {
    for (let r = 0, k = 2 * c; r < rows; r++, k += rowLen) {
      col[2 * r] = o[k];
      col[2 * r + 1] = o[k + 1];
    }
    transformInPlace(col, rows, inverse);
    for (let r = 0, k = 2 * c; r < rows; r++, k += rowLen) {
      o[k] = col[2 * r];
      o[k + 1] = col[2 * r + 1];
    }
  }
  return o;
}

/** Inverse 2D FFT (with the 1/(rows cols)) of interleaved, row-major complex data. */
export function ifft2d(input: ArrayLike<number>, rows: number, cols: number, out?: Float64Array): Float64Array {
  return fft2d(input, rows, cols, true, out);
}

/** 2D FFT in place on separate, row-major real and imaginary arrays. */
export function fft2dSplit(re: Float64Array, im: Float64Array, rows: number, cols: number, inverse = false): void {
  const n = rows * cols;
  if (re.length !== n || im.length !== n) throw new RangeError(`fft2dSplit: re and im must hold rows*cols = ${n} values; got ${re.length} and ${im.length}`);
  const buf = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    buf[2 * i] = re[i];
    buf[2 * i + 1] = im[i];
  }
  fft2d(buf, rows, cols, inverse, buf);
  for (let i = 0; i < n; i++) {
    re[i] = buf[2 * i];
    im[i] = buf[2 * i + 1];
  }
}
