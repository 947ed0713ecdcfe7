// Model import in node: every sample model read by the app's own loader (@babylonjs/loaders under
// NullEngine), turned into a tree (wood and leaves told apart, stood upright, branches found,
// every vertex bound), and every method run on it in a strong wind without a non-finite value.
// Plus each kind of bad input, with the message a person gets.
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { importModel, MAX_MODEL_VERTICES, type ImportedTree } from "../../app/import/build";
import { readModel } from "../../app/import/load";
import type { ModelData, ModelPrimitive } from "../../app/import/model";
import { TreeView } from "../../app/sandbox/tree-view";
import { createRegistry } from "../../app/animators/registry";
import { defaultsOf } from "../../app/math/params";
import { WindField } from "../../app/wind/wind-field";
import { Rng } from "../../app/math/rng";
import { FixedClock } from "../../app/sandbox/clock";
import { filesBeside, readModelFile } from "../support/read-model";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { applyTaper, TAPER_RANGE } from "../../app/tree/taper";
import { buildTreeGeometry } from "../../app/tree/geometry";
import type { TreeSkeleton } from "../../app/tree/skeleton";

const M = "assets/models";
const SAMPLES: { file: string; wood: string; leaves: string | null; height: [number, number]; minBranches: number; frames?: number }[] = [
  { file: `${M}/megakit_commontree_1/CommonTree_1.gltf`, wood: "Bark_NormalTree", leaves: "Leaves_NormalTree", height: [6.5, 7.5], minBranches: 20 },
  { file: `${M}/megakit_pine_1/Pine_1.gltf`, wood: "Bark_NormalTree", leaves: "Leaves_Pine", height: [6.5, 7.6], minBranches: 15 },
  { file: `${M}/megakit_deadtree_1/DeadTree_1.gltf`, wood: "Bark_DeadTree", leaves: null, height: [9, 10], minBranches: 40 },
  { file: `${M}/megakit_twistedtree_1_obj/TwistedTree_1.obj`, wood: "Bark_TwistedTree", leaves: "Leaves_TwistedTree", height: [15.5, 17.5], minBranches: 35 },
  { file: `${M}/quaternius_tree_3_obj/Tree_3.obj`, wood: "Bark", leaves: "Tree_Leaves", height: [5, 6.5], minBranches: 10 },
  // 74,000 vertices: fewer steps keep the suite quick (the motion is there after a few).
  { file: `${M}/own_habel_glb/habel.glb`, wood: "bark", leaves: "leaf", height: [5, 30], minBranches: 50, frames: 20 },
  { file: `${M}/own_welded_obj/welded.obj`, wood: "bark", leaves: "leaf", height: [3, 30], minBranches: 10 },
];

let engine: NullEngine;
let scene: Scene;
beforeAll(() => {
  engine = new NullEngine();
  scene = new Scene(engine);
});
afterAll(() => {
  scene.dispose();
  engine.dispose();
});

/**
 * What is wrong with a skeleton's radii: a radius 0 or not finite, or one growing by more than
 * RADIUS_GROWTH from a node to the next toward a branch's tip (from its second node on: its base
 * is an end slice, a cap or a taper into its parent). A radius near 0 in the middle of a branch
 * is a hinge for every method (bending stiffness goes as r⁴); CommonTree_1 had three, measured
 * from slices of its low-poly tubes that caught a lone vertex.
 */
const RADIUS_GROWTH = 3;
function radiusFaults(s: TreeSkeleton, growth = RADIUS_GROWTH): string[] {
  const faults: string[] = [];
  for (let b = 0; b < s.branchCount && faults.length < 5; b++) {
    const first = s.branchFirstNode[b], n = s.branchNodeCount[b];
    for (let k = first; k < first + n; k++) {
      const r = s.nodeRadius[k];
      if (!(Number.isFinite(r) && r > 0)) faults.push(`branch ${b} node ${k - first}/${n}: radius ${r}`);
      else if (k > first + 1 && r > growth * s.nodeRadius[k - 1]) faults.push(`branch ${b} node ${k - first}/${n}: radius ${r.toFixed(4)} after ${s.nodeRadius[k - 1].toFixed(4)}`);
    }
  }
  return faults;
}

