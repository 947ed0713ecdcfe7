/**
 * Wind conditions: named presets on the Beaufort scale, and a wind timeline of
 * keyframes (speed, direction, gust over time) played in a loop or once and kept in the page address.
 *
 * Beaufort scale: the speeds are the World Meteorological Organization's Beaufort scale of wind
 * force, "equivalent speed at 10 m above open flat ground", in m/s (WMO-No. 8, Guide to Instruments
 * and Methods of Observation, chapter "Measurement of surface wind"). The table's
 * ranges are rounded to 0.1 m/s and leave gaps (10.7 to 10.8): `beaufortNumber` reads each force as
 * running from its lower limit up to the next force's, so every speed has a force.
 *
 * A preset sets the mean speed to the middle of its force's range, with turbulence and gusts that
 * rise with the force. Plain data and pure functions: no Babylon, no clock, no randomness; the
 * range limits of speed, direction and gust are WIND_PARAMS's (wind-field.ts), declared once.
 *
 * Timeline text for the page address: "loop|0,6,0,0.3;10,20,90,0.5" = mode, then per key
 * t,speed,direction,gust (s, m/s, deg the way the wind blows, 0 to 1), numbers with at most 3
 * decimals. It uses only digits, '.', ',', ';', '|' and the mode's letters, so it survives a URL
 * hash and URLSearchParams (no space, '#', '&', '=', '?', '%', '+').
 */
import { WIND_PARAMS } from "./wind-field";
import type { NumberParam } from "../math/params";

// Math's members read once (jest's vm makes every read of the global `Math` slow).
const { floor, ceil, round } = Math;

// ---------------------------------------------------------------------------------------------
// The Beaufort scale

/** One force of the Beaufort scale: speeds at 10 m, m/s, as the WMO table gives them (force 12 has no upper limit). */
export interface BeaufortForce {
  readonly beaufort: number;
  readonly name: string;
  readonly range: readonly [number, number];
}

const force = (beaufort: number, name: string, lo: number, hi: number): BeaufortForce =>
  Object.freeze({ beaufort, name, range: Object.freeze([lo, hi] as const) });

/** The WMO Beaufort table, forces 0 to 12, speeds at 10 m in m/s. */
export const BEAUFORT_SCALE: readonly BeaufortForce[] = Object.freeze([
  force(0, "Calm", 0, 0.2),
  force(1, "Light air", 0.3, 1.5),
  force(2, "Light breeze", 1.6, 3.3),
  force(3, "Gentle breeze", 3.4, 5.4),
  force(4, "Moderate breeze", 5.5, 7.9),
  force(5, "Fresh breeze", 8.0, 10.7),
  force(6, "Strong breeze", 10.8, 13.8),
  force(7, "Near gale", 13.9, 17.1),
  force(8, "Gale", 17.2, 20.7),
  force(9, "Strong gale", 20.8, 24.4),
  force(10, "Storm", 24.5, 28.4),
  force(11, "Violent storm", 28.5, 32.6),
  force(12, "Hurricane", 32.7, Infinity),
]);

