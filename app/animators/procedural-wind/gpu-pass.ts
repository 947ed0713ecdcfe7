/**
 * The procedural-wind per-branch pass on the GPU (app/animators/branch-pass.ts with
 * pass.glsl.ts): its inputs as float textures (the static branch data the animator uploads, the
 * pass's table, the wind's turbulence texture, uploaded again only when the wind's seed changes)
 * and its uniforms, written from the twin's `prepare` every step.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { BranchPass } from "../branch-pass";
import { TURBULENCE_SAMPLER } from "../branch-pass-wind.glsl";
import { floatTexture } from "../float-texture";
import type { TreeSkeleton } from "../../tree/skeleton";
import { FRAME_FLOATS, TABLE_WIDTH, UNIFORM_VEC4S, passTable, writeFrame } from "./pass";
import { DATA_SAMPLER, FRAME_UNIFORM, PROCEDURAL_WIND_PASS_FRAGMENT, TABLE_SAMPLER } from "./pass.glsl";
import type { ProceduralWindTwin, WindSource } from "./twin";

export class ProceduralWindGpuPass {
  readonly pass: BranchPass;
  private readonly table: RawTexture;
  private readonly turbulence: RawTexture;
  private turbulenceVersion: number;
  /** The uniforms: the frame's, then the primitives' (one array, one upload). */
  private readonly uniforms = new Float32Array(4 * UNIFORM_VEC4S);
  private readonly frame = this.uniforms.subarray(0, FRAME_FLOATS);
  private readonly primitives = this.uniforms.subarray(FRAME_FLOATS);

  /** `data`: the animator's upload of the twin's branch data (its static texels are read). */
  constructor(scene: Scene, twin: ProceduralWindTwin, skeleton: TreeSkeleton, data: RawTexture, private readonly wind: WindSource) {
    this.table = floatTexture(passTable(twin, skeleton.branchParentX), TABLE_WIDTH, twin.textureHeight, scene, "procedural-wind pass table");
    const tex = wind.turbulenceTexture;
    this.turbulence = tex
      ? floatTexture(tex.data, tex.width, tex.height, scene, "procedural-wind turbulence")
      : floatTexture(new Float32Array(4), 1, 1, scene, "procedural-wind turbulence");
    this.turbulenceVersion = tex ? tex.version : 0;
    this.pass = new BranchPass(scene, {
      name: "procedural-wind branch pass", width: twin.textureWidth, height: twin.textureHeight,
      fragment: PROCEDURAL_WIND_PASS_FRAGMENT,
      uniforms: { [FRAME_UNIFORM]: this.uniforms },
      samplers: { [DATA_SAMPLER]: data, [TABLE_SAMPLER]: this.table, [TURBULENCE_SAMPLER]: this.turbulence },
    });
  }

  /**
   * After the twin's `prepare`: the uniforms for this step (the pass renders before the next frame
   * draws). Returns false when the wind holds a primitive the pass cannot evaluate (the animator
   * then steps on the CPU).
   */
  run(twin: ProceduralWindTwin): boolean {
    if (!writeFrame(twin, this.wind, this.frame, this.primitives)) return false;
    const tex = this.wind.turbulenceTexture;
    if (tex && tex.version !== this.turbulenceVersion) {
      this.turbulence.update(tex.data);
      this.turbulenceVersion = tex.version;
    }
    this.pass.invalidate();
    return true;
  }

  /** The uniforms hold no NaN or infinity (what the CPU can see of a frame on the GPU). */
  isFinite(): boolean {
    for (let i = 0; i < FRAME_FLOATS; i++) if (!Number.isFinite(this.frame[i])) return false;
    return true;
  }

  dispose(): void {
    this.pass.dispose();
    this.table.dispose();
    this.turbulence.dispose();
  }
}
