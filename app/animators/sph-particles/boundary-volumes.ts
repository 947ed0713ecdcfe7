/**
 * The tree particles' boundary volumes in the SPH wind's sums (Akinci et al. 2012), with their own
 * grid: plain TypeScript over typed arrays, no Babylon.
 */

const { max, min, floor, PI } = Math;

/**
 * Volume of each tree particle in the air's sums for kernel support h: the smaller of its solid
 * volume and its share of its neighbours' kernel, 1 / Σ_k W(x_b - x_k) over the tree's particles
 * (Akinci et al. 2012), into out. Positions xyz; particles with solid volume 0 get 0.
 */
export function boundaryVolumes(position: Float64Array, solidVolume: Float64Array, h: number, out: Float64Array): Float64Array {
  const n = solidVolume.length, poly6 = 315 / (64 * PI * h ** 9), h2 = h * h;
  // The particles with a volume, counting-sorted into cells no smaller than h / 2 (at most about 2 n
  // cells), x fastest: the cells a support reaches along x (five at h / 2, three at h) are one run
  // of the sorted list.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (!(solidVolume[i] > 0)) continue;
    m++;
    for (let a = 0; a < 3; a++) {
      lo[a] = min(lo[a], position[3 * i + a]);
      hi[a] = max(hi[a], position[3 * i + a]);
    }
  }
  if (m === 0) return out.fill(0, 0, n);
  const span = [0, 1, 2].map((a) => hi[a] - lo[a]);
  const size = max(h / 2, Math.cbrt((max(span[0], h) * max(span[1], h) * max(span[2], h)) / (2 * m)));
  const reach = size >= h ? 1 : 2; // cells each way that the support can reach
  const nc = span.map((L) => floor(L / size) + 1);
  const cellOf = new Int32Array(n), start = new Int32Array(nc[0] * nc[1] * nc[2] + 1), sorted = new Int32Array(m);
  const cellAt = (i: number, a: number) => min(nc[a] - 1, floor((position[3 * i + a] - lo[a]) / size));
  for (let i = 0; i < n; i++) {
    if (!(solidVolume[i] > 0)) continue;
    cellOf[i] = cellAt(i, 0) + nc[0] * (cellAt(i, 1) + nc[1] * cellAt(i, 2));
    start[cellOf[i] + 1]++;
  }
  for (let c = 0; c < start.length - 1; c++) start[c + 1] += start[c];
  const next = start.slice(0, start.length - 1);
  for (let i = 0; i < n; i++) if (solidVolume[i] > 0) sorted[next[cellOf[i]]++] = i;
  // Σ_k W(x_b - x_k), each pair once: from the particle earlier in the sorted list to the later
  // ones (each row's run clipped to what follows it), added to both; the particle itself, W(0).
  const sum = new Float64Array(n), self = poly6 * h2 * h2 * h2;
  for (let f = 0; f < m; f++) {
    const i = sorted[f];
    const xi = position[3 * i], yi = position[3 * i + 1], zi = position[3 * i + 2];
    const cx = cellAt(i, 0), cy = cellAt(i, 1), cz = cellAt(i, 2);
    let own = self;
    for (let z = max(0, cz - reach); z <= min(nc[2] - 1, cz + reach); z++) for (let y = max(0, cy - reach); y <= min(nc[1] - 1, cy + reach); y++) {
      const row = nc[0] * (y + nc[1] * z), end = start[row + min(nc[0] - 1, cx + reach) + 1];
      for (let e = max(f + 1, start[row + max(0, cx - reach)]); e < end; e++) {
        const j = sorted[e];
        const dx = position[3 * j] - xi, dy = position[3 * j + 1] - yi, dz = position[3 * j + 2] - zi;
        const r2 = dx * dx + dy * dy + dz * dz;
        if (r2 >= h2) continue;
        const q = h2 - r2, w = poly6 * q * q * q;
        own += w;
        sum[j] += w;
      }
    }
    sum[i] += own;
  }
  for (let i = 0; i < n; i++) out[i] = solidVolume[i] > 0 ? min(solidVolume[i], 1 / sum[i]) : 0;
  return out;
}
