/**
 * Wind primitives placed by people (Zioma 2007 §6.3.1): a blast's front reaches farther points
 * later, a vortex pushes opposite ways on opposite sides, a fan blows one way; what the API and the
 * address accept, and the messages for what they refuse.
 */
import { BLAST_FRONT_SPEED, blastFrontRadius, createPrimitive, formatPrimitives, parsePrimitives, towardOrigin, validatePrimitive } from "../../app/wind/primitives";
import { WindField } from "../../app/wind/wind-field";
import { WindPrimitives } from "../../app/sandbox/wind-primitives";

/** A calm field (no mean wind at all) with the primitive placed by a spec. */
function calmWith(spec: Parameters<typeof validatePrimitive>[0], now = 0): WindField {
  const w = new WindField({ speed: 0, vertical: 0, gust: 0, turbulence: 0 });
  w.primitives.push(createPrimitive(validatePrimitive(spec, now)));
  return w;
}

/** The horizontal speed at (x, z) and time t. */
function speedAt(w: WindField, x: number, z: number, t: number, out = new Float64Array(3)): number {
  w.sample(x, 1.5, z, t, out);
  return Math.hypot(out[0], out[2]);
}

describe("a blast", () => {
  it("reaches farther points later: the time of its strongest wind grows with distance, at the front's speed; and weaker", () => {
    const w = calmWith({ kind: "blast", x: 4, z: -3, strength: 25, radius: 15 }, 2);
    const dt = 0.002;
    const arrivals: number[] = [], peaks: number[] = [];
    for (const r of [5, 10, 20, 30, 45]) {
      // Along a direction away from the centre (any: the blast is radial).
      const x = 4 + r * Math.cos(0.7), z = -3 + r * Math.sin(0.7);
      let best = 0, at = -1;
      for (let t = 0; t < 5; t += dt) {
        const s = speedAt(w, x, z, t);
        if (s > best) [best, at] = [s, t];
      }
      arrivals.push(at);
      peaks.push(best);
    }
    for (let i = 1; i < arrivals.length; i++) {
      expect(arrivals[i]).toBeGreaterThan(arrivals[i - 1]);
      expect(peaks[i]).toBeLessThan(peaks[i - 1]);
    }
    // Nothing before its start (t = 2), and the front travels at BLAST_FRONT_SPEED: between 10 and
    // 45 m the arrival moves by 35 m over that speed (the decay pulls each peak a little earlier).
    expect(arrivals[0]).toBeGreaterThan(2);
    expect((arrivals[4] - arrivals[1]) / (35 / BLAST_FRONT_SPEED)).toBeGreaterThan(0.9);
    expect((arrivals[4] - arrivals[1]) / (35 / BLAST_FRONT_SPEED)).toBeLessThan(1.05);
    // It blows outward, and falls by about e every radius the front travels.
    const out = new Float64Array(3);
    w.sample(4 + 20, 0, -3, 2 + 20 / BLAST_FRONT_SPEED, out);
    expect(out[0]).toBeGreaterThan(0);
    expect(Math.abs(out[2])).toBeLessThan(1e-9);
    expect(out[0]).toBeCloseTo(25 * Math.exp(-20 / 15), 6);
    expect(speedAt(w, 24, -3, 1.99)).toBe(0);
  });

  it("is over after its duration, eased out; its front is drawn while it still blows", () => {
    const w = calmWith({ kind: "blast", x: 0, z: 0, strength: 20, radius: 30, duration: 1 }, 0);
    expect(speedAt(w, 25, 0, 25 / BLAST_FRONT_SPEED)).toBeGreaterThan(5);
    expect(speedAt(w, 30, 0, 1.0)).toBe(0);
    expect(speedAt(w, 29, 0, 0.999)).toBeLessThan(0.05);
    const p = validatePrimitive({ kind: "blast", x: 0, z: 0, strength: 20, radius: 6 }, 3);
    expect(blastFrontRadius(p, 2.9)).toBe(-1);
    expect(blastFrontRadius(p, 3.5)).toBeCloseTo(15, 9);
    expect(blastFrontRadius(p, 3 + (6 / BLAST_FRONT_SPEED) * 4.7)).toBe(-1); // under 1 % of its strength
  });
});