/** Every method for `frames` steps of a 20 m/s gusty wind on the tree; the largest tip excursion of each. */
function runEveryMethod(t: ImportedTree, frames: number): Record<string, number> {
  const out: Record<string, number> = {};
  const registry = createRegistry();
  for (const p of registry.list()) {
    const root = new TransformNode("root", scene);
    const view = new TreeView(t.skeleton, t.geometry, scene, root, null);
    const wind = new WindField({ speed: 20, direction: 30, turbulence: 0.5, gust: 0.5, seed: 3 });
    const clock = new FixedClock(1 / 60);
    const a = p.create({ scene, tree: view, wind, rng: new Rng(1), root, clock }, defaultsOf(p.params));
    const rest = Float32Array.from(a.probe());
    let moved = 0;
    for (let f = 0; f < frames; f++) {
      clock.tick();
      a.update(1 / 60);
      if (a.stats().nonFinite) throw new Error(`${p.id}: non-finite state after ${f + 1} steps`);
      const tips = a.probe();
      for (let i = 0; i < tips.length; i++) {
        if (!Number.isFinite(tips[i])) throw new Error(`${p.id}: tip coordinate ${i} is ${tips[i]} after ${f + 1} steps`);
        moved = Math.max(moved, Math.abs(tips[i] - rest[i]));
      }
    }
    out[p.id] = moved;
    a.dispose();
    view.dispose();
    root.dispose();
  }
  return out;
}

describe("sample models", () => {
  for (const s of SAMPLES) {
    it(`${s.file.split("/").pop()}: read, wood and leaves told apart, upright, branches found, every method runs`, async () => {
      const loaded = await readModelFile(s.file, scene);
      try {
        const steps: number[] = [];
        const t = await importModel(loaded.data, {}, (f) => void steps.push(f));
        // Progress only goes forward.
        expect(steps.length).toBeGreaterThan(3);
        for (let i = 1; i < steps.length; i++) expect(steps[i]).toBeGreaterThan(steps[i - 1]);
        expect(t.woodMaterial).toBe(s.wood);
        expect(t.leafMaterial).toBe(s.leaves);
        expect(t.up).toBe("+y");
        expect(t.scale).toBe(1);
        expect(t.height).toBeGreaterThan(s.height[0]);
        expect(t.height).toBeLessThan(s.height[1]);
        const sk = t.skeleton;
        expect(sk.branchCount).toBeGreaterThanOrEqual(s.minBranches);
        expect(sk.levels).toBeGreaterThanOrEqual(2);
        expect(radiusFaults(sk)).toEqual([]);
        expect(t.geometry.fromModel).toBe(true);
        // The model keeps its own vertices: as many as the wood and leaves it was read with.
        const count = (role: string) => loaded.data.primitives.filter((p) => p.material === (role === "wood" ? s.wood : s.leaves)).reduce((n, p) => n + p.positions.length / 3, 0);
        expect(t.geometry.bark.positions.length / 3).toBe(count("wood"));
        if (s.leaves) expect(t.geometry.leaves!.positions.length / 3).toBe(count("leaves"));
        else expect(t.geometry.leaves).toBeNull();
        // Every vertex a triangle uses is bound, with finite w-vectors and weights summing to 1.
        // (Checked in plain loops, one expect at the end: an expect per vertex took most of this file's time.)
        const unbound: string[] = [];
        for (const arrays of [t.geometry.bark, t.geometry.leaves]) {
          if (!arrays) continue;
          const used = new Uint8Array(arrays.positions.length / 3);
          for (const i of arrays.indices) used[i] = 1;
          for (let v = 0; v < used.length && unbound.length < 5; v++) {
            if (!used[v]) continue;
            const w = arrays.wVector.subarray(4 * v, 4 * v + 4);
            const sum = arrays.skinWeights[4 * v] + arrays.skinWeights[4 * v + 1];
            if (!(arrays.branchIndex[v] >= 0) || !(Math.abs(sum - 1) < 5e-6) || !w.every(Number.isFinite)) unbound.push(`vertex ${v}: branch ${arrays.branchIndex[v]}, weights sum ${sum}, w ${Array.from(w).join(",")}`);
          }
        }
        expect(unbound).toEqual([]);
        // The base is on the ground at the origin.
        const n0 = sk.branchFirstNode[0];
        expect(Math.abs(sk.nodePosition[3 * n0 + 1])).toBeLessThan(0.1 * t.height);
        if (s.leaves) expect(sk.leafCount).toBeGreaterThan(0);
        const moved = runEveryMethod(t, s.frames ?? 90);
        // Every method but the tree at rest moves it in a 20 m/s wind.
        for (const [id, d] of Object.entries(moved)) {
          if (id === "rest") expect(d).toBe(0);
          else expect(d).toBeGreaterThan(0.001);
        }
      } finally {
        loaded.dispose();
      }
    }, 60_000);
  }

  it("the landscape scene: its trees are listed (not the terrain, river or bushes), each can be picked, and one of them animates", async () => {
    const loaded = await readModelFile(`${M}/sketchfab_lowpoly_landscape_scene/scene.gltf`, scene);
    try {
      const t = await importModel(loaded.data);
      expect(t.trees.length).toBeGreaterThanOrEqual(8);
      // Not the terrain (Cube, Cube.004: the ground), the river (Plane), the white rocks
      // (Icosphere.016 ...), the dark green bushes (leaves only), the pond, the sign.
      for (const other of ["Cube", "Cube.004", "Plane", "Plane.001", "Circle", "Cube.019", "Icosphere.004", "Icosphere.016", "Icosphere.021"]) expect(t.trees).not.toContain(other);
      for (const tree of ["Cube.002", "Cube.003", "Icosphere.003", "Icosphere.007"]) expect(t.trees).toContain(tree);
      expect(t.notes.join(" ")).toMatch(/holds \d+ trees/);
      // Source Z-up, turned to Y-up by its root node: the tree stands on +y.
      expect(t.up).toBe("+y");
      // Unitless and small (a tree under 0.5 units): scaled to a plausible height, and said so.
      expect(radiusFaults(t.skeleton)).toEqual([]);
      const lollipop = await importModel(loaded.data, { tree: "Icosphere.007" });
      // (Its limbs are wedges of a few vertices, some thicker at their far end than at their base: no growth bound.)
      expect(radiusFaults(lollipop.skeleton, Infinity)).toEqual([]);
      expect(lollipop.tree).toBe("Icosphere.007");
      expect(lollipop.woodMaterial).toBe("Material.004");
      expect(lollipop.leafMaterial).not.toBeNull();
      if (lollipop.scale !== 1) expect(lollipop.notes.join(" ")).toMatch(/scaled by/);
      runEveryMethod(lollipop, 30);
      await expect(importModel(loaded.data, { tree: "Nope" })).rejects.toThrow(/holds no tree "Nope"; its trees are: /);
    } finally {
      loaded.dispose();
    }
  }, 60_000);
});

