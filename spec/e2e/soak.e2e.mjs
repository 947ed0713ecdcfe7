// Two minutes of `npm run soak`: the app's real-time loop under a looping storm timeline with the
// method switched every 20 s. No non-finite value, no page error, and the heap after a forced
// garbage collection within the soak's bound. The soak itself is scripts/soak.mjs's runSoak.
import { test } from "./runner.mjs";
import { assert, openApp } from "./helpers.mjs";
import { runSoak } from "../../scripts/soak.mjs";

test("a two-minute soak: storm timeline, method switches, nothing non-finite, the heap bounded", async ({ page, url, errors, log }) => {
  await openApp(page, url, { errors });
  const r = await runSoak(page, { minutes: 2, switchSeconds: 20, log, errors });
  assert.ok(r.minutes.length === 2 && r.minutes.every((m) => m.frames > 0), `every minute drew frames: ${JSON.stringify(r.minutes.map((m) => m.frames))}`);
  assert.ok(r.ok, `the soak failed:\n${r.reasons.join("\n")}`);
  assert.deepEqual(errors, []);
}, { timeout: 4 * 60_000 });
