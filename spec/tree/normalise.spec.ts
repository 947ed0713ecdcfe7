// A model made elsewhere stands as the sandbox's trees do: up axis detected
// (either sign of Y, Z or X), units scaled when the height is implausible, base on the ground.
import { DETECTED_UP_AXES, footPieces, normaliseModel, UP_AXES, type UpAxis } from "../../app/tree/normalise";
import { buildTreeGeometry } from "../../app/tree/geometry";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";

/** Bark and leaves of one of our trees as one model: positions and triangles (the bark's first). */
function treeModel(name: string): { positions: Float32Array; indices: Uint32Array; barkIndices: number } {
  const p = TREE_PRESETS.find((t) => t.name === name)!;
  const g = buildTreeGeometry(grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1, fileName: `${name}.lsys` }));
  const nb = g.bark.positions.length / 3;
  const positions = new Float32Array(g.bark.positions.length + (g.leaves?.positions.length ?? 0));
  positions.set(g.bark.positions);
  const indices = new Uint32Array(g.bark.indices.length + (g.leaves?.indices.length ?? 0));
  indices.set(g.bark.indices);
  if (g.leaves) {
    positions.set(g.leaves.positions, g.bark.positions.length);
    indices.set(g.leaves.indices.map((i) => i + nb), g.bark.indices.length);
  }
  return { positions, indices, barkIndices: g.bark.indices.length };
}

/** The model as an exporter with `up` as its up axis would write it (the inverse of normalising). */
function exportAs(p: Float32Array, up: UpAxis, scale: number, offset: number[]): Float32Array {
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i] * scale, y = p[i + 1] * scale, z = p[i + 2] * scale;
    let v: number[];
    switch (up) {
      case "+y": v = [x, y, z]; break;
      case "-y": v = [x, -y, -z]; break;
      case "+z": v = [x, -z, y]; break;
      case "-z": v = [x, z, -y]; break;
      case "+x": v = [y, x, -z]; break;
      case "-x": v = [-y, x, z]; break;
    }
    out[i] = v[0] + offset[0];
    out[i + 1] = v[1] + offset[1];
    out[i + 2] = v[2] + offset[2];
  }
  return out;
}

describe("normalising a model", () => {
  for (const name of ["demo", "habel", "conifer", "sympodial", "barron"]) {
    it(`finds the ${name} tree's up axis written Y-up or Z-up, takes any other as set, and stands it back where it was`, () => {
      const { positions: original, indices } = treeModel(name);
      for (const up of UP_AXES) {
        // Y-up and Z-up are found; the other axes are set by the person.
        const detect = DETECTED_UP_AXES.includes(up);
        const n = normaliseModel(exportAs(original, up, 1, [3, -2, 7]), indices, detect ? {} : { up });
        expect(n.up).toBe(up);
        expect(n.detected).toBe(detect);
        expect(n.scale).toBe(1);
        let err = 0;
        for (let i = 0; i < original.length; i++) err = Math.max(err, Math.abs(n.positions[i] - original[i]));
        expect(err).toBeLessThan(0.05); // the base's centre is found to within a few centimetres
      }
    });
  }

  for (const name of ["demo", "habel", "conifer", "sympodial", "barron"]) {
    it(`finds the ${name} tree's up axis from its trunk, written with any of the six axes`, () => {
      const { positions: original, indices, barkIndices } = treeModel(name);
      for (const up of UP_AXES) {
        const written = exportAs(original, up, 1, [3, -2, 7]);
        const n = normaliseModel(written, indices, { wood: { positions: written, indices: indices.subarray(0, barkIndices) } });
        expect(n.up).toBe(up);
        if (up !== "+y") expect(n.notes.join(" ")).toContain(`its up axis is ${up} (found from the trunk)`);
      }
    });
  }

  it("a tree stands on one piece, its trunk; its side and its top are many", () => {
    const { positions, indices } = treeModel("habel");
    const pieces = UP_AXES.map((a) => footPieces(positions, indices, a));
    expect(pieces[0]).toBe(1);
    expect(Math.min(...pieces.slice(1))).toBeGreaterThan(10);
  });

  it("takes a tree 1,200 units tall for centimetres, and a 0.1-unit one to 10 m, saying so", () => {
    const { positions: p, indices } = treeModel("habel");
    let h = 0;
    for (let i = 1; i < p.length; i += 3) h = Math.max(h, p[i]);
    const cm = normaliseModel(exportAs(p, "+z", 100, [0, 0, 0]), indices);
    expect(cm.scale).toBeCloseTo(0.01, 10);
    expect(cm.height).toBeCloseTo(h, 3);
    expect(cm.notes.join(" ")).toMatch(/scaled by 0.0100: the model is \d+(\.\d+)? units tall, taken for centimetres/);
    const tiny = normaliseModel(exportAs(p, "+y", 0.1 / h, [0, 0, 0]), indices);
    expect(tiny.height).toBeCloseTo(10, 4);
    expect(tiny.notes[0]).toMatch(/made 10 m/);
  });

  it("uses an up axis the person set, and refuses bad input with a message", () => {
    const { positions: p, indices } = treeModel("demo");
    const n = normaliseModel(exportAs(p, "+z", 1, [0, 0, 0]), indices, { up: "+z" });
    expect(n.detected).toBe(false);
    expect(n.notes.join(" ")).toMatch(/its up axis is \+z \(as set\)/);
    expect(() => normaliseModel(new Float32Array(0), [])).toThrow(/no geometry/);
    expect(() => normaliseModel(Float32Array.of(0, 0, NaN), [])).toThrow(/vertex 0 of the model is not a finite point/);
    expect(() => normaliseModel(Float32Array.of(0, 0, 0, 1, 0, 0), [], { up: "+y" })).toThrow(/flat/);
    expect(() => normaliseModel(p, indices, { up: "up" as UpAxis })).toThrow(/up axis must be one of/);
  });
});
