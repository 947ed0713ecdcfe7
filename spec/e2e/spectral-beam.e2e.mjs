// spectral-beam (Habel 2009) in the real browser: the shader agrees with its twin, calm and storm
// look different (screenshots), no wind leaves the tips at rest, and stronger wind bends the tree
// further along the wind.
import { test } from "./runner.mjs";
import { assert, openApp, requireDebugHooks, maxDisplacement, until, frames } from "./helpers.mjs";
import { decodePng, countDifferentPixels } from "./png.mjs";

test("spectral-beam: the vertex shader and its TypeScript twin agree", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#method=spectral-beam&tree=habel", errors });
  await requireDebugHooks(page, ["gpuTwinCheck"]);
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("spectral-beam");
    s.wind({ speed: 18, gust: 0.3, turbulence: 0.4 });
    s.pause();
    s.step(90);
    const check = await window.sandboxDebug.gpuTwinCheck(2048);
    let height = 0;
    const p = s.probe();
    for (let i = 1; i < p.length; i += 3) height = Math.max(height, p[i]);
    return { height, check };
  });
  log(`tree height ${r.height.toFixed(2)} m; ${JSON.stringify(r.check)}`);
  await shot("spectral-beam-gpu-twin");
  assert.ok(r.check.samples >= 2000, "too few vertices sampled");
  assert.ok(r.check.maxDisplacement > 0.05, `the sampled vertices hardly moved (${r.check.maxDisplacement} m): nothing to compare`);
  assert.ok(r.check.maxError < 1e-3 * r.height, `GPU and twin differ by ${r.check.maxError} (limit ${1e-3 * r.height})`);
  assert.deepEqual(errors, []);
});

test("spectral-beam: tips at rest in zero wind; stronger wind, larger mean deflection along it", async ({ page, url, errors, log }) => {
  await openApp(page, url, { hash: "#method=spectral-beam&tree=habel", errors });
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("rest");
    const rest = s.probe();
    const runs = [];
    for (const speed of [0, 5, 12, 25]) {
      s.wind({ speed, gust: 0, turbulence: 0.3, direction: 0 });
      await s.use("spectral-beam");
      s.pause();
      let along = 0, farthest = 0;
      const frames = 12;
      for (let f = 0; f < frames; f++) {
        s.step(8);
        const p = s.probe();
        let sum = 0;
        for (let i = 0; i < p.length; i += 3) {
          sum += p[i] - rest[i]; // +x: the way a 0° wind blows
          farthest = Math.max(farthest, Math.hypot(p[i] - rest[i], p[i + 1] - rest[i + 1], p[i + 2] - rest[i + 2]));
        }
        along += sum / (p.length / 3) / frames;
      }
      runs.push({ speed, along, farthest });
    }
    return runs;
  });
  for (const x of r) log(`${x.speed} m/s: mean tip displacement along the wind ${x.along.toFixed(4)} m, largest ${x.farthest.toFixed(4)} m`);
  assert.ok(r[0].farthest < 1e-5, `with no wind the tips moved ${r[0].farthest} m`);
  assert.ok(r[1].along > 0.01, `a 5 m/s wind pushed the tips only ${r[1].along} m downwind on the mean (measured: about 0.06 m)`);
  assert.ok(r[2].along > 1.5 * r[1].along, "12 m/s did not bend further than 5 m/s");
  assert.ok(r[3].along > 1.5 * r[2].along, "25 m/s did not bend further than 12 m/s");
  assert.deepEqual(errors, []);
});

test("spectral-beam: calm and storm screenshots (the storm's branches visibly curved)", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#method=spectral-beam&tree=habel", errors });
  const frames = {};
  for (const [name, speed] of [["calm", 1], ["storm", 32]]) {
    const tips = await page.evaluate(async (speed) => {
      const s = window.sandbox;
      s.wind({ speed, gust: 0, turbulence: 0.35, direction: 0 });
      await s.use("spectral-beam");
      s.pause();
      s.step(150);
      return s.probe();
    }, speed);
    frames[name] = tips;
    await shot(`spectral-beam-${name}`);
  }
  const d = maxDisplacement(frames.calm, frames.storm);
  log(`largest tip distance between calm and storm: ${d.toFixed(3)} m`);
  assert.ok(d > 0.5, `the storm moved the tips only ${d} m further than calm air`);
  assert.deepEqual(errors, []);
});

