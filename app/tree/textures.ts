/**
 * Procedural textures made in the project (nothing downloaded), deterministic from a seed:
 * tileable bark for the tubes and an alpha-tested leaf for the cards (app/tree/geometry.ts).
 *
 * Layout: RGBA, 8 bits per channel, row-major; row 0 is v = 0 (for the leaf: the petiole end),
 * which is what WebGL's texImage2D (Babylon's RawTexture with invertY = false) maps to v = 0.
 */
import { Rng } from "../math/rng";

export interface TextureData {
  readonly width: number;
  readonly height: number;
  /** RGBA, row-major, row 0 at v = 0. */
  readonly data: Uint8Array;
}

/**
 * Periodic value noise on an integer lattice of period `px` along x and `py` along y, so
 * sampling over [0, px) x [0, py) tiles seamlessly. Lattice values come from a seeded table.
 */
class PeriodicNoise {
  private readonly table: Float32Array;
  constructor(private readonly px: number, private readonly py: number, seed: number) {
    const rng = new Rng(seed);
    this.table = new Float32Array(px * py);
    for (let i = 0; i < this.table.length; i++) this.table[i] = rng.next() * 2 - 1;
  }
  /** In [-1, 1]. */
  sample(x: number, y: number): number {
    const px = this.px, py = this.py;
    const xf = Math.floor(x), yf = Math.floor(y);
    const fx = x - xf, fy = y - yf;
    const x0 = mod(xf, px), y0 = mod(yf, py), x1 = (x0 + 1) % px, y1 = (y0 + 1) % py;
    const t = this.table;
    const sx = fx * fx * fx * (fx * (fx * 6 - 15) + 10), sy = fy * fy * fy * (fy * (fy * 6 - 15) + 10);
    const a = t[y0 * px + x0] + (t[y0 * px + x1] - t[y0 * px + x0]) * sx;
    const b = t[y1 * px + x0] + (t[y1 * px + x1] - t[y1 * px + x0]) * sx;
    return a + (b - a) * sy;
  }
}

/**
 * Fractal sum of periodic noise over the unit square (u, v in [0, 1)), tileable:
 * octave k has `cellsX * 2^k` by `cellsY * 2^k` lattice cells across the square.
 */
class TileableFbm {
  private readonly layers: PeriodicNoise[] = [];
  constructor(private readonly cellsX: number, private readonly cellsY: number, private readonly octaves: number, seed: number, private readonly gain = 0.5) {
    const rng = new Rng(seed);
    for (let k = 0; k < octaves; k++) this.layers.push(new PeriodicNoise(cellsX << k, cellsY << k, rng.int(0x7fffffff)));
  }
  /** Roughly in [-1, 1]. */
  sample(u: number, v: number): number {
    let sum = 0, amp = 1, norm = 0;
    for (let k = 0; k < this.octaves; k++) {
      const s = 1 << k;
      sum += amp * this.layers[k].sample(u * this.cellsX * s, v * this.cellsY * s);
      norm += amp;
      amp *= this.gain;
    }
    return sum / norm;
  }
}

/**
 * Tileable cellular (Worley) noise with `cellsX` x `cellsY` jittered points over the unit square.
 * Results go through `out` (see `sample`).
 */
