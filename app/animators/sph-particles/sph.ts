/**
 * Akagi and Kitajima §2, "Wind simulations": the wind as SPH particles (eqs. 1-3), with the tree's
 * particles in the same sums (Table 2: every type feels f_wind from every other), so the coupling
 * is two-way. Plain TypeScript over typed arrays, no Babylon.
 *
 * Kernels (Müller, Charypar and Gross 2003, support h = 2 × lattice spacing): poly6 for the density
 * (eq. 1's ρ_i = Σ m_j W), the spiky kernel's gradient for the pressure force (eq. 3) and the
 * viscosity kernel's Laplacian for eq. 2 (the paper prints ∇W there; μ ∇²u needs the Laplacian).
 * The air's particle mass is set so that the lattice's own sum is exactly the rest density.
 *
 * Forces: eq. 3 (the pressure gradient per volume) times the particle's volume m_i / ρ_i gives the
 * pair force -m_i m_j (p_i + p_j) / (2 ρ_i ρ_j) ∇_i W_ij, and eq. 2 likewise
 * μ m_i m_j / (ρ_i ρ_j) (u_j - u_i) ∇²W_ij: both equal and opposite for i and j, so the air and the
 * tree exchange momentum exactly (the force on each tree particle is the sum of its pairs' and each
 * pair's reaction goes to the air particle). Tree-tree pairs are left to the elastic links (Table 2).
 *
 * Equation of state: a linear stiff gas, p = c² (ρ - ρ0), weakly compressible. The paper does not
 * say; air's real c (340 m/s) would need steps of 0.1 ms, so c is the larger of a floor and the
 * fastest wind over a Mach number (default 0.3: density within about 10 % at any wind), and each
 * step takes the substeps the CFL condition asks (dt ≤ 0.25 h / (c + |u|max)). The viscosity is
 * numerical, ν = α c h / 10 (air's own 1.5e-5 m²/s would not damp the particles' noise).
 *
 * A tree particle in a pair with a wind particle mirrors that particle's pressure and density
 * (Akinci et al. 2012; its own density would count its neighbours in the wood and the air at
 * once, an overpressure of order ρ0 c² that crushed the rings). Tree particles take part with
 * their own volume in the air's sums: an air-equivalent mass
 * ρ0 V_b, V_b the smaller of the particle's solid volume and its share of its neighbours' kernel
 * (Akinci et al. 2012's boundary volume 1 / Σ_k W_bk), so a thick trunk blocks the air as a wall
 * and a twig of a few millimetres barely does. What the lattice cannot resolve (a twig much
 * thinner than h, a leaf) is closed with the shared drag law (app/wind/drag.ts): the tree particle
 * takes k |u⊥| u⊥ in the air velocity interpolated at it (Shepard), relative to its own, and the
 * reaction goes to the air particles around it in the interpolation's weights, again momentum
 * conserving. The caller sets k per particle (the unresolved share of its segment's drag).
 *
 * The box: a lattice in an axis-aligned box, periodic on all faces (the neighbour search wraps),
 * so particles leaving downwind come back upwind ("recycled"); a slab at each upwind face is
 * driven, its particles' velocity set to the wind callback (the shared WindField), which wipes
 * out the recycled wake, and every particle takes the callback's change over each step, so the
 * box's air is the shared wind plus the tree's disturbance of it (`follow`). Neighbours by
 * a uniform grid of cells no smaller than h, rebuilt every substep by a counting sort; each pair
 * is searched once a substep (a pair of wind particles by the lower index, a wind particle and a
 * tree particle by the tree particle) and kept for the forces and the drag closure.
 */

const { sqrt, max, min, floor, ceil, PI } = Math;

/** Wind velocity at (x, y, z) and time t into out[o..o+2]: WindField.sample's signature. */
export type WindVelocity = (x: number, y: number, z: number, t: number, out: Float64Array, o: number) => void;

export interface WindBox {
  /** Lower corner, m. */
  readonly min: readonly number[];
  /** Lattice points along x, y, z. */
  readonly cells: readonly number[];
  /** Lattice spacing, m. */
  readonly spacing: number;
}

