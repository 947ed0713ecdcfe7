/**
 * The stage every method is shown on: orbit camera, sun with shadows onto the ground, sky
 * light, ground and sky. Built once per scene. The background (sky dome and ground) and the
 * sun's shadows can be switched off (Barron §5.3, §6.3): a plain neutral colour then stands
 * behind the tree.
 */
import type { Scene } from "@babylonjs/core/scene";
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { Texture } from "@babylonjs/core/Materials/Textures/texture";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { Rng } from "../math/rng";
import { chooseQuality, type RenderQuality } from "./render-quality";

export const SKY_COLOR = new Color4(0.62, 0.76, 0.9, 1);
/** The plain colour behind the tree when the background is off: a neutral mid grey. */
export const PLAIN_BACKGROUND = new Color4(0.5, 0.5, 0.5, 1);

export interface Environment {
  camera: ArcRotateCamera;
  sun: DirectionalLight;
  shadows: ShadowGenerator;
  /** What the renderer is asked to do per frame (render-quality.ts). */
  readonly quality: RenderQuality;
  ground: Mesh;
  sky: Mesh;
  /** Frames the camera on a tree of the given height, or on a stand of trees `width` across. */
  frame(height: number, width?: number): void;
  /** Sky dome and ground on, or off (plain neutral clear colour, no ground). */
  setBackground(on: boolean): void;
  /** The sun's shadows on (the shadow map is drawn and read) or off (neither). */
  setShadows(on: boolean): void;
  /**
   * A camera and a shadow map for one more compare view (`camera` and `shadows` serve the
   * first). The sun draws the map once a frame; a mesh drawn by this camera reads it
   * (Babylon picks a light's shadow generator by the camera rendering). Not attached to the
   * canvas: the sandbox links it to `camera`.
   */
  addView(name: string): { camera: ArcRotateCamera; shadows: ShadowGenerator; dispose(): void };
}

/** The sun's shadow map, for one camera (null: the default, for `camera`). */
function makeShadows(sun: DirectionalLight, camera: ArcRotateCamera | null, size: number): ShadowGenerator {
  const shadows = new ShadowGenerator(size, sun, undefined, camera ?? undefined);
  shadows.usePercentageCloserFiltering = true;
  shadows.bias = 0.002;
  shadows.normalBias = 0.02;
  // Leaf cards are alpha-tested: their shadows should be too.
  shadows.transparencyShadow = true;
  return shadows;
}

/** A soft grass texture, generated (nothing downloaded). */
function grassTexture(scene: Scene): RawTexture {
  const size = 128;
  const data = new Uint8Array(size * size * 4);
  const rng = new Rng(5);
  for (let i = 0; i < size * size; i++) {
    const n = rng.next();
    data[4 * i] = 78 + 30 * n;
    data[4 * i + 1] = 112 + 38 * n;
    data[4 * i + 2] = 58 + 16 * n;
    data[4 * i + 3] = 255;
  }
  const t = RawTexture.CreateRGBATexture(data, size, size, scene, true, false, Texture.TRILINEAR_SAMPLINGMODE);
  t.name = "ground-grass";
  t.uScale = t.vScale = 24;
  return t;
}

