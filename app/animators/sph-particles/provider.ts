/**
 * The sph-particles method (Akagi and Kitajima, "A Study on the Animations of Swaying and Breaking
 * Trees based on a Particle-based Simulation") behind the Animator contract. A thin adapter over
 * the plain-TypeScript core (simulation.ts: the particle tree of §2, the SPH wind of eqs. 1-3 driven
 * by the shared WindField, elasticity eqs. 4-8, breaking eqs. 9-10), stepped on the CPU at the
 * host's fixed step and time:
 * - the tree's own bark, leaves and skeleton lines (a model's too) are updatable copies skinned to
 *   the tree particles (skin.ts) and shown in the parts' place (TreeInstance.substitute) with the
 *   sandbox's materials, so render modes, the bark texture, shadows and picking work as for every
 *   method; a broken piece takes its bark and leaves with it to the ground;
 * - a big tree gets a coarser bone spacing and grouped leaves under the particle budget
 *   (sizing.ts, leaf-groups.ts), and the wind a lattice sized by its own budget, so the default
 *   tree stays interactive;
 * - a branch that breaks gets §3's broken ends (fracture.ts, fracture-meshes.ts), made once when
 *   it breaks and riding on the stump and on the piece;
 * - displays (parameters, as mass-spring's overlays): the tree particles by type (Fig. 5) and the
 *   wind particles by speed (Fig. 6); a "Restore tree" command puts every link back.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { Scene } from "@babylonjs/core/scene";
import type { Animator, AnimatorAction, AnimatorActions, AnimatorContext, AnimatorProvider, AnimatorStats, TreePart } from "../animator";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import { tipNode } from "../../tree/skeleton";
import { defaultMaterial, ruptureStrainOf } from "../../physics/material";
import { dampingRatio } from "../../physics/damping";
import { defaultsOf, validatePatch } from "../../math/params";
import { liveMesh } from "../live-mesh";
import { SphTreeSimulation } from "./simulation";
import type { WindVelocity } from "./sph";
import { groupLeaves, type LeafGroups } from "./leaf-groups";
import { deepestLevel, reduceLevels, type ReducedTree } from "./reduce";
import { firstModeOmega, leafBudget, spacingFor, stiffnessDampingFor } from "./sizing";
import { LeafRide, ParticleSkin, wholeTriangles, type SkinBinding } from "./skin";
import { TreeParticlesDisplay, WindParticlesDisplay } from "./displays";
import { FractureMeshes } from "./fracture-meshes";
import { sphParticlesParams, type SphParticlesParams } from "./params";

export type { SphParticlesParams } from "./params";

/** Parameters that rebuild the particle tree (the motion restarts from rest; the wind runs on). */
const REBUILD: readonly (keyof SphParticlesParams)[] = ["spacing", "treeBudget", "windBudget", "woodStrength", "levelScale", "leafHold"];
/** Air beyond the tree's bounds on every side, m. */
const MARGIN = 1;
/**
 * Seconds over which the wind this method feels comes up from still air after a (re)start or a
 * restore: the whole box set moving at once loads the tree as a step, twice its steady bend, and
 * broke twigs in a breeze.
 */
export const START_RAMP = 1;
/** Seeds the leaves' tumbling rates: a rebuild with the same parameters tumbles the same. */
const RNG_LABEL = 0x5b4;
/** Seeds the broken ends' fibres (each link's own stream). */
const FRACTURE_LABEL = 0xf7a;

/** A tree part's copy whose positions and normals are rewritten from the particles. */
interface LiveMesh {
  readonly role: TreePart["role"];
  readonly mesh: Mesh;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  /** Writes positions and normals from the skin's last update. */
  readonly fill: () => void;
  written: number;
  /** A part skinned to the nodes: its triangles, and those left after a break (see wholeTriangles). */
  readonly cut: { bind: SkinBinding; indices: Uint32Array; kept: Uint32Array; vertexPiece: Int32Array; forBroken: number } | null;
}

