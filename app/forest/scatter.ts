/**
 * Where the forest's trees stand (Zioma 2007 §6.1: "large open environments with massive amounts
 * of vegetation"): `trees` trees over a square `area` metres across, centred on the tree on show,
 * with a clearing around it. Seeded: the same spec gives the same forest.
 *
 * Placement is a jittered grid thinned by a seeded density: the square is cut into cells, one
 * candidate per cell at a random point in it, and the `trees` candidates kept are those with the
 * lowest rng / density (weighted sampling without replacement), so trees gather where the density
 * (smooth value noise, 0.35 to 1) is high and never overlap much. Each tree gets its own yaw,
 * scale, phase and stiffness (§6.3.3: "phase shifts" and Ota's stiffness per tree), and a variant.
 * Plain TypeScript, no Babylon.
 */
import { Rng } from "../math/rng";

export interface ForestSpec {
  /** Trees around the tree on show, 1 to MAX_FOREST_TREES. */
  trees: number;
  /** Side of the square they stand in, metres. */
  area: number;
  /** Tree names (a shipped grammar, or "current": the tree on show, a loaded model too), 1 to 4. */
  variants: string[];
  /** Seed of the placement (integer). */
  seed: number;
}

export const MAX_FOREST_TREES = 10_000;
export const FOREST_AREA = { min: 10, max: 400 } as const;
export const MAX_FOREST_VARIANTS = 4;
/** Radius kept free around the tree on show, metres. */
export const FOREST_CLEARING = 4;
/** The tree on show, as a variant name. */
export const CURRENT_VARIANT = "current";

export const DEFAULT_FOREST: ForestSpec = { trees: 400, area: 120, variants: [CURRENT_VARIANT], seed: 1 };

/** Per tree, in a fixed order (row by row over the grid, -z to +z, then -x to +x). */
export interface ForestPlacement {
  readonly count: number;
  readonly x: Float32Array;
  readonly z: Float32Array;
  /** Turn about the vertical, radians. */
  readonly yaw: Float32Array;
  readonly scale: Float32Array;
  /** Phase shift of its sway, radians. */
  readonly phase: Float32Array;
  /** Stiffness factor (1: the physical tree): amplitude 1/s, frequency 1/√s (Fig. 6-3). */
  readonly stiffness: Float32Array;
  /** Index into the spec's variants. */
  readonly variant: Uint8Array;
}

/** Checks a spec; a RangeError names what is allowed. `known(name)`: whether a variant name exists. */
export function validateForestSpec(spec: unknown, known: (name: string) => boolean): ForestSpec {
  if (typeof spec !== "object" || spec === null) throw new RangeError(`forest({ trees, area, variants, seed }) or forest(null); got ${JSON.stringify(spec)}`);
  const s = { ...DEFAULT_FOREST, ...(spec as Partial<ForestSpec>) };
  for (const key of Object.keys(spec)) {
    if (!(key in DEFAULT_FOREST)) throw new RangeError(`forest: unknown setting "${key}"; the settings are trees, area, variants, seed`);
  }
  if (!Number.isInteger(s.trees) || s.trees < 1 || s.trees > MAX_FOREST_TREES) throw new RangeError(`forest.trees must be a whole number from 1 to ${MAX_FOREST_TREES}; got ${JSON.stringify(s.trees)}`);
  if (!(typeof s.area === "number" && s.area >= FOREST_AREA.min && s.area <= FOREST_AREA.max)) throw new RangeError(`forest.area must be a number of metres from ${FOREST_AREA.min} to ${FOREST_AREA.max}; got ${JSON.stringify(s.area)}`);
  if (!Number.isInteger(s.seed) || s.seed < 0 || s.seed > 2147483647) throw new RangeError(`forest.seed must be a whole number from 0 to 2147483647; got ${JSON.stringify(s.seed)}`);
  if (!Array.isArray(s.variants) || s.variants.length < 1 || s.variants.length > MAX_FOREST_VARIANTS) throw new RangeError(`forest.variants must list 1 to ${MAX_FOREST_VARIANTS} tree names; got ${JSON.stringify(s.variants)}`);
  for (const v of s.variants) {
    if (typeof v !== "string" || !known(v)) throw new RangeError(`forest.variants: no tree "${String(v)}"; use "${CURRENT_VARIANT}" (the tree on show) or a shipped grammar`);
  }
  // Room for the trees: a cell of at least 1 m² each outside the clearing.
  const room = s.area * s.area - Math.PI * FOREST_CLEARING * FOREST_CLEARING;
  if (room < s.trees) throw new RangeError(`forest: ${s.trees} trees do not fit in ${s.area} m × ${s.area} m (at most ${Math.max(0, Math.floor(room))}); give a larger area`);
  return { trees: s.trees, area: s.area, variants: [...s.variants], seed: s.seed };
}

