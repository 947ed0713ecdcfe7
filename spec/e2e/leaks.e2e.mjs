// No leaks over long use: rounds of every method in turn, compare views added and removed, a
// sample model loaded and dropped, a grammar tree rebuilt and a one-second video leave the engine's
// meshes, materials, textures, geometries, render targets, shadow generators and observers where
// they started, and the JS heap's objects (the heap less V8's compiled code) within 10 % of it,
// after a forced garbage collection. The rounds and the counting are scripts/soak.mjs's
// (`npm run soak -- --leak-rounds 100` runs them alone; LEAK_ROUNDS=N runs N here).
import { test } from "./runner.mjs";
import { assert, openApp } from "./helpers.mjs";
import { runLeakRounds, mb } from "../../scripts/soak.mjs";

const ROUNDS = Number(process.env.LEAK_ROUNDS ?? 100);

test(`${ROUNDS} rounds of methods, compare views, a sample model, a rebuilt tree and a video leak nothing`, async ({ page, url, errors, log }) => {
  // A smaller canvas: the rounds are about what is created and disposed, not about pixels.
  await page.setViewportSize({ width: 640, height: 360 });
  await openApp(page, url, { hash: "#tree=demo", errors });
  const r = await runLeakRounds(page, { rounds: ROUNDS, log });
  log(`${r.rounds} rounds, ${Math.round(r.msPerRound)} ms a round; heap objects ${mb(r.heap.start.objects)} -> ${mb(r.heap.end.objects)} MB (${(100 * r.heapGrowth).toFixed(1)} %); used heap ${mb(r.start.heapBytes)} -> ${mb(r.end.heapBytes)} MB (${(100 * r.usedHeapGrowth).toFixed(1)} %, compiled code ${mb(r.heap.start.code)} -> ${mb(r.heap.end.code)} MB)`);
  assert.deepEqual(r.diff, {}, `counts that did not come back (start, end): ${JSON.stringify(r.diff)}`);
  // The objects' heap: the used heap less V8's compiled code, which grows for the first few dozen
  // rounds as more code is optimised and then levels off (V8 flushes it); what the app holds is the rest.
  assert.ok(r.heapGrowth <= 0.1, `the JS heap's objects grew ${(100 * r.heapGrowth).toFixed(1)} % over ${r.rounds} rounds (${mb(r.heap.start.objects)} -> ${mb(r.heap.end.objects)} MB); at most 10 %`);
  assert.deepEqual(errors, []);
}, { timeout: 9 * 60_000 });
