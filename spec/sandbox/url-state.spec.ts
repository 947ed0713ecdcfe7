import { formatHash, parseHash } from "../../app/sandbox/url-state";
import { FixedClock } from "../../app/sandbox/clock";

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
