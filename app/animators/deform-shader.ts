/**
 * What a method that deforms in the vertex shader hands to the shared machinery: its GLSL, the
 * per-vertex attributes it reads, how to bind its textures and uniforms, and its TypeScript twin.
 * The shadow-depth material (deform-depth-material.ts) and the GPU-vs-twin check
 * (gpu-twin-check.ts) are written once against this, for every such method.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";

const GLSL_TYPES = ["float", "vec2", "vec3", "vec4"] as const;

/** One per-vertex attribute besides position and normal. */
export interface DeformAttribute {
  readonly name: string;
  readonly size: 1 | 2 | 3 | 4;
}

export interface DeformShader {
  /** GLSL declarations (uniforms, samplers) and functions, for a shader of our own. */
  readonly glsl: string;
  /** A GLSL statement deforming `vec3 p` and `vec3 n` in place; may read the attributes by name. */
  readonly call: string;
  readonly attributes: readonly DeformAttribute[];
  /** GLSL defines for the shadow-depth pass only (say, to skip the normals there). */
  readonly depthDefines?: readonly string[];
  /** Names of its uniforms, all vec4, in the order of `uniformData`. */
  readonly uniforms: readonly string[];
  /** Their values, 4 floats per uniform, updated in place every frame. */
  readonly uniformData: Float32Array;
  /** Its samplers and their current textures. */
  textures(): Record<string, BaseTexture>;
  /** The twin: one vertex's position, normal and attribute values (in `attributes` order) to
   *  deformed position xyz and normal xyz (not necessarily unit) in out. */
  twin(position: ArrayLike<number>, normal: ArrayLike<number>, attributes: readonly ArrayLike<number>[], out: Float64Array): void;
  /** A method whose per-branch work runs in a GPU pass (branch-pass.ts): that pass's output read
   *  back against its twin's (null while the method steps on the CPU). */
  passCheck?(): Promise<PassCheckResult | null>;
}

/** A per-branch pass's output against the twin's data of the same layout. */
export interface PassCheckResult {
  /** Texels compared (every texel of every branch). */
  texels: number;
  /** Largest |GPU - twin| over them. */
  maxError: number;
  /** Largest |value| among the texels the pass computes: shows the comparison is not of zeros. */
  maxValue: number;
  /** Where the largest difference is. */
  worst: string;
}

/** `attribute <type> <name>;` lines for the attributes. */
export function attributeDeclarations(attributes: readonly DeformAttribute[]): string {
  return attributes.map((a) => `attribute ${GLSL_TYPES[a.size - 1]} ${a.name};`).join("\n");
}
