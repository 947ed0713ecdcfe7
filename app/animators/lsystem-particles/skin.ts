/**
 * Barron §4.2: branch skins regenerated from the particles every step. Plain TypeScript, no Babylon.
 *
 * Splines (§4.2.1). The branch segment ending at a particle is a Catmull-Rom curve between its
 * parent and itself, with the parent's parent before and its (dominant) child after: "the
 * position of the particle at the end of the branch along with the positions of its child, its
 * parent, and its parent's parent" (Figure 4.3). Where there is no grandparent (the trunk's
 * first segment) or no child (a tip), the missing point is the mirror of its neighbour, so the
 * curve ends along its last chord. A curve resolution of m draws m pieces per segment.
 *
 * Skins (§4.2.2). Around each curve point a ring of N vectors: the first is the previous ring's
 * first vector with its component along the new tangent removed, so consecutive first vectors are
 * parallel and the polygons never twist (Figure 4.5); the next N/2 - 1 turn about the tangent by
 * 2π/N each; the other half are the negatives of the first half (eq. 7.1). The vectors are the
 * vertex normals (Figure 4.4) and, scaled by the radius, the offsets of the vertices from the
 * curve. A branch's first ring starts from its rest frame's r axis turned by its first rod's
 * rotation, so the bark's texture coordinates (fixed: around = ring index / N, along = rest arc
 * length) stay on the wood as it moves.
 *
 * Each skeleton branch (an axis of the turtle) is one tube: 1 + m × segments rings of N + 1
 * vertices (the seam repeated for the texture), quads between consecutive rings, triangles
 * counter-clockwise about the outward normal.
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import type { ParticleTree } from "./particles";
import { rotateVec } from "./particles";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, abs, cos, sin, PI, max } = Math;

export interface SkinOptions {
  /** N, polygons around a branch: even, at least 4 (eq. 7.1 needs an even N). */
  sides: number;
  /** m, spline pieces per branch segment, at least 1. */
  resolution: number;
  /** One radius for every ring (the skeleton view's thin lines), instead of the particles' radii. */
  radius?: number;
}

/** The fixed part of a skin: topology, texture coordinates and which particles drive each ring. */
export interface SkinLayout {
  readonly sides: number;
  readonly resolution: number;
  readonly ringCount: number;
  readonly vertexCount: number;
  readonly indices: Uint32Array;
  readonly uvs: Float32Array;
  /** Skeleton branch of each vertex (for picking). */
  readonly branchIndex: Float32Array;
  /** Per ring: the four control particles P0..P3 (-1: mirror the neighbour), 4 ints. */
  readonly ringControl: Int32Array;
  /** Per ring: index 0..m of its curve parameter u = index / m. */
  readonly ringU: Uint8Array;
  /** Per ring: radius, metres. */
  readonly ringRadius: Float32Array;
  /** Per ring: 1 when it starts a branch (its first vector comes from the branch frame). */
  readonly ringStartsBranch: Uint8Array;
  /** Per ring: the branch's rest r axis (only read where ringStartsBranch), 3 floats. */
  readonly ringReference: Float32Array;
  /** Per ring: the particle whose rotation turns that reference. */
  readonly ringRotation: Int32Array;
  /** Catmull-Rom weights per u index: 4 for the position, then 4 for the derivative. */
  readonly basis: Float64Array;
  /** cos, sin of 2π s / N for s < N / 2. */
  readonly trig: Float64Array;
}

/** Uniform Catmull-Rom weights of P0..P3 at u, and of its derivative (Foley et al. §11.2). */
export function catmullRomWeights(u: number, out: Float64Array, o = 0): void {
  const u2 = u * u, u3 = u2 * u;
  out[o] = 0.5 * (-u + 2 * u2 - u3);
  out[o + 1] = 0.5 * (2 - 5 * u2 + 3 * u3);
  out[o + 2] = 0.5 * (u + 4 * u2 - 3 * u3);
  out[o + 3] = 0.5 * (-u2 + u3);
  out[o + 4] = 0.5 * (-1 + 4 * u - 3 * u2);
  out[o + 5] = 0.5 * (-10 * u + 9 * u2);
  out[o + 6] = 0.5 * (1 + 8 * u - 9 * u2);
  out[o + 7] = 0.5 * (-2 * u + 3 * u2);
}