/** `canvas`: where the camera takes the mouse; null where there is none (NullEngine in tests). */
/** `quality`: antialiasing (already fixed by the engine) and each view's shadow map size; by default full (render-quality.ts). */
export function createEnvironment(scene: Scene, canvas: HTMLCanvasElement | null, quality: RenderQuality = chooseQuality("", "")): Environment {
  const shadowMapSize = quality.shadowMapSize;
  scene.clearColor = SKY_COLOR.clone();
  scene.ambientColor = new Color3(0.3, 0.3, 0.3);

  const camera = new ArcRotateCamera("camera", -Math.PI / 2 + 0.5, 1.3, 20, new Vector3(0, 5, 0), scene);
  camera.lowerRadiusLimit = 1;
  camera.upperRadiusLimit = 200;
  camera.upperBetaLimit = Math.PI / 2 - 0.02;
  camera.wheelDeltaPercentage = 0.01;
  camera.minZ = 0.05;
  camera.maxZ = 1000;
  if (canvas) camera.attachControl(canvas, true);

  const sky = new HemisphericLight("sky-light", new Vector3(0.2, 1, 0.1), scene);
  sky.intensity = 0.55;
  sky.groundColor = new Color3(0.35, 0.32, 0.25);

  const sun = new DirectionalLight("sun", new Vector3(-0.45, -1, 0.35).normalize(), scene);
  sun.position = new Vector3(18, 40, -14);
  sun.intensity = 1.1;
  sun.diffuse = new Color3(1, 0.96, 0.88);

  const shadows = makeShadows(sun, null, shadowMapSize);

  const ground = CreateGround("ground", { width: 400, height: 400, subdivisions: 2 }, scene);
  const groundMat = new StandardMaterial("ground", scene);
  groundMat.diffuseTexture = grassTexture(scene);
  groundMat.specularColor = new Color3(0, 0, 0);
  ground.material = groundMat;
  ground.receiveShadows = true;

  // Sky dome: a vertex-coloured gradient from horizon haze to zenith blue.
  const dome = CreateSphere("sky", { diameter: 900, segments: 16, sideOrientation: 1 }, scene);
  const pos = dome.getVerticesData(VertexBuffer.PositionKind)!;
  const colors = new Float32Array((pos.length / 3) * 4);
  for (let i = 0; i < pos.length / 3; i++) {
    const h = Math.max(0, pos[3 * i + 1] / 450);
    const k = Math.pow(h, 0.5);
    colors[4 * i] = 0.82 * (1 - k) + 0.3 * k;
    colors[4 * i + 1] = 0.88 * (1 - k) + 0.52 * k;
    colors[4 * i + 2] = 0.95 * (1 - k) + 0.85 * k;
    colors[4 * i + 3] = 1;
  }
  dome.setVerticesData(VertexBuffer.ColorKind, colors);
  const skyMat = new StandardMaterial("sky", scene);
  skyMat.disableLighting = true;
  skyMat.emissiveColor = new Color3(1, 1, 1);
  skyMat.backFaceCulling = false;
  dome.material = skyMat;
  dome.isPickable = false;
  dome.infiniteDistance = true;

  return {
    camera, sun, shadows, ground, sky: dome, quality,
    setBackground(on: boolean) {
      dome.setEnabled(on);
      ground.setEnabled(on);
      scene.clearColor = (on ? SKY_COLOR : PLAIN_BACKGROUND).clone();
    },
    setShadows(on: boolean) {
      // Off: the materials drop the shadow lookup and the shadow map is no longer rendered.
      sun.shadowEnabled = on;
    },
    addView(name: string) {
      const c = new ArcRotateCamera(name, camera.alpha, camera.beta, camera.radius, camera.target.clone(), scene);
      c.minZ = camera.minZ;
      c.maxZ = camera.maxZ;
      const s = makeShadows(sun, c, shadowMapSize);
      return {
        camera: c, shadows: s,
        dispose() {
          s.dispose();
          c.dispose();
        },
      };
    },
    frame(height: number, width = 0) {
      const h = Math.max(1, height);
      camera.target = new Vector3(0, h * 0.48, 0);
      // A stand of trees: far enough back to see across it, from a little higher up.
      camera.radius = Math.min(camera.upperRadiusLimit ?? Infinity, Math.max(h * 1.65, width * 0.95));
      if (width > 0) camera.beta = Math.min(camera.beta, 1.15);
      // Fit the shadow map's frustum to the tree (directional light ortho bounds).
      sun.position = new Vector3(0.45, 1, -0.35).scale(h * 2.5);
      sun.shadowMinZ = 0.1;
      sun.shadowMaxZ = h * 6;
      sun.autoUpdateExtends = true;
    },
  };
}
