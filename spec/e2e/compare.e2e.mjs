// Two to four methods side by side on the same tree, in the same wind and on the
// same clock, cameras linked, each view labelled with its method and its own ms per frame; views
// added and removed from the panel with the mouse; sandbox.use([...]) does the same. Item 2: the
// plots draw every view's tip on shared axes.
import { test } from "./runner.mjs";
import { assert, openApp, clickControl, frames, until } from "./helpers.mjs";

/**
 * Per view cell: dark pixels (bark, shaded leaves, the tree's shadow; sky and lit grass are
 * brighter) below its label, and a 12 x 8 grey thumbnail of the cell, read from the WebGL canvas.
 */
function cellPixels(page) {
  return page.evaluate(() => {
    const gl = document.getElementById("view");
    const c = document.createElement("canvas");
    c.width = gl.width;
    c.height = gl.height;
    const g = c.getContext("2d");
    g.drawImage(gl, 0, 0);
    const sx = gl.width / gl.clientWidth, sy = gl.height / gl.clientHeight;
    return window.sandbox.views().map((v) => {
      const x = Math.round(v.cell.x * sx), y = Math.round(v.cell.y * sy), w = Math.round(v.cell.width * sx), h = Math.round(v.cell.height * sy);
      const below = g.getImageData(x, y + 50, w, h - 50).data;
      let tree = 0;
      for (let i = 0; i < below.length; i += 4) if (below[i] + below[i + 1] + below[i + 2] < 200) tree++;
      const thumb = [];
      const d = g.getImageData(x, y, w, h).data;
      for (let ty = 0; ty < 8; ty++) {
        for (let tx = 0; tx < 12; tx++) {
          let s = 0, n = 0;
          for (let yy = Math.floor((ty * h) / 8); yy < Math.floor(((ty + 1) * h) / 8); yy += 3) {
            for (let xx = Math.floor((tx * w) / 12); xx < Math.floor(((tx + 1) * w) / 12); xx += 3) {
              const i = 4 * (yy * w + xx);
              s += d[i] + d[i + 1] + d[i + 2];
              n++;
            }
          }
          thumb.push(s / (3 * n));
        }
      }
      return { id: v.id, tree, thumb };
    });
  });
}

