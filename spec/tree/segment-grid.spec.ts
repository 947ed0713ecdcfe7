/**
 * The segment grid gives what the brute-force scan over every branch gives (nearestOnLine in
 * branch order, the first of equals kept), for points near the tree, on its nodes (where two
 * segments meet: ties), far outside it, and for a tree with one node per branch somewhere.
 */
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { Rng } from "../../app/math/rng";
import { nearestOnLine } from "../../app/tree/extract/polyline";
import { SegmentGrid, type NearestOnSkeleton } from "../../app/tree/extract/segment-grid";

function bruteForce(pos: ArrayLike<number>, first: ArrayLike<number>, count: ArrayLike<number>, x: number, y: number, z: number): NearestOnSkeleton {
  const near = { d2: 0, seg: 0, f: 0 };
  const best = { d2: Infinity, branch: 0, seg: 0, f: 0 };
  for (let b = 0; b < count.length; b++) {
    nearestOnLine(pos, x, y, z, near, first[b], count[b]);
    if (near.d2 < best.d2) Object.assign(best, { d2: near.d2, branch: b, seg: near.seg, f: near.f });
  }
  return best;
}

describe("SegmentGrid", () => {
  for (const name of ["habel", "sympodial", "demo"]) {
    it(`${name}: the same nearest branch, segment, fraction and distance as every segment scanned`, () => {
      const p = TREE_PRESETS.find((t) => t.name === name)!;
      const s = grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1 });
      const grid = new SegmentGrid(s.nodePosition, s.branchFirstNode, s.branchNodeCount);
      const rng = new Rng(4);
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < s.nodePosition.length; i++) {
        lo[i % 3] = Math.min(lo[i % 3], s.nodePosition[i]);
        hi[i % 3] = Math.max(hi[i % 3], s.nodePosition[i]);
      }
      const points: number[][] = [];
      // In the tree's box and a little around it; far outside it; on its nodes (two segments, or two branches, equally near).
      for (let k = 0; k < 400; k++) points.push([0, 1, 2].map((c) => lo[c] - 0.2 * (hi[c] - lo[c]) + 1.4 * (hi[c] - lo[c]) * rng.next()));
      for (let k = 0; k < 20; k++) points.push([0, 1, 2].map((c) => (rng.next() - 0.5) * 50 * (hi[c] - lo[c] + 1)));
      const nodes = s.nodePosition.length / 3;
      for (let j = 0; j < nodes; j += Math.ceil(nodes / 60)) points.push([s.nodePosition[3 * j], s.nodePosition[3 * j + 1], s.nodePosition[3 * j + 2]]);
      const out = { d2: 0, branch: 0, seg: 0, f: 0 };
      const wrong: string[] = [];
      for (const [x, y, z] of points) {
        const want = bruteForce(s.nodePosition, s.branchFirstNode, s.branchNodeCount, x, y, z);
        grid.nearest(x, y, z, out);
        if (out.d2 !== want.d2 || out.branch !== want.branch || out.seg !== want.seg || out.f !== want.f) wrong.push(`(${x}, ${y}, ${z}): grid ${JSON.stringify(out)}, scan ${JSON.stringify(want)}`);
      }
      expect(points.length).toBeGreaterThan(450);
      expect(wrong.slice(0, 5)).toEqual([]);
    });
  }

  it("branches of a single node have no segment; a skeleton with none answers Infinity", () => {
    const pos = new Float64Array([0, 0, 0, 0, 1, 0, 5, 5, 5, 1, 1, 0, 2, 1, 0]);
    const grid = new SegmentGrid(pos, [0, 2, 3], [2, 1, 2]);
    const out = { d2: 0, branch: 0, seg: 0, f: 0 };
    expect(grid.nearest(5, 5, 5, out)).toMatchObject(bruteForce(pos, [0, 2, 3], [2, 1, 2], 5, 5, 5));
    expect(grid.nearest(1.5, 1.2, 0, out)).toMatchObject({ branch: 2, seg: 0, f: 0.5 });
    expect(new SegmentGrid(pos, [2], [1]).nearest(0, 0, 0, out).d2).toBe(Infinity);
  });
});
