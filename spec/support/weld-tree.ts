/**
 * Our own bark welded into ONE mesh, for the tests and benchmarks of the welded extraction
 * (app/tree/extract/welded.ts) and of the welded sample model (spec/tree/model-writer.spec.ts
 * writes it): trunk and branches sharing vertices, as a model made in one piece has them.
 */
import type { WoodMesh } from "../../app/tree/extract";
import type { MeshArrays } from "../../app/tree/geometry";
import type { TreeSkeleton } from "../../app/tree/skeleton";

/**
 * Our own bark (buildTreeGeometry's, one tube per branch) as ONE welded mesh: each branch's base
 * ring is replaced by the vertices of the tube it grows from (branchOrigin's branch) nearest to
 * where that ring meets it (the ring pushed out along the branch by the parent's radius), so the
 * branch shares their indices. Triangles that collapse are dropped; the replaced vertices stay in
 * `positions`, used by no triangle (the vertex order, and so the bark's own attributes, still
 * line up). Deterministic.
 */
export function weldTree(s: TreeSkeleton, bark: MeshArrays): WoodMesh {
  const P = bark.positions, BI = bark.branchIndex, SN = bark.skinNodes, SW = bark.skinWeights, idx = bark.indices;
  const n = P.length / 3, nb = s.branchCount;
  // Vertices of each branch (counting sort).
  const start = new Int32Array(nb + 1);
  for (let v = 0; v < n; v++) {
    const b = Math.round(BI[v]);
    if (!(b >= 0 && b < nb)) throw new RangeError(`bark vertex ${v} is on branch ${BI[v]}; the skeleton has ${nb}`);
    start[b + 1]++;
  }
  for (let b = 0; b < nb; b++) start[b + 1] += start[b];
  const fill = start.slice(0, nb), byBranch = new Int32Array(n);
  for (let v = 0; v < n; v++) byBranch[fill[Math.round(BI[v])]++] = v;
  const remap = new Int32Array(n);
  for (let v = 0; v < n; v++) remap[v] = v;
  const np = s.nodePosition;
  for (let b = 1; b < nb; b++) {
    const first = s.branchFirstNode[b];
    const o = s.branchOrigin[b] >= 0 ? s.branchOrigin[b] : s.nodeParent[first];
    if (o < 0) continue;
    const pb = s.nodeBranch[o];
    let tx = np[3 * first + 3] - np[3 * first], ty = np[3 * first + 4] - np[3 * first + 1], tz = np[3 * first + 5] - np[3 * first + 2];
    const tl = Math.hypot(tx, ty, tz) || 1;
    const push = s.nodeRadius[o] / tl;
    tx *= push; ty *= push; tz *= push;
    let ring = 0;
    for (let k = start[b]; k < start[b + 1]; k++) {
      const v = byBranch[k];
      // The base ring: the vertices skinned to the base node alone.
      if (SN[4 * v] !== first || SW[4 * v] !== 1) continue;
      ring++;
      const qx = P[3 * v] + tx, qy = P[3 * v + 1] + ty, qz = P[3 * v + 2] + tz;
      let best = -1, bestD2 = Infinity;
      for (let j = start[pb]; j < start[pb + 1]; j++) {
        const u = byBranch[j];
        if (remap[u] !== u) continue; // the parent's own base ring, itself replaced
        const dx = P[3 * u] - qx, dy = P[3 * u + 1] - qy, dz = P[3 * u + 2] - qz;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < bestD2) {
          bestD2 = d2;
          best = u;
        }
      }
      if (best >= 0) remap[v] = best;
    }
    if (ring === 0) throw new RangeError(`branch ${b} has no base ring in the bark: weldTree needs the bark buildTreeGeometry makes for this skeleton`);
  }
  let kept = 0;
  const out = new Uint32Array(idx.length);
  for (let t = 0; t < idx.length; t += 3) {
    const a = remap[idx[t]], b = remap[idx[t + 1]], c = remap[idx[t + 2]];
    if (a === b || b === c || a === c) continue;
    out[kept++] = a;
    out[kept++] = b;
    out[kept++] = c;
  }
  return { positions: P, indices: out.slice(0, kept) };
}
