// The spectral-beam per-branch pass's TypeScript twin (pass.ts's ChainComposer, the GLSL of
// pass.glsl.ts line by line) against the CPU composition it replaces (compose.ts), and the ease
// after a change as numbers the pass is given (offsets and a start), not frames before.
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../../app/lsystem/presets";
import { buildTreeGeometry } from "../../../app/tree/geometry";
import type { TreeSkeleton } from "../../../app/tree/skeleton";
import { WindField } from "../../../app/wind/wind-field";
import { Vortex } from "../../../app/wind/primitives";
import { spectralBeamParams, type SpectralBeamParams } from "../../../app/animators/spectral-beam/params";
import { SpectralBeamTwin } from "../../../app/animators/spectral-beam/twin";
import { branchTexel } from "../../../app/animators/spectral-beam/layout";
import { ChainComposer, TABLE_WIDTH, writeTableLoads, writeTableStatic } from "../../../app/animators/spectral-beam/pass";
import { compositionParents } from "../../../app/animators/spectral-beam/gpu-pass";
import { spectralBeamProvider, type SpectralBeamAnimator } from "../../../app/animators/spectral-beam/provider";
import type { AnimatorContext, TreeInstance } from "../../../app/animators/animator";
import { fourLevelTree } from "../procedural-wind/fixtures";

const DT = 1 / 60;
const defaults = defaultsOf(spectralBeamParams);
const preset = (name: string): TreeSkeleton => grammarToSkeleton(TREE_PRESETS.find((p) => p.name === name)!.text, { seed: 1 });
const trees: [string, () => TreeSkeleton][] = [["four-level", fourLevelTree], ["demo", () => preset("demo")], ["habel", () => preset("habel")]];

function gusty(): WindField {
  const w = new WindField({ speed: 13, direction: 50, turbulence: 0.5, gust: 0.5, vertical: 0.8, seed: 6 }, { width: 256, height: 64 });
  w.primitives.push(new Vortex(1, -1, 3, 7, 0, Infinity));
  return w;
}

function twinOf(s: TreeSkeleton, patch: Partial<SpectralBeamParams> = {}): SpectralBeamTwin {
  return new SpectralBeamTwin(s, { ...defaults, textureSize: "64", ...patch }, new Rng(2));
}

/** Every branch's per-frame texels through the chain twin, into a copy of the twin's branch data. */
function chains(tw: SpectralBeamTwin, s: TreeSkeleton): Float32Array {
  const table = new Float32Array(4 * TABLE_WIDTH * tw.textureHeight);
  writeTableStatic(s, compositionParents(tw, s), table);
  const c = tw.branchComposer;
  writeTableLoads(tw.branchCount, tw.meanTip, tw.turbulentTip, c.easeOffset, table);
  const out = tw.branchData.slice();
  const chain = new ChainComposer(table);
  for (let b = 0; b < tw.branchCount; b++) chain.composeChain(tw, b, c.easeStart, out);
  return out;
}

/** Largest difference over texels 0 to 7 (frame, A, T_b, R_b: the parts the pass computes). */
function maxDiff(tw: SpectralBeamTwin, a: Float32Array, b: Float32Array): { diff: number; amp: number } {
  let diff = 0, amp = 0;
  for (let k = 0; k < tw.branchCount; k++) {
    for (let j = 0; j < 8; j++) {
      const o = branchTexel(k, j);
      for (let c = 0; c < 3; c++) diff = Math.max(diff, Math.abs(a[o + c] - b[o + c]));
    }
    amp = Math.max(amp, Math.abs(a[branchTexel(k, 3)]), Math.abs(a[branchTexel(k, 3) + 1]));
  }
  return { diff, amp };
}