class TileableCells {
  private readonly px: Float32Array;
  private readonly py: Float32Array;
  constructor(private readonly cellsX: number, private readonly cellsY: number, seed: number, jitter = 0.85) {
    const rng = new Rng(seed);
    this.px = new Float32Array(cellsX * cellsY);
    this.py = new Float32Array(cellsX * cellsY);
    for (let i = 0; i < this.px.length; i++) {
      this.px[i] = 0.5 + (rng.next() - 0.5) * jitter;
      this.py[i] = 0.5 + (rng.next() - 0.5) * jitter;
    }
  }
  /**
   * out[0] = distance to the nearest point, out[1] = distance to the nearest cell border (the
   * bisector of the two nearest points, so furrows keep one width), out[2] = id of the nearest
   * cell, out[3] = how much the border runs across u (1 horizontal, 0 vertical); `aspect` < 1 squashes distances along v, stretching cells vertically.
   */
  sample(u: number, v: number, aspect: number, out: Float64Array): void {
    const gx = u * this.cellsX, gy = v * this.cellsY;
    const cx = Math.floor(gx), cy = Math.floor(gy);
    let d1 = 1e18, d2 = 1e18, id = 0;
    let ax = 0, ay = 0, bx = 0, by = 0;
    // Cells squashed along v (aspect < 1) bring farther rows within reach: search them too.
    const reach = Math.ceil(1.5 / Math.min(1, aspect));
    for (let dy = -reach; dy <= reach; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const ix = cx + dx, iy = cy + dy;
        const k = mod(iy, this.cellsY) * this.cellsX + mod(ix, this.cellsX);
        const ox = ix + this.px[k] - gx;
        const oy = (iy + this.py[k] - gy) * aspect;
        const d = ox * ox + oy * oy;
        if (d < d1) { d2 = d1; bx = ax; by = ay; d1 = d; ax = ox; ay = oy; id = k; } else if (d < d2) { d2 = d; bx = ox; by = oy; }
      }
    }
    // Bisector n.q = c in the squashed metric; its distance measured in unsquashed texture
    // space (in cell widths along u), so furrows have one width whatever their direction.
    const sep = Math.hypot(bx - ax, by - ay);
    const c = sep > 1e-9 ? (d2 - d1) / (2 * sep) : 0;
    const nx = sep > 1e-9 ? (bx - ax) / sep : 1, ny = sep > 1e-9 ? (by - ay) / sep : 0;
    const gxn = nx * this.cellsX, gyn = ny * aspect * this.cellsY; // bisector normal in texture space
    const gl = Math.hypot(gxn, gyn);
    out[0] = Math.sqrt(d1);
    out[1] = (this.cellsX * c) / gl;
    out[3] = Math.abs(gyn) / gl; // 1 where the border runs across (horizontal), 0 where it runs along v
    out[2] = id;
  }
}

/**
 * Bark: vertical plates separated by dark furrows, with cross cracks and fine grain, grey-brown.
 * Tiles in u and v (every noise is periodic over the unit square), so the tube's seam and the
 * repeats along the branch do not show.
 */
