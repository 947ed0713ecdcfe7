/**
 * Seeded random numbers (ARCHITECTURE.md: "Time and randomness"). Same seed, same sequence,
 * on every machine: mulberry32 over a 32-bit state, seeded through splitmix32 so nearby seeds
 * give unrelated streams.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = Rng.mix(seed >>> 0);
  }

  /** splitmix32 finaliser: spreads a seed over all 32 bits. */
  static mix(x: number): number {
    x = (x + 0x9e3779b9) >>> 0;
    x = Math.imul(x ^ (x >>> 16), 0x21f0aaad) >>> 0;
    x = Math.imul(x ^ (x >>> 15), 0x735a2d97) >>> 0;
    return (x ^ (x >>> 15)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box-Muller). */
  gaussian(): number {
    let u = this.next();
    while (u <= 1e-12) u = this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A new generator whose stream depends on this one's seed and a label, not on draw order. */
  fork(label: number): Rng {
    return new Rng(Rng.mix((this.state ^ Math.imul(label + 1, 0x85ebca6b)) >>> 0));
  }
}
