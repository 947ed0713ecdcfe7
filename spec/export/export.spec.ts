/**
 * The motion export through the host under NullEngine: every method's deformed skeleton (what the
 * bones follow) puts the branch tips where the method's own probe() does; exportMotion() writes a
 * GLB that Babylon's glTF loader reads back with one bone per node, a clip of seconds × fps + 1
 * keys, and tips, at three times, where probe() had them; bad options and busy work are refused.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { createRegistry } from "../../app/animators/registry";
import { nodeReader } from "../../app/export/nodes";
import { readGlb } from "../../app/export/gltf";
import { LoadedMotion } from "../../app/export/playback";
import { glbMotion, SANDBOX_SOURCE } from "../../app/export/motion-file";
import type { SandboxPanelApi } from "../../app/sandbox/api";
import { Sandbox } from "../../app/sandbox/sandbox";
import { tipNode } from "../../app/tree/skeleton";

describe("exporting the motion", () => {
  let engine: NullEngine;
  let sandbox: Sandbox;
  let api: SandboxPanelApi;

  beforeEach(async () => {
    engine = new NullEngine();
    sandbox = new Sandbox(engine, null, createRegistry());
    api = sandbox.api();
    await sandbox.start("#tree=demo", "", { renderLoop: false });
  });
  afterEach(() => {
    sandbox.dispose();
    engine.dispose();
  });

  it("every method's deformed skeleton has its tips where probe() has them", async () => {
    api.wind({ speed: 14, turbulence: 0.5 });
    const height = api.tree().summary.height;
    for (const { id } of api.animators()) {
      await api.use(id);
      api.step(45);
      const v = sandbox.views.list[0];
      const s = v.tree.skeleton, nodes = new Float64Array(3 * s.nodeCount);
      nodeReader(id, v.animator, v.tree)(nodes);
      const probe = api.probe();
      let worst = 0, moved = 0;
      for (let b = 0; b < s.branchCount; b++) {
        const k = tipNode(s, b);
        worst = Math.max(worst, Math.hypot(nodes[3 * k] - probe[3 * b], nodes[3 * k + 1] - probe[3 * b + 1], nodes[3 * k + 2] - probe[3 * b + 2]));
        moved = Math.max(moved, Math.hypot(nodes[3 * k] - s.nodePosition[3 * k], nodes[3 * k + 2] - s.nodePosition[3 * k + 2]));
      }
      expect([id, worst / height]).toEqual([id, expect.any(Number)]);
      expect([id, worst / height < 0.01]).toEqual([id, true]);
      if (id !== "rest") expect([id, moved > 0.002 * height]).toEqual([id, true]);
    }
  }, 60_000);

  it("writes a GLB the glTF loader reads back: one bone per node, the clip's length and keys, the tips where probe() had them", async () => {
    await api.use("procedural-wind");
    api.wind({ speed: 16, turbulence: 0.4 });
    api.step(30);
    const fps = 15, seconds = 2;
    // What the method does from here, frame by frame on the grid the export steps; use() restarts
    // it at t = 0 from rest, and it is deterministic, so the export then sees the same motion.
    const start = sandbox.clock.frame;
    const probes: number[][] = [api.probe()];
    for (let i = 1; i <= seconds * fps; i++) {
      api.step(60 / fps);
      probes.push(api.probe());
    }
    await api.use("procedural-wind");
    api.step(30);
    expect(sandbox.clock.frame).toBe(start);
    // The motion is not trivial: the tips move by more than the tolerance over the clip.
    expect(Math.max(...probes[0].map((x, j) => Math.abs(x - probes[seconds * fps][j])))).toBeGreaterThan(0.01 * api.tree().summary.height);
    // (The glTF loader's PBR materials make the scene's environment BRDF lookup once; the scene keeps it as a cache.)
    const textures = () => sandbox.scene.textures.filter((t) => !t.name.includes("EnvironmentBRDFTexture")).length;
    const counts = () => ({ meshes: sandbox.scene.meshes.length, materials: sandbox.scene.materials.length, textures: textures(), scenes: engine.scenes.length, skeletons: sandbox.scene.skeletons.length });
    const before = counts();
    const r = await api.exportMotion({ seconds, fps, format: "glb" });
    // The export's own scene (bones, skinned copies, materials) is gone; the sandbox's is as it was.
    expect(counts()).toEqual(before);
    expect(r.frames).toBe(seconds * fps + 1);
    expect(r.bones).toBe(sandbox.views.list[0].tree.skeleton.nodeCount);
    expect(r.mime).toBe("model/gltf-binary");
    expect(sandbox.clock.frame).toBe(start + seconds * 60);
    expect(api.paused()).toBe(false);
    const bytes = new Uint8Array(await r.file.arrayBuffer());
    expect(bytes.length).toBe(r.bytes);
    const { json } = readGlb(bytes);
    expect(json.animations?.[0]?.channels.length).toBe(2 * r.bones);

    const motion = await LoadedMotion.load(sandbox.scene, r.file);
    try {
      expect(motion.bones).toBe(r.bones);
      expect(motion.clip).toBe("wind");
      expect(motion.seconds).toBeCloseTo(seconds, 6);
      const s = sandbox.views.list[0].tree.skeleton;
      const height = api.tree().summary.height;
      const tips = Array.from({ length: s.branchCount }, (_, b) => tipNode(s, b));
      for (const i of [0, 13, seconds * fps]) {
        const p = motion.bonePositions(i / fps, tips), q = probes[i];
        let worst = 0;
        for (let b = 0; b < tips.length; b++) worst = Math.max(worst, Math.hypot(p[3 * b] - q[3 * b], p[3 * b + 1] - q[3 * b + 1], p[3 * b + 2] - q[3 * b + 2]));
        expect([i, worst / height < 0.01]).toEqual([i, true]);
      }
    } finally {
      motion.dispose();
    }
    // Read back and dropped: nothing of the file is left in the sandbox's scene.
    expect(counts()).toEqual(before);
  }, 60_000);

  it("a looping clip read back ends where it starts, and moves between", async () => {
    await api.use("mass-spring");
    api.wind({ speed: 12, turbulence: 0.6 });
    api.step(20);
    const r = await api.exportMotion({ seconds: 2, fps: 10, loop: true });
    expect(r.loop).toBe(true);
    const motion = await LoadedMotion.load(sandbox.scene, r.file);
    try {
      const s = sandbox.views.list[0].tree.skeleton;
      const tips = Array.from({ length: s.branchCount }, (_, b) => tipNode(s, b));
      const [a, mid, end] = [0, 1, 2].map((t) => motion.bonePositions(t, tips));
      const gap = (p: number[], q: number[]) => Math.max(...p.map((v, i) => Math.abs(v - q[i])));
      expect(gap(a, end)).toBeLessThan(1e-4);
      expect(gap(a, mid)).toBeGreaterThan(1e-3);
    } finally {
      motion.dispose();
    }
  }, 60_000);

  it("plays an exported file back beside the tree on the sandbox's clock; a file that is no motion leaves it playing; null takes it off", async () => {
    await api.use("spectral-beam");
    api.wind({ speed: 16, turbulence: 0.5 });
    api.step(20);
    const r = await api.exportMotion({ seconds: 2, fps: 10 });
    const bytes = new Uint8Array(await r.file.arrayBuffer());
    expect(glbMotion(bytes)).toEqual({ clip: "wind", source: SANDBOX_SOURCE, method: "spectral-beam" });
    const textures = () => sandbox.scene.textures.filter((t) => !t.name.includes("EnvironmentBRDFTexture")).length;
    const counts = () => ({ meshes: sandbox.scene.meshes.length, materials: sandbox.scene.materials.length, textures: textures(), skeletons: sandbox.scene.skeletons.length, observers: sandbox.scene.onBeforeRenderObservable.observers.length });
    await api.use("rest");
    api.pause();
    sandbox.scene.render();
    const before = counts();
    const playing = await api.playMotion({ file: r.file, name: r.fileName });
    expect(playing).toMatchObject({ name: r.fileName, bones: r.bones, clip: "wind" });
    expect(playing!.seconds).toBeCloseTo(2, 6);
    expect(api.motionPlaying()).toEqual(playing);
    // Beside the tree: its root stands clear of the tree's reach (both trees are the same).
    const summary = api.tree().summary, reach = Math.hypot(playing!.offset[0], playing!.offset[2]);
    expect(reach).toBeGreaterThan(0.2 * summary.height);
    // The pose follows the sandbox's clock (the clip repeating), not the wall clock.
    const s = sandbox.views.list[0].tree.skeleton;
    const tips = Array.from({ length: s.branchCount }, (_, b) => tipNode(s, b));
    const player = sandbox.motionExport.player;
    const shown = () => {
      sandbox.scene.render();
      return player.bonePositions(api.time() % 2, tips);
    };
    const gap = (p: number[], q: number[]) => Math.max(...p.map((v, i) => Math.abs(v - q[i])));
    const a = shown();
    expect(gap(a, shown())).toBe(0);
    api.step(30);
    expect(gap(a, shown())).toBeGreaterThan(1e-3);
    // Not a motion file: refused with a message that says what one is; the one playing stays.
    const tree = new Blob([new Uint8Array([1, 2, 3, 4])]);
    await expect(api.playMotion({ file: tree, name: "broken.glb" })).rejects.toThrow(/^broken\.glb: not a motion glTF/);
    expect(api.motionPlaying()?.name).toBe(r.fileName);
    await expect(api.playMotion({})).rejects.toThrow(RangeError);
    expect(await api.playMotion(null)).toBeNull();
    expect(api.motionPlaying()).toBeNull();
    // (Babylon removes an observer on the next tick, and a container's last cleanup in the next frame.)
    sandbox.scene.render();
    await new Promise((r) => setTimeout(r, 0));
    expect(counts()).toEqual(before);
  }, 60_000);

  it("refuses bad options and a clip over the size budget, and long work while it runs", async () => {
    await expect(api.exportMotion({ seconds: 0.1 })).rejects.toThrow(/seconds must be a number from 0.5 to 600/);
    await expect(api.exportMotion({ seconds: 2, fps: 0 })).rejects.toThrow(RangeError);
    await api.loadTree({ preset: "habel" });
    await expect(api.exportMotion({ seconds: 600, fps: 60 })).rejects.toThrow(/would be \d+ MB, over the 200 MB budget: shorten the clip or lower the fps/);
    await api.loadTree({ preset: "demo" });
    const running = api.exportMotion({ seconds: 1, fps: 10 });
    await expect(api.use("rest")).rejects.toThrow(/use\(\) refused: the motion is being exported/);
    await expect(api.exportMotion({ seconds: 1 })).rejects.toMatchObject({ name: "BusyError" });
    await expect(api.loadTree({ preset: "habel" })).rejects.toMatchObject({ name: "BusyError" });
    await running;
    expect(api.exportProgress()).toBeNull();
    await api.use("rest");
    expect(api.stats().errors.some((e) => /budget/.test(e))).toBe(true);
  }, 60_000);
});
