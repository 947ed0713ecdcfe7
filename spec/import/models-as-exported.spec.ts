// Models as people export them: synthetic trees written as OBJ the ways other
// tools write them (spec/support/make-models.ts: no materials at all; one object per branch, all
// the wood in one object, or one welded mesh; leaves as one mesh or one object per leaf; telling,
// neutral or no names; Z-up in centimetres), read by the app's own loader (@babylonjs/loaders
// under NullEngine) and importer, and checked against the tree each was made with: its branch
// count, its level count, its leaves, and which triangles are wood and which leaves.
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { importModel, type ImportedTree, type ImportOptions } from "../../app/import/build";
import { readModel, type LoadedModel } from "../../app/import/load";
import { makeTreeModel, type MadeModel, type TreeModelSpec } from "../support/make-models";
import "../support/read-model"; // a FileReader for node

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

async function load(name: string, made: MadeModel): Promise<LoadedModel> {
  return readModel([{ name, data: new Blob([made.obj]) }], scene);
}

async function importMade(name: string, made: MadeModel, options: ImportOptions = {}): Promise<ImportedTree> {
  const loaded = await load(name, made);
  try {
    return await importModel(loaded.data, options);
  } finally {
    loaded.dispose();
  }
}

/** The tree found is the tree made: branches, levels, leaves, and the wood's and leaves' triangles. */
function expectMade(t: ImportedTree, made: MadeModel): void {
  expect({ branches: t.skeleton.branchCount, levels: t.skeleton.levels, leaves: t.leafPieces }).toEqual({ branches: made.branches, levels: made.levels, leaves: made.leaves });
  expect(t.geometry.bark.indices.length / 3).toBe(made.woodTriangles);
  if (made.leaves === 0) expect(t.geometry.leaves).toBeNull();
  else expect(t.geometry.leaves!.indices.length / 3).toBe(made.leafTriangles);
  expect(t.height).toBeCloseTo(made.height, 1);
}

/**
 * `welded`: what the importer should call the wood (null: not checked); `roles`: the parts and
 * roles the panel should list; `options`: corrections the person makes.
 */
