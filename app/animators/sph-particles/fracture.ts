/**
 * Akagi and Kitajima §3, "Generation of broken branch": the polygon model of a broken branch's
 * ends, made once when the branch breaks. Plain TypeScript over typed arrays, no Babylon.
 *
 * Internal model of a branch: three layers from the centre, core, wood and bark, their thicknesses
 * set per tree (shares of the radius); a layer of fibre density 0 is a cavity (the paper's bamboo).
 * Polygon model, Fig. 3: (a) the layers; (b) fibre points placed at random in each layer's annulus,
 * as many as its density asks (per unit area of the radius-1 section), plus points on each layer's
 * outer circle so the section keeps its round outline and its layers their boundaries; (c) a
 * Delaunay triangulation of the points (delaunator); (d) every triangle raised into a triangle pole.
 * Cross-section, eq. 11 and Fig. 4: the break starts at x₀ on the surface and runs across; the
 * surface drops along the side curve F(x) = L α s², s = (C - x₀)·(x - x₀) / (2 r²) (0 at x₀, 1 on
 * the far side), so a pole's top is the side curve at its centre plus its fibre's own length.
 *
 * READING (eq. 11): printed as L α (((C - x₀)·(x - x₀) + 1) / (2 r²))², whose "+ 1" is not in
 * metres; read as the dot product over 2 r², which runs from 0 at x₀ to 1 on the far side, as
 * Fig. 4's curve from the break's start "down to the bottom gradually".
 *
 * Both broken ends come from the one surface: the stump keeps the wood below it (poles standing up
 * from a base, capped at their tops, faces toward the piece), the piece the wood above it (the same
 * tops, faces toward the stump), so the two fit together. Between neighbouring poles a wall closes
 * the step; around the outline (and a cavity) the wall runs down to the stump's base or up to the
 * piece's. The local frame: x, y across the section (x along the reference direction), z along the
 * axis from the stump to the piece, origin on the axis at the break. Same seed, same mesh.
 */
import Delaunator from "delaunator";
import type { Rng } from "../../math/rng";

const { PI, sqrt, cos, sin, max, min, round, atan2, hypot } = Math;

/** Layer ids, from the centre out. */
export const CORE = 0, WOOD = 1, BARK = 2;
/** Linear RGB of each layer's cut face (pith, pale sapwood, dark bark). */
export const LAYER_COLOUR: readonly (readonly [number, number, number])[] = [[0.42, 0.26, 0.14], [0.86, 0.74, 0.52], [0.3, 0.21, 0.14]];
/** Points on the section's outline (the bark's outer circle): the polygon covers 99.7 % of π r². */
export const OUTLINE_POINTS = 48;
/** A fibre pole's own length beyond the side curve: up to this times the radius. */
export const FIBRE_ROUGHNESS = 0.35;
/** A pole's colour varies by up to this share (the paper's fibres differ in colour). */
const COLOUR_VARIATION = 0.08;

/** §3's internal model of a branch. */
export interface FractureLayers {
  /** Thicknesses as shares of the radius, from the centre out (normalised to sum 1). */
  core: number;
  wood: number;
  bark: number;
  /** Fibre points per unit area of the radius-1 section, per layer (0: a cavity). */
  coreDensity: number;
  woodDensity: number;
  barkDensity: number;
}

export const DEFAULT_LAYERS: FractureLayers = { core: 0.1, wood: 0.75, bark: 0.15, coreDensity: 20, woodDensity: 40, barkDensity: 80 };

export interface FractureSpec {
  /** Branch radius at the break, m. */
  radius: number;
  /** Eq. 11's L: length of the central axis (link) that broke, m. */
  axisLength: number;
  /** Eq. 11's α: brittleness (0: a flat cut). */
  brittleness: number;
  /** Where on the surface the break started (eq. 11's x₀), radians about the axis from the reference direction. */
  startAngle: number;
  layers: FractureLayers;
  /** The break's frame: the point on the axis, the axis (stump to piece) and a direction across it. */
  origin: ArrayLike<number>;
  axis: ArrayLike<number>;
  reference: ArrayLike<number>;
}

/** One broken end's mesh: flat-shaded, triangles counter-clockwise about their normals. */
export interface FractureMesh {
  positions: Float32Array;
  normals: Float32Array;
  /** RGBA per vertex. */
  colors: Float32Array;
  /** CORE, WOOD or BARK per vertex. */
  layer: Uint8Array;
  indices: Uint32Array;
}

export interface Fracture {
  /** Fibre points in the section, local xy in m; the first `scattered` placed at random (b), the rest on the layers' circles. */
  points: Float64Array;
  pointLayer: Uint8Array;
  scattered: number;
  /** Kept Delaunay triangles (c) (three point indices each, counter-clockwise), their layer and pole top z (d), m. */
  triangles: Uint32Array;
  triangleLayer: Uint8Array;
  poleTop: Float64Array;
  /** Area the kept triangles cover, m². */
  area: number;
  /** The stump's end (faces toward +z) and the piece's (toward -z), in the frame's space. */
  stump: FractureMesh;
  piece: FractureMesh;
}

