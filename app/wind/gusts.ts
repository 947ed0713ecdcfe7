/**
 * The time-varying factor of the mean wind (wind-field.ts): a slow modulation (two octaves of
 * smooth seeded value noise around 1) and gust events (rise, hold, fall; at most one per slot),
 * both pure functions of (seed, t). `MeanFactor` evaluates their product with the hashes of the
 * slots and knots it last used kept, for a WindField that asks at many local times per frame
 * (gusts that roll reach every point at its own time).
 */
import { hashUnit, smoothstep } from "./hash";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { floor } = Math;

/** Slow modulation: depth and the knot spacings (s) of its two octaves of value noise. */
export const MODULATION_DEPTH = 0.2;
const MOD_KNOT_1 = 37;
const MOD_KNOT_2 = 13.3;
const MOD_WEIGHT_1 = 0.65;

/** Gust events: at most one starts in each slot of GUST_SLOT s, with probability GUST_PROBABILITY. */
export const GUST_SLOT = 20;
const GUST_PROBABILITY = 0.85;
export const GUST_RISE: readonly [number, number] = [1, 3];
export const GUST_HOLD: readonly [number, number] = [1, 4];
export const GUST_FALL: readonly [number, number] = [2, 5];
/** Peak of an event as a fraction of the `gust` setting: uniform in this range. */
const GUST_PEAK: readonly [number, number] = [0.5, 1];

/** Smooth seeded value noise in [-1, 1], knots every `period` s, quintic fade (bounded: no overshoot). */
function valueNoise(seed: number, channel: number, t: number, period: number): number {
  const s = t / period;
  const i = floor(s);
  const f = s - i;
  const fade = f * f * f * (f * (f * 6 - 15) + 10);
  const v0 = 2 * hashUnit(seed, i, channel) - 1;
  const v1 = 2 * hashUnit(seed, i + 1, channel) - 1;
  return v0 + (v1 - v0) * fade;
}

/** The slow modulation of strength: a multiplier around 1 within ±depth. */
export function slowModulation(seed: number, t: number, depth = MODULATION_DEPTH): number {
  const n = MOD_WEIGHT_1 * valueNoise(seed, 101, t, MOD_KNOT_1) + (1 - MOD_WEIGHT_1) * valueNoise(seed, 202, t, MOD_KNOT_2);
  return 1 + depth * n;
}

/** One gust: starts at `start` (s), rises, holds, falls; `peak` is the envelope's maximum (fraction of mean). */
export interface GustEvent {
  start: number;
  rise: number;
  hold: number;
  fall: number;
  peak: number;
}

/** Envelope of one event at time t: smoothstep up over rise, 1 over hold, smoothstep down over fall. */
export function gustShape(rise: number, hold: number, fall: number, tau: number): number {
  if (tau <= 0) return 0;
  if (tau < rise) return smoothstep(tau / rise);
  tau -= rise;
  if (tau <= hold) return 1;
  tau -= hold;
  if (tau < fall) return smoothstep(1 - tau / fall);
  return 0;
}

/** Longest possible event, s: events of one slot spill at most this far into the next. */
const GUST_MAX_LENGTH = GUST_RISE[1] + GUST_HOLD[1] + GUST_FALL[1];
const GUST_SLOTS_BACK = Math.ceil(GUST_MAX_LENGTH / GUST_SLOT);

/** The event of slot `slot` (or false when that slot has none). Writes into out (no allocation). */
function gustOfSlot(seed: number, slot: number, gust: number, out: GustEvent): boolean {
  if (hashUnit(seed, slot, 1) >= GUST_PROBABILITY) return false;
  out.start = (slot + hashUnit(seed, slot, 2)) * GUST_SLOT;
  out.rise = GUST_RISE[0] + (GUST_RISE[1] - GUST_RISE[0]) * hashUnit(seed, slot, 3);
  out.hold = GUST_HOLD[0] + (GUST_HOLD[1] - GUST_HOLD[0]) * hashUnit(seed, slot, 4);
  out.fall = GUST_FALL[0] + (GUST_FALL[1] - GUST_FALL[0]) * hashUnit(seed, slot, 5);
  out.peak = gust * (GUST_PEAK[0] + (GUST_PEAK[1] - GUST_PEAK[0]) * hashUnit(seed, slot, 6));
  return true;
}

const gustScratch: GustEvent = { start: 0, rise: 0, hold: 0, fall: 0, peak: 0 };

