/**
 * GPU-vs-twin check (ARCHITECTURE.md, "GPU methods keep a CPU twin"), for any method that deforms
 * in the vertex shader: sample vertices of the tree go through THE SAME GLSL the method's
 * materials run (its DeformShader), fed by vertex attributes of the same names and types, and are
 * drawn as points, one pixel per sample, into an RGBA32F render target (one pass for the deformed
 * positions, one for the unit normals). The result is read back and compared with the twin on
 * the same float32 inputs, textures and uniforms.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { Constants } from "@babylonjs/core/Engines/constants";
import "@babylonjs/core/Engines/Extensions/engine.readTexture";
import { attributeDeclarations, type DeformShader, type PassCheckResult } from "./deform-shader";

export interface GpuCheckResult {
  /** Vertices compared. */
  samples: number;
  /** Largest |GPU - twin| over positions (metres) and unit normals. */
  maxError: number;
  /** Largest |deformed - rest| position over the samples, metres: shows the check is not trivial. */
  maxDisplacement: number;
  /** The method's per-branch GPU pass against its twin (null: no pass running). */
  pass: PassCheckResult | null;
}

function checkVertex(shader: DeformShader): string {
  return /* glsl */ `
precision highp float;
precision highp int;
precision highp sampler2D;
attribute vec3 position;
attribute vec3 normal;
${attributeDeclarations(shader.attributes)}
attribute float gcSample;
uniform vec2 gcTarget;
uniform float gcBlock;
varying vec3 vOut;
${shader.glsl}
void main(void) {
  vec3 p = position;
  vec3 n = normal;
  ${shader.call}
  vOut = gcBlock < 0.5 ? p : normalize(n);
  float x = mod(gcSample, gcTarget.x), y = floor(gcSample / gcTarget.x);
  gl_Position = vec4((x + 0.5) / gcTarget.x * 2.0 - 1.0, (y + 0.5) / gcTarget.y * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
`;
}

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
  attributes: ArrayLike<number>[];
  count: number;
}

function source(mesh: Mesh | null, shader: DeformShader): Source | null {
  if (!mesh) return null;
  const positions = mesh.getVerticesData(VertexBuffer.PositionKind);
  const normals = mesh.getVerticesData(VertexBuffer.NormalKind);
  const attributes = shader.attributes.map((a) => mesh.getVerticesData(a.name));
  if (!positions || !normals || attributes.some((a) => !a)) return null;
  return { positions, normals, attributes: attributes as ArrayLike<number>[], count: positions.length / 3 };
}

/**
 * Compares the shader's deformation with the twin's for `sampleCount` vertices spread evenly over
 * `meshes`, with the method's current textures and uniforms.
 */
export async function compareGpuWithTwin(scene: Scene, meshes: readonly (Mesh | null)[], shader: DeformShader, sampleCount: number): Promise<GpuCheckResult> {
  const engine = scene.getEngine();
  if (!engine.getCaps().textureFloatRender) throw new Error("compareGpuWithTwin: float render targets are not supported here");
  const sources = meshes.map((m) => source(m, shader)).filter((s): s is Source => s !== null);
  if (sources.length === 0) throw new Error("compareGpuWithTwin: no mesh carries the method's vertex attributes");
  const total = sources.reduce((n, s) => n + s.count, 0);
  const n = Math.max(1, Math.min(sampleCount, total));
  const width = Math.min(n, 1024);
  const rows = Math.ceil(n / width);
  // Vertex attributes of the sample points, float32 as the tree's vertex buffers hold them.
  const aPosition = new Float32Array(3 * n), aNormal = new Float32Array(3 * n), aSample = new Float32Array(n);
  const aExtra = shader.attributes.map((a) => new Float32Array(a.size * n));
  const rest = new Float32Array(3 * n);
  const twinOut = new Float64Array(6 * n);
  const out = new Float64Array(6);
  for (let i = 0; i < n; i++) {
    // Vertex i of the concatenated meshes, evenly spaced.
    let v = Math.floor(((i + 0.5) * total) / n);
    let s = sources[0];
    for (const src of sources) {
      if (v < src.count) { s = src; break; }
      v -= src.count;
    }
    for (let k = 0; k < 3; k++) { aPosition[3 * i + k] = s.positions[3 * v + k]; aNormal[3 * i + k] = s.normals[3 * v + k]; }
    shader.attributes.forEach((a, j) => {
      for (let k = 0; k < a.size; k++) aExtra[j][a.size * i + k] = s.attributes[j][a.size * v + k];
    });
    aSample[i] = i;
    // The twin reads the float32 inputs the GPU reads.
    shader.twin(
      aPosition.subarray(3 * i, 3 * i + 3), aNormal.subarray(3 * i, 3 * i + 3),
      shader.attributes.map((a, j) => aExtra[j].subarray(a.size * i, a.size * (i + 1))), out,
    );
    const nl = Math.hypot(out[3], out[4], out[5]) || 1;
    for (let k = 0; k < 3; k++) { twinOut[6 * i + k] = out[k]; twinOut[6 * i + 3 + k] = out[3 + k] / nl; }
    rest.set(aPosition.subarray(3 * i, 3 * i + 3), 3 * i);
  }

  const buffers: Record<string, VertexBuffer> = {
    [VertexBuffer.PositionKind]: new VertexBuffer(engine, aPosition, VertexBuffer.PositionKind, false, false, 3),
    [VertexBuffer.NormalKind]: new VertexBuffer(engine, aNormal, VertexBuffer.NormalKind, false, false, 3),
    gcSample: new VertexBuffer(engine, aSample, "gcSample", false, false, 1),
  };
  shader.attributes.forEach((a, j) => {
    buffers[a.name] = new VertexBuffer(engine, aExtra[j], a.name, false, false, a.size);
  });
  const textures = shader.textures();
  const effect = engine.createEffect(
    { vertexSource: checkVertex(shader), fragmentSource: CHECK_FRAGMENT },
    {
      attributes: Object.keys(buffers), uniformsNames: ["gcTarget", "gcBlock", ...shader.uniforms], samplers: Object.keys(textures),
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
        if (effect.isReady() && Object.values(textures).every((t) => t.isReady())) return resolve();
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
      for (const [name, texture] of Object.entries(textures)) effect.setTexture(name, texture);
      shader.uniforms.forEach((name, i) => {
        const u = shader.uniformData;
        effect.setFloat4(name, u[4 * i], u[4 * i + 1], u[4 * i + 2], u[4 * i + 3]);
      });
      effect.setFloat2("gcTarget", width, rows);
      effect.setFloat("gcBlock", block);
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
    const pass = shader.passCheck ? await shader.passCheck() : null;
    return { samples: n, maxError, maxDisplacement, pass };
  } finally {
    for (const b of Object.values(buffers)) b.dispose();
    for (const t of targets) t.dispose();
    engine.wipeCaches(true);
  }
}
