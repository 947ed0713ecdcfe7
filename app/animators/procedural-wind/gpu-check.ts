/**
 * GPU-vs-twin check (ARCHITECTURE.md, "GPU methods keep a CPU twin"): runs THE SAME GLSL
 * (PROCEDURAL_WIND_FUNCTIONS' pwDeform) on sample vertices of the tree in a fragment shader,
 * one pixel per sample, into an RGBA32F render target, reads it back and compares it with
 * ProceduralWindTwin.deformVertex on the same inputs and the same branch data.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Constants } from "@babylonjs/core/Engines/constants";
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { EffectRenderer, EffectWrapper } from "@babylonjs/core/Materials/effectRenderer";
import "@babylonjs/core/Engines/Extensions/engine.readTexture";
import "@babylonjs/core/Shaders/postprocess.vertex";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import { BRANCH_SAMPLER, PROCEDURAL_WIND_FUNCTIONS } from "./procedural-wind.glsl";
import type { ProceduralWindAnimator } from "./provider";

export interface GpuCheckResult {
  /** Vertices compared. */
  samples: number;
  /** Largest |GPU - twin| over positions and normals, metres (normals: unit length). */
  maxError: number;
  /** Largest |deformed - rest| position over the samples, metres: shows the check is not trivial. */
  maxDisplacement: number;
}

const SAMPLES_SAMPLER = "pwSamples";

const CHECK_FRAGMENT = /* glsl */ `
precision highp float;
precision highp int;
precision highp sampler2D;
uniform highp sampler2D ${BRANCH_SAMPLER};
uniform highp sampler2D ${SAMPLES_SAMPLER};
uniform float pwRows;
varying vec2 vUV;
${PROCEDURAL_WIND_FUNCTIONS}
void main(void) {
  int rows = int(pwRows + 0.5);
  ivec2 px = ivec2(gl_FragCoord.xy);
  int block = px.y / rows;
  int row = px.y - block * rows;
  vec4 a = texelFetch(${SAMPLES_SAMPLER}, ivec2(px.x, row), 0);
  vec4 nrm = texelFetch(${SAMPLES_SAMPLER}, ivec2(px.x, row + rows), 0);
  vec4 w = texelFetch(${SAMPLES_SAMPLER}, ivec2(px.x, row + 2 * rows), 0);
  vec3 p = a.xyz;
  vec3 n = nrm.xyz;
  pwDeform(p, n, a.w, w);
  gl_FragColor = block == 0 ? vec4(p, 1.0) : vec4(n, 1.0);
}
`;

interface Source {
  positions: ArrayLike<number>;
  normals: ArrayLike<number>;
  branchIndex: ArrayLike<number>;
  wVector: ArrayLike<number>;
  count: number;
}

function source(mesh: Mesh | null): Source | null {
  if (!mesh) return null;
  const positions = mesh.getVerticesData(VertexBuffer.PositionKind);
  const normals = mesh.getVerticesData(VertexBuffer.NormalKind);
  const branchIndex = mesh.getVerticesData(BINDING_ATTRIBUTES.branchIndex);
  const wVector = mesh.getVerticesData(BINDING_ATTRIBUTES.wVector);
  if (!positions || !normals || !branchIndex || !wVector) return null;
  return { positions, normals, branchIndex, wVector, count: positions.length / 3 };
}

/**
 * Compares the shader's deformation with the twin's for `sampleCount` vertices spread evenly over
 * the bark and leaf meshes, using the branch data of the animator's last update.
 */