/** The Beaufort force of a speed at 10 m (m/s): the last force whose lower limit it reaches; -1 for a negative or non-finite speed. */
export function beaufortNumber(speed: number): number {
  if (!(speed >= 0) || speed === Infinity) return -1;
  let n = 0;
  while (n + 1 < BEAUFORT_SCALE.length && speed >= BEAUFORT_SCALE[n + 1].range[0]) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Presets

/** Beaufort-scale presets (speeds at 10 m, WMO Beaufort table). */
export interface WindPreset {
  /** Kebab-case name, as in the URL and the API: "calm", "light-breeze", ... */
  readonly id: string;
  /** What the panel shows: "Light breeze (Beaufort 2, 1.6-3.3 m/s)". */
  readonly label: string;
  readonly beaufort: number;
  /** The force's speeds at 10 m, m/s. */
  readonly range: readonly [number, number];
  /** The mean speed the preset sets, m/s: the middle of the range. */
  readonly speed: number;
  /** Turbulence intensity (WindSettings.turbulence), rising with the force. */
  readonly turbulence: number;
  /** Gust strength (WindSettings.gust), rising with the force. */
  readonly gust: number;
}

const tableSpeed = (v: number): string => (v === 0 ? "0" : v.toFixed(1));

function preset(beaufort: number, turbulence: number, gust: number): WindPreset {
  const { name, range } = BEAUFORT_SCALE[beaufort];
  return Object.freeze({
    id: name.toLowerCase().replace(/ /g, "-"),
    label: `${name} (Beaufort ${beaufort}, ${tableSpeed(range[0])}-${tableSpeed(range[1])} m/s)`,
    beaufort,
    range,
    speed: round(((range[0] + range[1]) / 2) * 1000) / 1000,
    turbulence,
    gust,
  });
}

/** Calm, light breeze, fresh breeze, strong breeze, gale, storm: Beaufort 0, 2, 5, 6, 8, 10. */
export const WIND_PRESETS: readonly WindPreset[] = Object.freeze([
  preset(0, 0.1, 0.05),
  preset(2, 0.15, 0.15),
  preset(5, 0.25, 0.3),
  preset(6, 0.3, 0.4),
  preset(8, 0.4, 0.5),
  preset(10, 0.5, 0.6),
]);

/** The preset with this id; throws a RangeError naming the presets. */
export function windPreset(id: string): WindPreset {
  for (const p of WIND_PRESETS) if (p.id === id) return p;
  throw new RangeError(`no wind preset ${JSON.stringify(id)}; the presets are: ${WIND_PRESETS.map((p) => p.id).join(", ")}`);
}

/** The preset whose Beaufort force a mean speed (m/s) falls in (see beaufortNumber), or null (forces 1, 3, 4, 7, 9, 11, 12 have none). */
export function presetOf(speed: number): WindPreset | null {
  const n = beaufortNumber(speed);
  for (const p of WIND_PRESETS) if (p.beaufort === n) return p;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Timeline

/** A keyframe of the wind timeline: at time t (s), speed (m/s), direction (deg, the way it blows), gust (0..1). */
export interface WindKey {
  t: number;
  speed: number;
  direction: number;
  gust: number;
}
export interface WindTimeline {
  keys: WindKey[];
  loop: boolean;
}

/** At most this many keys in a timeline. */
export const TIMELINE_MAX_KEYS = 32;
/** No key later than this, s (an hour: keeps the address short and its numbers plain). */
export const TIMELINE_MAX_SECONDS = 3600;
/** Digits after the point in the timeline text. */
const DECIMALS = 1000;

function checkRange(where: string, what: string, v: unknown, min: number, max: number, unit: string): void {
  const u = unit ? " " + unit : "";
  if (typeof v !== "number" || !Number.isFinite(v)) throw new RangeError(`${where}: ${what} ${typeof v === "number" ? v : (JSON.stringify(v) ?? String(v))} is not a number (${min} to ${max}${u})`);
  if (v > max) throw new RangeError(`${where}: ${what} ${v}${u} is past ${max}`);
  if (v < min) throw new RangeError(`${where}: ${what} ${v}${u} is below ${min}`);
}
const checkParam = (where: string, name: string, v: unknown, d: NumberParam): void => checkRange(where, name, v, d.min, d.max, d.unit);

/**
 * Throws a RangeError with a message a person can act on: at least 1 key, at most 32, each key's
 * t (0 to 3600 s), speed, direction and gust within WIND_PARAMS's ranges, the first key at t = 0,
 * times increasing ("wind timeline key 3: t = 2 s comes before key 2's 5 s; times must increase").
 */
export function validateTimeline(tl: WindTimeline): void {
  if (typeof tl !== "object" || tl === null || !Array.isArray(tl.keys)) throw new RangeError("a wind timeline is { keys: [{ t, speed, direction, gust }, ...], loop: true or false }");
  if (typeof tl.loop !== "boolean") throw new RangeError(`a wind timeline's loop must be true or false; got ${JSON.stringify(tl.loop)}`);
  const n = tl.keys.length;
  if (n === 0) throw new RangeError("a wind timeline needs at least 1 key; got none");
  if (n > TIMELINE_MAX_KEYS) throw new RangeError(`a wind timeline has at most ${TIMELINE_MAX_KEYS} keys; got ${n}`);
  for (let i = 0; i < n; i++) {
    const k = tl.keys[i];
    const where = `wind timeline key ${i + 1}`;
    if (typeof k !== "object" || k === null) throw new RangeError(`${where}: expected { t, speed, direction, gust }; got ${JSON.stringify(k)}`);
    checkRange(where, "t =", k.t, 0, TIMELINE_MAX_SECONDS, "s");
    if (i === 0 && k.t !== 0) throw new RangeError(`${where}: t = ${k.t} s; the first key must be at t = 0`);
    if (i > 0) {
      const prev = tl.keys[i - 1].t;
      if (k.t <= prev) throw new RangeError(`${where}: t = ${k.t} s comes ${k.t === prev ? "at the same time as" : "before"} key ${i}'s ${prev} s; times must increase`);
    }
    checkParam(where, "speed", k.speed, WIND_PARAMS.speed);
    checkParam(where, "direction", k.direction, WIND_PARAMS.direction);
    checkParam(where, "gust", k.gust, WIND_PARAMS.gust);
  }
}

/** Degrees into [0, 360). */
const wrapDegrees = (d: number): number => d - 360 * floor(d / 360);

function setKey(out: { speed: number; direction: number; gust: number }, k: WindKey): void {
  out.speed = k.speed;
  out.direction = wrapDegrees(k.direction);
  out.gust = k.gust;
}

/**
 * The wind at time t (s), written into out (no allocation): piecewise-linear in speed and gust;
 * direction along the shorter arc (350 -> 10 goes through 0; a turn of exactly 180 deg goes the way
 * of increasing angle), returned in [0, 360). Before the first key (t < 0): the first key. loop: t
 * wraps modulo the last key's time, so the last key's time plays the first key (a one-key timeline
 * is constant); once: from the last key on, the last key. Throws on a timeline with no keys.
 */
export function timelineAt(tl: WindTimeline, t: number, out: { speed: number; direction: number; gust: number }): void {
  const keys = tl.keys;
  const n = keys.length;
  if (n === 0) throw new RangeError("a wind timeline needs at least 1 key; got none");
  const end = keys[n - 1].t;
  if (tl.loop && end > 0 && t >= end) t -= end * floor(t / end);
  if (!(t > keys[0].t)) return setKey(out, keys[0]); // also NaN
  if (t >= end) return setKey(out, keys[n - 1]);
  let i = 0;
  while (keys[i + 1].t <= t) i++;
  const a = keys[i];
  const b = keys[i + 1];
  const f = (t - a.t) / (b.t - a.t);
  out.speed = a.speed + f * (b.speed - a.speed);
  out.gust = a.gust + f * (b.gust - a.gust);
  let turn = b.direction - a.direction;
  turn -= 360 * ceil((turn - 180) / 360); // into (-180, 180]
  out.direction = wrapDegrees(a.direction + f * turn);
}

const roundTo3 = (v: number): number => round(v * DECIMALS) / DECIMALS;

/**
 * The timeline as text for the page address: "loop|0,6,0,0.3;10,20,90,0.5" (mode, then
 * t,speed,direction,gust per key, rounded to 3 decimals). Validates first; throws a RangeError if
 * rounding would put two keys at the same time (keys closer than 0.001 s).
 * parseTimeline(formatTimeline(x)) deep-equals x for a valid x whose numbers have at most 3 decimals.
 */
export function formatTimeline(tl: WindTimeline): string {
  validateTimeline(tl);
  let text = tl.loop ? "loop|" : "once|";
  let prev = -1;
  for (let i = 0; i < tl.keys.length; i++) {
    const k = tl.keys[i];
    const t = roundTo3(k.t);
    if (t <= prev) throw new RangeError(`wind timeline key ${i + 1}: t = ${k.t} s rounds to key ${i}'s ${prev} s at 3 decimals; keep keys at least 0.001 s apart`);
    prev = t;
    // roundTo3 of a value in a validated range is a plain decimal: no exponent, no sign, no -0 ("0").
    text += `${i ? ";" : ""}${t},${roundTo3(k.speed)},${roundTo3(k.direction)},${roundTo3(k.gust)}`;
  }
  return text;
}

const FIELDS = ["t", "speed", "direction", "gust"] as const;
/** A plain decimal: what formatTimeline writes (and a leading '-', so a negative value gets the range message). */
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;
const quote = (s: string): string => `'${s.length > 40 ? s.slice(0, 40) + "..." : s}'`;

/** Reads formatTimeline's text; throws a RangeError saying what is wrong and where, then validates the timeline. */
export function parseTimeline(text: string): WindTimeline {
  if (typeof text !== "string") throw new RangeError(`a wind timeline's text must be a string like "loop|0,6,0,0.3;10,20,90,0.5"; got ${typeof text}`);
  const bar = text.indexOf("|");
  const mode = bar < 0 ? text : text.slice(0, bar);
  if (bar < 0 || (mode !== "loop" && mode !== "once")) {
    throw new RangeError(`a wind timeline's text starts with "loop|" or "once|", then keys t,speed,direction,gust separated by ';' (e.g. "loop|0,6,0,0.3;10,20,90,0.5"); got ${quote(text)}`);
  }
  const body = text.slice(bar + 1);
  const parts = body === "" ? [] : body.split(";");
  if (parts.length > TIMELINE_MAX_KEYS) throw new RangeError(`a wind timeline has at most ${TIMELINE_MAX_KEYS} keys; got ${parts.length}`);
  const keys: WindKey[] = [];
  for (let i = 0; i < parts.length; i++) {
    const fields = parts[i].split(",");
    const where = `wind timeline key ${i + 1}`;
    if (fields.length !== 4) throw new RangeError(`${where}: expected 4 numbers t,speed,direction,gust; got ${quote(parts[i])}`);
    const v = [0, 0, 0, 0];
    for (let j = 0; j < 4; j++) {
      if (!DECIMAL.test(fields[j])) throw new RangeError(`${where}: ${FIELDS[j]} ${quote(fields[j])} is not a number`);
      v[j] = Number(fields[j]);
    }
    keys.push({ t: v[0], speed: v[1], direction: v[2], gust: v[3] });
  }
  const tl: WindTimeline = { keys, loop: mode === "loop" };
  validateTimeline(tl);
  return tl;
}

// ---------------------------------------------------------------------------------------------
// Example timelines

/** A key at t (s) with a preset's speed and gust, blowing toward direction (deg). */
const presetKey = (t: number, id: string, direction: number): WindKey => {
  const p = windPreset(id);
  return Object.freeze({ t, speed: p.speed, direction, gust: p.gust });
};
const example = (loop: boolean, ...keys: WindKey[]): WindTimeline => Object.freeze({ keys: Object.freeze(keys) as WindKey[], loop });

/**
 * Named timelines to start from. Frozen: copy one (structuredClone) before editing it.
 *  - "gust-front": calm, a gale arriving in 3 s and veering 30 deg, held 5 s, dying back to calm by 20 s; loop.
 *  - "veering": a strong breeze whose direction turns 180 deg over 30 s and back over the next 30; loop.
 *  - "storm-build": light breeze to storm over 60 s through fresh breeze, strong breeze and gale, turning 40 deg; once.
 */
export const EXAMPLE_TIMELINES: Readonly<Record<string, WindTimeline>> = Object.freeze({
  "gust-front": example(true, presetKey(0, "calm", 0), presetKey(3, "gale", 30), presetKey(8, "gale", 30), presetKey(20, "calm", 0)),
  veering: example(
    true,
    presetKey(0, "strong-breeze", 0),
    presetKey(15, "strong-breeze", 90),
    presetKey(30, "strong-breeze", 180),
    presetKey(45, "strong-breeze", 90),
    presetKey(60, "strong-breeze", 0),
  ),
  "storm-build": example(
    false,
    presetKey(0, "light-breeze", 0),
    presetKey(15, "fresh-breeze", 10),
    presetKey(30, "strong-breeze", 20),
    presetKey(45, "gale", 30),
    presetKey(60, "storm", 40),
  ),
});