export class SphParticlesAnimator implements Animator<SphParticlesParams> {
  simulation!: SphTreeSimulation;
  skin!: ParticleSkin;
  groups!: LeafGroups;
  /** §3's broken ends, made when a branch breaks. */
  fractures: FractureMeshes | null = null;
  readonly actions: AnimatorActions;
  private params: SphParticlesParams;
  private live: LiveMesh[] = [];
  private bark: Mesh | null = null;
  private treeDisplay: TreeParticlesDisplay | null = null;
  private windDisplay: WindParticlesDisplay | null = null;
  private readonly tips: Float32Array;
  private readonly omega1: number;
  /** The shared WindField as the SPH core samples it (its inflow face). */
  private readonly wind: WindVelocity;
  private sized = { spacing: 0, fits: true };
  private reduced!: ReducedTree;
  /** Clock time the wind's start-up ramp began. */
  private rampFrom = 0;
  private frame = 0;
  private displayedFor = -1;
  private fallenFor = -1;
  private notesFor = "";
  private readonly renderObserver: Observer<Scene>;
  /** updateMs stays 0: the host times every method's update (stats().animatorMs). */
  private readonly stat: AnimatorStats = { updateMs: 0, counts: {}, nonFinite: false, notes: [] };

  constructor(private readonly ctx: AnimatorContext, params: SphParticlesParams) {
    this.params = { ...defaultsOf(sphParticlesParams), ...validatePatch("sph-particles", sphParticlesParams, params) };
    const s = ctx.tree.skeleton;
    this.tips = new Float32Array(3 * s.branchCount);
    this.omega1 = firstModeOmega(s, ctx.material ?? defaultMaterial());
    const field = ctx.wind;
    this.wind = (x, y, z, t, out, o) => {
      field.sample(x, y, z, t, out, o);
      const r = (t - this.rampFrom) / START_RAMP;
      if (r < 1) {
        const k = r > 0 ? r : 0;
        out[o] *= k; out[o + 1] *= k; out[o + 2] *= k;
      }
    };
    this.build();
    this.actions = {
      list: () => this.actionList(),
      run: (id) => this.runAction(id),
      progress: () => null,
    };
    // Skins and displays are written once per drawn frame, just before it is drawn, for what is on show.
    this.renderObserver = ctx.scene.onBeforeRenderObservable.add(() => this.writeMeshes());
  }

  /** The particle tree, the wind, the skin and the meshes for the parameters now, at the clock's time. */
  private build(): void {
    const { tree, clock, material } = this.ctx;
    const p = this.params, s = tree.skeleton;
    // Under the budget: the finest levels left out first (they ride on their parents), then grouped leaves and a coarser spacing.
    let reduced = reduceLevels(s, deepestLevel(s)), sized = { spacing: p.spacing, particles: 0, fits: false };
    for (let level = reduced.maxLevel; level >= 0; level--) {
      reduced = reduceLevels(s, level);
      this.groups = groupLeaves(reduced.skeleton, leafBudget(p.treeBudget));
      sized = spacingFor(this.groups.skeleton, p.treeBudget, p.spacing);
      if (sized.fits) break;
    }
    this.sized = sized;
    this.reduced = reduced;
    this.rampFrom = clock.time;
    const wood = material ?? defaultMaterial();
    this.simulation = new SphTreeSimulation(this.groups.skeleton, this.wind, this.ctx.rng.fork(RNG_LABEL), {
      tree: {
        spacing: sized.spacing, material: wood, ruptureStrain: ruptureStrainOf(wood) * p.woodStrength, levelScale: p.levelScale,
        leafHold: p.leafHold, leafWeight: this.groups.perGroup > 1 ? this.groups.weight : null,
      },
      windBudget: p.windBudget, margin: MARGIN, sph: { mach: p.mach },
      elastic: { stiffnessDamping: stiffnessDampingFor(dampingRatio(p.damping), this.omega1) },
      gravity: 9.81 * p.gravity, weighStanding: false,
    }, clock.time);
    this.skin = new ParticleSkin(s, this.simulation.tree, reduced);
    this.fractures?.dispose();
    this.fractures = new FractureMeshes(this.ctx.scene, this.ctx.root, this.simulation.tree, this.ctx.rng.fork(FRACTURE_LABEL));
    this.skin.update(this.simulation.position, this.simulation.breaking.piece);
    this.buildMeshes();
    this.buildDisplays();
    this.readTips();
    this.fallenFor = -1;
    this.refreshCounts();
    this.frame++;
  }