/** Eq. 11: the drop F of the side curve at (x, y) for a break starting at (x0, y0) on a section of radius r centred at C = 0. */
export function sideCurveDrop(x: number, y: number, x0: number, y0: number, r: number, L: number, alpha: number): number {
  const s = (-x0 * (x - x0) - y0 * (y - y0)) / (2 * r * r);
  return L * alpha * s * s;
}

/** Outer radius of each layer as a share of the radius (the shares normalised). */
export function layerBounds(layers: FractureLayers): [number, number, number] {
  const c = max(0, layers.core), w = max(0, layers.wood), b = max(0, layers.bark), sum = c + w + b;
  if (!(sum > 0)) throw new RangeError("the layers' thicknesses add up to nothing");
  return [c / sum, (c + w) / sum, 1];
}

function densityOf(layers: FractureLayers, layer: number): number {
  return max(0, layer === CORE ? layers.coreDensity : layer === WOOD ? layers.woodDensity : layers.barkDensity);
}

function layerAt(rho: number, bounds: readonly number[]): number {
  return rho < bounds[0] ? CORE : rho < bounds[1] ? WOOD : BARK;
}

/** Random points per layer by density (b), the layers' circles, the triangulation (c) and both ends' poles (d). */
export function buildFracture(spec: FractureSpec, rng: Rng): Fracture {
  const r = spec.radius, L = spec.axisLength, alpha = spec.brittleness;
  if (!(r > 0) || !(L > 0) || !(alpha >= 0)) throw new RangeError(`a fracture needs a radius and an axis length above 0 and α ≥ 0; got r ${r}, L ${L}, α ${alpha}`);
  const layers = spec.layers, bounds = layerBounds(layers);
  // (b) Fibres at random by area in each layer's annulus, round(density × area) of them.
  const counts = [0, 0, 0];
  let inner = 0;
  for (let l = CORE; l <= BARK; l++) {
    counts[l] = round(densityOf(layers, l) * PI * (bounds[l] * bounds[l] - inner * inner));
    inner = bounds[l];
  }
  const scattered = counts[0] + counts[1] + counts[2];
  // The circles: each layer's outer boundary (a thin layer's too, unless it coincides with the next).
  const circles: number[] = [], circleCounts: number[] = [];
  for (let l = CORE; l <= BARK; l++) {
    const rho = bounds[l];
    if (rho < 1e-3 || (l < BARK && rho > 1 - 1e-3) || (circles.length > 0 && rho - circles[circles.length - 1] < 1e-3)) continue;
    circles.push(rho);
    circleCounts.push(l === BARK ? OUTLINE_POINTS : max(6, round(OUTLINE_POINTS * rho)));
  }
  const total = scattered + circleCounts.reduce((a, b) => a + b, 0);
  const points = new Float64Array(2 * total), pointLayer = new Uint8Array(total);
  let n = 0;
  inner = 0;
  for (let l = CORE; l <= BARK; l++) {
    const r0 = inner * inner, r1 = bounds[l] * bounds[l];
    for (let k = 0; k < counts[l]; k++) {
      const rho = sqrt(r0 + (r1 - r0) * rng.next()), th = 2 * PI * rng.next();
      points[2 * n] = r * rho * cos(th);
      points[2 * n + 1] = r * rho * sin(th);
      pointLayer[n++] = l;
    }
    inner = bounds[l];
  }
  for (let c = 0; c < circles.length; c++) {
    const rho = circles[c], m = circleCounts[c], turn = (2 * PI * rng.next()) / m, l = layerAt(rho - 1e-9, bounds);
    for (let k = 0; k < m; k++) {
      const th = turn + (2 * PI * k) / m;
      points[2 * n] = r * rho * cos(th);
      points[2 * n + 1] = r * rho * sin(th);
      pointLayer[n++] = l;
    }
  }
  // (c) Delaunay triangulation; a triangle's layer is its centre's, and a cavity's triangles go.
  const del = new Delaunator(points);
  const all = del.triangles, half = del.halfedges, nt = all.length / 3;
  const keep = new Int32Array(nt).fill(-1);
  const centre = new Float64Array(2 * nt);
  let kept = 0;
  for (let t = 0; t < nt; t++) {
    const a = all[3 * t], b = all[3 * t + 1], c = all[3 * t + 2];
    const cx = (points[2 * a] + points[2 * b] + points[2 * c]) / 3, cy = (points[2 * a + 1] + points[2 * b + 1] + points[2 * c + 1]) / 3;
    centre[2 * t] = cx;
    centre[2 * t + 1] = cy;
    if (densityOf(layers, layerAt(sqrt(cx * cx + cy * cy) / r, bounds)) > 0) keep[t] = kept++;
  }
  const triangles = new Uint32Array(3 * kept), triangleLayer = new Uint8Array(kept), poleTop = new Float64Array(kept), shade = new Float64Array(kept);
  // Eq. 11 from x₀ on the surface; the profile centred on z = 0, each pole longer by its fibre's own length (d).
  const x0 = r * cos(spec.startAngle), y0 = r * sin(spec.startAngle), rough = FIBRE_ROUGHNESS * r;
  let area = 0, lowest = Infinity, highest = -Infinity;
  for (let t = 0; t < nt; t++) {
    const k = keep[t];
    if (k < 0) continue;
    const a = all[3 * t], b = all[3 * t + 1], c = all[3 * t + 2];
    // delaunator's order is clockwise in x, y (counter-clockwise on a y-down screen): turned round.
    triangles[3 * k] = a; triangles[3 * k + 1] = c; triangles[3 * k + 2] = b;
    const cx = centre[2 * t], cy = centre[2 * t + 1];
    triangleLayer[k] = layerAt(sqrt(cx * cx + cy * cy) / r, bounds);
    const top = 0.5 * L * alpha - sideCurveDrop(cx, cy, x0, y0, r, L, alpha) + rough * (rng.next() - 0.5);
    poleTop[k] = top;
    shade[k] = 1 + COLOUR_VARIATION * (2 * rng.next() - 1);
    lowest = min(lowest, top);
    highest = max(highest, top);
    area += 0.5 * ((points[2 * c] - points[2 * a]) * (points[2 * b + 1] - points[2 * a + 1]) - (points[2 * b] - points[2 * a]) * (points[2 * c + 1] - points[2 * a + 1]));
  }
  // The stump's poles stand on its base, the piece's hang from its top: at least half the axis link
  // away, so the walls close the bark's gap at the break.
  const base = min(lowest, -0.5 * L), ceiling = max(highest, 0.5 * L);
  // Walls: an edge between two kept triangles once (the step between their tops), an edge on the outline or a cavity always.
  let walls = 0;
  for (let e = 0; e < all.length; e++) {
    if (keep[(e / 3) | 0] < 0) continue;
    const h = half[e];
    if (h < 0 || keep[(h / 3) | 0] < 0 || e < h) walls++;
  }
  const frame = breakFrame(spec.origin, spec.axis, spec.reference);
  const mk = (): FractureMesh => {
    const v = 3 * kept + 4 * walls;
    return { positions: new Float32Array(3 * v), normals: new Float32Array(3 * v), colors: new Float32Array(4 * v), layer: new Uint8Array(v), indices: new Uint32Array(3 * kept + 6 * walls) };
  };
  const stump = mk(), piece = mk();
  const w = new MeshWriter(frame);
  for (const [mesh, up] of [[stump, 1], [piece, -1]] as const) {
    w.start(mesh);
    // Caps: the poles' tops, facing the other end.
    for (let k = 0; k < kept; k++) {
      const col = LAYER_COLOUR[triangleLayer[k]], s = shade[k];
      const v0 = w.vertex(points, triangles[3 * k], poleTop[k], 0, 0, up, col, s, triangleLayer[k]);
      w.vertex(points, triangles[3 * k + 1], poleTop[k], 0, 0, up, col, s, triangleLayer[k]);
      w.vertex(points, triangles[3 * k + 2], poleTop[k], 0, 0, up, col, s, triangleLayer[k]);
      if (up > 0) w.triangle(v0, v0 + 1, v0 + 2);
      else w.triangle(v0, v0 + 2, v0 + 1);
    }
    for (let e = 0; e < all.length; e++) {
      const t = (e / 3) | 0, k = keep[t];
      if (k < 0) continue;
      const h = half[e], u = h < 0 ? -1 : keep[(h / 3) | 0];
      if (u >= 0 && e > h) continue;
      // The half-edge runs clockwise around t (delaunator's order): b → a runs counter-clockwise, t's outside to its right.
      const b = all[e], a = all[e % 3 === 2 ? e - 2 : e + 1];
      const dx = points[2 * b] - points[2 * a], dy = points[2 * b + 1] - points[2 * a + 1], len = sqrt(dx * dx + dy * dy) || 1;
      let lo: number, hi: number, outward: boolean, owner: number;
      if (u < 0) {
        // The outline or a cavity: down to the stump's base, up to the piece's top, facing out of t.
        lo = up > 0 ? base : poleTop[k];
        hi = up > 0 ? poleTop[k] : ceiling;
        outward = true;
        owner = k;
      } else {
        // The step between two poles: the stump's wall faces the lower pole, the piece's the higher.
        const tHigher = poleTop[k] > poleTop[u];
        lo = min(poleTop[k], poleTop[u]);
        hi = max(poleTop[k], poleTop[u]);
        outward = (up > 0) === tHigher;
        owner = up > 0 ? (tHigher ? k : u) : (tHigher ? u : k);
      }
      const sg = outward ? 1 : -1, col = LAYER_COLOUR[triangleLayer[owner]], s = shade[owner], ly = triangleLayer[owner];
      const nx = (sg * dy) / len, ny = (-sg * dx) / len;
      const v0 = w.vertex(points, a, lo, nx, ny, 0, col, s, ly);
      w.vertex(points, b, lo, nx, ny, 0, col, s, ly);
      w.vertex(points, b, hi, nx, ny, 0, col, s, ly);
      w.vertex(points, a, hi, nx, ny, 0, col, s, ly);
      if (outward) {
        w.triangle(v0, v0 + 1, v0 + 2);
        w.triangle(v0, v0 + 2, v0 + 3);
      } else {
        w.triangle(v0, v0 + 2, v0 + 1);
        w.triangle(v0, v0 + 3, v0 + 2);
      }
    }
  }
  return { points, pointLayer, scattered, triangles, triangleLayer, poleTop, area, stump, piece };
}

