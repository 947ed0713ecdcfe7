// The physical tree in the panel, with the real mouse: a species clicked sets its green-wood
// density and Young's modulus; a slider dragged by hand makes it "custom"; the material is in the
// page address and comes back after a reload; a value out of range through the API is refused with
// the range named, and the panel keeps what it had.
import { test } from "./runner.mjs";
import { assert, openApp, waitReady, until, clickControl, dragSlider, sliderValue, attempt, frames } from "./helpers.mjs";

const physics = (page) => page.evaluate(() => window.sandbox.physics());

test("physical tree: species clicked in the panel, Young's modulus dragged, the reference computed in a worker, kept in the address", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  assert.deepEqual(await physics(page), { species: "oak", woodDensity: 1026, youngModulus: 8.6e9, dragCoefficient: 1.2, leafDragArea: 0.004, airDensity: 1.225 });

  await clickControl(page, "physics.species:pine");
  await until(async () => (await physics(page)).species === "pine", { timeout: 10_000, message: "pine after the click" });
  const pine = await physics(page);
  log(`pine: ${JSON.stringify(pine)}`);
  assert.equal(pine.woodDensity, 687);
  assert.equal(pine.youngModulus, 6.8e9);
  await until(async () => (await sliderValue(page, "physics.youngModulus")) === 6.8, { timeout: 10_000, message: "the modulus slider to show 6.8 GPa" });
  await shot("physics-pine");

  // Dragged by hand from 6.8 to about 15 GPa: the species becomes custom.
  await dragSlider(page, "physics.youngModulus", { min: 1, max: 30, from: 6.8, to: 15 });
  await until(async () => (await physics(page)).species === "custom", { timeout: 10_000, message: "custom after the drag" });
  const custom = await physics(page);
  log(`after the drag: ${JSON.stringify(custom)}`);
  assert.ok(custom.youngModulus > 12e9 && custom.youngModulus < 18e9, `the modulus did not follow the mouse: ${custom.youngModulus}`);
  assert.equal(custom.woodDensity, 687, "the density changed with the modulus");
  await frames(page, 3);
  await shot("physics-custom");

  const refused = await attempt(page, () => window.sandbox.physics({ airDensity: 9 }));
  assert.equal(refused.ok, false, "air density 9 was accepted");
  assert.match(refused.message, /physics.airDensity must be a number from 0.5 to 1.5/);
  assert.deepEqual(await physics(page), custom, "a refused value changed the material");

  // The reference for this tree and material, computed in a worker while the view keeps drawing.
  await page.evaluate(() => window.sandbox.resume());
  const t0 = await page.evaluate(() => window.sandbox.stats().fps);
  await clickControl(page, "physics.reference");
  const text = await until(() => page.evaluate(() => window.sandboxDebug.panelText("physics.reference.result") || null), { timeout: 60_000, message: "the reference's result in the panel" });
  log(`reference: ${text.replace(/\n/g, " | ")} (fps before ${t0})`);
  assert.match(text, /Lowest modes \(Hz\): \d+\.\d\d, \d+\.\d\d/);
  assert.match(text, /20 m\/s: mean tip deflection \d+\.\d cm/);
  const api = await page.evaluate(() => window.sandbox.reference({ speeds: [5, 10, 20], modes: 20 }));
  assert.equal(api.modes.length, 20, "reference() did not give 20 modes");
  assert.equal(api.static[2].tips.length, (await page.evaluate(() => window.sandbox.probe())).length, "tips not in probe()'s order");
  await frames(page, 3);
  await shot("physics-reference");

  // The address keeps it: reload and find the same material.
  await until(() => page.evaluate(() => window.location.hash.includes("physics.species=custom")), { timeout: 10_000, message: "the material in the address" });
  await page.reload();
  await waitReady(page, { errors });
  assert.deepEqual(await physics(page), custom, "the material did not come back after a reload");
  assert.deepEqual(errors.filter((e) => e.startsWith("uncaught")), []);
});
