import {
  BEAUFORT_SCALE,
  EXAMPLE_TIMELINES,
  TIMELINE_MAX_KEYS,
  WIND_PRESETS,
  beaufortNumber,
  formatTimeline,
  parseTimeline,
  presetOf,
  timelineAt,
  validateTimeline,
  windPreset,
  type WindKey,
  type WindTimeline,
} from "../../app/wind/conditions";
import { WIND_PARAMS } from "../../app/wind/wind-field";
import { Rng } from "../../app/math/rng";

const key = (t: number, speed: number, direction: number, gust: number): WindKey => ({ t, speed, direction, gust });
const at = (tl: WindTimeline, t: number) => {
  const out = { speed: NaN, direction: NaN, gust: NaN };
  timelineAt(tl, t, out);
  return out;
};
/** Signed smallest difference of two angles, degrees. */
const angleDiff = (a: number, b: number) => ((((a - b) % 360) + 540) % 360) - 180;

describe("Beaufort presets", () => {
  it("are the six named presets, in order, with the WMO table's ranges", () => {
    expect(WIND_PRESETS.map((p) => [p.id, p.beaufort, p.range[0], p.range[1]])).toEqual([
      ["calm", 0, 0, 0.2],
      ["light-breeze", 2, 1.6, 3.3],
      ["fresh-breeze", 5, 8.0, 10.7],
      ["strong-breeze", 6, 10.8, 13.8],
      ["gale", 8, 17.2, 20.7],
      ["storm", 10, 24.5, 28.4],
    ]);
    expect(windPreset("light-breeze").label).toBe("Light breeze (Beaufort 2, 1.6-3.3 m/s)");
    expect(windPreset("calm").label).toBe("Calm (Beaufort 0, 0-0.2 m/s)");
    expect(windPreset("fresh-breeze").label).toBe("Fresh breeze (Beaufort 5, 8.0-10.7 m/s)");
  });

  it("set the middle of their range, inside WIND_PARAMS, rising with the force", () => {
    let prev: (typeof WIND_PRESETS)[number] | null = null;
    for (const p of WIND_PRESETS) {
      expect(p.speed).toBeCloseTo((p.range[0] + p.range[1]) / 2, 9);
      expect(p.speed).toBeGreaterThanOrEqual(p.range[0]);
      expect(p.speed).toBeLessThanOrEqual(p.range[1]);
      expect(p.speed).toBeLessThanOrEqual(WIND_PARAMS.speed.max);
      for (const [v, d] of [[p.turbulence, WIND_PARAMS.turbulence], [p.gust, WIND_PARAMS.gust]] as const) {
        expect(v).toBeGreaterThanOrEqual(d.min);
        expect(v).toBeLessThanOrEqual(d.max);
      }
      expect(BEAUFORT_SCALE[p.beaufort].range).toEqual(p.range);
      if (prev) {
        expect(p.beaufort).toBeGreaterThan(prev.beaufort);
        expect(p.range[0]).toBeGreaterThan(prev.range[1]);
        expect(p.speed).toBeGreaterThan(prev.speed);
        expect(p.turbulence).toBeGreaterThan(prev.turbulence);
        expect(p.gust).toBeGreaterThan(prev.gust);
      }
      prev = p;
    }
    expect(windPreset("calm")).toMatchObject({ turbulence: 0.1, gust: 0.05 });
    expect(windPreset("storm")).toMatchObject({ turbulence: 0.5, gust: 0.6 });
  });

  it("the Beaufort table is contiguous at 0.1 m/s and beaufortNumber reads it", () => {
    for (let n = 1; n < BEAUFORT_SCALE.length; n++) {
      expect(BEAUFORT_SCALE[n].beaufort).toBe(n);
      expect(BEAUFORT_SCALE[n].range[0]).toBeCloseTo(BEAUFORT_SCALE[n - 1].range[1] + 0.1, 9);
      expect(beaufortNumber(BEAUFORT_SCALE[n].range[0])).toBe(n);
      expect(beaufortNumber(BEAUFORT_SCALE[n - 1].range[1])).toBe(n - 1);
    }
    expect(beaufortNumber(10.75)).toBe(5); // in the table's rounding gap: still fresh breeze
    expect(beaufortNumber(40)).toBe(12);
    expect(beaufortNumber(-1)).toBe(-1);
    expect(beaufortNumber(NaN)).toBe(-1);
  });

  it("windPreset finds by id and names the presets when it cannot", () => {
    expect(windPreset("gale").beaufort).toBe(8);
    expect(() => windPreset("hurricane")).toThrow(RangeError);
    expect(() => windPreset("hurricane")).toThrow('no wind preset "hurricane"; the presets are: calm, light-breeze, fresh-breeze, strong-breeze, gale, storm');
  });

  it("presetOf gives the preset whose force a speed is in, or null", () => {
    for (const p of WIND_PRESETS) {
      expect(presetOf(p.speed)).toBe(p);
      expect(presetOf(p.range[0])).toBe(p);
      expect(presetOf(p.range[1])).toBe(p);
    }
    expect(presetOf(0)?.id).toBe("calm");
    expect(presetOf(6)).toBeNull(); // Beaufort 4, the default wind
    expect(presetOf(1)).toBeNull(); // light air
    expect(presetOf(15)).toBeNull(); // near gale
    expect(presetOf(10.75)?.id).toBe("fresh-breeze");
    expect(presetOf(35)).toBeNull(); // hurricane
    expect(presetOf(-1)).toBeNull();
    expect(presetOf(NaN)).toBeNull();
  });
});

