/**
 * The drag of a steady wind as the frame's nodal loads. Per unit length of an element, the drag of
 * a cylinder across the flow (app/wind/drag.ts), ½ ρ C_d (2 r) |u⊥| u⊥, grows linearly with the
 * radius along the element; it goes to the element's two joints as its work-equivalent (consistent)
 * forces and moments for the Hermite cubics. A leaf's drag ½ ρ (C_d A) |u| u acts at its point on the
 * branch's centre line, moved to the nearest skeleton node's joint with the moment that keeps it
 * statically the same.
 *
 * Gravity is left out: the modelled shape is the tree already bent under its own weight, so the
 * deflection is the wind's alone. Plain TypeScript, no Babylon.
 */
import { branchDragPerLength, crossFlowDrag, leafDrag, type DragConstants } from "../../wind/drag";
import type { TreeSkeleton } from "../../tree/skeleton";
import type { BeamFrame } from "./frame";

/**
 * Writes into `load` (6 per joint, zeroed first) the nodal loads of a wind of speed `speed` (m/s)
 * blowing along (dirX, dirY, dirZ) (dirY, an updraft, 0 by default). `scratch` holds 6 numbers.
 */
export function windLoads(frame: BeamFrame, s: TreeSkeleton, m: DragConstants, speed: number, dirX: number, dirZ: number, load: Float64Array, scratch: Float64Array, dirY = 0): void {
  load.fill(0);
  const dl = Math.hypot(dirX, dirY, dirZ);
  if (!(Number.isFinite(speed) && Number.isFinite(dl))) throw new RangeError("wind speed and direction must be finite");
  if (speed === 0) return;
  if (!(dl > 0)) throw new RangeError("the wind's direction (dirX, dirY, dirZ) must not be zero");
  const ux = (speed * dirX) / dl, uy = (speed * dirY) / dl, uz = (speed * dirZ) / dl;
  const ax = frame.axis, ra = frame.radiusA, rb = frame.radiusB;
  for (let j = 1; j < frame.jointCount; j++) {
    if (frame.length[j] === 0) continue;
    const tx = ax[3 * j], ty = ax[3 * j + 1], tz = ax[3 * j + 2];
    crossFlowDrag(branchDragPerLength(m, ra[j]), ux, uy, uz, tx, ty, tz, scratch, 0);
    crossFlowDrag(branchDragPerLength(m, rb[j]), ux, uy, uz, tx, ty, tz, scratch, 3);
    addLinearLoad(frame, j, scratch, load);
  }
  if (!(m.leafDragArea > 0)) return;
  const np = s.nodePosition, nx = s.nodeX, jp = frame.jointPosition;
  for (let i = 0; i < s.leafCount; i++) {
    const b = s.leafBranch[i], x = s.leafX[i];
    const first = s.branchFirstNode[b], last = first + s.branchNodeCount[b] - 1;
    let k = first;
    while (k < last - 1 && nx[k + 1] < x) k++;
    const span = nx[k + 1] - nx[k], f = span > 0 ? Math.min(1, Math.max(0, (x - nx[k]) / span)) : 0;
    const px = np[3 * k] + (np[3 * k + 3] - np[3 * k]) * f;
    const py = np[3 * k + 1] + (np[3 * k + 4] - np[3 * k + 1]) * f;
    const pz = np[3 * k + 2] + (np[3 * k + 5] - np[3 * k + 2]) * f;
    const jn = frame.nodeJoint[f < 0.5 ? k : k + 1], o = 6 * jn;
    leafDrag(m, ux, uy, uz, scratch, 0);
    const Fx = scratch[0], Fy = scratch[1], Fz = scratch[2];
    const dx = px - jp[3 * jn], dy = py - jp[3 * jn + 1], dz = pz - jp[3 * jn + 2];
    load[o] += Fx;
    load[o + 1] += Fy;
    load[o + 2] += Fz;
    load[o + 3] += dy * Fz - dz * Fy;
    load[o + 4] += dz * Fx - dx * Fz;
    load[o + 5] += dx * Fy - dy * Fx;
  }
}

/**
 * Adds to `load` the work-equivalent joint loads of a force per unit length along element j that
 * varies linearly from q[0..2] at its parent joint to q[3..5] at its own (N/m, global axes): the part
 * across the element through the Hermite cubics (forces L (7 q_a + 3 q_b) / 20 and L (3 q_a + 7 q_b) / 20,
 * moments t × L² (q_a / 20 + q_b / 30) and -t × L² (q_a / 30 + q_b / 20)), the part along it through the
 * linear shape functions (L (2 q_a + q_b) / 6, L (q_a + 2 q_b) / 6). Overwrites nothing but `load`.
 */
export function addLinearLoad(frame: BeamFrame, j: number, q: Float64Array, load: Float64Array): void {
  const L = frame.length[j];
  if (L === 0) return;
  const ax = frame.axis, tx = ax[3 * j], ty = ax[3 * j + 1], tz = ax[3 * j + 2];
  const p = 6 * frame.jointParent[j], o = 6 * j;
  const qta = tx * q[0] + ty * q[1] + tz * q[2], qtb = tx * q[3] + ty * q[4] + tz * q[5];
  // Across: q less its part along t.
  const ax0 = q[0] - qta * tx, ay0 = q[1] - qta * ty, az0 = q[2] - qta * tz;
  const bx0 = q[3] - qtb * tx, by0 = q[4] - qtb * ty, bz0 = q[5] - qtb * tz;
  const f = L / 20, fa = (L * (2 * qta + qtb)) / 6, fb = (L * (qta + 2 * qtb)) / 6;
  load[p] += f * (7 * ax0 + 3 * bx0) + fa * tx;
  load[p + 1] += f * (7 * ay0 + 3 * by0) + fa * ty;
  load[p + 2] += f * (7 * az0 + 3 * bz0) + fa * tz;
  load[o] += f * (3 * ax0 + 7 * bx0) + fb * tx;
  load[o + 1] += f * (3 * ay0 + 7 * by0) + fb * ty;
  load[o + 2] += f * (3 * az0 + 7 * bz0) + fb * tz;
  const m1 = (L * L) / 20, m2 = (L * L) / 30;
  let cx = m1 * ax0 + m2 * bx0, cy = m1 * ay0 + m2 * by0, cz = m1 * az0 + m2 * bz0;
  load[p + 3] += ty * cz - tz * cy;
  load[p + 4] += tz * cx - tx * cz;
  load[p + 5] += tx * cy - ty * cx;
  cx = m2 * ax0 + m1 * bx0;
  cy = m2 * ay0 + m1 * by0;
  cz = m2 * az0 + m1 * bz0;
  load[o + 3] -= ty * cz - tz * cy;
  load[o + 4] -= tz * cx - tx * cz;
  load[o + 5] -= tx * cy - ty * cx;
}
