/**
 * Branch hierarchy of wood in separate parts (Habel 2009 §8: "just the geometric description"
 * turned into a hierarchy), where every branch is a part of its own: a tube that shares no
 * vertices with the others, as SpeedTree, EZ-Tree and our own exporter write them. Each part
 * becomes a branch: its centre line from slices along it (centre-line.ts), its base the end
 * nearest the wood already placed, its parent the part it grows from (grown outward from the
 * trunk, nearest first, like Prim's tree). Plain TypeScript over typed arrays: no Babylon.
 */
import { arcFraction, nearestOnLine } from "./polyline";
import { centreLine, type CentreLine } from "./centre-line";
import { nodeRadius } from "./constants";
import { EndGrid } from "./end-grid";
import { Geodesic } from "./geodesic";
import { CappedSkeletonBuilder } from "./levels";
import { meshGraph, meshParts, trianglesByPart, verticesByPart, type MeshGraph, type MeshParts, type PartsHierarchy, type WoodMesh } from "./mesh";

/** Parts reaching down to within this share of the wood's height of its lowest point stand on the ground: the trunk is one of them. */
const FOOT = 0.1;

/**
 * The trunk among separate parts: of the parts reaching down to the wood's foot (within FOOT of
 * its height from its lowest point), the one with the largest surface. Not merely the lowest
 * part: roots, a root flare or a low stub reach below the trunk's base, and taken for the trunk
 * they would put the whole tree one level down.
 */
function trunkPart(mesh: WoodMesh, partOfVertex: Int32Array, lines: readonly CentreLine[]): number {
  let low = Infinity, high = -Infinity;
  const P = mesh.positions, idx = mesh.indices;
  for (let i = 0; i < partOfVertex.length; i++) {
    if (partOfVertex[i] < 0) continue;
    low = Math.min(low, P[3 * i + 1]);
    high = Math.max(high, P[3 * i + 1]);
  }
  const area = new Float64Array(lines.length);
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2];
    const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
    area[partOfVertex[idx[t]]] += Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  }
  const foot = low + FOOT * (high - low);
  let trunk = -1;
  for (let p = 0; p < lines.length; p++) if (lines[p].lowY <= foot && (trunk < 0 || area[p] > area[trunk])) trunk = p;
  return Math.max(0, trunk);
}

/**
 * The branch hierarchy of wood made of separate parts, one branch each. The trunk is the largest
 * part standing on the ground (trunkPart); then, nearest first, each part joins the wood already placed at the end of its
 * centre line nearest to it. Levels past MAX_LEVELS hang off their level-3 ancestor, as the
 * L-system turtle does, with `branchOrigin` the node they physically grow from.
 */
