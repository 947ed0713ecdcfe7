/**
 * The spectral-beam per-branch pass on the GPU (app/animators/branch-pass.ts with pass.glsl.ts):
 * its inputs as float textures (the static branch data the animator uploads, the pass's table,
 * rewritten when the loads or an ease change, and the whole motion atlas, uploaded when its
 * textures are rebuilt) and its uniforms (the twin's eight vec4s, the ease's start), written every
 * step. `chain` is the pass's twin over the same table, for one branch's probe.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import { BranchPass } from "../branch-pass";
import { floatTexture } from "../float-texture";
import type { TreeSkeleton } from "../../tree/skeleton";
import { MOTION_TILES, UNIFORM_FLOATS } from "./layout";
import { ChainComposer, FRAME_VEC4S, TABLE_WIDTH, writeTableLoads, writeTableStatic, type CompositionParents } from "./pass";
import { ATLAS_SAMPLER, DATA_SAMPLER, FRAME_UNIFORM, SPECTRAL_BEAM_PASS_FRAGMENT, TABLE_SAMPLER } from "./pass.glsl";
import type { SpectralBeamTwin } from "./twin";

/** Each branch's composition parent as the twin's composer has it, and the deepest chain along them. */
export function compositionParents(twin: SpectralBeamTwin, s: TreeSkeleton): CompositionParents & { depth: number } {
  const n = s.branchCount, composer = twin.branchComposer;
  const branch = new Int32Array(n), x = new Float32Array(n), moves = new Uint8Array(n);
  for (let b = 0; b < n; b++) {
    branch[b] = composer.parentOf(s, b);
    x[b] = composer.attachmentOf(s, b);
    moves[b] = composer.moves(s, b) ? 1 : 0;
  }
  let depth = 0;
  for (let b = 0; b < n; b++) {
    let k = 0;
    for (let c = b; c >= 0 && k <= n; c = branch[c]) k++;
    depth = Math.max(depth, k);
  }
  return { branch, x, moves, depth };
}

export class SpectralBeamGpuPass {
  readonly pass: BranchPass;
  readonly chain: ChainComposer;
  private readonly table: Float32Array;
  private readonly tableTexture: RawTexture;
  private atlas: RawTexture;
  private atlasSize: number;
  private atlasVersion: number;
  private loadsVersion = -1;
  private easeVersion = -1;
  private readonly frame = new Float32Array(4 * FRAME_VEC4S);
  /** The pass's samplers (the atlas's entry replaced with the atlas when its size changes). */
  private readonly samplers: Record<string, BaseTexture>;

  /** `data`: the animator's upload of the twin's branch data (its static texels are read). */
  constructor(private readonly scene: Scene, twin: SpectralBeamTwin, skeleton: TreeSkeleton, parents: CompositionParents, data: RawTexture) {
    this.table = new Float32Array(4 * TABLE_WIDTH * twin.textureHeight);
    writeTableStatic(skeleton, parents, this.table);
    this.tableTexture = floatTexture(this.table, TABLE_WIDTH, twin.textureHeight, scene, "spectral-beam pass table");
    this.chain = new ChainComposer(this.table);
    this.atlas = this.atlasTexture(twin);
    this.atlasSize = twin.motionSize;
    this.atlasVersion = twin.atlasVersion;
    this.samplers = { [DATA_SAMPLER]: data, [TABLE_SAMPLER]: this.tableTexture, [ATLAS_SAMPLER]: this.atlas };
    this.pass = new BranchPass(scene, {
      name: "spectral-beam branch pass", width: twin.textureWidth, height: twin.textureHeight,
      fragment: SPECTRAL_BEAM_PASS_FRAGMENT,
      uniforms: { [FRAME_UNIFORM]: this.frame },
      samplers: this.samplers,
    });
    this.sync(twin);
  }

  private atlasTexture(twin: SpectralBeamTwin): RawTexture {
    return floatTexture(twin.motionAtlas, twin.motionSize, MOTION_TILES * twin.motionSize, this.scene, "spectral-beam motion atlas");
  }

  /** The table and the atlas as the twin has them now (after its advance). */
  sync(twin: SpectralBeamTwin): void {
    const composer = twin.branchComposer;
    if (twin.loadsVersion !== this.loadsVersion || composer.easeVersion !== this.easeVersion) {
      writeTableLoads(twin.branchCount, twin.meanTip, twin.turbulentTip, composer.easeOffset, this.table);
      this.tableTexture.update(this.table);
      this.loadsVersion = twin.loadsVersion;
      this.easeVersion = composer.easeVersion;
    }
    if (twin.atlasVersion !== this.atlasVersion) {
      if (twin.motionSize !== this.atlasSize) {
        this.atlas.dispose();
        this.atlas = this.atlasTexture(twin);
        this.samplers[ATLAS_SAMPLER] = this.atlas;
        this.atlasSize = twin.motionSize;
      } else {
        this.atlas.update(twin.motionAtlas);
      }
      this.atlasVersion = twin.atlasVersion;
    }
  }

  /** After the twin's advance: this step's uniforms and inputs; the pass renders before the next frame draws. */
  run(twin: SpectralBeamTwin): void {
    this.sync(twin);
    this.frame.set(twin.uniforms.subarray(0, UNIFORM_FLOATS));
    this.frame[UNIFORM_FLOATS] = twin.branchComposer.easeStart;
    this.frame[UNIFORM_FLOATS + 1] = twin.branchCount;
    this.pass.invalidate();
  }

  dispose(): void {
    this.pass.dispose();
    this.tableTexture.dispose();
    this.atlas.dispose();
  }
}
