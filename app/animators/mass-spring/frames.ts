/**
 * The segment frames of the mass-spring tree (system.ts): least rotations, and the reaction of the
 * angular springs on the frames they are measured in. Plain TypeScript over typed arrays, no Babylon.
 *
 * Segment s runs from mass parent[s] to mass s; its frame R_s = Rmin(R_p û_s⁰ → û_s) R_p is the
 * parent's carried on by the least rotation that lays it on the segment (system.ts). To first
 * order in the bends, a turn δ_p of the parent's frame and a change dû_s of the segment turn R_s by
 *   δ_s = (δ_p · û_s) û_s + û_s × dû_s,   dû_s = (I - û_s û_sᵀ)(dx_s - dx_p) / L_s:
 * the least rotation takes back the parent's turn across the segment and keeps its twist about it.
 */

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt } = Math;

/** Rmin(a → b), the least rotation taking unit a to unit b (I + [c]× + [c]×² / (1 + a·b), c = a × b), row-major into out. */
export function minimalRotation(ax: number, ay: number, az: number, bx: number, by: number, bz: number, out: Float64Array): void {
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx, d = 1 / (1 + ax * bx + ay * by + az * bz);
  // [c]×² = c cᵀ - |c|² I
  const c2 = cx * cx + cy * cy + cz * cz;
  out[0] = 1 + d * (cx * cx - c2); out[1] = -cz + d * cx * cy; out[2] = cy + d * cx * cz;
  out[3] = cz + d * cy * cx; out[4] = 1 + d * (cy * cy - c2); out[5] = -cx + d * cy * cz;
  out[6] = -cy + d * cz * cx; out[7] = cx + d * cz * cy; out[8] = 1 + d * (cz * cz - c2);
}

/** out[q..] = A[a..] B[b..], 3 × 3 row-major (out must not be A). */
export function mul3(A: Float64Array, a: number, B: Float64Array, b: number, out: Float64Array, q: number): void {
  for (let r = 0; r < 3; r++) {
    const a0 = A[a + 3 * r], a1 = A[a + 3 * r + 1], a2 = A[a + 3 * r + 2];
    out[q + 3 * r] = a0 * B[b] + a1 * B[b + 3] + a2 * B[b + 6];
    out[q + 3 * r + 1] = a0 * B[b + 1] + a1 * B[b + 4] + a2 * B[b + 7];
    out[q + 3 * r + 2] = a0 * B[b + 2] + a1 * B[b + 5] + a2 * B[b + 8];
  }
}

/**
 * The forces that carry the angular springs' pull on their frames down to the masses. `torque`
 * holds, per segment s (3 per mass), G_s = ∂E/∂δ_s, what the springs measured in R_s ask of its
 * turn. From the tips inward (parent[s] < s), by δ_s above: G_s's part across the segment is a
 * pair of forces -(G_s × û_s) / L_s on mass s and its opposite on its parent, and its part along
 * the segment, (G_s · û_s) û_s, joins the parent frame's. Adds the forces to `f` (3 per mass) and
 * leaves `torque` zeroed. Segments from `first` on (the ones below are held: the anchor's, whose
 * frame is the ground's).
 */
export function frameReactions(parent: Int32Array, x: Float64Array, first: number, torque: Float64Array, f: Float64Array): void {
  const T = torque;
  for (let s = parent.length - 1; s >= first; s--) {
    const p = parent[s], o = 3 * s, q = 3 * p;
    const gx = T[o], gy = T[o + 1], gz = T[o + 2];
    if (gx === 0 && gy === 0 && gz === 0) continue;
    T[o] = T[o + 1] = T[o + 2] = 0;
    const ex = x[o] - x[q], ey = x[o + 1] - x[q + 1], ez = x[o + 2] - x[q + 2];
    const l = sqrt(ex * ex + ey * ey + ez * ez), ux = ex / l, uy = ey / l, uz = ez / l;
    const fx = (gy * uz - gz * uy) / l, fy = (gz * ux - gx * uz) / l, fz = (gx * uy - gy * ux) / l;
    f[o] -= fx;
    f[o + 1] -= fy;
    f[o + 2] -= fz;
    f[q] += fx;
    f[q + 1] += fy;
    f[q + 2] += fz;
    const a = gx * ux + gy * uy + gz * uz;
    T[q] += a * ux;
    T[q + 1] += a * uy;
    T[q + 2] += a * uz;
  }
  T.fill(0, 0, 3 * first);
}