export interface SphSettings {
  /** ρ0 of the air, kg/m³. */
  restDensity: number;
  /** Lowest sound speed, m/s. */
  soundSpeedMin: number;
  /** Largest Mach number: c ≥ |u|max / mach. */
  mach: number;
  /** α of the numerical viscosity ν = α c h / 10. */
  viscosity: number;
  /** Depth of the driven slab at the upwind faces, in lattice spacings. */
  inflowDepth: number;
  /** Whether the wind callback drives the box (its upwind slab, and its changes everywhere; false: a closed periodic box). */
  drive: boolean;
  /** Most substeps one step may take (more are clamped: `clamped` says so). */
  maxSubsteps: number;
}

export const DEFAULT_SPH: SphSettings = { restDensity: 1.225, soundSpeedMin: 10, mach: 0.3, viscosity: 0.5, inflowDepth: 2, drive: true, maxSubsteps: 400 };

/** The tree's side of the coupling, in the tree's own arrays. */
export interface TreeCoupling {
  readonly count: number;
  readonly position: Float64Array;
  readonly velocity: Float64Array;
  /** Volume in the air's sums, m³ (0: none). */
  readonly sphVolume: Float64Array;
  /** Closure drag k of k |u⊥| u⊥, kg/m (0: none). */
  readonly dragFactor: Float64Array;
  /** Axis the closure drag ignores flow along, xyz (zeros: the whole relative velocity, a leaf). */
  readonly dragAxis: Float64Array;
  /** Written: mean force of the air on each particle over the step, N. */
  readonly force: Float64Array;
  /** Written: mean d|F|/d|u| of the closure drag (2 k |u⊥|), kg/s, for an implicit step. */
  readonly dragDamping: Float64Array;
}

/** A lattice box around bounds, `margin` metres beyond them (not below the ground y = 0), at least 6 spacings each way. */
export function windBoxAround(bounds: { min: readonly number[]; max: readonly number[] }, margin: number, spacing: number): WindBox {
  if (!(spacing >= 0.01 && spacing <= 5)) throw new RangeError(`wind particle spacing must be from 0.01 to 5 m; got ${spacing}`);
  if (!(margin >= 0 && margin <= 100)) throw new RangeError(`wind box margin must be from 0 to 100 m; got ${margin}`);
  const lo: number[] = [], cells: number[] = [];
  for (let a = 0; a < 3; a++) {
    const l = a === 1 && bounds.min[1] >= 0 ? 0 : bounds.min[a] - margin;
    lo.push(l);
    cells.push(max(6, ceil((bounds.max[a] + margin - l) / spacing)));
  }
  return { min: lo, cells, spacing };
}

/** The lattice spacing that puts about `budget` wind particles in a box around bounds. */
export function windSpacingForBudget(bounds: { min: readonly number[]; max: readonly number[] }, margin: number, budget: number): number {
  if (!(budget >= 216)) throw new RangeError(`wind particle budget must be at least 216; got ${budget}`);
  let volume = 1;
  for (let a = 0; a < 3; a++) volume *= bounds.max[a] + margin - (a === 1 && bounds.min[1] >= 0 ? 0 : bounds.min[a] - margin);
  return min(5, max(0.01, Math.cbrt(volume / budget)));
}

