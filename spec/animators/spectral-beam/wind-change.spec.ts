/**
 * A wind whose mean speed changes every step (as a wind timeline plays) under spectral-beam: the
 * motion follows the wind. Before the fix, the motion textures were reshaped and swapped in every
 * frame and the ease (which extrapolates the last two frames at each swap) ran away: the tips
 * drifted metres while the wind fell, and were still 4 m out at 0.1 m/s.
 */
import { readFileSync } from "node:fs";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { SpectralBeamTwin } from "../../../app/animators/spectral-beam/twin";
import { spectralBeamParams } from "../../../app/animators/spectral-beam/params";
import { defaultsOf } from "../../../app/math/params";
import { WindField } from "../../../app/wind/wind-field";
import { Rng } from "../../../app/math/rng";
import { timelineAt, type WindTimeline } from "../../../app/wind/conditions";

it("a gust front played every step (calm, gale by 3 s, held to 8 s, calm again at 20 s): the tips follow the wind and come back", () => {
  const sk = grammarToSkeleton(readFileSync("assets/trees/demo.lsys", "utf8"), { seed: 1, depth: 5 });
  const tl: WindTimeline = { loop: false, keys: [{ t: 0, speed: 0.1, direction: 0, gust: 0.05 }, { t: 3, speed: 18.95, direction: 30, gust: 0.5 }, { t: 8, speed: 18.95, direction: 30, gust: 0.5 }, { t: 20, speed: 0.1, direction: 0, gust: 0.05 }] };
  const twin = new SpectralBeamTwin(sk, { ...defaultsOf(spectralBeamParams), textureSize: "64" }, new Rng(1));
  const wind = new WindField({ speed: 0.1, direction: 0, turbulence: 0.4, gust: 0.05, seed: 1 });
  const n = sk.branchCount, rest = new Float64Array(3 * n), p = new Float64Array(3 * n);
  for (let b = 0; b < n; b++) twin.tipPosition(b, rest, 3 * b);
  const w = { speed: 0, direction: 0, gust: 0 };
  let gale = 0, falling = 0, end = 0;
  for (let i = 1; i <= 21 * 60; i++) {
    const t = i / 60;
    timelineAt(tl, t, w);
    wind.setMean(w.speed, w.direction, w.gust);
    twin.update(t, wind);
    let m = 0;
    for (let b = 0; b < n; b++) {
      twin.tipPosition(b, p, 3 * b);
      for (let c = 0; c < 3; c++) m = Math.max(m, Math.abs(p[3 * b + c] - rest[3 * b + c]));
    }
    if (t > 3 && t <= 8) gale = Math.max(gale, m);
    else if (t > 8 && t <= 20) falling = Math.max(falling, m);
    else if (t > 20.5) end = Math.max(end, m);
  }
  expect(gale).toBeGreaterThan(0.2);
  // As the wind falls the tips swing no further than in the gale itself, and are near rest in calm air.
  expect(falling).toBeLessThan(1.2 * gale);
  expect(end).toBeLessThan(0.1 * gale);
});
