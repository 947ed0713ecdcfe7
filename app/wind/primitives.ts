/**
 * Wind primitives (Zioma 2007 §6.3.1: v = G(x, t), analytic, local: "explosions or the rotors of a
 * low-flying chopper") that WindField.sample() adds on top of the mean wind and the turbulence:
 * a blast (a front expanding from a point, falling with distance and time), a vortex (a swirl about
 * a vertical axis, a hovering rotor's) and a fan (a jet blowing one way). Each acts on the ground
 * plane (the same at every height) and is a pure function of (x, z, t): no state advances, so any
 * frame can be evaluated directly and the same start times give the same frames.
 *
 * How people place them: `WindPrimitiveSpec` (kind, x, z, strength, radius, duration, direction,
 * start), validated against PRIMITIVE_PARAMS (a RangeError names the allowed range), turned into a
 * primitive by `createPrimitive`, and written in the page address by `formatPrimitives`.
 * Outside the GPU contract: a GPU method feels them through WindField.primitivesAt().
 */
import { choiceParam, describeRange, numberParam, validatePatch } from "../math/params";
import { smoothstep } from "./hash";
import type { Vec } from "./turbulence";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, exp, min, max, cos, sin, atan2, PI } = Math;

/** An analytic local wind v = G(x, t) (Zioma 2007 §6.3.1), added to out[offset..offset+2]. Pure; must not allocate. */
export interface WindPrimitive {
  add(x: number, y: number, z: number, t: number, out: Vec, offset: number): void;
}

/** 0 outside [start, start + duration], 1 inside, eased in and out over `fade` seconds at each end. */
function fadeWindow(t: number, start: number, duration: number, fade: number): number {
  if (t <= start || t >= start + duration) return 0;
  const f = min(1, (t - start) / fade, (start + duration - t) / fade);
  return smoothstep(f);
}

/** A vortex around a vertical axis at (x, z): tangential speed peaks at `radius`, decays as 1/r beyond. */
export class Vortex implements WindPrimitive {
  constructor(
    public x: number,
    public z: number,
    /** m */
    public radius: number,
    /** m/s at the radius; positive blows along (-dz, dx) for an offset (dx, dz) from the centre. */
    public speed: number,
    /** s: active from start for duration, fading in and out over 1 s (or a quarter of a shorter duration). */
    public start = -Infinity,
    public duration = Infinity,
  ) {}

  add(x: number, _y: number, z: number, t: number, out: Vec, offset: number): void {
    const win = Number.isFinite(this.start) ? fadeWindow(t, this.start, this.duration, min(1, this.duration / 4)) : 1;
    if (win === 0) return;
    const dx = x - this.x, dz = z - this.z;
    const r2 = dx * dx + dz * dz;
    if (r2 === 0) return;
    const r = sqrt(r2);
    const q = r / this.radius;
    const v = (win * this.speed * 2 * q) / (1 + q * q); // peak `speed` at r = radius
    out[offset] += (-dz / r) * v;
    out[offset + 2] += (dx / r) * v;
  }
}

/**
 * A blast at (x, z) at time `time`: a radial front moving out at `frontSpeed`, Gaussian of `width`,
 * decaying with `decay` s (so by e every frontSpeed × decay metres it travels); over after
 * `duration` s (eased out over its last half second, or quarter of a shorter duration).
 */
export class Blast implements WindPrimitive {
  constructor(
    public x: number,
    public z: number,
    public time: number,
    /** m/s at the front */
    public peak: number,
    public frontSpeed = 30,
    public width = 3,
    public decay = 1.5,
    public duration = Infinity,
  ) {}

  add(x: number, _y: number, z: number, t: number, out: Vec, offset: number): void {
    const age = t - this.time;
    if (age < 0 || age >= this.duration) return;
    const dx = x - this.x, dz = z - this.z;
    const r2 = dx * dx + dz * dz;
    if (r2 === 0) return;
    const r = sqrt(r2);
    const e = (r - this.frontSpeed * age) / this.width;
    let v = this.peak * exp(-e * e - age / this.decay);
    if (this.duration !== Infinity) v *= smoothstep(min(1, (this.duration - age) / min(0.5, this.duration / 4)));
    out[offset] += (dx / r) * v;
    out[offset + 2] += (dz / r) * v;
  }
}

/** How much wider a fan's jet gets per metre downstream (a free jet spreads at about this rate). */
export const FAN_SPREAD = 0.15;

/**
 * A fan at (x, z) blowing toward `direction` (degrees, 0 toward +x, 90 toward +z): a jet of
 * half-width `radius` at the fan that widens by FAN_SPREAD per metre downstream, its centre-line
 * speed falling as radius / width (the jet's momentum spread over its width), a Gaussian across;
 * behind the fan it fades within half a radius. Active from `start` for `duration`, eased in and
 * out over 1 s (or a quarter of a shorter duration).
 */
export class Fan implements WindPrimitive {
  private readonly fx: number;
  private readonly fz: number;

