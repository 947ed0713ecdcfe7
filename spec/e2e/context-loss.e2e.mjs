// The app survives a lost WebGL context. Under each method, in a single view and
// in compare views, the context is lost (WEBGL_lose_context) and restored: a message shows while it
// is gone and the clock holds; afterwards the very frame drawn before the loss is drawn again (every
// float texture, shader, render target and shadow map back) and the trees go on moving, with no
// page error.
import { test } from "./runner.mjs";
import { assert, openApp, frames, until, maxDisplacement } from "./helpers.mjs";
import { decodePng } from "./png.mjs";

/** The panel's width (app/ui/panel.ts): a single view's cell is the whole canvas, the panel drawn over its left. */
const PANEL = 300;

/** The pixels of a region of a decoded screenshot: rgb, and how many are dark (bark, shaded leaves, the tree's shadow: sky and lit grass are brighter) and black. */
function region(png, id, x0, y0, x1, y1) {
  const rgb = [];
  let dark = 0, black = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const [r, g, b] = png.pixel(x, y);
      rgb.push(r, g, b);
      if (r + g + b < 200) dark++;
      if (r + g + b < 12) black++;
    }
  }
  return { id, rgb, dark, black, pixels: rgb.length / 3 };
}

/**
 * A screenshot of the page (what people see) cut into the views' cells, right of the panel and
 * below a compare label (its ms per frame changes from frame to frame), and the panel below its
 * stats lines.
 */
async function snapshot(page, shotPng) {
  const views = await page.evaluate(() => window.sandbox.views());
  const png = decodePng(shotPng ?? (await page.screenshot()));
  const cells = views.map((v) => region(png, v.id, Math.max(PANEL, Math.round(v.cell.x)), Math.round(v.cell.y + 50), Math.round(v.cell.x + v.cell.width), Math.round(v.cell.y + v.cell.height)));
  return { cells, panel: region(png, "panel", 0, 160, PANEL - 10, png.height) };
}

/** Per view, the fraction of its pixels that differ (by more than 48 in r + g + b) between two snapshots. */
function changed(a, b) {
  return a.map((va, k) => differs(va, b[k]));
}
function differs(a, b) {
  const A = a.rgb, B = b.rgb;
  let n = 0;
  for (let i = 0; i < A.length; i += 3) if (Math.abs(A[i] - B[i]) + Math.abs(A[i + 1] - B[i + 1]) + Math.abs(A[i + 2] - B[i + 2]) > 48) n++;
  return n / (A.length / 3);
}

function lose(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById("view");
    // The context Babylon made (webgl2): asking again returns the same one.
    window.__loseContext ??= canvas.getContext("webgl2").getExtension("WEBGL_lose_context");
    window.__loseContext.loseContext();
  });
}

function restore(page) {
  return page.evaluate(() => window.__loseContext.restoreContext());
}

function notice(page) {
  return page.evaluate(() => {
    const el = document.getElementById("context-lost");
    return el && window.getComputedStyle(el).display !== "none" ? el.textContent : null;
  });
}

/** Waits for the context to be lost (the message up), then for it to be restored and the scene ready again. */
async function loseAndRestore(page, log, { whileLost } = {}) {
  await lose(page);
  const text = await until(() => notice(page), { message: "the context-lost message", timeout: 10_000 });
  assert.match(text, /graphics context was lost/i);
  assert.equal(await page.evaluate(() => document.getElementById("view").getContext("webgl2").isContextLost()), true, "the context is lost");
  if (whileLost) await whileLost();
  const t0 = Date.now();
  await restore(page);
  await until(async () => (await notice(page)) === null, { message: "the message to go once the context is back", timeout: 30_000 });
  await page.evaluate(() => window.sandboxDebug.scene().whenReadyAsync());
  return Date.now() - t0;
}

/**
 * One configuration (the views `ids`): the frame before the loss drawn again after it, then the
 * clock held while it is gone and the trees moving once it is back.
 */
