// The View section's display toggles (Barron 2006 §5.3, §6.3), clicked with the real mouse:
// background off leaves a plain neutral colour, shadows off takes the tree's shadow off the
// ground, bark texture off leaves plain bark; all three survive a tree rebuild and a reload.
import { test } from "./runner.mjs";
import { assert, openApp, waitReady, frames, until, requireDebugHooks, clickControl, scrollPanelTo, treeOnShow } from "./helpers.mjs";
import { decodePng, countDifferentPixels } from "./png.mjs";

// The scene right of the panel (the panel's stats line changes every frame).
const SCENE = { left: 310, top: 0, width: 970, height: 720 };
// Corners of the view far from the tree: sky at the top right, ground at the bottom right.
const SKY = [1250, 20];
const GROUND = [1250, 700];

const isGrey = ([r, g, b]) => Math.abs(r - 128) <= 6 && Math.abs(g - 128) <= 6 && Math.abs(b - 128) <= 6;
const brightness = (img, o) => img.data[o] + img.data[o + 1] + img.data[o + 2];

/** Pixels of `region` that got brighter / darker by more than `threshold` (RGB sum) from a to b. */
function brighterDarker(a, b, region, threshold = 30) {
  let brighter = 0, darker = 0;
  for (let y = region.top; y < region.top + region.height; y++) {
    for (let x = region.left; x < region.left + region.width; x++) {
      const o = (y * a.width + x) * 4;
      const d = brightness(b, o) - brightness(a, o);
      if (d > threshold) brighter++;
      else if (d < -threshold) darker++;
    }
  }
  return { brighter, darker };
}

const display = (page) => page.evaluate(() => window.sandbox.display());

async function toggle(page, key, want) {
  await clickControl(page, `display.${key}`);
  await until(async () => (await display(page))[key] === want, { timeout: 10_000, message: `display().${key} to become ${want} after the click` });
  await frames(page, 3);
}

test("display toggles clicked in the panel: background, shadows, bark texture; kept after a rebuild and a reload", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  await requireDebugHooks(page, ["tree", "sliderRect", "projectToScreen"]);
  await page.evaluate(() => window.sandbox.pause());
  assert.deepEqual(await display(page), { barkTexture: true, background: true, shadows: true, hierarchy: false });
  await frames(page, 3);
  const on = decodePng(await shot("display-all-on"));
  log(`sky ${on.pixel(...SKY)}, ground ${on.pixel(...GROUND)} with the background on`);
  assert.ok(on.pixel(...SKY)[2] > on.pixel(...SKY)[0] + 30, "the sky is not blue to begin with");
  assert.ok(!isGrey(on.pixel(...GROUND)), "the ground is grey to begin with");

  // Background off: sky and ground give way to the plain neutral colour.
  await toggle(page, "background", false);
  const plain = decodePng(await shot("display-background-off"));
  log(`sky ${plain.pixel(...SKY)}, ground ${plain.pixel(...GROUND)} with the background off`);
  assert.ok(isGrey(plain.pixel(...SKY)), `the sky is not the plain grey: ${plain.pixel(...SKY)}`);
  assert.ok(isGrey(plain.pixel(...GROUND)), `the ground is still drawn: ${plain.pixel(...GROUND)}`);
  await toggle(page, "background", true);
  const back = decodePng(await page.screenshot());
  assert.ok(countDifferentPixels(on, back, 24, SCENE) < 50, "the background did not come back as it was");

  // Shadows off: the ground under the tree gets lighter where the shadow lay, and nothing gets darker.
  await toggle(page, "shadows", false);
  const unshadowed = decodePng(await shot("display-shadows-off"));
  const base = await page.evaluate(() => window.sandboxDebug.projectToScreen([0, 0, 0]));
  const belowBase = { left: SCENE.left, top: Math.round(base[1]) - 160, width: SCENE.width, height: 720 - (Math.round(base[1]) - 160) };
  const shade = brighterDarker(on, unshadowed, belowBase);
  log(`shadows off, around and below the tree's base (y from ${belowBase.top}): ${shade.brighter} pixels brighter, ${shade.darker} darker`);
  assert.ok(shade.brighter > 1500, `shadows off made only ${shade.brighter} pixels lighter`);
  assert.ok(shade.darker < 0.05 * shade.brighter, `shadows off made ${shade.darker} pixels darker`);

  // Bark texture off: the bark is drawn plain (the texture's mean colour).
  await toggle(page, "barkTexture", false);
  const plainBark = decodePng(await shot("display-bark-off"));
  const trunk = await page.evaluate(() => window.sandboxDebug.projectToScreen([0, 0.3, 0, 0, 1.6, 0]));
  const trunkBox = { left: Math.round(trunk[0]) - 25, top: Math.round(trunk[3]), width: 50, height: Math.round(trunk[1] - trunk[3]) };
  const barkChanged = countDifferentPixels(unshadowed, plainBark, 24, trunkBox);
  log(`bark texture off: ${barkChanged} pixels of the trunk changed`);
  assert.equal((await treeOnShow(page)).barkTexture, false);
  assert.ok(barkChanged > 60, `the trunk looks the same without its texture (${barkChanged} pixels changed)`);

  // All off, then a rebuild (another tree with the mouse): the settings stay and are applied to the new tree.
  await toggle(page, "background", false);
  await clickControl(page, "tree:conifer");
  await until(async () => (await treeOnShow(page)).name === "conifer", { message: "the conifer after clicking its button" });
  await frames(page, 3);
  const rebuilt = decodePng(await shot("display-off-conifer"));
  assert.deepEqual(await display(page), { barkTexture: false, background: false, shadows: false, hierarchy: false });
  assert.equal((await treeOnShow(page)).barkTexture, false, "the rebuilt tree has its bark texture back");
  assert.ok(isGrey(rebuilt.pixel(...SKY)) && isGrey(rebuilt.pixel(...GROUND)), "the background came back with the new tree");

  // The address keeps them; a reload restores them.
  const hash = await until(() => page.evaluate(() => { const h = window.location.hash; return /bark=off/.test(h) && /background=off/.test(h) && /shadows=off/.test(h) ? h : null; }), {
    message: "the address to hold bark=off, background=off, shadows=off",
  });
  log(`hash: ${hash}`);
  await page.reload({ waitUntil: "load" });
  await waitReady(page, { errors });
  await page.evaluate(() => window.sandbox.pause());
  assert.deepEqual(await display(page), { barkTexture: false, background: false, shadows: false, hierarchy: false });
  assert.equal((await treeOnShow(page)).barkTexture, false);
  await frames(page, 3);
  const reloaded = decodePng(await shot("display-off-reloaded"));
  assert.ok(isGrey(reloaded.pixel(...SKY)) && isGrey(reloaded.pixel(...GROUND)), "the background is back after the reload");

  // The API answers with the settings and refuses what it does not know.
  const refused = await page.evaluate(() => {
    try {
      window.sandbox.display({ fog: true });
      return null;
    } catch (e) {
      return e.message;
    }
  });
  assert.match(refused ?? "", /no setting "fog".*barkTexture, background, shadows/);
  assert.deepEqual(await page.evaluate(() => window.sandbox.display({ background: true, shadows: true, barkTexture: true })), { barkTexture: true, background: true, shadows: true, hierarchy: false });
  assert.deepEqual(errors, []);
}, { timeout: 240_000 });

