/**
 * Wind primitives in the host, under NullEngine: the API (ids, the clock's time as start, RangeErrors
 * shown in stats().errors), every method feeling a fan in calm air (the vertex-shader methods too),
 * the same frames from the same start, the markers in the scene, and the page address round trip.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { createRegistry } from "../../app/animators/registry";
import type { SandboxPanelApi } from "../../app/sandbox/api";
import { Sandbox } from "../../app/sandbox/sandbox";

/** The methods that move a tree in the shared wind (rest does not; each its own way of reading the wind). */
const METHODS = ["spectral-beam", "procedural-wind", "lsystem-particles", "mass-spring", "modal"];

function maxDisplacement(a: number[], b: number[]): number {
  let m = 0;
  for (let i = 0; i + 2 < a.length; i += 3) m = Math.max(m, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]));
  return m;
}

describe("wind primitives in the sandbox", () => {
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

  it("windPrimitive() returns an id, starts at the clock's time, lists, removes; bad values throw a RangeError shown once", async () => {
    await open();
    api.step(30);
    const id = api.windPrimitive({ kind: "vortex", x: 4, z: -2, strength: 10, radius: 3 });
    expect(id).toBe(1);
    expect(api.windPrimitives()).toEqual([{ id: 1, kind: "vortex", x: 4, z: -2, strength: 10, radius: 3, duration: null, direction: 0, start: 0.5 }]);
    expect(() => api.windPrimitive({ kind: "blast", x: 0, z: 0, strength: 70, radius: 3 })).toThrow(new RangeError("windPrimitive.strength must be a number from 0.1 to 60 m/s; got 70"));
    expect(() => api.windPrimitive({ kind: "tornado" as never, x: 0, z: 0, strength: 7, radius: 3 })).toThrow(/windPrimitive\.kind must be one of "blast", "vortex", "fan"/);
    expect(() => api.removeWindPrimitive(9)).toThrow(new RangeError("removeWindPrimitive: no wind primitive with id 9; the ids are: 1"));
    expect(() => api.moveWindPrimitive(1, { x: 0, z: 101 })).toThrow(/moveWindPrimitive\.z must be a number from -100 to 100 m; got 101/);
    expect(api.stats().errors).toEqual([
      "windPrimitive.strength must be a number from 0.1 to 60 m/s; got 70",
      'windPrimitive.kind must be one of "blast", "vortex", "fan"; got "tornado"',
      "removeWindPrimitive: no wind primitive with id 9; the ids are: 1",
      "moveWindPrimitive.z must be a number from -100 to 100 m; got 101",
    ]);
    expect(api.moveWindPrimitive(1, { x: -1, z: 1 })).toMatchObject({ id: 1, x: -1, z: 1, start: 0.5 });
    api.removeWindPrimitive(1);
    expect(api.windPrimitives()).toEqual([]);
    expect(sandbox.windField.primitives).toHaveLength(0);
  });

  it.each(METHODS)("%s feels a fan blowing at the tree in calm air (and stays still without it)", async (method) => {
    await open("#tree=demo&speed=0&vertical=0&gust=0&turbulence=0");
    const run = async (fan: boolean): Promise<number> => {
      await api.use(method);
      if (fan) api.windPrimitive({ kind: "fan", x: -6, z: 0, strength: 25, radius: 3, start: 0 });
      const rest = api.probe();
      api.step(90);
      const d = maxDisplacement(rest, api.probe());
      for (const p of api.windPrimitives()) api.removeWindPrimitive(p.id);
      return d;
    };
    const still = await run(false), blown = await run(true);
    expect(blown).toBeGreaterThan(0.005);
    expect(blown).toBeGreaterThan(10 * still);
    expect(api.stats().nonFinite).toBe(false);
  });

  it("a blast placed at a start gives the same frames from every restart (the fixed clock alone times it)", async () => {
    await open("#tree=demo&speed=4");
    api.windPrimitive({ kind: "blast", x: 6, z: 3, strength: 30, radius: 10, start: 0.5 });
    const tips: number[][] = [];
    for (let k = 0; k < 2; k++) {
      await api.use("procedural-wind");
      api.step(20);
      api.step(40);
      tips.push(api.probe());
    }
    expect(tips[1]).toEqual(tips[0]);
    await api.use("procedural-wind");
    api.removeWindPrimitive(1);
    api.step(60);
    expect(maxDisplacement(api.probe(), tips[0])).toBeGreaterThan(0.001); // and the blast did move it
  });

  it("marks each on the ground (a blast's front grows with the clock), and the scene is as it was once they are removed", async () => {
    await open();
    const scene = sandbox.scene;
    const live = () => scene.onBeforeRenderObservable.observers.filter((o) => !(o as unknown as { _willBeUnregistered?: boolean })._willBeUnregistered).length;
    const before = { meshes: scene.meshes.length, materials: scene.materials.length, observers: live() };
    api.windPrimitive({ kind: "vortex", x: 4, z: 0, strength: 10, radius: 3 });
    api.windPrimitive({ kind: "blast", x: -4, z: 0, strength: 20, radius: 10 });
    api.windPrimitive({ kind: "fan", x: 0, z: 8, strength: 8, radius: 2 });
    expect(scene.meshes.length).toBe(before.meshes + 4); // a blast: its burst and its front
    const front = scene.meshes.find((m) => m.name === "wind-primitive 2 front")!;
    expect(front.isEnabled()).toBe(false);
    api.step(15); // 0.25 s: the front is 7.5 m out
    expect(front.isEnabled()).toBe(true);
    expect(front.scaling.x).toBeCloseTo(7.5, 6);
    expect(scene.meshes.filter((m) => m.name.startsWith("wind-primitive")).every((m) => !m.isPickable)).toBe(true);
    api.moveWindPrimitive(1, { x: 0, z: -5 });
    expect(scene.getMeshByName("wind-primitive 1 vortex")!.position.z).toBeCloseTo(-5, 9);
    for (const p of api.windPrimitives()) api.removeWindPrimitive(p.id);
    expect({ meshes: scene.meshes.length, materials: scene.materials.length, observers: live() }).toEqual(before);
  });

  it("round-trips through the page address, and dispose() with primitives placed leaves the engine empty", async () => {
    await open("#tree=demo");
    api.step(12);
    api.windPrimitive({ kind: "blast", x: 8, z: 0, strength: 20, radius: 8 });
    api.windPrimitive({ kind: "fan", x: -10, z: 2, strength: 12, radius: 2, duration: 30 });
    const placed = api.windPrimitives();
    const hash = sandbox.urlSync.hash();
    expect(hash).toContain("primitives=blast%2C8%2C0%2C20%2C8%2Cinf%2C0.2%3Bfan%2C-10%2C2%2C12%2C2%2C30%2C0.2%2C");
    sandbox.dispose();
    engine.dispose();
    engine = new NullEngine();
    await open(hash);
    expect(api.windPrimitives()).toEqual(placed);
    expect(api.stats().errors).toEqual([]);
    expect(sandbox.scene.meshes.filter((m) => m.name.startsWith("wind-primitive")).length).toBe(3);
    sandbox.dispose();
    expect(engine.scenes.length).toBe(0);
    sandbox = null as unknown as Sandbox;
  });
});