async function survives(page, ids, { shot, errors, log }) {
  const name = ids.join("+");
  await page.evaluate(async (ids) => {
    await window.sandbox.use(ids.length === 1 ? ids[0] : ids);
    window.sandbox.pause();
    window.sandbox.step(150);
  }, ids);
  await frames(page, 2);
  await page.evaluate(() => window.sandbox.step(0));
  const before = await snapshot(page);
  for (const v of before.cells) assert.ok(v.dark > 300, `${name}: a tree is drawn in the ${v.id} view before the loss (${v.dark} dark pixels)`);

  // 1. Paused: the same state drawn again after the restore must be the same picture.
  const restoreMs = await loseAndRestore(page, log, { whileLost: () => shot(`context-loss-${name}-lost`) });
  await page.evaluate(() => window.sandbox.step(0));
  await frames(page, 2);
  await page.evaluate(() => window.sandbox.step(0));
  const again = await snapshot(page, await shot(`context-loss-${name}-restored`));
  const same = changed(before.cells, again.cells), panelSame = differs(before.panel, again.panel);
  log(`${name}: restored in ${restoreMs} ms; dark pixels per view before ${before.cells.map((v) => v.dark).join("/")}, after ${again.cells.map((v) => v.dark).join("/")}; pixels changed ${same.map((f) => (100 * f).toFixed(2) + "%").join("/")}, panel ${(100 * panelSame).toFixed(2)}%`);
  assert.ok(panelSame < 0.001, `${name}: the panel is drawn as before the loss (${(100 * panelSame).toFixed(2)}% of its pixels differ)`);
  for (let k = 0; k < again.cells.length; k++) {
    const v = again.cells[k];
    assert.ok(v.dark > 300 && v.black < 0.2 * v.pixels, `${name}: the tree is drawn again in the ${v.id} view, not a black or empty cell (${v.dark} dark, ${v.black} black of ${v.pixels})`);
    assert.ok(same[k] < 0.001, `${name}: the ${v.id} view draws the same frame as before the loss (${(100 * same[k]).toFixed(2)}% of its pixels differ): something was not restored`);
  }

  // 2. Running: the clock holds while the context is gone, and the trees move once it is back.
  await page.evaluate(() => window.sandbox.resume());
  await page.waitForTimeout(300);
  let held = null;
  await loseAndRestore(page, log, {
    whileLost: async () => {
      const p0 = await page.evaluate(() => window.sandbox.probe());
      await page.waitForTimeout(600);
      const p1 = await page.evaluate(() => window.sandbox.probe());
      held = maxDisplacement(p0, p1);
    },
  });
  assert.equal(held, 0, `${name}: the tree stands still while the context is gone (the clock holds)`);
  // The run loop goes on (drawn in software on a busy machine, a frame may take a while).
  const p2 = await page.evaluate(() => window.sandbox.probe());
  const t0 = Date.now();
  let tip = 0;
  if (ids[0] !== "rest") {
    tip = await until(async () => {
      const d = maxDisplacement(p2, await page.evaluate(() => window.sandbox.probe()));
      return d > 1e-3 ? d : 0;
    }, { message: `${name}: the first view's tree to move after the restore`, timeout: 60_000 });
  }
  await page.evaluate(() => window.sandbox.pause());
  const running = await snapshot(page);
  await page.evaluate(() => window.sandbox.step(20));
  const later = await snapshot(page, await shot(`context-loss-${name}-moving`));
  const moved = changed(running.cells, later.cells);
  log(`${name}: the tips moved ${tip.toFixed(3)} m ${Date.now() - t0} ms after the restore; pixels changed over 20 steps ${moved.map((f) => (100 * f).toFixed(2) + "%").join("/")}`);
  for (let k = 0; k < later.cells.length; k++) {
    const v = later.cells[k];
    assert.ok(v.dark > 300 && v.black < 0.2 * v.pixels, `${name}: the tree is drawn in the ${v.id} view while it runs (${v.dark} dark, ${v.black} black)`);
    if (v.id !== "rest") assert.ok(moved[k] > 1e-3, `${name}: the ${v.id} view's picture moves after the restore (${(100 * moved[k]).toFixed(3)}% changed)`);
  }
  const stats = await page.evaluate(() => window.sandbox.stats());
  assert.deepEqual(stats.errors, [], `${name}: no error shown`);
  assert.equal(stats.nonFinite, false, `${name}: every method stays finite`);
  assert.deepEqual(errors, [], `${name}: no page error`);
}

