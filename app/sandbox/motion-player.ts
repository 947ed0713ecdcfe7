/**
 * A motion file played back in the sandbox: an animated glTF (exportMotion()'s, or any GLB with a
 * skinned clip) loaded with Babylon's glTF loader and shown beside the tree on show, its clip
 * driven by the host's fixed clock (the pose at clock time t, the clip repeating), so it keeps
 * step with the live method, pauses with it and records frame-exact like it. One file at a time;
 * a file that fails leaves the one playing (if any) as it was.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { Observer } from "@babylonjs/core/Misc/observable";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { LoadedMotion } from "../export/playback";
import type { SandboxChange } from "./events";

/** What playMotion() takes: a file (picked, dropped, or exportMotion()'s `file`) or a URL. */
export interface MotionSource {
  file?: Blob;
  /** The file's name, for the panel and messages (a File's own name when not given). */
  name?: string;
  url?: string;
}

/** The motion file on show. */
export interface PlayingMotion {
  /** The file's name (or URL). */
  name: string;
  bones: number;
  seconds: number;
  clip: string;
  /** Where its root stands in the scene, beside the tree (x, y, z metres). */
  offset: [number, number, number];
}

export interface MotionPlayerHost {
  readonly scene: Scene;
  /** The fixed clock's time, seconds. */
  time(): number;
  /** The tree on show's horizontal reach from its base, metres (0 when none). */
  treeReach(): number;
}

export class MotionPlayer {
  private motion: LoadedMotion | null = null;
  private info: PlayingMotion | null = null;
  private observer: Observer<Scene> | null = null;

  constructor(private readonly host: MotionPlayerHost, private readonly changed: (what: SandboxChange) => void) {}

  /** The file on show, or null. */
  get playing(): PlayingMotion | null {
    return this.info ? { ...this.info, offset: [...this.info.offset] } : null;
  }

  /** Loads `src` and shows it beside the tree, playing on the clock; replaces the one on show once loaded. */
  async play(src: MotionSource): Promise<PlayingMotion> {
    const { blob, name } = await read(src);
    let motion: LoadedMotion;
    try {
      motion = await LoadedMotion.load(this.host.scene, blob);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new Error(`${name}: ${/no animation|no skeleton/.test(why) ? `${why}; a motion file is a glTF (.glb) with a skinned animation, such as Export motion writes` : `not a motion glTF (${why})`}`);
    }
    this.stop();
    // Beside the tree, clear of it (both reaches and a gap of a fifth of the larger), to the right
    // as the camera looks: side by side on screen.
    const a = this.host.treeReach(), b = motion.reach(), d = a + b + 0.2 * Math.max(a, b, 0.5);
    const [rx, rz] = this.screenRight();
    const offset: [number, number, number] = [d * rx, 0, d * rz];
    motion.place(offset);
    motion.showAt(this.host.time());
    this.motion = motion;
    this.info = { name, bones: motion.bones, seconds: motion.seconds, clip: motion.clip, offset };
    this.observer = this.host.scene.onBeforeRenderObservable.add(() => this.motion?.showAt(this.host.time()));
    this.changed("progress");
    return this.playing!;
  }

  /** The ground direction to the right on screen (x, z), +x without a camera. */
  private screenRight(): [number, number] {
    const cam = this.host.scene.activeCamera;
    if (!cam) return [1, 0];
    const r = cam.getDirection(Vector3.Right()), l = Math.hypot(r.x, r.z);
    return l > 1e-6 ? [r.x / l, r.z / l] : [1, 0];
  }

  /** Takes the file off show (nothing when none). */
  stop(): void {
    if (!this.motion) return;
    this.host.scene.onBeforeRenderObservable.remove(this.observer);
    this.observer = null;
    this.motion.dispose();
    this.motion = null;
    this.info = null;
    this.changed("progress");
  }

  /** Positions of the file's bones `bones` (xyz each, the file's own coordinates) at `t` seconds into its clip: for tests. */
  bonePositions(t: number, bones: readonly number[]): number[] {
    if (!this.motion) throw new Error("no motion file is playing");
    const p = this.motion.bonePositions(t, bones);
    this.motion.showAt(this.host.time());
    return p;
  }

  dispose(): void {
    this.stop();
  }
}

async function read(src: MotionSource): Promise<{ blob: Blob; name: string }> {
  if (src.file && src.url) throw new RangeError("playMotion(): give a file or a url, not both");
  if (src.file) return { blob: src.file, name: src.name ?? (src.file as File).name ?? "motion.glb" };
  if (!src.url) throw new RangeError("playMotion(): give { file } or { url } (null stops the one playing)");
  let response: Response;
  try {
    response = await fetch(src.url);
  } catch (e) {
    throw new Error(`${src.url} could not be fetched (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!response.ok) throw new Error(`${src.url} could not be fetched (HTTP ${response.status})`);
  return { blob: await response.blob(), name: src.name ?? src.url.split("/").pop() ?? src.url };
}