describe("round trip through files", () => {
  // Our own trees, written by our writer (assets/models/own_*: a GLB of separate tubes, an OBJ of
  // one welded mesh), read back by the app's loader and importer: the hierarchy found is compared
  // with the grammar's. Each extracted branch is the original branch most of its vertices were
  // written from (found by position: the loaders renumber vertices).
  for (const [file, preset, welded] of [["own_habel_glb/habel.glb", "habel", false], ["own_welded_obj/welded.obj", "sympodial", true]] as const) {
    it(`${file}: the ${preset} tree's branches, levels and parents come back (${welded ? "welded" : "separate parts"})`, async () => {
      const p = TREE_PRESETS.find((t) => t.name === preset)!;
      const original = applyTaper(grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1, fileName: `${preset}.lsys` }), TAPER_RANGE.default);
      const bark = buildTreeGeometry(original).bark;
      const loaded = await readModelFile(`${M}/${file}`, scene);
      try {
        const t = await importModel(loaded.data);
        expect(t.welded).toBe(welded);
        expect(t.scale).toBe(1);
        const e = t.skeleton;
        // Standing it on the origin moved it a little: by the difference of the boxes' corners.
        const g = t.geometry.bark;
        const corner = (P: Float32Array) => [0, 1, 2].map((c) => P.filter((_, i) => i % 3 === c).reduce((m, x) => Math.min(m, x), Infinity));
        const shift = corner(g.positions).map((x, c) => x - corner(bark.positions)[c]);
        const at = new Map<string, number>();
        const key = (P: Float32Array, i: number, d: number[]) => `${Math.round((P[3 * i] - d[0]) * 200)},${Math.round((P[3 * i + 1] - d[1]) * 200)},${Math.round((P[3 * i + 2] - d[2]) * 200)}`;
        for (let i = 0; i < bark.positions.length / 3; i++) at.set(key(bark.positions, i, [0, 0, 0]), Math.round(bark.branchIndex[i]));
        const votes = Array.from({ length: e.branchCount }, () => new Map<number, number>());
        let found = 0;
        for (let i = 0; i < g.positions.length / 3; i++) {
          const o = at.get(key(g.positions, i, shift)), b = g.branchIndex[i];
          if (o === undefined || b < 0) continue;
          found++;
          votes[b].set(o, (votes[b].get(o) ?? 0) + 1);
        }
        // Most vertices found where they were written (5 mm cells: a few fall on a cell's edge).
        expect(found).toBeGreaterThan(0.6 * (g.positions.length / 3));
        const origin = votes.map((m) => [...m].sort((x, y) => y[1] - x[1])[0]?.[0] ?? -1);
        let right = 0;
        for (let b = 1; b < e.branchCount; b++) if (origin[e.branchParent[b]] === original.branchParent[origin[b]]) right++;
        const share = right / (e.branchCount - 1);
        expect(Math.abs(e.branchCount - original.branchCount) / original.branchCount).toBeLessThanOrEqual(0.1);
        expect(e.levels).toBe(original.levels);
        expect(share).toBeGreaterThanOrEqual(0.9);
        expect(origin[0]).toBe(0);
      } finally {
        loaded.dispose();
      }
    }, 60_000);
  }
});

