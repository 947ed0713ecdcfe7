/**
 * The host under Babylon's NullEngine: the automation API's validation and messages, switching
 * and compare views without leaks, the page address round trip, and a clean exit.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Observable } from "@babylonjs/core/Misc/observable";
import { RenderTargetTexture } from "@babylonjs/core/Materials/Textures/renderTargetTexture";
import type { Scene } from "@babylonjs/core/scene";
import { createRegistry } from "../../app/animators/registry";
import type { ParamDecl } from "../../app/math/params";
import type { SandboxPanelApi } from "../../app/sandbox/api";
import { Sandbox } from "../../app/sandbox/sandbox";
import { PointerCameraBehavior } from "../../app/sandbox/pointer-camera";
import { ViewTimingBehavior } from "../../app/sandbox/view-timing";
import type { VideoRecorder } from "../../app/record/recorder";
import { filesBeside } from "../support/read-model";

/**
 * How many observers every Observable of `o` holds (not counting those removed, which Babylon drops
 * on the next tick). The engine's onReleaseEffectsObservable is left out: each compiled shader
 * (effect) waits there to be released with the engine, a cache Babylon owns across scenes.
 */
function observers(o: object): number {
  let n = 0;
  for (const [k, v] of Object.entries(o)) if (v instanceof Observable && k !== "onReleaseEffectsObservable") n += live(v);
  return n;
}
function live(o: Observable<unknown>): number {
  return o.observers.filter((x) => !(x as unknown as { _willBeUnregistered?: boolean })._willBeUnregistered).length;
}
/** Which Observables of `o` hold observers, and how many (for a failure's message). */
function observerMap(o: object): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(o)) if (v instanceof Observable && live(v) > 0) out[k] = live(v);
  return out;
}

/** What a leak would grow: meshes, materials, textures, geometries, render targets, observers. */
function census(scene: Scene) {
  let shadowMaps = 0;
  for (const l of scene.lights) shadowMaps += (l as unknown as { _shadowGenerators?: Map<unknown, unknown> })._shadowGenerators?.size ?? 0;
  return {
    meshes: scene.meshes.length,
    materials: scene.materials.length,
    textures: scene.textures.length,
    geometries: scene.geometries.length,
    renderTargets: scene.textures.filter((t) => t instanceof RenderTargetTexture).length + scene.customRenderTargets.length + shadowMaps,
    cameras: scene.cameras.length,
    observers: observers(scene) + observers(scene.getEngine()),
  };
}

/** A value of the declaration other than its default (next step up, or down at the top; the other boolean; another option). */
function otherValue(d: ParamDecl): number | boolean | string {
  if (d.kind === "boolean") return !d.default;
  if (d.kind === "choice") return d.options.find((o) => o !== d.default)!;
  const up = Math.round((d.default + d.step) / d.step) * d.step;
  return Number((up <= d.max ? up : d.default - d.step).toFixed(6));
}

