/**
 * The mass-spring adapter under NullEngine: its skinned copies of bark, leaves and skeleton take
 * the tree's place and follow the masses in the wind, every declared parameter changes the
 * motion, and dispose() leaves the scene as it found it.
 */
import { readFileSync } from "node:fs";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { TreeView } from "../../../app/sandbox/tree-view";
import { buildTreeGeometry } from "../../../app/tree/geometry";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { tipNode } from "../../../app/tree/skeleton";
import { applyTaper } from "../../../app/tree/taper";
import { WindField } from "../../../app/wind/wind-field";
import { Rng } from "../../../app/math/rng";
import { defaultsOf, type NumberParam } from "../../../app/math/params";
import { FixedClock } from "../../../app/sandbox/clock";
import { massSpringProvider, type MassSpringAnimator } from "../../../app/animators/mass-spring/provider";
import { massSpringParams, type MassSpringParams } from "../../../app/animators/mass-spring/params";

describe("mass-spring adapter", () => {
  let engine: NullEngine;
  let scene: Scene;
  let view: TreeView;
  let shadows: ShadowGenerator;
  let animator: MassSpringAnimator;
  let wind: WindField;
  let clock: FixedClock;

  beforeEach(() => {
    engine = new NullEngine();
    scene = new Scene(engine);
    const root = new TransformNode("root", scene);
    shadows = new ShadowGenerator(256, new DirectionalLight("sun", new Vector3(-1, -2, 1), scene));
    const skeleton = grammarToSkeleton(readFileSync("assets/trees/demo.lsys", "utf8"), { seed: 1, depth: 4 });
    view = new TreeView(skeleton, buildTreeGeometry(skeleton), scene, root, shadows);
    wind = new WindField({ speed: 12, direction: 0, turbulence: 0.3, gust: 0, seed: 1 });
    clock = new FixedClock(1 / 60);
  });
  afterEach(() => {
    scene.dispose();
    engine.dispose();
  });

  const create = (patch: Partial<MassSpringParams> = {}) =>
    (animator = massSpringProvider.create(
      { scene, tree: view, wind, rng: new Rng(1), root: view.bark.parent as TransformNode, clock },
      { ...defaultsOf(massSpringParams), ...patch },
    ) as MassSpringAnimator);
  const step = (n: number) => {
    for (let i = 0; i < n; i++) {
      clock.tick();
      animator.update(1 / 60);
    }
  };
  /** A part as the next drawn frame shows it (skins are written just before a frame is drawn). */
  const shown = (role: "bark" | "leaves" | "skeleton") => {
    scene.onBeforeRenderObservable.notifyObservers(scene);
    return Float32Array.from(view.displayed(role)!.getVerticesData(VertexBuffer.PositionKind)!);
  };

  it("shows skinned copies of bark, leaves and skeleton in the tree's place, and puts them back", () => {
    expect(view.leaves).not.toBeNull();
    const before = { meshes: scene.meshes.length, materials: scene.materials.length, casters: shadows.getShadowMap()!.renderList!.length };
    create();
    for (const part of view.parts) {
      const m = view.displayed(part.role)!;
      expect(m.name).toBe(`mass-spring ${part.role}`);
      expect(m.material).toBe(part.material);
      expect(m.getTotalVertices()).toBe(part.mesh.getTotalVertices());
      // At rest the copy is the tree's own mesh, to the bit.
      expect(shownAt(part.role)).toEqual(Float32Array.from(part.mesh.getVerticesData(VertexBuffer.PositionKind)!));
    }
    expect(view.bark.isVisible).toBe(false);
    expect(shadows.getShadowMap()!.renderList).toContain(view.displayed("bark"));
    expect(shadows.getShadowMap()!.renderList).not.toContain(view.bark);
    view.setRenderMode("skeleton");
    expect(view.displayed("skeleton")!.isVisible).toBe(true);
    expect(view.displayed("bark")!.isVisible).toBe(false);
    view.setRenderMode("shaded");
    const counts = animator.stats().counts;
    expect(counts.masses).toBe(animator.system.count);
    expect(counts.springs).toBeGreaterThan(0);
    animator.dispose();
    expect(view.displayed("bark")).toBe(view.bark);
    expect(view.bark.isVisible).toBe(true);
    expect({ meshes: scene.meshes.length, materials: scene.materials.length, casters: shadows.getShadowMap()!.renderList!.length }).toEqual(before);

    function shownAt(role: "bark" | "leaves" | "skeleton") {
      view.setRenderMode(role === "skeleton" ? "skeleton" : "shaded");
      const p = shown(role);
      view.setRenderMode("shaded");
      return p;
    }
  });

  it("moves bark, leaves and skeleton with the masses downwind, and the probe with them", () => {
    create();
    const rest = { bark: shown("bark"), leaves: shown("leaves") };
    const tips0 = Float32Array.from(animator.probe());
    const sk = view.skeleton;
    for (let b = 0; b < sk.branchCount; b++) {
      for (let c = 0; c < 3; c++) expect(tips0[3 * b + c]).toBeCloseTo(sk.nodePosition[3 * tipNode(sk, b) + c], 5);
    }
    step(90);
    for (const role of ["bark", "leaves"] as const) {
      const moved = shown(role);
      let most = 0, downwind = 0;
      for (let i = 0; i < moved.length; i += 3) {
        most = Math.max(most, Math.abs(moved[i] - rest[role][i]), Math.abs(moved[i + 2] - rest[role][i + 2]));
        downwind += moved[i] - rest[role][i];
      }
      // The oak demo tree at 12 m/s: a few mm (the reference solver's static deflection at 10 m/s: 3 to 5 mm per level).
      expect({ role, moved: most > 1e-3, downwind: downwind > 0 }).toEqual({ role, moved: true, downwind: true });
    }
    view.setRenderMode("skeleton");
    const skel = shown("skeleton");
    view.setRenderMode("shaded");
    expect(skel.some((v, i) => Math.abs(v - view.skeletonLines.getVerticesData(VertexBuffer.PositionKind)![i]) > 1e-3)).toBe(true);
    const tips = animator.probe();
    let along = 0;
    for (let i = 0; i < tips.length; i += 3) along += tips[i] - tips0[i];
    expect(along).toBeGreaterThan(0); // downwind (+x)
    const st = animator.stats();
    expect(st.nonFinite).toBe(false);
    expect(st.notes!.join(" ")).toMatch(/CG iterations/);
  });

  it("every physical parameter changes the motion while the tree moves", () => {
    type Physical = "damping" | "stiffness" | "sway" | "gravity";
    const keys = (Object.keys(massSpringParams) as (keyof MassSpringParams)[]).filter((k) => massSpringParams[k].kind === "number" && !["recordSeconds", "transition", "trees"].includes(k)) as Physical[];
    const run = (patch: Partial<MassSpringParams>) => {
      clock = new FixedClock(1 / 60);
      create();
      step(20);
      animator.setParams(patch);
      step(40);
      const tips = Float32Array.from(animator.probe());
      animator.dispose();
      return tips;
    };
    create();
    const restTips = Float32Array.from(animator.probe());
    animator.dispose();
    const base = run({}), literal = run({ paperLiteral: true });
    const changes: Record<Physical, number> = { damping: 0.9, stiffness: 3, sway: 0.6, gravity: 1 };
    expect(Object.keys(changes).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      const d = massSpringParams[key] as NumberParam;
      expect(changes[key]).toBeGreaterThanOrEqual(d.min);
      expect(changes[key]).toBeLessThanOrEqual(d.max);
      expect(changes[key]).not.toBe(d.default);
      // The sway frequency sizes the paper-literal springs only.
      const r = key === "sway" ? run({ paperLiteral: true, sway: changes[key] }) : run({ [key]: changes[key] }), against = key === "sway" ? literal : base;
      let diff = 0;
      for (let i = 0; i < r.length; i++) diff = Math.max(diff, Math.abs(r[i] - against[i]));
      expect({ key, moved: diff > 1e-4 }).toEqual({ key, moved: true });
      expect(r.every(Number.isFinite)).toBe(true);
    }
    // Paper-literal: the paper's heavy masses and soft springs swing the tree far more than the oak's wood.
    let most = 0, mostLiteral = 0;
    for (let i = 0; i < base.length; i += 3) {
      most = Math.max(most, Math.hypot(base[i] - restTips[i], base[i + 2] - restTips[i + 2]));
      mostLiteral = Math.max(mostLiteral, Math.hypot(literal[i] - restTips[i], literal[i + 2] - restTips[i + 2]));
    }
    expect(mostLiteral).toBeGreaterThan(5 * most);
  });

  /** A mass-spring animator on a tree with no recordings yet (recordings outlive animators). */
  const fresh = (patch: Partial<MassSpringParams> = {}) => {
    create(patch);
    if (animator.actions.list().some((a) => a.id === "clear-recordings")) animator.actions.run("clear-recordings");
    return animator;
  };

  it("records (§4.3) from its 'record' command: the asked length at 30 samples/s, with a progress, kept across a method switch", () => {
    fresh({ recordSeconds: 2 });
    expect(animator.actions.list().map((a) => a.id)).toEqual(["record"]);
    expect(animator.actions.progress()).toBeNull();
    animator.actions.run("record");
    expect(animator.showing).toBe("recording");
    step(60);
    expect(animator.actions.progress()!.fraction).toBeCloseTo(30 / 61, 2);
    expect(animator.actions.progress()!.text).toMatch(/Recording 1\.0 \/ 2 s/);
    expect(() => animator.actions.run("record")).toThrow(/no command "record"/);
    step(61);
    expect(animator.actions.progress()).toBeNull();
    expect(animator.showing).toBe("live");
    const [rec] = animator.recordings;
    expect(rec.samples).toBe(61);
    expect(rec.interval).toBeCloseTo(1 / 30, 12);
    expect(rec.masses).toBe(animator.system.count);
    // The last sample is the state after the last step, and the force the wind applied then.
    const M = rec.masses, last = (rec.samples - 1) * M * 3;
    let diff = 0;
    for (let i = 0; i < 3 * M; i++) diff = Math.max(diff, Math.abs(rec.positions[last + i] - animator.system.position[i]), Math.abs(rec.forces[last + i] - animator.system.external[i]));
    expect(diff).toBeLessThan(1e-5);
    expect(animator.actions.list().find((a) => a.id === "recording-" + rec.id)?.active).toBe(true);
    animator.dispose();
    create();
    expect(animator.recordings.map((r) => r.id)).toEqual([rec.id]);
    animator.actions.run("clear-recordings");
    expect(animator.recordings).toHaveLength(0);
    expect(() => animator.actions.run("no-such")).toThrow(RangeError);
    animator.dispose();
  });

  it("graph mode records first, then walks the motion graph: every mass from the recording, the skins following", () => {
    fresh({ recordSeconds: 6 });
    animator.setParams({ mode: "graph" });
    expect(animator.showing).toBe("recording");
    step(6 * 60 + 1);
    expect(animator.showing).toBe("graph");
    expect(animator.stats().notes!.join(" ")).toMatch(/motion graph of #\d+, control point mass \d+: \d+ of 181 samples, \d+ transitions/);
    const before = shown("bark"), tips = Float32Array.from(animator.probe());
    step(30);
    const after = shown("bark");
    let moved = 0;
    for (let i = 0; i < after.length; i++) moved = Math.max(moved, Math.abs(after[i] - before[i]));
    expect(moved).toBeGreaterThan(1e-3);
    let tipMoved = 0;
    const now = animator.probe();
    for (let i = 0; i < now.length; i++) tipMoved = Math.max(tipMoved, Math.abs(now[i] - tips[i]));
    expect(tipMoved).toBeGreaterThan(1e-3);
    expect(animator.stats().nonFinite).toBe(false);
    // The overlays: Fig. 5's graph and Fig. 2's springs, on and off.
    animator.setParams({ graph: true, springs: true });
    expect(scene.getMeshByName("mass-spring motion graph")!.isVisible).toBe(true);
    expect(scene.getMeshByName("mass-spring springs")!.isVisible).toBe(true);
    animator.setParams({ graph: false, springs: false });
    expect(scene.getMeshByName("mass-spring motion graph")!.isVisible).toBe(false);
    expect(scene.getMeshByName("mass-spring springs")!.isVisible).toBe(false);
    // Transition length (§5.2.1's elongation) rebuilds the graph with it.
    animator.setParams({ transition: 5 });
    expect(animator.controlLeans()).toHaveLength(2);
    expect((animator as unknown as { playback: { graph: { elongation: number } } }).playback.graph.elongation).toBe(5);
    // Back to live: the simulation goes on from the pose.
    animator.setParams({ mode: "live" });
    step(30);
    expect(animator.showing).toBe("live");
    expect(animator.stats().nonFinite).toBe(false);
    animator.dispose();
  });

  it("grove mode: its trees (the first in full, the rest instanced), each its own walk, and the tree count", () => {
    fresh({ recordSeconds: 6, trees: 9 });
    animator.setParams({ mode: "grove" });
    step(6 * 60 + 1);
    expect(animator.showing).toBe("grove");
    const bark = scene.getMeshByName("mass-spring grove bark") as Mesh;
    expect(bark.thinInstanceCount).toBe(8);
    expect(animator.groveView!.pose.length).toBe(4 * 9 * animator.groveView!.geometry.masses.length);
    const leans = animator.controlLeans();
    expect(leans).toHaveLength(18);
    step(20);
    expect(animator.controlLeans()).not.toEqual(leans);
    expect(animator.groveView!.pose.every(Number.isFinite)).toBe(true);
    // A tree count being dragged: the grove is rebuilt once the count has rested a few frames.
    animator.setParams({ trees: 5 });
    animator.setParams({ trees: 4 });
    expect((scene.getMeshByName("mass-spring grove bark") as Mesh).thinInstanceCount).toBe(8);
    for (let i = 0; i < 8; i++) scene.onBeforeRenderObservable.notifyObservers(scene);
    expect((scene.getMeshByName("mass-spring grove bark") as Mesh).thinInstanceCount).toBe(3);
    animator.setParams({ mode: "live" });
    expect(animator.groveView).toBeNull();
    expect(scene.getMeshByName("mass-spring grove bark")).toBeNull();
    animator.dispose();
  });

  it("taper through the tree: a thinner-tipped tree (the shared taper rebuilds it) bends more in the same wind, and keeps its recordings", () => {
    const bend = (taper: number) => {
      view.dispose();
      const skeleton = applyTaper(grammarToSkeleton(readFileSync("assets/trees/demo.lsys", "utf8"), { seed: 1, depth: 4 }), taper);
      view = new TreeView(skeleton, buildTreeGeometry(skeleton), scene, new TransformNode("root", scene), shadows);
      clock = new FixedClock(1 / 60);
      create();
      const rest = Float32Array.from(animator.probe());
      step(120);
      let d = 0;
      const now = animator.probe();
      for (let i = 0; i < now.length; i += 3) d += Math.hypot(now[i] - rest[i], now[i + 2] - rest[i + 2]) / (now.length / 3);
      return d;
    };
    const thick = bend(0.2);
    if (animator.actions.list().some((a) => a.id === "clear-recordings")) animator.actions.run("clear-recordings");
    animator.setParams({ recordSeconds: 2 });
    animator.actions.run("record");
    step(121);
    expect(animator.recordings).toHaveLength(1);
    animator.dispose();
    const thin = bend(0.9);
    expect(thin).toBeGreaterThan(1.3 * thick);
    expect(animator.recordings).toHaveLength(1);
    animator.actions.run("clear-recordings");
    animator.dispose();
  });

  it("a recording that gives no motion graph (no wind: the tree stands still) leaves the live simulation on show and says why", () => {
    wind.set({ speed: 0, turbulence: 0, gust: 0 });
    fresh({ recordSeconds: 2, turningWind: false });
    animator.setParams({ mode: "graph" });
    step(121);
    expect(animator.recordings).toHaveLength(1);
    expect(animator.showing).toBe("live");
    expect(animator.stats().notes!.join(" ")).toMatch(/moves at most 0\.00 mm, too little for a motion graph; record in some wind\. Showing the live simulation/);
    animator.setParams({ mode: "grove" });
    expect(animator.showing).toBe("live");
    expect(animator.groveView).toBeNull();
    step(10);
    expect(animator.stats().nonFinite).toBe(false);
    animator.actions.run("clear-recordings");
    animator.dispose();
  });
});

