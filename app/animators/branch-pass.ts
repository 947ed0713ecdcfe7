/**
 * The per-branch GPU pass (Zioma 2007 §6.5.1: DirectX 10 streams each branch's simulated
 * transform out of one vertex shader and binds it to the skinning shader; WebGL2 has no stream-out,
 * so a fragment shader renders N texels per branch into an RGBA32F render target instead). Once per
 * drawn frame, before any shadow map or camera draws, one full-target quad runs the method's GLSL
 * (its *.glsl.ts, the twin of its TypeScript) over every texel; the skinning plugin and the
 * shadow-depth material then read `texture` as they read a CPU-uploaded data texture. The method
 * sets its uniforms (vec4 arrays, Float32Arrays it rewrites in place) and calls `invalidate()`
 * when they change: a frame drawn again without a step (paused) costs nothing.
 *
 * Babylon's own pieces draw it, through the engine so its state caches stay right: an EffectWrapper
 * (the program, rebuilt after a lost context), a render target wrapper with a BaseTexture over its
 * internal texture, and a four-vertex strip recorded once in a vertex array object. A render is
 * a dozen GL calls: the main thread's whole cost of the per-branch work (Babylon's EffectRenderer
 * would add its buffer binding and state saving to each). Where the engine cannot render to float
 * targets (NullEngine, WebGL1, a browser without EXT_color_buffer_float) branchPassUnsupported
 * says why and the method keeps its CPU path.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import type { ThinEngine } from "@babylonjs/core/Engines/thinEngine";
import type { RenderTargetWrapper } from "@babylonjs/core/Engines/renderTargetWrapper";
import type { Observer } from "@babylonjs/core/Misc/observable";
import { Constants } from "@babylonjs/core/Engines/constants";
import { EffectWrapper } from "@babylonjs/core/Materials/effectRenderer";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import type { Effect } from "@babylonjs/core/Materials/effect";
import { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import "@babylonjs/core/Engines/Extensions/engine.readTexture";
import type { PassCheckResult } from "./deform-shader";

/** The deepest chain of ancestors a pass walks (a deeper tree keeps the CPU path). */
export const MAX_CHAIN = 64;

/** Why the engine cannot run a branch pass, or null when it can. */
export function branchPassUnsupported(engine: AbstractEngine): string | null {
  if (engine.isWebGPU) return "the WebGPU engine (the pass is GLSL)";
  if (!engine.getCaps().textureFloatRender) return "no float render targets here (EXT_color_buffer_float)";
  if ((engine as { webGLVersion?: number }).webGLVersion !== 2) return "not WebGL2";
  return null;
}

export interface BranchPassOptions {
  readonly name: string;
  /** Texels of the output: the data texture's own width and height. */
  readonly width: number;
  readonly height: number;
  /** The fragment shader: writes gl_FragColor for the texel at gl_FragCoord.xy. */
  readonly fragment: string;
  /** vec4 uniform arrays by name (4 floats an element), sent whole at each render. */
  readonly uniforms: Readonly<Record<string, Float32Array>>;
  /** The samplers it reads, by name: their textures (the owner replaces an entry when it replaces a texture). */
  readonly samplers: Readonly<Record<string, BaseTexture>>;
}

const VERTEX = /* glsl */ `
precision highp float;
attribute vec2 position;
void main(void) {
  gl_Position = vec4(position, 0.0, 1.0);
}
`;

export class BranchPass {
  /** The pass's output: bind it where the CPU-uploaded data texture was bound. */
  readonly texture: BaseTexture;
  /** A WebGL2 engine (branchPassUnsupported checked): its vertex array objects are ThinEngine's. */
  private readonly engine: ThinEngine;
  private readonly scene: Scene;
  private readonly target: RenderTargetWrapper;
  private wrapper: EffectWrapper;
  /** The full-target strip, and its vertex array object for the effect it was recorded with. */
  private readonly quad: Record<string, VertexBuffer>;
  private vao: WebGLVertexArrayObject | null = null;
  private vaoEffect: Effect | null = null;
  private readonly uniformNames: string[];
  private readonly restored: Observer<AbstractEngine>;
  private readonly beforeRender: Observer<Scene>;
  private readonly afterRender: Observer<Scene>;
  private readonly lost: Observer<AbstractEngine>;
  /** The output holds a frame (false until the first render, and again after a lost context). */
  private rendered = false;
  /** The uniforms or inputs changed since the last render. */
  private stale = true;
  private inSceneRender = false;
  private disposed = false;