describe("a vortex", () => {
  it("pushes opposite ways on opposite sides, across the line to its centre, fastest at its radius", () => {
    const cx = -5, cz = 7, R = 6;
    const w = calmWith({ kind: "vortex", x: cx, z: cz, strength: 12, radius: R }, 0);
    const t = 3; // after its 1 s fade-in
    const e = new Float64Array(3), west = new Float64Array(3), n = new Float64Array(3), s = new Float64Array(3);
    w.sample(cx + R, 0, cz, t, e);
    w.sample(cx - R, 0, cz, t, west);
    w.sample(cx, 0, cz + R, t, n);
    w.sample(cx, 0, cz - R, t, s);
    // East and west of it: along z, opposite signs, 12 m/s each; north and south: along x, opposite.
    expect(e[2]).toBeCloseTo(12, 9);
    expect(west[2]).toBeCloseTo(-12, 9);
    expect(Math.abs(e[0]) + Math.abs(west[0])).toBeLessThan(1e-9);
    expect(n[0]).toBeCloseTo(-12, 9);
    expect(s[0]).toBeCloseTo(12, 9);
    // Tangential everywhere: no wind toward or away from the centre.
    for (let k = 0; k < 50; k++) {
      const a = k * 0.41, r = 0.5 + k * 0.6;
      const x = cx + r * Math.cos(a), z = cz + r * Math.sin(a), out = new Float64Array(3);
      w.sample(x, 0, z, t, out);
      expect(Math.abs(out[0] * (x - cx) + out[2] * (z - cz))).toBeLessThan(1e-9);
    }
    expect(speedAt(w, cx + R / 2, cz, t)).toBeLessThan(12);
    expect(speedAt(w, cx + 2 * R, cz, t)).toBeLessThan(12);
    // It fades in over its first second and, placed at t = 0, blows nothing at t = 0.
    expect(speedAt(w, cx + R, cz, 0)).toBe(0);
    expect(speedAt(w, cx + R, cz, 0.5)).toBeCloseTo(6, 9);
  });

  it("turns the other way's wind on the other side in a mean wind too: the sum of both", () => {
    const w = new WindField({ speed: 5, direction: 90, gust: 0, turbulence: 0 }, { modulation: false });
    const a = new Float64Array(3), b = new Float64Array(3);
    w.primitives.push(createPrimitive(validatePrimitive({ kind: "vortex", x: 0, z: 0, strength: 4, radius: 3 }, 0)));
    w.sample(3, 0, 0, 10, a);
    w.sample(-3, 0, 0, 10, b);
    expect(a[2]).toBeCloseTo(9, 9);
    expect(b[2]).toBeCloseTo(1, 9);
  });
});

describe("a fan", () => {
  it("blows its way in front of it, widening and slowing downstream, and hardly at all behind it", () => {
    const w = calmWith({ kind: "fan", x: 10, z: 0, strength: 9, radius: 2 }, 0); // toward the origin: direction 180
    const t = 5, out = new Float64Array(3);
    w.sample(8, 0, 0, t, out);
    expect(out[0]).toBeLessThan(-7); // toward -x, near full speed just in front
    expect(Math.abs(out[2])).toBeLessThan(1e-9);
    const along = [2, 6, 12, 20].map((d) => speedAt(w, 10 - d, 0, t));
    for (let i = 1; i < along.length; i++) expect(along[i]).toBeLessThan(along[i - 1]);
    // 12 m downstream the jet is 2 + 0.15 × 12 = 3.8 m wide: 3 m to the side still blows, 10 m does not.
    expect(speedAt(w, -2, 3, t)).toBeGreaterThan(0.3 * speedAt(w, -2, 0, t));
    expect(speedAt(w, -2, 10, t)).toBeLessThan(0.01);
    expect(speedAt(w, 13, 0, t)).toBeLessThan(0.01); // behind it
  });

  it("aims at the tree at the origin unless given a direction", () => {
    expect(towardOrigin(10, 0)).toBe(180);
    expect(towardOrigin(0, -10)).toBe(90);
    expect(towardOrigin(-3, -3)).toBe(45);
    expect(validatePrimitive({ kind: "fan", x: 0, z: 5, strength: 3, radius: 1 }, 0).direction).toBe(270);
    expect(validatePrimitive({ kind: "fan", x: 0, z: 5, strength: 3, radius: 1, direction: 12 }, 0).direction).toBe(12);
  });
});

