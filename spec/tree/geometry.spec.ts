import { BINDING_ATTRIBUTES, branchWBase, buildTreeGeometry, nodeWVector, radialSegmentsFor, wSlot, type MeshArrays } from "../../app/tree/geometry";
import { SkeletonBuilder, tipNode, type TreeSkeleton } from "../../app/tree/skeleton";
import { handTree, randomTree } from "./fixtures";

const sub = (a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number) => [a[3 * i] - b[3 * j], a[3 * i + 1] - b[3 * j + 1], a[3 * i + 2] - b[3 * j + 2]];
const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a: number[]) => Math.hypot(a[0], a[1], a[2]);
const vec = (a: ArrayLike<number>, i: number) => [a[3 * i], a[3 * i + 1], a[3 * i + 2]];

function expectedBarkCounts(s: TreeSkeleton, trunkSegments = 8, subdiv = 0, caps = true) {
  let v = 0, idx = 0;
  for (let b = 0; b < s.branchCount; b++) {
    const seg = radialSegmentsFor(s.branchLevel[b], trunkSegments);
    const rings = (s.branchNodeCount[b] - 1) * (subdiv + 1) + 1;
    v += rings * (seg + 1) + (caps ? 1 : 0);
    idx += (rings - 1) * seg * 6 + (caps ? seg * 3 : 0);
  }
  return { v, idx };
}

/** Checks that hold for every mesh: ranges, unit normals, w in [0, 1], weights sum to 1 over valid nodes. */
function checkCommon(m: MeshArrays, s: TreeSkeleton): void {
  const n = m.positions.length / 3;
  for (const [name, arr, per] of [["normals", m.normals, 3], ["uvs", m.uvs, 2], ["branchIndex", m.branchIndex, 1], ["wVector", m.wVector, 4], ["skinNodes", m.skinNodes, 4], ["skinWeights", m.skinWeights, 4]] as const) {
    expect([name, arr.length]).toEqual([name, per * n]);
  }
  let badIndex = 0, badNormal = 0, badW = 0, badSkin = 0, badBranch = 0, nonFinite = 0;
  for (let i = 0; i < m.indices.length; i++) if (m.indices[i] >= n) badIndex++;
  for (let v = 0; v < n; v++) {
    for (let c = 0; c < 3; c++) if (!Number.isFinite(m.positions[3 * v + c]) || !Number.isFinite(m.normals[3 * v + c])) nonFinite++;
    if (Math.abs(len(vec(m.normals, v)) - 1) > 1e-5) badNormal++;
    const b = m.branchIndex[v];
    if (!Number.isInteger(b) || b < 0 || b >= s.branchCount) { badBranch++; continue; }
    const level = s.branchLevel[b];
    for (let l = 0; l < 4; l++) {
      const w = m.wVector[4 * v + l];
      if (!(w >= 0 && w <= 1) || (l > level && w !== 0)) badW++;
    }
    let sum = 0;
    for (let k = 0; k < 4; k++) {
      const node = m.skinNodes[4 * v + k], wt = m.skinWeights[4 * v + k];
      if (!Number.isInteger(node) || node < 0 || node >= s.nodeCount || wt < 0) badSkin++;
      if (wt > 0 && s.nodeBranch[node] !== b) badSkin++;
      if (wt === 0 && node !== 0) badSkin++;
      sum += wt;
    }
    if (Math.abs(sum - 1) > 1e-6) badSkin++;
  }
  expect({ badIndex, badNormal, badW, badSkin, badBranch, nonFinite }).toEqual({ badIndex: 0, badNormal: 0, badW: 0, badSkin: 0, badBranch: 0, nonFinite: 0 });
}