export function makeBarkTexture(size = 256, seed = 1): TextureData {
  const w = size, h = size;
  const data = new Uint8Array(4 * w * h);
  const rng = new Rng(seed ^ 0x5eedba4c);
  const warp = new TileableFbm(3, 3, 4, rng.int(0x7fffffff));
  const warp2 = new TileableFbm(2, 5, 3, rng.int(0x7fffffff));
  const grain = new TileableFbm(24, 6, 3, rng.int(0x7fffffff), 0.6);
  const rough = new TileableFbm(8, 8, 4, rng.int(0x7fffffff), 0.55);
  const blotch = new TileableFbm(3, 3, 4, rng.int(0x7fffffff));
  const cx = 8, cy = 3;
  const plates = new TileableCells(cx, cy, rng.int(0x7fffffff));
  const cellTint = new Float32Array(cx * cy);
  for (let i = 0; i < cellTint.length; i++) cellTint[i] = rng.next();
  const cell = new Float64Array(4);
  // Pass 1: a height field (plates high, furrows low) and the albedo.
  const height = new Float32Array(w * h);
  const albedo = new Float32Array(3 * w * h);
  for (let y = 0; y < h; y++) {
    const v = y / h;
    for (let x = 0; x < w; x++) {
      const u = x / w;
      // Domain warp keeps the furrows wavy and interlaced.
      const du = 0.04 * warp.sample(u, v) + 0.02 * warp2.sample(u, v);
      const dv = 0.04 * warp.sample(fract(u + 0.37), fract(v + 0.61));
      plates.sample(fract(u + du), fract(v + dv), 0.25, cell);
      // Distance to the furrow between two plates; borders running across the bark are shallow
      // cracks rather than furrows, so they count as farther away.
      const edge = cell[1] + 0.09 * smoothstep(0.55, 0.95, cell[3]);
      const g = grain.sample(u, v);
      const rg = rough.sample(u, v);
      const b = blotch.sample(u, v);
      const tint = cellTint[cell[2] | 0];
      const e = edge + 0.04 * rg;
      const plate = smoothstep(0.03, 0.13, e); // 0 in the furrow, 1 on the plate
      const i = y * w + x;
      // Rounded plates (pillow profile) with vertical fibres; rough furrow floor.
      const pillow = Math.pow(Math.min(1, Math.max(0, e) / 0.45), 0.55);
      height[i] = pillow * (0.8 + 0.1 * rg) + 0.12 * g * plate + (1 - plate) * 0.1 * rg;
      // Albedo: grey-brown plates, dark brown furrows, a little lichen grey-green in blotches.
      const lum = 0.58 + 0.07 * g + 0.08 * b + 0.12 * (tint - 0.5) + 0.05 * rg;
      // Plates vary between warm brown and cool grey.
      const warm = Math.min(1, Math.max(0, 0.5 + 0.8 * b + 0.5 * (tint - 0.5)));
      let r = lum * (0.78 + 0.12 * warm), gg = lum * (0.76 - 0.02 * warm), bl = lum * (0.72 - 0.14 * warm);
      const lichen = smoothstep(0.2, 0.55, b) * 0.35 * plate;
      r += lichen * (0.56 - r); gg += lichen * (0.58 - gg); bl += lichen * (0.5 - bl);
      const dark = 1 - plate;
      r += dark * (0.16 - r); gg += dark * (0.11 - gg); bl += dark * (0.08 - bl);
      albedo[3 * i] = r; albedo[3 * i + 1] = gg; albedo[3 * i + 2] = bl;
    }
  }
  // Pass 2: baked relief, light from the upper left, finite differences wrapping at the edges.
  const lx = -0.45, ly = 0.45, lz = 0.77;
  const bump = 2.2;
  for (let y = 0; y < h; y++) {
    const ym = (y + h - 1) % h, yp = (y + 1) % h;
    for (let x = 0; x < w; x++) {
      const xm = (x + w - 1) % w, xp = (x + 1) % w;
      const i = y * w + x;
      const dx = (height[y * w + xp] - height[y * w + xm]) * 0.5 * bump;
      const dy = (height[yp * w + x] - height[ym * w + x]) * 0.5 * bump;
      const inv = 1 / Math.sqrt(dx * dx + dy * dy + 1);
      const lambert = Math.max(0, (-dx * lx - dy * ly + lz) * inv);
      const shade = (0.35 + 0.65 * lambert / lz) * (0.8 + 0.2 * height[i]);
      const o = 4 * i;
      data[o] = to8(albedo[3 * i] * shade);
      data[o + 1] = to8(albedo[3 * i + 1] * shade);
      data[o + 2] = to8(albedo[3 * i + 2] * shade);
      data[o + 3] = 255;
    }
  }
  return { width: w, height: h, data };
}

/**
 * Leaf: an ovate blade with a pointed tip, a slightly serrated margin, a midrib and pinnate
 * veins, green shades; alpha 255 inside, 0 outside (for alpha testing). The petiole sits at the
 * bottom centre, v = 0 (row 0); the tip near v = 1. Pixels outside the leaf keep the edge colour
 * so mipmaps do not bleed a dark fringe.
 */