describe("timelineAt", () => {
  const tl: WindTimeline = { loop: false, keys: [key(0, 6, 0, 0.3), key(10, 20, 90, 0.5), key(15, 10, 45, 0.1)] };

  it("is exact at the keys and linear between them", () => {
    for (const k of tl.keys) expect(at(tl, k.t)).toEqual({ speed: k.speed, direction: k.direction, gust: k.gust });
    const mid = at(tl, 2.5);
    expect(mid.speed).toBeCloseTo(6 + 0.25 * 14, 12);
    expect(mid.direction).toBeCloseTo(22.5, 12);
    expect(mid.gust).toBeCloseTo(0.35, 12);
    const late = at(tl, 12);
    expect(late.speed).toBeCloseTo(20 - 0.4 * 10, 12);
    expect(late.direction).toBeCloseTo(90 - 0.4 * 45, 12);
    expect(late.gust).toBeCloseTo(0.5 - 0.4 * 0.4, 12);
  });

  it("turns the direction along the shorter arc, both ways, into [0, 360)", () => {
    const up: WindTimeline = { loop: false, keys: [key(0, 5, 350, 0), key(10, 5, 10, 0)] };
    const down: WindTimeline = { loop: false, keys: [key(0, 5, 10, 0), key(10, 5, 350, 0)] };
    expect(at(up, 5).direction).toBeCloseTo(0, 9);
    expect(at(up, 2.5).direction).toBeCloseTo(355, 9);
    expect(at(up, 7.5).direction).toBeCloseTo(5, 9);
    expect(at(down, 2.5).direction).toBeCloseTo(5, 9);
    expect(at(down, 7.5).direction).toBeCloseTo(355, 9);
    for (let t = 0; t <= 10; t += 0.25) {
      for (const x of [up, down]) {
        const d = at(x, t).direction;
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(360);
        // Never more than 20 deg of turn in all: never through 180.
        expect(Math.abs(angleDiff(d, 0))).toBeLessThanOrEqual(10 + 1e-9);
      }
    }
    // 360 is 0; a 180 deg turn goes the way of increasing angle.
    expect(at({ loop: false, keys: [key(0, 5, 360, 0)] }, 3).direction).toBe(0);
    expect(at({ loop: false, keys: [key(0, 5, 90, 0), key(10, 5, 270, 0)] }, 5).direction).toBeCloseTo(180, 9);
    expect(at({ loop: false, keys: [key(0, 5, 270, 0), key(10, 5, 90, 0)] }, 5).direction).toBeCloseTo(0, 9);
  });

  it("holds the first key before it and, once, the last key after it", () => {
    expect(at(tl, -5)).toEqual(at(tl, 0));
    expect(at(tl, 15)).toEqual({ speed: 10, direction: 45, gust: 0.1 });
    expect(at(tl, 1000)).toEqual({ speed: 10, direction: 45, gust: 0.1 });
  });

  it("wraps modulo the last key's time in a loop", () => {
    const loop: WindTimeline = { ...tl, loop: true };
    expect(at(loop, 15)).toEqual(at(loop, 0));
    for (const t of [0.5, 2.5, 9.99, 12, 14.5]) {
      for (const cycles of [1, 3, 40]) {
        const a = at(loop, t);
        const b = at(loop, t + 15 * cycles);
        expect(b.speed).toBeCloseTo(a.speed, 9);
        expect(b.direction).toBeCloseTo(a.direction, 9);
        expect(b.gust).toBeCloseTo(a.gust, 9);
      }
    }
    expect(at(loop, -5)).toEqual(at(loop, 0));
  });

  it("is constant for one key, loop or once", () => {
    for (const loop of [true, false]) {
      const one: WindTimeline = { loop, keys: [key(0, 12, 200, 0.4)] };
      for (const t of [-1, 0, 0.5, 7, 1e6]) expect(at(one, t)).toEqual({ speed: 12, direction: 200, gust: 0.4 });
    }
  });

  it("throws on a timeline with no keys", () => {
    expect(() => at({ loop: true, keys: [] }, 0)).toThrow("at least 1 key");
  });
});

