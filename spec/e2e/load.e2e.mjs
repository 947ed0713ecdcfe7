// The app loads without console errors and draws the default tree where the tree stands.
import { test } from "./runner.mjs";
import { assert, openApp, frames, hidePanel, requireDebugHooks } from "./helpers.mjs";
import { decodePng, colourDistance } from "./png.mjs";

/** Median colour of a few pixels on row y, away from the tree's screen box (the background there). */
function backgroundOnRow(img, y, box) {
  const margin = 40;
  const xs = [0.02, 0.06, 0.1, 0.14, 0.86, 0.9, 0.94, 0.98].map((f) => f * img.width).filter((x) => x < box.left - margin || x > box.right + margin);
  if (xs.length < 2) return null;
  const px = xs.map((x) => img.pixel(x, y));
  const median = (i) => px.map((p) => p[i]).sort((a, b) => a - b)[Math.floor(px.length / 2)];
  return [median(0), median(1), median(2)];
}

/** True when some pixel within `r` of (x, y) differs clearly from the background colour `bg`. */
function differsNear(img, x, y, bg, r = 3, threshold = 40) {
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (colourDistance(img.pixel(x + dx, y + dy), bg) > threshold) return true;
  return false;
}

test("app loads without console errors and draws the default tree", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors });
  await requireDebugHooks(page, ["projectToScreen"]);
  await page.evaluate(() => window.sandbox.pause());
  await frames(page, 3);
  await shot("load-default-tree");
  // Judge the pixels without the panel, so that the background samples beside the tree are scene.
  await hidePanel(page);
  await frames(page, 3);
  const img = decodePng(await shot("load-default-tree-no-panel"));
  const { tips, base, stats } = await page.evaluate(() => {
    const probe = window.sandbox.probe();
    return { tips: window.sandboxDebug.projectToScreen(probe), base: window.sandboxDebug.projectToScreen([0, 0, 0]), stats: window.sandbox.stats() };
  });
  assert.ok(tips.length >= 2, "the default tree has no tips");
  assert.equal(stats.nonFinite, false, "non-finite values in the animation");

  const points = [];
  for (let i = 0; i + 1 < tips.length; i += 2) points.push([tips[i], tips[i + 1]]);
  const onScreen = points.filter(([x, y]) => x >= 0 && y >= 0 && x < img.width && y < img.height);
  assert.ok(onScreen.length >= 0.8 * points.length, `only ${onScreen.length} of ${points.length} tips are inside the view`);
  const all = [...onScreen, [base[0], base[1]]];
  const box = { left: Math.min(...all.map((p) => p[0])), right: Math.max(...all.map((p) => p[0])) };

  let treeTips = 0;
  let judged = 0;
  for (const [x, y] of onScreen) {
    const bg = backgroundOnRow(img, y, box);
    if (!bg) continue;
    judged++;
    if (differsNear(img, x, y, bg)) treeTips++;
  }
  const baseBg = backgroundOnRow(img, base[1] - 2, box);
  log(`tips drawn where they stand: ${treeTips}/${judged}; base at (${base[0].toFixed(0)}, ${base[1].toFixed(0)}), tree spans x ${box.left.toFixed(0)}..${box.right.toFixed(0)}`);
  assert.ok(baseBg, "no background to compare the tree's base with (the tree fills the width?)");
  assert.ok(differsNear(img, base[0], base[1] - 2, baseBg, 3), `no trunk at the tree's base (${base[0].toFixed(0)}, ${base[1].toFixed(0)})`);
  assert.ok(judged > 0 && treeTips >= 0.5 * judged, `only ${treeTips} of ${judged} tips differ from the background where they stand`);
  assert.deepEqual(errors, [], "console errors while loading");
});
