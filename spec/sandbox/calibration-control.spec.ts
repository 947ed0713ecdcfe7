/**
 * `sandbox.calibration()` under NullEngine: every method run off screen on the tree on show beside
 * the reference, with a progress report; the off-screen sandbox leaves nothing behind; bad options
 * are refused with a RangeError; the result is kept until the material changes.
 */
import { EngineStore } from "@babylonjs/core/Engines/engineStore";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { createRegistry } from "../../app/animators/registry";
import { Sandbox } from "../../app/sandbox/sandbox";

describe("sandbox.calibration()", () => {
  let engine: NullEngine;
  let sandbox: Sandbox;
  beforeEach(async () => {
    engine = new NullEngine();
    sandbox = new Sandbox(engine, null, createRegistry());
    await sandbox.start("#tree=demo", "", { renderLoop: false });
  });
  afterEach(() => {
    sandbox.dispose();
    engine.dispose();
  });

  it("refuses unknown methods, options and speeds with a RangeError naming what is allowed", async () => {
    const api = sandbox.api();
    await expect(api.calibration({ methods: ["nope"] })).rejects.toThrow(/no method "nope".*modal/);
    await expect(api.calibration({ speeds: [100] })).rejects.toThrow(RangeError);
    await expect(api.calibration({ fast: true } as never)).rejects.toThrow(/no option "fast"/);
  });

  it("modal and mass-spring beside the reference: figures per level and speed, progress, nothing left behind, kept until the material changes", async () => {
    const api = sandbox.api();
    const before = { meshes: sandbox.scene.meshes.length, engines: EngineStore.Instances.length, scenes: engine.scenes.length };
    const seen: string[] = [];
    const o = sandbox.events.changes.add((w) => {
      const p = api.calibrationProgress();
      if (w === "progress" && p) seen.push(p.text);
    });
    const r = await api.calibration({ methods: ["modal", "mass-spring"], speeds: [5, 10] });
    o?.remove();
    expect(r.methods.map((m) => m.id)).toEqual(["modal", "mass-spring"]);
    expect(r.speeds).toEqual([5, 10]);
    expect(r.reference.firstHz).toBeGreaterThan(0);
    const levels = r.reference.static[0].levels.length;
    expect(levels).toBeGreaterThan(1);
    for (const m of r.methods) {
      expect(m.static.map((s) => s.speed)).toEqual([5, 10]);
      for (const s of m.static) {
        expect(s.levels.length).toBe(levels);
        expect(s.ratio.every((x) => Number.isFinite(x) && x > 0)).toBe(true);
      }
      // Stronger wind, larger deflection.
      expect(m.static[1].all).toBeGreaterThan(m.static[0].all);
      expect(m.hz).toBeGreaterThan(0);
      expect(m.spectrum.length).toBeGreaterThan(10);
    }
    // The modal method is the reference's modes in motion: its figures land on the reference's.
    const modal = r.methods[0];
    for (const s of modal.static) for (const q of s.ratio) expect(Math.abs(q - 1)).toBeLessThan(0.25);
    expect(Math.abs(modal.hz / r.reference.firstHz - 1)).toBeLessThan(0.1);
    expect(seen.some((t) => t.startsWith("reference"))).toBe(true);
    expect(seen.some((t) => t.includes("steady wind at 10 m/s"))).toBe(true);
    expect(api.calibrationProgress()).toBeNull();
    expect({ meshes: sandbox.scene.meshes.length, engines: EngineStore.Instances.length, scenes: engine.scenes.length }).toEqual(before);
    expect(api.latestCalibration()?.methods.length).toBe(2);
    api.physics({ species: "pine" });
    expect(api.latestCalibration()).toBeNull();
  }, 300_000);
});
