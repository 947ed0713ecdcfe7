// sph-particles (Akagi and Kitajima) in the real browser: picked with the mouse on the default tree
// (its frame cost against rest's, in one page), the particles display (Fig. 5) and the wind
// particles display (Fig. 6) switched on with the mouse, counts in a rising wind on the demo tree
// (5 and 25 m/s at the default limits, a 40 m/s storm on decayed wood), the broken branches'
// fracture ends (§3) in a close-up, "Restore tree" clicked, screenshots saved.
import { test } from "./runner.mjs";
import { assert, openApp, clickControl, frames, until } from "./helpers.mjs";
import { decodePng, countDifferentPixels, countPixels } from "./png.mjs";
import { join, resolve } from "node:path";

/**
 * A screenshot like the runner's shot(), with a longer wait: after a storm on SwiftShader a frame
 * (the pieces strewn over tens of metres, their shadows) once took past shot()'s 30 s.
 */
async function slowShot(page, name, log) {
  const t0 = Date.now();
  const dir = process.env.E2E_OUT ? resolve(process.env.E2E_OUT) : join("spec", "e2e", "out");
  const png = await page.screenshot({ path: join(dir, `${name}.png`), timeout: 150_000 });
  log(`${name}.png in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return png;
}

/** Mean frame and animator ms of the method on show over `seconds` of real time (the app's own loop). */
async function frameCost(page, seconds) {
  await page.waitForTimeout(1500); // the EMA forgets the switch
  const samples = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    samples.push(await page.evaluate(() => { const s = window.sandbox.stats(); return [s.frameMs, s.animatorMs]; }));
    await page.waitForTimeout(250);
  }
  const mean = (k) => samples.reduce((a, s) => a + s[k], 0) / samples.length;
  return { frameMs: mean(0), animatorMs: mean(1) };
}

/** The view without the panel's strip. */
const VIEW = { left: 320, top: 0, width: 960, height: 720 };

test("sph-particles: picked with the mouse, the particles and wind displays, counts rising with the wind, Restore tree", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors });
  // The default tree (habel): the method's cost per frame against rest's, the app running on its own.
  await clickControl(page, "method:rest");
  const rest = await frameCost(page, 4);
  await clickControl(page, "method:sph-particles");
  await until(() => page.evaluate(() => (window.sandbox.stats().counts.treeParticles ?? 0) > 0), { message: "sph-particles on show", timeout: 60_000 });
  await page.evaluate(() => window.sandbox.wind({ speed: 8 }));
  const sph = await frameCost(page, 6);
  const habel = await page.evaluate(() => ({ counts: window.sandbox.stats().counts, notes: window.sandbox.stats().notes }));
  log(`habel: rest ${rest.frameMs.toFixed(1)} ms a frame; sph-particles ${sph.frameMs.toFixed(1)} ms a frame (${sph.animatorMs.toFixed(1)} ms in its step), ratio ${(sph.frameMs / rest.frameMs).toFixed(2)}`);
  log(`habel counts ${JSON.stringify(habel.counts)}; ${habel.notes.join("; ")}`);
  assert.ok(sph.frameMs < 1000, `a frame of sph-particles on the default tree takes ${sph.frameMs} ms`);
  await shot("sph-particles-habel");

  // The demo tree, with the tree particles shown (Fig. 5).
  await clickControl(page, "tree:demo");
  await until(() => page.evaluate(() => window.sandboxDebug.tree().name === "demo" && (window.sandbox.stats().counts.treeParticles ?? 0) > 0), { message: "the demo tree under sph-particles" });
  await page.evaluate(() => { window.sandbox.pause(); window.sandbox.wind({ speed: 0, turbulence: 0.3, gust: 0, direction: 0 }); window.sandbox.step(30); });
  await frames(page, 3);
  const plain = decodePng(await shot("sph-particles-demo"));
  await clickControl(page, "sph-particles.particles:true");
  await frames(page, 3);
  const withParticles = decodePng(await shot("sph-particles-demo-particles"));
  const differ = countDifferentPixels(plain, withParticles, 40, VIEW);
  const green = countPixels(withParticles, ([r, g, b]) => g > 180 && r < 120 && b < 120, VIEW);
  log(`the particles display changes ${differ} pixels (${green} leaf-green)`);
  assert.ok(differ > 500, `the particles display hardly shows (${differ} pixels)`);

  // Counts in a wind rising over half a second to 5, 25 and 40 m/s, 1.5 s each, from rest: a breeze
  // and a gale at the default limits (the species' wood, leaves held about 3 N), then a storm on
  // decayed wood, a tenth as strong (the demo tree's sound limbs hold at 40 m/s).
  const counts = {};
  for (const speed of [5, 25, 40]) {
    if (speed === 40) await page.evaluate(() => window.sandbox.params("sph-particles", { woodStrength: 0.1 }));
    counts[speed] = await page.evaluate(async (u) => {
      const s = window.sandbox;
      // The rise as a wind timeline on the clock (use() restarts it at 0), stepped at once: one frame drawn, not 90.
      s.windTimeline({ keys: [{ t: 0, speed: 0, direction: 0, gust: 0 }, { t: 0.5, speed: u, direction: 0, gust: 0 }], loop: false });
      await s.use("sph-particles");
      s.step(90);
      const wind = s.wind().speed;
      s.windTimeline(null);
      return { ...s.stats().counts, nonFinite: s.stats().nonFinite, wind };
    }, speed);
    log(`${speed} m/s: ${JSON.stringify(counts[speed])}`);
    assert.equal(counts[speed].nonFinite, false);
    assert.equal(counts[speed].wind, speed, "the timeline brought the wind to its speed");
  }
  const broken = (c) => c.brokenLinks + c.fallenLeaves;
  assert.equal(broken(counts[5]), 0, "a light wind broke something");
  assert.ok(broken(counts[25]) > 0 && counts[25].fallenLeaves > 0, "a gale shed no leaves");
  assert.ok(counts[25].fallenLeaves < 0.5 * counts[25].leafParticles, "a gale shed most of the leaves");
  assert.ok(broken(counts[40]) > broken(counts[25]) && counts[40].brokenBranches > 0, "a storm took no branch off decayed wood");
  // Let the broken pieces land.
  await page.evaluate(() => { window.sandbox.wind({ speed: 6 }); window.sandbox.step(90); });
  await frames(page, 3);
  const storm = decodePng(await slowShot(page, "sph-particles-demo-storm-particles", log));
  const magenta = countPixels(storm, ([r, g, b]) => r > 200 && g < 90 && b > 200, VIEW);
  const stormDiff = countDifferentPixels(plain, storm, 40, VIEW);
  // The storm blows what it cuts off tens of metres downwind, mostly out of the view.
  log(`after the storm: ${magenta} magenta pixels (particles cut off the tree still in view), ${stormDiff} pixels differ from the tree at rest`);
  assert.ok(stormDiff > 500, `the tree after the storm hardly shows (${stormDiff} pixels)`);

  // §3: each broken branch has its two fracture ends; a close-up of a stump's, the particles hidden.
  const ends = await page.evaluate(() => {
    const a = window.sandboxDebug.animator();
    return { count: window.sandbox.stats().counts.brokenEnds, meshes: a.fractures.meshes.map((m) => ({ name: m.name, vertices: m.getTotalVertices(), visible: m.isVisible, colors: m.isVerticesDataPresent("color") })) };
  });
  log(`broken ends: ${ends.count}: ${ends.meshes.map((m) => `${m.name} (${m.vertices} vertices)`).join(", ")}`);
  assert.ok(ends.count >= 2 && ends.meshes.length === ends.count, "a storm that took a branch off left no fracture ends");
  assert.ok(ends.meshes.every((m) => m.vertices > 100 && m.visible && m.colors), "a fracture end is empty, hidden or uncoloured");
  // Close-ups of the thickest stumps in turn (a twig's is millimetres across), along each cut face's
  // normal, until one shows its cut wood: which way a stump's face looks depends on how it broke.
  const saved = await page.evaluate(() => {
    window.sandbox.params("sph-particles", { particles: false });
    const cam = window.sandboxDebug.scene().activeCameras.find((c) => c.name !== "gui-camera");
    return { alpha: cam.alpha, beta: cam.beta, orbit: cam.radius, fov: cam.fov, target: cam.target.asArray() };
  });
  let wood = 0;
  for (const [k, tilt] of [[0, 0.4], [0, 0], [1, 0.4], [1, 0], [2, 0.4], [2, 0]]) {
    const radius = await page.evaluate(({ k, tilt, fov }) => {
      const cam = window.sandboxDebug.scene().activeCameras.find((c) => c.name !== "gui-camera");
      const stump = window.sandboxDebug.animator().fractures.ends.filter((e) => e.mesh.name.endsWith("stump")).sort((a, b) => b.radius - a.radius)[k];
      if (!stump) return null;
      stump.mesh.computeWorldMatrix(true);
      const centre = stump.mesh.getBoundingInfo().boundingBox.centerWorld.clone();
      // From the piece's side, along the cut face's normal (its first vertex is a cap's), tilted up by `tilt`.
      const n = stump.mesh.getVerticesData("normal");
      const m = stump.mesh.getWorldMatrix().asArray();
      const axis = centre.clone();
      axis.set(m[0] * n[0] + m[4] * n[1] + m[8] * n[2], m[1] * n[0] + m[5] * n[1] + m[9] * n[2] + tilt, m[2] * n[0] + m[6] * n[1] + m[10] * n[2]);
      // As close as the camera's limit lets it, then narrowed to about 12 radii across.
      const distance = Math.max(12 * stump.radius, cam.lowerRadiusLimit ?? 0, 4 * cam.minZ);
      axis.normalize().scaleInPlace(distance);
      cam.setTarget(centre);
      cam.setPosition(centre.add(axis));
      cam.fov = Math.min(fov, 2 * Math.atan((6 * stump.radius) / distance));
      return stump.radius;
    }, { k, tilt, fov: saved.fov });
    if (radius === null) break;
    await frames(page, 3);
    const close = decodePng(await slowShot(page, "sph-particles-demo-fracture", log));
    // The cut wood is pale (the layer colour 0.86, 0.74, 0.52, lit); the bark beside it dark.
    wood = countPixels(close, ([r, g, b]) => r > 150 && g > 120 && b > 60 && r > b + 50 && r >= g, VIEW);
    log(`close-up of stump ${k + 1} (radius ${(radius * 1000).toFixed(1)} mm, tilt ${tilt}): ${wood} pixels of pale cut wood`);
    if (wood > 200) break;
  }
  assert.ok(wood > 200, `the fracture's cut wood hardly shows in a close-up of any of the three thickest stumps (${wood} pixels)`);
  await page.evaluate((saved) => {
    const cam = window.sandboxDebug.scene().activeCameras.find((c) => c.name !== "gui-camera");
    const t = cam.target.clone();
    t.set(...saved.target);
    cam.setTarget(t);
    cam.alpha = saved.alpha; cam.beta = saved.beta; cam.radius = saved.orbit; cam.fov = saved.fov;
    window.sandbox.params("sph-particles", { particles: true });
  }, saved);

  // Restore tree, with the mouse.
  await clickControl(page, "action.restore");
  const restored = await page.evaluate(() => window.sandbox.stats().counts);
  log(`restored: ${JSON.stringify(restored)}`);
  assert.deepEqual([restored.brokenLinks, restored.brokenBranches, restored.fallenLeaves, restored.brokenEnds], [0, 0, 0, 0]);
  assert.equal(await page.evaluate(() => window.sandboxDebug.scene().meshes.filter((m) => m.name.includes("fracture")).length), 0, "Restore tree left fracture meshes behind");
  await page.evaluate(() => window.sandbox.step(2));
  await frames(page, 3);
  await slowShot(page, "sph-particles-demo-restored", log);

  // The wind particles coloured by speed (Fig. 6), the tree's off.
  await clickControl(page, "sph-particles.particles:false");
  await clickControl(page, "sph-particles.windParticles:true");
  await page.evaluate(() => { window.sandbox.wind({ speed: 12 }); window.sandbox.step(30); });
  await frames(page, 3);
  const windShot = decodePng(await slowShot(page, "sph-particles-demo-wind-particles", log));
  const windDiff = countDifferentPixels(plain, windShot, 40, VIEW);
  log(`the wind particles display changes ${windDiff} pixels`);
  assert.ok(windDiff > 2000, `the wind particles hardly show (${windDiff} pixels)`);
  assert.deepEqual(errors, []);
}, { timeout: 600_000 });