  /** Updatable copies of the tree's parts, skinned to the particles, in the parts' place. */
  private buildMeshes(): void {
    this.disposeMeshes();
    const { tree, scene, root } = this.ctx;
    const s = tree.skeleton, skin = this.skin, sim = this.simulation;
    for (const part of tree.parts) {
      const src = part.mesh;
      const read = (kind: string) => {
        const d = src.getVerticesData(kind);
        if (!d) throw new Error(`the tree's ${part.role} mesh has no ${kind} data`);
        return Float32Array.from(d);
      };
      const bind: SkinBinding = { positions: read(VertexBuffer.PositionKind), normals: read(VertexBuffer.NormalKind), skinNodes: read(BINDING_ATTRIBUTES.skinNodes), skinWeights: read(BINDING_ATTRIBUTES.skinWeights) };
      const positions = Float32Array.from(bind.positions), normals = Float32Array.from(bind.normals);
      let fill = () => skin.skinVertices(bind, positions, normals);
      const indices = Uint32Array.from(src.getIndices()!);
      let cut: LiveMesh["cut"] = { bind, indices, kept: new Uint32Array(indices.length), vertexPiece: new Int32Array(positions.length / 3), forBroken: 0 };
      if (part.role === "leaves" && !tree.geometry.fromModel && positions.length === 12 * s.leafCount) {
        cut = null; // a leaf card is whole on its leaf particle
        // Generated leaf cards ride on their leaf particles and fall with them.
        const ride = new LeafRide(s, sim.tree, this.groups.groupOf, bind.positions, bind.normals);
        fill = () => ride.write(this.simulation.position, skin, this.simulation.leafAngle, positions, normals);
      }
      const mesh = liveMesh(`sph-particles ${part.role}`, scene, root, {
        positions, normals, uvs: read(VertexBuffer.UVKind), indices, branchIndex: read(BINDING_ATTRIBUTES.branchIndex),
      }, part.material);
      this.live.push({ role: part.role, mesh, positions, normals, fill, written: -1, cut });
    }
    for (const l of this.live) tree.substitute(l.role, l.mesh);
    this.bark = this.live.find((l) => l.role === "bark")?.mesh ?? null;
  }

  private disposeMeshes(): void {
    for (const l of this.live) {
      this.ctx.tree.substitute(l.role, null);
      l.mesh.dispose(false, false);
    }
    this.live = [];
    this.bark = null;
  }

  /** The particle displays the parameters ask for, for the simulation now. */
  private buildDisplays(): void {
    this.treeDisplay?.dispose();
    this.windDisplay?.dispose();
    this.treeDisplay = this.windDisplay = null;
    const { scene, root } = this.ctx;
    if (this.params.particles) this.treeDisplay = new TreeParticlesDisplay(scene, root, this.simulation.tree);
    if (this.params.windParticles) this.windDisplay = new WindParticlesDisplay(scene, root, this.simulation.wind.count);
    if (this.treeDisplay) this.treeDisplay.mesh.isVisible = true;
    if (this.windDisplay) this.windDisplay.mesh.isVisible = true;
    this.displayedFor = -1;
  }

