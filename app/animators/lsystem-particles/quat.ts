/**
 * Unit quaternions (w, x, y, z) over typed arrays for the particle system's rods (particles.ts,
 * joints.ts). Plain TypeScript, no Babylon; allocation free.
 */

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, sin, cos, atan2 } = Math;

/**
 * q ← Δq q, Δq the rotation by |d| about d (the angle vector of Barron's eq. 2.5). Normalises q.
 */
export function rotateQuat(q: Float64Array, o: number, dx: number, dy: number, dz: number): void {
  const phi = sqrt(dx * dx + dy * dy + dz * dz);
  if (phi < 1e-15) return;
  const half = 0.5 * phi;
  const s = sin(half) / phi;
  const rw = cos(half), rx = dx * s, ry = dy * s, rz = dz * s;
  const qw = q[o], qx = q[o + 1], qy = q[o + 2], qz = q[o + 3];
  let nw = rw * qw - rx * qx - ry * qy - rz * qz;
  let nx = rw * qx + rx * qw + ry * qz - rz * qy;
  let ny = rw * qy - rx * qz + ry * qw + rz * qx;
  let nz = rw * qz + rx * qy - ry * qx + rz * qw;
  const l = 1 / sqrt(nw * nw + nx * nx + ny * ny + nz * nz);
  nw *= l; nx *= l; ny *= l; nz *= l;
  q[o] = nw; q[o + 1] = nx; q[o + 2] = ny; q[o + 3] = nz;
}

/** out.b = q v (quaternion at q[o..o+3] rotating v), written to out.bx, by, bz. */
export function rotateVec(q: Float64Array, o: number, vx: number, vy: number, vz: number, out: { bx: number; by: number; bz: number }): void {
  const w = q[o], x = q[o + 1], y = q[o + 2], z = q[o + 3];
  // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  out.bx = vx + w * tx + (y * tz - z * ty);
  out.by = vy + w * ty + (z * tx - x * tz);
  out.bz = vz + w * tz + (x * ty - y * tx);
}

/** v[o..o+2] ← q⁻¹ v: the vector in the frame q turns the world's axes to. */
export function unrotateVec(q: Float64Array, qo: number, v: Float64Array, o: number): void {
  const w = q[qo], x = -q[qo + 1], y = -q[qo + 2], z = -q[qo + 3];
  const vx = v[o], vy = v[o + 1], vz = v[o + 2];
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  v[o] = vx + w * tx + (y * tz - z * ty);
  v[o + 1] = vy + w * ty + (z * tx - x * tz);
  v[o + 2] = vz + w * tz + (x * ty - y * tx);
}

/** out[oo..] = a[ao..] b[bo..] (b first, then a); out may be a or b. */
export function mulQuat(a: Float64Array, ao: number, b: Float64Array, bo: number, out: Float64Array, oo: number): void {
  const aw = a[ao], ax = a[ao + 1], ay = a[ao + 2], az = a[ao + 3];
  const bw = b[bo], bx = b[bo + 1], by = b[bo + 2], bz = b[bo + 3];
  out[oo] = aw * bw - ax * bx - ay * by - az * bz;
  out[oo + 1] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 2] = aw * by - ax * bz + ay * bw + az * bx;
  out[oo + 3] = aw * bz + ax * by - ay * bx + az * bw;
}

/** out[oo..] = a⁻¹ b (a unit): the turn that follows a to make b. out may be b. */
export function divQuat(a: Float64Array, ao: number, b: Float64Array, bo: number, out: Float64Array, oo: number): void {
  const aw = a[ao], ax = -a[ao + 1], ay = -a[ao + 2], az = -a[ao + 3];
  const bw = b[bo], bx = b[bo + 1], by = b[bo + 2], bz = b[bo + 3];
  out[oo] = aw * bw - ax * bx - ay * by - az * bz;
  out[oo + 1] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 2] = aw * by - ax * bz + ay * bw + az * bx;
  out[oo + 3] = aw * bz + ax * by - ay * bx + az * bw;
}

/** out[oo..] = q^k: the same axis, k times the angle (the shorter way round). */
export function powQuat(q: Float64Array, o: number, k: number, out: Float64Array, oo: number): void {
  let w = q[o], x = q[o + 1], y = q[o + 2], z = q[o + 3];
  if (w < 0) {
    w = -w; x = -x; y = -y; z = -z;
  }
  const s = sqrt(x * x + y * y + z * z);
  if (s < 1e-12) {
    // q ≈ 1 + v: q^k ≈ 1 + k v.
    const l = 1 / sqrt(w * w + k * k * s * s);
    out[oo] = w * l; out[oo + 1] = k * x * l; out[oo + 2] = k * y * l; out[oo + 3] = k * z * l;
    return;
  }
  const half = k * atan2(s, w), f = sin(half) / s;
  out[oo] = cos(half); out[oo + 1] = x * f; out[oo + 2] = y * f; out[oo + 3] = z * f;
}
