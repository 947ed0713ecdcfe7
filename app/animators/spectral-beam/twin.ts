/**
 * The CPU twin of the spectral-beam method (Habel, Kusternig and Wimmer 2009). No Babylon here.
 *
 * Everything per frame happens per vertex, in the vertex shader (§3 "hierarchical vertex
 * displacement"); the CPU only keeps two float textures and a handful of uniforms:
 *  - `branchData`: per branch c2, c4, L, the frame t/r/s, the motion vector m and its start, the
 *    motion texture index and the ancestors (Table 2), written once per tree and on edits (an
 *    edit of one branch rewrites only its texels);
 *  - `motionAtlas`: the 2D motion textures (§5.4), one per hierarchy level, plus override slots
 *    for branches with their own damping and the three leaf textures (§7.2);
 *  - `uniforms`: time, the wind vector (§5.5), the leaves' wind offsets and blend weights (eq. 24).
 * `deformVertex` (vertex.ts) is the per-vertex math, the same as spectral-beam.glsl.ts line for
 * line, reading the same arrays; `probe()` and the tests use it. The texture and uniform layouts
 * are in layout.ts, the per-branch composition in compose.ts, the wind's uniforms in wind-uniforms.ts.
 */
import type { Rng } from "../../math/rng";
import type { TreeSkeleton } from "../../tree/skeleton";
import { nodeWVector } from "../../tree/geometry";
import { BranchComposer } from "./compose";
import {
  BRANCH_TEXTURE_WIDTH, BRANCHES_PER_ROW, branchTexel, LEAF_TILE, LEVEL_SLOTS, MAX_TIP_DEFLECTION, MOTION_SLOTS,
  MOTION_TILES, OVERRIDE_SLOTS, RESHAPE_EVERY, RESHAPE_SHARE, TEXTURE_WORK_PER_UPDATE, UNIFORM_FLOATS,
} from "./layout";
import {
  branchMotionSpectrum, leafMetresPerUnit, leafMotionSpectrum, resonanceFrequency,
  synthesizeMotionField, trajectoryDirection, trajectorySpeed,
} from "./motion";
import { BranchResponse } from "./response";
import { defaultMaterial, type PhysicalMaterial } from "../../physics/material";
import { dampingRatio } from "../../physics/damping";
import type { SpectralBeamParams } from "./params";
import { deformVertex, hasNonFinite, tipPosition } from "./vertex";
import { WindUniforms, type WindSource } from "./wind-uniforms";

export type { WindSource } from "./wind-uniforms";

/** Per-branch edits, Fig. 11: multiply a branch's stiffness, give it its own damping ratio. */
export interface BranchOverride {
  stiffness?: number;
  /** Damping ratio ζ of its own motion texture; null removes the override. */
  damping?: number | null;
}

/** What the panel shows about a selected branch. */
export interface BranchInfo {
  branch: number;
  level: number;
  length: number;
  taperRatio: number;
  resonance: number;
  mass: number;
  dampingRatio: number;
  /** The air's damping ratio added to it at the textures' mean wind speed (0 when paper-literal). */
  airDampingRatio: number;
  stiffness: number;
  ownDamping: boolean;
}

export class SpectralBeamTwin {
  readonly branchCount: number;
  readonly branchData: Float32Array;
  readonly textureWidth = BRANCH_TEXTURE_WIDTH;
  readonly textureHeight: number;
  readonly uniforms = new Float32Array(UNIFORM_FLOATS);
  /** The motion atlas the GPU has (size x MOTION_TILES size, RGBA). */
  motionAtlas: Float32Array;
  motionSize: number;
  /** Bumped whenever branchData / motionAtlas change (the provider re-uploads). */
  branchVersion = 0;
  atlasVersion = 0;
  /** Mean f_h and damping ratio per slot (the structural ζ plus the air's at the textures' mean speed), as the textures were built. */
  readonly slotResonance = new Float64Array(MOTION_SLOTS);
  readonly slotDamping = new Float64Array(MOTION_SLOTS);

