/**
 * Skinning to the masses (skinning.ts): exact at rest, rigid under a rigid motion of all masses,
 * and a vertex bound to one node rides on it.
 */
import { SkeletonBuilder, type TreeSkeleton } from "../../../app/tree/skeleton";
import { smallTree } from "./fixtures";
import { buildTreeGeometry } from "../../../app/tree/geometry";
import { MassSpringSystem } from "../../../app/animators/mass-spring/system";
import { NodeFrames, shortestRotation, skinVertices } from "../../../app/animators/mass-spring/skinning";

/** A tree in the xy plane (a rotation about z turns every segment by the shortest rotation). */
function planarTree(): TreeSkeleton {
  const b = new SkeletonBuilder();
  const t = b.addBranch(-1, 0);
  for (let i = 0; i <= 4; i++) b.addNode(t, 0.05 * Math.sin(i), 0.75 * i, 0, 0.12 - 0.02 * i);
  const a = b.addBranch(t, 0.5, null, { branch: 0, node: 2 });
  b.addNode(a, 0.05 * Math.sin(2), 1.5, 0, 0.05);
  b.addNode(a, 0.6, 1.9, 0, 0.04);
  b.addNode(a, 1.2, 2.1, 0, 0.03);
  return b.build();
}

function setup(s: TreeSkeleton) {
  const sys = new MassSpringSystem(s);
  const frames = new NodeFrames(s, sys.massOfNode);
  const g = buildTreeGeometry(s);
  const parts = [g.bark, ...(g.leaves ? [g.leaves] : [])];
  const out = parts.map((m) => ({ p: new Float32Array(m.positions.length), n: new Float32Array(m.normals.length) }));
  const skin = () => parts.forEach((m, i) => skinVertices(frames, m, out[i].p, out[i].n));
  return { sys, frames, parts, out, skin };
}

describe("mass-spring skinning", () => {
  it("at rest every vertex and normal is exactly where the geometry put it", () => {
    const { sys, frames, parts, out, skin } = setup(smallTree());
    frames.update(sys.position);
    skin();
    parts.forEach((m, i) => {
      expect(out[i].p).toEqual(m.positions);
      expect(out[i].n).toEqual(m.normals);
    });
  });

  it("shortestRotation takes a onto b and is a rotation", () => {
    const R = new Float64Array(9);
    const a = [0.6, 0.8, 0], b = [0, 0.6, 0.8];
    shortestRotation(a[0], a[1], a[2], b[0], b[1], b[2], R);
    for (let r = 0; r < 3; r++) expect(R[3 * r] * a[0] + R[3 * r + 1] * a[1] + R[3 * r + 2] * a[2]).toBeCloseTo(b[r], 12);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
      const d = R[r] * R[c] + R[3 + r] * R[3 + c] + R[6 + r] * R[6 + c];
      expect(d).toBeCloseTo(r === c ? 1 : 0, 12);
    }
    shortestRotation(a[0], a[1], a[2], -a[0], -a[1], -a[2], R); // opposite
    for (let r = 0; r < 3; r++) expect(R[3 * r] * a[0] + R[3 * r + 1] * a[1] + R[3 * r + 2] * a[2]).toBeCloseTo(-a[r], 12);
  });

  it("a rigid translation and rotation of all masses moves the vertices rigidly", () => {
    const { sys, frames, parts, out, skin } = setup(planarTree());
    const th = 0.4, c = Math.cos(th), s = Math.sin(th), t = [0.3, -0.2, 0.5];
    const rot = (x: number, y: number, z: number) => [c * x - s * y, s * x + c * y, z];
    for (let i = 0; i < sys.count; i++) {
      const r = rot(sys.rest[3 * i], sys.rest[3 * i + 1], sys.rest[3 * i + 2]);
      for (let k = 0; k < 3; k++) sys.position[3 * i + k] = r[k] + t[k];
    }
    frames.update(sys.position);
    skin();
    parts.forEach((m, i) => {
      for (let v = 0; v < m.positions.length; v += 3) {
        const r = rot(m.positions[v], m.positions[v + 1], m.positions[v + 2]);
        const n = rot(m.normals[v], m.normals[v + 1], m.normals[v + 2]);
        for (let k = 0; k < 3; k++) {
          expect(out[i].p[v + k]).toBeCloseTo(r[k] + t[k], 4);
          expect(out[i].n[v + k]).toBeCloseTo(n[k], 4);
        }
      }
    });
  });

  it("a vertex bound fully to one node moves with that node; the segment stays attached", () => {
    const s = smallTree();
    const { sys, frames, parts, out, skin } = setup(s);
    // Bend: move every mass of the side branch (and above) sideways, more further up.
    for (let i = 2; i < sys.count; i++) {
      const y = sys.rest[3 * i + 1];
      sys.position[3 * i] += 0.1 * y * y;
      sys.position[3 * i + 2] += 0.05 * y;
    }
    frames.update(sys.position);
    skin();
    const bark = parts[0], P = out[0].p;
    let checked = 0;
    for (let v = 0; v < bark.positions.length / 3; v++) {
      for (let q = 0; q < 4; q++) {
        if (bark.skinWeights[4 * v + q] !== 1) continue;
        const k = bark.skinNodes[4 * v + q], m = sys.massOfNode[k];
        // The offset from the node keeps its length (rigid about the node) and the node's mass carries it.
        const d0 = Math.hypot(bark.positions[3 * v] - s.nodePosition[3 * k], bark.positions[3 * v + 1] - s.nodePosition[3 * k + 1], bark.positions[3 * v + 2] - s.nodePosition[3 * k + 2]);
        const d1 = Math.hypot(P[3 * v] - sys.position[3 * m], P[3 * v + 1] - sys.position[3 * m + 1], P[3 * v + 2] - sys.position[3 * m + 2]);
        expect(d1).toBeCloseTo(d0, 4);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
    // Every bark vertex stays within its segment's radius of the moved skeleton (nothing tears off).
    let far = 0;
    for (let v = 0; v < bark.positions.length / 3; v++) {
      let best = Infinity;
      for (let q = 0; q < 4; q++) {
        if (!(bark.skinWeights[4 * v + q] > 0)) continue;
        const m = sys.massOfNode[bark.skinNodes[4 * v + q]];
        best = Math.min(best, Math.hypot(P[3 * v] - sys.position[3 * m], P[3 * v + 1] - sys.position[3 * m + 1], P[3 * v + 2] - sys.position[3 * m + 2]));
      }
      far = Math.max(far, best);
    }
    expect(far).toBeLessThan(1); // segments are 0.75 m at most, radii 0.12 m
  });
});