export function extractFromParts(mesh: WoodMesh, known?: { parts: MeshParts; graph: MeshGraph }): PartsHierarchy {
  // The parts and the graph, when the caller has them already (extractHierarchy).
  const { count, partOfVertex, canon } = known?.parts ?? meshParts(mesh);
  if (count === 0) throw new RangeError("the wood has no triangles");
  const graph = known?.graph ?? meshGraph(mesh, canon), geo = new Geodesic(canon.length);
  const { start, order } = verticesByPart(partOfVertex, count), tris = trianglesByPart(mesh.indices, partOfVertex, count);
  const lines: CentreLine[] = [];
  for (let p = 0; p < count; p++) lines.push(centreLine(mesh.positions, order.subarray(start[p], start[p + 1]), tris.corners.subarray(3 * tris.start[p], 3 * tris.start[p + 1]), graph, geo));

  const trunk = trunkPart(mesh, partOfVertex, lines);

  // Prim: best[p * 2 + e] = how near end e of part p is to the placed wood (see place()).
  const best = new Float64Array(2 * count).fill(Infinity);
  const bestParent = new Int32Array(2 * count).fill(-1), bestSeg = new Int32Array(2 * count), bestF = new Float64Array(2 * count);
  const placed = new Uint8Array(count);
  const near = { d2: 0, seg: 0, f: 0 };
  const attachOrder: number[] = [];
  const baseEnd = new Uint8Array(count), parentOf = new Int32Array(count).fill(-1), seg = new Int32Array(count), segF = new Float64Array(count);
  // Where a part joins the wood is measured on the lines through its rings (CentreLine.rings): a
  // child's base is on a ring of its parent, which a slice's surface centroid misses where the
  // parent bends. The skeleton's nodes are the centroids.
  /** Whether the nearest point found on part p's line is within two base radii of p's base. */
  const nearBase = (p: number, at: { seg: number; f: number }): boolean => {
    const l = lines[p].rings, radii = lines[p].ringRadii, last = radii.length - 1;
    const j = 3 * at.seg, k = baseEnd[p] === 0 ? 0 : last;
    const x = l[j] + at.f * (l[j + 3] - l[j]) - l[3 * k], y = l[j + 1] + at.f * (l[j + 4] - l[j + 1]) - l[3 * k + 1], z = l[j + 2] + at.f * (l[j + 5] - l[j + 2]) - l[3 * k + 2];
    return Math.hypot(x, y, z) < 2 * radii[k];
  };
  // The parts' ends in a grid over the centre lines' extent: a placed part measures only the ends near it.
  let lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const l of lines) {
    for (let j = 0; j < l.rings.length; j += 3) {
      for (let c = 0; c < 3; c++) {
        lo[c] = Math.min(lo[c], l.rings[j + c]);
        hi[c] = Math.max(hi[c], l.rings[j + c]);
      }
    }
  }
  lo = lo.map((v) => v - 1e-6);
  const grid = new EndGrid(lo, Math.max(1e-6, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
  for (let q = 0; q < count; q++) grid.add(q, lines[q].rings);
  /** Measures end e of part q against placed part p. */
  const update = (p: number, q: number, e: number) => {
    const line = lines[p].rings, radii = lines[p].ringRadii, l = lines[q].rings;
    const o = e === 0 ? 0 : l.length - 3;
    nearestOnLine(line, l[o], l[o + 1], l[o + 2], near);
    // Distance in the candidate's radii (under 1: inside it), so a twig starting on a thin
    // branch is not given to a thick one it passes near. A candidate whose nearest point is its
    // own base is a sibling starting at the same point, not the branch both grow from (the
    // trunk has no siblings: roots leave it at its base).
    const r = Math.max(1e-9, radii[near.seg] + near.f * (radii[Math.min(radii.length - 1, near.seg + 1)] - radii[near.seg]));
    const d = Math.sqrt(near.d2) / r + (p !== trunk && nearBase(p, near) ? 1 : 0);
    if (d < best[2 * q + e]) {
      best[2 * q + e] = d;
      bestParent[2 * q + e] = p;
      bestSeg[2 * q + e] = near.seg;
      bestF[2 * q + e] = near.f;
    }
  };
  const place = (p: number) => {
    placed[p] = 1;
    attachOrder.push(p);
    grid.near(lines[p].rings, lines[p].ringRadii, (end) => {
      if (!placed[end >> 1]) update(p, end >> 1, end & 1);
    });
  };
  /** Every unplaced end against every placed part: for pieces far from everything placed so far. */
  const updateAll = () => {
    for (const p of attachOrder) for (let q = 0; q < count; q++) if (!placed[q]) for (let e = 0; e < 2; e++) update(p, q, e);
  };
  // The trunk's base is its lower end.
  {
    const l = lines[trunk].rings;
    baseEnd[trunk] = l[1] <= l[l.length - 2] ? 0 : 1;
  }
  place(trunk);
  let measuredAll = false;
  for (let k = 1; k < count; k++) {
    let pick = -1, end = 0, d = Infinity;
    for (let q = 0; q < count; q++) {
      if (placed[q]) continue;
      for (let e = 0; e < 2; e++) {
        if (best[2 * q + e] < d) {
          d = best[2 * q + e];
          pick = q;
          end = e;
        }
      }
    }
    if (pick < 0) {
      // Nothing unplaced is near the placed wood: measure the far pieces against all of it.
      if (measuredAll) throw new RangeError(`part ${k} of the wood cannot be placed (its centre line is not finite)`);
      updateAll();
      measuredAll = true;
      k--;
      continue;
    }
    measuredAll = false;
    baseEnd[pick] = end;
    parentOf[pick] = bestParent[2 * pick + end];
    seg[pick] = bestSeg[2 * pick + end];
    segF[pick] = bestF[2 * pick + end];
    place(pick);
  }

  // Branches in placing order: parents before children. Nodes from the base end.
  const branchOfPart = new Int32Array(count);
  const builder = new CappedSkeletonBuilder();
  const nodeOrder = (p: number, k: number) => (baseEnd[p] === 0 ? k : lines[p].radii.length - 1 - k);
  for (const p of attachOrder) {
    const line = lines[p], n = line.radii.length;
    let b: number;
    if (p === trunk) b = builder.addTrunk();
    else {
      const q = parentOf[p], ql = lines[q];
      // Where along the parent (its own base-to-tip order), as a fraction of its arc length.
      const qn = ql.radii.length, fromBase = baseEnd[q] === 0 ? seg[p] + segF[p] : qn - 1 - (seg[p] + segF[p]);
      b = builder.addChild(branchOfPart[q], arcFraction(ql.rings, seg[p], segF[p], baseEnd[q] === 1), Math.round(fromBase));
    }
    branchOfPart[p] = b;
    for (let k = 0; k < n; k++) {
      const j = nodeOrder(p, k);
      builder.addNode(b, line.nodes[3 * j], line.nodes[3 * j + 1], line.nodes[3 * j + 2], nodeRadius(line.radii[j]));
    }
  }
  const vertexBranch = new Int32Array(partOfVertex.length);
  for (let i = 0; i < vertexBranch.length; i++) vertexBranch[i] = partOfVertex[i] >= 0 ? branchOfPart[partOfVertex[i]] : -1;
  return { skeleton: builder.build(), vertexBranch, parts: count };
}