  private readonly skeleton: TreeSkeleton;
  private params: SpectralBeamParams;
  private readonly rng: Rng;
  private readonly levelOf: Uint8Array;
  private readonly material: PhysicalMaterial;
  /** Each branch's response to the wind (response.ts): the mean bend, the turbulent response, the air's damping. */
  private readonly response: BranchResponse;
  /** Per branch, its own trajectory direction (§5.4's random m; paper-literal, radially symmetric textures). */
  private readonly direction: Float64Array;
  /** Per motion slot, the one direction its branches follow by default and its texture is made for (synthesize). */
  private readonly slotDirection = new Float64Array(2 * MOTION_SLOTS);
  private readonly start: Float64Array;
  private readonly stiffnessOverride: Float64Array;
  private readonly dampingOverride: Float64Array; // NaN: none
  private readonly slotOwner = new Int32Array(OVERRIDE_SLOTS).fill(-1);
  private readonly maxLeafSize: number;
  private textureSpeed = -1;
  /** Simulation time the textures were last reshaped for a new mean speed. */
  private reshapedAt = -Infinity;
  /** A texture of the pending round has been synthesized (at textureSpeed). */
  private roundStarted = false;
  // Regeneration in the background of the frame.
  private staging: Float32Array | null = null;
  private stagingSize = 0;
  private readonly dirty = new Set<number>();
  private readonly windUniforms = new WindUniforms();
  /** The crown's centre (the mean of the branch tips), tree-local. */
  private readonly crown = new Float64Array(3);
  /** The ancestors' bends per branch each frame, and the ease after a change. */
  private readonly composer: BranchComposer;
  /** Time of the last advance (-1: none yet); whether compose() has run since; meanTip and turbulentTip's changes. */
  private lastUpdate = -1;
  private composed = true;
  loadsVersion = 0;

  constructor(skeleton: TreeSkeleton, params: SpectralBeamParams, rng: Rng, material: PhysicalMaterial = defaultMaterial()) {
    const n = skeleton.branchCount;
    this.skeleton = skeleton;
    this.params = { ...params };
    this.rng = rng;
    this.branchCount = n;
    this.textureHeight = Math.max(1, Math.ceil(n / BRANCHES_PER_ROW));
    this.branchData = new Float32Array(4 * BRANCH_TEXTURE_WIDTH * this.textureHeight);
    this.levelOf = new Uint8Array(n);
    this.material = { ...material };
    this.composer = new BranchComposer(skeleton);
    this.direction = new Float64Array(2 * n);
    this.start = new Float64Array(2 * n);
    this.stiffnessOverride = new Float64Array(n).fill(1);
    this.dampingOverride = new Float64Array(n).fill(NaN);
    let maxLeaf = 0;
    for (let i = 0; i < skeleton.leafCount; i++) maxLeaf = Math.max(maxLeaf, skeleton.leafSize[i]);
    this.maxLeafSize = maxLeaf > 0 ? maxLeaf : 0.1;
    // The crown, where the tree feels the mean wind and the wind primitives: the mean of its branch tips.
    for (let b = 0; b < n; b++) {
      const node = skeleton.branchFirstNode[b] + skeleton.branchNodeCount[b] - 1;
      for (let k = 0; k < 3; k++) this.crown[k] += skeleton.nodePosition[3 * node + k] / n;
    }
    this.setPlacement(0, 0, 0);
    // Per branch: its trajectory (§5.4): a direction of irrational slope and a random start. By
    // default every branch of a slot follows the slot's direction (its texture is made for it, so
    // a trajectory shows the designed spectrum: synthesizeMotionField); paper-literal, its own.
    const trajectories = rng.fork(0x5b);
    for (let b = 0; b < n; b++) {
      this.levelOf[b] = Math.min(3, skeleton.branchLevel[b]);
      trajectoryDirection(trajectories, this.direction, 2 * b);
      this.start[2 * b] = trajectories.next();
      this.start[2 * b + 1] = trajectories.next();
    }
    const slotTrajectories = rng.fork(0x5c);
    for (let slot = 0; slot < MOTION_SLOTS; slot++) trajectoryDirection(slotTrajectories, this.slotDirection, 2 * slot);
    this.response = new BranchResponse(skeleton, this.levelOf, this.material);
    this.response.computeLoads(this.params.leafless);
    this.loadsFor(1, 0, 0);
    this.uniforms[3] = -1; // no branch selected
    this.motionSize = Number(params.textureSize);
    this.motionAtlas = new Float32Array(4 * this.motionSize * this.motionSize * MOTION_TILES);
    this.writeStatic();
    this.writeAllBranches();
    // First textures at once, so the first frame already moves.
    this.textureSpeed = 0;
    this.markAllTextures();
    this.regenerate(Infinity);
  }

  get parameters(): SpectralBeamParams {
    return { ...this.params };
  }

  // ---- per-branch constants ---------------------------------------------------------------------

