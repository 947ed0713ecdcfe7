// The depth slider re-derives and rebuilds the tree live, while the mouse still holds it; a depth
// past the module cap shows the cap's message and the tree stays.
import { test } from "./runner.mjs";
import { assert, openApp, frames, until, requireDebugHooks, scrollPanelTo, sliderX, sliderValue, treeOnShow } from "./helpers.mjs";

// Branches double every step (A), while X multiplies tenfold and draws nothing: depth 6 has a
// million modules, depth 7 ten million, past the cap of two million.
const FAN = `// fan.lsys
#depth 2
#angle 30
axiom: !(0.2) F(1) A X
A -> !(0.05) F(0.6) [+(30) A] [-(30) A]
X -> X X X X X X X X X X
`;

test("dragging the depth slider rebuilds the tree at every depth before the mouse is released; past the module cap the tree stays", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  await requireDebugHooks(page, ["tree", "sliderRect", "sliderValue"]);
  await page.evaluate((text) => window.sandbox.loadTree({ grammar: text, name: "fan.lsys", depth: 1 }), FAN);
  const r = await scrollPanelTo(page, "depth");
  const y = r.top + r.height / 2;
  const at = (d) => sliderX(r, 0, 12, d);

  await page.mouse.move(at(1), y);
  await page.mouse.down();
  const seen = [];
  for (let d = 2; d <= 6; d++) {
    await page.mouse.move(at(d), y, { steps: 3 });
    const t = await until(async () => {
      const now = await treeOnShow(page);
      return now.depth === d ? now : null;
    }, { timeout: 20_000, message: `the tree at depth ${d} while the mouse holds the slider` });
    seen.push(t);
    log(`mouse held at depth ${d}: ${t.grammar}, ${t.branches} branches, ${t.vertices} vertices`);
    assert.equal(t.grammar, "fan.lsys");
    if (d === 4) await shot("depth-live-held-4");
  }
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].branches > seen[i - 1].branches, `depth ${seen[i].depth} has no more branches than depth ${seen[i - 1].depth}`);

  // Past the cap, still holding: the cap's message, the tree of depth 6 stays, the thumb stays under the mouse.
  const errorsBefore = await page.evaluate(() => window.sandbox.stats().errors.length);
  await page.mouse.move(at(9), y, { steps: 6 });
  const message = await until(async () => {
    const list = await page.evaluate(() => window.sandbox.stats().errors);
    return list.length > errorsBefore ? list.at(-1) : null;
  }, { timeout: 30_000, message: "the module cap's message while dragging past it" });
  log(`past the cap: ${message}`);
  assert.match(message, /^fan\.lsys: depth 7 would produce about [\d.]+ million modules \(cap 2,000,000\); lower the depth to 6 or less$/);
  assert.equal(await page.evaluate(() => window.sandbox.stats().errors.length), errorsBefore + 1, "a refused depth was tried again in the same drag");
  await frames(page, 3);
  const held = await treeOnShow(page);
  assert.equal(held.depth, 6, "the tree changed after a depth past the cap");
  assert.equal(held.branches, seen.at(-1).branches, "the tree changed after a depth past the cap");
  assert.equal(await sliderValue(page, "depth"), 9, "the thumb left the mouse while dragging");
  await shot("depth-live-cap");

  // Released: the thumb goes back to the depth on show.
  await page.mouse.up();
  await until(async () => (await sliderValue(page, "depth")) === 6, { timeout: 10_000, message: "the thumb back at depth 6 after the release" });
  assert.equal((await treeOnShow(page)).depth, 6);

  // A fast drag (many moves between frames) ends at the last value.
  await page.mouse.move(at(6), y);
  await page.mouse.down();
  await page.mouse.move(at(2), y, { steps: 30 });
  await page.mouse.up();
  const end = await until(async () => {
    const t = await treeOnShow(page);
    return t.depth === 2 ? t : null;
  }, { timeout: 20_000, message: "depth 2 after a fast drag" });
  assert.equal(await sliderValue(page, "depth"), 2);
  log(`after a fast drag to 2: ${end.branches} branches`);
  assert.deepEqual(errors.filter((e) => e.startsWith("uncaught")), []);
}, { timeout: 180_000 });