const CASES: { what: string; spec: TreeModelSpec; welded?: boolean | null; roles?: [string, string][]; options?: ImportOptions }[] = [
  // The reported failure: no materials, the wood a neutral object, one object named "leaves".
  { what: "no materials; the wood one object \"Object.001\", the leaves one named \"leaves\"", spec: { children: 3, levels: 3, wood: "one-object", leaves: "one-mesh", naming: "neutral" }, roles: [["Object.001", "wood"], ["leaves", "leaves"]] },
  { what: "no materials; one neutral object per branch, the leaves one named \"leaves\"", spec: { children: 3, levels: 3, wood: "per-branch", leaves: "one-mesh", naming: "neutral" }, roles: [["Object.*", "wood"], ["leaves", "leaves"]] },
  { what: "no materials; one object per branch, a leaf per object (\"leaf.001\"...)", spec: { children: 3, levels: 3, wood: "per-branch", leaves: "per-leaf", naming: "neutral" }, roles: [["Object.*", "wood"], ["leaf.*", "leaves"]] },
  { what: "no materials; objects named trunk, branch.001..., leaves", spec: { children: 4, levels: 3, wood: "per-branch", leaves: "one-mesh", naming: "telling" }, roles: [["trunk", "wood"], ["branch.*", "wood"], ["leaves", "leaves"]] },
  // The reported extra level: a bare tree of separate branch parts (roots reaching below the trunk's base).
  { what: "bare, one object per branch (3 x 3)", spec: { children: 3, levels: 3, wood: "per-branch", leaves: "none", naming: "neutral" } },
  { what: "bare, one object per branch, 4 levels", spec: { children: 2, levels: 4, wood: "per-branch", leaves: "none", naming: "neutral" } },
  { what: "bare, one object per branch, with roots below the trunk's base", spec: { children: 3, levels: 3, wood: "per-branch", leaves: "none", naming: "neutral", roots: 4 } },
  { what: "bare, 2 levels, with roots below the trunk's base", spec: { children: 3, levels: 2, wood: "per-branch", leaves: "none", naming: "neutral", roots: 5 } },
  { what: "bare, one object per branch, forking at the tips", spec: { children: 3, levels: 3, wood: "per-branch", leaves: "none", naming: "neutral", forks: true } },
  { what: "bare, whorls of branches starting on the parent's surface", spec: { children: 4, levels: 3, wood: "per-branch", leaves: "none", naming: "neutral", whorl: true, baseAt: "surface" } },
  // (Read as welded: the trunk holds most of the vertices, extractHierarchy's sign of welded
  // wood; the hierarchy comes out right either way.)
  { what: "bare, a trunk modelled finer than its limbs (most of the vertices)", spec: { children: 2, levels: 3, wood: "per-branch", leaves: "none", naming: "neutral", trunkSides: 64 }, welded: null },
  // One welded mesh.
  { what: "one welded mesh, bare", spec: { children: 3, levels: 3, wood: "welded", leaves: "none", naming: "neutral" }, welded: true },
  { what: "one welded mesh, 4 levels", spec: { children: 3, levels: 4, wood: "welded", leaves: "none", naming: "neutral" }, welded: true },
  { what: "one welded mesh and a \"leaves\" object", spec: { children: 3, levels: 3, wood: "welded", leaves: "one-mesh", naming: "neutral" }, welded: true, roles: [["Object.001", "wood"], ["leaves", "leaves"]] },
  // Z-up in centimetres.
  { what: "Z-up in centimetres, one object per branch, leaves one object", spec: { children: 3, levels: 3, wood: "per-branch", leaves: "one-mesh", naming: "neutral", zUp: true, unitsPerMetre: 100 } },
  // A welded tree seen from the side stands on one piece too (a limb and its twigs), and wider
  // than its trunk: the foot test alone would lay it on its side. Its up axis is read from its
  // wood: the trunk's base is the thickest of the mesh's ends (tree/extract/up.ts).
  { what: "Z-up in centimetres, one welded mesh and a leaves object", spec: { children: 3, levels: 3, wood: "welded", leaves: "one-mesh", naming: "neutral", zUp: true, unitsPerMetre: 100 }, welded: true },
  { what: "Z-up in centimetres, one welded mesh, bare", spec: { children: 3, levels: 3, wood: "welded", leaves: "none", naming: "neutral", zUp: true, unitsPerMetre: 100 }, welded: true },
  { what: "Z-up in centimetres, one welded mesh, 4 levels, a leaf per object", spec: { children: 2, levels: 4, wood: "welded", leaves: "per-leaf", naming: "neutral", zUp: true, unitsPerMetre: 100 }, welded: true },
  // No name says anything: sorted by shape.
  { what: "no names at all: one unnamed mesh of tubes and leaf cards", spec: { children: 3, levels: 3, wood: "one-object", leaves: "one-mesh", naming: "none" }, roles: [["unnamed mesh: the rest", "wood"], ["unnamed mesh: small flat pieces", "leaves"]] },
  { what: "no names at all: one unnamed mesh, the wood welded", spec: { children: 3, levels: 3, wood: "welded", leaves: "one-mesh", naming: "none" }, welded: true },
  { what: "neutral names everywhere (\"Object.NNN\"), a leaf per object", spec: { children: 3, levels: 3, wood: "per-branch", leaves: "per-leaf", naming: "anonymous" }, roles: [["Object.* (wood)", "wood"], ["Object.* (leaves)", "leaves"]] },
  { what: "neutral names everywhere, Z-up in centimetres, 4 levels", spec: { children: 2, levels: 4, wood: "per-branch", leaves: "per-leaf", naming: "anonymous", zUp: true, unitsPerMetre: 100 } },
];

describe("tree models as other tools export them: the tree found is the tree made", () => {
  CASES.forEach((c, k) => {
    it(c.what, async () => {
      const made = makeTreeModel(c.spec);
      const t = await importMade(`made-${k}.obj`, made, c.options);
      expectMade(t, made);
      if (c.welded !== null) expect(t.welded).toBe(c.welded ?? false);
      if (c.spec.zUp) {
        expect(t.up).toBe("+z");
        expect(t.scale).toBeCloseTo(0.01, 6);
      } else {
        expect(t.up).toBe("+y");
        expect(t.scale).toBe(1);
      }
      if (c.roles) expect(t.roles.map((r) => [r.material, r.role])).toEqual(c.roles);
      // Every role says why.
      for (const r of t.roles) expect(r.reason).not.toBe("");
    }, 30_000);
  });
});