  constructor(scene: Scene, private readonly options: BranchPassOptions) {
    const engine = scene.getEngine() as ThinEngine;
    this.engine = engine;
    this.scene = scene;
    this.target = engine.createRenderTargetTexture({ width: options.width, height: options.height }, {
      type: Constants.TEXTURETYPE_FLOAT, format: Constants.TEXTUREFORMAT_RGBA, generateMipMaps: false,
      generateDepthBuffer: false, generateStencilBuffer: false, samplingMode: Constants.TEXTURE_NEAREST_SAMPLINGMODE,
      label: options.name,
    });
    const internal = this.target.texture!;
    // The BaseTexture and the wrapper each release the internal texture once.
    internal.incrementReferences();
    this.texture = new BaseTexture(scene, internal);
    this.texture.name = options.name;
    this.texture.wrapU = this.texture.wrapV = Constants.TEXTURE_CLAMP_ADDRESSMODE;
    this.uniformNames = Object.keys(options.uniforms);
    this.wrapper = this.program();
    this.quad = { [VertexBuffer.PositionKind]: new VertexBuffer(engine, [-1, -1, 1, -1, -1, 1, 1, 1], VertexBuffer.PositionKind, false, false, 2) };
    this.beforeRender = scene.onBeforeRenderObservable.add(() => {
      this.inSceneRender = true;
      if (this.stale || !this.rendered) this.render();
    });
    this.afterRender = scene.onAfterRenderObservable.add(() => {
      this.inSceneRender = false;
    });
    this.lost = engine.onContextLostObservable.add(() => {
      this.rendered = false;
      this.stale = true;
    });
    // Back from a lost context (also for a pass made while it was gone, whose renders then drew
    // nothing): the target is blank until the pass renders again.
    this.restored = engine.onContextRestoredObservable.add(() => {
      // A program compiled while the context was gone comes back from Babylon's rebuild writing
      // NaN (measured in Chromium): compile it afresh, whenever it was made.
      this.wrapper.dispose();
      this.wrapper = this.program();
      this.quad[VertexBuffer.PositionKind]._rebuild();
      this.vao = null;
      this.vaoEffect = null;
      this.rendered = false;
      this.stale = true;
    });
  }

  private program(): EffectWrapper {
    const options = this.options;
    return new EffectWrapper({
      engine: this.engine, name: options.name, vertexShader: VERTEX, fragmentShader: options.fragment,
      attributeNames: ["position"], uniformNames: [...this.uniformNames], samplerNames: Object.keys(options.samplers),
    });
  }

  /** The uniforms or an input changed: render again before the next frame is drawn. */
  invalidate(): void {
    this.stale = true;
  }

  /**
   * Whether the output holds a frame. Outside a scene render (the host asking whether its views
   * are ready, a step) a pass whose program has compiled renders at once; inside one, a mesh whose
   * pass has not rendered yet waits for the next frame rather than reading an empty texture.
   */
  isReady(): boolean {
    if (!this.rendered && !this.inSceneRender) this.render();
    return this.rendered;
  }

  /** Renders now when its program has compiled (no-op otherwise). */
  render(): void {
    if (this.disposed || !this.wrapper.isReady()) return;
    const engine = this.engine, viewport = engine.currentViewport, effect = this.wrapper.effect;
    engine.bindFramebuffer(this.target, 0, undefined, undefined, true);
    engine.enableEffect(this.wrapper.drawWrapper);
    // Every texel is written once: no culling; no blending (a float target cannot blend without
    // EXT_float_blend); no depth or stencil attachment, so their tests pass whatever their state.
    engine.setState(false);
    engine.setAlphaMode(Constants.ALPHA_DISABLE);
    for (const name of this.uniformNames) effect.setArray4(name, this.options.uniforms[name] as unknown as number[]);
    const samplers = this.options.samplers;
    for (const name in samplers) effect.setTexture(name, samplers[name]);
    if (this.vaoEffect !== effect || !this.vao) {
      if (this.vao) engine.releaseVertexArrayObject(this.vao);
      this.vao = engine.recordVertexArrayObject(this.quad, null, effect);
      this.vaoEffect = effect;
    }
    engine.bindVertexArrayObject(this.vao, null);
    engine.drawArraysType(Constants.MATERIAL_TriangleStripDrawMode, 0, 4);
    engine.unBindFramebuffer(this.target, true);
    if (viewport) engine.setViewport(viewport);
    this.rendered = true;
    this.stale = false;
  }

  /** The output's texels, read back (tests and the GPU check), rendered first if it is stale. */
  async read(): Promise<Float32Array> {
    if (this.stale) this.render();
    const { width, height } = this.options;
    const data = await this.engine._readTexturePixels(this.target.texture!, width, height);
    return data as Float32Array;
  }

  /**
   * The output read back against `expected` (the twin's data, the same layout): `texels` of them,
   * branch b's at texel (b % perRow) * texelsPerBranch + j of row floor(b / perRow); `computed`
   * lists the texels j the pass computes (the others are copies) for maxValue.
   */
  async compare(expected: Float32Array, branches: number, texelsPerBranch: number, perRow: number, computed: readonly number[]): Promise<PassCheckResult> {
    const got = await this.read();
    const width = this.options.width;
    let maxError = 0, maxValue = 0, worst = "";
    for (let b = 0; b < branches; b++) {
      const row = Math.floor(b / perRow);
      for (let j = 0; j < texelsPerBranch; j++) {
        const o = 4 * (row * width + (b - row * perRow) * texelsPerBranch + j);
        for (let k = 0; k < 4; k++) {
          const e = Math.abs(got[o + k] - expected[o + k]);
          if (!(e <= maxError)) {
            maxError = Number.isFinite(e) ? e : Infinity;
            worst = `branch ${b} texel ${j}.${"xyzw"[k]}: GPU ${got[o + k]}, twin ${expected[o + k]}`;
          }
          if (computed.includes(j)) maxValue = Math.max(maxValue, Math.abs(expected[o + k]));
        }
      }
    }
    return { texels: branches * texelsPerBranch, maxError, maxValue, worst };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.scene.onBeforeRenderObservable.remove(this.beforeRender);
    this.scene.onAfterRenderObservable.remove(this.afterRender);
    this.engine.onContextLostObservable.remove(this.lost);
    this.engine.onContextRestoredObservable.remove(this.restored);
    if (this.vao) this.engine.releaseVertexArrayObject(this.vao);
    this.quad[VertexBuffer.PositionKind].dispose();
    this.texture.dispose();
    this.target.dispose();
    this.wrapper.dispose();
  }
}