describe("corrections", () => {
  it("the up axis can be set; a Z-up file is detected", async () => {
    const loaded = await readModelFile(`${M}/megakit_commontree_1/CommonTree_1.gltf`, scene);
    try {
      const zUp: ModelData = { ...loaded.data, primitives: loaded.data.primitives.map((p) => ({ ...p, positions: turnToZUp(p.positions), normals: turnToZUp(p.normals) })) };
      const t = await importModel(zUp);
      expect(t.up).toBe("+z");
      expect(t.upDetected).toBe(true);
      expect(t.height).toBeGreaterThan(6.5);
      const forced = await importModel(loaded.data, { up: "+z" });
      expect(forced.up).toBe("+z");
      expect(forced.upDetected).toBe(false);
      await expect(importModel(loaded.data, { up: "up" as never })).rejects.toThrow(/up axis must be one of/);
    } finally {
      loaded.dispose();
    }
  });

  it("a model in centimetres is scaled to metres and the factor reported", async () => {
    const loaded = await readModelFile(`${M}/megakit_commontree_1/CommonTree_1.gltf`, scene);
    try {
      const cm: ModelData = { ...loaded.data, primitives: loaded.data.primitives.map((p) => ({ ...p, positions: p.positions.map((x) => 100 * x) })) };
      const t = await importModel(cm);
      expect(t.scale).toBeCloseTo(0.01, 6);
      expect(t.height).toBeGreaterThan(6.5);
      expect(t.notes.join(" ")).toMatch(/scaled by 0\.0100: the model is \d{3}(\.\d+)? units tall, taken for centimetres/);
    } finally {
      loaded.dispose();
    }
  });

  it("a material's role can be corrected; the guesses say why", async () => {
    const loaded = await readModelFile(`${M}/megakit_commontree_1/CommonTree_1.gltf`, scene);
    try {
      const t = await importModel(loaded.data);
      expect(t.roles.map((r) => [r.material, r.role])).toEqual([["Bark_NormalTree", "wood"], ["Leaves_NormalTree", "leaves"]]);
      expect(t.roles[1].reason).toMatch(/name says leaves/);
      const bare = await importModel(loaded.data, { roles: { Leaves_NormalTree: "ignore" } });
      expect(bare.geometry.leaves).toBeNull();
      expect(bare.roles[1]).toMatchObject({ role: "ignore", corrected: true });
      await expect(importModel(loaded.data, { roles: { Twigs: "wood" } })).rejects.toThrow(/has no material "Twigs"; its materials are: "Bark_NormalTree", "Leaves_NormalTree"/);
      await expect(importModel(loaded.data, { roles: { Bark_NormalTree: "bark" as never } })).rejects.toThrow(/role is one of wood, leaves, ignore/);
    } finally {
      loaded.dispose();
    }
  });
});