describe("Sandbox under NullEngine", () => {
  let engine: NullEngine;
  let sandbox: Sandbox;
  let api: SandboxPanelApi;

  async function open(hash = "#tree=demo"): Promise<void> {
    sandbox = new Sandbox(engine, null, createRegistry());
    api = sandbox.api();
    await sandbox.start(hash, "", { renderLoop: false });
  }

  beforeEach(() => {
    engine = new NullEngine();
  });
  afterEach(() => {
    sandbox?.dispose();
    engine.dispose();
  });

  it("rejects bad input through the API with a RangeError a person can act on, shown once in stats().errors", async () => {
    await open();
    const cases: [string, () => unknown, RegExp][] = [
      ["wind speed 99", () => api.wind({ speed: 99 }), /speed.*0.*40/],
      ["unknown parameter", () => api.params("procedural-wind", { nope: 1 }), /no parameter "nope".*damping/],
      ["damping out of range", () => api.params("spectral-beam", { damping: 2 }), /damping must be a number from 0 to 1/],
      ["unknown method", () => api.use("nope"), /Unknown method "nope"; the methods are: .*spectral-beam/],
      ["five views", () => api.use(["rest", "rest", "rest", "rest", "rest"]), /one method id, or 2 to 4 ids/],
      ["unknown tree", () => api.loadTree({ preset: "baobab" }), /No tree preset "baobab"; the trees are: .*habel/],
      ["depth past the range", () => api.loadTree({ depth: 99 }), /depth must be a whole number from 0 to 40/],
      ["taper past the range", () => api.loadTree({ taper: 2 }), /taper must be a number from 0 to 0.95/],
      ["unknown display setting", () => api.display({ fog: true } as never), /no setting "fog"; its settings are: barkTexture/],
      ["step count", () => api.step(-1), /whole number from 0 to 100000/],
      ["plotted tip", () => api.plotTip(1e6), /plotted tip must be a branch from 0 to \d+/],
      ["branch of a method without per-branch controls", () => api.use("rest").then(() => api.branch(1)), /no per-branch controls; pick a method that has them/],
      ["view to remove", () => api.removeView(0), /last view cannot be removed/],
      ["wind preset", () => api.windPreset("hurricane"), /hurricane/],
      ["timeline", () => api.windTimeline({ loop: false, keys: [{ t: 1, speed: 5, direction: 0, gust: 0 }] }), /time/i],
    ];
    for (const [what, call, message] of cases) {
      const before = api.stats().errors.length;
      let thrown: unknown = null;
      try {
        await call();
      } catch (e) {
        thrown = e;
      }
      expect([what, thrown instanceof Error]).toEqual([what, true]);
      expect([what, (thrown as Error).message]).toEqual([what, expect.stringMatching(message)]);
      if (!/branch of a method|wind preset|timeline/.test(what)) expect([what, (thrown as Error).name]).toEqual([what, "RangeError"]);
      const errors = api.stats().errors;
      expect([what, errors.length]).toEqual([what, Math.min(20, before + 1)]);
      expect(errors[errors.length - 1]).toBe((thrown as Error).message);
    }
    // Nothing was applied: the defaults stand and the tree is the one asked for.
    expect(api.wind().speed).toBe(sandbox.windField.settings().speed);
    expect(api.tree().name).toBe("demo");
    expect(api.views().map((v) => v.id)).toEqual(["rest"]);
  });

  it("50 switches across every method and 20 compare views added and removed leave the scene where it started", async () => {
    await open();
    const ids = api.animators().map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining(["rest", "spectral-beam", "procedural-wind", "lsystem-particles", "mass-spring"]));
    // Every method once first: Babylon's drag behaviour (mass-spring's wind arrow) makes a helper
    // scene once per scene, disposed with it.
    for (const id of ids) await api.use(id);
    await api.use("rest");
    api.step(2);
    const start = census(sandbox.scene);
    for (let i = 0; i < 50; i++) {
      await api.use(ids[i % ids.length]);
      api.step(2);
    }
    await api.use("rest");
    api.step(2);
    expect([census(sandbox.scene), observerMap(sandbox.scene)]).toEqual([start, expect.anything()]);
    for (let i = 0; i < 20; i++) {
      await api.addView(ids[(i + 1) % ids.length]);
      api.step(1);
      expect(api.views().length).toBe(2 + (i % 3));
      if (i % 3 === 2) {
        // Back to one view, taking the views off one by one.
        while (api.views().length > 1) await api.removeView(api.views().length - 1);
        api.step(1);
      }
    }
    while (api.views().length > 1) await api.removeView(1);
    await api.use("rest");
    api.step(2);
    expect([census(sandbox.scene), observerMap(sandbox.scene)]).toEqual([start, expect.anything()]);
  }, 120_000);

  it("the page address round-trips every field: tree, depth, taper, methods, wind with seed and vertical, every method parameter, display, timeline", async () => {
    await open();
    const methods = api.animators().map((a) => a.id);
    // Rounds of three methods: the address keeps the parameters of the methods on show (at most four views).
    const rounds: string[][] = [];
    for (let i = 0; i < methods.length; i += 3) rounds.push(methods.slice(i, i + 3));
    for (const shown of rounds) {
      await api.loadTree({ preset: "demo", depth: 4, taper: 0.3 });
      await api.use(shown);
      api.wind({ speed: 12.5, direction: 90, turbulence: 0.2, gust: 0.4, seed: 7, vertical: -1.5 });
      const set: Record<string, Record<string, number | boolean | string>> = {};
      for (const id of shown) {
        const decls = api.methods().find((m) => m.id === id)!.params;
        // mass-spring's mode is left at "live": "graph" and "grove" first make a 10 s recording.
        set[id] = Object.fromEntries(Object.entries(decls).filter(([k]) => !(id === "mass-spring" && k === "mode")).map(([k, d]) => [k, otherValue(d)]));
        api.params(id, set[id]);
      }
      api.display({ barkTexture: false, shadows: false, hierarchy: true });
      api.renderMode("wireframe");
      const timeline = { loop: true, keys: [{ t: 0, speed: 3, direction: 10, gust: 0.1 }, { t: 8, speed: 15, direction: 120, gust: 0.6 }] };
      api.windTimeline(timeline);
      api.physics({ species: "birch", dragCoefficient: 1.1, leafDragArea: 0.003, airDensity: 1.2 });
      const hash = sandbox.urlSync.hash();

      const first = { sandbox, api };
      await open(hash);
      expect(api.stats().errors).toEqual([]);
      expect(api.tree()).toEqual(expect.objectContaining({ name: "demo", depth: 4, taper: 0.3 }));
      expect(api.views().map((v) => v.id)).toEqual(shown);
      expect(api.wind()).toEqual(first.api.wind());
      expect(api.wind()).toEqual(expect.objectContaining({ turbulence: 0.2, seed: 7, vertical: -1.5 }));
      for (const id of shown) expect(api.params(id)).toEqual(expect.objectContaining(set[id]));
      for (const id of shown) expect(api.params(id)).toEqual(first.api.params(id));
      expect(api.display()).toEqual({ barkTexture: false, background: true, shadows: false, hierarchy: true });
      expect(api.renderMode()).toBe("wireframe");
      expect(api.windTimeline()).toEqual(timeline);
      expect(api.physics()).toEqual({ species: "birch", woodDensity: 866, youngModulus: 8.1e9, dragCoefficient: 1.1, leafDragArea: 0.003, airDensity: 1.2 });
      expect(sandbox.urlSync.hash()).toBe(hash);
      first.sandbox.dispose();
    }
  }, 120_000);

  it("carries the physical tree: species presets, values by hand make it custom, RangeErrors name the range", async () => {
    await open();
    expect(api.physics()).toEqual({ species: "oak", woodDensity: 1026, youngModulus: 8.6e9, dragCoefficient: 1.2, leafDragArea: 0.004, airDensity: 1.225 });
    expect(api.physics({ species: "pine" })).toEqual(expect.objectContaining({ species: "pine", woodDensity: 687, youngModulus: 6.8e9 }));
    expect(api.physics({ species: "maple", youngModulus: 11e9 })).toEqual(expect.objectContaining({ species: "custom", woodDensity: 942, youngModulus: 11e9 }));
    expect(api.physics({ dragCoefficient: 1 })).toEqual(expect.objectContaining({ species: "custom", dragCoefficient: 1 }));
    expect(() => api.physics({ youngModulus: 1e6 })).toThrow(RangeError);
    expect(() => api.physics({ youngModulus: 1e6 })).toThrow(/physics.youngModulus must be a number from 1000000000 to 30000000000 Pa/);
    expect(() => api.physics({ species: "baobab" } as never)).toThrow(/physics.species must be one of "oak", "pine", "birch", "maple", "custom"/);
    expect(() => api.physics({ colour: 1 } as never)).toThrow(/physics has no parameter "colour"/);
    expect(api.stats().errors.filter((e) => /physics/.test(e))).toHaveLength(4);
    // A model starts with the material on show, as every tree does; the defaults are oak.
    await api.loadTree({ preset: "conifer" });
    expect(api.physics().youngModulus).toBe(11e9);
  });

  it("computes the reference for the tree and material on show: modes ascending, static tips growing as the square of the speed", async () => {
    await open();
    const r = await api.reference({ speeds: [5, 10, 20], modes: 8 });
    expect(r.modes).toHaveLength(8);
    for (let i = 0; i < 8; i++) expect(r.modes[i].hz).toBeGreaterThan(i ? r.modes[i - 1].hz - 1e-9 : 0);
    expect(r.static.map((s) => s.speed)).toEqual([5, 10, 20]);
    const tips = r.static.map((s) => s.tips);
    expect(tips[0]).toHaveLength(api.probe().length);
    // Linear statics under a drag ½ ρ C_d d U²: four times the speed, sixteen times the deflection, along the wind (+x).
    for (let i = 0; i < tips[0].length; i++) expect(tips[2][i]).toBeCloseTo(16 * tips[0][i], 9);
    const tipX = tips[1].filter((_, i) => i % 3 === 0);
    expect(Math.max(...tipX)).toBeGreaterThan(1e-3);
    expect(Math.min(...tipX)).toBeGreaterThanOrEqual(0);
    expect(api.latestReference()).toEqual(r);
    // A stiffer wood bends less; the result for the old material is forgotten.
    api.physics({ youngModulus: 2 * api.physics().youngModulus });
    expect(api.latestReference()).toBeNull();
    const stiff = await api.reference({ speeds: [10], modes: 1 });
    expect(stiff.static[0].tips[0]).toBeCloseTo(tips[1][0] / 2, 6);
    expect(stiff.modes[0].hz).toBeCloseTo(r.modes[0].hz * Math.SQRT2, 6);
    await expect(api.reference({ modes: 99 })).rejects.toThrow(/modes must be a whole number from 0 to 40/);
    await expect(api.reference({ speeds: [50] })).rejects.toThrow(/speeds must be a list of at most 16 wind speeds from 0 to 40 m\/s/);
    const first = api.reference({ speeds: [7] });
    await expect(api.reference({ speeds: [8] })).rejects.toThrow(/being computed; wait/);
    await first;
  }, 60_000);

  it("a bad field in the address keeps its default, one message names every bad field with its text and the value used, and the others still apply", async () => {
    await open("#tree=baobab&method=nope&speed=12&seed=3&spectral-beam.damping=5&spectral-beam.damping0=0.5&physics.youngModulus=5&physics.airDensity=1.2");
    const errors = api.stats().errors;
    expect(errors).toHaveLength(1);
    const m = errors[0];
    expect(m).toMatch(/^Address: tree 'baobab': not a tree; the trees are: demo, habel, .* \(using habel\)/);
    expect(m).toMatch(/method 'nope': not a method; the methods are: spectral-beam, .*rest \(using spectral-beam\)/);
    expect(m).toMatch(/spectral-beam\.damping '5': must be a number from 0 to 1 \(using 0\.5\)/);
    expect(m).toMatch(/physics\.youngModulus '5': must be a number from 1000000000 to 30000000000 Pa \(using 8600000000\)/);
    expect(m).not.toMatch(/speed|seed|damping0|airDensity/);
    expect(api.tree().name).toBe("habel");
    expect(api.views().map((v) => v.id)).toEqual(["spectral-beam"]);
    expect(api.wind()).toEqual(expect.objectContaining({ speed: 12, seed: 3 }));
    // The good keys beside the bad ones apply: damping0 with damping, airDensity with youngModulus.
    expect(api.params("spectral-beam")).toEqual(expect.objectContaining({ damping: 0.5, damping0: 0.5 }));
    expect(api.physics()).toEqual(expect.objectContaining({ youngModulus: 8.6e9, airDensity: 1.2 }));
  }, 60_000);

  it("each kind of bad field in the address opens with its default alone, named with its text", async () => {
    const cases: { hash: string; message: RegExp; check: () => void }[] = [
      { hash: "#tree=demo&method=foo&speed=9", message: /^Address: method 'foo': not a method; .* \(using spectral-beam\)$/, check: () => expect([api.views().map((v) => v.id), api.tree().name, api.wind().speed]).toEqual([["spectral-beam"], "demo", 9]) },
      { hash: "#tree=demo&method=procedural-wind,foo", message: /^Address: method 'procedural-wind,foo': not a method; .* \(using spectral-beam\)$/, check: () => expect(api.views().map((v) => v.id)).toEqual(["spectral-beam"]) },
      { hash: "#tree=demo&speed=900&direction=45", message: /^Address: speed '900': must be a number from 0 to 40 m\/s \(using 6\)$/, check: () => expect([api.wind().speed, api.wind().direction]).toEqual([6, 45]) },
      { hash: "#tree=demo&seed=1.5&gust=0.6", message: /^Address: seed '1\.5': must be an integer from 0 to \d+ \(using 1\)$/, check: () => expect([api.wind().seed, api.wind().gust]).toEqual([1, 0.6]) },
      { hash: "#tree=baobab&depth=4&speed=9", message: /^Address: tree 'baobab': not a tree; the trees are: .* \(using habel\)$/, check: () => expect([api.tree().name, api.tree().depth, api.wind().speed]).toEqual(["habel", 4, 9]) },
      { hash: "#tree=demo&depth=99", message: /^Address: depth '99': must be a whole number from 0 to 40 \(using 7\)$/, check: () => expect([api.tree().name, api.tree().depth]).toEqual(["demo", 7]) },
      { hash: "#tree=demo&depth=abc&taper=0.3", message: /^Address: depth 'abc': must be a whole number \(using 7\)$/, check: () => expect([api.tree().name, api.tree().depth, api.tree().taper]).toEqual(["demo", 7, 0.3]) },
      { hash: "#tree=barron&depth=30&taper=0.3", message: /^Address: depth '30': barron\.lsys: .*module.* \(using 7\)$/, check: () => expect([api.tree().name, api.tree().depth, api.tree().taper]).toEqual(["barron", 7, 0.3]) },
      { hash: "#tree=demo&depth=4&taper=3", message: /^Address: taper '3': must be a number from 0 to 0\.95 \(using 0\.\d+\)$/, check: () => expect([api.tree().name, api.tree().depth]).toEqual(["demo", 4]) },
      { hash: "#tree=demo&spectral-beam.damping=5&spectral-beam.damping0=0.5", message: /^Address: spectral-beam\.damping '5': must be a number from 0 to 1 \(using 0\.5\)$/, check: () => expect(api.params("spectral-beam")).toEqual(expect.objectContaining({ damping: 0.5, damping0: 0.5 })) },
      { hash: "#tree=demo&mass-spring.trees=-1", message: /^Address: mass-spring\.trees '-1': must be .* \(using its default\)$/, check: () => expect(api.params("mass-spring").trees).toBeGreaterThan(0) },
      { hash: "#tree=demo&mode=sketch&bark=maybe&shadows=off", message: /^Address: bark 'maybe': must be on or off \(using on\); mode 'sketch': must be one of shaded, flat, wireframe, skeleton \(using shaded\)$/, check: () => expect(api.display()).toEqual(expect.objectContaining({ barkTexture: true, shadows: false })) },
      { hash: "#tree=demo&timeline=loop|0,6", message: /^Address: timeline 'loop\|0,6': .* \(using none\)$/, check: () => expect(api.windTimeline()).toBeNull() },
    ];
    for (const c of cases) {
      const previous = sandbox;
      await open(c.hash);
      previous?.dispose();
      const errors = api.stats().errors;
      expect([c.hash, errors.length]).toEqual([c.hash, 1]);
      expect([c.hash, errors[0]]).toEqual([c.hash, expect.stringMatching(c.message)]);
      c.check();
      expect(api.probe().length).toBeGreaterThan(0);
    }
  }, 120_000);

  it("long work refuses what would change the tree or the methods under it, says what is under way and what to do, and leaves the app whole", async () => {
    await open();
    const settle = (p: Promise<unknown>) => p.then(() => "ok", (e: Error) => `${e.name}: ${e.message}`);
    // A model loading: use(), loadTree() (a grammar, another model), addView(), record() are refused.
    const files = filesBeside("assets/models/own_welded_obj/welded.obj").map((f) => new File([f.data], f.name));
    const loading = api.loadTree({ files });
    const refused = {
      use: await settle(api.use("procedural-wind")),
      grammar: await settle(api.loadTree({ preset: "barron" })),
      model: await settle(api.loadTree({ preset: "pine" })),
      addView: await settle(api.addView()),
      setFocusedMethod: await settle(api.setFocusedMethod("rest")),
      record: await settle(api.record({ seconds: 1 })),
    };
    for (const [call, message] of Object.entries(refused)) {
      expect([call, message]).toEqual([call, expect.stringMatching(/^BusyError: \w+\(\) refused: a model is loading \(reading welded\.obj, 0%\); wait for the loadTree\(\) under way to resolve \(loadProgress\(\) says how far it is\), then /)]);
      expect(api.stats().errors.some((e) => e.endsWith(message.replace(/^BusyError: /, "")))).toBe(true);
    }
    const summary = await loading;
    expect(api.model()?.file).toBe("welded.obj");
    expect(api.tree().isModel).toBe(true);
    expect(api.views().map((v) => v.id)).toEqual(["spectral-beam"]);
    expect(api.loadProgress()).toBeNull();
    expect(api.probe().length).toBe(3 * summary.tips);
    // Afterwards the same calls go through.
    await api.use("procedural-wind");
    expect(api.views().map((v) => v.id)).toEqual(["procedural-wind"]);

    // A video being recorded: a second record(), use() and loadTree() are refused; the first goes on.
    let finish = () => undefined as void;
    const recorder = { recording: false, record: () => ((recorder.recording = true), new Promise((ok) => (finish = () => ok({ frames: 10 })))) };
    sandbox.setRecorder(recorder as unknown as VideoRecorder);
    const video = api.record({ seconds: 1 });
    for (const call of [() => api.record({ seconds: 1 }), () => api.use("rest"), () => api.loadTree({ preset: "demo" }), () => api.removeView(0)]) {
      expect(await settle(call())).toMatch(/^BusyError: \w+\(\) refused: a video is being recorded; wait for the record\(\) under way to resolve .*, then /);
    }
    recorder.recording = false;
    finish();
    expect(await video).toEqual({ frames: 10 });
    expect(api.views().map((v) => v.id)).toEqual(["procedural-wind"]);
    expect(api.tree().isModel).toBe(true);

    // A mass-spring recording: a second "record" is refused, naming the recording and how to cancel it.
    await api.loadTree({ preset: "demo" });
    await api.use("mass-spring");
    api.action("record");
    expect(() => api.action("record")).toThrow(/^action\("record"\) refused: a recording is under way \(.*\d+%\); wait for it to finish, or cancel it with action\("cancel-recording"\); the commands now are: cancel-recording$/);
    api.action("cancel-recording");
    expect(api.actions().map((a) => a.id)).toContain("record");
  }, 120_000);

  it("announces typed changes, one kind per change", async () => {
    await open();
    const seen: string[] = [];
    api.events.changes.add((what) => seen.push(what));
    api.wind({ speed: 3 });
    await api.use("procedural-wind");
    api.params("procedural-wind", { damping: 0.5 });
    api.display({ shadows: false });
    await api.loadTree({ preset: "demo", taper: 0.4 });
    expect(seen).toEqual(["wind", "views", "params", "display", "views", "tree"]);
  });

  it("the view-timing and pointer-camera behaviours remove on detach() every observer attach() added", async () => {
    await open();
    const scene = sandbox.scene, base = observers(scene);
    const timing = new ViewTimingBehavior(sandbox.stages, () => [], () => undefined);
    const pointer = new PointerCameraBehavior(sandbox.stages);
    timing.attach(scene);
    pointer.attach(scene);
    expect(observers(scene)).toBe(base + 5);
    timing.detach();
    pointer.detach();
    expect(observers(scene)).toBe(base);
  });

  it("dispose() removes every observer the host and its parts added and leaves the engine without a scene", async () => {
    const bare = observers(engine);
    await open();
    await api.use(["spectral-beam", "procedural-wind"]);
    api.windTimeline({ loop: false, keys: [{ t: 0, speed: 3, direction: 0, gust: 0 }, { t: 2, speed: 9, direction: 0, gust: 0 }] });
    api.step(3);
    // The parts' own observers come off the scene before it goes: only what Babylon itself keeps remains.
    const scene = sandbox.scene;
    const before = observers(scene);
    sandbox.dispose();
    expect(scene.isDisposed).toBe(true);
    expect(engine.scenes).toEqual([]);
    expect([observers(engine), observerMap(engine)]).toEqual([bare, expect.anything()]);
    expect(before).toBeGreaterThan(0);
    expect(api.events.changes.observers.length + api.events.errors.observers.length).toBe(0);
  });
  it("a forest comes and goes whole: built, probed, rebuilt around a new tree, removed with nothing left behind", async () => {
    await open("#tree=demo&method=procedural-wind");
    sandbox.step(1);
    const start = census(sandbox.scene);
    const info = api.forest({ trees: 120, area: 60, variants: ["current", "conifer"], seed: 9 })!;
    expect([info.trees, info.variants, info.levels.reduce((a, b) => a + b, 0)]).toEqual([120, ["current", "conifer"], 120]);
    sandbox.step(3);
    const tops = api.forestProbe();
    expect(tops).toHaveLength(360);
    expect(tops.every(Number.isFinite)).toBe(true);
    expect(census(sandbox.scene).meshes).toBeGreaterThan(start.meshes);
    // A bad spec changes nothing.
    expect(() => api.forest({ trees: -1 })).toThrow(/forest.trees must be a whole number/);
    expect(api.forest()!.trees).toBe(120);
    // A new tree: the same forest around it.
    await api.loadTree({ preset: "sympodial" });
    expect(api.forest()!.trees).toBe(120);
    expect(api.forestProbe()).toHaveLength(360);
    api.forest(null);
    expect(api.forest()).toBeNull();
    expect(api.forestProbe()).toEqual([]);
    await api.loadTree({ preset: "demo" });
    sandbox.step(1);
    expect([census(sandbox.scene), observerMap(sandbox.scene)]).toEqual([start, expect.anything()]);
  });
});
