// npm run soak: long use in real Chromium, to find what grows.
//
//   npm run soak -- --minutes 30              the real-time loop (default 30 minutes)
//   npm run soak -- --leak-rounds 100         the leak rounds instead (spec/e2e/leaks.e2e.mjs runs them)
//
// The soak: the app runs its own real-time loop under a looping storm timeline (light breeze to a
// storm and back in 30 s) while the method is switched every --switch-seconds (default 20) through
// every method, round and round. Each minute it prints one line: the JS heap after a forced garbage
// collection (MB), the frame time (mean and 95th percentile, ms, from requestAnimationFrame), the
// non-finite values seen (stats().nonFinite samples, non-finite tip coordinates from probe() and
// methods stopped for going non-finite), and the scene's counts. It exits 1 on any non-finite value,
// on a page error, or when the heap grows past the bound (--heap-growth, default 0.25: a quarter over
// the heap after the first minute, which has every cache warm... plus 8 MB of slack for the method
// on show).
//
// A leak round (leakRound): every method in turn, two compare views added and removed, a sample
// model loaded and dropped (a grammar tree loaded in its place), a grammar tree rebuilt (another
// taper), and a one-second frame-exact video. census() counts what a leak would leave behind:
// meshes, materials, textures, geometries, the engine's GPU textures and render targets, custom
// render targets, shadow generators, observers on the scene, engine and cameras (and the app's own
// event observables), DOM nodes and listeners, and the JS heap after a forced collection;
// heapBreakdown() splits the heap into the objects the code holds and V8's compiled code. The
// rounds pass when every count comes back and the objects' heap ends within 10 % of the start.
//
// Other options: --tree NAME (default the app's default tree for the soak, demo for the rounds),
// --switch-seconds S, --heap-growth F, --no-build (serve DIST_DIR or dist/ as it is).
// Shared with the end-to-end tests (spec/e2e/soak.e2e.mjs, spec/e2e/leaks.e2e.mjs): the functions
// below take a playwright page with the app open.
import { pathToFileURL } from "node:url";
import { build, isStale, stopBuild } from "./build.mjs";
import { startServer, distDir } from "./serve.mjs";
import { launchChromium } from "./browser.mjs";

// ------------------------------------------------------------------------------------------ census

