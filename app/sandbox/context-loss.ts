/**
 * WebGL context loss. Chromium takes a page's WebGL context away under GPU pressure and on a
 * driver reset, and may give it back later. While it is gone nothing can be drawn: Babylon's run
 * loop calls no frames. When it is back Babylon (9.28) rebuilds, from what it keeps on the CPU:
 * every effect (the methods' material plugins and deforming shadow-depth ShaderMaterials among
 * them), every vertex and index buffer from its last data (the meshes rewritten every frame too),
 * every raw texture from the array last given to `RawTexture.update` (the float textures of the
 * methods, which therefore come back with their last contents), the GUI's dynamic textures, and
 * the render targets (the shadow maps, redrawn every frame). Measured in spec/e2e/context-loss:
 * under every method, in single and compare views, the frame drawn after the restore is the frame
 * drawn before the loss, pixel for pixel. So a method must upload its textures through
 * `RawTexture.update(array)` (or create them from the array) and not change that array between
 * uploads; nothing else is needed of it. This part does the rest:
 * - says so while the context is gone (a line over the canvas: the panel is drawn on the canvas,
 *   so it cannot show anything then);
 * - tells the host when the context is back (`restored`), so its run loop counts the gap as no
 *   elapsed time and the simulation goes on from where it was;
 * - says whether the context is gone (`isLost`): the host's `step()` then advances without drawing.
 * A Babylon Behavior of the scene: `detach()` removes the observers `attach()` added.
 */
import type { Behavior } from "@babylonjs/core/Behaviors/behavior";
import type { Scene } from "@babylonjs/core/scene";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";

/** What people read while the context is gone. */
export const CONTEXT_LOST_MESSAGE =
  "The graphics context was lost (the GPU was reset or is busy). The simulation is held where it was until the context comes back. " +
  "If it does not, reload the page: its address keeps the tree, the methods, the wind and the settings.";

/** Where the message goes: shown while the context is gone, hidden when it is back. */
export interface ContextNotice {
  show(message: string): void;
  hide(): void;
  dispose(): void;
}

/** The id of the line over the canvas (tests look for it). */
export const CONTEXT_NOTICE_ID = "context-lost";

/** A line over the canvas, in the style of the page's other overlays (the video's progress line). */
export function canvasNotice(canvas: HTMLCanvasElement): ContextNotice {
  const doc = canvas.ownerDocument;
  const el = doc.createElement("div");
  el.id = CONTEXT_NOTICE_ID;
  el.setAttribute("role", "status");
  Object.assign(el.style, {
    position: "fixed", left: "50%", top: "40%", transform: "translate(-50%, -50%)", display: "none", maxWidth: "480px",
    padding: "12px 16px", borderRadius: "6px", background: "rgba(24, 28, 24, 0.9)", color: "#f2f2ee",
    font: "15px system-ui, sans-serif", textAlign: "center", pointerEvents: "none", zIndex: "10",
  });
  (canvas.parentElement ?? doc.body).appendChild(el);
  return {
    show(message) {
      el.textContent = message;
      el.style.display = "block";
    },
    hide() {
      el.style.display = "none";
    },
    dispose() {
      el.remove();
    },
  };
}

export class ContextLossBehavior implements Behavior<Scene> {
  readonly name = "ContextLoss";
  attachedNode: Scene | null = null;
  private lostObserver: Observer<AbstractEngine> | null = null;
  private restoredObserver: Observer<AbstractEngine> | null = null;
  private gone = false;

  /**
   * `restored`: the context is back and Babylon has rebuilt its resources; the host goes on from
   * where the simulation was (the gap is not elapsed time). `notice`: where the message goes (null:
   * nowhere, as under NullEngine).
   */
  constructor(private readonly restored: () => void, private readonly notice: ContextNotice | null) {}

  init(): void {}

  /** True from a loss until Babylon has rebuilt the context's resources. */
  get isLost(): boolean {
    return this.gone;
  }

  attach(scene: Scene): void {
    this.detach();
    this.attachedNode = scene;
    const engine = scene.getEngine();
    this.lostObserver = engine.onContextLostObservable.add(() => {
      this.gone = true;
      this.notice?.show(CONTEXT_LOST_MESSAGE);
    });
    this.restoredObserver = engine.onContextRestoredObservable.add(() => {
      this.gone = false;
      this.restored();
      this.notice?.hide();
    });
  }

  detach(): void {
    this.lostObserver?.remove();
    this.restoredObserver?.remove();
    this.lostObserver = this.restoredObserver = null;
    if (this.gone) this.notice?.hide();
    this.gone = false;
    this.attachedNode = null;
  }

  /** Detaches and removes the line from the page. */
  dispose(): void {
    this.detach();
    this.notice?.dispose();
  }
}
