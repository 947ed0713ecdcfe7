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
 * `deformVertex` is the per-vertex math, the same as spectral-beam.glsl.ts line for line,
 * reading the same arrays; `probe()` and the tests use it.
 */
import type { Rng } from "../../math/rng";
import type { TreeSkeleton } from "../../tree/skeleton";
import { nodeWVector } from "../../tree/geometry";
import type { WindGpuState } from "../../wind/wind-field";
import { fitBeam } from "./beam";
import { arcLengthPosition } from "./length-correction";
import {
  branchMasses, branchMotionSpectrum, isNearRational, leafMetresPerUnit, leafMotionSpectrum, resonanceFrequency,
  sampleWrapped, synthesizeMotionField, trajectoryDirection, trajectorySpeed,
} from "./motion";
import type { SpectralBeamParams } from "./params";

/** What the twin needs of the WindField: the state the GPU gets, and the settings' mean speed. */
export interface WindSource {
  gpuState(t: number, out: WindGpuState): unknown;
  /** The mean wind speed setting, m/s (eq. 14's v_m). */
  readonly meanSpeed: number;
}

// ---- branch data texture (Table 2, per branch) --------------------------------------------------
/** Texels (RGBA32F) per branch:
 *  0: t.xyz, L      1: r.xyz, c2      2: s.xyz, c4    (§4.3; the frame as carried by the ancestors' bends, eq. 22)
 *  3: A_r, A_s of this frame (§5.4 lookup + eqs. 18, 19), own level (0..3), highlight (0 or 1)
 *  4: Δ.xyz, the ancestors' displacement of the branch (eq. 20 summed from the trunk down), A_max
 *  5, 6, 7: the ancestors' normal transform (eq. 23 composed), one row each; w: motion texture
 *     slot, trajectory start x, y
 *  8: m.xy (§5.4: the branch's motion vector), f_h (Hz), 1 / stiffness (the parameter times the branch's own)
 * The vertex shader reads texels 0 to 7; texel 8 and the w of 5 to 7 are the per-branch pass's. */
export const TEXELS_PER_BRANCH = 9;
export const BRANCHES_PER_ROW = 256;
export const BRANCH_TEXTURE_WIDTH = TEXELS_PER_BRANCH * BRANCHES_PER_ROW;

/** Float offset of texel j of branch b in the RGBA data. */
export function branchTexel(b: number, j: number): number {
  const row = Math.floor(b / BRANCHES_PER_ROW);
  return 4 * (row * BRANCH_TEXTURE_WIDTH + (b - row * BRANCHES_PER_ROW) * TEXELS_PER_BRANCH + j);
}

// ---- motion atlas ----------------------------------------------------------------------------------
/** Motion texture slots: 0..3 the hierarchy levels (§5.4), 4..7 branches with their own damping. */
export const LEVEL_SLOTS = 4;
export const OVERRIDE_SLOTS = 4;
export const MOTION_SLOTS = LEVEL_SLOTS + OVERRIDE_SLOTS;
/** The atlas is `size` wide and MOTION_TILES * size high, RGBA: tile k holds slot 2k in RG and
 *  slot 2k + 1 in BA (each slot two independent fields, for A_r and A_s); the last tile holds the
 *  leaves' three textures in RGB (§7.2). */
export const LEAF_TILE = MOTION_SLOTS / 2;
/** Floats of one tile of the atlas. */
export function tileFloats(size: number): number {
  return 4 * size * size;
}
export const MOTION_TILES = LEAF_TILE + 1;

// ---- uniforms ---------------------------------------------------------------------------------------
/** Eight vec4 uniforms, sbU0..sbU7 in the GLSL. */
export const UNIFORM_VEC4S = 8;
/** u0: time (s), texture size, length correction (0/1), selected branch (-1 for none)
 *  u1: direction xyz (unit) of the 3D mean wind M = v d + V up (the WindField's strength v along
 *      its direction d, its vertical V), mean force |M|^2 (m^2/s^2, §5.5): eqs. 18, 19 project the
 *      mean drag |M| M onto each branch's carried r and s (compose())
 *  u2: turbulent force 2 v σ_u, leaf flutter amplitude, 1 / metres per leaf-texture unit, leafless (0/1)
 *  u3: xy plane rotation (cos, sin), xz plane rotation (cos, sin)
 *  u4: yz plane rotation (cos, sin), eq. 24 weights of the xy and xz planes
 *  u5: eq. 24 weight of the yz plane, 0, 0, 0
 *  u6: leaf texture offsets -W t of the xy and xz planes (texture units, wrapped)
 *  u7: the yz plane's offset, 0, 0 */
export const UNIFORM_FLOATS = 4 * UNIFORM_VEC4S;

// ---- physical constants ---------------------------------------------------------------------------
/** ½ ρ_air C_d (kg/m^3): drag per unit frontal area and (m/s)^2. */
export const DRAG_COEFFICIENT = 0.5 * 1.2 * 0.5;
/** Share of a leaf card's square that is leaf (the drag area of a leaf). */
const LEAF_FILL = 0.5;
/** Largest tip deflection as a share of the branch length: amplitudes saturate smoothly (tanh). */
export const MAX_TIP_DEFLECTION = 0.6;
/** Largest leaf flutter slope (tanh saturation). */
export const MAX_FLUTTER = 1;
/**
 * Where a leaf vertex samples the leaf textures: this share of the way from the leaf's petiole to
 * the vertex. The textures' shortest wavelength is 4 leaves (§7.2), so sampled at the corners
 * themselves a card's corners could swing against each other and tear the card apart; sampled
 * closer together, each vertex still moves a little differently (the leaf bends) but the leaf
 * stays one leaf.
 */