/** Smooth seeded value noise in [0, 1] with features about `scale` metres across. */
function densityNoise(seed: number, x: number, z: number, scale: number): number {
  const gx = x / scale, gz = z / scale;
  const i = Math.floor(gx), j = Math.floor(gz);
  const fx = gx - i, fz = gz - j;
  const sx = fx * fx * (3 - 2 * fx), sz = fz * fz * (3 - 2 * fz);
  const h = (a: number, b: number): number => Rng.mix((Math.imul(a, 0x27d4eb2d) ^ Math.imul(b, 0x165667b1) ^ seed) >>> 0) / 4294967296;
  const a = h(i, j), b = h(i + 1, j), c = h(i, j + 1), d = h(i + 1, j + 1);
  return (a + (b - a) * sx) * (1 - sz) + (c + (d - c) * sx) * sz;
}

/** The placement of a validated spec (see the file's comment). */
export function scatterForest(spec: ForestSpec): ForestPlacement {
  const rng = new Rng(spec.seed ^ 0x5f0e57);
  const half = spec.area / 2;
  // Cells: enough that the candidates outside the clearing outnumber the trees by about 1.6.
  let cells = Math.ceil(Math.sqrt(spec.trees * 1.6)) + 1;
  const candidates: { x: number; z: number; key: number; order: number }[] = [];
  for (;;) {
    candidates.length = 0;
    const size = spec.area / cells;
    for (let j = 0; j < cells; j++) {
      for (let i = 0; i < cells; i++) {
        const x = -half + (i + rng.next()) * size, z = -half + (j + rng.next()) * size;
        const u = rng.next();
        if (x * x + z * z < FOREST_CLEARING * FOREST_CLEARING) continue;
        const density = 0.35 + 0.65 * densityNoise(spec.seed, x, z, Math.max(8, spec.area / 5));
        candidates.push({ x, z, key: u / density, order: j * cells + i });
      }
    }
    if (candidates.length >= spec.trees) break;
    cells += 1;
  }
  candidates.sort((a, b) => a.key - b.key || a.order - b.order);
  const kept = candidates.slice(0, spec.trees).sort((a, b) => a.order - b.order);
  const n = kept.length;
  const out = {
    count: n, x: new Float32Array(n), z: new Float32Array(n), yaw: new Float32Array(n), scale: new Float32Array(n),
    phase: new Float32Array(n), stiffness: new Float32Array(n), variant: new Uint8Array(n),
  };
  const props = rng.fork(0x7ee5);
  for (let k = 0; k < n; k++) {
    out.x[k] = kept[k].x;
    out.z[k] = kept[k].z;
    out.yaw[k] = props.range(0, 2 * Math.PI);
    out.scale[k] = props.range(0.8, 1.2);
    out.phase[k] = props.range(0, 2 * Math.PI);
    out.stiffness[k] = Math.exp(props.range(Math.log(0.7), Math.log(1.4)));
    out.variant[k] = props.int(spec.variants.length);
  }
  return out;
}

/** The page address's text of a forest: "trees,area,variant+variant,seed" (e.g. "400,120,current+demo,1"). */
export function formatForest(spec: ForestSpec): string {
  return `${spec.trees},${spec.area},${spec.variants.join("+")},${spec.seed}`;
}

/** Reads formatForest's text (variants joined by "+", which a typed address reads as a space: either splits); a RangeError says what is wrong (validate the result with validateForestSpec). */
export function parseForest(text: string): ForestSpec {
  const parts = text.split(",");
  if (parts.length !== 4) throw new RangeError(`forest must read trees,area,variants,seed (e.g. 400,120,current+demo,1)`);
  const [trees, area, variants, seed] = parts;
  return { trees: Number(trees), area: Number(area), variants: variants.split(/[+ ]/).filter(Boolean), seed: Number(seed) };
}
