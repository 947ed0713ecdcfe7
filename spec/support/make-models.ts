/**
 * Synthetic tree models written as other people's tools write them, with a
 * KNOWN branch hierarchy: a trunk with `children` branches per branch, `levels` levels in all
 * (trunk included), each branch a tapered tube closed at its tip. The variants are the ways such
 * files come: no materials at all; one object per branch, all the wood in one object, or one
 * welded mesh; leaves as one mesh, as one object per leaf, or none; object names that say what a
 * part is, neutral ones ("Object.001") with only the leaves named, neutral ones everywhere, or
 * no names at all (no `o` line: one unnamed mesh); Y-up in metres or Z-up in centimetres.
 *
 * Written independently of the sandbox's own tree builder (tree/geometry.ts), so the importer is
 * tested on tubes it did not make: fewer sides, rings about a diameter apart, child tubes
 * starting inside their parent (separate parts) or sharing the parent's vertices (welded), quads
 * where a tube has them. Deterministic (a seeded mulberry32).
 */

/** How the wood is written ("left-out": not at all, as an export of the crown alone). */
export type WoodLayout = "per-branch" | "one-object" | "welded" | "left-out";
/** How the leaves are written. */
export type LeafLayout = "none" | "one-mesh" | "per-leaf";
/**
 * What the objects are called: "telling" (trunk, branch.001, leaves / leaf.001), "neutral"
 * (the wood "Object.001"..., the leaves "leaves" / "leaf.001"), "anonymous" (everything
 * "Object.NNN": only shapes tell), "none" (no `o` lines: the whole file is one unnamed mesh).
 */
export type Naming = "telling" | "neutral" | "anonymous" | "none";

export interface TreeModelSpec {
  /** Branches growing from each branch (the last level has none). */
  children: number;
  /** Levels, the trunk's included (2 to 4: the sandbox's MAX_LEVELS). */
  levels: number;
  wood: WoodLayout;
  leaves: LeafLayout;
  naming: Naming;
  /** Leaves on each branch of the last level. */
  leavesPerTwig?: number;
  /** Written Z-up (x, -z, y) instead of Y-up. */
  zUp?: boolean;
  /** File units per metre (100: centimetres). */
  unitsPerMetre?: number;
  /** Trunk height, metres. */
  height?: number;
  seed?: number;
  /** Children leave their parent all at one height (a whorl) rather than spread along it. */
  whorl?: boolean;
  /** Every branch ends in a fork: its children start at its tip (a sympodial tree, a dead tree's limbs). */
  forks?: boolean;
  /** Where a child tube starts: on its parent's axis (inside it, the default) or on its surface. */
  baseAt?: "axis" | "surface";
  /**
   * Roots: short tubes from the trunk's foot, outward and down to below its base (a dead tree's,
   * a bare tree's). Each is a part of the wood of its own, a child of the trunk.
   */
  roots?: number;
  /** Sides of the trunk's tube (the branches have 7): a trunk modelled finer than its limbs. */
  trunkSides?: number;
}

export interface MadeModel {
  /** The OBJ text (no mtllib, no usemtl: no materials at all). */
  obj: string;
  /** Branches made (trunk and roots included) and levels. */
  branches: number;
  levels: number;
  /** Height in metres: from the lowest point of the wood and leaves written to the highest. */
  height: number;
  /** Leaf cards made (each a separate quad). */
  leaves: number;
  /** Triangles of the wood and of the leaves, as a loader fan-triangulates them. */
  woodTriangles: number;
  leafTriangles: number;
  /** Object names of the wood and of the leaves, in the file's order (empty with naming "none"). */
  woodObjects: string[];
  leafObjects: string[];
}

type V3 = [number, number, number];

interface Branch {
  level: number;
  parent: number;
  base: V3;
  dir: V3;
  length: number;
  /** Radius at the base and at the tip. */
  r0: number;
  r1: number;
}

const SIDES = 7;
const GOLDEN = Math.PI * (3 - Math.sqrt(5));