export const LEAF_SAMPLE_SPREAD = 0.35;
/** Strength of the third, in-plane flutter channel relative to the flap and the torsion. */
export const IN_PLANE_FLUTTER = 0.3;
/** Wind speed at which the leaf flutter equals the declared strength, m/s. */
export const REFERENCE_WIND_SPEED = 10;
/**
 * Tip deflection as a share of the branch length, per hierarchy level, for the tree's median
 * branch of that level under the mean drag of a 10 m/s wind (u(1) = A (c2 + c4), A = v^2).
 * Generated and modelled trees draw radii for looks, not strength (their twigs are many times
 * thicker than a real twig of that length, and eq. 25 goes with r1^-4), so the absolute compliance
 * of each level is set to these sways; within a level each branch keeps its own L^3 / (E s1^4)
 * times its load (eq. 25's prefactor), so thin, long, leafy branches bend more than their peers.
 */
export const LEVEL_SWAY = [0.012, 0.04, 0.08, 0.14];
/**
 * After a parameter change each branch keeps the amplitude it had, and the difference to the new
 * motion decays with this time constant (s): the new motion plays at once, without a jump.
 */
const EASE_TAU = 0.3;
/** The textures are reshaped for a new mean speed once it has moved by this share (of at least 1 m/s)... */
const RESHAPE_SHARE = 0.05;
/** ...and this long (s) after the last reshaping: the ease of one has faded (e^-4) before the next. */
const RESHAPE_EVERY = 4 * EASE_TAU;
/** Texel work (size^2 units) per update for regenerating textures: all six at 256 x 256. */
const TEXTURE_WORK_PER_UPDATE = 6 * 256 * 256;

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
  /** Mean f_h and damping ratio per slot, as the textures were built. */
  readonly slotResonance = new Float64Array(MOTION_SLOTS);
  readonly slotDamping = new Float64Array(MOTION_SLOTS);

  private readonly skeleton: TreeSkeleton;
  private params: SpectralBeamParams;
  private readonly rng: Rng;
  private readonly levelOf: Uint8Array;
  private readonly mass: Float64Array;
  private readonly loadWidth: Float64Array;
  /** The load width with leaves: c2 and c4 are built on it; leafless scales the amplitude instead. */
  private readonly referenceLoad: Float64Array;
  private readonly direction: Float64Array;
  private readonly start: Float64Array;
  private readonly stiffnessOverride: Float64Array;
  private readonly dampingOverride: Float64Array; // NaN: none
  private readonly slotOwner = new Int32Array(OVERRIDE_SLOTS).fill(-1);
  private readonly maxLeafSize: number;
  private readonly fitCache = new Map<number, { c2: number; c4: number }>();
  /** Per level: LEVEL_SWAY over the level's median raw compliance (from the tree with leaves). */
  private readonly levelScale = new Float64Array(4).fill(1);
  private textureSpeed = -1;
  /** Simulation time the textures were last reshaped for a new mean speed. */
  private reshapedAt = -Infinity;
  /** A texture of the pending round has been synthesized (at textureSpeed). */
  private roundStarted = false;
  // Regeneration in the background of the frame.
  private staging: Float32Array | null = null;
  private stagingSize = 0;
  private readonly dirty = new Set<number>();
  private readonly gpu: WindGpuState = { dirX: 1, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 };
  private readonly planeAngle = new Float64Array(3);
  private planeWindX = NaN;
  private planeWindZ = NaN;
  // Per-branch composition of the ancestors (compose()).
  private readonly tangentMap: Float64Array;
  private readonly normalMap: Float64Array;
  private readonly displacement: Float64Array;
  private readonly gScratch = new Float64Array(3);
  /** Each branch's A_r, A_s as shown last frame; after a change, the offset from the new motion
   *  that decays (EASE_TAU) and when it started. */
  private readonly previousA: Float64Array;
  private readonly olderA: Float64Array;
  private readonly easeOffset: Float64Array;
  private easePending = false;
  private easeStart = -1;
  private lastComposeTime = -1;
  // Scratch for deformVertex.
  private readonly sample = new Float64Array(4);
  private readonly leafAmp = new Float64Array(3);
  private readonly wScratch = new Float64Array(4);
  private readonly posScratch = new Float64Array(3);
  private readonly outScratch = new Float64Array(6);

  constructor(skeleton: TreeSkeleton, params: SpectralBeamParams, rng: Rng) {
    const n = skeleton.branchCount;
    this.skeleton = skeleton;
    this.params = { ...params };
    this.rng = rng;
    this.branchCount = n;
    this.textureHeight = Math.max(1, Math.ceil(n / BRANCHES_PER_ROW));
    this.branchData = new Float32Array(4 * BRANCH_TEXTURE_WIDTH * this.textureHeight);
    this.levelOf = new Uint8Array(n);
    this.mass = branchMasses(skeleton);
    this.tangentMap = new Float64Array(9 * n);
    this.normalMap = new Float64Array(9 * n);
    this.displacement = new Float64Array(3 * n);
    this.previousA = new Float64Array(2 * n);
    this.olderA = new Float64Array(2 * n);
    this.easeOffset = new Float64Array(2 * n);
    this.loadWidth = new Float64Array(n);
    this.referenceLoad = new Float64Array(n);
    this.direction = new Float64Array(2 * n);
    this.start = new Float64Array(2 * n);
    this.stiffnessOverride = new Float64Array(n).fill(1);
    this.dampingOverride = new Float64Array(n).fill(NaN);
    let maxLeaf = 0;
    for (let i = 0; i < skeleton.leafCount; i++) maxLeaf = Math.max(maxLeaf, skeleton.leafSize[i]);
    this.maxLeafSize = maxLeaf > 0 ? maxLeaf : 0.1;
    // Per branch: its trajectory (§5.4): a direction of irrational slope and a random start.
    const trajectories = rng.fork(0x5b);
    for (let b = 0; b < n; b++) {
      this.levelOf[b] = Math.min(3, skeleton.branchLevel[b]);
      trajectoryDirection(trajectories, this.direction, 2 * b);
      this.start[2 * b] = trajectories.next();
      this.start[2 * b + 1] = trajectories.next();
    }
    this.calibrateLevels();
    this.computeLoads();
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

  /** Frontal area per unit length the wind pushes on (m): the branch's own wood, its sub-branches'
   *  wood and every leaf they carry (the load of eq. 1, spread along the branch). */
  private computeLoads(): void {
    const s = this.skeleton, n = this.branchCount;
    const area = new Float64Array(n);
    const leafless = this.params.leafless;
    for (let b = 0; b < n; b++) area[b] = s.branchLength[b] * (s.branchRootRadius[b] + s.branchTipRadius[b]);
    if (!leafless) for (let i = 0; i < s.leafCount; i++) area[s.leafBranch[i]] += LEAF_FILL * s.leafSize[i] * s.leafSize[i];
    for (let b = n - 1; b > 0; b--) area[s.branchParent[b]] += area[b];
    for (let b = 0; b < n; b++) this.loadWidth[b] = area[b] / Math.max(1e-4, s.branchLength[b]);
  }

  /** Raw compliance of eq. 25's prefactor per unit wind force: ½ρC_d width L^3 / (E s1^4), E = 1. */
  private rawCompliance(b: number): number {
    const s = this.skeleton;
    const L = Math.max(1e-3, s.branchLength[b]);
    const s1 = Math.max(1e-4, s.branchRootRadius[b]);
    return (DRAG_COEFFICIENT * this.referenceLoad[b] * L * L * L) / (s1 * s1 * s1 * s1);
  }

  /** LEVEL_SWAY: each level's median tip deflection at the reference wind, with leaves. */
  private calibrateLevels(): void {
    const leafless = this.params.leafless;
    this.params.leafless = false;
    this.computeLoads();
    this.referenceLoad.set(this.loadWidth);
    this.params.leafless = leafless;
    const byLevel: number[][] = [[], [], [], []];
    for (let b = 0; b < this.branchCount; b++) {
      const { c2, c4 } = this.fit(this.skeleton.branchTaperRatio[b]);
      byLevel[this.levelOf[b]].push(this.rawCompliance(b) * (c2 + c4) * REFERENCE_WIND_SPEED * REFERENCE_WIND_SPEED);
    }
    for (let l = 0; l < 4; l++) {
      const v = byLevel[l].sort((a, b) => a - b);
      const median = v.length > 0 ? v[v.length >> 1] : 0;
      this.levelScale[l] = median > 0 ? LEVEL_SWAY[l] / median : 1;
    }
  }

  private fit(alpha: number): { c2: number; c4: number } {
    const key = Math.round(Math.min(1, Math.max(0.01, alpha)) * 1000);
    let f = this.fitCache.get(key);
    if (!f) {
      const fit = fitBeam(key / 1000);
      f = { c2: fit.c2, c4: fit.c4 };
      this.fitCache.set(key, f);
    }
    return f;
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
      // Identity normal transform until the first frame.
      d[branchTexel(b, 5)] = d[branchTexel(b, 6) + 1] = d[branchTexel(b, 7) + 2] = 1;
    }
  }

  /**
   * The load-dependent texels of branch b: c2, c4 of eq. 7 times F/(E' r1^4) per unit wind force
   * (eq. 25's prefactor, with E' = E L, r1 = s1 / L: L^3 / (E s1^4), and F = ½ ρ C_d width per
   * (m/s)^2), the trajectory (|m| from the branch's own f_h, §5.4 "Branch frequencies"), the slot.
   */
  private writeBranch(b: number): void {
    const d = this.branchData, p = this.params;
    // The stiffness scales the amplitude (texel 8.w) rather than c2, c4, so a change eases in (compose).
    const compliance = this.rawCompliance(b) * this.levelScale[this.levelOf[b]];
    // The load (eq. 1's F) and the stiffness scale the amplitude: deflection goes as F / E (eq. 25).
    d[branchTexel(b, 8) + 3] = this.loadWidth[b] / this.referenceLoad[b] / (p.stiffness * this.stiffnessOverride[b]);
    const { c2, c4 } = this.fit(this.skeleton.branchTaperRatio[b]);
    const o1 = branchTexel(b, 1), o2 = branchTexel(b, 2), o8 = branchTexel(b, 8);
    d[o1 + 3] = c2 * compliance;
    d[o2 + 3] = c4 * compliance;
    const fh = this.resonance(b);
    const speed = trajectorySpeed(fh, this.motionSize);
    d[o8] = this.direction[2 * b] * speed;
    d[o8 + 1] = this.direction[2 * b + 1] * speed;
    d[branchTexel(b, 5) + 3] = this.slotOf(b);
    d[branchTexel(b, 6) + 3] = this.start[2 * b];
    d[branchTexel(b, 7) + 3] = this.start[2 * b + 1];
    // A_max: the amplitude whose tip deflection is MAX_TIP_DEFLECTION (u(1) = A (c2 + c4)).
    d[branchTexel(b, 4) + 3] = MAX_TIP_DEFLECTION / Math.max(1e-30, d[o1 + 3] + d[o2 + 3]);
    d[o8 + 2] = fh;
  }

  private writeAllBranches(): void {
    for (let b = 0; b < this.branchCount; b++) this.writeBranch(b);
    this.branchVersion++;
  }

  // ---- motion textures ---------------------------------------------------------------------------

  /** Damping ratio of a level after the shared damping's scale (×0.25 .. ×4). */
  levelDamping(level: number): number {
    const p = this.params;
    const zeta = [p.damping0, p.damping1, p.damping2, p.damping3][Math.min(3, level)];
    return zeta * Math.pow(4, 2 * p.damping - 1);
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
    const meanSpeed = Math.max(0.5, this.textureSpeed);
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
      zeta = this.levelDamping(slot);
    } else {
      const b = this.slotOwner[slot - LEVEL_SLOTS];
      if (b < 0) return; // freed
      fh = this.resonance(b);
      zeta = this.dampingOverride[b];
    }
    this.slotResonance[slot] = fh;
    this.slotDamping[slot] = zeta;
    const tile = slot >> 1, channel = 2 * (slot & 1);
    const base = 4 * texels * tile + channel;
    synthesizeMotionField(size, branchMotionSpectrum(fh, zeta, meanSpeed), rng, target, target, 4, base, base + 1);
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
    const sizeChanged = size !== this.motionSize;
    this.motionAtlas = this.staging;
    this.motionSize = size;
    this.staging = null;
    this.stagingSize = 0;
    if (sizeChanged) this.writeAllBranches(); // |m| depends on the size (§5.4)
    this.atlasVersion++;
    this.easePending = this.lastComposeTime >= 0;
    return true;
  }

  // ---- parameters and edits ------------------------------------------------------------------------

  setParams(params: SpectralBeamParams): void {
    const old = this.params;
    this.easePending = this.lastComposeTime >= 0;
    this.params = { ...params };
    const p = this.params;
    if (p.leafless !== old.leafless) {
      this.computeLoads();
      this.writeAllBranches();
      this.markAllTextures();
    } else if (p.stiffness !== old.stiffness) {
      this.writeAllBranches();
    }
    if (p.damping !== old.damping || p.damping0 !== old.damping0) this.dirty.add(0);
    if (p.damping !== old.damping || p.damping1 !== old.damping1) this.dirty.add(1);
    if (p.damping !== old.damping || p.damping2 !== old.damping2) this.dirty.add(2);
    if (p.damping !== old.damping || p.damping3 !== old.damping3) this.dirty.add(3);
    if (p.textureSize !== old.textureSize) this.markAllTextures();
  }

  /** Fig. 11: override one branch's stiffness (a factor) and damping ratio. Only its texels change. */
  setBranchOverride(b: number, o: BranchOverride): void {
    if (!(Number.isInteger(b) && b >= 0 && b < this.branchCount)) throw new RangeError(`branch must be an integer from 0 to ${this.branchCount - 1}; got ${b}`);
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
    this.easePending = this.lastComposeTime >= 0;
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
      mass: this.mass[b],
      dampingRatio: own ? this.dampingOverride[b] : this.levelDamping(this.levelOf[b]),
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

  /**
   * Per frame (the CPU's whole share): the wind (§5.5, slowly modulated strength and gusts from the
   * WindField) and the leaves' texture offsets into the uniforms; a slice of any pending texture
   * work. No allocation unless textures are being rebuilt.
   */
  update(t: number, wind: WindSource): void {
    const speed = wind.meanSpeed;
    if (speed !== this.textureSpeed) {
      // eq. 14 depends on the mean speed: reshape the textures (same G, no jump). A round not yet
      // started simply takes the new speed. Otherwise a new round starts only when the speed has
      // moved by RESHAPE_SHARE and RESHAPE_EVERY seconds have passed since the last: a wind that
      // changes every step (a wind timeline) swapped textures in every frame, and the ease
      // (which extrapolates the last two frames at each swap) then ran away with the motion
      // (metres of drift while the wind fell). The mean drag (eqs. 18, 19) follows the speed
      // every frame regardless; only the spectrum's shape waits.
      if (this.dirty.size > 0 && !this.roundStarted) this.textureSpeed = speed;
      else if (this.dirty.size === 0 && t - this.reshapedAt >= RESHAPE_EVERY && Math.abs(speed - this.textureSpeed) > RESHAPE_SHARE * Math.max(1, this.textureSpeed)) {
        this.textureSpeed = speed;
        this.reshapedAt = t;
        this.markAllTextures();
      }
    }
    this.regenerate(TEXTURE_WORK_PER_UPDATE);
    const g = this.gpu;
    wind.gpuState(t, g);
    const u = this.uniforms;
    const v = g.strength, vertical = g.vertical;
    u[0] = t;
    u[1] = this.motionSize;
    u[2] = this.params.lengthCorrection ? 1 : 0;
    // The mean drag ~ |M| M of the 3D mean wind M = v d + vertical up (eqs. 18, 19 project it onto
    // r and s): an updraft lifts the branches across it. With no vertical wind M = v d exactly.
    if (vertical === 0) {
      u[4] = g.dirX; u[5] = 0; u[6] = g.dirZ;
      u[7] = v * Math.abs(v);
    } else {
      const m = Math.sqrt(v * v + vertical * vertical); // |d| = 1
      u[4] = (v * g.dirX) / m; u[5] = vertical / m; u[6] = (v * g.dirZ) / m;
      u[7] = m * m;
    }
    // Fluctuating drag ~ 2 v u': the turbulence rides on the horizontal wind (WindField: turbulence
    // amplitude = turbulence × strength), so v here is the horizontal strength.
    u[8] = 2 * Math.abs(v) * g.turbulenceAmplitude;
    u[9] = this.params.leafless ? 0 : this.params.flutter * Math.min(2, Math.abs(v) / REFERENCE_WIND_SPEED);
    const D = leafMetresPerUnit(this.maxLeafSize, this.motionSize);
    u[10] = 1 / D;
    u[11] = this.params.leafless ? 1 : 0;
    this.choosePlaneAngles(g.dirX, 0, g.dirZ);
    for (let p = 0; p < 3; p++) {
      const c = Math.cos(this.planeAngle[p]), sn = Math.sin(this.planeAngle[p]);
      const o = p < 2 ? 12 + 2 * p : 16;
      u[o] = c; u[o + 1] = sn;
    }
    // eq. 24: a plane's texture is weighted by how much of the wind lies in it, normalised so the
    // amplitude does not depend on the wind direction.
    const W = Math.hypot(g.dirX, g.dirZ);
    let wxy = 1, wxz = 1, wyz = 1;
    if (W > 0) {
      wxy = 1 - Math.abs(g.dirZ) / W;
      wyz = 1 - Math.abs(g.dirX) / W;
      wxz = 1; // W_y = 0
    }
    const sum = wxy + wxz + wyz;
    u[18] = wxy / sum; u[19] = wxz / sum; u[20] = wyz / sum;
    u[21] = u[22] = u[23] = 0;
    // -W t projected on the planes, rotated, in texture units, wrapped (float32 precision).
    const ax = g.advection * g.dirX, az = g.advection * g.dirZ;
    this.planeOffset(0, ax, 0, u, 24);
    this.planeOffset(1, ax, az, u, 26);
    this.planeOffset(2, 0, az, u, 28);
    u[30] = u[31] = 0;
    this.compose();
    this.branchVersion++;
  }

  /**
   * The branch-constant part of eqs. 20-23, once per branch per frame, parents first (a parent's
   * index is always lower). A vertex's w-vector below its own level holds only attachment points
   * (§3), so what the levels above do to a vertex is the same for its whole branch: the ancestors'
   * displacement Δ_b (eq. 20 at the attachment points, summed), their normal transform N_b
   * (eq. 23, composed), and the branch's frame carried by them (eq. 22). Its own amplitude A_{r,s}
   * (§5.4's trajectory lookup plus eqs. 18, 19) is constant along it too. The vertex shader then
   * applies Δ_b, N_b and the branch's own bend at the vertex's own x: the same result as walking the
   * hierarchy per vertex, with the per-branch work done once instead of once per vertex (as
   * Zioma 2007 §6.5.1 moves "simulation per branch" out of the per-vertex shader).
   */
  private compose(): void {
    const s = this.skeleton, d = this.branchData, u = this.uniforms;
    const J = this.tangentMap, N = this.normalMap, D = this.displacement;
    const time = u[0], wdx = u[4], wdy = u[5], wdz = u[6], mean = u[7], turb = u[8];
    const lengthCorrection = u[2] > 0.5;
    const smp = this.sample;
    const G = this.gScratch;
    // After a change: the offset from what was shown decays (EASE_TAU); captured on the first frame.
    const capture = this.easePending;
    this.easePending = false;
    if (capture) this.easeStart = time;
    const ease = this.easeStart >= 0 && time - this.easeStart < 8 * EASE_TAU ? Math.exp(-(time - this.easeStart) / EASE_TAU) : 0;
    this.lastComposeTime = time;
    for (let b = 0; b < this.branchCount; b++) {
      const p = s.branchParent[b];
      const j = 9 * b, k = 3 * b;
      if (p < 0) {
        for (let i = 0; i < 9; i++) { J[j + i] = IDENTITY[i]; N[j + i] = IDENTITY[i]; }
        D[k] = D[k + 1] = D[k + 2] = 0;
      } else {
        // The parent's own bend at this branch's attachment point (eqs. 20, 21, 13).
        const q = branchTexel(p, 0);
        const tx = d[q], ty = d[q + 1], tz = d[q + 2], L = d[q + 3];
        const rx = d[q + 4], ry = d[q + 5], rz = d[q + 6], c2 = d[q + 7];
        const sx = d[q + 8], sy = d[q + 9], sz = d[q + 10], c4 = d[q + 11];
        const Ar = d[q + 12], As = d[q + 13];
        const x = s.branchParentX[b];
        const y = lengthCorrection ? arcLengthPosition(x, Math.sqrt(Ar * Ar + As * As), c2, c4) : x;
        const y2 = y * y, P = y2 * (c2 + c4 * y2), dP = y * (2 * c2 + 4 * c4 * y2);
        const ka = L * (y - x), kr = L * Ar * P, ks = L * As * P;
        const kp = 3 * p;
        D[k] = D[kp] + ka * tx + kr * rx + ks * sx;
        D[k + 1] = D[kp + 1] + ka * ty + kr * ry + ks * sy;
        D[k + 2] = D[kp + 2] + ka * tz + kr * rz + ks * sz;
        G[0] = dP * (Ar * rx + As * sx); G[1] = dP * (Ar * ry + As * sy); G[2] = dP * (Ar * rz + As * sz);
        // eq. 22: J_b = (I + G t^T) J_p;  eq. 23: N_b = (I - t G^T) N_p.
        const jp = 9 * p;
        for (let c = 0; c < 3; c++) {
          const tj = tx * J[jp + c] + ty * J[jp + 3 + c] + tz * J[jp + 6 + c];
          const gn = G[0] * N[jp + c] + G[1] * N[jp + 3 + c] + G[2] * N[jp + 6 + c];
          J[j + c] = J[jp + c] + G[0] * tj; J[j + 3 + c] = J[jp + 3 + c] + G[1] * tj; J[j + 6 + c] = J[jp + 6 + c] + G[2] * tj;
          N[j + c] = N[jp + c] - tx * gn; N[j + 3 + c] = N[jp + 3 + c] - ty * gn; N[j + 6 + c] = N[jp + 6 + c] - tz * gn;
        }
      }
      // The branch's frame, carried: J_b times its rest frame, normalised.
      const o = branchTexel(b, 0);
      for (let v = 0; v < 3; v++) {
        const f = 9 * b + 3 * v;
        const fx = s.branchFrame[f], fy = s.branchFrame[f + 1], fz = s.branchFrame[f + 2];
        const ex = J[j] * fx + J[j + 1] * fy + J[j + 2] * fz;
        const ey = J[j + 3] * fx + J[j + 4] * fy + J[j + 5] * fz;
        const ez = J[j + 6] * fx + J[j + 7] * fy + J[j + 8] * fz;
        const inv = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
        d[o + 4 * v] = ex * inv; d[o + 4 * v + 1] = ey * inv; d[o + 4 * v + 2] = ez * inv;
      }
      // Its own amplitude: §5.4's trajectory through its motion texture, eqs. 18 and 19 on top.
      const o3 = o + 12, o5 = o + 20, o6 = o + 24, o7 = o + 28, o8 = o + 32;
      let Ar = 0, As = 0;
      if (s.branchLevel[b] < 4) {
        const slot = Math.round(d[o5 + 3]);
        this.lookup(slot >> 1, d[o6 + 3] + d[o8] * time, d[o7 + 3] + d[o8 + 1] * time, smp);
        const ch = 2 * (slot & 1);
        const soft = d[o8 + 3]; // load / stiffness relative to the reference: deflection goes as F / E (eq. 25)
        Ar = soft * (turb * smp[ch] + mean * (d[o + 4] * wdx + d[o + 5] * wdy + d[o + 6] * wdz));
        As = soft * (turb * smp[ch + 1] + mean * (d[o + 8] * wdx + d[o + 9] * wdy + d[o + 10] * wdz));

        const amp = Math.sqrt(Ar * Ar + As * As), Amax = d[o + 19];
        if (amp > 0) {
          const f = (Amax * Math.tanh(amp / Amax)) / amp;
          Ar *= f; As *= f;
        }
      }
      if (capture) {
        // What the branch would show now had nothing changed (the last two frames, extrapolated),
        // minus the new motion: the new motion starts from there and keeps its sway.
        const k = 2 * b;
        this.easeOffset[k] = 2 * this.previousA[k] - this.olderA[k] - Ar;
        this.easeOffset[k + 1] = 2 * this.previousA[k + 1] - this.olderA[k + 1] - As;
      }
      if (ease > 0) {
        Ar += this.easeOffset[2 * b] * ease;
        As += this.easeOffset[2 * b + 1] * ease;
      }
      d[o3] = Ar; d[o3 + 1] = As;
      this.olderA[2 * b] = this.previousA[2 * b]; this.olderA[2 * b + 1] = this.previousA[2 * b + 1];
      this.previousA[2 * b] = Ar; this.previousA[2 * b + 1] = As;
      const o4 = o + 16;
      d[o4] = D[k]; d[o4 + 1] = D[k + 1]; d[o4 + 2] = D[k + 2];
      for (let r = 0; r < 3; r++) {
        const t = o5 + 4 * r;
        d[t] = N[j + 3 * r]; d[t + 1] = N[j + 3 * r + 1]; d[t + 2] = N[j + 3 * r + 2];
      }
    }
  }

  private planeOffset(plane: number, a: number, b: number, out: Float32Array, o: number): void {
    const c = Math.cos(this.planeAngle[plane]), s = Math.sin(this.planeAngle[plane]);
    const inv = this.uniforms[10];
    const x = (c * a - s * b) * inv, y = (s * a + c * b) * inv;
    out[o] = x - Math.floor(x);
    out[o + 1] = y - Math.floor(y);
  }

  /**
   * §7.2: "the same measures against periodicity should be taken for the wind vector as in §5.3":
   * each plane's texture is turned so the wind's path through it has a slope far from any rational
   * with a small denominator (a rational slope would close on itself and repeat).
   */
  private choosePlaneAngles(wx: number, wy: number, wz: number): void {
    if (wx === this.planeWindX && wz === this.planeWindZ) return;
    this.planeWindX = wx;
    this.planeWindZ = wz;
    const planes = [[wx, wy], [wx, wz], [wy, wz]];
    for (let p = 0; p < 3; p++) {
      let angle = 0.37 + 0.61 * p;
      const [a, b] = planes[p];
      for (let k = 0; k < 64; k++) {
        const c = Math.cos(angle), s = Math.sin(angle);
        const x = c * a - s * b, y = s * a + c * b;
        if (Math.hypot(x, y) < 1e-9 || (!isNearRational(x / y) && !isNearRational(y / x))) break;
        angle += 0.0731;
      }
      this.planeAngle[p] = angle;
    }
  }

  // ---- per vertex (the GLSL's twin) ------------------------------------------------------------------

  /** Bilinear, wrapped lookup of texel row `tile` of the atlas at (u, v) texture units, 4 channels. */
  private lookup(tile: number, u: number, v: number, out: Float64Array): void {
    const size = this.motionSize, base = tileFloats(size) * tile;
    for (let k = 0; k < 4; k++) out[k] = sampleWrapped(this.motionAtlas, size, 4, base + k, u, v);
  }

  /**
   * The deformation of one vertex in the tree's local space (eqs. 20-23, §7), the same math as
   * spectral-beam.glsl.ts. Inputs are the vertex attributes; writes position xyz, normal xyz
   * (unnormalised, as the shader hands it on) into out.
   */
  deformVertex(
    position: ArrayLike<number>, normal: ArrayLike<number>, branchIndex: number, w: ArrayLike<number>,
    leafFrame: ArrayLike<number>, leafCoord: ArrayLike<number>, out: Float32Array | Float64Array | number[],
  ): void {
    const u = this.uniforms, d = this.branchData;
    let px = position[0], py = position[1], pz = position[2];
    let nx = normal[0], ny = normal[1], nz = normal[2];
    const b = Math.round(branchIndex);
    if (!(b >= 0 && b < this.branchCount)) {
      out[0] = px; out[1] = py; out[2] = pz; out[3] = nx; out[4] = ny; out[5] = nz;
      return;
    }
    // ---- §7 leaves: flutter first, in the leaf's own frame, then every branch's bend -----------
    const leafSize = leafFrame[3];
    if (leafSize > 0 && u[11] > 0.5) {
      // Leafless mode: every leaf collapses to the origin (degenerate triangles draw nothing, in
      // the view and in the shadow map alike).
      out[0] = out[1] = out[2] = 0; out[3] = normal[0]; out[4] = normal[1]; out[5] = normal[2];
      return;
    }
    if (leafSize > 0 && u[9] > 0) {
      const amp = this.leafAmp, smp = this.sample;
      amp[0] = amp[1] = amp[2] = 0;
      const inv = u[10];
      const bx = leafFrame[0], by = leafFrame[1], bz = leafFrame[2]; // b_l: the stipe
      const n0x = normal[0], n0y = normal[1], n0z = normal[2]; // n_l
      // t_l = b_l x n_l: across the leaf (the direction its coordinate across grows).
      const tx = by * n0z - bz * n0y, ty = bz * n0x - bx * n0z, tz = bx * n0y - by * n0x;
      const across = leafCoord[0], along = leafCoord[1];
      // The sample point: LEAF_SAMPLE_SPREAD of the way from the petiole to the vertex.
      const pull = (1 - LEAF_SAMPLE_SPREAD) * leafSize;
      const qx = px - pull * (along * bx + across * tx), qy = py - pull * (along * by + across * ty), qz = pz - pull * (along * bz + across * tz);
      // Projections onto the planes z = 0, y = 0, x = 0, turned and moved by -W t (§7.2, Fig. 10).
      for (let plane = 0; plane < 3; plane++) {
        const a = plane === 2 ? qy : qx, bb = plane === 0 ? qy : qz;
        const c = u[plane < 2 ? 12 + 2 * plane : 16], s = u[plane < 2 ? 13 + 2 * plane : 17];
        const weight = u[18 + plane];
        const off = 24 + 2 * plane;
        this.lookup(LEAF_TILE, (c * a - s * bb) * inv - u[off], (s * a + c * bb) * inv - u[off + 1], smp);
        amp[0] += weight * smp[0]; amp[1] += weight * smp[1]; amp[2] += weight * smp[2];
      }
      // u^l(x) = A^l x (§7.1); eqs. 8-10 turn that linear shear into an exact rotation.
      // Torsion (Fig. 9): frame (t_l, b_l, n_l), x = across; opposite sides move opposite ways.
      let A = MAX_FLUTTER * Math.tanh((u[9] * amp[1]) / MAX_FLUTTER);
      let s = Math.sqrt(1 + A * A);
      let k1 = leafSize * across * (1 / s - 1), k2 = (leafSize * across * A) / s;
      px += k1 * tx + k2 * n0x; py += k1 * ty + k2 * n0y; pz += k1 * tz + k2 * n0z;
      let rn = n0x * nx + n0y * ny + n0z * nz;
      nx -= A * rn * tx; ny -= A * rn * ty; nz -= A * rn * tz; // eq. 23
      // Translational flutter: frame (b_l, n_l, t_l), x = along the stipe.
      A = MAX_FLUTTER * Math.tanh((u[9] * amp[0]) / MAX_FLUTTER);
      s = Math.sqrt(1 + A * A);
      k1 = leafSize * along * (1 / s - 1); k2 = (leafSize * along * A) / s;
      px += k1 * bx + k2 * n0x; py += k1 * by + k2 * n0y; pz += k1 * bz + k2 * n0z;
      rn = n0x * nx + n0y * ny + n0z * nz;
      nx -= A * rn * bx; ny -= A * rn * by; nz -= A * rn * bz;
      // ... and in the leaf's plane (the third channel), frame (b_l, t_l, n_l).
      A = MAX_FLUTTER * Math.tanh((IN_PLANE_FLUTTER * u[9] * amp[2]) / MAX_FLUTTER);
      s = Math.sqrt(1 + A * A);
      k1 = leafSize * along * (1 / s - 1); k2 = (leafSize * along * A) / s;
      px += k1 * bx + k2 * tx; py += k1 * by + k2 * ty; pz += k1 * bz + k2 * tz;
      rn = tx * nx + ty * ny + tz * nz;
      nx -= A * rn * bx; ny -= A * rn * by; nz -= A * rn * bz;
    }
    // ---- §6: hierarchical vertex displacement: the ancestors (composed per branch), then its own bend
    const o = branchTexel(b, 0);
    const tx = d[o], ty = d[o + 1], tz = d[o + 2], L = d[o + 3];
    const rx = d[o + 4], ry = d[o + 5], rz = d[o + 6], c2 = d[o + 7];
    const sx = d[o + 8], sy = d[o + 9], sz = d[o + 10], c4 = d[o + 11];
    const Ar = d[o + 12], As = d[o + 13];
    // eq. 23 through the ancestors: n = N_b n.
    const mx = d[o + 20] * nx + d[o + 21] * ny + d[o + 22] * nz;
    const my = d[o + 24] * nx + d[o + 25] * ny + d[o + 26] * nz;
    const mz = d[o + 28] * nx + d[o + 29] * ny + d[o + 30] * nz;
    nx = mx; ny = my; nz = mz;
    const level = Math.round(d[o + 14]);
    const x = w[level];
    // §4.2 length correction (eq. 21's x_D), taken to the arc-length parameter.
    const y = this.uniforms[2] > 0.5 ? arcLengthPosition(x, Math.sqrt(Ar * Ar + As * As), c2, c4) : x;
    const y2 = y * y;
    const P = y2 * (c2 + c4 * y2); // eq. 7
    const dP = y * (2 * c2 + 4 * c4 * y2);
    // eq. 20: p_D = p_o + Δ_b + L ((x_D - x) t + u_r r + u_s s)
    const ka = L * (y - x), kr = L * Ar * P, ks = L * As * P;
    px += d[o + 16] + ka * tx + kr * rx + ks * sx;
    py += d[o + 17] + ka * ty + kr * ry + ks * sy;
    pz += d[o + 18] + ka * tz + kr * rz + ks * sz;
    // eq. 13 slopes at the corrected x; eq. 23 for the normal.
    const gr = Ar * dP, gs = As * dP;
    const kn = gr * (rx * nx + ry * ny + rz * nz) + gs * (sx * nx + sy * ny + sz * nz);
    nx -= kn * tx; ny -= kn * ty; nz -= kn * tz;
    out[0] = px; out[1] = py; out[2] = pz; out[3] = nx; out[4] = ny; out[5] = nz;
  }

  /** The w-vector of a skeleton node (Habel 2009 §3), as the geometry binds it (tree/geometry.ts). */
  nodeWVector(node: number, out: Float64Array | number[]): void {
    nodeWVector(this.skeleton, node, out);
  }

  /** Deformed tree-local position of branch b's tip node into out[o..o+2]. No allocation. */
  tipPosition(b: number, out: Float32Array | Float64Array, o: number): void {
    const s = this.skeleton;
    const node = s.branchFirstNode[b] + s.branchNodeCount[b] - 1;
    this.nodeWVector(node, this.wScratch);
    const pos = this.posScratch;
    pos[0] = s.nodePosition[3 * node]; pos[1] = s.nodePosition[3 * node + 1]; pos[2] = s.nodePosition[3 * node + 2];
    this.deformVertex(pos, UP, b, this.wScratch, NO_LEAF, NO_COORD, this.outScratch);
    out[o] = this.outScratch[0]; out[o + 1] = this.outScratch[1]; out[o + 2] = this.outScratch[2];
  }

  /** True when the uniforms or the branch data hold NaN or infinity. */
  hasNonFinite(): boolean {
    for (let i = 0; i < UNIFORM_FLOATS; i++) if (!Number.isFinite(this.uniforms[i])) return true;
    const d = this.branchData;
    for (let b = 0; b < this.branchCount; b++) {
      const o = branchTexel(b, 0);
      // c2, c4, A_r, A_s, Δ
      if (!Number.isFinite(d[o + 7] + d[o + 11] + d[o + 12] + d[o + 13] + d[o + 16] + d[o + 17] + d[o + 18])) return true;
    }
    return false;
  }
}

const UP = [0, 1, 0];
const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const NO_LEAF = [0, 0, 0, 0];
const NO_COORD = [0, 0];