async function setUp(page, url, errors) {
  await page.setViewportSize({ width: 960, height: 540 }); // drawn in software: keep it small
  await openApp(page, url, { hash: "#tree=demo", errors });
  await page.evaluate(() => window.sandbox.windPreset("gale"));
  return page.evaluate(() => window.sandbox.animators().map((a) => a.id));
}

test("context loss: every method in a single view comes back drawn as before and goes on moving", async (ctx) => {
  const ids = await setUp(ctx.page, ctx.url, ctx.errors);
  for (const id of ids) await survives(ctx.page, [id], ctx);
}, { timeout: 400_000 });

test("context loss: every method in compare views comes back drawn as before and goes on moving", async (ctx) => {
  const ids = await setUp(ctx.page, ctx.url, ctx.errors);
  for (let i = 0; i < ids.length; i += 3) {
    const group = ids.slice(i, i + 3);
    if (group.length === 1) group.unshift(ids[0]);
    await survives(ctx.page, group, ctx);
  }
}, { timeout: 400_000 });

test("context loss: methods switched, a view added and a motion texture resized while the context is gone are drawn once it is back", async ({ page, url, shot, errors, log }) => {
  await setUp(page, url, errors);
  await page.evaluate(() => {
    window.sandbox.pause();
    window.sandbox.step(30);
  });
  const ids = ["spectral-beam", "mass-spring"];
  // Every GPU resource of these views (shaders, float textures, shadow maps) is made while the context is gone.
  await loseAndRestore(page, log, {
    whileLost: () => page.evaluate(async (ids) => {
      await window.sandbox.use(ids);
      window.sandbox.params("spectral-beam", { textureSize: "128" });
      window.sandbox.step(60);
    }, ids),
  });
  await page.evaluate(() => window.sandbox.step(0));
  await frames(page, 2);
  await page.evaluate(() => window.sandbox.step(0));
  const after = await snapshot(page, await shot("context-loss-made-while-lost"));
  // The same views made again with the context there, and stepped as far: the same frame.
  await page.evaluate(async (ids) => {
    await window.sandbox.use(ids);
    window.sandbox.step(60);
  }, ids);
  await frames(page, 2);
  await page.evaluate(() => window.sandbox.step(0));
  const made = await snapshot(page, await shot("context-loss-made-with-context"));
  const same = changed(made.cells, after.cells);
  log(`views made while the context was gone: dark pixels ${after.cells.map((v) => v.dark).join("/")} (made with it: ${made.cells.map((v) => v.dark).join("/")}); pixels changed ${same.map((f) => (100 * f).toFixed(2) + "%").join("/")}`);
  assert.deepEqual(after.cells.map((v) => v.id), ids);
  for (let k = 0; k < ids.length; k++) {
    const v = after.cells[k];
    assert.ok(v.dark > 300 && v.black < 0.2 * v.pixels, `the ${v.id} view made while the context was gone is drawn (${v.dark} dark, ${v.black} black)`);
    assert.ok(same[k] < 0.001, `the ${v.id} view made while the context was gone draws what it draws when made with the context (${(100 * same[k]).toFixed(2)}% of its pixels differ)`);
  }
  await page.evaluate(() => window.sandbox.step(20));
  const later = await snapshot(page);
  const moved = changed(after.cells, later.cells);
  for (let k = 0; k < ids.length; k++) assert.ok(moved[k] > 1e-3, `the ${ids[k]} view moves (${(100 * moved[k]).toFixed(3)}% changed over 20 steps)`);
  const stats = await page.evaluate(() => window.sandbox.stats());
  assert.deepEqual(stats.errors, [], "no error shown");
  assert.deepEqual(errors, [], "no page error");
}, { timeout: 300_000 });