  /** Each branch's response to a steady wind of 1 m/s along (dx, dy, dz) (unit): response.ts. */
  private loadsFor(dx: number, dy: number, dz: number): void {
    this.response.loadsFor(dx, dy, dz, this.params.literal, this.params.leafless, (b) => this.resonance(b));
  }

  /** Per branch, its own tip deflection per (m/s)² of mean wind (xyz) and its turbulent response: response.ts. */
  get meanTip(): Float64Array {
    return this.response.meanTip;
  }

  get turbulentTip(): Float64Array {
    return this.response.turbulentTip;
  }

  /** f_h of branch b (eq. 17; ×2.5 when leafless). */
  resonance(b: number): number {
    return resonanceFrequency(Math.max(1e-3, this.skeleton.branchLength[b]), this.params.leafless);
  }

  private slotOf(b: number): number {
    const own = this.slotOwner.indexOf(b);
    return own >= 0 ? LEVEL_SLOTS + own : this.levelOf[b];
  }

  private writeStatic(): void {
    const s = this.skeleton, d = this.branchData;
    for (let b = 0; b < this.branchCount; b++) {
      const o0 = branchTexel(b, 0);
      for (let k = 0; k < 3; k++) {
        d[o0 + k] = s.branchFrame[9 * b + k];
        d[o0 + 4 + k] = s.branchFrame[9 * b + 3 + k];
        d[o0 + 8 + k] = s.branchFrame[9 * b + 6 + k];
      }
      d[o0 + 3] = s.branchLength[b];
      d[branchTexel(b, 3) + 2] = this.levelOf[b];
      // Identity rotation (and no translation) until the first frame.
      d[branchTexel(b, 5)] = d[branchTexel(b, 6) + 1] = d[branchTexel(b, 7) + 2] = 1;
    }
  }

  /**
   * The texels of branch b: c2, c4 of eq. 7 (Table 1's fit of eq. 25) scaled to u(1) = 1, so the
   * amplitude A is the tip's deflection over L (compose.ts); the stiffness (texel 8.w: deflection
   * goes as 1 / E, eq. 25); the trajectory (|m| from the branch's own f_h, §5.4 "Branch
   * frequencies"), the slot.
   */
  private writeBranch(b: number): void {
    const d = this.branchData, p = this.params;
    // The stiffness scales the amplitude (texel 8.w) rather than c2, c4, so a change eases in (compose).
    d[branchTexel(b, 8) + 3] = 1 / (p.stiffness * this.stiffnessOverride[b]);
    const o1 = branchTexel(b, 1), o2 = branchTexel(b, 2), o8 = branchTexel(b, 8);
    d[o1 + 3] = this.response.shapeC2[b];
    d[o2 + 3] = this.response.shapeC4[b];
    const fh = this.resonance(b);
    const speed = trajectorySpeed(fh, this.motionSize);
    const dir = p.literal ? this.direction : this.slotDirection, k = p.literal ? 2 * b : 2 * this.slotOf(b);
    d[o8] = dir[k] * speed;
    d[o8 + 1] = dir[k + 1] * speed;
    d[branchTexel(b, 5) + 3] = this.slotOf(b);
    d[branchTexel(b, 6) + 3] = this.start[2 * b];
    d[branchTexel(b, 7) + 3] = this.start[2 * b + 1];
    // A_max: the amplitude whose tip deflection is MAX_TIP_DEFLECTION (u(1) = A).
    d[branchTexel(b, 4) + 3] = MAX_TIP_DEFLECTION;
    d[o8 + 2] = fh;
  }

  private writeAllBranches(): void {
    for (let b = 0; b < this.branchCount; b++) this.writeBranch(b);
    this.branchVersion++;
  }

  // ---- motion textures ---------------------------------------------------------------------------

  /**
   * Damping ratio of a level. The trunk's sway is the tree's first mode: its ζ is the shared damping
   * slider's, dampingRatio(damping) (times damping0, 1 by default). The other levels keep their own ζ
   * (§5.4: measured values [MM04], large branches close to critical): the slider is the first mode's
   * ζ in every method, and a twig's ringing is not the trunk's.
   */
  levelDamping(level: number): number {
    const p = this.params;
    if (level <= 0) return dampingRatio(p.damping) * p.damping0;
    return [p.damping1, p.damping2, p.damping3][Math.min(3, level) - 1];
  }

  /** The mean wind speed the motion textures are (being) built for, m/s (eq. 14's v; at least 0.5). */
  get textureMeanSpeed(): number {
    return Math.max(0.5, this.textureSpeed);
  }