/** The break's frame (12: origin, e₁, e₂, e₃): e₁ the reference made normal to the axis, e₂ = e₃ × e₁, e₃ the axis. */
export function breakFrame(origin: ArrayLike<number>, ax: ArrayLike<number>, reference: ArrayLike<number>): Float64Array {
  const f = new Float64Array(12);
  const al = hypot(ax[0], ax[1], ax[2]);
  if (!(al > 0)) throw new RangeError("a fracture's axis must not be zero");
  const zx = ax[0] / al, zy = ax[1] / al, zz = ax[2] / al;
  let rx = reference[0], ry = reference[1], rz = reference[2];
  let d = rx * zx + ry * zy + rz * zz;
  rx -= d * zx; ry -= d * zy; rz -= d * zz;
  let rl = hypot(rx, ry, rz);
  if (!(rl > 1e-9 * hypot(reference[0], reference[1], reference[2]) && rl > 0)) {
    // A reference along the axis: any direction across it.
    const up = Math.abs(zy) < 0.9 ? [0, 1, 0] : [1, 0, 0];
    d = up[0] * zx + up[1] * zy + up[2] * zz;
    rx = up[0] - d * zx; ry = up[1] - d * zy; rz = up[2] - d * zz;
    rl = hypot(rx, ry, rz);
  }
  rx /= rl; ry /= rl; rz /= rl;
  f[0] = origin[0]; f[1] = origin[1]; f[2] = origin[2];
  f[3] = rx; f[4] = ry; f[5] = rz;
  f[6] = zy * rz - zz * ry; f[7] = zz * rx - zx * rz; f[8] = zx * ry - zy * rx;
  f[9] = zx; f[10] = zy; f[11] = zz;
  return f;
}

