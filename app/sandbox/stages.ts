/**
 * Where compare views draw: one stage per view (a node its tree hangs under, a camera, a shadow
 * map and a layer bit), their cells on the canvas, and the cameras linked to the first. One scene
 * holds them all: view k's meshes and camera carry layer bit k, so each camera draws its own tree
 * over the shared ground and sky (whose default mask has every view bit). The panel and the view
 * labels are on GUI_LAYER, drawn last by a full-canvas camera of their own.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { Camera } from "@babylonjs/core/Cameras/camera";
import type { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { Viewport } from "@babylonjs/core/Maths/math.viewport";
import { cellAt, compareCells, type ViewCell } from "./compare-layout";
import type { Environment } from "./environment";

/** The layer of the panel and the view labels. */
export const GUI_LAYER = 0x10000000;
const VIEW_LAYER = (k: number) => 1 << k;

export interface Stage {
  readonly root: TransformNode;
  readonly camera: ArcRotateCamera;
  readonly shadows: ShadowGenerator;
  readonly mask: number;
  /** Null for the first stage, which is the environment's own camera and shadow map. */
  readonly dispose: (() => void) | null;
}

export class Stages {
  readonly list: Stage[] = [];
  /** Draws the panel and labels over the whole canvas. */
  readonly guiCamera: ArcRotateCamera;
  /** The views' cells, CSS pixels, y down. */
  cells: ViewCell[] = [];
  /** The pixels on the left the panel covers (0 when it is hidden or left out of a video). */
  viewInset = 0;
  /** How many views are laid out (the method views on show). */
  count = 1;
  /** Counts changes of the layout, so a reader need not poll it. */
  version = 0;
  /** Called with k when stage k is made (its shadow map gets a timer). */
  onStageAdded: ((k: number) => void) | null = null;
  /** The camera the scene calls active between frames (see PointerCameraBehavior). */
  pointerCamera: Camera;
  private readonly layoutFor = new Float64Array(4).fill(NaN);
  /** The scene's mesh count when the layer bits were last given, and whether a mesh came since. */
  private meshesTagged = -1;
  private meshAdded = false;
  private readonly observers: { remove(): void }[] = [];

  constructor(private readonly scene: Scene, private readonly env: Environment, root: TransformNode) {
    this.list.push({ root, camera: env.camera, shadows: env.shadows, mask: VIEW_LAYER(0), dispose: null });
    env.camera.layerMask = VIEW_LAYER(0);
    this.guiCamera = new ArcRotateCamera("gui-camera", 0, 1, 10, Vector3.Zero(), scene);
    this.guiCamera.layerMask = GUI_LAYER;
    scene.activeCameras = [env.camera, this.guiCamera];
    scene.cameraToUseForPointers = env.camera;
    this.pointerCamera = env.camera;
    this.watch(scene.onAfterRenderObservable.add(() => {
      // Babylon leaves the last camera drawn (the GUI camera) active: see PointerCameraBehavior.
      if (scene.activeCamera !== this.pointerCamera) scene.activeCamera = this.pointerCamera;
    }));
    // Babylon announces a new mesh a tick later; the count catches one made and drawn in one call.
    this.watch(scene.onNewMeshAddedObservable.add(() => (this.meshAdded = true)));
    this.watch(scene.onBeforeRenderObservable.add(() => this.beforeRender()));
  }

  private watch<T>(o: Observer<T> | null): void {
    if (o) this.observers.push({ remove: () => o.remove() });
  }

  /** Before each frame: the layout, the linked cameras, the new meshes' layer bits. */
  private beforeRender(): void {
    this.layout();
    const c0 = this.env.camera;
    for (let k = 1; k < this.list.length; k++) {
      const c = this.list[k].camera;
      c.alpha = c0.alpha;
      c.beta = c0.beta;
      c.radius = c0.radius;
      c.fov = c0.fov;
      c.target.copyFrom(c0.target);
    }
    if (this.meshAdded || this.scene.meshes.length !== this.meshesTagged) this.tagMeshes();
  }

  /** Gives every mesh under a view's node that view's layer bit, so only its camera draws it. */
  tagMeshes(): void {
    this.meshAdded = false;
    const meshes = this.scene.meshes;
    this.meshesTagged = meshes.length;
    for (let i = 0; i < meshes.length; i++) {
      const m: AbstractMesh = meshes[i];
      for (let n = m.parent; n; n = n.parent) {
        const st = this.list.find((s) => s.root === n);
        if (st) {
          m.layerMask = st.mask;
          break;
        }
      }
    }
  }

  /** Puts each view's camera on its cell: the canvas right of the panel, split into a grid. */
  layout(): void {
    const engine = this.scene.getEngine();
    const canvas = engine.getRenderingCanvas();
    const W = canvas?.clientWidth || engine.getRenderWidth(), H = canvas?.clientHeight || engine.getRenderHeight();
    const n = this.count;
    const f = this.layoutFor;
    if (f[0] === W && f[1] === H && f[2] === this.viewInset && f[3] === n) return;
    f[0] = W;
    f[1] = H;
    f[2] = this.viewInset;
    f[3] = n;
    this.version++;
    // One view fills the canvas (the panel floats over it); more share what is right of the panel.
    this.cells = n === 1 ? [{ x: 0, y: 0, width: W, height: H }] : compareCells(n, W, H, this.viewInset);
    for (let k = 0; k < this.list.length; k++) {
      const c = this.cells[k] ?? this.cells[0];
      this.list[k].camera.viewport = new Viewport(c.x / W, 1 - (c.y + c.height) / H, c.width / W, c.height / H);
    }
    this.scene.cameraToUseForPointers = n === 1 ? this.env.camera : this.guiCamera;
    this.pointerCamera = this.env.camera;
  }

  /** Stages for n views: the first is the environment's; more are made or disposed as needed. */
  ensure(n: number): void {
    this.count = n;
    while (this.list.length < n) {
      const k = this.list.length;
      const { camera, shadows, dispose } = this.env.addView(`view-camera-${k}`);
      camera.layerMask = VIEW_LAYER(k);
      const root = new TransformNode(`tree-root-${k}`, this.scene);
      this.list.push({ root, camera, shadows, mask: VIEW_LAYER(k), dispose: () => {
        dispose();
        root.dispose();
      } });
      this.onStageAdded?.(k);
    }
    while (this.list.length > n) this.list.pop()!.dispose?.();
    this.scene.activeCameras = [...this.list.map((s) => s.camera), this.guiCamera];
    this.layoutFor[0] = NaN;
  }

  /** The index of the view under canvas point (x, y) (CSS pixels), or -1 over the panel or no view. */
  viewAt(x: number, y: number): number {
    if (this.count < 2) return 0;
    return x < this.viewInset ? -1 : cellAt(this.cells, x, y);
  }

  /** The camera of the view under canvas point (x, y), or null when the point is on no view. */
  cameraAt(x: number, y: number): Camera | null {
    if (this.count < 2) return this.env.camera;
    const k = cellAt(this.cells, x, y);
    return k >= 0 ? this.list[k].camera : null;
  }

  dispose(): void {
    for (const o of this.observers.splice(0)) o.remove();
    while (this.list.length > 1) this.list.pop()!.dispose?.();
    this.guiCamera.dispose();
  }
}
