/**
 * Akagi and Kitajima §2, "Breaking conditions of a tree" (eqs. 9-10): links strained past their
 * limits are erased, a central-axis link goes when half the links around it are gone, and what
 * lost its path to the root is a fallen piece. Plain TypeScript over typed arrays, no Babylon.
 *
 * Eq. 9's strain d = |x_j - x_i| / L; eq. 10 erases the link when d ≥ e or d ≤ c. A joint's central
 * link has no ring links around it: its bending is carried by eq. 6 (G_b = c E I / L³ with the base
 * node's c, particle-tree.ts's rootCell), so its strain is the outer fibre's,
 * M r / (E I) = G_b |C| L r / (E I) = c |C| r / L², C eq. 6's offset (termBendStrain: c r / L²),
 * held to the same limit. Connectivity: union-find over the unbroken links from the anchor.
 */
import { AXIS, BONE, type ParticleTree } from "./particle-tree";
import { restoringOffset, termActive } from "./elasticity";

const { sqrt } = Math;

export interface BreakCounts {
  brokenLinks: number;
  /** Pieces cut off the tree that hold wood (a bone particle). */
  brokenBranches: number;
  /** Leaves whose petiole broke. */
  fallenLeaves: number;
}

export class TreeBreaking {
  /** 1 where the particle still hangs on the root through unbroken links. */
  readonly attached: Uint8Array;
  /** Component of every particle (a representative particle). */
  readonly piece: Int32Array;
  readonly counts: BreakCounts = { brokenLinks: 0, brokenBranches: 0, fallenLeaves: 0 };
  private readonly aroundBroken: Int32Array;
  private readonly c = new Float64Array(3);

  constructor(readonly tree: ParticleTree) {
    this.attached = new Uint8Array(tree.count).fill(1);
    this.piece = new Int32Array(tree.count);
    this.aroundBroken = new Int32Array(tree.linkCount);
    this.connect();
  }

  /** Erases the links past their limits at positions x (eq. 10); returns how many went. Recounts the pieces when any did. */
  check(x: Float64Array): number {
    const tr = this.tree;
    let erased = 0;
    for (let l = 0; l < tr.linkCount; l++) {
      if (tr.broken[l]) continue;
      const a = tr.linkA[l], b = tr.linkB[l];
      const dx = x[3 * b] - x[3 * a], dy = x[3 * b + 1] - x[3 * a + 1], dz = x[3 * b + 2] - x[3 * a + 2];
      const d = sqrt(dx * dx + dy * dy + dz * dz) / tr.restLength[l]; // eq. 9
      if (d >= tr.stretchLimit[l] || d <= tr.compressLimit[l]) {
        tr.broken[l] = 1; // eq. 10
        erased++;
      }
    }
    for (let t = 0; t < tr.termCount; t++) {
      const perOffset = tr.termBendStrain[t];
      if (!(perOffset > 0) || !termActive(tr, t)) continue;
      restoringOffset(tr, t, x, this.c);
      const l = tr.termLink[t];
      const strain = sqrt(this.c[0] ** 2 + this.c[1] ** 2 + this.c[2] ** 2) * perOffset;
      if (strain >= tr.stretchLimit[l] - 1) {
        tr.broken[l] = 1;
        erased++;
      }
    }
    // §2: a central-axis link goes when half the links around it are gone.
    const ab = this.aroundBroken;
    ab.fill(0);
    for (let l = 0; l < tr.linkCount; l++) if (tr.broken[l] && tr.aroundOf[l] >= 0) ab[tr.aroundOf[l]]++;
    for (let l = 0; l < tr.linkCount; l++) {
      if (tr.linkKind[l] !== AXIS || tr.broken[l] || tr.aroundCount[l] === 0) continue;
      if (2 * ab[l] >= tr.aroundCount[l]) {
        tr.broken[l] = 1;
        erased++;
      }
    }
    if (erased > 0) this.connect();
    return erased;
  }

  /** Union-find over the unbroken links: attached, pieces and counts. */
  connect(): void {
    const tr = this.tree, parent = this.piece;
    for (let i = 0; i < tr.count; i++) parent[i] = i;
    const find = (i: number): number => {
      while (parent[i] !== i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
      }
      return i;
    };
    let brokenLinks = 0;
    // The pinned particles are all in the ground: one piece with the anchor.
    for (let i = 0; i < tr.count; i++) if (tr.pinned[i] && i !== tr.anchor) parent[find(i)] = find(tr.anchor);
    for (let l = 0; l < tr.linkCount; l++) {
      if (tr.broken[l]) {
        brokenLinks++;
        continue;
      }
      const a = find(tr.linkA[l]), b = find(tr.linkB[l]);
      if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
    }
    const root = find(tr.anchor);
    const woodPieces = new Set<number>();
    for (let i = 0; i < tr.count; i++) {
      const r = find(i);
      parent[i] = r;
      this.attached[i] = r === root || tr.pinned[i] ? 1 : 0;
      if (!this.attached[i] && tr.type[i] === BONE) woodPieces.add(r);
    }
    let fallenLeaves = 0;
    for (let l = 0; l < tr.leafLink.length; l++) if (tr.broken[tr.leafLink[l]]) fallenLeaves++;
    this.counts.brokenLinks = brokenLinks;
    this.counts.brokenBranches = woodPieces.size;
    this.counts.fallenLeaves = fallenLeaves;
  }

  /** Every link back (the "Restore tree" command's physics). */
  restore(): void {
    this.tree.broken.fill(0);
    this.connect();
  }
}