  /** The air's damping ratio of branch b in a mean wind of `speed` m/s (see airZetaPerSpeed). */
  airDamping(b: number, speed: number): number {
    return this.response.airZetaPerSpeed[b] * speed;
  }

  /** Mean air damping ratio of a level's branches in a mean wind of `speed` m/s. */
  levelAirDamping(level: number, speed: number): number {
    let sum = 0, count = 0;
    for (let b = 0; b < this.branchCount; b++) {
      if (this.levelOf[b] === level) {
        sum += this.response.airZetaPerSpeed[b];
        count++;
      }
    }
    return count > 0 ? (sum / count) * speed : 0;
  }

  /** Mean f_h of a level's branches: the physical properties behind a level's texture are averaged (§5.4). */
  levelResonance(level: number): number {
    let sum = 0, count = 0;
    for (let b = 0; b < this.branchCount; b++) {
      if (this.levelOf[b] === level) {
        sum += this.resonance(b);
        count++;
      }
    }
    return count > 0 ? sum / count : resonanceFrequency(1, this.params.leafless);
  }

  private markAllTextures(): void {
    this.roundStarted = false;
    for (let slot = 0; slot < LEVEL_SLOTS; slot++) this.dirty.add(slot);
    for (let k = 0; k < OVERRIDE_SLOTS; k++) if (this.slotOwner[k] >= 0) this.dirty.add(LEVEL_SLOTS + k);
    this.dirty.add(-1);
  }

  /** Textures still being regenerated (0 when the GPU shows the current parameters). */
  get pendingTextures(): number {
    return this.dirty.size;
  }

  /** Synthesizes one slot (or the leaves, slot -1) into `target` (a size x MOTION_TILES size atlas). */
  private synthesize(slot: number, target: Float32Array, size: number): void {
    // Each slot keeps its own Gaussian field G (§5.3) whatever the parameters: a change of damping
    // or wind reshapes the motion without a jump.
    const rng = this.rng.fork(0x7e00 + (slot < 0 ? 99 : slot) * 16 + Math.log2(size));
    const meanSpeed = this.textureMeanSpeed;
    const texels = size * size;
    if (slot < 0) {
      const base = 4 * texels * LEAF_TILE;
      const spectrum = leafMotionSpectrum(meanSpeed, leafMetresPerUnit(this.maxLeafSize, size), size);
      // Three channels for the three flutter axes (§7.2); the fourth field fills A, unused.
      synthesizeMotionField(size, spectrum, rng, target, target, 4, base, base + 1);
      synthesizeMotionField(size, spectrum, rng, target, target, 4, base + 2, base + 3);
      return;
    }
    let fh: number, zeta: number;
    if (slot < LEVEL_SLOTS) {
      fh = this.levelResonance(slot);
      zeta = this.levelDamping(slot) + this.levelAirDamping(slot, meanSpeed);
    } else {
      const b = this.slotOwner[slot - LEVEL_SLOTS];
      if (b < 0) return; // freed
      fh = this.resonance(b);
      zeta = this.dampingOverride[b] + this.airDamping(b, meanSpeed);
    }
    this.slotResonance[slot] = fh;
    this.slotDamping[slot] = zeta;
    const tile = slot >> 1, channel = 2 * (slot & 1);
    const base = 4 * texels * tile + channel;
    const literal = this.params.literal;
    const direction = literal ? undefined : this.slotDirection.subarray(2 * slot, 2 * slot + 2);
    synthesizeMotionField(size, branchMotionSpectrum(fh, zeta, meanSpeed, 1, literal), rng, target, target, 4, base, base + 1, direction);
  }

  /**
   * Runs pending texture jobs up to `work` texel units (size^2 per field pair). Textures go to a
   * staging atlas; the GPU's atlas is replaced only when all are done, so it never mixes old and
   * new. Returns true when the atlas changed.
   */
  private regenerate(work: number): boolean {
    if (this.dirty.size === 0) return false;
    const size = Number(this.params.textureSize);
    if (!this.staging || this.stagingSize !== size) {
      this.staging = size === this.motionSize ? this.motionAtlas.slice() : new Float32Array(4 * size * size * MOTION_TILES);
      this.stagingSize = size;
    }
    let spent = 0;
    for (const slot of [...this.dirty]) {
      if (spent >= work) break;
      this.synthesize(slot, this.staging, size);
      this.roundStarted = true;
      this.dirty.delete(slot);
      spent += (slot < 0 ? 2 : 1) * size * size;
    }
    if (this.dirty.size > 0) return false;
    this.roundStarted = false;
    this.holdShown();
    const sizeChanged = size !== this.motionSize;
    this.motionAtlas = this.staging;
    this.motionSize = size;
    this.staging = null;
    this.stagingSize = 0;
    if (sizeChanged) this.writeAllBranches(); // |m| depends on the size (§5.4)
    this.atlasVersion++;
    return true;
  }