test("spectral-beam: a clicked branch is highlighted, described and tuned on its own (Fig. 11)", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#method=spectral-beam&tree=habel", errors });
  await requireDebugHooks(page, ["projectToScreen", "controlCenter"]);
  // Calm air: the tree stands at rest, so the picked (rest) geometry is what is on screen.
  const target = await page.evaluate(() => {
    const s = window.sandbox;
    s.wind({ speed: 0, gust: 0, turbulence: 0 });
    s.pause();
    s.step(1);
    return window.sandboxDebug.projectToScreen([0, 1.2, 0]); // the trunk, below the crown
  });
  const before = decodePng(await page.screenshot());
  await page.mouse.click(target[0], target[1]);
  const info = await until(() => page.evaluate(() => window.sandbox.branch()), { message: "a branch to be selected by the click" });
  log(`clicked (${target[0].toFixed(0)}, ${target[1].toFixed(0)}): ${JSON.stringify(info)}`);
  assert.equal(info.branch, 0, "the click below the crown did not select the trunk");
  assert.ok(info["length (m)"] > 5 && info["f_h (Hz)"] > 0 && info["taper ratio"] > 0 && info["taper ratio"] <= 1, "the branch's length, taper ratio and f_h are not shown");
  await frames(page, 3);
  const after = decodePng(await shot("spectral-beam-branch-selected"));
  const region = { left: target[0] - 20, top: target[1] - 40, width: 40, height: 80 };
  const changed = countDifferentPixels(before, after, 40, region);
  log(`pixels of the trunk that changed colour when selected: ${changed}`);
  assert.ok(changed > 50, "the selected trunk is not highlighted");
  // The panel shows the selection with its own sliders.
  const slider = await until(() => page.evaluate(() => window.sandboxDebug.controlCenter("branch.stiffness")), { message: "the branch stiffness slider" });
  assert.ok(slider.x > 0, "no branch stiffness slider in the panel");

  // Its own stiffness and damping, through the API; only it changes.
  const r = await page.evaluate(() => {
    const s = window.sandbox;
    s.wind({ speed: 14, turbulence: 0.3 });
    s.step(30);
    const edited = s.branch(0, { stiffness: 8, damping: 0.1 });
    s.step(1);
    return { edited, stats: s.stats() };
  });
  assert.equal(r.edited.stiffness, 8);
  assert.equal(r.edited["own damping"], true);
  assert.equal(r.stats.nonFinite, false);
  await page.evaluate(() => window.sandbox.branch(-1));
  assert.equal(await page.evaluate(() => window.sandbox.branch()), null, "branch(-1) did not clear the selection");
  assert.deepEqual(errors, []);
});

test("spectral-beam: every parameter changes live without a hitch", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#method=spectral-beam&tree=habel", errors });
  const r = await page.evaluate(() => {
    const s = window.sandbox;
    s.wind({ speed: 12, turbulence: 0.35, gust: 0 });
    s.pause();
    s.step(30);
    const jumps = [];
    let last = s.probe();
    const patches = [
      { damping: 0.9 }, { damping0: 0.3, damping3: 0.1 }, { stiffness: 3 }, { flutter: 0.8 },
      { lengthCorrection: false }, { textureSize: "128" }, { textureSize: "512" }, { leafless: true }, { leafless: false },
    ];
    // Each frame's largest tip step, for n frames.
    const steps = (n) => {
      const out = [];
      for (let i = 0; i < n; i++) {
        s.step(1);
        const p = s.probe();
        let worst = 0;
        for (let k = 0; k < p.length; k++) worst = Math.max(worst, Math.abs(p[k] - last[k]));
        out.push(worst);
        last = p;
      }
      return out;
    };
    for (const patch of patches) {
      // The tips' own motion in this wind, frame to frame, just before the change: the yardstick.
      const before = Math.max(...steps(6));
      s.params("spectral-beam", patch);
      const after = steps(6);
      jumps.push({ patch, before, first: after[0], worst: Math.max(...after), later: Math.max(...after.slice(1)), stats: s.stats() });
    }
    return jumps;
  });
  for (const j of r) log(`${JSON.stringify(j.patch)}: tip step in the frame of the change ${j.first.toFixed(3)} m, largest in the 5 frames after ${j.later.toFixed(3)} m, before ${j.before.toFixed(3)} m; ${j.stats.nonFinite ? "NON-FINITE" : "finite"}`);
  await shot("spectral-beam-params-changed");
  for (const j of r) {
    assert.equal(j.stats.nonFinite, false, `non-finite after ${JSON.stringify(j.patch)}`);
    // A hitch is a jump in the frame of the change that the motion on either side of it does not
    // make: after a change each branch's new motion starts from where the old one was going (the
    // offset decays in 0.3 s), so the first frame steps no further than the tips' own motion
    // before or after it plus a few centimetres (a restart's hitch was 0.16 m). A change of load
    // (leaves back on) may speed the motion up over the next frames; that is the wind, not a hitch.
    // Switching the length correction off is geometric and shows at once (a strongly bent twig's
    // tip moves out along its tangent).
    const yardstick = Math.max(j.before, j.later);
    const limit = "lengthCorrection" in j.patch ? 1 : 1.5 * yardstick + 0.05;
    assert.ok(j.first < limit, `tips jumped ${j.first.toFixed(3)} m in the frame of ${JSON.stringify(j.patch)} (limit ${limit.toFixed(3)} m: 1.5 x the ${yardstick.toFixed(3)} m steps on either side + 0.05)`);
    assert.ok(j.worst < 1, `tips stepped ${j.worst.toFixed(3)} m in one frame after ${JSON.stringify(j.patch)}`);
  }
  assert.deepEqual(errors, []);
});
