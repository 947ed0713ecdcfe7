/**
 * Models made elsewhere: reading them (files, a URL, a sample), importing them into a tree
 * (wood and leaves, up axis, branch hierarchy, binding) with a progress bar, and keeping the one
 * that failed so a person can correct it. The one owner of loaded models: `replaced()` is the one
 * place a model is disposed.
 */
import type { Scene } from "@babylonjs/core/scene";
import { fetchModelFiles, readModel, type LoadedModel, type ModelFile } from "../import/load";
import { importModel, type ImportedTree, type ImportOptions } from "../import/build";
import { guessRoles } from "../import/classify";
import type { PartRole } from "../import/model";
import type { ModelSample } from "../import/samples";
import { round3 } from "../math/round";
import type { TreeSummary } from "../tree/skeleton";
import { UP_AXES, type UpAxis } from "../tree/normalise";
import { messageOf, type SandboxChange } from "./events";

/** What `model()` says of the model on show, or of the last one that could not be shown. */
export interface ModelInfo {
  file: string;
  /** The sample's id, or null for a file given by a person. */
  sample: string | null;
  url: string | null;
  /** Every material, its role now, why, and whether a person corrected it. */
  roles: { material: string; role: PartRole; reason: string; corrected: boolean }[];
  trees: string[];
  tree: string;
  up: UpAxis | null;
  upDetected: boolean;
  scale: number;
  height: number;
  welded: boolean;
  pieces: number;
  leafPieces: number;
  notes: string[];
  /** Why it is not on show (a model that failed to become a tree, kept so it can be corrected); null when it is. */
  error: string | null;
}

/** A model on show, or loaded and waiting for a correction. */
export interface ModelSource {
  readonly loaded: LoadedModel;
  readonly imported: ImportedTree | null;
  readonly url: string | null;
  readonly sample: ModelSample | null;
  readonly options: ImportOptions;
  readonly error: string | null;
  /** For a model not shown: its materials' guessed roles (worked out once). */
  readonly guesses?: readonly { material: string; role: PartRole; reason: string }[];
}

/** What `loadTree()` asks of a model: where it comes from and the corrections. */
export interface ModelRequest {
  url?: string;
  files?: readonly File[];
  up?: UpAxis | "auto";
  roles?: Record<string, PartRole>;
  object?: string;
  /** Not for models: refused with a message. */
  grammar?: string;
  depth?: number;
}

export class ModelStore {
  /** A model loaded but not shown (its import failed), kept so its wood and leaves can be corrected. */
  private pending: ModelSource | null = null;
  private busy = false;
  private progressNow: { text: string; fraction: number } | null = null;

  /** `show(model)`: builds the imported model's tree and shows it (throws, showing nothing, when it cannot). */
  constructor(private readonly scene: Scene, private readonly changed: (what: SandboxChange) => void, private readonly show: (model: ModelSource) => TreeSummary) {}

  get importing(): boolean {
    return this.busy;
  }

  /** Loading and analysing a model, for a progress bar; null when no model is loading. */
  progress(): { text: string; fraction: number } | null {
    return this.progressNow ? { ...this.progressNow } : null;
  }

  private setProgress(p: { text: string; fraction: number } | null): void {
    this.progressNow = p;
    this.changed("progress");
  }

  /**
   * The tree on show changes from `old` to `next` (either may be null): the model no longer shown
   * is disposed, and so is a model that failed, once another tree is shown.
   */
  replaced(old: ModelSource | null, next: ModelSource | null): void {
    if (old && old.loaded !== next?.loaded) old.loaded.dispose();
    if (this.pending && this.pending.loaded !== next?.loaded && this.pending.loaded !== old?.loaded) this.pending.loaded.dispose();
    this.pending = null;
  }

