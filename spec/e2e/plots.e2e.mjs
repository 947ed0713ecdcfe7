// The plots. The tip of the longest branch by default: its displacement over the
// last 10 s and its power spectrum with the wind's spectrum and spectral-beam's resonance marked;
// a click on a branch plots that branch's tip instead.
import { test } from "./runner.mjs";
import { assert, openApp, clickControl, frames, until } from "./helpers.mjs";

/** Pixels of a colour (within 40 per channel) in a horizontal band of the plots' canvas. */
function countColour(page, rgb, top, bottom) {
  return page.evaluate(({ rgb, top, bottom }) => {
    const c = document.getElementById("plots"), g = c.getContext("2d");
    const h = c.height, d = g.getImageData(0, Math.floor(top * h), c.width, Math.floor((bottom - top) * h)).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - rgb[0]) < 40 && Math.abs(d[i + 1] - rgb[1]) < 40 && Math.abs(d[i + 2] - rgb[2]) < 40) n++;
    return n;
  }, { rgb, top, bottom });
}

test("plots: the longest branch's tip over the last 10 s and its spectrum, the resonance marked; a clicked branch is plotted", async ({ page, url, shot, errors, log }) => {
  await page.setViewportSize({ width: 1024, height: 576 }); // drawn faster in software
  await openApp(page, url, { hash: "#tree=demo", errors }); // the plots, not the tree: the small tree steps and draws faster
  await page.evaluate(() => {
    window.sandbox.pause();
    window.sandbox.wind({ speed: 12, turbulence: 0.4 });
  });
  await clickControl(page, "view.plots");
  const d = await page.evaluate(() => {
    const s = window.sandbox;
    s.step(700);
    const p = window.sandboxDebug.plotData();
    return { branch: p.branch, n: p.along.length, resonanceHz: p.resonanceHz, meanSpeed: p.meanSpeed, max: Math.max(...Array.from(p.along).map(Math.abs)), longest: window.sandboxDebug.longestBranch() };
  });
  log(`plot data: ${JSON.stringify(d)}`);
  assert.equal(d.n, 600, "10 s at 60 samples a second");
  assert.equal(d.branch, d.longest, "the longest branch's tip by default");
  assert.ok(d.resonanceHz > 0, "spectral-beam's resonance is marked");
  assert.ok(d.max > 0.01, "the tip moves");
  await frames(page, 20);
  const orangeTop = await countColour(page, [224, 160, 64], 0.08, 0.5), orangeBottom = await countColour(page, [224, 160, 64], 0.55, 0.97);
  const green = await countColour(page, [111, 191, 96], 0.55, 0.97), red = await countColour(page, [255, 106, 90], 0.55, 0.97);
  log(`plot pixels: series ${orangeTop}, spectrum ${orangeBottom}, wind spectrum ${green}, resonance ${red}`);
  assert.ok(orangeTop > 200 && orangeBottom > 100 && green > 50 && red > 20, "both plots are drawn, with the wind spectrum and the resonance");
  await shot("plots");
  // A click on another branch (a side branch the mouse can hit): its tip is plotted.
  const pick = await page.evaluate(() => {
    return window.sandboxDebug.pickableBranch();
  });
  assert.ok(pick && pick.branch !== d.branch, `a side branch on screen: ${JSON.stringify(pick)}`);
  await page.mouse.click(pick.x, pick.y);
  await until(() => page.evaluate((want) => window.sandbox.plotTip() === want, pick.branch), { message: `branch ${pick.branch} plotted` });
  await page.evaluate(() => window.sandbox.step(300));
  await frames(page, 20);
  const after = await page.evaluate(() => window.sandboxDebug.plotData());
  log(`clicked (${Math.round(pick.x)}, ${Math.round(pick.y)}): branch ${after.branch} plotted, ${after.along.length} samples`);
  assert.equal(after.branch, pick.branch);
  assert.equal(after.along.length, 300, "its history starts when it is chosen");
  await shot("plots-branch");
  assert.deepEqual(errors, []);
});
