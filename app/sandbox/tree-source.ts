/**
 * The tree on show and where it came from: a shipped grammar, a grammar's text, or a model made
 * elsewhere (files, a URL or a sample). Derives and rebuilds grammar trees (depth, taper), loads
 * and re-imports models with a person's corrections (up axis, wood and leaves, which tree of a
 * scene), and is the one owner of loaded models: the one place one is disposed. Nothing is
 * replaced until the new tree is built, so bad input leaves the tree a person had.
 */
import type { Scene } from "@babylonjs/core/scene";
import { grammarToSkeleton, parseGrammar } from "../lsystem/lsystem";
import { TREE_PRESETS } from "../lsystem/presets";
import { DEPTH_RANGE } from "../lsystem/depth";
import { buildTreeGeometry, type TreeGeometry } from "../tree/geometry";
import { treeHeight, type TreeSkeleton, type TreeSummary } from "../tree/skeleton";
import { applyTaper, TAPER_RANGE } from "../tree/taper";
import { MODEL_SAMPLES, modelSample } from "../import/samples";
import type { SandboxChange } from "./events";
import { ModelStore, type ModelInfo, type ModelSource } from "./model-store";
import type { TreeLook } from "./tree-view";
import { round3 } from "../math/round";
import type { PartRole } from "../import/model";
import type { UpAxis } from "../tree/normalise";

export type { ModelInfo } from "./model-store";

export const DEFAULT_TREE = "habel";
/** Vertices a tree may have: past this a software renderer stalls and a real one gains nothing visible. */
export const MAX_TREE_VERTICES = 2_000_000;
/** The name a grammar without a file name goes by in messages. */
export const UNNAMED_GRAMMAR = "grammar.lsys";
/** The tree name (in the URL and `treeName`) of a grammar that is not a shipped preset. */
export const CUSTOM_TREE = "custom";
/** The tree name of a model given as files or by a URL that is not a sample. */
export const MODEL_TREE = "model";

/** What `loadTree()` takes. */
export interface TreeSource {
  /** A shipped grammar or a sample model (`trees()`). */
  preset?: string;
  /** Grammar text (the .lsys format); derived to its own `#depth` unless `depth` is given. */
  grammar?: string;
  /** With `grammar`: the file it came from ("oak.lsys"), for error messages and the panel. */
  name?: string;
  /** A model file's URL (.glb, .gltf, .obj); the files it names are fetched from beside it. */
  url?: string;
  /** A model's files, as picked or dropped: the model file and its companions (.bin, .mtl, textures). */
  files?: readonly File[];
  /** The model's up axis, when the one detected is wrong ("auto": detect again). */
  up?: UpAxis | "auto";
  /** Corrections of the model's wood and leaves, by material name. */
  roles?: Record<string, PartRole>;
  /** The tree to show when the model's file holds several (`model().trees`). */
  object?: string;
  taper?: number;
  depth?: number;
}

/** The tree every view shows a copy of (skeleton and geometry are shared, read-only). */
export interface ShownTree {
  readonly skeleton: TreeSkeleton;
  readonly geometry: TreeGeometry;
  readonly look: TreeLook | null;
}

/** Where a tree is shown: `clear()` drops what is on show, `show()` puts a new tree in every view. */
export interface TreeStage {
  clear(): void;
  show(tree: ShownTree): void;
}

/** The tree as the source defined it, before taper: kept so taper can rebuild without re-deriving. */
interface SourceTree {
  /** Preset name, CUSTOM_TREE, a sample's id or MODEL_TREE. */
  name: string;
  /** The grammar's file name ("habel.lsys", "oak.lsys"), or the model's: in messages and on the panel. */
  fileName: string;
  grammar: string;
  depth: number;
  skeleton: TreeSkeleton;
  /** A model made elsewhere: its own geometry and materials. */
  model?: ModelSource;
}