export class SphWind {
  /** Number of wind particles. */
  readonly count: number;
  readonly position: Float64Array;
  readonly velocity: Float64Array;
  /** Density and pressure of the wind particles in the last substep. */
  readonly density: Float64Array;
  readonly pressure: Float64Array;
  /** Mass of one wind particle, kg. */
  readonly particleMass: number;
  readonly h: number;
  readonly settings: SphSettings;
  /** Substeps of the last step, the sound speed used, and whether maxSubsteps cut it short. */
  substeps = 0;
  soundSpeed = 0;
  clamped = false;
  private readonly lo: number[];
  private readonly size: number[];
  private readonly nCell: number[];
  private readonly cellSize: number[];
  private readonly cap: number;
  private readonly pos: Float64Array;
  private readonly vel: Float64Array;
  private readonly sphMass: Float64Array;
  private readonly acc: Float64Array;
  private readonly cellOf: Int32Array;
  /** Cell c's wind particles are sorted[cellStart[2c] .. cellStart[2c + 1]), its tree particles on to cellStart[2c + 2]. */
  private readonly cellStart: Int32Array;
  private readonly sorted: Int32Array;
  private readonly cellNext: Int32Array;
  /** Each wind particle's neighbours this substep: (j, dx, dy, dz) from nbrStart[i] on. */
  private nbr: Float64Array;
  private readonly nbrStart: Int32Array;
  private readonly around: Int32Array;
  private readonly inBox: Uint8Array;
  private readonly impulse: Float64Array;
  private readonly damp: Float64Array;
  private readonly u = new Float64Array(3);
  /** Each tree particle's air neighbours this substep: (j, dx, dy, dz) from treeStart[b] on, d = x_j - x_b; found once for the density, the forces and the drag closure. */
  private treeNbr: Float64Array;
  private readonly treeStart: Int32Array;
  /** The wind callback's velocity at every wind particle when last sampled (follow). */
  private readonly sampled: Float64Array;
  /** The upwind faces driven: +1 the low face along an axis, -1 the high one, 0 neither (kept through a calm). */
  private readonly upwind = new Int8Array(3);
  private readonly poly6: number;
  private readonly spiky: number;
  private readonly viscLap: number;