  private writeMeshes(): void {
    // Per mesh: a part shown again (a render mode changed while paused) is written at once.
    for (const l of this.live) {
      if (!l.mesh.isVisible || l.written === this.frame) continue;
      l.fill();
      const broken = this.simulation.breaking.counts.brokenLinks;
      if (l.cut && l.cut.forBroken !== broken) {
        // Pieces changed (a break, a restore): the triangles across a break go, or all come back.
        const c = l.cut;
        c.forBroken = broken;
        if (broken === 0) l.mesh.setIndices(c.indices);
        else l.mesh.setIndices(c.kept.slice(0, wholeTriangles(this.skin, c.bind, c.indices, c.vertexPiece, c.kept)));
      }
      // Bounds follow the moving tree (the sun fits its shadow frustum to them; picking tests them).
      l.mesh.updateVerticesData(VertexBuffer.PositionKind, l.positions, true, false);
      l.mesh.updateVerticesData(VertexBuffer.NormalKind, l.normals, false, false);
      l.written = this.frame;
    }
    // The broken ends ride on their stations, shown with the bark.
    this.fractures?.place(this.simulation.position, this.skin.stationRotation, this.bark?.isVisible ?? true);
    if (this.displayedFor !== this.frame) {
      const sim = this.simulation;
      this.treeDisplay?.update(sim.position, sim.breaking.attached, sim.breaking.counts.brokenLinks);
      this.windDisplay?.update(sim.wind.position, sim.wind.velocity, Math.max(1, 1.5 * this.ctx.wind.meanSpeed));
      this.displayedFor = this.frame;
    }
  }

  update(dt: number): void {
    const sim = this.simulation;
    sim.step(dt, this.ctx.clock.time - dt);
    this.skin.update(sim.position, sim.breaking.piece);
    this.fractures?.sync(sim.position, sim.breaking.piece, this.skin.stationRotation, sim.breaking.counts.brokenLinks, this.params);
    this.frame++;
    this.readTips();
    this.refreshCounts();
    this.stat.nonFinite = !allFinite(sim.position) || !allFinite(sim.wind.velocity);
  }

  private readTips(): void {
    const s = this.ctx.tree.skeleton, X = this.skin.nodePosition;
    for (let b = 0; b < s.branchCount; b++) {
      const k = 3 * tipNode(s, b);
      this.tips[3 * b] = X[k];
      this.tips[3 * b + 1] = X[k + 1];
      this.tips[3 * b + 2] = X[k + 2];
    }
  }

  /** The stats' counts, in place (stats() is read after every step). */
  private refreshCounts(): void {
    const sim = this.simulation, c = sim.breaking.counts, st = this.stat.counts;
    if (this.fallenFor !== c.brokenLinks) {
      // Leaves of the tree whose (group's) petiole broke.
      const tr = sim.tree;
      let fallen = 0;
      for (let g = 0; g < tr.leafLink.length; g++) if (tr.broken[tr.leafLink[g]]) fallen += tr.leafWeight[g];
      st.fallenLeaves = fallen;
      this.fallenFor = c.brokenLinks;
    }
    st.windParticles = sim.wind.count;
    st.treeParticles = sim.tree.count;
    st.brokenLinks = c.brokenLinks;
    st.brokenBranches = c.brokenBranches;
    st.links = sim.tree.linkCount;
    st.leafParticles = sim.tree.leafParticle.length;
    st.brokenEnds = this.fractures?.count ?? 0;
  }

  // ---------------------------------------------------------------- commands

  private actionList(): AnimatorAction[] {
    const c = this.simulation.breaking.counts;
    const broken = c.brokenLinks > 0;
    return [{ id: "restore", label: "Restore tree", help: `Puts every broken link back and the tree at rest in its own shape (${c.brokenLinks} links broken, ${c.brokenBranches} pieces off, ${this.stat.counts.fallenLeaves} leaves fallen); the wind runs on`, enabled: true, active: broken }];
  }

  private runAction(id: string): void {
    if (id !== "restore") throw new RangeError(`sph-particles has no command "${id}"; its commands are: restore`);
    // Everything back: the tree at rest, every link, and the air still, coming up to the wind again.
    this.simulation.restore();
    this.fractures?.clear();
    this.rampFrom = this.ctx.clock.time;
    this.simulation.wind.reset(this.rampFrom);
    this.skin.update(this.simulation.position, this.simulation.breaking.piece);
    this.frame++;
    this.readTips();
    this.fallenFor = -1;
    this.refreshCounts();
  }

  // ---------------------------------------------------------------- contract