export class TreeSourceManager {
  private source: SourceTree | null = null;
  private taperValue: number = TAPER_RANGE.default;
  private shown: ShownTree | null = null;
  readonly models: ModelStore;

  constructor(scene: Scene, private readonly stage: TreeStage, private readonly changed: (what: SandboxChange) => void) {
    this.models = new ModelStore(scene, changed, (src) => this.showModel(src));
  }

  /** Derives a grammar and shows it; `depth` undefined: the grammar's own `#depth`. */
  buildTree(name: string, fileName: string, grammar: string, depth: number | undefined, taper: number): TreeSummary {
    prepared = null;
    // A grammar error or an exploding depth throws here, before anything is replaced.
    const source = deriveSource(name, fileName, grammar, depth, taper);
    return this.rebuild(source, taper);
  }

  /** A shipped grammar at its own depth (or `depth`); the tree prepareAddressTree() built for it, when it asked the same. */
  buildPreset(name: string, depth: number | undefined, taper: number): TreeSummary {
    const p = prepared;
    prepared = null;
    if (p && p.source.name === name && p.source.depth === (depth ?? presetDepth(name)) && p.taper === taper) return this.rebuild(p.source, taper, p.meshes);
    return this.buildTree(name, `${name}.lsys`, presetText(name), depth ?? presetDepth(name), taper);
  }

  /** Applies taper to the source skeleton, rebuilds the meshes and restarts the methods on them. */
  private rebuild(source: SourceTree, taper: number, meshes: Meshes = meshesOf(source, taper)): TreeSummary {
    const { skeleton, geometry } = meshes;
    const imported = source.model?.imported;
    // Nothing has been replaced until here: an error above leaves the tree the person had.
    this.stage.clear();
    this.models.replaced(this.source?.model ?? null, source.model ?? null);
    this.source = source;
    this.taperValue = taper;
    const m = source.model;
    const look = m && imported ? { bark: m.loaded.looks.get(imported.woodMaterial)!, leaves: imported.leafMaterial !== null ? m.loaded.looks.get(imported.leafMaterial) ?? null : null } : null;
    this.shown = { skeleton, geometry, look };
    this.stage.show(this.shown);
    this.changed("tree");
    return this.summary();
  }

  /**
   * Shows another sandbox's tree as it is (its skeleton and geometry are shared, read-only): the
   * off-screen sandbox of a calibration runs the methods on the very tree on show, model or grammar.
   */
  adopt(tree: ShownTree, name: string): TreeSummary {
    return this.rebuild({ name: CUSTOM_TREE, fileName: name, grammar: "", depth: 0, skeleton: tree.skeleton }, this.taperValue, tree);
  }

  private showModel(model: ModelSource): TreeSummary {
    return this.rebuild({ name: model.sample?.id ?? MODEL_TREE, fileName: model.loaded.data.name, grammar: "", depth: 0, skeleton: model.imported!.skeleton, model }, this.taperValue);
  }

