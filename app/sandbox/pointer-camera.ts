/**
 * Picking and dragging use the camera under the pointer (held from a press to its release): the
 * panel's and the labels' full-canvas camera over the panel, a view's camera over its cell, so a
 * click or drag in the scene picks in the view it is in. Between frames the scene's active camera
 * is that view's too: Babylon leaves the last camera drawn (the GUI camera) active, and behaviours
 * (a mesh dragged with the mouse) build their rays and detach camera controls through it.
 * A Babylon Behavior of the scene: `detach()` removes the observer `attach()` added.
 */
import type { Behavior } from "@babylonjs/core/Behaviors/behavior";
import type { Scene } from "@babylonjs/core/scene";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { PointerInfoPre } from "@babylonjs/core/Events/pointerEvents";
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents";
import type { Stages } from "./stages";

export class PointerCameraBehavior implements Behavior<Scene> {
  readonly name = "PointerCamera";
  attachedNode: Scene | null = null;
  private observer: Observer<PointerInfoPre> | null = null;
  private held = false;

  constructor(private readonly stages: Stages) {}

  init(): void {}

  attach(scene: Scene): void {
    this.detach();
    this.attachedNode = scene;
    const stages = this.stages;
    this.observer = scene.onPrePointerObservable.add((pi) => {
      if (stages.count < 2) return;
      if (pi.type === PointerEventTypes.POINTERUP) {
        this.held = false;
        return;
      }
      if (this.held) return;
      if (pi.type === PointerEventTypes.POINTERDOWN) this.held = true;
      const k = stages.viewAt(scene.pointerX, scene.pointerY);
      scene.cameraToUseForPointers = k >= 0 ? stages.list[k].camera : stages.guiCamera;
      stages.pointerCamera = k >= 0 ? stages.list[k].camera : stages.list[0].camera;
      scene.activeCamera = stages.pointerCamera;
    }, undefined, true);
  }

  detach(): void {
    this.observer?.remove();
    this.observer = null;
    this.attachedNode = null;
  }
}