  setParams(patch: Partial<SphParticlesParams>): void {
    const valid = validatePatch("sph-particles", sphParticlesParams, patch as Record<string, unknown>);
    const before = this.params;
    this.params = { ...this.params, ...valid };
    const p = this.params;
    if (REBUILD.some((k) => p[k] !== before[k])) {
      this.build();
      return;
    }
    const sim = this.simulation;
    sim.elastic.settings.stiffnessDamping = stiffnessDampingFor(dampingRatio(p.damping), this.omega1);
    sim.wind.settings.mach = p.mach;
    sim.settings.gravity = 9.81 * p.gravity;
    if (p.particles !== before.particles || p.windParticles !== before.windParticles) {
      this.buildDisplays();
    }
  }

  probe(): Float32Array {
    return this.tips;
  }

  /**
   * The deformed skeleton nodes (the skin's node positions after the last step) in the shape the
   * motion export reads a CPU method's masses: one "mass" per node, in node order.
   */
  get system(): { massOfNode: Int32Array; position: Float64Array } {
    if (this.nodeIndex.length !== this.skin.nodeCount) this.nodeIndex = Int32Array.from({ length: this.skin.nodeCount }, (_, k) => k);
    return { massOfNode: this.nodeIndex, position: this.skin.nodePosition };
  }
  private nodeIndex = new Int32Array(0);

  stats(): AnimatorStats {
    const st = this.stat, sim = this.simulation, p = this.params;
    const key = `${sim.wind.substeps}/${sim.wind.clamped}/${this.sized.spacing}/${p.damping}/${st.counts.treeParticles}`;
    if (key !== this.notesFor) {
      // Rebuilt only when what they say changes: stats() is read after every step.
      this.notesFor = key;
      const notes: string[] = [];
      const g = this.groups.perGroup;
      const cut = this.reduced.skeleton !== this.ctx.tree.skeleton ? `, branches finer than level ${this.reduced.maxLevel} riding on their parents` : "";
      notes.push(`particle tree: ${sim.tree.count.toLocaleString("en")} particles at ${this.sized.spacing.toFixed(2)} m bone spacing${this.sized.spacing > p.spacing + 1e-9 ? ` (${p.spacing} m asked; coarser for the ${p.treeBudget.toLocaleString("en")} budget${this.sized.fits ? "" : ", which this tree cannot fit"})` : ""}${cut}${g > 1 ? `, leaves in groups of up to ${g}` : ""}`);
      notes.push(`SPH wind: ${sim.wind.count.toLocaleString("en")} particles on a ${sim.wind.box.spacing.toFixed(2)} m lattice, ${sim.wind.substeps} substeps a frame (c = ${sim.wind.soundSpeed.toFixed(0)} m/s)${sim.wind.clamped ? ", clamped" : ""}`);
      st.notes = notes;
    }
    return st;
  }

  dispose(): void {
    this.ctx.scene.onBeforeRenderObservable.remove(this.renderObserver);
    this.disposeMeshes();
    this.fractures?.dispose();
    this.fractures = null;
    this.treeDisplay?.dispose();
    this.windDisplay?.dispose();
    this.treeDisplay = this.windDisplay = null;
  }
}

/** Whether every number in the array is finite. */
function allFinite(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

export const sphParticlesProvider: AnimatorProvider<SphParticlesParams> = {
  id: "sph-particles",
  label: "SPH particles (Akagi and Kitajima)",
  source: "Akagi and Kitajima, A Study on the Animations of Swaying and Breaking Trees based on a Particle-based Simulation: bone, branch and leaf particles on links (§2), the wind as SPH particles in two-way coupling (eqs. 1-3), elasticity (eqs. 4-8), links that break (eqs. 9-10), broken ends of three layers on eq. 11's side curve (§3). Restore tree puts it back.",
  params: sphParticlesParams,
  // Calibration compares the tree's elastic bend with the reference's: at the default limits a
  // 20 m/s wind breaks twigs and sheds leaves (13 pieces and 130 leaves off the Habel tree in 8 s),
  // so its static stage would measure falling pieces. The strongest wood and leaves break nothing there.
  calibrationParams: { woodStrength: sphParticlesParams.woodStrength.max, leafHold: sphParticlesParams.leafHold.max },
  create(ctx, params) {
    return new SphParticlesAnimator(ctx, params);
  },
};