/** Gust envelope at t: the largest of the overlapping events (0 when gust is 0). */
export function gustEnvelope(seed: number, gust: number, t: number): number {
  if (gust <= 0) return 0;
  const slot = floor(t / GUST_SLOT);
  let env = 0;
  for (let s = slot - GUST_SLOTS_BACK; s <= slot; s++) {
    if (!gustOfSlot(seed, s, gust, gustScratch)) continue;
    const e = gustScratch.peak * gustShape(gustScratch.rise, gustScratch.hold, gustScratch.fall, t - gustScratch.start);
    if (e > env) env = e;
  }
  return env;
}

/** The gust events starting in [t0, t1), for tests and plots. */
export function gustEvents(seed: number, gust: number, t0: number, t1: number): GustEvent[] {
  const out: GustEvent[] = [];
  for (let s = Math.floor(t0 / GUST_SLOT); s * GUST_SLOT < t1; s++) {
    const e: GustEvent = { start: 0, rise: 0, hold: 0, fall: 0, peak: 0 };
    if (gustOfSlot(seed, s, gust, e) && e.start >= t0 && e.start < t1) out.push(e);
  }
  return out;
}

/** Cached gust slots and noise knots per octave (direct-mapped by index; powers of two). */
const SLOT_CACHE = 8;
const KNOT_CACHE = 8;

/**
 * factor(t) = slowModulation(seed, t, depth) × (1 + gustEnvelope(seed, gust, t)), the same values
 * as those pure functions, with the hashes of the gust slots and noise knots last used kept: a
 * WindField whose gusts roll asks for many nearby times each frame (one per point sampled), and
 * each answer then costs a few comparisons and two fades. No allocation after construction.
 */
export class MeanFactor {
  private seed = NaN;
  /** Per cached slot: its index (NaN: empty), and its event's start, rise, hold, fall, peak per unit `gust` (peak -1: no event). */
  private readonly slotIndex = new Float64Array(SLOT_CACHE).fill(NaN);
  private readonly slotEvent = new Float64Array(5 * SLOT_CACHE);
  /** Per noise octave and cached knot: its index (NaN: empty) and the values at it and the next. */
  private readonly knotIndex = new Float64Array(2 * KNOT_CACHE).fill(NaN);
  private readonly knotValue = new Float64Array(4 * KNOT_CACHE);

  /** The factor at time t for (seed, gust, modulation depth); depth 0 leaves the modulation out. */
  at(seed: number, gust: number, depth: number, t: number): number {
    if (seed !== this.seed) {
      this.seed = seed;
      this.slotIndex.fill(NaN);
      this.knotIndex.fill(NaN);
    }
    let f = 1;
    if (gust > 0) f += gust * this.envelope(t);
    if (depth > 0) f *= 1 + depth * (MOD_WEIGHT_1 * this.noise(0, 101, t, MOD_KNOT_1) + (1 - MOD_WEIGHT_1) * this.noise(1, 202, t, MOD_KNOT_2));
    return f;
  }

  /** gustEnvelope(seed, 1, t): the largest of the overlapping events. */
  private envelope(t: number): number {
    const slot = floor(t / GUST_SLOT);
    let env = 0;
    for (let s = slot - GUST_SLOTS_BACK; s <= slot; s++) {
      const c = s & (SLOT_CACHE - 1), e = 5 * c, ev = this.slotEvent;
      if (this.slotIndex[c] !== s) {
        this.slotIndex[c] = s;
        if (gustOfSlot(this.seed, s, 1, gustScratch)) {
          ev[e] = gustScratch.start; ev[e + 1] = gustScratch.rise; ev[e + 2] = gustScratch.hold; ev[e + 3] = gustScratch.fall; ev[e + 4] = gustScratch.peak;
        } else ev[e + 4] = -1;
      }
      if (ev[e + 4] < 0) continue;
      const v = ev[e + 4] * gustShape(ev[e + 1], ev[e + 2], ev[e + 3], t - ev[e]);
      if (v > env) env = v;
    }
    return env;
  }

  /** valueNoise(seed, channel, t, period) with the knots of octave k kept. */
  private noise(k: number, channel: number, t: number, period: number): number {
    const s = t / period;
    const i = floor(s);
    const f = s - i;
    const kv = this.knotValue, c = k * KNOT_CACHE + (i & (KNOT_CACHE - 1));
    if (this.knotIndex[c] !== i) {
      this.knotIndex[c] = i;
      kv[2 * c] = 2 * hashUnit(this.seed, i, channel) - 1;
      kv[2 * c + 1] = 2 * hashUnit(this.seed, i + 1, channel) - 1;
    }
    const fade = f * f * f * (f * (f * 6 - 15) + 10);
    return kv[2 * c] + (kv[2 * c + 1] - kv[2 * c]) * fade;
  }
}