/** A tree model as OBJ text; see the file comment. */
export function makeTreeModel(spec: TreeModelSpec): MadeModel {
  if (!(spec.levels >= 1 && spec.levels <= 4)) throw new RangeError(`levels is 1 to 4; got ${spec.levels}`);
  const rnd = mulberry32(spec.seed ?? 7);
  const height = spec.height ?? 6;
  const branches: Branch[] = [{ level: 0, parent: -1, base: [0, 0, 0], dir: norm([0.03, 1, 0.02]), length: height, r0: 0.045 * height, r1: 0.012 * height }];
  for (let k = 0; k < (spec.roots ?? 0); k++) {
    const az = (2 * Math.PI * (k + 0.3 * rnd())) / (spec.roots ?? 1);
    const t0 = branches[0];
    const dir = norm([Math.cos(az), -0.45, Math.sin(az)]);
    branches.push({ level: 1, parent: 0, base: [0, 0.05 * height, 0], dir, length: 0.14 * height, r0: 0.6 * t0.r0, r1: 0.15 * t0.r0 });
  }
  for (let b = 0; b < branches.length; b++) {
    const p = branches[b];
    if (p.level + 1 >= spec.levels || (b > 0 && b <= (spec.roots ?? 0))) continue;
    const [u, v] = perpendiculars(p.dir);
    for (let k = 0; k < spec.children; k++) {
      const t = spec.forks ? 0.97 : spec.whorl ? 0.7 : 0.3 + (0.6 * (k + 0.5)) / spec.children;
      const az = k * GOLDEN * 2.3 + b + 0.3 * rnd();
      const tilt = (((spec.forks ? 30 : 45) + 12 * rnd()) * Math.PI) / 180;
      const side = add(scale(u, Math.cos(az)), scale(v, Math.sin(az)));
      const dir = norm(add(scale(p.dir, Math.cos(tilt)), scale(side, Math.sin(tilt))));
      const rAt = p.r0 + t * (p.r1 - p.r0);
      const base = add(p.base, scale(p.dir, t * p.length));
      branches.push({
        level: p.level + 1, parent: b, base: spec.baseAt === "surface" ? add(base, scale(side, rAt)) : base, dir,
        length: p.length * (spec.forks ? 0.7 : 0.5 - 0.12 * t), r0: (spec.forks ? 0.9 : 0.6) * rAt, r1: 0.22 * rAt,
      });
    }
  }

  // Wood: one tube per branch, rings about a diameter apart, closed by a tip vertex.
  const w = new Writer();
  const tubes: { rings: number[][]; tip: number }[] = [];
  for (let b = 0; b < branches.length; b++) {
    const br = branches[b];
    const [u, v] = perpendiculars(br.dir);
    const sides = b === 0 ? spec.trunkSides ?? SIDES : SIDES;
    const nRings = Math.max(3, Math.min(14, Math.round(br.length / (2 * br.r0)) + 1));
    const rings: number[][] = [];
    for (let j = 0; j < nRings; j++) {
      // The last ring a little short of the tip, which closes the tube.
      const s = (j / (nRings - 1)) * 0.96;
      const c = add(br.base, scale(br.dir, s * br.length));
      const r = br.r0 + s * (br.r1 - br.r0);
      const ring: number[] = [];
      for (let k = 0; k < sides; k++) {
        const a = (2 * Math.PI * k) / sides;
        ring.push(w.vertex(add(c, add(scale(u, r * Math.cos(a)), scale(v, r * Math.sin(a))))));
      }
      rings.push(ring);
    }
    const tip = w.vertex(add(br.base, scale(br.dir, br.length)));
    tubes.push({ rings, tip });
  }
  if (spec.wood === "welded") {
    // Each child's base ring replaced by the parent's vertices nearest to where it meets the
    // parent's surface: the child shares them, as a mesh modelled in one piece does.
    for (let b = 1; b < branches.length; b++) {
      const br = branches[b], parent = tubes[br.parent];
      const pr = branches[br.parent];
      const rAt = pr.r0 + 0.5 * (pr.r1 - pr.r0);
      const candidates = parent.rings.flat();
      const ring = tubes[b].rings[0];
      for (let k = 0; k < ring.length; k++) {
        const q = add(w.positions[ring[k]], scale(br.dir, rAt));
        let best = candidates[0], bestD = Infinity;
        for (const c of candidates) {
          const d = dist2(w.positions[c], q);
          if (d < bestD) { bestD = d; best = c; }
        }
        ring[k] = best;
      }
    }
  }
  const woodFaces: number[][][] = [];
  for (let b = 0; b < branches.length; b++) {
    const { rings, tip } = tubes[b];
    const faces: number[][] = [], sides = rings[0].length;
    for (let j = 0; j + 1 < rings.length; j++) {
      for (let k = 0; k < sides; k++) {
        const a = rings[j][k], bb = rings[j][(k + 1) % sides], c = rings[j + 1][(k + 1) % sides], d = rings[j + 1][k];
        faces.push(...quadOrTriangles([a, bb, c, d], spec.wood === "welded"));
      }
    }
    const last = rings[rings.length - 1];
    for (let k = 0; k < sides; k++) faces.push([last[k], last[(k + 1) % sides], tip]);
    woodFaces.push(faces);
  }

  // Leaves: quads on the branches of the last level, each a piece of its own a little off the bark.
  const leafFaces: number[][] = [];
  const perTwig = spec.leaves === "none" ? 0 : spec.leavesPerTwig ?? 6;
  for (const br of branches) {
    if (br.level !== spec.levels - 1) continue;
    const [u, v] = perpendiculars(br.dir);
    for (let k = 0; k < perTwig; k++) {
      const t = 0.35 + (0.6 * (k + 0.5)) / perTwig;
      const az = 2 * Math.PI * rnd();
      const out = add(scale(u, Math.cos(az)), scale(v, Math.sin(az)));
      const r = br.r0 + t * (br.r1 - br.r0);
      const stalk = add(add(br.base, scale(br.dir, t * br.length)), scale(out, r + 0.02));
      // Along the leaf: outward and a little along the branch; across it: round the branch.
      const along = norm(add(out, scale(br.dir, 0.5)));
      const across = norm(cross(along, add(br.dir, scale(out, 0.3 * (rnd() - 0.5)))));
      const len = 0.16 + 0.06 * rnd(), half = 0.045 + 0.02 * rnd();
      const a = w.vertex(add(stalk, scale(across, -half)));
      const b = w.vertex(add(stalk, scale(across, half)));
      const c = w.vertex(add(add(stalk, scale(along, len)), scale(across, half)));
      const d = w.vertex(add(add(stalk, scale(along, len)), scale(across, -half)));
      leafFaces.push([a, b, c, d]);
    }
  }

  // Names.
  const woodName = (b: number) => {
    if (spec.naming === "telling") return b === 0 ? "trunk" : `branch.${pad(b)}`;
    return `Object.${pad(b + 1)}`;
  };
  const leafName = (k: number) => {
    if (spec.naming === "anonymous") return `Object.${pad(branches.length + 1 + k)}`;
    return spec.leaves === "one-mesh" ? "leaves" : `leaf.${pad(k + 1)}`;
  };
  const named = spec.naming !== "none";
  const lines: string[] = ["# Tree Wind Sandbox test model (spec/support/make-models.ts): no materials"];
  const unit = spec.unitsPerMetre ?? 1;
  for (const p of w.positions) {
    const [x, y, z] = spec.zUp ? [p[0], -p[2], p[1]] : p;
    lines.push(`v ${fmt(unit * x)} ${fmt(unit * y)} ${fmt(unit * z)}`);
  }
  const face = (f: number[]) => lines.push(`f ${f.map((i) => i + 1).join(" ")}`);
  const woodObjects: string[] = [], leafObjects: string[] = [];
  if (spec.wood === "per-branch") {
    woodFaces.forEach((faces, b) => {
      if (named) { lines.push(`o ${woodName(b)}`); woodObjects.push(woodName(b)); }
      faces.forEach(face);
    });
  } else if (spec.wood !== "left-out") {
    const name = spec.naming === "telling" ? "wood" : "Object.001";
    if (named) { lines.push(`o ${name}`); woodObjects.push(name); }
    woodFaces.flat().forEach(face);
  }
  if (spec.leaves === "one-mesh" || (spec.leaves === "per-leaf" && !named)) {
    if (named && leafFaces.length > 0) { lines.push(`o ${leafName(0)}`); leafObjects.push(leafName(0)); }
    leafFaces.forEach(face);
  } else if (spec.leaves === "per-leaf") {
    leafFaces.forEach((f, k) => {
      lines.push(`o ${leafName(k)}`);
      leafObjects.push(leafName(k));
      face(f);
    });
  }
  const triangles = (faces: number[][]) => faces.reduce((n, f) => n + f.length - 2, 0);
  let levels = 0, low = Infinity, high = -Infinity;
  for (const b of branches) levels = Math.max(levels, b.level + 1);
  const usedVertices = new Set([...(spec.wood === "left-out" ? [] : woodFaces.flat(2)), ...leafFaces.flat()]);
  for (const i of usedVertices) {
    low = Math.min(low, w.positions[i][1]);
    high = Math.max(high, w.positions[i][1]);
  }
  return {
    obj: lines.join("\n") + "\n", branches: branches.length, levels, height: high - low, leaves: leafFaces.length,
    woodTriangles: spec.wood === "left-out" ? 0 : triangles(woodFaces.flat()), leafTriangles: triangles(leafFaces), woodObjects, leafObjects,
  };
}

/** The vertices of a model, collected. */
class Writer {
  readonly positions: V3[] = [];
  vertex(p: V3): number {
    this.positions.push(p);
    return this.positions.length - 1;
  }
}

/** A quad as a quad (an OBJ face of four), or as its two triangles without the degenerate ones (a welded joint collapses some). */
function quadOrTriangles(q: number[], split: boolean): number[][] {
  if (!split) return [q];
  const out: number[][] = [];
  for (const t of [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]) if (new Set(t).size === 3) out.push(t);
  return out;
}

function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(3, "0");
const fmt = (x: number) => (Math.abs(x) < 5e-7 ? "0" : x.toFixed(6).replace(/\.?0+$/, ""));
const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V3, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dist2 = (a: V3, b: V3) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;
function norm(a: V3): V3 {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
}
/** Two unit vectors perpendicular to `d` and to each other. */
function perpendiculars(d: V3): [V3, V3] {
  const u = norm(cross(d, Math.abs(d[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0]));
  return [u, cross(d, u)];
}
