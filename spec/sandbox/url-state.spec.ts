import { formatHash, parseHash } from "../../app/sandbox/url-state";
import { FixedClock } from "../../app/sandbox/clock";
import { UrlSync, type AddressState, type AddressTarget } from "../../app/sandbox/url-sync";
import { DEFAULT_DISPLAY } from "../../app/sandbox/url-state";
import { DEFAULT_WIND, WindField } from "../../app/wind/wind-field";
import { WindPrimitives } from "../../app/sandbox/wind-primitives";
import { formatPrimitives, parsePrimitives } from "../../app/wind/primitives";
import { formatForest, parseForest, validateForestSpec } from "../../app/forest/scatter";
import { DEFAULT_LOD, formatLod, parseLod, validateLod } from "../../app/forest/forest-lod";

describe("URL hash state", () => {
  it("round-trips tree, method, wind and parameters", () => {
    const hash = formatHash({
      tree: "demo", depth: 4, taper: 0.3, method: "procedural-wind", mode: "wireframe",
      wind: { speed: 12.5, direction: 90, turbulence: 0.2, gust: 0.4, seed: 7, vertical: -1.5 },
      display: { barkTexture: false, background: true, shadows: false, hierarchy: true },
      params: { "procedural-wind": { damping: 0.7, stiffness: 2 } },
    });
    const s = parseHash(hash);
    expect(s.tree).toBe("demo");
    expect(s.depth).toBe(4);
    expect(s.taper).toBe(0.3);
    expect(s.method).toBe("procedural-wind");
    expect(s.mode).toBe("wireframe");
    expect(s.wind).toEqual({ speed: "12.5", direction: "90", turbulence: "0.2", gust: "0.4", seed: "7", vertical: "-1.5" });
    expect(s.display).toEqual({ barkTexture: false, background: true, shadows: false, hierarchy: true });
    expect(hash).toContain("bark=off");
    expect(s.params).toEqual({ "procedural-wind": { damping: "0.7", stiffness: "2" } });
  });

  it("round-trips the wind primitives: kind, place, strength, radius, duration (or none), start, a fan's direction", () => {
    const field = new WindField({ ...DEFAULT_WIND });
    const placed = new WindPrimitives(field, () => 3.25, () => undefined, null);
    placed.add({ kind: "blast", x: 8, z: -1.5, strength: 20, radius: 8 });
    placed.add({ kind: "vortex", x: -6, z: 4, strength: 12, radius: 5, duration: 30, start: 1 });
    placed.add({ kind: "fan", x: -10, z: 0, strength: 9, radius: 2 });
    const hash = formatHash({ tree: "demo", depth: 4, taper: 0.3, method: "rest", mode: "shaded", wind: { ...DEFAULT_WIND }, primitives: placed.text(), params: {} });
    expect(hash).toContain("primitives=blast%2C8%2C-1.5%2C20%2C8%2Cinf%2C3.25%3Bvortex%2C-6%2C4%2C12%2C5%2C30%2C1%3Bfan%2C-10%2C0%2C9%2C2%2Cinf%2C3.25%2C0");
    const text = parseHash(hash).primitives!;
    const again = new WindPrimitives(new WindField({ ...DEFAULT_WIND }), () => 0, () => undefined, null);
    again.restore(parsePrimitives(text));
    expect(again.list()).toEqual(placed.list());
    expect(field.primitives).toHaveLength(3);
    expect(formatPrimitives(again.list())).toBe(text);
    expect(parseHash("#tree=demo").primitives).toBeUndefined();
  });

  it("ignores what it does not understand and keeps numbers numeric", () => {
    const s = parseHash("#depth=abc&taper=&unknown=1");
    expect(s.depth).toBeUndefined();
    expect(s.taper).toBeUndefined();
    expect(s.wind).toEqual({});
    expect(s.params).toEqual({});
    expect(s.display).toEqual({});
  });

  it("reads an address written before vertical wind and the display toggles (they keep their defaults)", () => {
    const s = parseHash("#tree=demo&depth=5&taper=0.6&method=rest&mode=shaded&speed=6&direction=0&turbulence=0.35&gust=0.3&seed=1&rest.damping=0.5");
    expect(s.wind).toEqual({ speed: "6", direction: "0", turbulence: "0.35", gust: "0.3", seed: "1" });
    expect(s.display).toEqual({});
    expect(s.params).toEqual({ rest: { damping: "0.5" } });
  });

  it("reads the display toggles as on/off, true/false or 1/0, and leaves out anything else", () => {
    expect(parseHash("#bark=0&background=false&shadows=OFF").display).toEqual({ barkTexture: false, background: false, shadows: false });
    expect(parseHash("#bark=1&background=true&shadows=on").display).toEqual({ barkTexture: true, background: true, shadows: true });
    expect(parseHash("#bark=maybe&background=&shadows").display).toEqual({});
  });

  it("keeps the text of fields it cannot read, so that they can be named", () => {
    expect(parseHash("#depth=abc&taper=&bark=maybe&shadows=on").unreadable).toEqual({ depth: "abc", taper: "", bark: "maybe" });
    expect(parseHash("#tree=demo&depth=4").unreadable).toEqual({});
  });
});

