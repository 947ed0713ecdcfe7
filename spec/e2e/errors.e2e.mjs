// Bad input is refused with a useful message, and the app keeps what it had.
import { test } from "./runner.mjs";
import { assert, openApp, attempt, frames, until } from "./helpers.mjs";
import { decodePng, countPixels } from "./png.mjs";

// The panel writes errors in a light red (#ff8a78); nothing else on screen is that colour
// (the orange of selected buttons is far from it).
const reddish = ([r, g, b]) => Math.abs(r - 255) + Math.abs(g - 138) + Math.abs(b - 120) < 60;

const state = (page) => page.evaluate(() => ({ vertices: window.sandbox.stats().vertices, tips: window.sandbox.probe(), speed: window.sandbox.wind().speed }));

test("bad input is refused with a message and the app keeps its tree", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors });
  await page.evaluate(() => window.sandbox.pause());
  await frames(page, 3);
  const calm = decodePng(await shot("errors-before"));
  const start = await state(page);

  const wind = await attempt(page, () => window.sandbox.wind({ speed: 99 }));
  log(`wind({ speed: 99 }): ${wind.message}`);
  assert.equal(wind.ok, false, "wind({ speed: 99 }) was accepted");
  assert.match(wind.message, /\b0\b/, "the message does not name the range 0..40");
  assert.match(wind.message, /\b40\b/, "the message does not name the range 0..40");
  assert.equal((await state(page)).speed, start.speed, "the refused speed was applied");

  const params = await attempt(page, () => window.sandbox.params("procedural-wind", { nope: 1 }));
  log(`params("procedural-wind", { nope: 1 }): ${params.message}`);
  assert.equal(params.ok, false, "an unknown parameter was accepted");
  assert.match(params.message, /nope/, "the message does not name the unknown key");
  assert.match(params.message, /damping/, "the message does not list the known keys");

  const grammar = await attempt(page, () => window.sandbox.loadTree({ grammar: "axiom: F(\n" }));
  log(`loadTree({ grammar: "axiom: F(\\n" }): ${grammar.message}`);
  assert.equal(grammar.ok, false, "a broken grammar was accepted");
  assert.ok(/line\s*\d+/i.test(grammar.message) && /col(umn)?\.?\s*\d+/i.test(grammar.message) || /\b\d+:\d+\b/.test(grammar.message), "the message gives no line and column");
  const afterGrammar = await state(page);
  assert.equal(afterGrammar.vertices, start.vertices, "the tree changed after a broken grammar");
  assert.deepEqual(afterGrammar.tips, start.tips, "the tree changed after a broken grammar");
  await frames(page, 3);
  const grammarShot = decodePng(await shot("errors-grammar"));

  // A grammar that grows without bound (sympodial: two new apices per apex and step; about 2^40
  // modules at depth 40). The Habel preset is not used here: its growth stops by itself, so
  // depth 40 gives the same tree as its default depth.
  const depth = await attempt(page, () => window.sandbox.loadTree({ preset: "sympodial", depth: 40 }));
  log(`loadTree({ preset: "sympodial", depth: 40 }): ${depth.ok ? "accepted: " + JSON.stringify(depth.value) : depth.message}`);
  assert.equal(depth.ok, false, "depth 40 was accepted");
  assert.match(depth.message, /depth/i, "the message does not say to lower the depth");
  assert.match(depth.message, /lower the depth to \d+/, "the message does not name the depth to lower to");
  await frames(page, 3);
  const depthShot = decodePng(await shot("errors-depth"));
  const afterDepth = await state(page);
  assert.equal(afterDepth.vertices, start.vertices, "the tree changed after a refused depth");
  assert.deepEqual(afterDepth.tips, start.tips, "the tree changed after a refused depth");

  // Under the module cap but over the vertex budget: the leaves double every step
  // (2^19 leaf cards = 2.1 million vertices at depth 19, with about a million modules).
  const budget = await attempt(page, () => window.sandbox.loadTree({ grammar: "axiom: F(1) L\nL -> ~ L ~ L\n", depth: 19 }));
  log(`loadTree(doubling leaves, depth 19): ${budget.ok ? "accepted: " + JSON.stringify(budget.value) : budget.message}`);
  assert.equal(budget.ok, false, "a tree over the vertex budget was accepted");
  assert.match(budget.message, /million vertices \(budget 2,000,000\); lower the depth/);
  const afterBudget = await state(page);
  assert.equal(afterBudget.vertices, start.vertices, "the tree changed after a refused vertex count");
  assert.deepEqual(afterBudget.tips, start.tips, "the tree changed after a refused vertex count");

  // The message is on screen: light red text appeared in the (paused) picture.
  const red = { calm: countPixels(calm, reddish), grammar: countPixels(grammarShot, reddish), depth: countPixels(depthShot, reddish) };
  log(`error-red pixels: before ${red.calm}, after the grammar ${red.grammar}, after the depth ${red.depth}`);
  assert.ok(red.grammar > red.calm + 40, "no error message visible after the broken grammar");
  assert.ok(red.depth > red.calm + 40, "no error message visible after the refused depth");
  const logged = await page.evaluate(() => window.sandbox.stats().errors);
  assert.ok(logged.some((m) => /depth/i.test(m)), `stats().errors lacks the depth error: ${JSON.stringify(logged)}`);
  // Console errors are allowed here (the app may log what it refused), but nothing uncaught.
  assert.deepEqual(errors.filter((e) => e.startsWith("uncaught")), []);
});

test("a method whose state goes non-finite is stopped with a message and the tree is shown at rest", async ({ page, url, errors, log, shot }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("procedural-wind");
    s.pause();
    s.step(10);
    // Break the method on purpose: the branches' compliance and natural frequencies become NaN,
    // so every branch's rotation does.
    const twin = window.sandboxDebug.animator().twin;
    twin.branchOmega.fill(Number.NaN);
    twin.compliance.fill(Number.NaN);
    s.step(3);
    return { errors: s.stats().errors, nonFinite: s.stats().nonFinite, tips: s.probe(), hash: window.location.hash };
  });
  const message = r.errors[r.errors.length - 1] ?? "";
  log(`message: ${message}`);
  assert.match(message, /non-finite/, "no message about the unstable method");
  assert.match(message, /Procedural wind/, "the message does not name the method");
  assert.equal(r.nonFinite, false, "the app still reports non-finite state");
  assert.ok(r.tips.length > 0 && r.tips.every(Number.isFinite), "the tips are not finite after the fallback");
  await until(() => page.evaluate(() => window.location.hash.includes("method=rest")), { message: "the method to fall back to rest" });
  await frames(page, 2);
  await shot("errors-non-finite");
  assert.deepEqual(errors.filter((e) => e.startsWith("uncaught")), []);
});
