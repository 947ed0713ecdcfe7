/**
 * WebGL context loss. Chromium takes a page's WebGL context away under GPU pressure and on a
 * driver reset, and may give it back later. Babylon then rebuilds what it keeps the source of
 * (shaders, vertex buffers, raw and dynamic textures from their last data, render targets) but
 * draws nothing meanwhile. This part:
 * - says so while the context is gone (a line over the canvas: the panel is drawn on the canvas,
 *   so it cannot show anything then);
 * - holds the host's run loop's clock meanwhile (Babylon calls no frames; the host must not count
 *   the gap as elapsed time), and tells it to go on from where it was when the context is back;
 * - asks the host to re-upload what Babylon cannot rebuild on its own (`restored`).
 * A Babylon Behavior of the scene: `detach()` removes the observers `attach()` added and the line.
 */
import type { Behavior } from "@babylonjs/core/Behaviors/behavior";
import type { Scene } from "@babylonjs/core/scene";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";

/** What people read while the context is gone. */
export const CONTEXT_LOST_MESSAGE = "The graphics context was lost (the GPU was reset or is busy). Waiting for it to come back; the simulation is held where it was.";

/** Where the message goes: shown while the context is gone, hidden when it is back. */
export interface ContextNotice {
  show(message: string): void;
  hide(): void;
  dispose(): void;
}

/** What the host does on a loss and a restore. */
export interface ContextLossHost {
  /** The context is gone: nothing can be drawn until `restored()`. */
  lost(): void;
  /**
   * The context is back and Babylon has rebuilt its resources: re-upload what it does not keep,
   * and go on from where the simulation was (the gap is not elapsed time).
   */
  restored(): void;
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

  /** `notice`: where the message goes (null: nowhere, as under NullEngine). */
  constructor(private readonly host: ContextLossHost, private readonly notice: ContextNotice | null) {}

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
      this.host.lost();
    });
    this.restoredObserver = engine.onContextRestoredObservable.add(() => {
      this.gone = false;
      this.host.restored();
      this.notice?.hide();
    });
  }

  detach(): void {
    this.lostObserver?.remove();
    this.restoredObserver?.remove();
    this.lostObserver = this.restoredObserver = null;
    this.notice?.hide();
    this.attachedNode = null;
  }

  /** Detaches and removes the line from the page. */
  dispose(): void {
    this.detach();
    this.notice?.dispose();
  }
}
