/** Hand-built skeletons for the mass-spring specs (not a spec itself). */
import { SkeletonBuilder, type TreeSkeleton } from "../../../app/tree/skeleton";

/** A 3 m trunk of 4 segments with two side branches (one bent at its joints) and a twig on one of them. */
export function smallTree(): TreeSkeleton {
  const b = new SkeletonBuilder();
  const t = b.addBranch(-1, 0);
  for (let i = 0; i <= 4; i++) b.addNode(t, 0.02 * Math.sin(i), 0.75 * i, 0, 0.12 - 0.02 * i);
  const a = b.addBranch(t, 0.5);
  b.addNode(a, 0.02 * Math.sin(2), 1.5, 0, 0.05);
  b.addNode(a, 0.5, 1.9, 0.05, 0.04);
  b.addNode(a, 1.0, 2.1, 0.1, 0.03);
  b.addNode(a, 1.4, 2.4, 0.1, 0.02);
  const c = b.addBranch(t, 0.75, null, { branch: 0, node: 3 });
  b.addNode(c, 0.02 * Math.sin(3), 2.25, 0, 0.04);
  b.addNode(c, -0.4, 2.6, 0.3, 0.03);
  b.addNode(c, -0.8, 2.9, 0.5, 0.02);
  const d = b.addBranch(a, 0.66, null, { branch: a, node: 2 });
  b.addNode(d, 1.0, 2.1, 0.1, 0.02);
  b.addNode(d, 1.1, 2.3, 0.5, 0.01);
  return b.build();
}

/**
 * A 3 m trunk of 4 segments and one long curving twig of `segments` joints from its third node:
 * with the paper's mass rule the twig's masses fall about twofold per joint towards the tip, the
 * chain the habel tree's slowest modes live in.
 */
export function twigChain(segments = 16): TreeSkeleton {
  const b = new SkeletonBuilder();
  const t = b.addBranch(-1, 0);
  for (let i = 0; i <= 4; i++) b.addNode(t, 0, 0.75 * i, 0, 0.12 - 0.02 * i);
  const a = b.addBranch(t, 0.75, null, { branch: 0, node: 3 });
  b.addNode(a, 0, 2.25, 0, 0.05);
  for (let i = 1; i <= segments; i++) {
    const s = i / segments;
    b.addNode(a, 2.5 * s, 2.25 + 1.2 * Math.sin(1.5 * s), 0.3 * s * s, 0.05 * (1 - 0.9 * s));
  }
  return b.build();
}

/**
 * The sympodial tree's trunk alone (assets/trees/sympodial.lsys at its default depth, seed 1): ten
 * internodes, each turned about 20° from the last in a plane that turns with them, so the trunk
 * spirals up 7.4 m. Where a chain curves, a segment's swing twists the frames of those above it.
 */
export function spiralTrunk(): TreeSkeleton {
  const nodes = [
    [0, 0, 0, 0.21], [0, 1.4, 0, 0.1907], [0, 2.584, 0.431, 0.1732], [0.388, 3.585, 0.795, 0.1576],
    [0.477, 4.432, 1.358, 0.1435], [0.242, 5.148, 1.883, 0.1308], [-0.215, 5.754, 2.211, 0.1194],
    [-0.75, 6.266, 2.282, 0.1091], [-1.232, 6.7, 2.115, 0.0998], [-1.573, 7.066, 1.779, 0.0915], [-1.731, 7.376, 1.363, 0.084],
  ];
  const b = new SkeletonBuilder();
  const t = b.addBranch(-1, 0);
  for (const [x, y, z, r] of nodes) b.addNode(t, x, y, z, r);
  return b.build();
}
