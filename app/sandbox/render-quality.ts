/**
 * How much the renderer is asked to do per frame, chosen once when the page opens (antialiasing
 * is fixed when the WebGL context is made). "full": 4x multisampling and a 2048² shadow map per
 * view. "light": neither multisampling nor more than a 1024² shadow map, for renderers that draw
 * on the CPU (SwiftShader, llvmpipe, Windows' Basic Render Driver), where those two cost about a
 * third of every frame and the tree would stop being interactive. Nothing else differs: the same
 * methods, the same motion, the same frames' content.
 *
 * `?quality=full`, `?quality=light` or `?quality=auto` (the default) in the page address choose;
 * auto is light on a software renderer and full otherwise. Plain TypeScript, no Babylon.
 */

export type QualityLevel = "full" | "light";

export interface RenderQuality {
  level: QualityLevel;
  /** "auto": chosen from the renderer; "address": the page address asked for it. */
  chosenBy: "auto" | "address";
  /** The WebGL renderer's name as the browser reports it ("" when it says nothing). */
  renderer: string;
  /** The renderer's short name for people: "SwiftShader", "NVIDIA GeForce RTX 3060", ... */
  rendererName: string;
  /** The renderer draws on the CPU. */
  software: boolean;
  antialias: boolean;
  shadowMapSize: number;
  /** A `quality` field in the address that could not be used, said for a person; null when none. */
  problem: string | null;
}

export const QUALITY_LEVELS: Readonly<Record<QualityLevel, { antialias: boolean; shadowMapSize: number }>> = {
  full: { antialias: true, shadowMapSize: 2048 },
  light: { antialias: false, shadowMapSize: 1024 },
};

const SOFTWARE = /swiftshader|llvmpipe|softpipe|lavapipe|software|basic render/i;

/** Whether a WebGL renderer string names a renderer that draws on the CPU. */
export function isSoftwareRenderer(renderer: string): boolean {
  return SOFTWARE.test(renderer);
}

/** A renderer string's short name: the software renderer's, or the device inside ANGLE's "ANGLE (vendor, device (id) ...)". */
export function rendererName(renderer: string): string {
  const soft = SOFTWARE.exec(renderer);
  if (soft) return soft[0];
  const angle = /^ANGLE \([^,]*, ([^(,]+)/.exec(renderer);
  return (angle ? angle[1] : renderer.split(" (")[0]).trim();
}

/** The quality for a page address's query (`location.search`) on a renderer; an unusable `quality` value falls back to auto and is named in `problem`. */
export function chooseQuality(search: string, renderer: string): RenderQuality {
  const software = isSoftwareRenderer(renderer);
  const asked = new URLSearchParams(search).get("quality");
  let level: QualityLevel = software ? "light" : "full";
  let chosenBy: RenderQuality["chosenBy"] = "auto";
  let problem: string | null = null;
  if (asked === "full" || asked === "light") {
    level = asked;
    chosenBy = "address";
  } else if (asked !== null && asked !== "auto") {
    problem = `Address: quality '${asked}' is not one of full, light, auto; using auto (${level}${software ? ", a software renderer" : ""})`;
  }
  const { antialias, shadowMapSize } = QUALITY_LEVELS[level];
  return { level, chosenBy, renderer, rendererName: rendererName(renderer), software, antialias, shadowMapSize, problem };
}

/** The page address's query with `quality` set to `level` (the other fields kept). */
export function searchWithQuality(search: string, level: QualityLevel | "auto"): string {
  const q = new URLSearchParams(search);
  if (level === "auto") q.delete("quality");
  else q.set("quality", level);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** The browser's WebGL renderer name, read from a throwaway context that is released at once ("" when the browser hides it). */
export function probeRenderer(): string {
  try {
    const gl = document.createElement("canvas").getContext("webgl2") ?? document.createElement("canvas").getContext("webgl");
    if (!gl) return "";
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? "");
    gl.getExtension("WEBGL_lose_context")?.loseContext();
    return name;
  } catch {
    return "";
  }
}
