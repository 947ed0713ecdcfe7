/** Hand-built skeletons and winds for the SPH-particles specs (not a spec itself). */
import { SkeletonBuilder, type TreeSkeleton } from "../../../app/tree/skeleton";
import type { WindVelocity } from "../../../app/animators/sph-particles/sph";

/** An upright trunk of `height` m and radius `radius` m (constant), from the origin. */
export function uprightTrunk(height = 1, radius = 0.1): TreeSkeleton {
  const b = new SkeletonBuilder();
  const t = b.addBranch(-1, 0);
  for (let i = 0; i <= 4; i++) b.addNode(t, 0, (height * i) / 4, 0, radius);
  return b.build();
}

/** A horizontal branch of `length` m and radius `radius` m along +x at height 0.5 m, clamped at x = 0 (the "trunk" of a one-branch tree). */
export function horizontalBranch(length = 1, radius = 0.02, tipRadius = radius): TreeSkeleton {
  const b = new SkeletonBuilder();
  const t = b.addBranch(-1, 0);
  for (let i = 0; i <= 4; i++) b.addNode(t, (length * i) / 4, 0.5, 0, radius + ((tipRadius - radius) * i) / 4);
  return b.build();
}

/** A 2 m trunk, a 1 m limb from its middle with five leaves, a bare 0.67 m whip of a twig (1.5 mm) off the limb. */
export function smallTree(trunkRadius = 0.08, twigRadius = 0.0015): TreeSkeleton {
  const b = new SkeletonBuilder();
  const t = b.addBranch(-1, 0);
  for (let i = 0; i <= 4; i++) b.addNode(t, 0, 0.5 * i, 0, trunkRadius * (1 - 0.15 * i));
  const limb = b.addBranch(t, 0.5, null, { branch: 0, node: 2 });
  b.addNode(limb, 0, 1.0, 0, 0.03);
  b.addNode(limb, 0.0, 1.3, 0.5, 0.022);
  b.addNode(limb, 0.0, 1.5, 1.0, 0.015);
  const twig = b.addBranch(limb, 0.5, null, { branch: limb, node: 1 });
  b.addNode(twig, 0.0, 1.3, 0.5, twigRadius);
  b.addNode(twig, 0.2, 1.6, 0.6, twigRadius * 0.8);
  b.addNode(twig, 0.35, 1.85, 0.65, twigRadius * 0.6);
  const leaf = (br: number, x: number, c: number[]) => b.addLeaf(br, x, c, [1, 0, 0], [0, 1, 0], 0.12);
  leaf(limb, 0.6, [0.08, 1.4, 0.62]);
  leaf(limb, 0.7, [-0.08, 1.45, 0.72]);
  leaf(limb, 0.8, [0.07, 1.5, 0.85]);
  leaf(limb, 0.9, [0.05, 1.52, 1.0]);
  leaf(limb, 1, [-0.05, 1.55, 1.02]);
  return b.build();
}

/** A uniform wind of (ux, uy, uz) m/s everywhere. */
export function uniformWind(ux: number, uy = 0, uz = 0): WindVelocity {
  return (_x, _y, _z, _t, out, o) => {
    out[o] = ux;
    out[o + 1] = uy;
    out[o + 2] = uz;
  };
}

/** A wind along +x rising linearly from 0 to `speed` m/s over `rise` seconds, then steady. */
export function rampedWind(speed: number, rise: number): WindVelocity {
  return (_x, _y, _z, t, out, o) => {
    out[o] = speed * Math.min(1, t / rise);
    out[o + 1] = 0;
    out[o + 2] = 0;
  };
}