/** Collects garbage in the page (several passes, through the DevTools protocol: no flags needed). */
export async function collectGarbage(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    for (let i = 0; i < 3; i++) await cdp.send("HeapProfiler.collectGarbage");
    const heap = await cdp.send("Runtime.getHeapUsage");
    const dom = await cdp.send("Memory.getDOMCounters").catch(() => null);
    return { heapBytes: heap.usedSize, domNodes: dom?.nodes ?? null, jsEventListeners: dom?.jsEventListeners ?? null, documents: dom?.documents ?? null };
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/**
 * What a leak leaves behind, counted in the page: the scene's meshes, materials, textures,
 * geometries, skeletons, lights, cameras, transform nodes, custom render targets, shadow generators;
 * the engine's GPU textures and render-target wrappers; observers on every Observable field of the
 * scene, the engine, the cameras and the app's event streams.
 */
export function sceneCensus(page) {
  return page.evaluate(() => {
    const s = window.sandbox;
    const scene = s.scene;
    const engine = scene.getEngine();
    const isObservable = (v) => v && typeof v === "object" && typeof v.add === "function" && typeof v.notifyObservers === "function" && Array.isArray(v.observers);
    // Every Observable reachable as a field (own or a getter on the prototype chain up to Object).
    const observersOf = (obj) => {
      if (!obj) return 0;
      let n = 0;
      const seen = new Set();
      for (let o = obj; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
        for (const key of Object.getOwnPropertyNames(o)) {
          if (seen.has(key) || !/observable$/i.test(key)) continue;
          seen.add(key);
          let v;
          try {
            const d = Object.getOwnPropertyDescriptor(o, key);
            // Lazy getters would create the Observable they report: read fields, and getters only
            // when a backing field already exists.
            if (d && "value" in d) v = d.value;
            else if (d && d.get) {
              const backing = obj["_" + key];
              if (backing === undefined || backing === null) continue;
              v = backing;
            }
          } catch {
            continue;
          }
          if (isObservable(v)) n += v.observers.length;
        }
      }
      return n;
    };
    let shadowGenerators = 0;
    for (const l of scene.lights) {
      const g = typeof l.getShadowGenerators === "function" ? l.getShadowGenerators() : null;
      if (g) shadowGenerators += g.size ?? 0;
      else if (typeof l.getShadowGenerator === "function" && l.getShadowGenerator()) shadowGenerators++;
    }
    const cameras = scene.cameras;
    const events = s.events ? s.events.changes.observers.length + s.events.errors.observers.length : 0;
    return {
      meshes: scene.meshes.length,
      materials: scene.materials.length,
      multiMaterials: scene.multiMaterials.length,
      textures: scene.textures.length,
      geometries: scene.geometries.length,
      skeletons: scene.skeletons.length,
      transformNodes: scene.transformNodes.length,
      lights: scene.lights.length,
      cameras: cameras.length,
      customRenderTargets: scene.customRenderTargets.length,
      shadowGenerators,
      gpuTextures: engine.getLoadedTexturesCache().length,
      renderTargets: (engine._renderTargetWrapperCache ?? []).length,
      sceneObservers: observersOf(scene),
      engineObservers: observersOf(engine),
      cameraObservers: cameras.reduce((n, c) => n + observersOf(c), 0),
      appObservers: events,
    };
  });
}

/**
 * The JS heap by what it holds, from a heap snapshot (taken after a forced collection): `objects`,
 * the bytes of everything the page's code can hold on to (objects, arrays, strings, closures,
 * numbers, shapes), and `code`, V8's compiled code, which grows for dozens of rounds of the same
 * work as more of it is optimised and is V8's to keep or flush. Bytes.
 */
export async function heapBreakdown(page) {
  await collectGarbage(page);
  const cdp = await page.context().newCDPSession(page);
  const chunks = [];
  try {
    cdp.on("HeapProfiler.addHeapSnapshotChunk", (e) => chunks.push(e.chunk));
    await cdp.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false, captureNumericValue: false });
  } finally {
    await cdp.detach().catch(() => {});
  }
  const snap = JSON.parse(chunks.join(""));
  const meta = snap.snapshot.meta, width = meta.node_fields.length, types = meta.node_types[0];
  const iType = meta.node_fields.indexOf("type"), iSize = meta.node_fields.indexOf("self_size");
  let objects = 0, code = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const t = types[snap.nodes[i + iType]];
    if (t === "code") code += snap.nodes[i + iSize];
    else if (t !== "native" && t !== "synthetic" && t !== "hidden") objects += snap.nodes[i + iSize];
  }
  return { objects, code };
}

/** sceneCensus plus the heap, DOM nodes and listeners after a forced garbage collection. */
export async function census(page) {
  // Babylon disposes some things at the end of the next frame (an observer on onEndFrameObservable
  // each) and removes an observer being notified on the next tick: let two frames and a tick pass.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(ok, 50)))));
  const gc = await collectGarbage(page);
  return { ...(await sceneCensus(page)), ...gc };
}

/** The count names that must come back exactly (all but the heap). */
export const EXACT_COUNTS = [
  "meshes", "materials", "multiMaterials", "textures", "geometries", "skeletons", "transformNodes", "lights", "cameras",
  "customRenderTargets", "shadowGenerators", "gpuTextures", "renderTargets", "sceneObservers", "engineObservers",
  "cameraObservers", "appObservers", "domNodes", "jsEventListeners", "documents",
];

/** The counts of `now` that differ from `start`: { name: [start, now] }. */
export function countDiff(start, now) {
  const out = {};
  for (const k of EXACT_COUNTS) if (start[k] !== now[k]) out[k] = [start[k], now[k]];
  return out;
}

export const mb = (bytes) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

// ------------------------------------------------------------------------------------- leak rounds

/** The sample models the rounds load, one per round in turn (a glTF and an OBJ with textures). */
export const LEAK_SAMPLES = ["dead-tree", "lowpoly-tree"];

/**
 * One leak round, in the page: every method in turn (back to the first), two compare views added
 * and removed, a sample model loaded and dropped (the grammar tree loaded again in its place), the
 * grammar tree rebuilt at another taper, and a one-second frame-exact video at a small size.
 * Resolves to the round's time in ms.
 */
