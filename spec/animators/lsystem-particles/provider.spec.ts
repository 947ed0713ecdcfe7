/**
 * The lsystem-particles adapter under NullEngine: its meshes take the tree's place and follow the
 * particles, every declared parameter changes what it should while the tree moves, the render
 * modes reach its meshes, and dispose() leaves the scene as it found it.
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
import { WindField } from "../../../app/wind/wind-field";
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
import { FixedClock } from "../../../app/sandbox/clock";
import { lsystemParticlesProvider, type LsystemParticlesAnimator } from "../../../app/animators/lsystem-particles/provider";
import { lsystemParticlesParams, type LsystemParticlesParams } from "../../../app/animators/lsystem-particles/params";

describe("lsystem-particles adapter", () => {
  let engine: NullEngine;
  let scene: Scene;
  let view: TreeView;
  let shadows: ShadowGenerator;
  let animator: LsystemParticlesAnimator;
  let wind: WindField;
  const clock = new FixedClock(1 / 60);

  beforeEach(() => {
    engine = new NullEngine();
    scene = new Scene(engine);
    const root = new TransformNode("root", scene);
    shadows = new ShadowGenerator(256, new DirectionalLight("sun", new Vector3(-1, -2, 1), scene));
    const skeleton = grammarToSkeleton(readFileSync("assets/trees/barron.lsys", "utf8"), { seed: 1, depth: 5 });
    view = new TreeView(skeleton, buildTreeGeometry(skeleton), scene, root, shadows);
    wind = new WindField({ speed: 12, direction: 0, turbulence: 0.3, gust: 0, seed: 1 });
  });
  afterEach(() => {
    scene.dispose();
    engine.dispose();
  });

  const create = (patch: Partial<LsystemParticlesParams> = {}) =>
    (animator = lsystemParticlesProvider.create(
      { scene, tree: view, wind, rng: new Rng(1), root: view.bark.parent as TransformNode, clock },
      { ...defaultsOf(lsystemParticlesParams), ...patch },
    ) as LsystemParticlesAnimator);

  const shownBark = () => view.displayed("bark")!;
  /** The bark as the next drawn frame shows it (skins are written just before a frame is drawn). */
  const barkPositions = () => {
    scene.onBeforeRenderObservable.notifyObservers(scene);
    return Float32Array.from(shownBark().getVerticesData(VertexBuffer.PositionKind)!);
  };

  it("shows its own skins, leaves and skeleton in place of the tree's meshes, and puts them back", () => {
    const before = { meshes: scene.meshes.length, materials: scene.materials.length, casters: shadows.getShadowMap()!.renderList!.length };
    create();
    for (const role of ["bark", "leaves", "skeleton"] as const) {
      const shown = view.displayed(role)!;
      expect(shown.name).toBe(`lsystem-particles ${role}`);
      expect(shown.material).toBe(view.parts.find((p) => p.role === role)!.material);
    }
    expect(view.bark.isVisible).toBe(false);
    expect(shownBark().isVisible).toBe(true);
    expect(shadows.getShadowMap()!.renderList).toContain(shownBark());
    expect(shadows.getShadowMap()!.renderList).not.toContain(view.bark);
    view.setRenderMode("skeleton");
    expect(view.displayed("skeleton")!.isVisible).toBe(true);
    expect(shownBark().isVisible).toBe(false);
    view.setRenderMode("shaded");
    animator.dispose();
    expect(view.displayed("bark")).toBe(view.bark);
    expect(view.bark.isVisible).toBe(true);
    expect({ meshes: scene.meshes.length, materials: scene.materials.length, casters: shadows.getShadowMap()!.renderList!.length }).toEqual(before);
  });

  it("moves the skins with the particles in the wind, and the probe with them", () => {
    create();
    const rest = barkPositions();
    const tips0 = Float32Array.from(animator.probe());
    // Before any update the probe reads the rest pose.
    const sk = view.skeleton;
    for (let b = 0; b < sk.branchCount; b++) {
      const k = sk.branchFirstNode[b] + sk.branchNodeCount[b] - 1;
      for (let c = 0; c < 3; c++) expect(tips0[3 * b + c]).toBeCloseTo(sk.nodePosition[3 * k + c], 5);
    }
    for (let i = 0; i < 60; i++) animator.update(1 / 60);

    const moved = barkPositions();
    let most = 0;
    for (let i = 0; i < rest.length; i++) most = Math.max(most, Math.abs(moved[i] - rest[i]));
    // The physical tree (oak, beam-theory springs) bends by about 2 cm at 12 m/s; paper-literal's soft springs by decimetres.
    expect(most).toBeGreaterThan(0.005);
    const tips = animator.probe();
    let along = 0;
    for (let i = 0; i < tips.length; i += 3) along += tips[i] - tips0[i];
    expect(along).toBeGreaterThan(0); // downwind (+x)
    expect(animator.stats().nonFinite).toBe(false);
  });

  it("says the calibrated tree's sway frequency, and paper-literal says none", () => {
    create();
    const note = (animator.stats().notes ?? []).find((n) => /sways at/.test(n));
    expect(note).toMatch(/sways at \d+\.\d\d Hz/);
    expect(Number(/(\d+\.\d+) Hz/.exec(note!)![1])).toBeCloseTo(animator.simulation.dynamics.swayHz, 2);
    animator.setParams({ paperLiteral: true });
    expect((animator.stats().notes ?? []).some((n) => /sways at/.test(n))).toBe(false);
    animator.dispose();
  });

  it("every declared parameter changes the motion or the meshes while the tree moves", () => {
    const keys = Object.keys(lsystemParticlesParams) as (keyof LsystemParticlesParams)[];
    const run = (patch: Partial<LsystemParticlesParams>) => {
      create();
      for (let i = 0; i < 20; i++) animator.update(1 / 60);
      animator.setParams(patch);
      for (let i = 0; i < 40; i++) animator.update(1 / 60);

      const out = { tips: Float32Array.from(animator.probe()), vertices: shownBark().getTotalVertices(), bark: barkPositions() };
      animator.dispose();
      return out;
    };
    const baseRun = run({});
    const changes: LsystemParticlesParams = {
      damping: 0.9, stiffness: 3, gravity: 0, timeStep: 50, curveResolution: 5, sides: 12, minRadius: 10, spatial: 0.5, paperLiteral: true,
    };
    expect(Object.keys(changes).sort()).toEqual([...keys].sort());
    // §4.1's radius scaling is the paper's: it acts with paper-literal on (calibrated keeps the tree's own radii).
    const literal = run({ paperLiteral: true });
    for (const key of keys) {
      const d = lsystemParticlesParams[key];
      if (d.kind === "number") {
        expect(changes[key]).toBeGreaterThanOrEqual(d.min);
        expect(changes[key]).toBeLessThanOrEqual(d.max);
      }
      expect(changes[key]).not.toBe(d.default);
      const base = key === "minRadius" ? literal : baseRun;
      const r = run(key === "minRadius" ? { paperLiteral: true, minRadius: 10 } : { [key]: changes[key] });
      let diff = 0;
      for (let i = 0; i < r.tips.length; i++) diff = Math.max(diff, Math.abs(r.tips[i] - base.tips[i]));
      const meshChanged = r.vertices !== base.vertices || r.bark.some((v, i) => Math.abs(v - base.bark[i]) > 1e-4);
      // Calibrated, the springs carry the weight at rest and gravity acts on the change of lever
      // alone: on this small, stiff tree, a tenth of a millimetre at the tips.
      const least = key === "gravity" ? 2e-5 : 1e-4;
      expect({ key, moved: diff > least || meshChanged }).toEqual({ key, moved: true });
      expect(r.tips.every(Number.isFinite)).toBe(true);
    }
    // Mesh-shaping parameters change the topology.
    expect(run({ sides: 12 }).vertices).toBeGreaterThan(baseRun.vertices);
    expect(run({ curveResolution: 5 }).vertices).toBeGreaterThan(baseRun.vertices);
  });
});
