/**
 * Wind spectra and spectrum estimation.
 *
 * simiuScanlan: the empirical power spectrum of wind velocity that Habel et al. 2009 (§5.1,
 * eq. 14) take from Simiu and Scanlan [SS86]:  P_w(f) ∝ v_m / (1 + f / v_m)^(5/3).
 *
 * welch: averaged, Hann-windowed periodogram (one-sided power spectral density), for tests and
 * plots. fitKneeSpectrum fits P(f) = A / (1 + f / f0)^beta, the shape of eq. 14, in log-log.
 */
import { fft } from "./fft";

/**
 * Habel 2009 eq. 14 (Simiu-Scanlan): P_w(f) = v_m / (1 + f / v_m)^(5/3), unnormalised.
 * f in Hz, v_m the mean wind speed in m/s. Zero at v_m = 0 (calm air has no turbulence).
 * With f = v_m k (Taylor's frozen turbulence, k in cycles per metre) the shape is
 * (1 + k)^(-5/3) for every speed: simiuScanlan(k, 1) is the wavenumber form.
 */
export function simiuScanlan(f: number, meanSpeed: number): number {
  if (meanSpeed <= 0) return 0;
  return meanSpeed / Math.pow(1 + Math.abs(f) / meanSpeed, 5 / 3);
}

export interface Spectrum {
  /** Frequencies, Hz (or cycles per unit of whatever fs was given in), 0 to fs/2. */
  f: Float64Array;
  /** One-sided power spectral density, units² per Hz: sum(psd) * df ≈ variance. */
  psd: Float64Array;
}

/**
 * Welch's averaged periodogram: segments of `segment` samples (a power of 2 is fastest),
 * overlapping by `overlap` (0 to <1), each mean-removed and Hann-windowed. One-sided PSD,
 * scaled so that its integral over f is the variance of the signal.
 */
export function welch(x: ArrayLike<number>, fs: number, segment: number, overlap = 0.5): Spectrum {
  const n = x.length;
  if (!(segment >= 2) || segment > n) throw new RangeError(`welch: segment must be from 2 to the signal length ${n}; got ${segment}`);
  if (!(overlap >= 0 && overlap < 1)) throw new RangeError(`welch: overlap must be from 0 to below 1; got ${overlap}`);
  const step = Math.max(1, Math.round(segment * (1 - overlap)));
  const win = new Float64Array(segment);
  let winPower = 0;
  for (let i = 0; i < segment; i++) {
    win[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / segment); // periodic Hann
    winPower += win[i] * win[i];
  }
  const half = Math.floor(segment / 2);
  const psd = new Float64Array(half + 1);
  const buf = new Float64Array(2 * segment);
  let count = 0;
  for (let start = 0; start + segment <= n; start += step) {
    let mean = 0;
    for (let i = 0; i < segment; i++) mean += x[start + i];
    mean /= segment;
    for (let i = 0; i < segment; i++) {
      buf[2 * i] = (x[start + i] - mean) * win[i];
      buf[2 * i + 1] = 0;
    }
    fft(buf, buf);
    for (let k = 0; k <= half; k++) psd[k] += buf[2 * k] * buf[2 * k] + buf[2 * k + 1] * buf[2 * k + 1];
    count++;
  }
  const scale = 1 / (fs * winPower * count);
  for (let k = 0; k <= half; k++) {
    const oneSided = k === 0 || (segment % 2 === 0 && k === half) ? 1 : 2;
    psd[k] *= scale * oneSided;
  }
  const f = new Float64Array(half + 1);
  for (let k = 0; k <= half; k++) f[k] = (k * fs) / segment;
  return { f, psd };
}

/** Averages a spectrum into `bins` logarithmically spaced bands from fMin to fMax (empty bands dropped). */
export function logBin(s: Spectrum, fMin: number, fMax: number, bins: number): Spectrum {
  const lo = Math.log(fMin);
  const width = (Math.log(fMax) - lo) / bins;
  const sumF = new Float64Array(bins);
  const sumP = new Float64Array(bins);
  const num = new Float64Array(bins);
  for (let k = 0; k < s.f.length; k++) {
    const fk = s.f[k];
    if (fk < fMin || fk > fMax) continue;
    const b = Math.min(bins - 1, Math.floor((Math.log(fk) - lo) / width));
    sumF[b] += Math.log(fk);
    sumP[b] += s.psd[k];
    num[b]++;
  }
  const fs: number[] = [];
  const ps: number[] = [];
  for (let b = 0; b < bins; b++) {
    if (num[b] === 0) continue;
    fs.push(Math.exp(sumF[b] / num[b]));
    ps.push(sumP[b] / num[b]);
  }
  return { f: Float64Array.from(fs), psd: Float64Array.from(ps) };
}