describe("buildTreeGeometry: bark", () => {
  const { skeleton: s, b } = handTree();
  const g = buildTreeGeometry(s);

  it("names its binding attributes", () => {
    expect(Object.values(BINDING_ATTRIBUTES)).toEqual(["branchIndex", "wVector", "skinNodes", "skinWeights", "leafFrame", "leafCoord"]);
  });

  it("uses 8/6/5/4 radial segments by level, never fewer than 3", () => {
    expect([0, 1, 2, 3, 4].map((l) => radialSegmentsFor(l))).toEqual([8, 6, 5, 4, 4]);
    expect([0, 1, 2, 3].map((l) => radialSegmentsFor(l, 3))).toEqual([3, 3, 3, 3]);
    expect(radialSegmentsFor(0, 12)).toBe(12);
  });

  it.each([
    [{}, 8, 0, true],
    [{ radialSegments: 12 }, 12, 0, true],
    [{ subdivisions: 2, capTips: false }, 8, 2, false],
    [{ radialSegments: 3, subdivisions: 1 }, 3, 1, true],
  ] as const)("counts vertices and indices first (options %j)", (opts, seg, subdiv, caps) => {
    const geo = buildTreeGeometry(s, opts);
    const e = expectedBarkCounts(s, seg, subdiv, caps);
    expect(geo.bark.positions.length / 3).toBe(e.v);
    expect(geo.bark.indices.length).toBe(e.idx);
    expect(geo.vertexCount).toBe(e.v + 4 * s.leafCount);
    checkCommon(geo.bark, s);
  });

  it("indices in range, unit normals, w in [0, 1], skin weights sum to 1 over valid nodes", () => {
    checkCommon(g.bark, s);
  });

  it("puts each ring at its node's radius around the node, normals pointing outward", () => {
    const m = g.bark;
    let checked = 0;
    for (let v = 0; v < m.positions.length / 3; v++) {
      const node = m.skinNodes[4 * v];
      if (m.skinWeights[4 * v] !== 1) continue;
      const d = sub(m.positions, v, s.nodePosition, node);
      const r = len(d);
      if (r < 1e-9) continue; // tip apex
      expect(r).toBeCloseTo(s.nodeRadius[node], 5);
      expect(dot(d, vec(m.normals, v)) / r).toBeGreaterThan(0.9);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("winds every triangle counter-clockwise about its vertex normals", () => {
    const m = g.bark;
    let bad = 0;
    for (let t = 0; t < m.indices.length; t += 3) {
      const [i0, i1, i2] = [m.indices[t], m.indices[t + 1], m.indices[t + 2]];
      const n = cross(sub(m.positions, i1, m.positions, i0), sub(m.positions, i2, m.positions, i0));
      const avg = [0, 1, 2].map((c) => m.normals[3 * i0 + c] + m.normals[3 * i1 + c] + m.normals[3 * i2 + c]);
      if (len(n) > 1e-12 && dot(n, avg) <= 0) bad++;
    }
    expect(bad).toBe(0);
  });

  it("duplicates the seam vertex (u 0 and 1 at one position) and runs v along the branch as ds / (2 pi r)", () => {
    const m = g.bark;
    const seg = radialSegmentsFor(0);
    // The trunk comes first: ring k starts at k * (seg + 1).
    for (let ring = 0; ring < s.branchNodeCount[b.trunk]; ring++) {
      const a = ring * (seg + 1), z = a + seg;
      expect(len(sub(m.positions, a, m.positions, z))).toBeLessThan(1e-6);
      expect(m.uvs[2 * a]).toBe(0);
      expect(m.uvs[2 * z]).toBe(1);
      if (ring > 0) {
        const prev = a - (seg + 1);
        const ds = len(sub(s.nodePosition, ring, s.nodePosition, ring - 1));
        const r = 0.5 * (s.nodeRadius[ring] + s.nodeRadius[ring - 1]);
        expect(m.uvs[2 * a + 1] - m.uvs[2 * prev + 1]).toBeCloseTo(ds / (2 * Math.PI * r), 4);
      }
    }
  });

  it("carries frames by parallel transport: a straight branch's rings do not twist", () => {
    const sb = new SkeletonBuilder();
    const t = sb.addBranch(-1, 0);
    for (let i = 0; i < 6; i++) sb.addNode(t, 0.1 * i, i, 0.05 * i, 0.1);
    const m = buildTreeGeometry(sb.build(), { capTips: false }).bark;
    const stride = 9;
    for (let ring = 1; ring < 6; ring++) {
      for (let j = 0; j < 8; j++) {
        const a = sub(m.positions, j, m.positions, 0 * j + 0), c = sub(m.positions, ring * stride + j, m.positions, ring * stride);
        // Same vertex pattern on every ring (relative to the ring's seam vertex).
        expect(len([a[0] - c[0], a[1] - c[1], a[2] - c[2]])).toBeLessThan(1e-5);
      }
    }
  });

  it("tilts normals of a tapered tube toward the tip: n.t = -dr/ds / sqrt(1 + (dr/ds)^2)", () => {
    const sb = new SkeletonBuilder();
    const t = sb.addBranch(-1, 0);
    for (let i = 0; i <= 4; i++) sb.addNode(t, 0, i, 0, 0.5 - 0.1 * i);
    const m = buildTreeGeometry(sb.build(), { capTips: false }).bark;
    for (let v = 0; v < m.positions.length / 3; v++) expect(m.normals[3 * v + 1]).toBeCloseTo(0.1 / Math.sqrt(1.01), 5);
  });

  it("keeps consecutive rings of a bent branch aligned (no twist beyond the bend)", () => {
    const m = g.bark;
    let worst = 1;
    const seg = radialSegmentsFor(1);
    // Branch `left` is a bent level-1 branch.
    let start = 0;
    for (let k = 0; k < b.left; k++) start += (s.branchNodeCount[k]) * (radialSegmentsFor(s.branchLevel[k]) + 1) + 1;
    for (let ring = 1; ring < s.branchNodeCount[b.left]; ring++) {
      const n0 = s.branchFirstNode[b.left] + ring - 1;
      for (let j = 0; j < seg; j++) {
        const d0 = sub(m.positions, start + (ring - 1) * (seg + 1) + j, s.nodePosition, n0);
        const d1 = sub(m.positions, start + ring * (seg + 1) + j, s.nodePosition, n0 + 1);
        worst = Math.min(worst, dot(d0, d1) / (len(d0) * len(d1)));
      }
    }
    // Chain bends by about 0.15 rad per segment at most; a twisted frame would reach much lower.
    expect(worst).toBeGreaterThan(Math.cos(0.35));
  });

  it("skin weights reproduce the ring centre, also between nodes (subdivisions)", () => {
    const m = buildTreeGeometry(s, { subdivisions: 3, capTips: false }).bark;
    let max = 0;
    for (let v = 0; v < m.positions.length / 3; v++) {
      const c = [0, 0, 0];
      let r = 0;
      for (let k = 0; k < 4; k++) {
        const node = m.skinNodes[4 * v + k], w = m.skinWeights[4 * v + k];
        for (let a = 0; a < 3; a++) c[a] += w * s.nodePosition[3 * node + a];
        r += w * s.nodeRadius[node];
      }
      max = Math.max(max, Math.abs(len(sub(m.positions, v, c, 0)) - r));
    }
    expect(max).toBeLessThan(1e-5);
  });

  it("w-vector (Habel 2009 §3): own level = x along the branch, ancestors = the attachment chain", () => {
    const m = g.bark;
    const base = branchWBase(s);
    // Level-3 twig: w = (x of left on trunk, x of leftTwig on left, x of leftLeafy on leftTwig, own x).
    expect(Array.from(base.subarray(4 * b.leftLeafy, 4 * b.leftLeafy + 4))).toEqual([
      s.branchParentX[b.left], s.branchParentX[b.leftTwig], s.branchParentX[b.leftLeafy], 0,
    ].map(Math.fround));
    for (let v = 0; v < m.positions.length / 3; v++) {
      const br = m.branchIndex[v];
      const level = s.branchLevel[br];
      // Own component = nodeX of the ring's node.
      const node = m.skinNodes[4 * v];
      expect(m.wVector[4 * v + level]).toBeCloseTo(s.nodeX[node], 6);
      for (let l = 0; l < level; l++) expect(m.wVector[4 * v + l]).toBe(base[4 * br + l]);
    }
  });

  it("w at a branch's base equals the parent's w at the attachment point (own level 0)", () => {
    const m = g.bark;
    const firstVertex = new Map<number, number>();
    for (let v = 0; v < m.positions.length / 3; v++) if (!firstVertex.has(m.branchIndex[v])) firstVertex.set(m.branchIndex[v], v);
    for (let br = 1; br < s.branchCount; br++) {
      const p = s.branchParent[br];
      const vb = firstVertex.get(br)!, vp = firstVertex.get(p)!;
      const expected = Array.from(m.wVector.subarray(4 * vp, 4 * vp + 4));
      expected[s.branchLevel[p]] = s.branchParentX[br]; // the parent's surface at the attachment
      expected[s.branchLevel[br]] = 0; // the child's own base
      expect(Array.from(m.wVector.subarray(4 * vb, 4 * vb + 4))).toEqual(expected.map(Math.fround));
    }
  });

  it("caps each tip with an apex on the tip node", () => {
    const m = g.bark;
    let apexes = 0;
    for (let v = 0; v < m.positions.length / 3; v++) {
      const node = m.skinNodes[4 * v];
      if (len(sub(m.positions, v, s.nodePosition, node)) < 1e-7) {
        expect(node).toBe(tipNode(s, m.branchIndex[v]));
        apexes++;
      }
    }
    expect(apexes).toBe(s.branchCount);
  });

  it("is deterministic", () => {
    const g2 = buildTreeGeometry(handTree().skeleton);
    expect(g2.bark.positions).toEqual(g.bark.positions);
    expect(g2.leaves!.positions).toEqual(g.leaves!.positions);
  });

  it("handles a branch deeper than 4 levels: its level 0..2 ancestors' components, its own x in component 3", () => {
    const sb = new SkeletonBuilder();
    let parent = -1;
    for (let l = 0; l < 6; l++) {
      const br = sb.addBranch(parent, 0.5);
      sb.addNode(br, l * 0.1, l, 0, 0.05);
      sb.addNode(br, l * 0.1 + 0.2, l + 1, 0.1, 0.04);
      parent = br;
    }
    const sk = sb.build();
    const geo = buildTreeGeometry(sk);
    checkCommon(geo.bark, sk);
    expect(geo.leaves).toBeNull();
    // The deepest branch's tip cap: at x = 1 along its own length (wSlot), so it bends along it.
    const last = geo.bark.positions.length / 3 - 1;
    expect(Array.from(geo.bark.wVector.subarray(4 * last, 4 * last + 4))).toEqual([0.5, 0.5, 0.5, 1]);
    expect(wSlot(5)).toBe(3);
    expect(wSlot(2)).toBe(2);
    // Every vertex of the level-5 branch: component 3 runs from 0 to 1 along it, the rest stay.
    const own: number[] = [];
    for (let i = 0; i < geo.bark.branchIndex.length; i++) {
      if (geo.bark.branchIndex[i] !== 5) continue;
      expect(Array.from(geo.bark.wVector.subarray(4 * i, 4 * i + 3))).toEqual([0.5, 0.5, 0.5]);
      own.push(geo.bark.wVector[4 * i + 3]);
    }
    expect(Math.min(...own)).toBe(0);
    expect(Math.max(...own)).toBe(1);
    const node = new Float64Array(4);
    nodeWVector(sk, sk.branchFirstNode[5] + 1, node);
    expect(Array.from(node)).toEqual([0.5, 0.5, 0.5, 1]);
  });
});

describe("buildTreeGeometry: leaves", () => {
  const { skeleton: s } = handTree();
  const m = buildTreeGeometry(s).leaves!;

  it("has one 4-vertex, 2-triangle card per leaf with valid binding", () => {
    expect(m.positions.length).toBe(12 * s.leafCount);
    expect(m.indices.length).toBe(6 * s.leafCount);
    checkCommon(m, s);
  });

  it("centres each card at leafCenter, spans leafSize along the axis, petiole at v = 0", () => {
    for (let i = 0; i < s.leafCount; i++) {
      const c = [0, 0, 0];
      for (let k = 0; k < 4; k++) for (let a = 0; a < 3; a++) c[a] += m.positions[3 * (4 * i + k) + a] / 4;
      expect(len(sub(c, 0, s.leafCenter, i))).toBeLessThan(1e-6);
      const size = s.leafSize[i];
      const axis = vec(s.leafAxis, i), normal = vec(s.leafNormal, i);
      for (let k = 0; k < 4; k++) {
        const v = 4 * i + k;
        const d = sub(m.positions, v, s.leafCenter, i);
        const along = dot(d, axis);
        expect(Math.abs(along)).toBeCloseTo(size / 2, 6);
        expect(Math.abs(dot(d, normal))).toBeLessThan(1e-6);
        // v = 0 on the petiole side, v = 1 at the tip.
        expect(m.uvs[2 * v + 1]).toBe(along < 0 ? 0 : 1);
        expect(vec(m.normals, v).map((x, a) => x - normal[a]).every((x) => Math.abs(x) < 1e-6)).toBe(true);
      }
      // Width: the two petiole corners are leafSize apart.
      expect(len(sub(m.positions, 4 * i, m.positions, 4 * i + 1))).toBeCloseTo(size, 6);
    }
  });

  it("winds cards counter-clockwise about the leaf normal, u growing to the right seen from the front", () => {
    for (let t = 0; t < m.indices.length; t += 3) {
      const [i0, i1, i2] = [m.indices[t], m.indices[t + 1], m.indices[t + 2]];
      const n = cross(sub(m.positions, i1, m.positions, i0), sub(m.positions, i2, m.positions, i0));
      expect(dot(n, vec(m.normals, i0))).toBeGreaterThan(0);
    }
    for (let i = 0; i < s.leafCount; i++) {
      // u grows along axis x normal (right, seen from the side the normal points to).
      const right = cross(vec(s.leafAxis, i), vec(s.leafNormal, i));
      const du = sub(m.positions, 4 * i + 1, m.positions, 4 * i);
      expect(m.uvs[2 * (4 * i + 1)] - m.uvs[2 * 4 * i]).toBe(1);
      expect(dot(du, right)).toBeGreaterThan(0);
    }
  });

  it("gives each leaf vertex its stipe direction, length and flutter coordinates (Habel 2009 §7.1); bark gets zeros", () => {
    for (let i = 0; i < s.leafCount; i++) {
      for (let k = 0; k < 4; k++) {
        const v = 4 * i + k;
        for (let c = 0; c < 3; c++) expect(m.leafFrame[4 * v + c]).toBeCloseTo(s.leafAxis[3 * i + c], 6);
        expect(m.leafFrame[4 * v + 3]).toBeCloseTo(s.leafSize[i], 6);
        // Along: 0 at the petiole edge, 1 at the tip; across: +-0.5 either side of the stipe.
        const center = vec(s.leafCenter, i), p = [m.positions[3 * v], m.positions[3 * v + 1], m.positions[3 * v + 2]];
        const d = [p[0] - center[0], p[1] - center[1], p[2] - center[2]];
        const along = dot(d, vec(s.leafAxis, i)) / s.leafSize[i] + 0.5;
        const across = dot(d, cross(vec(s.leafAxis, i), vec(s.leafNormal, i))) / s.leafSize[i];
        expect(m.leafCoord[2 * v + 1]).toBeCloseTo(along, 5);
        expect(m.leafCoord[2 * v]).toBeCloseTo(across, 5);
      }
    }
    const bark = buildTreeGeometry(s).bark;
    expect(bark.leafFrame.every((x) => x === 0)).toBe(true);
    expect(bark.leafCoord.every((x) => x === 0)).toBe(true);
  });

  it("binds each card to its branch at leafX: w own level = leafX, skin nodes around it", () => {
    const base = branchWBase(s);
    for (let i = 0; i < s.leafCount; i++) {
      const br = s.leafBranch[i];
      const level = s.branchLevel[br];
      for (let k = 0; k < 4; k++) {
        const v = 4 * i + k;
        expect(m.branchIndex[v]).toBe(br);
        expect(m.wVector[4 * v + level]).toBe(s.leafX[i]);
        for (let l = 0; l < level; l++) expect(m.wVector[4 * v + l]).toBe(base[4 * br + l]);
        // Interpolated node x equals leafX.
        let x = 0;
        for (let j = 0; j < 4; j++) x += m.skinWeights[4 * v + j] * s.nodeX[m.skinNodes[4 * v + j]];
        expect(x).toBeCloseTo(s.leafX[i], 5);
      }
    }
  });
});

describe("buildTreeGeometry at Habel 2009 scale", () => {
  it("builds a 1,573-branch, 10,080-leaf tree with valid binding", () => {
    const s = randomTree();
    const g = buildTreeGeometry(s);
    expect(g.leaves!.positions.length / 3).toBe(4 * s.leafCount);
    expect(g.vertexCount).toBe(expectedBarkCounts(s).v + 4 * s.leafCount);
    checkCommon(g.bark, s);
    checkCommon(g.leaves!, s);
  });
});
