/**
 * Telling a motion file from a tree model without loading it: a GLB's JSON chunk read for a skinned
 * animation, and the mark the sandbox's own exports carry (plain TypeScript, no Babylon).
 */
import { readGlbChunks } from "./glb";

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
  let json: { animations?: { name?: string }[]; skins?: unknown[]; extras?: { source?: unknown; method?: unknown } };
  try {
    json = readGlbChunks<typeof json>(bytes).json;
  } catch {
    return null;
  }
  if (!json.animations?.length || !json.skins?.length) return null;
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return { clip: json.animations[0].name ?? "", source: text(json.extras?.source), method: text(json.extras?.method) };
}