export async function compareGpuWithTwin(scene: Scene, animator: ProceduralWindAnimator, sampleCount: number): Promise<GpuCheckResult> {
  const engine = scene.getEngine();
  if (!engine.getCaps().textureFloatRender) throw new Error("compareGpuWithTwin: float render targets are not supported here");
  const tree = animator.tree;
  const sources = [source(tree.bark), source(tree.leaves)].filter((s): s is Source => s !== null);
  const total = sources.reduce((n, s) => n + s.count, 0);
  const n = Math.max(1, Math.min(sampleCount, total));
  const width = Math.min(n, 1024);
  const rows = Math.ceil(n / width);
  // Inputs: rows block 0 position.xyz + branchIndex, block 1 normal, block 2 w-vector.
  const input = new Float32Array(4 * width * 3 * rows);
  const rest = new Float32Array(3 * n);
  const twinOut = new Float64Array(6 * n);
  const pos = [0, 0, 0], nrm = [0, 0, 0], w = [0, 0, 0, 0], out = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    // Vertex i of the concatenated meshes, evenly spaced.
    let v = Math.floor(((i + 0.5) * total) / n);
    let s = sources[0];
    for (const src of sources) {
      if (v < src.count) { s = src; break; }
      v -= src.count;
    }
    for (let k = 0; k < 3; k++) { pos[k] = s.positions[3 * v + k]; nrm[k] = s.normals[3 * v + k]; }
    for (let k = 0; k < 4; k++) w[k] = s.wVector[4 * v + k];
    const b = s.branchIndex[v];
    const col = i % width, row = Math.floor(i / width);
    const o0 = 4 * (row * width + col), o1 = 4 * ((row + rows) * width + col), o2 = 4 * ((row + 2 * rows) * width + col);
    input[o0] = pos[0]; input[o0 + 1] = pos[1]; input[o0 + 2] = pos[2]; input[o0 + 3] = b;
    input[o1] = nrm[0]; input[o1 + 1] = nrm[1]; input[o1 + 2] = nrm[2];
    for (let k = 0; k < 4; k++) input[o2 + k] = w[k];
    // The twin reads the float32 inputs the GPU reads.
    animator.twin.deformVertex([input[o0], input[o0 + 1], input[o0 + 2]], [input[o1], input[o1 + 1], input[o1 + 2]], b, [input[o2], input[o2 + 1], input[o2 + 2], input[o2 + 3]], out);
    for (let k = 0; k < 6; k++) twinOut[6 * i + k] = out[k];
    rest.set([input[o0], input[o0 + 1], input[o0 + 2]], 3 * i);
  }

  const samplesTexture = new RawTexture(input, width, 3 * rows, Constants.TEXTUREFORMAT_RGBA, scene, false, false,
    Constants.TEXTURE_NEAREST_SAMPLINGMODE, Constants.TEXTURETYPE_FLOAT);
  const target = engine.createRenderTargetTexture({ width, height: 2 * rows }, {
    type: Constants.TEXTURETYPE_FLOAT, format: Constants.TEXTUREFORMAT_RGBA, generateMipMaps: false,
    generateDepthBuffer: false, generateStencilBuffer: false, samplingMode: Constants.TEXTURE_NEAREST_SAMPLINGMODE,
  });
  const renderer = new EffectRenderer(engine);
  const wrapper = new EffectWrapper({
    engine, name: "procedural-wind gpu check", fragmentShader: CHECK_FRAGMENT,
    uniformNames: ["pwRows"], samplerNames: [BRANCH_SAMPLER, SAMPLES_SAMPLER],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let tries = 0;
      const poll = () => {
        if (wrapper.isReady() && samplesTexture.isReady() && animator.branchTexture.isReady()) return resolve();
        const error = wrapper.effect.getCompilationError?.();
        if (error) return reject(new Error(`compareGpuWithTwin: shader error: ${error}`));
        if (++tries > 600) return reject(new Error("compareGpuWithTwin: shader not ready after 10 s"));
        setTimeout(poll, 16);
      };
      poll();
    });
    wrapper.onApplyObservable.add(() => {
      wrapper.effect.setFloat("pwRows", rows);
      wrapper.effect.setTexture(BRANCH_SAMPLER, animator.branchTexture);
      wrapper.effect.setTexture(SAMPLES_SAMPLER, samplesTexture);
    });
    renderer.render(wrapper, target);
    engine.restoreDefaultFramebuffer();
    const pixels = (await engine._readTexturePixels(target.texture!, width, 2 * rows)) as Float32Array;
    let maxError = 0, maxDisplacement = 0;
    for (let i = 0; i < n; i++) {
      const col = i % width, row = Math.floor(i / width);
      const pp = 4 * (row * width + col), pn = 4 * ((row + rows) * width + col);
      for (let k = 0; k < 3; k++) {
        maxError = Math.max(maxError, Math.abs(pixels[pp + k] - twinOut[6 * i + k]), Math.abs(pixels[pn + k] - twinOut[6 * i + 3 + k]));
      }
      if (!Number.isFinite(pixels[pp]) || !Number.isFinite(pixels[pn])) maxError = Infinity;
      maxDisplacement = Math.max(maxDisplacement, Math.hypot(twinOut[6 * i] - rest[3 * i], twinOut[6 * i + 1] - rest[3 * i + 1], twinOut[6 * i + 2] - rest[3 * i + 2]));
    }
    return { samples: n, maxError, maxDisplacement };
  } finally {
    wrapper.dispose();
    renderer.dispose();
    target.dispose();
    samplesTexture.dispose();
  }
}
