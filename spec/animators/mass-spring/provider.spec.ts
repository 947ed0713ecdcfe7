/**
 * The mass-spring adapter under NullEngine: its skinned copies of bark, leaves and skeleton take
 * the tree's place and follow the masses in the wind, every declared parameter changes the
 * motion, and dispose() leaves the scene as it found it.
 */
import { readFileSync } from "node:fs";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { TreeView } from "../../../app/sandbox/tree-view";
import { buildTreeGeometry } from "../../../app/tree/geometry";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { tipNode } from "../../../app/tree/skeleton";
import { WindField } from "../../../app/wind/wind-field";
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
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
      expect({ role, moved: most > 0.05, downwind: downwind > 0 }).toEqual({ role, moved: true, downwind: true });
    }
    view.setRenderMode("skeleton");
    const skel = shown("skeleton");
    view.setRenderMode("shaded");
    expect(skel.some((v, i) => Math.abs(v - view.skeletonLines.getVerticesData(VertexBuffer.PositionKind)![i]) > 0.05)).toBe(true);
    const tips = animator.probe();
    let along = 0;
    for (let i = 0; i < tips.length; i += 3) along += tips[i] - tips0[i];
    expect(along).toBeGreaterThan(0); // downwind (+x)
    const st = animator.stats();
    expect(st.nonFinite).toBe(false);
    expect(st.notes!.join(" ")).toMatch(/CG iterations/);
  });

  it("every declared parameter changes the motion while the tree moves", () => {
    const keys = Object.keys(massSpringParams) as (keyof MassSpringParams)[];
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
    const base = run({});
    const changes: Record<keyof MassSpringParams, number> = { damping: 0.9, stiffness: 3, sway: 0.6, gravity: 1 };
    expect(Object.keys(changes).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      const d = massSpringParams[key];
      expect(changes[key]).toBeGreaterThanOrEqual(d.min);
      expect(changes[key]).toBeLessThanOrEqual(d.max);
      expect(changes[key]).not.toBe(d.default);
      const r = run({ [key]: changes[key] });
      let diff = 0;
      for (let i = 0; i < r.length; i++) diff = Math.max(diff, Math.abs(r[i] - base[i]));
      expect({ key, moved: diff > 1e-4 }).toEqual({ key, moved: true });
      expect(r.every(Number.isFinite)).toBe(true);
    }
  });
});