describe("the up axis of one welded mesh, found from its wood", () => {
  // Each as written (the up axis detected) and with the up axis set as a person would: the same tree.
  for (const [what, spec] of [
    ["Z-up in centimetres, with leaves", { children: 3, levels: 3, wood: "welded", leaves: "one-mesh", naming: "neutral", zUp: true, unitsPerMetre: 100 }],
    ["Z-up in centimetres, bare", { children: 3, levels: 3, wood: "welded", leaves: "none", naming: "neutral", zUp: true, unitsPerMetre: 100 }],
    ["Y-up in metres, with leaves", { children: 3, levels: 3, wood: "welded", leaves: "one-mesh", naming: "neutral" }],
    ["Y-up in metres, bare", { children: 3, levels: 3, wood: "welded", leaves: "none", naming: "neutral" }],
  ] as [string, TreeModelSpec][]) {
    it(`${what}: detected, and the tree found is the one found with the axis set`, async () => {
      const made = makeTreeModel(spec);
      const up = spec.zUp ? "+z" : "+y";
      const found = await importMade("welded.obj", made);
      expect({ up: found.up, detected: found.upDetected }).toEqual({ up, detected: true });
      if (spec.zUp) expect(found.notes.join(" ")).toMatch(/its up axis is \+z \(found from the trunk\)/);
      const set = await importMade("welded.obj", made, { up });
      expect(set.upDetected).toBe(false);
      expect({ branches: found.skeleton.branchCount, levels: found.skeleton.levels }).toEqual({ branches: set.skeleton.branchCount, levels: set.skeleton.levels });
      expectMade(found, made);
    }, 30_000);
  }
});

describe("sorting wood from leaves without materials", () => {
  it("one leaf-named object does not make everything leaves (the wood's reason is its shape)", async () => {
    const made = makeTreeModel({ children: 3, levels: 3, wood: "one-object", leaves: "one-mesh", naming: "neutral" });
    const loaded = await load("tree.obj", made);
    try {
      // The loader hands every primitive over without a material: the case reported.
      expect(new Set(loaded.data.primitives.map((p) => p.material))).toEqual(new Set([""]));
      const t = await importModel(loaded.data);
      expect(t.roles[0]).toMatchObject({ material: "Object.001", role: "wood", reason: "13 tubes" });
      expect(t.roles[1]).toMatchObject({ material: "leaves", role: "leaves", reason: expect.stringMatching(/name says leaves/) });
    } finally {
      loaded.dispose();
    }
  });

  it("a part's role can be corrected by the name the panel lists; an unknown one says which there are", async () => {
    const made = makeTreeModel({ children: 3, levels: 3, wood: "per-branch", leaves: "one-mesh", naming: "neutral" });
    const loaded = await load("tree.obj", made);
    try {
      const bare = await importModel(loaded.data, { roles: { leaves: "ignore" } });
      expect(bare.geometry.leaves).toBeNull();
      expect(bare.roles.find((r) => r.material === "leaves")).toMatchObject({ role: "ignore", corrected: true });
      expect(bare.skeleton.branchCount).toBe(made.branches);
      await expect(importModel(loaded.data, { roles: { "Object.001": "wood" } })).rejects.toThrow(/tree\.obj has no part "Object\.001"; its parts are: "Object\.\*", "leaves"/);
    } finally {
      loaded.dispose();
    }
  });

  it("a model that is all leaves says what was found and what to do", async () => {
    // Leaves only (the wood left out of the export), every leaf an object "Object.NNN".
    const made = makeTreeModel({ children: 3, levels: 3, wood: "left-out", leaves: "per-leaf", naming: "anonymous" });
    const loaded = await load("crown.obj", made);
    try {
      await expect(importModel(loaded.data)).rejects.toThrow(
        /^no wood found in crown\.obj: its parts are "Object\.\*" \(leaves: 54 objects: a small flat piece\); the file has no materials to tell them apart, so each object was judged by its name and its shape; mark the trunk's and branches' objects as wood in the panel/,
      );
    } finally {
      loaded.dispose();
    }
  });
});