/** Writes vertices (local section point and height, taken through the frame) and triangles into a FractureMesh. */
class MeshWriter {
  private mesh!: FractureMesh;
  private v = 0;
  private i = 0;

  constructor(private readonly f: Float64Array) {}

  start(mesh: FractureMesh): void {
    this.mesh = mesh;
    this.v = this.i = 0;
  }

  /** Vertex at section point p (index into xy pairs) and height z, local normal (nx, ny, nz); returns its index. */
  vertex(points: Float64Array, p: number, z: number, nx: number, ny: number, nz: number, col: readonly number[], shade: number, layer: number): number {
    const f = this.f, m = this.mesh, o = 3 * this.v, x = points[2 * p], y = points[2 * p + 1];
    for (let c = 0; c < 3; c++) {
      m.positions[o + c] = f[c] + x * f[3 + c] + y * f[6 + c] + z * f[9 + c];
      m.normals[o + c] = nx * f[3 + c] + ny * f[6 + c] + nz * f[9 + c];
      m.colors[4 * this.v + c] = min(1, col[c] * shade);
    }
    m.colors[4 * this.v + 3] = 1;
    m.layer[this.v] = layer;
    return this.v++;
  }

  triangle(a: number, b: number, c: number): void {
    const ix = this.mesh.indices;
    ix[this.i++] = a;
    ix[this.i++] = b;
    ix[this.i++] = c;
  }
}

/** Where a break begins (eq. 11's x₀): on the tension side, opposite the way the piece bent, (bx, by) in the break's section frame; `fallback` when it hardly bent. */
export function startAngleFor(bx: number, by: number, fallback: number): number {
  return hypot(bx, by) > 1e-9 ? atan2(-by, -bx) : fallback;
}
