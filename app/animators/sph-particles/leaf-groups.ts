/**
 * A big crown's leaves as fewer leaf particles. The paper puts a particle at every leaf (§2); the
 * Habel-scale tree has 10,000 leaves, and each leaf particle costs two kernel scans of the air per
 * SPH substep. Under a budget, each branch's leaves (in order along it) go in groups of g
 * consecutive leaves, one leaf particle per group at their mean centre, its size √(Σ size²) (the
 * leaves' area, so their mass) and its weight g (their drag and the pull that tears them,
 * ParticleTreeSettings.leafWeight). Every leaf card still shows, riding on its group's particle.
 * Plain TypeScript, no Babylon.
 */
import type { TreeSkeleton } from "../../tree/skeleton";

const { ceil, sqrt, hypot } = Math;

export interface LeafGroups {
  /** The skeleton with one leaf per group (the same skeleton when no grouping was needed). */
  readonly skeleton: TreeSkeleton;
  /** Group of every leaf of the original skeleton. */
  readonly groupOf: Int32Array;
  /** Leaves in every group. */
  readonly weight: Float64Array;
  /** Leaves per group at most (1: no grouping). */
  readonly perGroup: number;
}

/** Groups the skeleton's leaves so that there are at most `budget` groups (at least one leaf per group). */
export function groupLeaves(s: TreeSkeleton, budget: number): LeafGroups {
  if (!(Number.isFinite(budget) && budget >= 1)) throw new RangeError(`leaf particle budget must be at least 1; got ${budget}`);
  const n = s.leafCount;
  if (n <= budget) {
    const groupOf = new Int32Array(n);
    for (let l = 0; l < n; l++) groupOf[l] = l;
    return { skeleton: s, groupOf, weight: new Float64Array(n).fill(1), perGroup: 1 };
  }
  const g = ceil(n / budget);
  // Each branch's leaves in order along it.
  const byBranch: number[][] = Array.from({ length: s.branchCount }, () => []);
  for (let l = 0; l < n; l++) byBranch[s.leafBranch[l]].push(l);
  const groups: number[][] = [];
  for (const list of byBranch) {
    list.sort((a, b) => s.leafX[a] - s.leafX[b] || a - b);
    for (let i = 0; i < list.length; i += g) groups.push(list.slice(i, i + g));
  }
  const m = groups.length;
  const groupOf = new Int32Array(n), weight = new Float64Array(m);
  const branch = new Int32Array(m), x = new Float32Array(m), center = new Float32Array(3 * m);
  const normal = new Float32Array(3 * m), axis = new Float32Array(3 * m), size = new Float32Array(m);
  groups.forEach((members, k) => {
    weight[k] = members.length;
    branch[k] = s.leafBranch[members[0]];
    let area = 0;
    const nrm = [0, 0, 0];
    for (const l of members) {
      groupOf[l] = k;
      x[k] += s.leafX[l] / members.length;
      for (let a = 0; a < 3; a++) {
        center[3 * k + a] += s.leafCenter[3 * l + a] / members.length;
        nrm[a] += s.leafNormal[3 * l + a];
      }
      area += s.leafSize[l] ** 2;
    }
    size[k] = sqrt(area);
    const first = members[0], len = hypot(nrm[0], nrm[1], nrm[2]);
    for (let a = 0; a < 3; a++) {
      normal[3 * k + a] = len > 1e-6 ? nrm[a] / len : s.leafNormal[3 * first + a];
      axis[3 * k + a] = s.leafAxis[3 * first + a];
    }
  });
  const skeleton: TreeSkeleton = { ...s, leafCount: m, leafBranch: branch, leafX: x, leafCenter: center, leafNormal: normal, leafAxis: axis, leafSize: size };
  return { skeleton, groupOf, weight, perGroup: g };
}