export function makeLeafTexture(size = 128, seed = 1): TextureData {
  const w = size, h = size;
  const data = new Uint8Array(4 * w * h);
  const rng = new Rng(seed ^ 0x1eaf_0001);
  const tone = new TileableFbm(4, 4, 4, rng.int(0x7fffffff));
  const fine = new TileableFbm(16, 16, 2, rng.int(0x7fffffff));
  const serrations = 14 + rng.int(6);
  const serrPhase = rng.next();
  const veinCount = 6 + rng.int(3);
  const hueShift = (rng.next() - 0.5) * 0.08;
  const y0 = 0.14; // blade base (petiole below)
  const y1 = 0.97; // tip
  const maxHalf = 0.38; // half width at the widest point, in texture units
  const edgeR = 0.2, edgeG = 0.38, edgeB = 0.1;
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const cx = u - 0.5; // across, 0 on the midrib
      const ax = Math.abs(cx);
      const o = 4 * (y * w + x);
      let inside = false;
      let r = edgeR, g = edgeG, b = edgeB;
      const t = (v - y0) / (y1 - y0); // 0 at the blade base, 1 at the tip
      if (t >= 0 && t <= 1) {
        // Ovate outline: widest below the middle, rounded base, pointed tip.
        let half = maxHalf * Math.pow(Math.sin(Math.PI * Math.pow(t, 0.75)), 0.8);
        // Serrated margin: small teeth pointing to the tip.
        const tooth = fract(t * serrations + serrPhase);
        half *= 1 - 0.035 * tooth * smoothstep(0.05, 0.25, t) * (1 - smoothstep(0.9, 1, t));
        if (ax <= half) {
          inside = true;
          const across = half > 1e-6 ? ax / half : 1; // 0 at the midrib, 1 at the margin
          // Base colour: mid green, lighter toward the centre, warmer toward the tip and margin.
          const n = tone.sample(u, v);
          const nf = fine.sample(u, v);
          let lum = 0.92 + 0.12 * n + 0.04 * nf - 0.18 * across * across;
          r = (0.2 + 0.06 * t + hueShift) * lum;
          g = (0.47 + 0.04 * (1 - t)) * lum;
          b = (0.12 + 0.02 * n) * lum;
          // Pinnate secondary veins: lines leaving the midrib toward the margin, angled tipward.
          const vein = Math.abs(fract((t - 0.9 * across * half / maxHalf * 0.42) * veinCount + 0.5) - 0.5);
          const veinWidth = 0.05 * (1 - 0.6 * across);
          const veinMask = (1 - smoothstep(veinWidth * 0.4, veinWidth, vein)) * smoothstep(0.0, 0.06, t) * (1 - smoothstep(0.75, 0.98, across));
          // Midrib: a pale line down the centre, narrowing toward the tip.
          const ribWidth = 0.012 * (1 - 0.7 * t) + 0.002;
          const ribMask = 1 - smoothstep(ribWidth * 0.5, ribWidth, ax);
          // Margin: slightly darker rim.
          const rim = smoothstep(0.86, 1.0, across);
          const pale = Math.max(veinMask * 0.55, ribMask);
          r = r * (1 - pale) + pale * 0.5 * lum;
          g = g * (1 - pale) + pale * 0.66 * lum;
          b = b * (1 - pale) + pale * 0.28 * lum;
          lum = 1 - 0.22 * rim;
          r *= lum; g *= lum; b *= lum;
        }
      } else if (v < y0 + 0.01 && v > 0.0) {
        // Petiole: a short stalk from the bottom edge to the blade base, bottom centre.
        const stalk = 0.014 * (1 - 0.3 * (v / y0));
        if (ax <= stalk) {
          inside = true;
          r = 0.36; g = 0.44; b = 0.16;
          const shade = 1 - 0.35 * (ax / stalk);
          r *= shade; g *= shade; b *= shade;
        }
      }
      data[o] = to8(r);
      data[o + 1] = to8(g);
      data[o + 2] = to8(b);
      data[o + 3] = inside ? 255 : 0;
    }
  }
  return { width: w, height: h, data };
}

function mod(a: number, n: number): number {
  const r = a % n;
  return r < 0 ? r + n : r;
}
function fract(x: number): number {
  return x - Math.floor(x);
}
function smoothstep(e0: number, e1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
}
function to8(x: number): number {
  const c = Math.round(x * 255);
  return c < 0 ? 0 : c > 255 ? 255 : c;
}