  constructor(readonly box: WindBox, private readonly wind: WindVelocity, settings: Partial<SphSettings> = {}, treeCapacity = 0, startTime = 0) {
    this.settings = { ...DEFAULT_SPH, ...settings };
    checkSph(this.settings);
    const s = box.spacing;
    const n = box.cells[0] * box.cells[1] * box.cells[2];
    if (!(n > 0 && n <= 4e6)) throw new RangeError(`wind particles must be from 1 to 4,000,000; the box asks ${n}`);
    this.count = n;
    this.cap = n + treeCapacity;
    this.h = 2 * s;
    const h = this.h;
    this.poly6 = 315 / (64 * PI * h ** 9);
    this.spiky = 45 / (PI * h ** 6);
    this.viscLap = 45 / (PI * h ** 6);
    this.lo = [...box.min];
    this.size = box.cells.map((c) => c * s);
    this.nCell = this.size.map((L) => max(3, floor(L / h)));
    this.cellSize = this.size.map((L, a) => L / this.nCell[a]);
    const nc = this.nCell[0] * this.nCell[1] * this.nCell[2];
    this.pos = new Float64Array(3 * this.cap);
    this.vel = new Float64Array(3 * this.cap);
    this.sphMass = new Float64Array(this.cap);
    this.density = new Float64Array(this.cap);
    this.pressure = new Float64Array(this.cap);
    this.acc = new Float64Array(3 * n);
    this.cellOf = new Int32Array(this.cap);
    this.cellStart = new Int32Array(2 * nc + 1);
    this.sorted = new Int32Array(this.cap);
    this.cellNext = new Int32Array(2 * nc);
    this.nbr = new Float64Array(4 * 48 * n);
    this.nbrStart = new Int32Array(n + 1);
    this.inBox = new Uint8Array(treeCapacity);
    this.treeNbr = new Float64Array(4 * 32 * max(1, treeCapacity));
    this.treeStart = new Int32Array(treeCapacity + 1);
    this.impulse = new Float64Array(3 * treeCapacity);
    this.damp = new Float64Array(treeCapacity);
    this.around = new Int32Array(27 * nc);
    for (let z = 0; z < this.nCell[2]; z++) for (let y = 0; y < this.nCell[1]; y++) for (let x = 0; x < this.nCell[0]; x++) {
      const c = this.cellIndex(x, y, z);
      let k = 0;
      for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) this.around[27 * c + k++] = this.cellIndex(x + dx, y + dy, z + dz);
    }
    // Mass: the lattice's own kernel sum is the rest density.
    let sum = 0;
    for (let a = -2; a <= 2; a++) for (let b = -2; b <= 2; b++) for (let c = -2; c <= 2; c++) {
      const r2 = (a * a + b * b + c * c) * s * s;
      if (r2 < h * h) sum += this.poly6 * (h * h - r2) ** 3;
    }
    this.particleMass = this.settings.restDensity / sum;
    this.position = new Float64Array(3 * n);
    this.velocity = new Float64Array(3 * n);
    this.sampled = new Float64Array(3 * n);
    this.reset(startTime);
  }

  /** Puts the wind particles back on the lattice, moving with the wind at `time`. */
  reset(time = 0): void {
    const [nx, ny] = this.box.cells, s = this.box.spacing;
    for (let i = 0; i < this.count; i++) {
      const x = i % nx, y = floor(i / nx) % ny, z = floor(i / (nx * ny));
      this.position[3 * i] = this.lo[0] + (x + 0.5) * s;
      this.position[3 * i + 1] = this.lo[1] + (y + 0.5) * s;
      this.position[3 * i + 2] = this.lo[2] + (z + 0.5) * s;
      this.wind(this.position[3 * i], this.position[3 * i + 1], this.position[3 * i + 2], time, this.velocity, 3 * i);
    }
    this.sampled.set(this.velocity);
  }

  private cellIndex(x: number, y: number, z: number): number {
    const [nx, ny, nz] = this.nCell;
    x = ((x % nx) + nx) % nx;
    y = ((y % ny) + ny) % ny;
    z = ((z % nz) + nz) % nz;
    return x + nx * (y + ny * z);
  }

  /**
   * Advances the wind by dt from time t, in as many substeps as the CFL condition asks. The tree's
   * particles (held where they are over the step) take part in the sums; their force is written.
   */
  step(dt: number, t: number, tree?: TreeCoupling): void {
    if (!(dt > 0 && dt <= 0.1)) throw new RangeError(`SPH time step must be in (0, 0.1] s; got ${dt}`);
    const n = this.count, st = this.settings, v = this.velocity;
    const nt = tree ? tree.count : 0;
    if (nt > this.cap - n) throw new RangeError(`the tree has ${nt} particles; this wind was made for at most ${this.cap - n}`);
    this.wind(this.lo[0] + 0.5 * this.size[0], this.lo[1] + 0.5 * this.size[1], this.lo[2] + 0.5 * this.size[2], t, this.u, 0);
    let umax = sqrt(this.u[0] ** 2 + this.u[1] ** 2 + this.u[2] ** 2);
    for (let i = 0; i < n; i++) umax = max(umax, sqrt(v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2));
    const c = max(st.soundSpeedMin, umax / st.mach);
    const nu = (st.viscosity * c * this.h) / 10;
    const sub = min(0.25 * this.h / (c + umax), (0.125 * this.h * this.h) / nu);
    let steps = ceil(dt / sub - 1e-9);
    this.clamped = steps > st.maxSubsteps;
    steps = min(steps, st.maxSubsteps);
    this.substeps = steps;
    this.soundSpeed = c;
    const ds = dt / steps;
    if (st.drive) this.follow(t);
    // The tree's particles: air-equivalent mass, position and velocity in the shared arrays.
    this.impulse.fill(0, 0, 3 * nt);
    this.damp.fill(0, 0, nt);
    for (let b = 0; b < nt; b++) {
      const p = n + b;
      let inside = 1;
      for (let a = 0; a < 3; a++) {
        const x = tree!.position[3 * b + a];
        this.pos[3 * p + a] = x;
        this.vel[3 * p + a] = tree!.velocity[3 * b + a];
        if (!(x >= this.lo[a] && x < this.lo[a] + this.size[a])) inside = 0;
      }
      this.inBox[b] = inside;
      this.sphMass[p] = st.restDensity * tree!.sphVolume[b];
    }
    for (let k = 0; k < steps; k++) this.substep(ds, t + k * ds, c * c, nu * st.restDensity, nt, tree);
    if (tree) for (let b = 0; b < nt; b++) {
      for (let a = 0; a < 3; a++) tree.force[3 * b + a] = this.impulse[3 * b + a] / dt;
      tree.dragDamping[b] = this.damp[b] / dt;
    }
  }

  private substep(ds: number, t: number, c2: number, mu: number, nt: number, tree: TreeCoupling | undefined): void {
    const n = this.count, pos = this.pos, vel = this.vel, mass = this.sphMass, rho = this.density, p = this.pressure;
    const m0 = this.particleMass, rho0 = this.settings.restDensity;
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < 3; a++) {
        pos[3 * i + a] = this.position[3 * i + a];
        vel[3 * i + a] = this.velocity[3 * i + a];
      }
      mass[i] = m0;
    }
    this.grid(nt);
    const h2 = this.h * this.h, h = this.h, [Lx, Ly, Lz] = this.size;
    const cellOf = this.cellOf, cellStart = this.cellStart, sorted = this.sorted, around = this.around;
    // Eq. 1's density of every wind particle. Each pair of wind particles is measured once, by the
    // lower index (both densities take it, and eqs. 2-3 below give the pair's force and its
    // reaction); each pair of a wind and a tree particle once, by the tree particle (its air
    // neighbours serve the forces and the drag closure too). The pairs are kept for the forces.
    let list = this.nbr, count = 0;
    const start = this.nbrStart, h6 = h2 * h2 * h2;
    for (let i = 0; i < n; i++) rho[i] = mass[i] * h6; // its own term (r = 0)
    for (let i = 0; i < n; i++) {
      const ci = cellOf[i], mi = mass[i];
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      let sum = 0;
      start[i] = count;
      for (let k = 0; k < 27; k++) {
        const cj = around[27 * ci + k];
        for (let e = cellStart[2 * cj], end = cellStart[2 * cj + 1]; e < end; e++) {
          const j = sorted[e];
          if (j <= i) continue; // the pair is the lower index's (or i itself)
          const dx = wrap(pos[3 * j] - xi, Lx), dy = wrap(pos[3 * j + 1] - yi, Ly), dz = wrap(pos[3 * j + 2] - zi, Lz);
          const r2 = dx * dx + dy * dy + dz * dz;
          if (r2 >= h2) continue;
          const q = h2 - r2, q3 = q * q * q;
          sum += mass[j] * q3;
          rho[j] += mi * q3;
          if (r2 < 1e-18) continue;
          if (4 * count + 4 > list.length) list = this.growNeighbours(4 * count);
          list[4 * count] = j; list[4 * count + 1] = dx; list[4 * count + 2] = dy; list[4 * count + 3] = dz;
          count++;
        }
      }
      rho[i] += sum;
    }
    start[n] = count;
    let tlist = this.treeNbr, tcount = 0;
    const tstart = this.treeStart;
    for (let b = 0; b < nt; b++) {
      tstart[b] = tcount;
      if (!this.inBox[b]) continue;
      const i = n + b, ci = cellOf[i], mb = mass[i];
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      for (let k = 0; k < 27; k++) {
        const cj = around[27 * ci + k];
        for (let e = cellStart[2 * cj], end = cellStart[2 * cj + 1]; e < end; e++) {
          const j = sorted[e];
          const dx = wrap(pos[3 * j] - xi, Lx), dy = wrap(pos[3 * j + 1] - yi, Ly), dz = wrap(pos[3 * j + 2] - zi, Lz);
          const r2 = dx * dx + dy * dy + dz * dz;
          if (r2 >= h2) continue;
          const q = h2 - r2;
          rho[j] += mb * q * q * q;
          if (4 * tcount + 4 > tlist.length) tlist = this.growTreeNeighbours(4 * tcount);
          tlist[4 * tcount] = j; tlist[4 * tcount + 1] = dx; tlist[4 * tcount + 2] = dy; tlist[4 * tcount + 3] = dz;
          tcount++;
        }
      }
    }
    tstart[nt] = tcount;
    for (let i = 0; i < n; i++) {
      rho[i] = max(1e-6, rho[i] * this.poly6);
      p[i] = c2 * (rho[i] - rho0);
    }
    // Eqs. 2 and 3 on every pair of wind particles: the force on the lower index, the reaction on the other.
    const acc = this.acc, imp = this.impulse, spiky = this.spiky, lap = this.viscLap;
    acc.fill(0, 0, 3 * n);
    for (let i = 0; i < n; i++) {
      const ux = vel[3 * i], uy = vel[3 * i + 1], uz = vel[3 * i + 2];
      const mi = mass[i], ri = rho[i], pi = p[i];
      let fx = 0, fy = 0, fz = 0;
      for (let e = start[i]; e < start[i + 1]; e++) {
        const j = list[4 * e], dx = list[4 * e + 1], dy = list[4 * e + 2], dz = list[4 * e + 3];
        const r = sqrt(dx * dx + dy * dy + dz * dz), w = h - r;
        const mm = (mi * mass[j]) / (ri * rho[j]);
        const kp = (0.5 * mm * (pi + p[j]) * spiky * w * w) / r; // eq. 3: F_i = -kp (x_j - x_i)
        const kv = mu * mm * lap * w; // eq. 2: F_i = kv (u_j - u_i)
        const gx = -kp * dx + kv * (vel[3 * j] - ux), gy = -kp * dy + kv * (vel[3 * j + 1] - uy), gz = -kp * dz + kv * (vel[3 * j + 2] - uz);
        fx += gx; fy += gy; fz += gz;
        acc[3 * j] -= gx; acc[3 * j + 1] -= gy; acc[3 * j + 2] -= gz;
      }
      acc[3 * i] += fx; acc[3 * i + 1] += fy; acc[3 * i + 2] += fz;
    }
    // The same on every pair of a wind particle j and a tree particle b, which mirrors j's pressure
    // and density (Akinci et al. 2012); the reaction goes to the tree. Here d = x_j - x_b.
    for (let b = 0; b < nt; b++) {
      const i = n + b, vx = vel[3 * i], vy = vel[3 * i + 1], vz = vel[3 * i + 2], mb = mass[i];
      let ix = 0, iy = 0, iz = 0;
      for (let e = tstart[b]; e < tstart[b + 1]; e++) {
        const j = tlist[4 * e], dx = tlist[4 * e + 1], dy = tlist[4 * e + 2], dz = tlist[4 * e + 3];
        const r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < 1e-18) continue;
        const r = sqrt(r2), w = h - r, rj = rho[j];
        const mm = (mass[j] * mb) / (rj * rj);
        const kp = (mm * p[j] * spiky * w * w) / r; // eq. 3 on j: F_j = -kp (x_b - x_j) = kp d
        const kv = mu * mm * lap * w; // eq. 2 on j: F_j = kv (u_b - u_j)
        const gx = kp * dx + kv * (vx - vel[3 * j]), gy = kp * dy + kv * (vy - vel[3 * j + 1]), gz = kp * dz + kv * (vz - vel[3 * j + 2]);
        acc[3 * j] += gx; acc[3 * j + 1] += gy; acc[3 * j + 2] += gz;
        ix += gx; iy += gy; iz += gz;
      }
      imp[3 * b] -= ix * ds; imp[3 * b + 1] -= iy * ds; imp[3 * b + 2] -= iz * ds;
    }
    if (tree) this.closure(ds, t, nt, tree);
    // Symplectic Euler, wrap into the box, then the driven slab takes the wind.
    const v = this.velocity, x = this.position, lo = this.lo, size = this.size;
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) {
      const o = 3 * i + a;
      v[o] += (ds * acc[o]) / m0;
      let y = x[o] + ds * v[o] - lo[a];
      y -= size[a] * floor(y / size[a]);
      x[o] = lo[a] + (y < size[a] ? y : 0);
    }
    if (this.settings.drive) this.drive(t + ds);
  }

  /** The drag law for what the lattice does not resolve: on the tree particle, and back onto the air around it. */
  private closure(ds: number, t: number, nt: number, tree: TreeCoupling): void {
    const n = this.count, pos = this.pos, vel = this.vel, mass = this.sphMass, rho = this.density, acc = this.acc;
    const h2 = this.h * this.h, u = this.u;
    for (let b = 0; b < nt; b++) {
      const k = tree.dragFactor[b];
      if (!(k > 0)) continue;
      const i = n + b;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      let ws = 0;
      u[0] = u[1] = u[2] = 0;
      const e0 = this.treeStart[b], e1 = this.treeStart[b + 1], tlist = this.treeNbr;
      for (let e = e0; e < e1; e++) {
        const j = tlist[4 * e], dx = tlist[4 * e + 1], dy = tlist[4 * e + 2], dz = tlist[4 * e + 3];
        const q = h2 - (dx * dx + dy * dy + dz * dz), w = ((mass[j] / rho[j]) * q * q) * q;
        ws += w;
        u[0] += w * vel[3 * j]; u[1] += w * vel[3 * j + 1]; u[2] += w * vel[3 * j + 2];
      }
      if (ws > 0) {
        u[0] /= ws; u[1] /= ws; u[2] /= ws;
      } else this.wind(xi, yi, zi, t, u, 0);
      let rx = u[0] - vel[3 * i], ry = u[1] - vel[3 * i + 1], rz = u[2] - vel[3 * i + 2];
      const ax = tree.dragAxis[3 * b], ay = tree.dragAxis[3 * b + 1], az = tree.dragAxis[3 * b + 2];
      const a2 = ax * ax + ay * ay + az * az;
      if (a2 > 0) {
        const along = (rx * ax + ry * ay + rz * az) / a2;
        rx -= along * ax; ry -= along * ay; rz -= along * az;
      }
      const speed = sqrt(rx * rx + ry * ry + rz * rz), s = k * speed;
      const Fx = s * rx, Fy = s * ry, Fz = s * rz;
      this.impulse[3 * b] += Fx * ds; this.impulse[3 * b + 1] += Fy * ds; this.impulse[3 * b + 2] += Fz * ds;
      this.damp[b] += 2 * s * ds;
      if (!(ws > 0)) continue;
      // The reaction onto the same air neighbours, by the same weights.
      for (let e = e0; e < e1; e++) {
        const j = tlist[4 * e], dx = tlist[4 * e + 1], dy = tlist[4 * e + 2], dz = tlist[4 * e + 3];
        const q = h2 - (dx * dx + dy * dy + dz * dz), f = (((mass[j] / rho[j]) * q * q) * q) / ws;
        acc[3 * j] -= f * Fx; acc[3 * j + 1] -= f * Fy; acc[3 * j + 2] -= f * Fz;
      }
    }
  }

  /** Room for more tree-air pairs (rare: a crowded box), keeping the first `used` entries. */
  private growTreeNeighbours(used: number): Float64Array {
    const next = new Float64Array(2 * this.treeNbr.length);
    next.set(this.treeNbr.subarray(0, used));
    this.treeNbr = next;
    return next;
  }

  /**
   * The shared wind's change since the last step, added to every wind particle: the box resolves
   * the tree's disturbance of the wind (its wake, the air it slows), and the wind's own changes (a
   * gust, a lull, the wind dropping) reach every particle at once, as every other method feels
   * them, not only through the upwind slab (a stopped wind left the box's air blowing for seconds).
   * One sample per particle a step, at its position: U(x(t), t) - U(x(t - dt), t - dt).
   */
  private follow(t: number): void {
    const x = this.position, v = this.velocity, u = this.sampled;
    for (let i = 0; i < this.count; i++) {
      const o = 3 * i, ux = u[o], uy = u[o + 1], uz = u[o + 2];
      this.wind(x[o], x[o + 1], x[o + 2], t, u, o);
      v[o] += u[o] - ux; v[o + 1] += u[o + 1] - uy; v[o + 2] += u[o + 2] - uz;
    }
  }

  /**
   * The wind callback's velocity on the particles in the slab at each upwind face. In a calm the
   * faces the wind last came in through stay driven (by the calm): still air comes in there and
   * the box's air comes to rest, as it does when the wind drops (undriven, the periodic box kept
   * blowing at the last wind's speed).
   */
  private drive(t: number): void {
    const lo = this.lo, size = this.size, depth = this.settings.inflowDepth * this.box.spacing, x = this.position, v = this.velocity, u = this.u;
    this.wind(lo[0] + 0.5 * size[0], lo[1] + 0.5 * size[1], lo[2] + 0.5 * size[2], t, u, 0);
    const speed = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]), face = this.upwind;
    if (speed > 0) for (let a = 0; a < 3; a++) face[a] = u[a] > 0.2 * speed ? 1 : u[a] < -0.2 * speed ? -1 : 0;
    if (face[0] === 0 && face[1] === 0 && face[2] === 0) return;
    for (let i = 0; i < this.count; i++) {
      let driven = false;
      for (let a = 0; a < 3 && !driven; a++) {
        const d = x[3 * i + a] - lo[a];
        driven = (face[a] > 0 && d < depth) || (face[a] < 0 && d > size[a] - depth);
      }
      if (driven) this.wind(x[3 * i], x[3 * i + 1], x[3 * i + 2], t, v, 3 * i);
    }
  }

  /** Room for more neighbours (rare: a crowded box), keeping the first `used` entries. */
  private growNeighbours(used: number): Float64Array {
    const next = new Float64Array(2 * this.nbr.length);
    next.set(this.nbr.subarray(0, used));
    this.nbr = next;
    return next;
  }

  /**
   * Counting sort of the wind particles and the tree particles inside the box into the cells, each
   * cell's wind particles before its tree particles (the drag closure scans the air alone). Returns
   * how many were sorted.
   */
  private grid(nt: number): number {
    const n = this.count, [nx, ny, nz] = this.nCell, [cx, cy, cz] = this.cellSize, lo = this.lo, pos = this.pos;
    const start = this.cellStart, cellOf = this.cellOf, sorted = this.sorted;
    start.fill(0);
    for (let i = 0; i < n + nt; i++) {
      if (i >= n && !this.inBox[i - n]) {
        cellOf[i] = -1;
        continue;
      }
      const x = min(nx - 1, floor((pos[3 * i] - lo[0]) / cx)), y = min(ny - 1, floor((pos[3 * i + 1] - lo[1]) / cy)), z = min(nz - 1, floor((pos[3 * i + 2] - lo[2]) / cz));
      const c = max(0, x) + nx * (max(0, y) + ny * max(0, z));
      cellOf[i] = c;
      start[2 * c + (i < n ? 1 : 2)]++;
    }
    const fill = this.cellStart.length - 1, next = this.cellNext;
    for (let k = 0; k < fill; k++) start[k + 1] += start[k];
    next.set(start.subarray(0, fill));
    for (let i = 0; i < n + nt; i++) {
      const c = cellOf[i];
      if (c >= 0) sorted[next[2 * c + (i < n ? 0 : 1)]++] = i;
    }
    return start[fill];
  }

  /** Total momentum of the wind particles, kg m/s, into out. */
  momentum(out: Float64Array): Float64Array {
    out.fill(0);
    for (let i = 0; i < this.count; i++) for (let a = 0; a < 3; a++) out[a] += this.particleMass * this.velocity[3 * i + a];
    return out;
  }
}

