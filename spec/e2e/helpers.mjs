// Helpers shared by the end-to-end tests.
import assert from "node:assert/strict";

export { assert };

/** Polls `fn` (async allowed) until it returns a truthy value; returns that value or throws after `timeout` ms. */
export async function until(fn, { timeout = 15_000, interval = 100, message = "condition" } = {}) {
  const end = Date.now() + timeout;
  let last;
  let lastError = null;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > end) {
      const why = lastError ? ` (last error: ${lastError.message ?? lastError})` : ` (last value: ${JSON.stringify(last)})`;
      throw new Error(`timed out after ${timeout} ms waiting for ${message}${why}`);
    }
    await new Promise((ok) => setTimeout(ok, interval));
  }
}

/**
 * Opens the app at `url` (plus an optional hash) and waits for `window.sandbox.ready`
 * (the first frame of the default tree drawn). Fails with the page's console errors if it never comes.
 */
export async function openApp(page, url, { hash = "", timeout = 90_000, errors = [] } = {}) {
  await page.goto(url + hash, { waitUntil: "load", timeout });
  await waitReady(page, { timeout, errors });
}

/** Waits for window.sandbox to exist and its `ready` promise to resolve. */
export async function waitReady(page, { timeout = 90_000, errors = [] } = {}) {
  try {
    await page.waitForFunction(() => typeof window.sandbox === "object" && window.sandbox !== null, null, { timeout, polling: 100 });
    await page.evaluate(
      (ms) =>
        Promise.race([
          window.sandbox.ready.then(() => true),
          new Promise((_, fail) => setTimeout(() => fail(new Error(`sandbox.ready did not resolve within ${ms} ms`)), ms)),
        ]),
      timeout,
    );
  } catch (err) {
    const extra = errors.length ? `\npage errors:\n${errors.join("\n")}` : "";
    throw new Error(`the app did not become ready: ${err.message}${extra}`);
  }
}

/**
 * Evaluates `fn(arg)` in the page and returns { ok: true, value } or { ok: false, message }
 * (for API calls that are expected to throw or reject).
 */
export async function attempt(page, fn, arg) {
  return page.evaluate(
    async ({ source, arg }) => {
      try {
        const f = new Function(`return (${source});`)();
        return { ok: true, value: await f(arg) };
      } catch (err) {
        return { ok: false, message: String(err && err.message ? err.message : err) };
      }
    },
    { source: fn.toString(), arg },
  );
}

/** Largest per-coordinate difference of two flat arrays of equal length. */
export function maxAbsDiff(a, b) {
  assert.equal(a.length, b.length, `arrays differ in length: ${a.length} vs ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** Largest point displacement between two flat xyz arrays. */
export function maxDisplacement(a, b) {
  assert.equal(a.length, b.length, `arrays differ in length: ${a.length} vs ${b.length}`);
  let m = 0;
  for (let i = 0; i + 2 < a.length; i += 3) m = Math.max(m, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]));
  return m;
}

/** Waits two animation frames in the page, so a change reaches the canvas. */
export async function frames(page, n = 2) {
  await page.evaluate(
    (count) =>
      new Promise((ok) => {
        let left = count;
        const tick = () => (--left <= 0 ? ok() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
    n,
  );
}

/** Checks that the automation API and the debug hooks the tests rely on exist. */
export async function requireDebugHooks(page, names) {
  const missing = await page.evaluate((list) => list.filter((n) => !window.sandboxDebug || typeof window.sandboxDebug[n] !== "function"), names);
  assert.deepEqual(missing, [], `window.sandboxDebug lacks ${missing.join(", ")}`);
}

/** Focuses the canvas and presses a key (the app listens on window). */
export async function pressKey(page, key) {
  const canvas = await page.$("canvas");
  if (canvas) await canvas.focus();
  await page.keyboard.press(key);
}

/** Hides the GUI panel: through the debug hook when there is one, else with the "h" key. */
export async function hidePanel(page) {
  const done = await page.evaluate(() => {
    const d = window.sandboxDebug;
    if (d && typeof d.setPanelVisible === "function") {
      d.setPanelVisible(false);
      return true;
    }
    return false;
  });
  if (!done) await pressKey(page, "h");
}

/** Page-pixel rectangle of a named panel control (waits for the panel to lay it out). */
export function controlRect(page, name, { timeout = 15_000 } = {}) {
  return until(() => page.evaluate((n) => window.sandboxDebug.sliderRect(n), name), { timeout, message: `the panel control "${name}"` });
}

/**
 * Scrolls the panel with the mouse wheel (over the panel, as a person would) until the named
 * control lies inside the window, `margin` pixels from its edges where the panel can scroll that
 * far; returns its rectangle.
 */
export async function scrollPanelTo(page, name, { margin = 40 } = {}) {
  const height = page.viewportSize()?.height ?? 720;
  let last = null;
  for (let i = 0; i < 40; i++) {
    const r = await controlRect(page, name);
    const below = r.top + r.height - (height - margin);
    const above = margin - r.top;
    if (below <= 0 && above <= 0) return r;
    // The panel's end: it scrolls no further, and the control is in the window.
    if (last !== null && last === r.top && r.top >= 0 && r.top + r.height <= height) return r;
    last = r.top;
    await page.mouse.move(150, height / 2);
    await page.mouse.wheel(0, below > 0 ? Math.min(160, below + 20) : -Math.min(160, above + 20));
    await frames(page, 2);
  }
  throw new Error(`could not scroll the panel to "${name}"`);
}

/** Clicks a named panel control with the real mouse (scrolling the panel to it first). */
export async function clickControl(page, name) {
  await scrollPanelTo(page, name);
  // The panel may still be laying out (a method's parameters just rebuilt): wait, then read again.
  await frames(page, 2);
  const r = await scrollPanelTo(page, name);
  await page.mouse.click(r.left + r.width / 2, r.top + r.height / 2);
  return r;
}

/** Page x of `value` on a horizontal slider spanning `rect` from `min` to `max` (Babylon maps the whole control width). */
export function sliderX(rect, min, max, value) {
  return rect.left + ((value - min) / (max - min)) * rect.width;
}

/** The value a panel slider's thumb shows now. */
export function sliderValue(page, name) {
  return page.evaluate((n) => window.sandboxDebug.sliderValue(n), name);
}

/** Drags a panel slider with the real mouse from value `from` to value `to` (scrolling the panel to it first). */
export async function dragSlider(page, name, { min, max, from, to, steps = 10 }) {
  const r = await scrollPanelTo(page, name);
  const y = r.top + r.height / 2;
  await page.mouse.move(sliderX(r, min, max, from), y);
  await page.mouse.down();
  await page.mouse.move(sliderX(r, min, max, to), y, { steps });
  await page.mouse.up();
  return r;
}

/** The tree on show (summary, preset name or "custom", grammar file name, depth, bark texture). */
export function treeOnShow(page) {
  return page.evaluate(() => window.sandboxDebug.tree());
}
