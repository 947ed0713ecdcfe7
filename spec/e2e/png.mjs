// A tiny PNG decoder (node's zlib only) for reading pixels back from screenshots.
// Handles 8-bit greyscale, grey+alpha, RGB and RGBA, non-interlaced: what Chromium writes.
import { inflateSync } from "node:zlib";
import { Buffer } from "node:buffer";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * Decodes a PNG buffer into { width, height, data } with `data` as RGBA bytes, row by row,
 * plus `pixel(x, y)` returning [r, g, b, a] (coordinates clamped to the image).
 */
export function decodePng(buf) {
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  let offset = 8;
  let header = null;
  const idat = [];
  while (offset + 8 <= buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString("latin1", offset + 4, offset + 8);
    const body = buf.subarray(offset + 8, offset + 8 + length);
    offset += 12 + length;
    if (type === "IHDR") {
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        bitDepth: body[8],
        colorType: body[9],
        interlace: body[12],
      };
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") break;
  }
  if (!header) throw new Error("PNG without IHDR");
  const { width, height, bitDepth, colorType, interlace } = header;
  const channels = CHANNELS[colorType];
  if (bitDepth !== 8 || !channels || interlace !== 0) {
    throw new Error(`unsupported PNG: bit depth ${bitDepth}, colour type ${colorType}, interlace ${interlace}`);
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error("PNG data too short");
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : null;
    unfilter(filter, src, row, prev, channels);
  }
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    const o = i * 4;
    if (channels >= 3) {
      data[o] = pixels[j];
      data[o + 1] = pixels[j + 1];
      data[o + 2] = pixels[j + 2];
      data[o + 3] = channels === 4 ? pixels[j + 3] : 255;
    } else {
      data[o] = data[o + 1] = data[o + 2] = pixels[j];
      data[o + 3] = channels === 2 ? pixels[j + 1] : 255;
    }
  }
  return {
    width,
    height,
    data,
    pixel(x, y) {
      const cx = Math.min(width - 1, Math.max(0, Math.round(x)));
      const cy = Math.min(height - 1, Math.max(0, Math.round(y)));
      const o = (cy * width + cx) * 4;
      return [data[o], data[o + 1], data[o + 2], data[o + 3]];
    },
  };
}

function unfilter(filter, src, row, prev, bpp) {
  for (let i = 0; i < src.length; i++) {
    const a = i >= bpp ? row[i - bpp] : 0;
    const b = prev ? prev[i] : 0;
    const c = prev && i >= bpp ? prev[i - bpp] : 0;
    let v;
    switch (filter) {
      case 0: v = src[i]; break;
      case 1: v = src[i] + a; break;
      case 2: v = src[i] + b; break;
      case 3: v = src[i] + ((a + b) >> 1); break;
      case 4: v = src[i] + paeth(a, b, c); break;
      default: throw new Error(`bad PNG filter ${filter}`);
    }
    row[i] = v & 255;
  }
}

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Sum of absolute RGB differences of two pixels. */
export function colourDistance(p, q) {
  return Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]);
}

/** How many pixels of two same-sized images differ by more than `threshold` (RGB sum). */
export function countDifferentPixels(a, b, threshold = 24, region = null) {
  if (a.width !== b.width || a.height !== b.height) throw new Error("images differ in size");
  const x0 = region ? Math.max(0, Math.floor(region.left)) : 0;
  const y0 = region ? Math.max(0, Math.floor(region.top)) : 0;
  const x1 = region ? Math.min(a.width, Math.ceil(region.left + region.width)) : a.width;
  const y1 = region ? Math.min(a.height, Math.ceil(region.top + region.height)) : a.height;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const o = (y * a.width + x) * 4;
      const d = Math.abs(a.data[o] - b.data[o]) + Math.abs(a.data[o + 1] - b.data[o + 1]) + Math.abs(a.data[o + 2] - b.data[o + 2]);
      if (d > threshold) n++;
    }
  }
  return n;
}

/** How many pixels (optionally within `region`) satisfy `test([r, g, b])`. */
export function countPixels(img, test, region = null) {
  const x0 = region ? Math.max(0, Math.floor(region.left)) : 0;
  const y0 = region ? Math.max(0, Math.floor(region.top)) : 0;
  const x1 = region ? Math.min(img.width, Math.ceil(region.left + region.width)) : img.width;
  const y1 = region ? Math.min(img.height, Math.ceil(region.top + region.height)) : img.height;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const o = (y * img.width + x) * 4;
      if (test([img.data[o], img.data[o + 1], img.data[o + 2]])) n++;
    }
  }
  return n;
}
