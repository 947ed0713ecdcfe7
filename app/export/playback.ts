/**
 * An exported motion read back with Babylon's glTF loader, as any viewer reads it: its skeleton's
 * bones, its clip's length, the bones' positions at any time of the clip (in the file's own
 * coordinates, the sandbox's), and the clip shown at any time of it, beside the tree on show
 * (sandbox.playMotion, the Export section's "Play a motion file", a dropped export).
 */
import type { Scene } from "@babylonjs/core/scene";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader";
import type { AssetContainer } from "@babylonjs/core/assetContainer";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup";
import type { Node } from "@babylonjs/core/node";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import "@babylonjs/loaders/glTF/2.0";
import { CLIP_NAME } from "./gltf";

export class LoadedMotion {
  readonly bones: number;
  readonly seconds: number;
  readonly clip: string;
  private readonly group: AnimationGroup;
  private readonly root: TransformNode;
  private readonly byName = new Map<string, TransformNode>();

  private constructor(private readonly container: AssetContainer) {
    const group = container.animationGroups.find((g) => g.name === CLIP_NAME) ?? container.animationGroups[0];
    if (!group) throw new Error("the file has no animation");
    const skeleton = container.skeletons[0];
    if (!skeleton) throw new Error("the file has no skeleton");
    this.group = group;
    this.clip = group.name;
    this.bones = skeleton.bones.length;
    const fps = group.targetedAnimations[0]?.animation.framePerSecond ?? 60;
    this.seconds = (group.to - group.from) / fps;
    this.root = container.rootNodes[0] as TransformNode;
    for (const n of container.transformNodes) this.byName.set(n.name, n);
  }

  static async load(scene: Scene, file: Blob): Promise<LoadedMotion> {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const container = await LoadAssetContainerAsync(bytes, scene, { pluginExtension: ".glb" });
    container.addAllToScene();
    for (const g of container.animationGroups) g.stop();
    return new LoadedMotion(container);
  }

  /**
   * Poses the file's bones at `t` seconds into the clip (the clip repeats: `t` past its end wraps
   * around) and leaves it paused there: the sandbox drives it from its fixed clock, never from the
   * wall clock, so a recording of it is the same on every machine.
   */
  showAt(t: number): void {
    const s = this.seconds;
    this.goTo(s > 0 ? ((t % s) + s) % s : 0);
  }

  /** Poses the bones `u` seconds into the clip (0 to its length) and leaves it paused there. */
  private goTo(u: number): void {
    const g = this.group, s = this.seconds;
    if (!g.isStarted) g.start(false, 1, g.from, g.to);
    g.pause();
    g.goToFrame(g.from + (Math.min(Math.max(u, 0), s) / (s || 1)) * (g.to - g.from));
  }

  /** The model's horizontal reach from its root (metres, its meshes' bounding boxes at rest). */
  reach(): number {
    let r = 0;
    for (const m of this.container.meshes) {
      if (m.getTotalVertices() === 0) continue;
      const b = m.getBoundingInfo().boundingBox;
      for (const v of [b.minimum, b.maximum]) r = Math.max(r, Math.abs(v.x), Math.abs(v.z));
    }
    return r;
  }

  /** Positions (xyz each, the file's coordinates) of bones `bones` (skeleton node indices) at `t` seconds into the clip; the clip is left paused there. */
  bonePositions(t: number, bones: readonly number[]): number[] {
    this.goTo(t);
    const toFile = Matrix.Invert(upToDate(this.root));
    const out: number[] = [];
    const p = new Vector3();
    for (const k of bones) {
      const node = this.byName.get(`bone-${k}`);
      if (!node) throw new Error(`the file has no bone ${k}`);
      Vector3.TransformCoordinatesToRef(upToDate(node).getTranslation(), toFile, p);
      out.push(p.x, p.y, p.z);
    }
    return out;
  }

  /** Moves the model by `offset` (x, y, z) in the scene. */
  place(offset: readonly number[]): void {
    this.root.position.set(offset[0], offset[1], offset[2]);
  }

  /** Plays the clip in a loop on the scene's own (wall) clock, the model moved by `offset`: for looking only (tests). */
  play(offset: readonly number[] = [0, 0, 0]): void {
    this.place(offset);
    this.group.start(true, 1, this.group.from, this.group.to);
  }

  dispose(): void {
    this.group.stop();
    this.container.dispose();
  }
}

/** A node's world matrix with its ancestors' brought up to date first. */
function upToDate(node: TransformNode): Matrix {
  const chain: Node[] = [];
  for (let n: Node | null = node; n; n = n.parent) chain.unshift(n);
  for (const n of chain) (n as TransformNode).computeWorldMatrix?.(true);
  return node.getWorldMatrix();
}