export function buildSkinLayout(s: TreeSkeleton, tree: ParticleTree, options: SkinOptions): SkinLayout {
  const N = options.sides, m = options.resolution;
  if (!(Number.isInteger(N) && N >= 4 && N % 2 === 0)) throw new RangeError(`sides must be an even whole number of at least 4; got ${N}`);
  if (!(Number.isInteger(m) && m >= 1 && m <= 32)) throw new RangeError(`curve resolution must be a whole number from 1 to 32; got ${m}`);
  let ringCount = 0;
  for (let b = 0; b < s.branchCount; b++) ringCount += 1 + m * (s.branchNodeCount[b] - 1);
  const stride = N + 1;
  const vertexCount = ringCount * stride;
  let quads = 0;
  for (let b = 0; b < s.branchCount; b++) quads += m * (s.branchNodeCount[b] - 1) * N;
  const indices = new Uint32Array(6 * quads);
  const uvs = new Float32Array(2 * vertexCount);
  const branchIndex = new Float32Array(vertexCount);
  const ringControl = new Int32Array(4 * ringCount);
  const ringU = new Uint8Array(ringCount);
  const ringRadius = new Float32Array(ringCount);
  const ringStartsBranch = new Uint8Array(ringCount);
  const ringReference = new Float32Array(3 * ringCount);
  const ringRotation = new Int32Array(ringCount);
  const P = tree.particleOfNode, par = tree.parent, dom = tree.dominant;
  const scale = tree.radiusScale;
  let ring = 0, ii = 0;
  for (let b = 0; b < s.branchCount; b++) {
    const first = s.branchFirstNode[b], nn = s.branchNodeCount[b], len = s.branchLength[b];
    const rootRadius = options.radius ?? max(1e-4, s.nodeRadius[first] * scale);
    const firstRing = ring;
    for (let j = 0; j < nn - 1; j++) {
      const ka = first + j, kb = ka + 1;
      const p1 = P[ka], p2 = P[kb];
      const p0 = par[p1]; // the parent's parent (-1 at the root: mirrored)
      const p3 = dom[p2]; // the child on the same axis (-1 at a tip: mirrored)
      for (let k = j === 0 ? 0 : 1; k <= m; k++) {
        const u = k / m;
        ringControl[4 * ring] = p0;
        ringControl[4 * ring + 1] = p1;
        ringControl[4 * ring + 2] = p2;
        ringControl[4 * ring + 3] = p3;
        ringU[ring] = k;
        ringRadius[ring] = options.radius ?? (s.nodeRadius[ka] + u * (s.nodeRadius[kb] - s.nodeRadius[ka])) * scale;
        const arc = (s.nodeX[ka] + u * (s.nodeX[kb] - s.nodeX[ka])) * len;
        const v = arc / (2 * PI * rootRadius);
        for (let q = 0; q <= N; q++) {
          const vi = ring * stride + q;
          uvs[2 * vi] = q / N;
          uvs[2 * vi + 1] = v;
          branchIndex[vi] = b;
        }
        if (ring === firstRing) {
          ringStartsBranch[ring] = 1;
          ringReference[3 * ring] = s.branchFrame[9 * b + 3];
          ringReference[3 * ring + 1] = s.branchFrame[9 * b + 4];
          ringReference[3 * ring + 2] = s.branchFrame[9 * b + 5];
          ringRotation[ring] = p2;
        }
        if (ring > firstRing) {
          // Quads between the previous ring and this one, counter-clockwise about the outward normal.
          const a0 = (ring - 1) * stride, a1 = ring * stride;
          for (let q = 0; q < N; q++) {
            indices[ii++] = a0 + q; indices[ii++] = a0 + q + 1; indices[ii++] = a1 + q + 1;
            indices[ii++] = a0 + q; indices[ii++] = a1 + q + 1; indices[ii++] = a1 + q;
          }
        }
        ring++;
      }
    }
  }
  const basis = new Float64Array(8 * (m + 1));
  for (let k = 0; k <= m; k++) catmullRomWeights(k / m, basis, 8 * k);
  const trig = new Float64Array(N);
  for (let q = 0; q < N / 2; q++) {
    trig[2 * q] = cos((2 * PI * q) / N);
    trig[2 * q + 1] = sin((2 * PI * q) / N);
  }
  return { sides: N, resolution: m, ringCount, vertexCount, indices, uvs, branchIndex, ringControl, ringU, ringRadius, ringStartsBranch, ringReference, ringRotation, basis, trig };
}

/** Scratch for rotateVec. */
const turned = { bx: 0, by: 0, bz: 0 };

/**
 * Regenerates every vertex and normal from the particles' current positions `C` (xyz per
 * particle) and rotations `q` (for each branch's first vector). Also writes each ring's centre
 * into `centres` when given (the skeleton's curve points). Allocation free.
 */
