/**
 * Seeded hashing for the wind (wind-field.ts): random access in time, no state, no allocation, so
 * the gusts, the slow modulation and the turbulence texture are pure functions of the seed.
 */
// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { imul, sqrt, sin, cos, log, PI } = Math;

/** splitmix32 finaliser, the same as Rng.mix (app/math/rng.ts), over the aliased imul. */
export function mix(x: number): number {
  x = (x + 0x9e3779b9) >>> 0;
  x = imul(x ^ (x >>> 16), 0x21f0aaad) >>> 0;
  x = imul(x ^ (x >>> 15), 0x735a2d97) >>> 0;
  return (x ^ (x >>> 15)) >>> 0;
}

/** Uniform in [0, 1) from (seed, a, b); a, b integers (may be negative). */
export function hashUnit(seed: number, a: number, b: number): number {
  let x = mix((seed ^ imul(a | 0, 0x27d4eb2d)) >>> 0);
  x = mix((x ^ imul((b | 0) + 0x3c6ef372, 0x165667b1)) >>> 0);
  return x / 4294967296;
}

/** Fills out with independent standard normals (Box-Muller, both outputs), from a 32-bit seed (mulberry32 stream as in Rng). */
export function gaussians(seed: number, out: Float64Array): void {
  let state = mix(seed >>> 0);
  const next = (): number => {
    let t = (state = (state + 0x6d2b79f5) >>> 0);
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = 0; i < out.length; i += 2) {
    const u = 1 - next(); // (0, 1]
    const r = sqrt(-2 * log(u));
    const th = 2 * PI * next();
    out[i] = r * cos(th);
    if (i + 1 < out.length) out[i + 1] = r * sin(th);
  }
}

export function smoothstep(x: number): number {
  return x * x * (3 - 2 * x);
}