describe("UrlSync.restore: each bad field falls back to its default alone, and one message names them all", () => {
  /** Restores `hash` against a target that applies what the host would (wind validated by the WindField, methods and params checked here). */
  function restore(hash: string) {
    const warnings: string[] = [];
    const wind = new WindField({ ...DEFAULT_WIND });
    const methods = ["spectral-beam", "procedural-wind", "rest"];
    let shown = ["spectral-beam"];
    const params: Record<string, Record<string, number>> = { "spectral-beam": { damping: 0.5 } };
    let mode = "shaded";
    let forest = "", forestLod = formatLod(DEFAULT_LOD);
    const prims = new WindPrimitives(wind, () => 0, () => undefined, null);
    const target: AddressTarget = {
      setWind: (patch) => wind.set(patch as never),
      restoreParams: (id, patch) => {
        if (!methods.includes(id)) throw new RangeError(`Unknown method "${id}"; the methods are: ${methods.join(", ")}`);
        for (const [k, v] of Object.entries(patch)) {
          if (!(Number(v) >= 0 && Number(v) <= 1)) throw new RangeError(`${id}.${k} must be a number from 0 to 1; got ${v}`);
          (params[id] ??= {})[k] = Number(v);
        }
      },
      setMethods: (ids) => {
        for (const id of ids) if (!methods.includes(id)) throw new RangeError(`Unknown method "${id}"; the methods are: ${methods.join(", ")}`);
        shown = ids;
      },
      setRenderMode: (m) => (mode = m),
      setTimeline: () => undefined,
      setPrimitives: (list) => prims.restore(list),
      setDisplay: () => undefined,
      setPhysics: () => undefined,
      setForest: (text) => (forest = formatForest(validateForestSpec(parseForest(text), (n) => ["current", "demo"].includes(n)))),
      setForestLod: (text) => (forestLod = formatLod(validateLod(parseLod(text)))),
    };
    let tree: ReturnType<UrlSync["restore"]> | null = null;
    const state = (): AddressState | null => (tree ? { tree: tree.tree ?? "habel", depth: tree.depth ?? 10, taper: tree.taper ?? 0.6, methods: shown, mode: mode as AddressState["mode"], wind: wind.settings(), timeline: null, primitives: prims.text(), forest, forestLod, display: { ...DEFAULT_DISPLAY }, params, physics: {} } : null);
    const sync = new UrlSync({ add: () => null }, state, (m) => warnings.push(m));
    tree = sync.restore(hash, "", target, (name) => name === "pine");
    sync.restored();
    sync.dispose();
    return { tree, warnings, wind: wind.settings(), shown, params, mode, primitives: prims.list(), forest, forestLod, hash: sync.hash() };
  }

  it("a forest and its levels of detail: kept, written back, and a bad one named", () => {
    const r = restore("#tree=demo&forest=300,90,current+demo,4&forestLod=30,80,10");
    expect(r.warnings).toEqual([]);
    expect([r.forest, r.forestLod]).toEqual(["300,90,current+demo,4", "30,80,10"]);
    expect(r.hash).toContain("forest=300%2C90%2Ccurrent%2Bdemo%2C4&forestLod=30%2C80%2C10");
    const bad = restore("#tree=demo&forest=20000,90,current,1&forestLod=90,30,10");
    expect(bad.forest).toBe("");
    expect(bad.warnings).toEqual([
      "Address: forest '20000,90,current,1': forest.trees must be a whole number from 1 to 10000 (using none); forestLod '90,30,10': forestLod: far (30 m) must be beyond near (90 m) (using 35,90,12)",
    ]);
    expect(restore("#tree=demo").hash).not.toContain("forest");
  });

  it("an unknown method", () => {
    const r = restore("#tree=demo&method=foo&speed=9");
    expect(r.shown).toEqual(["spectral-beam"]);
    expect(r.wind.speed).toBe(9);
    expect(r.warnings).toEqual(["Address: method 'foo': not a method; the methods are: spectral-beam, procedural-wind, rest (using spectral-beam)"]);
  });

  it("an out-of-range speed (the direction beside it applies)", () => {
    const r = restore("#tree=demo&speed=900&direction=45");
    expect([r.wind.speed, r.wind.direction]).toEqual([DEFAULT_WIND.speed, 45]);
    expect(r.warnings).toEqual([`Address: speed '900': must be a number from 0 to 40 m/s (using ${DEFAULT_WIND.speed})`]);
  });

  it("an unknown tree", () => {
    const r = restore("#tree=baobab&depth=4");
    expect(r.tree).toEqual({ tree: undefined, depth: 4, taper: undefined, model: null });
    expect(r.warnings).toEqual([expect.stringMatching(/^Address: tree 'baobab': not a tree; the trees are: demo, habel, .*pine.* \(using habel\)$/)]);
  });

  it("a sample model's id is a tree, loaded as a model", () => {
    const r = restore("#tree=pine");
    expect(r.tree).toEqual({ tree: undefined, depth: undefined, taper: undefined, model: { preset: "pine" } });
    expect(r.warnings).toEqual([]);
  });

  it("a depth past the module cap, out of range, or not a number; a taper out of range", () => {
    expect(restore("#tree=barron&depth=30&taper=0.3")).toEqual(expect.objectContaining({
      tree: { tree: "barron", depth: undefined, taper: 0.3, model: null },
      warnings: [expect.stringMatching(/^Address: depth '30': barron\.lsys: depth 30 would produce about .* modules \(cap 2,000,000\); lower the depth to \d+ or less \(using 10\)$/)],
    }));
    expect(restore("#tree=demo&depth=41").warnings).toEqual(["Address: depth '41': must be a whole number from 0 to 40 (using 10)"]);
    expect(restore("#tree=demo&depth=2.5").warnings).toEqual(["Address: depth '2.5': must be a whole number from 0 to 40 (using 10)"]);
    expect(restore("#tree=demo&depth=abc").warnings).toEqual(["Address: depth 'abc': must be a whole number (using 10)"]);
    const t = restore("#tree=demo&depth=4&taper=3");
    expect(t.tree).toEqual({ tree: "demo", depth: 4, taper: undefined, model: null });
    expect(t.warnings).toEqual(["Address: taper '3': must be a number from 0 to 0.95 (using 0.6)"]);
  });

  it("an out-of-range parameter (its neighbours apply), and every bad field in one message", () => {
    const r = restore("#tree=demo&spectral-beam.damping=5&spectral-beam.damping0=0.25&method=foo&speed=900&mode=sketch");
    expect(r.params["spectral-beam"]).toEqual({ damping: 0.5, damping0: 0.25 });
    expect(r.mode).toBe("shaded");
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^Address: speed '900': must be a number from 0 to 40 m\/s \(using 6\); spectral-beam\.damping '5': must be a number from 0 to 1 \(using 0\.5\); method 'foo': not a method; .* \(using spectral-beam\); mode 'sketch': must be one of shaded, flat, wireframe, skeleton \(using shaded\)$/);
  });

  it("a broken timeline keeps its own message", () => {
    expect(restore("#tree=demo&timeline=loop|0,6,0,0.3;10,20").warnings).toEqual([expect.stringMatching(/^Address: timeline 'loop\|0,6,0,0\.3;10,20': wind timeline key 2: expected 4 numbers.*\(using none\)$/)]);
  });

  it("wind primitives: a good list applies; a bad one names the primitive and what is wrong, and places none", () => {
    const good = restore("#tree=demo&primitives=vortex,3,4,10,5,inf,0;fan,-8,0,9,2,20,1.5,90");
    expect(good.warnings).toEqual([]);
    expect(good.primitives.map((p) => [p.id, p.kind, p.x, p.z, p.duration, p.start, p.direction])).toEqual([[1, "vortex", 3, 4, null, 0, 0], [2, "fan", -8, 0, 20, 1.5, 90]]);
    const far = restore("#tree=demo&speed=9&primitives=vortex,3,4,10,5,inf,0;blast,500,0,20,8,inf,0");
    expect(far.primitives).toEqual([]);
    expect(far.wind.speed).toBe(9);
    expect(far.warnings).toEqual(["Address: primitives 'vortex,3,4,10,5,inf,0;blast,500,0,20,8,inf,0': wind primitive 2: windPrimitive.x must be a number from -100 to 100 m (using none)"]);
    expect(restore("#tree=demo&primitives=boom,1,2,3,4,inf,0").warnings).toEqual([expect.stringMatching(/^Address: primitives 'boom,1,2,3,4,inf,0': wind primitive 1: kind must be one of "blast", "vortex", "fan" \(using none\)$/)]);
    expect(restore("#tree=demo&primitives=fan,1,2,3,4,inf,0").warnings[0]).toMatch(/a fan is written kind,x,z,strength,radius,duration,start,direction/);
  });

  it("a good address says nothing", () => {
    expect(restore("#tree=demo&depth=4&taper=0.3&method=procedural-wind&speed=12&spectral-beam.damping=0.2").warnings).toEqual([]);
  });
});

describe("FixedClock", () => {
  it("turns real time into whole fixed steps, carrying the remainder", () => {
    const c = new FixedClock(0.01, 4);
    expect(c.stepsFor(0.025)).toBe(2);
    expect(c.stepsFor(0.005)).toBe(1);
    c.tick();
    c.tick();
    expect(c.time).toBeCloseTo(0.02, 12);
  });

  it("bounds the steps after a stall so the frame rate cannot spiral down", () => {
    const c = new FixedClock(0.01, 4);
    expect(c.stepsFor(5)).toBe(4);
  });
});