  // ---- parameters and edits ------------------------------------------------------------------------

  setParams(params: SpectralBeamParams): void {
    const old = this.params;
    this.holdShown();
    this.params = { ...params };
    const p = this.params;
    if (p.leafless !== old.leafless || p.literal !== old.literal) {
      this.response.computeLoads(p.leafless);
      this.writeAllBranches();
      this.markAllTextures();
    } else if (p.stiffness !== old.stiffness) {
      this.writeAllBranches();
    }
    if (p.damping !== old.damping || p.damping0 !== old.damping0) this.dirty.add(0);
    if (p.damping1 !== old.damping1) this.dirty.add(1);
    if (p.damping2 !== old.damping2) this.dirty.add(2);
    if (p.damping3 !== old.damping3) this.dirty.add(3);
    if (p.textureSize !== old.textureSize) this.markAllTextures();
  }

  /** Fig. 11: override one branch's stiffness (a factor) and damping ratio. Only its texels change. */
  setBranchOverride(b: number, o: BranchOverride): void {
    if (!(Number.isInteger(b) && b >= 0 && b < this.branchCount)) throw new RangeError(`branch must be an integer from 0 to ${this.branchCount - 1}; got ${b}`);
    this.holdShown();
    if (o.stiffness !== undefined) {
      if (!(o.stiffness >= 0.05 && o.stiffness <= 20)) throw new RangeError(`branch stiffness must be from 0.05 to 20 (a factor); got ${o.stiffness}`);
      this.stiffnessOverride[b] = o.stiffness;
    }
    if (o.damping !== undefined) {
      const own = this.slotOwner.indexOf(b);
      if (o.damping === null) {
        this.dampingOverride[b] = NaN;
        if (own >= 0) {
          this.slotOwner[own] = -1;
          this.dirty.delete(LEVEL_SLOTS + own); // a freed slot has nothing to rebuild
        }
      } else {
        if (!(o.damping >= 0.02 && o.damping <= 2)) throw new RangeError(`branch damping ratio must be from 0.02 to 2; got ${o.damping}`);
        if (own < 0) {
          const free = this.slotOwner.indexOf(-1);
          if (free < 0) throw new RangeError(`at most ${OVERRIDE_SLOTS} branches can have their own damping (branches ${[...this.slotOwner].join(", ")} have); reset one first`);
          this.slotOwner[free] = b;
        }
        this.dampingOverride[b] = o.damping;
        this.synthesize(this.slotOf(b), this.motionAtlas, this.motionSize);
        if (this.staging) this.synthesize(this.slotOf(b), this.staging, this.stagingSize);
        this.atlasVersion++;
      }
    }
    this.writeBranch(b);
    this.branchVersion++;
  }

  branchInfo(b: number): BranchInfo {
    const s = this.skeleton;
    const own = !Number.isNaN(this.dampingOverride[b]);
    return {
      branch: b,
      level: s.branchLevel[b],
      length: s.branchLength[b],
      taperRatio: s.branchTaperRatio[b],
      resonance: this.resonance(b),
      mass: this.response.mass[b],
      dampingRatio: own ? this.dampingOverride[b] : this.levelDamping(this.levelOf[b]),
      airDampingRatio: this.airDamping(b, this.textureMeanSpeed),
      stiffness: this.stiffnessOverride[b],
      ownDamping: own,
    };
  }

  /** Highlights one branch (-1: none). */
  select(b: number): void {
    const previous = Math.round(this.uniforms[3]);
    if (previous >= 0 && previous < this.branchCount) this.branchData[branchTexel(previous, 3) + 3] = 0;
    this.uniforms[3] = b;
    if (b >= 0 && b < this.branchCount) this.branchData[branchTexel(b, 3) + 3] = 1;
    this.branchVersion++;
  }

  get selected(): number {
    return Math.round(this.uniforms[3]);
  }

  // ---- per frame -----------------------------------------------------------------------------------