test("render quality: light by itself on SwiftShader; Full clicked in the panel opens the page again antialiased, tree and wind kept; a bad ?quality= is named", async ({ page, url, shot, errors, log }) => {
  const contextAntialias = () => page.evaluate(() => document.getElementById("view").getContext("webgl2").getContextAttributes().antialias);
  await openApp(page, url, { hash: "#tree=demo&speed=7", errors });
  const auto = await page.evaluate(() => window.sandbox.renderQuality());
  log(`auto: ${auto.level} on "${auto.renderer}"`);
  assert.equal(auto.software, true, `SwiftShader is a software renderer (renderer: "${auto.renderer}")`);
  assert.equal(auto.level, "light");
  assert.equal(auto.chosenBy, "auto");
  assert.equal(await contextAntialias(), false, "light quality: the context is not multisampled");
  await requireDebugHooks(page, ["sliderRect"]);
  await scrollPanelTo(page, "display.quality:full");
  await shot("quality-panel-light");

  await clickControl(page, "display.quality:full");
  await until(() => page.evaluate(() => /[?&]quality=full(&|$)/.test(window.location.search)).catch(() => false), { timeout: 20_000, message: "the page to open again with ?quality=full" });
  await waitReady(page, { errors });
  const full = await page.evaluate(() => window.sandbox.renderQuality());
  assert.deepEqual([full.level, full.chosenBy, full.antialias, full.shadowMapSize], ["full", "address", true, 2048]);
  assert.equal(await contextAntialias(), true, "full quality: the context is multisampled");
  assert.match(await page.evaluate(() => window.location.hash), /tree=demo/, "the tree is kept across the change");
  assert.equal((await page.evaluate(() => window.sandbox.wind())).speed, 7, "the wind is kept across the change");
  await frames(page, 3);
  await shot("quality-full");

  // A value that is no quality opens at auto with a message naming it.
  await page.goto(`${url}?quality=ultra#tree=demo`, { waitUntil: "load" });
  await waitReady(page, { errors });
  assert.equal((await page.evaluate(() => window.sandbox.renderQuality())).level, "light");
  const said = await until(() => page.evaluate(() => window.sandbox.stats().errors.find((e) => /quality 'ultra'/.test(e)) ?? null), { message: "a message naming quality 'ultra'" });
  assert.match(said, /not one of full, light, auto/);
  errors.length = 0; // the message is also written to the console as an error
}, { timeout: 120_000 });
