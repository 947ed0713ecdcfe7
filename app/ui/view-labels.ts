/**
 * The compare views' labels: each view's method and its own milliseconds per
 * frame, at the top left of its cell. On the canvas (a GUI layer of their own), so they are in
 * the videos too, which leave the panel out. A frame-exact video draws each frame itself, with
 * the render loop held: its frames show the method alone, not the timings, which depend on the
 * machine and the wall clock (a video made twice is the same, pixel for pixel).
 */
import { AdvancedDynamicTexture } from "@babylonjs/gui/2D/advancedDynamicTexture";
import { Control } from "@babylonjs/gui/2D/controls/control";
import { Rectangle } from "@babylonjs/gui/2D/controls/rectangle";
import { TextBlock } from "@babylonjs/gui/2D/controls/textBlock";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { SandboxPanelApi } from "../sandbox/api";


export class ViewLabels {
  private readonly ui: AdvancedDynamicTexture;
  private readonly boxes: { box: Rectangle; text: TextBlock }[] = [];

  private readonly observers: Observer<unknown>[] = [];

  constructor(private readonly sandbox: SandboxPanelApi) {
    this.ui = AdvancedDynamicTexture.CreateFullscreenUI("view-labels", true, sandbox.scene);
    if (this.ui.layer) this.ui.layer.layerMask = sandbox.guiLayer;
    for (let k = 0; k < sandbox.maxViews; k++) {
      const box = new Rectangle(`view-label-${k}`);
      box.adaptWidthToChildren = true;
      box.adaptHeightToChildren = true;
      box.horizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
      box.verticalAlignment = Control.VERTICAL_ALIGNMENT_TOP;
      box.background = "rgba(20, 24, 20, 0.72)";
      box.cornerRadius = 3;
      box.thickness = 0;
      box.isHitTestVisible = false;
      box.isVisible = false;
      const text = new TextBlock(`view-label-text-${k}`, "");
      text.resizeToFit = true;
      text.fontSize = 13;
      text.lineSpacing = "1px";
      text.color = "#f2f2ee";
      text.paddingLeft = "8px";
      text.paddingRight = "8px";
      text.paddingTop = "3px";
      text.paddingBottom = "3px";
      text.textHorizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
      box.addControl(text);
      this.ui.addControl(box);
      this.boxes.push({ box, text });
    }
    // After a frame in which the views changed (a timed frame, the layout, the methods, the focus).
    const after = sandbox.scene.onAfterRenderObservable.add(() => {
      if (sandbox.viewsVersion() !== this.seen) this.refresh();
    });
    // Before each frame: the timings go as soon as frames are drawn one by one (in that very frame: the GUI is drawn after this), and come back after.
    const before = sandbox.scene.onBeforeRenderObservable.add(() => {
      if (this.timed() !== this.seenTimed) this.refresh();
    });
    const changed = sandbox.events.changes.add((what) => {
      if (what === "views" || what === "focus") this.refresh();
    });
    for (const o of [after, before, changed]) if (o) this.observers.push(o as Observer<unknown>);
  }

  dispose(): void {
    for (const o of this.observers.splice(0)) o.remove();
    this.ui.dispose();
  }

  /** What each label says now (for tests): empty when a single view is shown. */
  texts(): string[] {
    return this.boxes.filter((b) => b.box.isVisible).map((b) => b.text.text);
  }

  /** The sandbox's viewsVersion the labels show, and whether they show timings. */
  private seen = -1;
  private seenTimed = true;

  /**
   * Whether the labels show each view's ms per frame: only while the render loop draws the frames
   * (a frame-exact recording holds it and draws each frame itself).
   */
  private timed(): boolean {
    return this.sandbox.scene.getEngine().activeRenderLoops.length > 0;
  }

  refresh(): void {
    this.seen = this.sandbox.viewsVersion();
    const timed = (this.seenTimed = this.timed());
    const views = this.sandbox.views();
    const engine = this.sandbox.scene.getEngine(), canvas = engine.getRenderingCanvas();
    // Cells are in CSS pixels; the GUI's pixels are the canvas's.
    const scale = canvas && canvas.clientWidth > 0 ? engine.getRenderWidth() / canvas.clientWidth : 1;
    for (let k = 0; k < this.boxes.length; k++) {
      const { box, text } = this.boxes[k], v = views[k];
      box.isVisible = views.length > 1 && v !== undefined;
      if (!box.isVisible) continue;
      const ms = v.frameMs > 0 ? `${v.frameMs.toFixed(1)} ms/frame` : "timing…";
      const t = timed ? `${k + 1}. ${v.label}\n${ms}` : `${k + 1}. ${v.label}`;
      if (text.text !== t) text.text = t;
      box.left = `${Math.round((v.cell.x + 8) * scale)}px`;
      box.top = `${Math.round((v.cell.y + 8) * scale)}px`;
      box.thickness = v.focused ? 2 : 0;
      box.color = "#e8b84a";
    }
  }
}