  /** The tree's world translation: the gusts reach it at its foot there, the wind primitives are felt at its crown. */
  setPlacement(x: number, y: number, z: number): void {
    const at = this.windUniforms.at, c = this.crown;
    at[0] = x + c[0]; at[1] = y + c[1]; at[2] = z + c[2];
    this.windUniforms.foot[0] = x; this.windUniforms.foot[1] = z;
  }

  /** Per frame on the CPU alone: advance, then compose every branch (compose.ts). */
  update(t: number, wind: WindSource): void {
    this.advance(t, wind);
    this.compose();
  }

  /**
   * Per frame but the per-branch composition (the GPU pass's, or compose()): the wind (§5.5) and the
   * leaves' offsets into the uniforms, a slice of texture work, the loads when the wind turns, the
   * ease after a change. No allocation unless textures are being rebuilt.
   */
  advance(t: number, wind: WindSource): void {
    const speed = wind.meanSpeed;
    if (speed !== this.textureSpeed) {
      // eq. 14 depends on the mean speed: reshape the textures (same G, no jump). A round not yet
      // started takes the new speed; a new one starts once the speed has moved by RESHAPE_SHARE and
      // RESHAPE_EVERY seconds have passed (a timeline changes it every step, and each swap eases).
      // The mean drag (eqs. 18, 19) follows the speed every frame regardless.
      if (this.dirty.size > 0 && !this.roundStarted) this.textureSpeed = speed;
      else if (this.dirty.size === 0 && t - this.reshapedAt >= RESHAPE_EVERY && Math.abs(speed - this.textureSpeed) > RESHAPE_SHARE * Math.max(1, this.textureSpeed)) {
        this.textureSpeed = speed;
        this.reshapedAt = t;
        this.markAllTextures();
      }
    }
    this.regenerate(TEXTURE_WORK_PER_UPDATE);
    this.windUniforms.write(this.uniforms, t, wind, this.params, this.motionSize, this.maxLeafSize);
    const u = this.uniforms, dir = this.response.direction;
    // The drag goes with the mean wind's direction (|u⊥| u⊥ across each branch): again when it turns.
    if (!(Math.abs(u[4] - dir[0]) + Math.abs(u[5] - dir[1]) + Math.abs(u[6] - dir[2]) < 2e-3)) {
      this.loadsFor(u[4], u[5], u[6]);
      this.loadsVersion++;
    }
    if (this.composer.holding) this.composer.startEase(this.skeleton, this, this.meanTip, this.turbulentTip);
    this.lastUpdate = t;
    this.composed = false;
  }

  /** Every branch's per-frame texels (frame, amplitude, R_b, T_b) at the last advance's time, on the CPU; once. */
  compose(): void {
    if (this.composed) return;
    this.composer.compose(this.skeleton, this, this.meanTip, this.turbulentTip);
    this.composed = true;
    this.branchVersion++;
  }

  /** The composition and its ease (read by the per-branch pass). */
  get branchComposer(): BranchComposer {
    return this.composer;
  }

  /** A change is coming: the motion on show is held for the ease (compose.ts). */
  private holdShown(): void {
    if (this.lastUpdate >= 0 && !this.composer.holding) this.composer.hold(this, this.meanTip, this.turbulentTip);
  }

  /**
   * The deformation of one vertex in the tree's local space (eqs. 20-23, §7), the same math as
   * spectral-beam.glsl.ts (vertex.ts). Inputs are the vertex attributes; writes position xyz,
   * normal xyz (unnormalised, as the shader hands it on) into out.
   */
  deformVertex(
    position: ArrayLike<number>, normal: ArrayLike<number>, branchIndex: number, w: ArrayLike<number>,
    leafFrame: ArrayLike<number>, leafCoord: ArrayLike<number>, out: Float32Array | Float64Array | number[],
  ): void {
    deformVertex(this, position, normal, branchIndex, w, leafFrame, leafCoord, out);
  }

  /** The w-vector of a skeleton node (Habel 2009 §3), as the geometry binds it (tree/geometry.ts). */
  nodeWVector(node: number, out: Float64Array | number[]): void {
    nodeWVector(this.skeleton, node, out);
  }

  /** Deformed tree-local position of branch b's tip node into out[o..o+2]. No allocation. */
  tipPosition(b: number, out: Float32Array | Float64Array, o: number): void {
    tipPosition(this, this.skeleton, b, out, o);
  }

  /** True when the uniforms or (`branches`) the branch data hold NaN or infinity. */
  hasNonFinite(branches = true): boolean {
    return hasNonFinite(this, branches);
  }
}