export interface KneeFit {
  /** Level of the flat part, P(0). */
  amplitude: number;
  /** The knee frequency f0 (eq. 14: f0 = v_m). */
  knee: number;
  /** The high-frequency log-log slope is -exponent (eq. 14: 5/3). */
  exponent: number;
  /** Root mean square of the residual of log10 P. */
  rmsLog10: number;
}

/**
 * Least-squares fit of log P = log A - beta log(1 + f / f0) (the shape of eq. 14) to the points
 * of a spectrum with f in [fMin, fMax], best first binned logarithmically so each decade weighs
 * the same. f0 by a fine logarithmic search, A and beta by linear least squares for each f0.
 */
export function fitKneeSpectrum(s: Spectrum, fMin: number, fMax: number, bins = 40): KneeFit {
  const b = logBin(s, fMin, fMax, bins);
  const m = b.f.length;
  if (m < 3) throw new RangeError(`fitKneeSpectrum: need at least 3 bands between ${fMin} and ${fMax}; got ${m}`);
  const y = new Float64Array(m);
  for (let i = 0; i < m; i++) y[i] = Math.log(Math.max(b.psd[i], 1e-300));
  let best: KneeFit = { amplitude: NaN, knee: NaN, exponent: NaN, rmsLog10: Infinity };
  const f0Lo = Math.log(fMin / 100);
  const f0Hi = Math.log(fMax * 100);
  const steps = 2000;
  for (let sIdx = 0; sIdx <= steps; sIdx++) {
    const f0 = Math.exp(f0Lo + ((f0Hi - f0Lo) * sIdx) / steps);
    // y = c0 + c1 * X with X = -log(1 + f/f0): c1 = beta.
    let sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (let i = 0; i < m; i++) {
      const X = -Math.log(1 + b.f[i] / f0);
      sx += X;
      sy += y[i];
      sxx += X * X;
      sxy += X * y[i];
    }
    const det = m * sxx - sx * sx;
    if (Math.abs(det) < 1e-12) continue;
    const beta = (m * sxy - sx * sy) / det;
    const c0 = (sy - beta * sx) / m;
    let ss = 0;
    for (let i = 0; i < m; i++) {
      const r = y[i] - (c0 - beta * Math.log(1 + b.f[i] / f0));
      ss += r * r;
    }
    const rms = Math.sqrt(ss / m) / Math.LN10;
    if (rms < best.rmsLog10) best = { amplitude: Math.exp(c0), knee: f0, exponent: beta, rmsLog10: rms };
  }
  return best;
}

/** Least-squares slope of log P against log f over [fMin, fMax] (log-binned first). */
export function logLogSlope(s: Spectrum, fMin: number, fMax: number, bins = 20): number {
  const b = logBin(s, fMin, fMax, bins);
  const m = b.f.length;
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let i = 0; i < m; i++) {
    const X = Math.log(b.f[i]);
    const Y = Math.log(b.psd[i]);
    sx += X;
    sy += Y;
    sxx += X * X;
    sxy += X * Y;
  }
  return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

/**
 * Normalised cross-correlation r(lag) = corr(x[n], y[n + lag]) for lag in [-maxLag, maxLag];
 * index lag + maxLag. A peak at a positive lag means y follows x by that many samples.
 */
export function crossCorrelation(x: ArrayLike<number>, y: ArrayLike<number>, maxLag: number): Float64Array {
  const n = Math.min(x.length, y.length);
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let vx = 0, vy = 0;
  for (let i = 0; i < n; i++) {
    vx += (x[i] - mx) ** 2;
    vy += (y[i] - my) ** 2;
  }
  const norm = Math.sqrt(vx * vy);
  const out = new Float64Array(2 * maxLag + 1);
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let s = 0;
    const i0 = Math.max(0, -lag);
    const i1 = Math.min(n, n - lag);
    for (let i = i0; i < i1; i++) s += (x[i] - mx) * (y[i + lag] - my);
    out[lag + maxLag] = norm > 0 ? s / norm : 0;
  }
  return out;
}

/** Pearson correlation coefficient of two equally long series. */
export function correlation(x: ArrayLike<number>, y: ArrayLike<number>): number {
  return crossCorrelation(x, y, 0)[0];
}
