/** Measures on a centre line (a polyline, xyz per node): the nearest point to a point, and how far along it a point is. */

/**
 * Nearest point to p of the polyline through points `first` .. `first + count - 1` of `line`
 * (xyz each; default all): squared distance, the segment (counted from `first`) and the fraction along it.
 */
export function nearestOnLine(line: ArrayLike<number>, px: number, py: number, pz: number, out: { d2: number; seg: number; f: number }, first = 0, count = line.length / 3): void {
  out.d2 = Infinity;
  out.seg = 0;
  out.f = 0;
  for (let j = 3 * first; j < 3 * (first + count - 1); j += 3) {
    const ax = line[j], ay = line[j + 1], az = line[j + 2];
    const ex = line[j + 3] - ax, ey = line[j + 4] - ay, ez = line[j + 5] - az;
    const ll = ex * ex + ey * ey + ez * ez;
    let f = ll > 0 ? ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / ll : 0;
    f = Math.min(1, Math.max(0, f));
    const dx = ax + f * ex - px, dy = ay + f * ey - py, dz = az + f * ez - pz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < out.d2) {
      out.d2 = d2;
      out.seg = j / 3 - first;
      out.f = f;
    }
  }
}

/** Arc-length fraction of the point `f` along segment `seg` of polyline `line`, from its start (or its end when `reversed`). */
export function arcFraction(line: Float64Array, seg: number, f: number, reversed: boolean): number {
  let total = 0, upTo = 0;
  for (let j = 0; j + 5 < line.length; j += 3) {
    const l = Math.hypot(line[j + 3] - line[j], line[j + 4] - line[j + 1], line[j + 5] - line[j + 2]);
    if (j / 3 < seg) upTo += l;
    else if (j / 3 === seg) upTo += f * l;
    total += l;
  }
  const x = total > 0 ? upTo / total : 0;
  return reversed ? 1 - x : x;
}