  constructor(
    public readonly x: number,
    public readonly z: number,
    public readonly direction: number,
    /** m: the jet's half-width at the fan */
    public readonly radius: number,
    /** m/s at the fan, on its axis */
    public readonly speed: number,
    public readonly start = -Infinity,
    public readonly duration = Infinity,
  ) {
    const th = (direction * PI) / 180;
    this.fx = cos(th);
    this.fz = sin(th);
  }

  add(x: number, _y: number, z: number, t: number, out: Vec, offset: number): void {
    const win = Number.isFinite(this.start) ? fadeWindow(t, this.start, this.duration, min(1, this.duration / 4)) : 1;
    if (win === 0) return;
    const dx = x - this.x, dz = z - this.z;
    const s = dx * this.fx + dz * this.fz, c = dz * this.fx - dx * this.fz;
    const w = this.radius + FAN_SPREAD * max(0, s);
    const q = c / w;
    let v = (win * this.speed * this.radius * exp(-q * q)) / w;
    if (s < 0) {
      const b = s / (0.5 * this.radius);
      v *= exp(-b * b);
    }
    out[offset] += this.fx * v;
    out[offset + 2] += this.fz * v;
  }
}

// ---------------------------------------------------------------------------------------------
// Placed by people: the declarations, validation, the primitive, the text form.

export const WIND_PRIMITIVE_KINDS = ["blast", "vortex", "fan"] as const;
export type WindPrimitiveKind = (typeof WIND_PRIMITIVE_KINDS)[number];

/** A blast's front travels at this speed, m/s, and is this wide, m (a wind front, not a shock: slow enough to watch). */
export const BLAST_FRONT_SPEED = 30;
export const BLAST_FRONT_WIDTH = 3;
/** At most this many primitives in the scene at once. */
export const MAX_WIND_PRIMITIVES = 16;
/** Where a primitive may stand: |x|, |z| up to this, m (the ground is 400 m across). */
export const PRIMITIVE_REACH = 100;

/** The declaration of each field people set (ranges, units, meaning): validation, the panel's sliders. */
export const PRIMITIVE_PARAMS = {
  kind: choiceParam("Kind", WIND_PRIMITIVE_KINDS, "blast", "blast: a front expanding from a point; vortex: a swirl about a vertical axis (a hovering rotor); fan: a jet blowing one way"),
  x: numberParam("x", -PRIMITIVE_REACH, PRIMITIVE_REACH, 0.1, 0, "m", "Where it stands on the ground: x"),
  z: numberParam("z", -PRIMITIVE_REACH, PRIMITIVE_REACH, 0.1, 0, "m", "Where it stands on the ground: z"),
  strength: numberParam("Strength", 0.1, 60, 0.1, 20, "m/s", "Blast: the wind at its front as it leaves the centre; vortex: the swirl at its radius; fan: the jet on its axis at the fan"),
  radius: numberParam("Radius", 0.5, 50, 0.5, 8, "m", "Blast: its front loses a factor e every radius it travels; vortex: where the swirl is fastest; fan: the jet's half-width at the fan"),
  duration: numberParam("Duration", 0.1, 3600, 0.1, 10, "s", "How long it acts from its start (left out: until removed)"),
  direction: numberParam("Direction", 0, 360, 1, 0, "deg", "Fan only: the way it blows, 0 toward +x, 90 toward +z (left out: toward the tree at the origin)"),
  start: numberParam("Start", 0, 1e7, 0.001, 0, "s", "The clock time it starts (left out: the clock's time now)"),
} as const;

/** What a script or the panel asks for. Left out: duration (until removed), direction (toward the origin), start (now). */
export interface WindPrimitiveSpec {
  kind: WindPrimitiveKind;
  x: number;
  z: number;
  strength: number;
  radius: number;
  duration?: number | null;
  direction?: number;
  start?: number;
}

/** A primitive in the scene: its id and every field settled (duration null: until removed; direction: fans only). */
export interface WindPrimitiveInfo {
  id: number;
  kind: WindPrimitiveKind;
  x: number;
  z: number;
  strength: number;
  radius: number;
  duration: number | null;
  direction: number;
  start: number;
}

const REQUIRED = ["kind", "x", "z", "strength", "radius"] as const;

/** The way from (x, z) toward the origin, degrees in [0, 360) (0 at the origin itself). */
export function towardOrigin(x: number, z: number): number {
  if (x === 0 && z === 0) return 0;
  const deg = (atan2(-z, -x) * 180) / PI;
  return Math.round(((deg + 360) % 360) * 1e4) / 1e4;
}

/** Values are kept as the page address writes them (1e-4 of their unit; a start to the microsecond), so a reload gives the same frames. */
const r4 = (v: number): number => Math.round(v * 1e4) / 1e4;
const r6 = (v: number): number => Math.round(v * 1e6) / 1e6;