describe("validateTimeline", () => {
  const good = (): WindTimeline => ({ loop: true, keys: [key(0, 6, 0, 0.3), key(5, 20, 90, 0.5), key(10, 2, 180, 0)] });
  const bad = (edit: (tl: WindTimeline) => void): (() => void) => () => {
    const tl = good();
    edit(tl);
    validateTimeline(tl);
  };

  it("accepts valid timelines and the examples", () => {
    expect(() => validateTimeline(good())).not.toThrow();
    expect(() => validateTimeline({ loop: false, keys: [key(0, 0, 360, 1)] })).not.toThrow();
    for (const tl of Object.values(EXAMPLE_TIMELINES)) expect(() => validateTimeline(tl)).not.toThrow();
  });

  it("says what is wrong, and where, for each bad case", () => {
    const cases: [(tl: WindTimeline) => void, string][] = [
      [(tl) => (tl.keys = []), "a wind timeline needs at least 1 key; got none"],
      [(tl) => (tl.keys = Array.from({ length: 33 }, (_, i) => key(i, 5, 0, 0))), "a wind timeline has at most 32 keys; got 33"],
      [(tl) => (tl.keys[0].t = 2), "wind timeline key 1: t = 2 s; the first key must be at t = 0"],
      [(tl) => (tl.keys[2].t = 2), "wind timeline key 3: t = 2 s comes before key 2's 5 s; times must increase"],
      [(tl) => (tl.keys[2].t = 5), "wind timeline key 3: t = 5 s comes at the same time as key 2's 5 s; times must increase"],
      [(tl) => (tl.keys[1].t = -1), "wind timeline key 2: t = -1 s is below 0"],
      [(tl) => (tl.keys[2].t = 4000), "wind timeline key 3: t = 4000 s is past 3600"],
      [(tl) => (tl.keys[0].speed = 45), "wind timeline key 1: speed 45 m/s is past 40"],
      [(tl) => (tl.keys[1].speed = -2), "wind timeline key 2: speed -2 m/s is below 0"],
      [(tl) => (tl.keys[1].speed = NaN), "wind timeline key 2: speed NaN is not a number (0 to 40 m/s)"],
      [(tl) => (tl.keys[1].direction = 400), "wind timeline key 2: direction 400 deg is past 360"],
      [(tl) => (tl.keys[1].direction = -10), "wind timeline key 2: direction -10 deg is below 0"],
      [(tl) => (tl.keys[2].gust = 1.5), "wind timeline key 3: gust 1.5 is past 1"],
      [(tl) => ((tl.keys[2] as unknown as Record<string, unknown>).gust = "0.5"), 'wind timeline key 3: gust "0.5" is not a number (0 to 1)'],
      [(tl) => ((tl as unknown as Record<string, unknown>).loop = "yes"), 'a wind timeline\'s loop must be true or false; got "yes"'],
      [(tl) => ((tl as unknown as Record<string, unknown>).keys = null), "a wind timeline is { keys: [{ t, speed, direction, gust }, ...], loop: true or false }"],
    ];
    for (const [edit, message] of cases) {
      expect(bad(edit)).toThrow(RangeError);
      expect(bad(edit)).toThrow(message);
    }
    expect(TIMELINE_MAX_KEYS).toBe(32);
  });

  it("takes its limits from WIND_PARAMS", () => {
    expect(() => validateTimeline({ loop: false, keys: [key(0, WIND_PARAMS.speed.max, WIND_PARAMS.direction.max, WIND_PARAMS.gust.max)] })).not.toThrow();
    expect(() => validateTimeline({ loop: false, keys: [key(0, WIND_PARAMS.speed.max + 0.1, 0, 0)] })).toThrow(`is past ${WIND_PARAMS.speed.max}`);
  });
});

