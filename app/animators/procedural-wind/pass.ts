/**
 * What the procedural-wind per-branch pass (pass.glsl.ts) reads besides the branch data texture:
 * its static table (the physical tree's compliance and frequencies per branch, the §6.3.3 side and
 * phase draws) and its uniforms (the time, the trunk's rotation and the per-tree gains `prepare`
 * computed, the wind's contract at the tree's foot now and at the paper-literal delayed-power
 * taps, the wind primitives). Written from the twin, so the pass and the twin read the same
 * numbers. No Babylon.
 */
import { packPrimitives, packWindState, PRIMITIVE_ARRAY_VEC4S, type PassWindSource } from "../branch-pass-wind";
import { BRANCHES_PER_ROW, DELAY_TAPS, branchTexel, type ProceduralWindTwin } from "./twin";

/** Texels (RGBA32F) per branch of the pass's static table:
 *  0: compliance along x (rad per (m/s)², 3), natural angular frequency (rad/s)
 *  1: compliance along z (3), the second phase's draw in [0, 1)
 *  2: side x, side z (unit, §6.3.3's three cases), relative stiffness (Ota 2003), where it grows on its parent (x) */
export const TABLE_TEXELS = 3;
export const TABLE_WIDTH = TABLE_TEXELS * BRANCHES_PER_ROW;

/** The vec4 uniforms (`pwFrame`):
 *  0: t (s), paper-literal (0/1), branch count, stiffness
 *  1: the trunk's quaternion (branch 0's texel 1, from prepare)
 *  2: release, high-frequency gain, sway gain, √stiffness
 *  3: 2π × phase randomization, paper-literal branch frequency / √stiffness (Hz), the crown's wind power, 0
 *  4, 5, 6: the wind's contract at the tree's foot now (branch-pass-wind.ts's packWindState)
 *  7: the tree's world translation xyz, 0
 *  8 + k: paper-literal tap k at max(0, t - k Δ): strength, vertical, turbulence amplitude, advection
 *  then the wind primitives (branch-pass-wind.ts), PRIMITIVE_ARRAY_VEC4S vec4s, in the same array */
export const FRAME_VEC4S = 8 + DELAY_TAPS;
export const FRAME_FLOATS = 4 * FRAME_VEC4S;
export const PRIMITIVE_FLOATS = 4 * PRIMITIVE_ARRAY_VEC4S;
export const UNIFORM_VEC4S = FRAME_VEC4S + PRIMITIVE_ARRAY_VEC4S;

/** Float offset of texel j of branch b in the table. */
export function tableTexel(b: number, j: number): number {
  const row = Math.floor(b / BRANCHES_PER_ROW);
  return 4 * (row * TABLE_WIDTH + (b - row * BRANCHES_PER_ROW) * TABLE_TEXELS + j);
}

/** The static table of a twin (TABLE_WIDTH x twin.textureHeight texels). */
export function passTable(twin: ProceduralWindTwin, skeletonParentX: ArrayLike<number>): Float32Array {
  const out = new Float32Array(4 * TABLE_WIDTH * twin.textureHeight);
  const C = twin.compliance;
  for (let b = 0; b < twin.branchCount; b++) {
    const o = tableTexel(b, 0);
    out[o] = C[6 * b]; out[o + 1] = C[6 * b + 1]; out[o + 2] = C[6 * b + 2]; out[o + 3] = twin.branchOmega[b];
    out[o + 4] = C[6 * b + 3]; out[o + 5] = C[6 * b + 4]; out[o + 6] = C[6 * b + 5]; out[o + 7] = twin.phaseDraw2[b];
    out[o + 8] = twin.side[2 * b]; out[o + 9] = twin.side[2 * b + 1]; out[o + 10] = twin.relativeStiffness[b]; out[o + 11] = skeletonParentX[b];
  }
  return out;
}

/**
 * The pass's uniforms for the twin's last `prepare` into frame (FRAME_FLOATS) and primitives
 * (PRIMITIVE_FLOATS). Returns false when the wind holds a primitive the pass cannot evaluate.
 * No allocation.
 */
export function writeFrame(twin: ProceduralWindTwin, wind: PassWindSource, frame: Float32Array, primitives: Float32Array): boolean {
  const count = packPrimitives(wind.primitives, primitives);
  if (count < 0) return false;
  const p = twin.parameters, d = twin.branchData, q0 = branchTexel(0, 1);
  frame[0] = twin.time; frame[1] = p.paperLiteral ? 1 : 0; frame[2] = twin.branchCount; frame[3] = p.stiffness;
  for (let k = 0; k < 4; k++) frame[4 + k] = d[q0 + k];
  frame[8] = twin.release; frame[9] = twin.hfGain; frame[10] = twin.swayGain; frame[11] = twin.rootStiffness;
  frame[12] = twin.phase2Scale; frame[13] = twin.freqScale; frame[14] = twin.crownPower; frame[15] = 0;
  const tex = wind.turbulenceTexture;
  packWindState(twin.taps[0], tex, count, frame, 16);
  frame[28] = twin.offsetX; frame[29] = twin.offsetY; frame[30] = twin.offsetZ; frame[31] = 0;
  if (p.paperLiteral) {
    const scratch = TAP_SCRATCH;
    for (let k = 0; k < DELAY_TAPS; k++) {
      packWindState(twin.taps[k], tex, count, scratch, 0);
      const o = 32 + 4 * k;
      frame[o] = scratch[2]; frame[o + 1] = scratch[3]; frame[o + 2] = scratch[4]; frame[o + 3] = scratch[5];
    }
  }
  return true;
}

const TAP_SCRATCH = new Float32Array(12);
