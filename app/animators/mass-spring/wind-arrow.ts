/**
 * The wind arrow of Van Haevre 2006 Fig. 7 ("the green arrows indicate wind forces exerted by the
 * user"): an arrow in the scene, pointing the way the shared wind blows, that the person turns by
 * dragging it with the mouse. Dragging sets the shared wind's direction (through the host, as the
 * panel's direction slider does), which the interactive walks (§6.1.2) follow.
 */
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder";
import { PointerDragBehavior } from "@babylonjs/core/Behaviors/Meshes/pointerDragBehavior";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { Scene } from "@babylonjs/core/scene";
import { OVERLAY_GROUP } from "./overlays";

export class WindArrow {
  readonly node: TransformNode;
  readonly head: Mesh;
  readonly shaft: Mesh;
  private readonly material: StandardMaterial;
  private readonly drag: PointerDragBehavior;
  private length = 1;
  /** True while the mouse holds the arrow. */
  dragging = false;

  /** `onTurn(direction in degrees)`: 0 toward +x, 90 toward +z, as WindSettings.direction. */
  constructor(scene: Scene, parent: TransformNode, onTurn: (direction: number) => void) {
    this.node = new TransformNode("mass-spring wind arrow", scene);
    this.node.parent = parent;
    this.material = new StandardMaterial("mass-spring wind arrow", scene);
    this.material.emissiveColor = new Color3(0.15, 0.75, 0.2);
    this.material.diffuseColor = new Color3(0.2, 0.9, 0.25);
    this.material.specularColor = new Color3(0, 0, 0);
    // Unit arrow along +x: the shaft from 0 to 0.75, the head from 0.75 to 1.
    this.head = CreateCylinder("mass-spring wind arrow head", { diameterTop: 0, diameterBottom: 0.16, height: 0.25, tessellation: 16 }, scene);
    this.shaft = CreateCylinder("mass-spring wind arrow shaft", { diameter: 0.05, height: 0.75, tessellation: 12 }, scene);
    for (const m of [this.head, this.shaft]) {
      m.material = this.material;
      m.parent = this.node;
      m.rotation.z = -Math.PI / 2; // cylinders stand along y; lay them along +x
      m.renderingGroupId = OVERLAY_GROUP;
    }
    this.head.position.x = 0.875;
    this.shaft.position.x = 0.375;
    // The whole arrow is a handle: a drag on the horizontal plane through it turns it about its foot.
    this.drag = new PointerDragBehavior({ dragPlaneNormal: new Vector3(0, 1, 0) });
    this.drag.moveAttached = false;
    this.drag.useObjectOrientationForDragging = false;
    this.drag.onDragStartObservable.add(() => {
      this.dragging = true;
    });
    this.drag.onDragEndObservable.add(() => {
      this.dragging = false;
    });
    this.drag.onDragObservable.add((e) => {
      const o = this.node.getAbsolutePosition();
      const dx = e.dragPlanePoint.x - o.x, dz = e.dragPlanePoint.z - o.z;
      if (Math.hypot(dx, dz) < 0.05 * this.length) return;
      const deg = (Math.atan2(dz, dx) * 180) / Math.PI;
      const d = Math.round((((deg % 360) + 360) % 360) * 10) / 10;
      onTurn(d >= 360 ? 0 : d);
    });
    this.shaft.addBehavior(this.drag);
    const headDrag = this.drag; // one behaviour per mesh: the head gets its own, sharing the handlers
    const second = new PointerDragBehavior({ dragPlaneNormal: new Vector3(0, 1, 0) });
    second.moveAttached = false;
    second.useObjectOrientationForDragging = false;
    second.onDragStartObservable.add((e) => headDrag.onDragStartObservable.notifyObservers(e));
    second.onDragEndObservable.add((e) => headDrag.onDragEndObservable.notifyObservers(e));
    second.onDragObservable.add((e) => headDrag.onDragObservable.notifyObservers(e));
    this.head.addBehavior(second);
  }

  /** Foot of the arrow at (x, y, z) in the tree's space, `length` long, pointing `direction` degrees. */
  place(x: number, y: number, z: number, length: number, direction: number): void {
    this.length = length;
    this.node.position.set(x, y, z);
    this.node.scaling.setAll(length);
    // Rotation about y turning +x toward +z by `direction` (Babylon's y rotation turns +x toward -z).
    this.node.rotation.y = (-direction * Math.PI) / 180;
  }

  setVisible(on: boolean): void {
    this.head.isVisible = this.shaft.isVisible = on;
    this.head.isPickable = this.shaft.isPickable = on;
  }

  /** The head's tip in the tree's space (for tests driving the mouse). */
  tip(): Vector3 {
    return Vector3.TransformCoordinates(new Vector3(1, 0, 0), this.node.computeWorldMatrix(true));
  }

  dispose(): void {
    this.head.dispose(false, false);
    this.shaft.dispose(false, false);
    this.material.dispose();
    this.node.dispose();
  }
}