  /** Any tree: a preset, a grammar, a model, or the tree on show at another depth or taper. */
  async load(src: TreeSource): Promise<TreeSummary> {
    if (typeof src !== "object" || src === null) throw new TypeError("loadTree takes an object such as { preset: \"habel\" }, { grammar }, { url } or { files }");
    // A sample by its id, or by its address (its list of files not shipped comes with it).
    const sample = typeof src.preset === "string" ? modelSample(src.preset) : typeof src.url === "string" ? MODEL_SAMPLES.find((m) => m.url === (src.url as string).replace(/^\.?\//, "")) : undefined;
    if (sample && src.url !== undefined) src = { ...src, url: undefined };
    if (sample || src.url !== undefined || src.files !== undefined || src.up !== undefined || src.roles !== undefined || src.object !== undefined) {
      return this.models.load(src, sample ?? null, this.source?.model ?? null);
    }
    if (this.models.importing) throw new RangeError("a model is loading; wait for it to finish, then change the tree");
    if (src.preset !== undefined && src.grammar !== undefined) throw new RangeError("loadTree takes a preset or a grammar, not both");
    if (src.name !== undefined && src.grammar === undefined) throw new RangeError("loadTree's name goes with a grammar: loadTree({ grammar, name })");
    if (src.grammar !== undefined && typeof src.grammar !== "string") throw new TypeError(`loadTree's grammar must be the grammar's text (a string); got ${typeof src.grammar}`);
    const taper = src.taper ?? this.taperValue;
    const s = this.source!;
    if (src.grammar !== undefined) return this.buildTree(CUSTOM_TREE, grammarFileName(src.name), src.grammar, src.depth, taper);
    if (src.preset !== undefined) {
      if (!TREE_PRESETS.some((p) => p.name === src.preset)) throw new RangeError(`No tree preset "${src.preset}"; the trees are: ${treeNames().join(", ")}`);
      return this.buildPreset(src.preset, src.depth, taper);
    }
    if (s.model && (src.depth !== undefined || src.taper !== undefined)) {
      throw new RangeError(`${s.fileName} is a model: derivation depth and taper shape trees grown from grammars; a model keeps its own branches and bark`);
    }
    if (src.depth !== undefined && src.depth !== s.depth) return this.buildTree(s.name, s.fileName, s.grammar, src.depth, taper);
    checkTaper(taper);
    return this.rebuild(s, taper);
  }

  summary(): TreeSummary & { model?: ModelInfo } {
    const t = this.shown!, s = t.skeleton;
    const out: TreeSummary & { model?: ModelInfo } = { branches: s.branchCount, levels: s.levels, leaves: s.leafCount, vertices: t.geometry.vertexCount, tips: s.branchCount, height: round3(treeHeight(s)) };
    if (this.source?.model) out.model = this.models.info(this.source.model)!;
    return out;
  }

  /** The model on show, or the last one loaded that could not be shown (with why); null when neither. */
  modelInfo(): ModelInfo | null {
    return this.models.info(this.source?.model ?? null);
  }

  get tree(): ShownTree | null {
    return this.shown;
  }
  /** A model made elsewhere is on show (not a tree grown from a grammar). */
  get isModel(): boolean {
    return this.source?.model !== undefined;
  }
  /** The preset on show, "custom" for a grammar loaded as text or from a file, a sample's id or "model". */
  get name(): string {
    return this.source?.name ?? DEFAULT_TREE;
  }
  /** The file name of the grammar (or model) on show. */
  get fileName(): string {
    return this.source?.fileName ?? `${DEFAULT_TREE}.lsys`;
  }
  get depth(): number {
    return this.source?.depth ?? presetDepth(DEFAULT_TREE);
  }
  get taper(): number {
    return this.taperValue;
  }

  /** What the page address keeps of the tree: a grammar's name and depth, a sample's id, or a model's URL. */
  addressFields(): { tree: string; model?: string; depth: number; taper: number } {
    const m = this.source?.model;
    if (!m) return { tree: this.name, depth: this.depth, taper: this.taperValue };
    return { tree: m.sample?.id ?? DEFAULT_TREE, model: m.sample ? undefined : m.url ?? undefined, depth: presetDepth(DEFAULT_TREE), taper: this.taperValue };
  }

  dispose(): void {
    this.stage.clear();
    this.models.replaced(this.source?.model ?? null, null);
    this.source = null;
    this.shown = null;
  }
}

/** The shipped grammars, then the sample models. */
export function treeNames(): string[] {
  return [...TREE_PRESETS.map((p) => p.name), ...MODEL_SAMPLES.map((m) => m.id)];
}

/** The skeleton and geometry a tree is shown with. */
interface Meshes {
  readonly skeleton: TreeSkeleton;
  readonly geometry: TreeGeometry;
}

/**
 * The tree the page address names, built while the address is read (url-sync.ts), so that a depth
 * past the module cap or the vertex budget falls back on its own; the start's buildPreset() shows
 * it without building it again (and drops it whatever it asks).
 */
let prepared: { source: SourceTree; taper: number; meshes: Meshes } | null = null;

/**
 * Builds (derives, tapers and meshes) a shipped grammar at `depth` (undefined: its own) and keeps it
 * for the next buildPreset(); throws, keeping nothing, where buildPreset() would (the module cap,
 * the vertex budget, a depth or taper out of range).
 */
export function prepareAddressTree(name: string, depth: number | undefined, taper: number): void {
  prepared = null;
  const source = deriveSource(name, `${name}.lsys`, presetText(name), depth ?? presetDepth(name), taper);
  prepared = { source, taper, meshes: meshesOf(source, taper) };
}

/** Checks depth and taper and derives a grammar (a grammar error or the module cap throws here, located in `fileName`). */
function deriveSource(name: string, fileName: string, grammar: string, depth: number | undefined, taper: number): SourceTree {
  depth ??= parseGrammar(grammar, fileName).depth;
  if (!Number.isInteger(depth) || depth < DEPTH_RANGE.min || depth > DEPTH_RANGE.max) {
    throw new RangeError(`depth must be a whole number from ${DEPTH_RANGE.min} to ${DEPTH_RANGE.max}; got ${depth}`);
  }
  checkTaper(taper);
  const skeleton = grammarToSkeleton(grammar, { depth, seed: 1, fileName });
  return { name, fileName, grammar, depth, skeleton };
}

/** The tree's skeleton after taper and its geometry; a RangeError past the vertex budget. */
function meshesOf(source: SourceTree, taper: number): Meshes {
  const imported = source.model?.imported;
  // A model keeps its own bark: taper shapes trees grown from grammars.
  const skeleton = imported ? imported.skeleton : applyTaper(source.skeleton, taper);
  const geometry = imported ? imported.geometry : buildTreeGeometry(skeleton);
  if (geometry.vertexCount > MAX_TREE_VERTICES) {
    throw new RangeError(
      `${source.name === CUSTOM_TREE ? source.fileName : source.name} at depth ${source.depth} would have ${(geometry.vertexCount / 1e6).toFixed(1)} million vertices ` +
        `(budget ${MAX_TREE_VERTICES.toLocaleString("en-US")}); lower the depth`,
    );
  }
  return { skeleton, geometry };
}

function checkTaper(taper: number): void {
  if (!(taper >= TAPER_RANGE.min && taper <= TAPER_RANGE.max)) throw new RangeError(`taper must be a number from ${TAPER_RANGE.min} to ${TAPER_RANGE.max}; got ${taper}`);
}

/** The name a loaded grammar goes by: the file's own name (no folders), or UNNAMED_GRAMMAR. */
function grammarFileName(name: string | undefined): string {
  if (name === undefined) return UNNAMED_GRAMMAR;
  if (typeof name !== "string") throw new TypeError(`loadTree's name must be a file name such as "oak.lsys"; got ${typeof name}`);
  const base = name.split(/[\\/]/).pop()!.trim();
  return base === "" ? UNNAMED_GRAMMAR : base.length > 80 ? base.slice(0, 77) + "..." : base;
}

function presetText(name: string): string {
  const p = TREE_PRESETS.find((t) => t.name === name);
  if (!p) throw new RangeError(`No tree preset "${name}"`);
  return p.text;
}
export function presetDepth(name: string): number {
  return TREE_PRESETS.find((t) => t.name === name)?.defaultDepth ?? 5;
}
export function isTreePreset(name: string): boolean {
  return TREE_PRESETS.some((p) => p.name === name);
}

/** A shipped grammar's tree at its own depth and the default taper (a forest's variant). */
export function presetTree(name: string): { skeleton: TreeSkeleton; geometry: TreeGeometry } {
  return meshesOf(deriveSource(name, `${name}.lsys`, presetText(name), presetDepth(name), TAPER_RANGE.default), TAPER_RANGE.default);
}