export function updateSkin(L: SkinLayout, C: Float64Array, q: Float64Array, positions: Float32Array, normals: Float32Array, centres?: Float32Array): void {
  const N = L.sides, half = N / 2, stride = N + 1;
  const ctl = L.ringControl, basis = L.basis, trig = L.trig;
  let vx = 0, vy = 0, vz = 0; // the ring's first vector, carried along the branch
  for (let r = 0; r < L.ringCount; r++) {
    const i1 = ctl[4 * r + 1], i2 = ctl[4 * r + 2];
    const i0 = ctl[4 * r], i3 = ctl[4 * r + 3];
    const x1 = C[3 * i1], y1 = C[3 * i1 + 1], z1 = C[3 * i1 + 2];
    const x2 = C[3 * i2], y2 = C[3 * i2 + 1], z2 = C[3 * i2 + 2];
    let x0: number, y0: number, z0: number, x3: number, y3: number, z3: number;
    if (i0 >= 0) { x0 = C[3 * i0]; y0 = C[3 * i0 + 1]; z0 = C[3 * i0 + 2]; } else { x0 = 2 * x1 - x2; y0 = 2 * y1 - y2; z0 = 2 * z1 - z2; }
    if (i3 >= 0) { x3 = C[3 * i3]; y3 = C[3 * i3 + 1]; z3 = C[3 * i3 + 2]; } else { x3 = 2 * x2 - x1; y3 = 2 * y2 - y1; z3 = 2 * z2 - z1; }
    const w = 8 * L.ringU[r];
    const px = basis[w] * x0 + basis[w + 1] * x1 + basis[w + 2] * x2 + basis[w + 3] * x3;
    const py = basis[w] * y0 + basis[w + 1] * y1 + basis[w + 2] * y2 + basis[w + 3] * y3;
    const pz = basis[w] * z0 + basis[w + 1] * z1 + basis[w + 2] * z2 + basis[w + 3] * z3;
    let tx = basis[w + 4] * x0 + basis[w + 5] * x1 + basis[w + 6] * x2 + basis[w + 7] * x3;
    let ty = basis[w + 4] * y0 + basis[w + 5] * y1 + basis[w + 6] * y2 + basis[w + 7] * y3;
    let tz = basis[w + 4] * z0 + basis[w + 5] * z1 + basis[w + 6] * z2 + basis[w + 7] * z3;
    let l = sqrt(tx * tx + ty * ty + tz * tz);
    if (l < 1e-12) { tx = x2 - x1; ty = y2 - y1; tz = z2 - z1; l = sqrt(tx * tx + ty * ty + tz * tz) || 1; }
    tx /= l; ty /= l; tz /= l;
    if (L.ringStartsBranch[r]) {
      rotateVec(q, 4 * L.ringRotation[r], L.ringReference[3 * r], L.ringReference[3 * r + 1], L.ringReference[3 * r + 2], turned);
      vx = turned.bx; vy = turned.by; vz = turned.bz;
    }
    // Fig. 4.5: the first vector keeps its direction, less its part along the new tangent.
    let d = vx * tx + vy * ty + vz * tz;
    vx -= d * tx; vy -= d * ty; vz -= d * tz;
    l = sqrt(vx * vx + vy * vy + vz * vz);
    if (l < 1e-6) {
      // The tangent turned onto the first vector: any perpendicular.
      if (abs(tx) < 0.9) { vx = 0; vy = -tz; vz = ty; } else { vx = tz; vy = 0; vz = -tx; }
      d = 0;
      l = sqrt(vx * vx + vy * vy + vz * vz);
    }
    vx /= l; vy /= l; vz /= l;
    // The vector a quarter turn on about the tangent: rotating v by φ is cos φ v + sin φ (t × v).
    const ux = ty * vz - tz * vy, uy = tz * vx - tx * vz, uz = tx * vy - ty * vx;
    const rad = L.ringRadius[r];
    const base = r * stride;
    for (let s = 0; s < half; s++) {
      const c = trig[2 * s], sn = trig[2 * s + 1];
      const nx = c * vx + sn * ux, ny = c * vy + sn * uy, nz = c * vz + sn * uz;
      const a = 3 * (base + s), b = 3 * (base + s + half);
      normals[a] = nx; normals[a + 1] = ny; normals[a + 2] = nz;
      positions[a] = px + rad * nx; positions[a + 1] = py + rad * ny; positions[a + 2] = pz + rad * nz;
      // Eq. 7.1: the opposite half by negation.
      normals[b] = -nx; normals[b + 1] = -ny; normals[b + 2] = -nz;
      positions[b] = px - rad * nx; positions[b + 1] = py - rad * ny; positions[b + 2] = pz - rad * nz;
    }
    // The seam repeats the first vertex (its texture u is 1, not 0).
    const a = 3 * base, z = 3 * (base + N);
    normals[z] = normals[a]; normals[z + 1] = normals[a + 1]; normals[z + 2] = normals[a + 2];
    positions[z] = positions[a]; positions[z + 1] = positions[a + 1]; positions[z + 2] = positions[a + 2];
    if (centres) {
      centres[3 * r] = px; centres[3 * r + 1] = py; centres[3 * r + 2] = pz;
    }
  }
}
