/**
 * GPU-vs-twin check (ARCHITECTURE.md, "GPU methods keep a CPU twin"): sample vertices of the
 * tree go through THE SAME GLSL (PROCEDURAL_WIND_FUNCTIONS' pwDeform) in a vertex shader, fed
 * by vertex attributes of the same names and types the material plugin reads, and are drawn as
 * points, one pixel per sample, into an RGBA32F render target (one pass for the deformed
 * positions, one for the normals). The result is read back and compared with
 * ProceduralWindTwin.deformVertex on the same float32 inputs and the same branch data.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Constants } from "@babylonjs/core/Engines/constants";
import "@babylonjs/core/Engines/Extensions/engine.readTexture";
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

const CHECK_VERTEX = /* glsl */ `
precision highp float;
precision highp int;
precision highp sampler2D;
attribute vec3 position;
attribute vec3 normal;
attribute float ${BINDING_ATTRIBUTES.branchIndex};
attribute vec4 ${BINDING_ATTRIBUTES.wVector};
attribute float pwSample;
uniform highp sampler2D ${BRANCH_SAMPLER};
uniform vec2 pwTarget;
uniform float pwBlock;
varying vec3 vOut;
${PROCEDURAL_WIND_FUNCTIONS}
void main(void) {
  vec3 p = position;
  vec3 n = normal;
  pwDeform(p, n, ${BINDING_ATTRIBUTES.branchIndex}, ${BINDING_ATTRIBUTES.wVector});
  vOut = pwBlock < 0.5 ? p : n;
  float x = mod(pwSample, pwTarget.x), y = floor(pwSample / pwTarget.x);
  gl_Position = vec4((x + 0.5) / pwTarget.x * 2.0 - 1.0, (y + 0.5) / pwTarget.y * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
`;

const CHECK_FRAGMENT = /* glsl */ `
precision highp float;
varying vec3 vOut;
void main(void) {
  gl_FragColor = vec4(vOut, 1.0);
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
  // Vertex attributes of the sample points, float32 as the tree's vertex buffers hold them.
  const aPosition = new Float32Array(3 * n), aNormal = new Float32Array(3 * n), aBranch = new Float32Array(n);
  const aW = new Float32Array(4 * n), aSample = new Float32Array(n);
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
    aPosition.set(pos, 3 * i);
    aNormal.set(nrm, 3 * i);
    aW.set(w, 4 * i);
    aBranch[i] = s.branchIndex[v];
    aSample[i] = i;
    // The twin reads the float32 inputs the GPU reads.
    animator.twin.deformVertex(aPosition.subarray(3 * i, 3 * i + 3), aNormal.subarray(3 * i, 3 * i + 3), aBranch[i], aW.subarray(4 * i, 4 * i + 4), out);
    for (let k = 0; k < 6; k++) twinOut[6 * i + k] = out[k];
    rest.set(aPosition.subarray(3 * i, 3 * i + 3), 3 * i);
  }

  const buffers: Record<string, VertexBuffer> = {
    [VertexBuffer.PositionKind]: new VertexBuffer(engine, aPosition, VertexBuffer.PositionKind, false, false, 3),
    [VertexBuffer.NormalKind]: new VertexBuffer(engine, aNormal, VertexBuffer.NormalKind, false, false, 3),
    [BINDING_ATTRIBUTES.branchIndex]: new VertexBuffer(engine, aBranch, BINDING_ATTRIBUTES.branchIndex, false, false, 1),
    [BINDING_ATTRIBUTES.wVector]: new VertexBuffer(engine, aW, BINDING_ATTRIBUTES.wVector, false, false, 4),
    pwSample: new VertexBuffer(engine, aSample, "pwSample", false, false, 1),
  };
  const effect = engine.createEffect(
    { vertexSource: CHECK_VERTEX, fragmentSource: CHECK_FRAGMENT },
    {
      attributes: Object.keys(buffers), uniformsNames: ["pwTarget", "pwBlock"], samplers: [BRANCH_SAMPLER],
      defines: "", uniformBuffersNames: [], fallbacks: null, onCompiled: null, onError: null,
    },
    engine,
  );
  const targets = [0, 1].map(() => engine.createRenderTargetTexture({ width, height: rows }, {
    type: Constants.TEXTURETYPE_FLOAT, format: Constants.TEXTUREFORMAT_RGBA, generateMipMaps: false,
    generateDepthBuffer: false, generateStencilBuffer: false, samplingMode: Constants.TEXTURE_NEAREST_SAMPLINGMODE,
  }));
  try {
    await new Promise<void>((resolve, reject) => {
      let tries = 0;
      const poll = () => {
        if (effect.isReady() && animator.branchTexture.isReady()) return resolve();
        const error = effect.getCompilationError?.();
        if (error) return reject(new Error(`compareGpuWithTwin: shader error: ${error}`));
        if (++tries > 600) return reject(new Error("compareGpuWithTwin: shader not ready after 10 s"));
        setTimeout(poll, 16);
      };
      poll();
    });
    const read: Float32Array[] = [];
    for (let block = 0; block < 2; block++) {
      engine.bindFramebuffer(targets[block]);
      engine.clear({ r: 0, g: 0, b: 0, a: 0 }, true, false, false);
      engine.setState(false);
      engine.setDepthBuffer(false);
      engine.setAlphaMode(Constants.ALPHA_DISABLE);
      engine.enableEffect(effect);
      engine.bindBuffers(buffers, null, effect);
      effect.setTexture(BRANCH_SAMPLER, animator.branchTexture);
      effect.setFloat2("pwTarget", width, rows);
      effect.setFloat("pwBlock", block);
      engine.drawArraysType(Constants.MATERIAL_PointListDrawMode, 0, n);
      engine.unBindFramebuffer(targets[block]);
      read.push((await engine._readTexturePixels(targets[block].texture!, width, rows)) as Float32Array);
    }
    engine.setDepthBuffer(true);
    engine.restoreDefaultFramebuffer();
    const [positions, normals] = read;
    let maxError = 0, maxDisplacement = 0;
    for (let i = 0; i < n; i++) {
      const px = 4 * i;
      for (let k = 0; k < 3; k++) {
        maxError = Math.max(maxError, Math.abs(positions[px + k] - twinOut[6 * i + k]), Math.abs(normals[px + k] - twinOut[6 * i + 3 + k]));
      }
      // A sample the vertex stage never drew stays (0, 0, 0, 0): alpha 1 proves it was written.
      if (positions[px + 3] !== 1 || normals[px + 3] !== 1 || !Number.isFinite(positions[px]) || !Number.isFinite(normals[px])) maxError = Infinity;
      maxDisplacement = Math.max(maxDisplacement, Math.hypot(twinOut[6 * i] - rest[3 * i], twinOut[6 * i + 1] - rest[3 * i + 1], twinOut[6 * i + 2] - rest[3 * i + 2]));
    }
    return { samples: n, maxError, maxDisplacement };
  } finally {
    for (const b of Object.values(buffers)) b.dispose();
    for (const t of targets) t.dispose();
    engine.wipeCaches(true);
  }
}