describe("spectral-beam per-branch pass: the twin", () => {
  describe.each(trees)("%s tree", (_name, build) => {
    const s = build();
    test.each([false, true])("length correction %p: each branch's chain alone gives the frames, amplitudes, R_b and T_b of the whole composition", (lengthCorrection) => {
      const tw = twinOf(s, { lengthCorrection });
      const wind = gusty();
      let moved = 0;
      for (const t of [0.3, 1.7, 4.2]) {
        tw.update(t, wind);
        const { diff, amp } = maxDiff(tw, tw.branchData, chains(tw, s));
        expect(diff).toBeLessThan(2e-5);
        moved = Math.max(moved, amp);
      }
      expect(moved).toBeGreaterThan(1e-3);
    });
  });

  test("after a change, the ease is offsets and a start time: the chains reproduce every eased frame, and nothing jumps", () => {
    const s = preset("demo"), wind = gusty();
    const patch = { stiffness: 0.5, damping1: 0.3 };
    /** Largest change of branch 30's A_r between frames 60 and 140; `edit` at frame 60. */
    const run = (tw: SpectralBeamTwin, edit: boolean): number => {
      let prev = 0, jump = 0;
      for (let f = 1; f <= 140; f++) {
        if (edit && f === 60) tw.setParams({ ...tw.parameters, ...patch });
        tw.update(f * DT, wind);
        const a = tw.branchData[branchTexel(30, 3)];
        if (f >= 60) jump = Math.max(jump, Math.abs(a - prev));
        prev = a;
        if (edit && f >= 60 && f % 10 === 0) expect(maxDiff(tw, tw.branchData, chains(tw, s)).diff).toBeLessThan(2e-5);
      }
      return jump;
    };
    const edited = twinOf(s);
    const jump = run(edited, true);
    const natural = Math.max(run(twinOf(s), false), run(twinOf(s, patch), false));
    expect(edited.branchComposer.easeVersion).toBeGreaterThan(0);
    expect(jump).toBeLessThan(1.3 * natural);
  });

  test("stateless: frame 600 evaluated directly equals 600 steps", () => {
    // A horizontal wind: with an updraft or a primitive the mean wind's direction wanders, and the
    // loads (meanTip) follow it only once it has turned by 2e-3, from wherever they last were.
    const s = fourLevelTree(), wind = new WindField({ speed: 13, direction: 50, turbulence: 0.5, gust: 0.5, seed: 6 }, { width: 256, height: 64 });
    const a = twinOf(s), b = twinOf(s);
    for (let f = 1; f <= 600; f++) a.update(f * DT, wind);
    b.update(600 * DT, wind);
    expect(maxDiff(a, a.branchData, b.branchData).diff).toBe(0);
    expect(maxDiff(a, a.branchData, chains(b, s)).diff).toBeLessThan(2e-5);
  });
});

describe("spectral-beam provider without float render targets (NullEngine)", () => {
  test("composes on the CPU, says so, and one tip's probe is probe()'s", () => {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 3, -15), scene);
    const root = new TransformNode("root", scene);
    const skeleton = fourLevelTree();
    const geometry = buildTreeGeometry(skeleton);
    const mesh = (name: string, arrays: typeof geometry.bark): Mesh => {
      const m = new Mesh(name, scene);
      const vd = new VertexData();
      vd.positions = arrays.positions; vd.normals = arrays.normals; vd.indices = arrays.indices;
      vd.applyToMesh(m);
      m.setVerticesData("branchIndex", arrays.branchIndex, false, 1);
      m.setVerticesData("wVector", arrays.wVector, false, 4);
      m.parent = root;
      return m;
    };
    const bark = mesh("bark", geometry.bark);
    const barkMaterial = new StandardMaterial("bark", scene), leafMaterial = new StandardMaterial("leaf", scene);
    bark.material = barkMaterial;
    const tree: TreeInstance = {
      skeleton, geometry, bark, leaves: null, barkMaterial, leafMaterial,
      parts: [{ role: "bark", mesh: bark, material: barkMaterial }],
      substitute: () => { throw new Error("not used"); },
    };
    const clock = { time: 0, dt: DT };
    const ctx: AnimatorContext = { scene, tree, wind: gusty(), rng: new Rng(4), root, clock };
    const a = spectralBeamProvider.create(ctx, { ...defaults, textureSize: "64" }) as SpectralBeamAnimator;
    expect(a.gpu).toBeNull();
    const tip = new Float64Array(3);
    for (let f = 0; f < 30; f++) {
      clock.time += DT;
      a.update(DT);
      a.probeTip(7, tip);
    }
    expect(a.branchTexture).toBe(a.dataTexture);
    expect(a.stats().notes?.join(" ")).toMatch(/per-branch composition on the CPU: no float render targets/);
    expect(a.stats().nonFinite).toBe(false);
    const tips = a.probe();
    for (let b = 0; b < skeleton.branchCount; b++) {
      expect(a.probeTip(b, tip)).toBe(true);
      for (let k = 0; k < 3; k++) expect(tip[k]).toBeCloseTo(tips[3 * b + k], 5);
    }
    expect(a.probeTip(skeleton.branchCount, tip)).toBe(false);
    a.dispose();
    scene.dispose();
    engine.dispose();
  });
});
