/**
 * Tree files from the person's disk: the panel's "Load a file" button (a hidden
 * <input type=file multiple>) and files dropped anywhere on the page. A model (.glb, .gltf, .obj,
 * with the .bin, .mtl and textures picked or dropped with it) is loaded through
 * `sandbox.loadTree({ files })`; a text file as a grammar through `sandbox.loadTree({ grammar,
 * name })`, exactly as a script would. A grammar error shows with file:line:column, a model's
 * problem says what to do, and the tree on screen stays (nothing is replaced before the new tree
 * is built).
 */
import type { SandboxPanelApi } from "../sandbox/api";
import { glbMotion, SANDBOX_SOURCE } from "../export/motion-file";

/** What loading files needs of the sandbox. */
type Sandbox = Pick<SandboxPanelApi, "loadTree" | "reportError" | "playMotion">;

/** What a tree file may be called (the chooser's filter): grammars, models and their companions. */
export const GRAMMAR_ACCEPT = ".lsys,.txt,.glb,.gltf,.obj,.mtl,.bin,.png,.jpg,.jpeg,.webp";
/** Extensions of models (and of their companions): such files go to model import, which reads .glb, .gltf and .obj and says what to do with the others. */
export const MODEL_EXTENSIONS: readonly string[] = [".glb", ".gltf", ".obj", ".mtl", ".bin", ".fbx", ".stl", ".ply", ".babylon", ".dae", ".3ds", ".usdz", ".blend"];
/** Larger than this is not read as a grammar (a grammar past the module cap is refused by the derivation anyway). */
export const MAX_GRAMMAR_BYTES = 16 * 1024 * 1024;

const MODEL_NOTE = "Drop a .lsys grammar, or a tree model (.glb, .gltf or .obj with its companions)";

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

/**
 * Reads a file as a grammar: its text, or why it is not one. Text means a .lsys or .txt name, a
 * text/* type, or (for other names) content with no NUL and no bytes that are not UTF-8.
 */
