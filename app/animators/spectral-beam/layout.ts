/**
 * What the spectral-beam twin (twin.ts) and its vertex shader (spectral-beam.glsl.ts) agree on:
 * the layout of the per-branch data texture (Table 2), of the motion atlas (§5.4, §7.2) and of the
 * uniforms; and the model's constants (drag, saturation, leaf sampling, per-level sway, easing).
 */

// ---- branch data texture (Table 2, per branch) --------------------------------------------------
/** Texels (RGBA32F) per branch:
 *  0: t.xyz, L      1: r.xyz, c2      2: s.xyz, c4    (§4.3; the frame as turned by the ancestors' bends, R_b;
 *     c2, c4 of eq. 7 scaled to c2 + c4 = 1, so u(1) = A: the amplitude is the tip's deflection over L)
 *  3: A_r, A_s of this frame (§5.4 lookup + eqs. 18, 19), own level (0..3), highlight (0 or 1)
 *  4: T_b.xyz, A_max    5, 6, 7: R_b, one row each: the ancestors' rigid motion of the branch,
 *     p -> R_b p + T_b (its attachment point moved by eq. 20 at x = w_i from the trunk down, the
 *     branch turned there by each ancestor's slope, compose.ts); w: motion texture slot,
 *     trajectory start x, y
 *  8: m.xy (§5.4: the branch's motion vector), f_h (Hz), 1 / stiffness (the parameter times the branch's own)
 * (the branch's response to the wind, its own tip deflection per (m/s)², is the twin's meanTip and
 * turbulentTip, read by compose.ts on the CPU)
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
/** The tile of the atlas that holds a slot, and the channel of its first field (A_r; A_s the next). */
export function slotTile(slot: number): number {
  return slot >> 1;
}
export function slotChannel(slot: number): number {
  return 2 * (slot & 1);
}
export const MOTION_TILES = LEAF_TILE + 1;

// ---- uniforms ---------------------------------------------------------------------------------------
/** Eight vec4 uniforms, sbU0..sbU7 in the GLSL. */
export const UNIFORM_VEC4S = 8;
/** u0: time (s), texture size, length correction (0/1), selected branch (-1 for none)
 *  u1: direction xyz (unit) of the 3D mean wind M = v d + V up (the WindField's strength v along
 *      its direction d, its vertical V), mean force |M|^2 (m^2/s^2, §5.5): eqs. 18, 19 project the
 *      mean drag |M| M onto each branch's carried r and s (compose.ts)
 *  u2: turbulent force 2 v σ_u, leaf flutter amplitude, 1 / metres per leaf-texture unit, leafless (0/1)
 *  u3: xy plane rotation (cos, sin), xz plane rotation (cos, sin)
 *  u4: yz plane rotation (cos, sin), eq. 24 weights of the xy and xz planes
 *  u5: eq. 24 weight of the yz plane, 0, 0, 0
 *  u6: leaf texture offsets -W t of the xy and xz planes (texture units, wrapped)
 *  u7: the yz plane's offset, 0, 0 */
export const UNIFORM_FLOATS = 4 * UNIFORM_VEC4S;

// ---- physical constants ---------------------------------------------------------------------------
/** Paper-literal only: ½ ρ_air C_d (kg/m^3), drag per unit frontal area and (m/s)^2 (by default the
 *  tree's material through app/wind/drag.ts). */
export const DRAG_COEFFICIENT = 0.5 * 1.2 * 0.5;
/** Paper-literal only: share of a leaf card's square that is leaf (the drag area of a leaf). */
export const LEAF_FILL = 0.5;
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
 * Paper-literal only (by default the tree's material sets the deflection, wind-load.ts).
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
export const EASE_TAU = 0.3;
/** How long an ease lasts (s): e^-8 of the offset is left, and then nothing. */
export const EASE_SPAN = 8 * EASE_TAU;
/** The textures are reshaped for a new mean speed once it has moved by this share (of at least 1 m/s)... */
export const RESHAPE_SHARE = 0.05;
/** ...and this long (s) after the last reshaping: the ease of one has faded (e^-4) before the next. */
export const RESHAPE_EVERY = 4 * EASE_TAU;
/** Texel work (size^2 units) per update for regenerating textures: all six at 256 x 256. */
export const TEXTURE_WORK_PER_UPDATE = 6 * 256 * 256;
