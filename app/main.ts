/**
 * Entry point: engine, sandbox, panel, grammar files (chooser and drag and drop), and the
 * automation API on `window.sandbox`.
 */
import { Engine } from "@babylonjs/core/Engines/engine";
import { createRegistry } from "./animators/registry";
import { Sandbox } from "./sandbox/sandbox";
import { Panel } from "./ui/panel";
import { installGrammarFiles, type GrammarFiles } from "./ui/grammar-files";
import type { GroveView } from "./animators/mass-spring/grove-view";
import { compareGpuWithTwin } from "./animators/gpu-twin-check";
import type { DeformShader } from "./animators/deform-shader";
import type { TreeInstance } from "./animators/animator";
import type { RenderMode } from "./sandbox/tree-view";

declare global {
  interface Window {
    sandbox: ReturnType<Sandbox["api"]>;
    sandboxDebug: ReturnType<typeof debugHooks>;
  }
}

function debugHooks(sandbox: Sandbox, panel: Panel, files: GrammarFiles) {
  return {
    /** The tree on show: its summary, preset name ("custom" for a loaded grammar), grammar file name and depth. */
    tree: () => ({ ...sandbox.summary(), name: sandbox.treeName, grammar: sandbox.grammarName, depth: sandbox.depth, barkTexture: sandbox.tree?.barkTextureOn ?? null }),
    /** Resolves when a chosen or dropped grammar file has been read and loaded (or refused). */
    grammarFileSettled: () => files.settled,
    controlCenter: (name: string) => panel.controlCenter(name),
    sliderRect: (name: string) => panel.controlRect(name),
    /** The value a panel slider's thumb shows (e.g. "wind.speed", "depth"). */
    sliderValue: (name: string) => panel.sliderValue(name),
    sceneCounts: () => sandbox.sceneCounts(),
    /** The active animator, for experiments and for tests that break it on purpose. */
    animator: () => sandbox.activeAnimator,
    /** The Babylon scene, for experiments from the console. */
    scene: () => sandbox.scene,
    projectToScreen: (xyz: number[]) => sandbox.projectToScreen(xyz),
    panelVisible: () => panel.visible,
    setPanelVisible: (v: boolean) => panel.toggle(v),
    renderMode: (mode?: RenderMode) => {
      if (mode) sandbox.setRenderMode(mode);
      return sandbox.renderMode;
    },
    async gpuTwinCheck(samples: number) {
      const a = sandbox.activeAnimator as unknown as { deformShader?: DeformShader; tree?: TreeInstance } | null;
      if (!a?.deformShader || !a.tree) throw new Error(`gpuTwinCheck needs a method that deforms in the vertex shader; "${sandbox.methodId}" does not`);
      return compareGpuWithTwin(sandbox.scene, [a.tree.bark, a.tree.leaves], a.deformShader, samples);
    },
    /** mass-spring's grove: the instanced trees' vertex shader against groveVertex, for grove tree `tree`. */
    async groveTwinCheck(samples: number, tree: number) {
      const a = sandbox.activeAnimator as unknown as { groveView?: GroveView | null } | null;
      const view = a?.groveView;
      if (!view) throw new Error(`groveTwinCheck needs mass-spring showing its grove; the method is "${sandbox.methodId}"`);
      view.setCheckTree(tree);
      return compareGpuWithTwin(sandbox.scene, view.meshes, view.deformShader, samples);
    },
  };
}

function fatal(e: unknown): void {
  const el = document.getElementById("fatal")!;
  el.style.display = "block";
  el.textContent = `Tree Wind Sandbox could not start.\n\n${e instanceof Error ? e.stack ?? e.message : String(e)}`;
}

function main(): void {
  const canvas = document.getElementById("view") as HTMLCanvasElement;
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true, premultipliedAlpha: false }, true);
  window.addEventListener("resize", () => engine.resize());
  const sandbox = new Sandbox(engine, canvas, createRegistry());
  const ready = sandbox.start(window.location.hash).then(() => {
    const input = document.getElementById("grammar-file") as HTMLInputElement;
    const files = installGrammarFiles(sandbox, input, document.getElementById("drop-overlay"));
    const panel = new Panel(sandbox, { openGrammarFile: () => files.open() });
    window.sandboxDebug = debugHooks(sandbox, panel, files);
    // Ready means the first frame with the panel is on screen.
    return new Promise<void>((r) => sandbox.scene.onAfterRenderObservable.addOnce(() => r()));
  });
  window.sandbox = sandbox.api(ready);
  ready.catch(fatal);
}

try {
  main();
} catch (e) {
  fatal(e);
}
