/**
 * The time-varying factor of the mean wind (wind-field.ts): a slow modulation (two octaves of
 * smooth seeded value noise around 1) and gust events (rise, hold, fall; at most one per slot),
 * both pure functions of (seed, t).
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