/** A random valid timeline with numbers on the 0.001 grid. */
function randomTimeline(rng: Rng): WindTimeline {
  const n = 1 + rng.int(TIMELINE_MAX_KEYS);
  const keys: WindKey[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    keys.push(key(t, rng.int(40001) / 1000, rng.int(360001) / 1000, rng.int(1001) / 1000));
    t = (Math.round(t * 1000) + 1 + rng.int(20000)) / 1000;
  }
  return { keys, loop: rng.next() < 0.5 };
}

describe("formatTimeline / parseTimeline", () => {
  it("writes the compact form", () => {
    expect(formatTimeline({ loop: true, keys: [key(0, 6, 0, 0.3), key(10, 20, 90, 0.5)] })).toBe("loop|0,6,0,0.3;10,20,90,0.5");
    expect(formatTimeline({ loop: false, keys: [key(0, 1 / 3, 359.99999, 2 / 3)] })).toBe("once|0,0.333,360,0.667");
    expect(parseTimeline("loop|0,6,0,0.3;10,20,90,0.5")).toEqual({ loop: true, keys: [key(0, 6, 0, 0.3), key(10, 20, 90, 0.5)] });
  });

  it("round-trips the examples and random valid timelines", () => {
    for (const [name, tl] of Object.entries(EXAMPLE_TIMELINES)) {
      expect([name, parseTimeline(formatTimeline(tl))]).toEqual([name, tl]);
    }
    const rng = new Rng(8);
    for (let i = 0; i < 300; i++) {
      const tl = randomTimeline(rng);
      const text = formatTimeline(tl);
      expect(parseTimeline(text)).toEqual(tl);
      expect(formatTimeline(parseTimeline(text))).toBe(text);
    }
  });

  it("is safe inside a URL hash and URLSearchParams", () => {
    const rng = new Rng(3);
    const texts = [...Object.values(EXAMPLE_TIMELINES).map(formatTimeline), ...Array.from({ length: 50 }, () => formatTimeline(randomTimeline(rng)))];
    for (const text of texts) {
      expect(text).toMatch(/^(loop|once)\|[0-9.,;]+$/);
      expect(/[ #&=?%+]/.test(text)).toBe(false);
      // encodeURIComponent changes only the separators.
      expect(encodeURIComponent(text)).toBe(text.replace(/\|/g, "%7C").replace(/,/g, "%2C").replace(/;/g, "%3B"));
      expect(new URL(`http://localhost/#wind=${text}`).hash).toBe(`#wind=${text}`);
      expect(new URLSearchParams(`method=a&wind=${text}&seed=1`).get("wind")).toBe(text);
      const q = new URLSearchParams();
      q.set("wind", text);
      expect(new URLSearchParams(q.toString()).get("wind")).toBe(text);
    }
  });

  it("refuses to format keys that rounding would merge", () => {
    expect(() => formatTimeline({ loop: false, keys: [key(0, 5, 0, 0), key(0.0004, 5, 0, 0)] })).toThrow(
      "wind timeline key 2: t = 0.0004 s rounds to key 1's 0 s at 3 decimals; keep keys at least 0.001 s apart",
    );
    expect(() => formatTimeline({ loop: false, keys: [key(0, 50, 0, 0)] })).toThrow("wind timeline key 1: speed 50 m/s is past 40");
  });

  it("says what is wrong in the text, and where", () => {
    const cases: [string, string][] = [
      ["", `starts with "loop|" or "once|"`],
      ["0,6,0,0.3", `got '0,6,0,0.3'`],
      ["repeat|0,6,0,0.3", `starts with "loop|" or "once|"`],
      ["loop|", "a wind timeline needs at least 1 key; got none"],
      ["loop|0,6,0,0.3;10,20", "wind timeline key 2: expected 4 numbers t,speed,direction,gust; got '10,20'"],
      ["loop|0,6,0,0.3;", "wind timeline key 2: expected 4 numbers t,speed,direction,gust; got ''"],
      ["once|0,6,0,0.3,1", "wind timeline key 1: expected 4 numbers t,speed,direction,gust; got '0,6,0,0.3,1'"],
      ["once|0,six,0,0.3", "wind timeline key 1: speed 'six' is not a number"],
      ["once|0,6,,0.3", "wind timeline key 1: direction '' is not a number"],
      ["once|0,6,0,0x1", "wind timeline key 1: gust '0x1' is not a number"],
      ["once|0,6,0,1e-1", "wind timeline key 1: gust '1e-1' is not a number"],
      ["once|0, 6,0,0.3", "wind timeline key 1: speed ' 6' is not a number"],
      ["once|0,45,0,0.3", "wind timeline key 1: speed 45 m/s is past 40"],
      ["once|0,6,0,0.3;-1,6,0,0.3", "wind timeline key 2: t = -1 s is below 0"],
      ["once|0,6,0,0.3;5,6,0,0.3;2,6,0,0.3", "wind timeline key 3: t = 2 s comes before key 2's 5 s; times must increase"],
      ["loop|" + Array.from({ length: 33 }, (_, i) => `${i},5,0,0`).join(";"), "a wind timeline has at most 32 keys; got 33"],
    ];
    for (const [text, message] of cases) {
      expect(() => parseTimeline(text)).toThrow(RangeError);
      expect(() => parseTimeline(text)).toThrow(message);
    }
  });
});

describe("EXAMPLE_TIMELINES", () => {
  it("has the named starting points, built from the presets", () => {
    expect(Object.keys(EXAMPLE_TIMELINES).sort()).toEqual(["gust-front", "storm-build", "veering"]);

    const front = EXAMPLE_TIMELINES["gust-front"];
    expect(front.loop).toBe(true);
    expect(front.keys[front.keys.length - 1].t).toBe(20);
    expect(presetOf(front.keys[0].speed)?.id).toBe("calm");
    expect(Math.max(...front.keys.map((k) => k.speed))).toBe(windPreset("gale").speed);
    expect(front.keys[front.keys.length - 1].speed).toBe(front.keys[0].speed);

    const veering = EXAMPLE_TIMELINES.veering;
    expect(veering.loop).toBe(true);
    expect(new Set(veering.keys.map((k) => k.speed))).toEqual(new Set([windPreset("strong-breeze").speed]));
    expect(at(veering, 0).direction).toBe(0);
    expect(at(veering, 30).direction).toBe(180);
    expect(at(veering, 15).direction).toBe(90);

    const build = EXAMPLE_TIMELINES["storm-build"];
    expect(build.loop).toBe(false);
    expect(presetOf(at(build, 0).speed)?.id).toBe("light-breeze");
    expect(presetOf(at(build, 60).speed)?.id).toBe("storm");
    expect(at(build, 600)).toEqual(at(build, 60));
    for (let t = 1; t <= 60; t++) expect(at(build, t).speed).toBeGreaterThan(at(build, t - 1).speed);
  });

  it("is frozen, so an edit starts from a copy", () => {
    const tl = EXAMPLE_TIMELINES.veering;
    expect(() => tl.keys.push(key(70, 1, 1, 0))).toThrow(TypeError);
    expect(() => (tl.keys[0].speed = 1)).toThrow(TypeError);
    const copy = structuredClone(tl);
    copy.keys.push(key(70, 1, 1, 0));
    expect(() => validateTimeline(copy)).not.toThrow();
  });
});