test("compare: three methods in three labelled views, same wind and clock, linked cameras; added and removed from the panel", async ({ page, url, shot, errors, log }) => {
  await page.setViewportSize({ width: 1024, height: 540 }); // three trees drawn in software: keep it small
  await openApp(page, url, { hash: "#tree=demo", errors });
  await page.evaluate(() => {
    window.sandbox.pause();
    window.sandbox.windPreset("gale");
  });
  // Two views added with the mouse: the first methods not on show.
  await clickControl(page, "compare.add");
  await until(() => page.evaluate(() => window.sandbox.views().length === 2), { message: "two views" });
  await clickControl(page, "compare.add");
  await until(() => page.evaluate(() => window.sandbox.views().length === 3), { message: "three views" });
  const views = await page.evaluate(() => window.sandbox.views());
  log(`views: ${views.map((v) => `${v.id} at ${Math.round(v.cell.x)},${Math.round(v.cell.y)} ${Math.round(v.cell.width)}x${Math.round(v.cell.height)}`).join("; ")}`);
  assert.deepEqual(views.map((v) => v.id), ["spectral-beam", "procedural-wind", "lsystem-particles"]);
  assert.equal(new Set(views.map((v) => v.id)).size, 3, "three different methods");
  for (const v of views) assert.ok(v.cell.x >= 299, `view ${v.id} is right of the panel`);
  assert.equal(views[2].focused, true, "the view just added is the one the panel edits");
  await until(() => page.evaluate(() => decodeURIComponent((/method=([^&]*)/.exec(window.location.hash) ?? [])[1] ?? "") === "spectral-beam,procedural-wind,lsystem-particles"), { message: "the address keeps the views" });
  // Each camera draws its own view's tree only (layer bits).
  const drawn = await page.evaluate(() => window.sandboxDebug.camerasDraw());
  log(`trees each camera draws: ${JSON.stringify(drawn)}`);
  assert.deepEqual(drawn, [["tree-root"], ["tree-root-1"], ["tree-root-2"]]);
  // The same clock for all: step, then let the labels time a few frames.
  await page.evaluate(() => window.sandbox.step(90));
  await frames(page, 3);
  const labels = await until(async () => {
    const t = await page.evaluate(() => window.sandboxDebug.viewLabels());
    return t.length === 3 && t.every((s) => /\d+\.\d ms\/frame/.test(s)) ? t : null;
  }, { message: "three labels with ms per frame", timeout: 60_000 });
  log(`labels: ${labels.join(" | ")}`);
  const list = await page.evaluate(() => window.sandbox.animators());
  for (let k = 0; k < 3; k++) {
    const label = list.find((a) => a.id === views[k].id).label;
    assert.ok(labels[k].includes(label), `view ${k + 1} is labelled with its method: ${labels[k]}`);
  }
  const px = await cellPixels(page);
  log(`dark (tree) pixels per view: ${px.map((p) => `${p.id} ${p.tree}`).join(", ")}`);
  for (const p of px) assert.ok(p.tree > 500, `a tree is drawn in the ${p.id} view`);
  const diff = (a, b) => Math.max(...a.thumb.map((v, i) => Math.abs(v - b.thumb[i])));
  assert.ok(diff(px[0], px[1]) > 2 && diff(px[1], px[2]) > 2, "the views show different methods' trees, not one picture three times");
  await shot("compare-3-views");

  // Linked cameras: a drag with the real mouse in the second view turns every view.
  const before = await page.evaluate(() => window.sandboxDebug.cameras());
  const c = views[1].cell;
  await page.mouse.move(c.x + c.width / 2, c.y + c.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(c.x + c.width / 2 + 15 * i, c.y + c.height * 0.7, { steps: 1 });
  await page.mouse.up();
  await frames(page, 3);
  const after = await page.evaluate(() => window.sandboxDebug.cameras());
  log(`camera alphas: before ${before.map((b) => b.alpha.toFixed(3)).join(", ")}, after ${after.map((b) => b.alpha.toFixed(3)).join(", ")}`);
  assert.equal(after.length, 3);
  assert.ok(Math.abs(after[0].alpha - before[0].alpha) > 0.05, "the drag turned the camera");
  for (const cam of after) assert.ok(Math.abs(cam.alpha - after[0].alpha) < 1e-9 && Math.abs(cam.radius - after[0].radius) < 1e-9, "every view's camera follows");

  // Plots: every view's tip on shared axes, one colour per view (drawn as they are switched on).
  await page.evaluate(() => window.sandbox.step(300));
  await clickControl(page, "view.plots");
  const plot = await page.evaluate(() => {
    const d = window.sandboxDebug.plotData();
    return d.views.map((v) => ({ id: v.id, n: v.along.length, max: Math.max(...Array.from(v.along).map(Math.abs)) }));
  });
  log(`plot series: ${JSON.stringify(plot)}`);
  assert.equal(plot.length, 3);
  for (const p of plot) assert.ok(p.n === 390 && p.max > 0.005, `${p.id}'s tip is plotted and moves`);
  const colours = await page.evaluate(() => {
    const c = document.getElementById("plots"), g = c.getContext("2d"), d = g.getImageData(0, 0, c.width, Math.floor(c.height / 2)).data;
    const want = [[224, 160, 64], [90, 160, 255], [224, 96, 192]];
    return want.map((rgb) => {
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - rgb[0]) < 30 && Math.abs(d[i + 1] - rgb[1]) < 30 && Math.abs(d[i + 2] - rgb[2]) < 30) n++;
      return n;
    });
  });
  log(`plot pixels per view colour: ${colours.join(", ")}`);
  for (const n of colours) assert.ok(n > 60, "each view's line is drawn");
  await shot("compare-plots");
  await clickControl(page, "view.plots");

  // The panel edits the view clicked in its list; "Remove view" drops the focused one.
  await clickControl(page, "compare.view:0");
  await until(() => page.evaluate(() => window.sandbox.views()[0].focused), { message: "view 1 focused" });
  await clickControl(page, "compare.remove");
  await until(() => page.evaluate(() => window.sandbox.views().length === 2), { message: "a view removed" });
  const two = await page.evaluate(() => window.sandbox.views().map((v) => v.id));
  assert.deepEqual(two, ["procedural-wind", "lsystem-particles"]);

  // The API does the same: four views, and the same method twice moves the same (same wind, seed, clock).
  const four = await page.evaluate(async () => {
    await window.sandbox.use(["procedural-wind", "procedural-wind", "spectral-beam", "mass-spring"]);
    // Drawn in the same call that made the views: each camera still draws its own tree only.
    window.sandbox.step(1);
    const drawn = window.sandboxDebug.camerasDraw();
    window.sandbox.step(119);
    const d = window.sandboxDebug.plotData();
    let diff = 0;
    for (let i = 0; i < d.views[0].along.length; i++) diff = Math.max(diff, Math.abs(d.views[0].along[i] - d.views[1].along[i]));
    return { drawn, ids: window.sandbox.views().map((v) => v.id), n: d.views[0].along.length, diff, moved: Math.max(...Array.from(d.views[0].along).map(Math.abs)) };
  });
  log(`four views: ${JSON.stringify(four)}`);
  assert.equal(four.ids.length, 4);
  assert.deepEqual(four.drawn, [["tree-root"], ["tree-root-1"], ["tree-root-2"], ["tree-root-3"]], "each camera draws its own view's tree, also in the call that made them");
  assert.ok(four.n === 120 && four.moved > 0.005, "the tips move");
  assert.equal(four.diff, 0, "two views of one method move identically: same wind, seed and clock");
  await frames(page, 3);
  await shot("compare-4-views");
  const refused = await page.evaluate(() => window.sandbox.use(["spectral-beam", "rest", "rest", "rest", "rest"]).then(() => "accepted", (e) => e.message));
  assert.match(refused, /1 to 4|2 to 4/, "five views are refused with a message");
  await page.evaluate(() => window.sandbox.use("spectral-beam"));
  await frames(page, 3);
  const single = await page.evaluate(() => ({ views: window.sandbox.views().length, labels: window.sandboxDebug.viewLabels(), cams: window.sandboxDebug.cameras() }));
  assert.equal(single.views, 1);
  assert.deepEqual(single.labels, [], "a single view has no label");
  assert.equal(single.cams[0].viewport.width, 1, "one view fills the canvas");
  assert.deepEqual(errors.filter((e) => !/five|refused|1 to 4|2 to 4/.test(e)), []);
});