export function leakRound(page, { round = 0, grammar = "demo", width = 160, height = 96 } = {}) {
  return page.evaluate(async ({ round, grammar, width, height, samples }) => {
    const s = window.sandbox;
    const t0 = performance.now();
    const ids = s.animators().map((a) => a.id);
    const first = s.views()[0].id;
    for (const id of ids) await s.use(id);
    await s.use(first);
    await s.addView();
    await s.addView();
    await s.removeView(2);
    await s.removeView(1);
    await s.loadTree({ preset: samples[((round % samples.length) + samples.length) % samples.length] });
    await s.loadTree({ preset: grammar, taper: 0.6 });
    await s.loadTree({ taper: round % 2 ? 0.55 : 0.65 });
    // Frame-exact (real time records nothing when a loaded machine draws too few frames), at 2 frames a second.
    await s.record({ seconds: 1, fps: 2, width, height });
    return performance.now() - t0;
  }, { round, grammar, width, height, samples: LEAK_SAMPLES });
}

/**
 * Runs `rounds` leak rounds after `warmup` rounds (two: each sample format loaded once). A first
 * use fills what it fills once: Babylon's BRDF lookup texture for a glTF's PBR materials and two
 * scene observers of its static caches, the shader programs, the fetched sample files. Returns
 * { before (the census on opening), start (after the warm-up), end (after the last round), diff
 * (counts that differ from start), heap: { start, end } (heapBreakdown), heapGrowth (the objects'
 * heap, end over start, a fraction), usedHeapGrowth (the whole used heap, compiled code included),
 * msPerRound, rounds }.
 */
export async function runLeakRounds(page, { rounds = 100, warmup = 2, log = () => {}, grammar = "demo" } = {}) {
  const before = await census(page);
  const warmed = [];
  for (let r = 0; r < warmup; r++) warmed.push(await leakRound(page, { round: -warmup + r, grammar }));
  const start = await census(page);
  const heapStart = await heapBreakdown(page);
  log(`on opening ${JSON.stringify(before)}`);
  log(`after ${warmup} warm-up rounds (${warmed.map((ms) => Math.round(ms)).join(", ")} ms): heap ${mb(start.heapBytes)} MB (objects ${mb(heapStart.objects)} MB, compiled code ${mb(heapStart.code)} MB); differs from the opening: ${JSON.stringify(countDiff(before, start))}`);
  const times = [];
  for (let r = 1; r <= rounds; r++) {
    times.push(await leakRound(page, { round: r, grammar }));
    if (rounds <= 10 || r % 20 === 0) {
      const c = await census(page);
      log(`round ${r}: ${Math.round(times[times.length - 1])} ms, heap ${mb(c.heapBytes)} MB, counts that differ: ${JSON.stringify(countDiff(start, c))}`);
    }
  }
  const end = await census(page);
  const heapEnd = await heapBreakdown(page);
  log(`after ${rounds} rounds: heap ${mb(end.heapBytes)} MB (objects ${mb(heapEnd.objects)} MB, compiled code ${mb(heapEnd.code)} MB)`);
  return {
    before, start, end,
    diff: countDiff(start, end),
    heap: { start: heapStart, end: heapEnd },
    heapGrowth: heapEnd.objects / heapStart.objects - 1,
    usedHeapGrowth: end.heapBytes / start.heapBytes - 1,
    msPerRound: times.reduce((a, b) => a + b, 0) / Math.max(1, times.length),
    rounds,
  };
}

// -------------------------------------------------------------------------------------------- soak

/**
 * The soak's storm: light breeze, fresh breeze, strong breeze, gale and storm 4 s apart (the
 * Beaufort presets' speeds and gusts, turning 40 deg), held 6 s, back to a light breeze by 30 s;
 * looping. Built in the page from the app's own presets.
 */
export function setStormTimeline(page) {
  return page.evaluate(() => {
    const s = window.sandbox;
    const key = (t, id, direction) => {
      s.windPreset(id);
      const w = s.wind();
      return { t, speed: w.speed, direction, gust: w.gust };
    };
    const keys = [
      key(0, "light-breeze", 0), key(4, "fresh-breeze", 10), key(8, "strong-breeze", 20), key(12, "gale", 30),
      key(16, "storm", 40), key(22, "storm", 40), key(30, "light-breeze", 0),
    ];
    return s.windTimeline({ keys, loop: true });
  });
}

