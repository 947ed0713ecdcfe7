/**
 * The GLB container (glTF 2.0 binary): a 12-byte header, a JSON chunk, an optional binary chunk.
 * Plain TypeScript, no Babylon: the motion export reads and rewrites it, the model writer
 * (app/tree/model-writer.ts) writes our sample models with it, and a dropped file is
 * told apart by its JSON alone (motion-file.ts).
 */

const GLB_MAGIC = 0x46546c67, CHUNK_JSON = 0x4e4f534a, CHUNK_BIN = 0x004e4942;

/** The JSON and binary chunks of a GLB; throws for what is not one (or is cut short before its JSON). */
export function readGlbChunks<J>(bytes: Uint8Array): { json: J; bin: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 20 || view.getUint32(0, true) !== GLB_MAGIC) throw new Error("not a GLB file");
  let offset = 12, json: J | null = null;
  let bin: Uint8Array = new Uint8Array(0);
  while (offset + 8 <= bytes.byteLength) {
    const length = view.getUint32(offset, true), type = view.getUint32(offset + 4, true);
    if (offset + 8 + length > bytes.byteLength) throw new Error("a GLB file cut short");
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === CHUNK_JSON) json = JSON.parse(new TextDecoder().decode(body)) as J;
    else if (type === CHUNK_BIN) bin = body;
    offset += 8 + length;
  }
  if (!json) throw new Error("a GLB file without its JSON chunk");
  return { json, bin };
}

/** Rounded up to a multiple of 4 (GLB chunks are 4-byte aligned). */
export function pad4(n: number): number {
  return (n + 3) & ~3;
}

/** A GLB of this JSON and binary chunk (the JSON padded with spaces, the binary with zeros). */
export function writeGlbChunks(json: unknown, bin: Uint8Array): Uint8Array<ArrayBuffer> {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = pad4(text.length), binLength = pad4(bin.length);
  const total = 12 + 8 + jsonLength + 8 + binLength;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + jsonLength);
  const b = 20 + jsonLength;
  view.setUint32(b, binLength, true);
  view.setUint32(b + 4, CHUNK_BIN, true);
  out.set(bin, b + 8);
  return out;
}
