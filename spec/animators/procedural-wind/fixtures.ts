/** A hand-built four-level tree for the procedural-wind specs. */
import { SkeletonBuilder, type TreeSkeleton } from "../../../app/tree/skeleton";

/**
 * Trunk 6 m tall along +y; four first-level branches pointing +x, -x, +z, -z (outward and up);
 * on each a second-level branch, on each of those a third-level twig. Branch indices: 0 trunk,
 * then per side i (0: +x, 1: -x, 2: +z, 3: -z): 1 + 3i level 1, 2 + 3i level 2, 3 + 3i level 3.
 */
export function fourLevelTree(): TreeSkeleton {
  const sb = new SkeletonBuilder();
  const trunk = sb.addBranch(-1, 0);
  for (let i = 0; i <= 4; i++) sb.addNode(trunk, 0, 1.5 * i, 0, 0.25 - 0.04 * i);
  const sides = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  sides.forEach(([dx, dz], i) => {
    const x = 0.5 + 0.1 * i;
    const y = 6 * x;
    const b1 = sb.addBranch(trunk, x);
    for (let k = 0; k <= 2; k++) sb.addNode(b1, dx * 1.25 * k, y + 0.6 * k, dz * 1.25 * k, 0.08 - 0.025 * k);
    // Second level leaves the first at x = 0.5, sideways and up.
    const b2 = sb.addBranch(b1, 0.5);
    const ox = dx * 1.25, oy = y + 0.6, oz = dz * 1.25;
    for (let k = 0; k <= 2; k++) sb.addNode(b2, ox + (dx - dz) * 0.4 * k, oy + 0.3 * k, oz + (dz + dx) * 0.4 * k, 0.03 - 0.008 * k);
    const b3 = sb.addBranch(b2, 0.5);
    const px = ox + (dx - dz) * 0.4, py = oy + 0.3, pz = oz + (dz + dx) * 0.4;
    for (let k = 0; k <= 1; k++) sb.addNode(b3, px + dx * 0.4 * k, py + 0.2 * k, pz + dz * 0.4 * k, 0.012 - 0.006 * k);
  });
  return sb.build();
}