/** Minimum image of a difference in a periodic box of length L. */
function wrap(d: number, L: number): number {
  return d > 0.5 * L ? d - L : d < -0.5 * L ? d + L : d;
}

function checkSph(s: SphSettings): void {
  if (!(s.restDensity > 0 && s.restDensity <= 2000)) throw new RangeError(`restDensity must be in (0, 2000] kg/m³; got ${s.restDensity}`);
  if (!(s.soundSpeedMin >= 1 && s.soundSpeedMin <= 1000)) throw new RangeError(`soundSpeedMin must be from 1 to 1000 m/s; got ${s.soundSpeedMin}`);
  if (!(s.mach > 0 && s.mach <= 1)) throw new RangeError(`mach must be in (0, 1]; got ${s.mach}`);
  if (!(s.viscosity >= 0 && s.viscosity <= 10)) throw new RangeError(`viscosity α must be from 0 to 10; got ${s.viscosity}`);
  if (!(s.inflowDepth >= 0 && s.inflowDepth <= 10)) throw new RangeError(`inflowDepth must be from 0 to 10 spacings; got ${s.inflowDepth}`);
  if (!(Number.isInteger(s.maxSubsteps) && s.maxSubsteps >= 1 && s.maxSubsteps <= 10000)) throw new RangeError(`maxSubsteps must be an integer from 1 to 10000; got ${s.maxSubsteps}`);
}
