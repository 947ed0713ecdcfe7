/**
 * Telling a motion file from a tree model without loading it: a GLB's JSON chunk read for a skinned
 * animation, and the mark the sandbox's own exports carry (plain TypeScript, no Babylon).
 */

/** The GLB's extras.source of a motion the sandbox exported: how a file brought back is known as one. */
export const SANDBOX_SOURCE = "Tree Wind Sandbox";

/** What a GLB's JSON says of a motion in it: its first animation's name, and the program that wrote it (extras.source). */
export interface GlbMotion {
  clip: string;
  source: string | null;
  method: string | null;
}

/**
 * Whether `bytes` are a GLB holding a skinned animation, read from its JSON chunk alone (nothing
 * is loaded): the animation's name and, for the sandbox's own exports, `source` "Tree Wind
 * Sandbox" and the method. Null for anything else (not a GLB, no animation, no skin).
 */
export function glbMotion(bytes: Uint8Array): GlbMotion | null {
  if (bytes.length < 20) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // GLB header: magic "glTF", version, length; then the first chunk: length, type "JSON".
  if (view.getUint32(0, true) !== 0x46546c67 || view.getUint32(16, true) !== 0x4e4f534a) return null;
  const length = view.getUint32(12, true);
  if (20 + length > bytes.length) return null;
  let json: { animations?: { name?: string }[]; skins?: unknown[]; extras?: { source?: unknown; method?: unknown } };
  try {
    json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
  } catch {
    return null;
  }
  if (!json.animations?.length || !json.skins?.length) return null;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return { clip: json.animations[0].name ?? "", source: text(json.extras?.source), method: text(json.extras?.method) };
}