export async function readGrammarFile(file: Pick<File, "name" | "type" | "size" | "text">): Promise<{ text: string } | { refusal: string }> {
  const ext = extensionOf(file.name);
  if (MODEL_EXTENSIONS.includes(ext)) return { refusal: `${file.name} is a model file: load it with the model's companions through loadTree({ files })` };
  const named = ext === ".lsys" || ext === ".txt" || file.type.startsWith("text/");
  if (!named && /^(image|video|audio|font)\//.test(file.type)) return { refusal: `${file.name} is not a grammar. ${MODEL_NOTE}.` };
  if (file.size > MAX_GRAMMAR_BYTES) {
    return { refusal: `${file.name} is ${(file.size / 1048576).toFixed(0)} MB; a grammar file may have at most ${MAX_GRAMMAR_BYTES / 1048576} MB` };
  }
  const text = await file.text();
  if (!named && (text.includes("\u0000") || text.includes("\uFFFD"))) return { refusal: `${file.name} is not a grammar (not text). ${MODEL_NOTE}.` };
  return { text };
}

/**
 * Loads files picked or dropped together: a motion the sandbox exported (one .glb carrying its
 * mark) is played back beside the tree; a model (any file with a model's extension among them:
 * the sandbox finds the model file and its companions, or says what it lacks), else the first as
 * a grammar. Resolves when done (never rejects); errors show in the panel.
 */
export async function loadTreeFiles(sandbox: Sandbox, files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  if (files.length === 1 && extensionOf(files[0].name) === ".glb" && (await isSandboxMotion(files[0]))) {
    await sandbox.playMotion({ file: files[0], name: files[0].name }).catch(() => undefined);
    return;
  }
  if (files.some((f) => MODEL_EXTENSIONS.includes(extensionOf(f.name)))) {
    await sandbox.loadTree({ files }).catch(() => undefined);
    return;
  }
  await loadGrammarFile(sandbox, files[0]);
}

/** Whether a .glb is a motion the sandbox exported (its JSON says so); a file that cannot be read is not. */
async function isSandboxMotion(file: File): Promise<boolean> {
  try {
    return glbMotion(new Uint8Array(await file.arrayBuffer()))?.source === SANDBOX_SOURCE;
  } catch {
    return false;
  }
}

/** Reads `file` and loads it as the tree, or shows why not. Resolves when done (never rejects). */
export async function loadGrammarFile(sandbox: Sandbox, file: File): Promise<void> {
  let read: Awaited<ReturnType<typeof readGrammarFile>>;
  try {
    read = await readGrammarFile(file);
  } catch (e) {
    sandbox.reportError(`${file.name} could not be read: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if ("refusal" in read) {
    sandbox.reportError(read.refusal);
    return;
  }
  // loadTree shows its own errors (file:line:column, the module cap) and keeps the tree.
  await sandbox.loadTree({ grammar: read.text, name: file.name }).catch(() => undefined);
}

export interface GrammarFiles {
  /** Opens the browser's file chooser (call it from a click: browsers need a user gesture). */
  open(): void;
  /** The load under way (file chosen or dropped), for tests; resolved when idle. */
  readonly settled: Promise<void>;
}

/**
 * Wires the hidden file input and drag and drop on `target` (the window). `overlay` is shown
 * while files are dragged over the page.
 */
export function installGrammarFiles(sandbox: Sandbox, input: HTMLInputElement, overlay: HTMLElement | null, target: Window = window): GrammarFiles {
  let settled: Promise<void> = Promise.resolve();
  const load = (files: File[]) => {
    settled = settled.then(() => loadTreeFiles(sandbox, files));
  };

  input.accept = GRAMMAR_ACCEPT;
  input.multiple = true;
  input.addEventListener("change", () => {
    const files = [...(input.files ?? [])];
    // Cleared so that choosing the same file again (after editing it) loads it again.
    if (files.length > 0) load(files);
    input.value = "";
  });

  let hideTimer: ReturnType<typeof setTimeout> | null = null;
  const show = (on: boolean) => {
    if (hideTimer) clearTimeout(hideTimer);
    hideTimer = null;
    if (overlay) overlay.style.display = on ? "flex" : "none";
  };
  const carriesFiles = (e: DragEvent) => !!e.dataTransfer && Array.from(e.dataTransfer.types).includes("Files");
  const over = (e: DragEvent) => {
    if (!carriesFiles(e)) return;
    e.preventDefault(); // allows the drop
    e.dataTransfer!.dropEffect = "copy";
    show(true);
    // dragover repeats while the drag stays over the page; when it stops (the drag left, or was
    // cancelled with Escape), the highlight goes.
    hideTimer = setTimeout(() => show(false), 400);
  };
  target.addEventListener("dragenter", over);
  target.addEventListener("dragover", over);
  target.addEventListener("dragleave", (e) => {
    if (e.relatedTarget === null) show(false);
  });
  target.addEventListener("drop", (e) => {
    if (!e.dataTransfer) return;
    e.preventDefault(); // never let the browser navigate to the dropped file
    show(false);
    const files = [...e.dataTransfer.files];
    if (files.length > 0) load(files);
    else sandbox.reportError("Drop a .lsys grammar file, or a tree model (.glb, .gltf or .obj with its companions), here to load it");
  });

  return {
    open: () => input.click(),
    get settled() {
      return settled;
    },
  };
}

/**
 * The Export section's "Play a motion file" chooser (a hidden <input type=file accept=.glb>): the
 * file picked is played back beside the tree (sandbox.playMotion), or refused with a message.
 */
export function installMotionFile(sandbox: Pick<SandboxPanelApi, "playMotion">, input: HTMLInputElement): GrammarFiles {
  let settled: Promise<void> = Promise.resolve();
  input.accept = ".glb";
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    input.value = "";
    if (file) settled = settled.then(() => sandbox.playMotion({ file, name: file.name }).then(() => undefined, () => undefined));
  });
  return {
    open: () => input.click(),
    get settled() {
      return settled;
    },
  };
}