describe("placing them: validation and the address's text", () => {
  it("a bad value throws a RangeError naming the allowed range", () => {
    const ok = { kind: "blast", x: 1, z: 2, strength: 10, radius: 5 } as const;
    const bad = (patch: Record<string, unknown>) => () => validatePrimitive({ ...ok, ...patch }, 0);
    expect(bad({ kind: "boom" })).toThrow(new RangeError('windPrimitive.kind must be one of "blast", "vortex", "fan"; got "boom"'));
    expect(bad({ strength: 100 })).toThrow(new RangeError("windPrimitive.strength must be a number from 0.1 to 60 m/s; got 100"));
    expect(bad({ radius: 0 })).toThrow(/windPrimitive\.radius must be a number from 0\.5 to 50 m; got 0/);
    expect(bad({ x: 500 })).toThrow(/windPrimitive\.x must be a number from -100 to 100 m/);
    expect(bad({ z: Number.NaN })).toThrow(RangeError);
    expect(bad({ duration: -1 })).toThrow(/windPrimitive\.duration must be a number from 0\.1 to 3600 s/);
    expect(bad({ direction: 400 })).toThrow(/windPrimitive\.direction must be a number from 0 to 360 deg/);
    expect(bad({ start: -2 })).toThrow(/windPrimitive\.start must be a number from 0/);
    expect(bad({ speed: 3 })).toThrow(/windPrimitive has no parameter "speed"; its parameters are: kind, x, z, strength, radius, duration, direction, start/);
    expect(() => validatePrimitive({ kind: "vortex", x: 0, z: 0 }, 0)).toThrow(new RangeError("windPrimitive needs kind, x, z, strength, radius; missing: strength, radius"));
    expect(() => validatePrimitive("blast", 0)).toThrow(/windPrimitive takes \{ kind, x, z, strength, radius, duration\?, direction\?, start\? \}/);
    // Left out: until removed, toward the origin (fans), from now.
    expect(validatePrimitive({ ...ok, duration: null }, 4.5)).toEqual({ kind: "blast", x: 1, z: 2, strength: 10, radius: 5, duration: null, direction: 0, start: 4.5 });
  });

  it("the host's list: ids, the clock's time as start, move, remove, at most 16, messages naming the ids", () => {
    const field = new WindField({ speed: 0 });
    let now = 1.5;
    const changes: string[] = [];
    const prims = new WindPrimitives(field, () => now, (c) => changes.push(c), null);
    const a = prims.add({ kind: "vortex", x: 3, z: 4, strength: 8, radius: 4 });
    now = 2;
    const b = prims.add({ kind: "fan", x: -6, z: 0, strength: 5, radius: 2, duration: 10 });
    expect([a, b]).toEqual([1, 2]);
    expect(prims.list().map((p) => [p.id, p.kind, p.start])).toEqual([[1, "vortex", 1.5], [2, "fan", 2]]);
    expect(field.primitives).toHaveLength(2);
    expect(changes).toEqual(["primitives", "primitives"]);
    expect(prims.move(1, { x: -2, z: 9 })).toMatchObject({ id: 1, x: -2, z: 9, start: 1.5, strength: 8 });
    expect(() => prims.move(1, { x: 200, z: 0 })).toThrow(/moveWindPrimitive\.x must be a number from -100 to 100 m/);
    expect(() => prims.remove(7)).toThrow(new RangeError("removeWindPrimitive: no wind primitive with id 7; the ids are: 1, 2"));
    prims.remove(1);
    expect(prims.list().map((p) => p.id)).toEqual([2]);
    expect(field.primitives).toHaveLength(1);
    for (let i = 0; i < 15; i++) prims.add({ kind: "blast", x: i, z: 0, strength: 5, radius: 2 });
    expect(() => prims.add({ kind: "blast", x: 0, z: 0, strength: 5, radius: 2 })).toThrow(/at most 16 wind primitives at once; remove one first \(the ids are: 2, 3, .*, 17\)/);
    expect(prims.add.bind(prims, { kind: "blast", x: 0, z: 0, strength: 500, radius: 2 })).toThrow(/strength must be a number from 0.1 to 60/);
  });

  it("the address's text round-trips, and names what is wrong in it", () => {
    const specs = [
      validatePrimitive({ kind: "blast", x: 8.25, z: -1, strength: 20, radius: 8 }, 3.5),
      validatePrimitive({ kind: "vortex", x: 0, z: 12, strength: 10, radius: 5, duration: 60 }, 0),
      validatePrimitive({ kind: "fan", x: -10, z: 0, strength: 12, radius: 2, duration: 30 }, 0),
    ];
    const text = formatPrimitives(specs);
    expect(text).toBe("blast,8.25,-1,20,8,inf,3.5;vortex,0,12,10,5,60,0;fan,-10,0,12,2,30,0,0");
    expect(parsePrimitives(text).map((s) => validatePrimitive(s, 99))).toEqual(specs);
    expect(parsePrimitives("")).toEqual([]);
    expect(() => parsePrimitives("blast,1,2,3")).toThrow(/wind primitive 1: a blast is written kind,x,z,strength,radius,duration,start; got "blast,1,2,3"/);
    expect(() => parsePrimitives("vortex,0,0,5,5,inf,0;blast,a,2,3,4,inf,0")).toThrow(/wind primitive 2: x must be a number; got "a"/);
  });

  it("are pure functions of time: any order of samples gives the same values", () => {
    const w = calmWith({ kind: "blast", x: 0, z: 0, strength: 20, radius: 10 }, 1);
    w.primitives.push(createPrimitive(validatePrimitive({ kind: "vortex", x: 5, z: 5, strength: 8, radius: 3 }, 0)));
    const times = Array.from({ length: 100 }, (_, k) => k * 0.05);
    const first = times.map((t) => speedAt(w, 6, 2, t));
    const again = [...times].reverse().map((t) => speedAt(w, 6, 2, t)).reverse();
    expect(again).toEqual(first);
  });
});