describe("bad input: a message a person can act on", () => {
  const read = (files: { name: string; bytes: Uint8Array<ArrayBuffer> | string }[]) => readModel(files.map((f) => ({ name: f.name, data: new Blob([f.bytes]) })), scene);

  it("a file that is not a model, and a format the sandbox does not read", async () => {
    await expect(read([{ name: "notes.txt", bytes: "hello" }])).rejects.toThrow(/^notes\.txt is not a tree model: the sandbox reads \.glb, \.gltf, \.obj/);
    await expect(read([{ name: "oak.fbx", bytes: "Kaydara FBX Binary" }])).rejects.toThrow(/FBX \(\.fbx\) is not a format the sandbox reads; export the tree as glTF \(\.glb\) or OBJ/);
    await expect(read([{ name: "oak.glb", bytes: "PK\u0003\u0004 a zip file" }])).rejects.toThrow(/oak\.glb is not a GLB file \(it does not start with "glTF"\)/);
    await expect(read([{ name: "oak.gltf", bytes: "{\"meshes\": []}" }])).rejects.toThrow(/oak\.gltf is not a glTF file: it has no "asset"/);
    await expect(read([{ name: "oak.obj", bytes: "# nothing here\n" }])).rejects.toThrow(/oak\.obj is not an OBJ model: it has no vertex/);
  });

  it("a truncated GLB, a corrupt glTF, a glTF without its .bin", async () => {
    const glb = filesBeside(`${M}/own_habel_glb/habel.glb`)[0];
    const bytes = new Uint8Array(await glb.data.arrayBuffer());
    await expect(read([{ name: "habel.glb", bytes: bytes.slice(0, bytes.length >> 1) }])).rejects.toThrow(/habel\.glb is cut short: [\d,]+ of its [\d,]+ bytes/);
    const gltf = filesBeside(`${M}/megakit_deadtree_1/DeadTree_1.gltf`);
    const text = await gltf[0].data.text();
    await expect(read([{ name: "DeadTree_1.gltf", bytes: text.slice(0, 600) }])).rejects.toThrow(/DeadTree_1\.gltf is not a glTF file: its JSON does not parse/);
    await expect(read([{ name: "DeadTree_1.gltf", bytes: text }])).rejects.toThrow(/DeadTree_1\.gltf needs DeadTree_1\.bin, which was not given: pick or drop it together with DeadTree_1\.gltf/);
    // A .bin cut short: the loader's own complaint, passed on with what to do.
    const bin = new Uint8Array(await gltf.find((f) => f.name.endsWith(".bin"))!.data.arrayBuffer());
    await expect(read([{ name: "DeadTree_1.gltf", bytes: text }, { name: "DeadTree_1.bin", bytes: bin.slice(0, 1000) }])).rejects.toThrow(/DeadTree_1\.gltf could not be read: .*export it again/);
  });

  const prim = (p: Partial<ModelPrimitive>): ModelPrimitive => ({
    mesh: "m", material: "bark", object: "", positions: new Float32Array(0), normals: new Float32Array(0), uvs: null, indices: new Uint32Array(0),
    colour: [0.4, 0.3, 0.2], alphaTested: false, textured: false, ...p,
  });

  it("no geometry, no wood, over the vertex budget", async () => {
    await expect(importModel({ name: "empty.glb", primitives: [], warnings: [] })).rejects.toThrow(/empty\.glb has no geometry: no triangles/);
    const pts = prim({ positions: new Float32Array(9), normals: new Float32Array(9) });
    await expect(importModel({ name: "points.obj", primitives: [pts], warnings: [] })).rejects.toThrow(/points\.obj has no geometry/);
    const loaded = await readModelFile(`${M}/megakit_commontree_1/CommonTree_1.gltf`, scene);
    try {
      await expect(importModel(loaded.data, { roles: { Bark_NormalTree: "leaves" } })).rejects.toThrow(/no wood found in CommonTree_1\.gltf: its materials are "Bark_NormalTree" \(leaves: .*mark the bark's material as wood in the panel/);
    } finally {
      loaded.dispose();
    }
    const huge = prim({ positions: new Float32Array(3 * (MAX_MODEL_VERTICES + 1)), normals: new Float32Array(3 * (MAX_MODEL_VERTICES + 1)), indices: Uint32Array.of(0, 1, 2) });
    await expect(importModel({ name: "forest.glb", primitives: [huge], warnings: [] })).rejects.toThrow(/forest\.glb has 2,000,001 vertices, over the budget of 2,000,000; reduce it/);
  });
});

function turnToZUp(v: Float32Array): Float32Array {
  // (x, y, z) with y up -> (x, -z, y): the same tree written Z-up.
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i += 3) out.set([v[i], -v[i + 2], v[i + 1]], i);
  return out;
}