  /**
   * Loads a model from files, a URL or a sample; or shows the model on show (`current`) or the one
   * that failed again with corrections (`up`, `roles`, `object`). Nothing is replaced until the new
   * tree is built: a model that cannot be read or has no wood leaves the tree on screen.
   */
  async load(src: ModelRequest, sample: ModelSample | null, current: ModelSource | null): Promise<TreeSummary> {
    if (src.grammar !== undefined || src.depth !== undefined) throw new RangeError("a model takes no grammar or depth: loadTree({ url }) or loadTree({ files })");
    if ([src.url !== undefined, src.files !== undefined, sample !== null].filter(Boolean).length > 1) throw new RangeError("loadTree takes one of url, files or preset");
    if (src.url !== undefined && (typeof src.url !== "string" || src.url.trim() === "")) throw new TypeError(`loadTree's url must be the model's address (a string); got ${JSON.stringify(src.url)}`);
    if (src.files !== undefined && (!Array.isArray(src.files) || src.files.length === 0 || !src.files.every((f) => f instanceof Blob && typeof (f as File).name === "string"))) throw new TypeError("loadTree's files must be the model's File objects (from a file chooser or a drop)");
    if (src.up !== undefined && src.up !== "auto" && !UP_AXES.includes(src.up)) throw new RangeError(`up must be "auto" or one of ${UP_AXES.join(", ")}; got ${JSON.stringify(src.up)}`);
    if (this.busy) throw new RangeError("a model is loading; wait for it to finish");
    this.busy = true;
    drawnAt = -Infinity;
    let fresh: LoadedModel | null = null;
    try {
      let base: { loaded: LoadedModel; url: string | null; sample: ModelSample | null; options: ImportOptions };
      if (src.url !== undefined || src.files !== undefined || sample) {
        const url = sample ? sample.url : src.url ?? null;
        this.setProgress({ text: `reading ${url ? url.split("/").pop() : src.files![0].name}`, fraction: 0 });
        await progressFrame();
        const files: ModelFile[] = src.files ? src.files.map((f) => ({ name: f.name, data: f })) : await fetchModelFiles(url!, sample?.extra ?? [], sample?.absent ?? []);
        fresh = await readModel(files, this.scene, url);
        base = { loaded: fresh, url, sample, options: {} };
      } else {
        const m = this.pending ?? current;
        if (!m) throw new RangeError("there is no model to correct: load one first (loadTree({ url }), the panel's model button, or drop a file on the view)");
        base = { loaded: m.loaded, url: m.url, sample: m.sample, options: { ...m.options, roles: m.options.roles ? { ...m.options.roles } : undefined } };
      }
      const options = base.options;
      if (src.up !== undefined) options.up = src.up === "auto" ? undefined : src.up;
      if (src.roles !== undefined) {
        if (typeof src.roles !== "object" || src.roles === null) throw new TypeError("roles maps material or part names (as the panel lists them) to \"wood\", \"leaves\" or \"ignore\"");
        options.roles = { ...options.roles, ...src.roles };
      }
      if (src.object !== undefined) options.tree = src.object;
      let imported: ImportedTree;
      try {
        imported = await importModel(base.loaded.data, options, async (fraction, text) => {
          this.setProgress({ text, fraction });
          await progressFrame();
        });
      } catch (e) {
        // Kept (and not shown) so the person can correct what went wrong: wood, leaves, up; a
        // correction that still fails keeps what was corrected so far.
        if (fresh || (this.pending && this.pending.loaded === base.loaded)) {
          if (fresh && this.pending && this.pending.loaded !== current?.loaded) this.pending.loaded.dispose();
          const guesses = this.pending?.loaded === base.loaded ? this.pending.guesses : guessRoles(base.loaded.data.primitives);
          this.pending = { ...base, imported: null, error: messageOf(e), guesses };
          fresh = null;
        }
        throw e;
      }
      // A pending model shown now is no longer pending (replaced() would dispose it otherwise).
      if (this.pending?.loaded === base.loaded) this.pending = null;
      const summary = this.show({ ...base, imported, error: null });
      fresh = null;
      return summary;
    } finally {
      fresh?.dispose();
      this.busy = false;
      this.setProgress(null);
    }
  }

  /** What `model()` reports: the model that failed first (the panel's corrections are for it), else `shown`. */
  info(shown: ModelSource | null): ModelInfo | null {
    const m = this.pending ?? shown;
    if (!m) return null;
    const i = m.imported;
    const roles = i ? i.roles.map((r) => ({ material: r.material, role: r.role, reason: r.reason, corrected: r.corrected })) : (m.guesses ?? []).map((g) => ({ material: g.material, role: m.options.roles?.[g.material] ?? g.role, reason: g.reason, corrected: m.options.roles?.[g.material] !== undefined }));
    return {
      file: m.loaded.data.name, sample: m.sample?.id ?? null, url: m.url, roles, trees: i ? [...i.trees] : [], tree: i?.tree ?? "",
      up: i?.up ?? m.options.up ?? null, upDetected: i?.upDetected ?? m.options.up === undefined, scale: i ? round3(i.scale) : 1, height: i ? round3(i.height) : 0,
      welded: i?.welded ?? false, pieces: i?.pieces ?? 0, leafPieces: i?.leafPieces ?? 0, error: m.error,
      // A sample's credit first (CC-BY asks for it wherever the model is shown).
      notes: [...(m.sample ? [`by ${m.sample.credit}`] : []), ...(i ? i.notes : m.loaded.data.warnings)],
    };
  }
}

/**
 * The progress bar is drawn at most every PROGRESS_FRAME_MS of work: a stage that followed a drawn
 * frame sooner goes on without waiting for another (on a software renderer a frame costs 100 ms or
 * more, and a small model's stages take a few ms each). The wall clock schedules only: the model
 * built is the same.
 */
const PROGRESS_FRAME_MS = 80;
let drawnAt = -Infinity;
async function progressFrame(): Promise<void> {
  if (typeof performance !== "undefined" && performance.now() - drawnAt < PROGRESS_FRAME_MS) return;
  await nextFrame();
  drawnAt = typeof performance !== "undefined" ? performance.now() : 0;
}

/** Waits for the page to draw a frame (a progress bar), then goes on; at once where there is no page. */
function nextFrame(): Promise<void> {
  if (typeof requestAnimationFrame === "undefined") return Promise.resolve();
  // A background tab runs no frames: a timer goes on without one.
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => setTimeout(() => (clearTimeout(timer), resolve()), 0));
  });
}