/** Installs the page-side sampler: every frame's interval from requestAnimationFrame. */
function installFrameSampler(page) {
  return page.evaluate(() => {
    const w = window;
    if (w.__soakFrames) return;
    w.__soakFrames = [];
    let last = performance.now();
    const tick = (now) => {
      w.__soakFrames.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Non-finite values now: stats().nonFinite, non-finite tip coordinates, and the errors so far. */
function sampleHealth(page) {
  return page.evaluate(() => {
    const s = window.sandbox;
    const st = s.stats();
    let tips = 0;
    for (const v of s.probe()) if (!Number.isFinite(v)) tips++;
    return { nonFinite: st.nonFinite, tips, errors: st.errors, methods: s.views().map((v) => v.id) };
  });
}

const percentile = (xs, p) => {
  if (!xs.length) return NaN;
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.min(a.length - 1, Math.floor(p * a.length))];
};

/**
 * The soak: `minutes` of the app's own real-time loop under the looping storm timeline, switching
 * the method every `switchSeconds` through every method. Prints (through `log`) one line a minute.
 * Resolves to { ok, reasons, minutes: [{ minute, heapMb, frameMeanMs, frameP95Ms, frames, nonFinite,
 * methods, counts }], heapBoundMb }. `errors`: the page's errors array (scripts/browser.mjs), checked.
 */
export async function runSoak(page, { minutes = 30, switchSeconds = 20, heapGrowth = 0.25, log = console.log, errors = [] } = {}) {
  const ids = await page.evaluate(() => window.sandbox.animators().map((a) => a.id));
  await setStormTimeline(page);
  await installFrameSampler(page);
  await page.evaluate(() => window.sandbox.resume());
  const opening = await census(page);
  log(`soak: ${minutes} min, switching every ${switchSeconds} s through ${ids.join(", ")}; looping storm timeline; heap on opening ${mb(opening.heapBytes)} MB`);
  const rows = [];
  const reasons = [];
  const errorsSeen = new Set();
  let nonFiniteTotal = 0;
  let heapBoundMb = null;
  let errorsRead = errors.length;
  let next = 0;
  let switchAt = Date.now();
  const started = Date.now();
  for (let minute = 1; minute <= minutes; minute++) {
    const end = started + minute * 60_000;
    let nonFinite = 0;
    const methods = new Set();
    while (Date.now() < end) {
      if (Date.now() >= switchAt) {
        const id = ids[next++ % ids.length];
        await page.evaluate(async (id) => {
          await window.sandbox.use(id);
          // use() restarts the clock; the timeline plays from its start with it.
        }, id);
        switchAt = Date.now() + switchSeconds * 1000;
      }
      const h = await sampleHealth(page);
      for (const m of h.methods) methods.add(m);
      if (h.nonFinite) nonFinite++;
      nonFinite += h.tips;
      for (const e of h.errors) {
        if (errorsSeen.has(e)) continue;
        errorsSeen.add(e);
        if (/non-finite/i.test(e)) nonFinite++;
        reasons.push(`the app reported: ${e}`);
      }
      await new Promise((ok) => setTimeout(ok, Math.max(0, Math.min(1000, end - Date.now()))));
    }
    const frames = await page.evaluate(() => window.__soakFrames.splice(0));
    const c = await census(page);
    const heapMb = mb(c.heapBytes);
    if (minute === 1) heapBoundMb = Math.round((heapMb * (1 + heapGrowth) + 8) * 10) / 10;
    const row = {
      minute, heapMb, frameMeanMs: round1(frames.reduce((a, b) => a + b, 0) / Math.max(1, frames.length)), frameP95Ms: round1(percentile(frames, 0.95)),
      frames: frames.length, nonFinite, methods: [...methods],
      counts: { meshes: c.meshes, materials: c.materials, textures: c.textures, gpuTextures: c.gpuTextures, observers: c.sceneObservers + c.engineObservers + c.cameraObservers, domNodes: c.domNodes },
    };
    rows.push(row);
    nonFiniteTotal += nonFinite;
    log(`minute ${minute}: heap ${heapMb} MB (bound ${heapBoundMb}), frame mean ${row.frameMeanMs} ms p95 ${row.frameP95Ms} ms (${frames.length} frames), non-finite ${nonFinite}, methods ${row.methods.join(" ")}, counts ${JSON.stringify(row.counts)}`);
    if (heapMb > heapBoundMb) reasons.push(`minute ${minute}: the heap (${heapMb} MB) passed its bound (${heapBoundMb} MB)`);
    for (; errorsRead < errors.length; errorsRead++) reasons.push(`page error: ${errors[errorsRead]}`);
  }
  if (nonFiniteTotal) reasons.push(`${nonFiniteTotal} non-finite values seen`);
  return { ok: reasons.length === 0, reasons, minutes: rows, heapBoundMb };
}

const round1 = (x) => Math.round(x * 10) / 10;

// -------------------------------------------------------------------------------------------- CLI

function parseArgs(argv) {
  const o = { minutes: 30, leakRounds: 0, tree: null, switchSeconds: 20, heapGrowth: 0.25, build: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    const number = () => {
      const v = value(), n = Number(v);
      if (!(Number.isFinite(n) && n > 0)) throw new Error(`${a} needs a positive number; got "${v}"`);
      return n;
    };
    if (a === "--minutes") o.minutes = number();
    else if (a === "--leak-rounds") o.leakRounds = Math.round(number());
    else if (a === "--tree") o.tree = value();
    else if (a === "--switch-seconds") o.switchSeconds = number();
    else if (a === "--heap-growth") o.heapGrowth = number();
    else if (a === "--no-build") o.build = false;
    else if (a === "--help" || a === "-h") {
      console.log("npm run soak -- --minutes 30   |   npm run soak -- --leak-rounds 100   (see scripts/soak.mjs for every option)");
      process.exit(0);
    } else throw new Error(`unknown option ${a} (--help lists them)`);
  }
  return o;
}

let server = null, browser = null;
async function shutdown(code) {
  stopBuild();
  if (browser) await browser.close().catch(() => {});
  if (server) await server.close().catch(() => {});
  process.exit(code);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.build && (await isStale())) await build({ mode: "production" });
  server = await startServer({ root: distDir, port: 0 });
  // The leak rounds are about what is made and disposed, not pixels: a smaller canvas is quicker.
  browser = await launchChromium(o.leakRounds ? { width: 640, height: 360 } : { width: 1280, height: 720 });
  const { page, errors } = browser;
  const tree = o.tree ?? (o.leakRounds ? "demo" : null);
  await page.goto(server.url + (tree ? `#tree=${encodeURIComponent(tree)}` : ""));
  await page.waitForFunction(() => window.sandbox !== undefined, null, { timeout: 90_000 });
  await page.evaluate(() => window.sandbox.ready);
  if (o.leakRounds) {
    const r = await runLeakRounds(page, { rounds: o.leakRounds, grammar: tree, log: console.log });
    const leaked = Object.keys(r.diff).length > 0;
    console.log(`${r.rounds} rounds, ${Math.round(r.msPerRound)} ms a round; heap objects ${mb(r.heap.start.objects)} -> ${mb(r.heap.end.objects)} MB (${(100 * r.heapGrowth).toFixed(1)} %), used heap with compiled code ${mb(r.start.heapBytes)} -> ${mb(r.end.heapBytes)} MB (${(100 * r.usedHeapGrowth).toFixed(1)} %); counts that differ: ${leaked ? JSON.stringify(r.diff) : "none"}`);
    const bad = leaked || r.heapGrowth > 0.1 || errors.length > 0;
    if (errors.length) console.log(`page errors:\n${errors.join("\n")}`);
    return bad ? 1 : 0;
  }
  const r = await runSoak(page, { minutes: o.minutes, switchSeconds: o.switchSeconds, heapGrowth: o.heapGrowth, errors });
  console.log(r.ok ? "soak passed" : `soak failed:\n  ${r.reasons.join("\n  ")}`);
  return r.ok ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.on("SIGINT", () => shutdown(130));
  main().then(
    (code) => shutdown(code),
    (err) => {
      console.error(err && err.stack ? err.stack : String(err));
      return shutdown(1);
    },
  );
}
