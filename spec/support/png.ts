/**
 * A tiny PNG encoder and decoder for node specs (8-bit RGBA, not interlaced): the sample models'
 * textures (spec/tree/model-writer.spec.ts). Rows are written top first, so an image whose row 0
 * is v = 0 (app/tree/textures.ts) has v = 0 at the PNG's top, as glTF reads it.
 *
 * Compression is node's zlib (deflateSync). Its output is not guaranteed to be the same byte for
 * byte across zlib builds (node bundles Chromium's zlib, whose hashing may depend on the CPU), so
 * compare PNGs by their pixels (decodePng), not their bytes.
 */
import { deflateSync, inflateSync } from "node:zlib";

export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  /** RGBA, row-major, row 0 first (the PNG's top row). */
  readonly data: Uint8Array;
}

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (ISO 3309, as PNG chunks use) of `bytes`. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * PNG bytes of an RGBA image. Each row takes the filter (none, sub, up, average, Paeth) whose
 * output has the smallest sum of absolute values (libpng's heuristic); zlib level 9.
 */
export function encodePng(image: RgbaImage): Uint8Array<ArrayBuffer> {
  const { width: w, height: h, data } = image;
  if (!(Number.isInteger(w) && Number.isInteger(h) && w > 0 && h > 0) || data.length !== 4 * w * h) {
    throw new RangeError(`an RGBA image of ${w} x ${h} needs ${4 * w * h} bytes; got ${data.length}`);
  }
  const stride = 4 * w;
  const raw = new Uint8Array(h * (stride + 1));
  const candidate = new Uint8Array(stride);
  for (let y = 0; y < h; y++) {
    let best = Infinity;
    for (let f = 0; f < 5; f++) {
      let cost = 0;
      for (let i = 0; i < stride; i++) {
        const x = data[y * stride + i];
        const a = i >= 4 ? data[y * stride + i - 4] : 0;
        const b = y > 0 ? data[(y - 1) * stride + i] : 0;
        const c = i >= 4 && y > 0 ? data[(y - 1) * stride + i - 4] : 0;
        const v = (x - predict(f, a, b, c)) & 0xff;
        candidate[i] = v;
        cost += v < 128 ? v : 256 - v;
      }
      if (cost < best) {
        best = cost;
        raw[y * (stride + 1)] = f;
        raw.set(candidate, y * (stride + 1) + 1);
      }
    }
  }
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, w);
  hv.setUint32(4, h);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filtering, not interlaced
  const chunks = [chunk("IHDR", header), chunk("IDAT", new Uint8Array(deflateSync(raw, { level: 9 }))), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(SIGNATURE.length + chunks.reduce((s, c) => s + c.length, 0));
  out.set(SIGNATURE, 0);
  let at = SIGNATURE.length;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The pixels of an 8-bit RGBA, non-interlaced PNG (what encodePng writes); checks every chunk's CRC. */
export function decodePng(png: Uint8Array): RgbaImage {
  for (let i = 0; i < SIGNATURE.length; i++) if (png[i] !== SIGNATURE[i]) throw new Error("not a PNG: bad signature");
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = SIGNATURE.length, w = 0, h = 0;
  const idat: Uint8Array[] = [];
  for (;;) {
    const length = dv.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const body = png.subarray(at + 8, at + 8 + length);
    if (crc32(png, at + 4, at + 8 + length) !== dv.getUint32(at + 8 + length)) throw new Error(`PNG chunk ${type}: bad CRC`);
    if (type === "IHDR") {
      w = dv.getUint32(at + 8);
      h = dv.getUint32(at + 12);
      if (body[8] !== 8 || body[9] !== 6 || body[12] !== 0) throw new Error("only 8-bit RGBA, non-interlaced PNGs are read here");
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = new Uint8Array(inflateSync(Buffer.concat(idat)));
  const stride = 4 * w;
  const data = new Uint8Array(stride * h);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const a = i >= 4 ? data[y * stride + i - 4] : 0;
      const b = y > 0 ? data[(y - 1) * stride + i] : 0;
      const c = i >= 4 && y > 0 ? data[(y - 1) * stride + i - 4] : 0;
      data[y * stride + i] = (raw[y * (stride + 1) + 1 + i] + predict(f, a, b, c)) & 0xff;
    }
  }
  return { width: w, height: h, data };
}

/** PNG filter f's prediction from the left (a), upper (b) and upper-left (c) bytes. */
function predict(f: number, a: number, b: number, c: number): number {
  switch (f) {
    case 0: return 0;
    case 1: return a;
    case 2: return b;
    case 3: return (a + b) >> 1;
    case 4: {
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default: throw new Error(`PNG filter ${f} unknown`);
  }
}

function chunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, body.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(body, 8);
  dv.setUint32(8 + body.length, crc32(out, 4, 8 + body.length));
  return out;
}