/**
 * Checks a spec (a RangeError naming the allowed keys or range) and settles its defaults: no
 * duration is until removed, a fan with no direction blows toward the origin, no start is `now`.
 * Values are rounded as the page address writes them.
 */
export function validatePrimitive(spec: unknown, now: number, owner = "windPrimitive"): Omit<WindPrimitiveInfo, "id"> {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    throw new RangeError(`${owner} takes { kind, x, z, strength, radius, duration?, direction?, start? }; got ${JSON.stringify(spec)}`);
  }
  const raw = { ...(spec as Record<string, unknown>) };
  const missing = REQUIRED.filter((k) => raw[k] === undefined);
  if (missing.length) throw new RangeError(`${owner} needs ${REQUIRED.join(", ")}; missing: ${missing.join(", ")}`);
  if (raw.duration === null || raw.duration === undefined) delete raw.duration;
  const p = validatePatch(owner, PRIMITIVE_PARAMS, raw);
  const kind = p.kind as WindPrimitiveKind, x = r4(p.x!), z = r4(p.z!);
  return {
    kind, x, z, strength: r4(p.strength!), radius: r4(p.radius!),
    duration: p.duration === undefined ? null : r4(p.duration),
    direction: kind === "fan" ? r4(p.direction ?? towardOrigin(x, z)) : 0,
    start: r6(p.start ?? now),
  };
}

/** The wind of a settled primitive. */
export function createPrimitive(p: Omit<WindPrimitiveInfo, "id">): WindPrimitive {
  const duration = p.duration ?? Infinity;
  switch (p.kind) {
    case "blast":
      return new Blast(p.x, p.z, p.start, p.strength, BLAST_FRONT_SPEED, BLAST_FRONT_WIDTH, p.radius / BLAST_FRONT_SPEED, duration);
    case "vortex":
      return new Vortex(p.x, p.z, p.radius, p.strength, p.start, duration);
    case "fan":
      return new Fan(p.x, p.z, p.direction, p.radius, p.strength, p.start, duration);
  }
}

/** How far a blast's front has travelled at time t, m; -1 before it starts, once it is over, or once it has fallen under 1 % of its strength. */
export function blastFrontRadius(p: Omit<WindPrimitiveInfo, "id">, t: number): number {
  const age = t - p.start;
  if (p.kind !== "blast" || age < 0 || (p.duration !== null && age >= p.duration)) return -1;
  return age > (p.radius / BLAST_FRONT_SPEED) * Math.log(100) ? -1 : BLAST_FRONT_SPEED * age;
}

function round(v: number): string {
  return String(r4(v));
}

/**
 * The page address's text of the primitives: `kind,x,z,strength,radius,duration,start` per
 * primitive (duration `inf` when until removed), a fan's direction after them, `;` between:
 * `blast,8,0,20,8,inf,3.5;fan,-10,0,12,2,30,0,0`.
 */
export function formatPrimitives(list: readonly Omit<WindPrimitiveInfo, "id">[]): string {
  return list
    .map((p) => [p.kind, round(p.x), round(p.z), round(p.strength), round(p.radius), p.duration === null ? "inf" : round(p.duration), String(r6(p.start)), ...(p.kind === "fan" ? [round(p.direction)] : [])].join(","))
    .join(";");
}

/** Reads formatPrimitives()'s text into specs; a RangeError names the primitive and what is wrong. */
export function parsePrimitives(text: string): WindPrimitiveSpec[] {
  const items = text.split(";").filter((s) => s.trim() !== "");
  if (items.length > MAX_WIND_PRIMITIVES) throw new RangeError(`at most ${MAX_WIND_PRIMITIVES} wind primitives; got ${items.length}`);
  return items.map((item, i) => {
    const f = item.split(",").map((s) => s.trim());
    const kind = f[0] as WindPrimitiveKind;
    const want = kind === "fan" ? 8 : 7;
    if (!(WIND_PRIMITIVE_KINDS as readonly string[]).includes(kind)) throw new RangeError(`wind primitive ${i + 1}: kind must be ${describeRange(PRIMITIVE_PARAMS.kind)}; got ${JSON.stringify(f[0])}`);
    if (f.length !== want) throw new RangeError(`wind primitive ${i + 1}: a ${kind} is written kind,x,z,strength,radius,duration,start${kind === "fan" ? ",direction" : ""}; got "${item}"`);
    const num = (k: number, name: string): number => {
      const v = Number(f[k]);
      if (f[k] === "" || !Number.isFinite(v)) throw new RangeError(`wind primitive ${i + 1}: ${name} must be a number; got "${f[k]}"`);
      return v;
    };
    const spec: WindPrimitiveSpec = { kind, x: num(1, "x"), z: num(2, "z"), strength: num(3, "strength"), radius: num(4, "radius"), duration: f[5] === "inf" ? null : num(5, "duration"), start: num(6, "start") };
    if (kind === "fan") spec.direction = num(7, "direction");
    return spec;
  });
}
