/**
 * The mass-spring method (Van Haevre, Di Fiore and Van Reeth 2006, "Physically-based driven tree
 * animations") behind the Animator contract. A thin adapter over plain-TypeScript cores:
 * - live (§4.2): the masses and springs (system.ts) step by implicit Euler (implicit.ts) on the
 *   CPU, pushed by the shared wind (the shared drag law with the tree's material, distributed along
 *   each segment, in the wind relative to the moving wood, leaves' drag on their branch) and the
 *   weight of the wood (wind-load.ts); calibrated to the physical tree by default, paper-literal
 *   (Van Haevre's mass rule) on request;
 * - capture (§4.3, capture.ts, recording-session.ts): "Record" samples every mass's position,
 *   velocity and applied force 30 times a second for the chosen length, in the shared wind
 *   (turned once round, by default, so the motion goes every way); a tree keeps all its
 *   recordings, also across method switches and taper changes (recordings.ts);
 * - graph (§5, §6.1): the tree walks the motion graph of a recording's control point
 *   (motion-graph.ts, walk.ts), at random or steered by the wind arrow (wind-arrow.ts);
 * - grove (Fig. 7, grove.ts): up to 100 trees, each with its own recording and control point,
 *   the centre one in full, the others instanced and posed in the vertex shader (grove-view.ts).
 * The tree's own bark, leaves and skeleton lines are copied into updatable meshes skinned to the
 * masses (skinned-parts.ts, skinning.ts) and shown in the parts' place (TreeInstance.substitute)
 * with the sandbox's materials, so the render modes, the bark texture, shadows and picking work
 * as for every method. Overlays (overlays.ts) draw Fig. 2's springs and Fig. 5's graph.
 */
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { Scene } from "@babylonjs/core/scene";
import type { Animator, AnimatorAction, AnimatorActions, AnimatorContext, AnimatorProvider, AnimatorStats } from "../animator";
import { tipNode, treeHeight } from "../../tree/skeleton";
import type { PhysicalMaterial } from "../../physics/material";
import { DEFAULT_MASS_SPRING, MassSpringSystem, type MassSpringSettings } from "./system";
import { ImplicitEuler } from "./implicit";
import { NodeFrames } from "./skinning";
import { massSpringParams, type MassSpringMode, type MassSpringParams } from "./params";
import type { Recording } from "./capture";
import { controlPointCandidates, MotionGraph } from "./motion-graph";
import { evaluateMass, evaluatePose, GraphWalk } from "./walk";
import { keepRecording, recordingsOf, RECORDINGS_BUDGET_MB, type TreeRecordings } from "./recordings";
import { buildGroveGeometry, grovePlacements, GROVE_VERTEX_BUDGET, MAX_GROVE_MASSES } from "./grove-geometry";
import { Grove, usableGraph } from "./grove";
import { GroveView } from "./grove-view";
import { GraphOverlay, SpringsOverlay } from "./overlays";
import { WindArrow } from "./wind-arrow";
import { RecordingSession } from "./recording-session";
import { SkinnedParts } from "./skinned-parts";
import { WindLoad } from "./wind-load";

/** Drawn frames a new tree count must rest before the grove is rebuilt for it. */
const GROVE_REBUILD_FRAMES = 6;

const { cos, sin, PI, hypot, max, ceil, sqrt, round } = Math;

export type { MassSpringParams } from "./params";
export { SAMPLE_RATE } from "./recording-session";

function systemSettings(p: MassSpringParams, material: PhysicalMaterial | undefined): MassSpringSettings {
  return { ...DEFAULT_MASS_SPRING, damping: p.damping, stiffness: p.stiffness, bendHz: p.sway, paperLiteral: p.paperLiteral, material };
}

/** A tree walking the motion graph of one recording's control point (§6.1). */
interface Playback {
  readonly recording: Recording;
  readonly graph: MotionGraph;
  readonly walk: GraphWalk;
}

export class MassSpringAnimator implements Animator<MassSpringParams> {
  readonly system: MassSpringSystem;
  readonly solver: ImplicitEuler;
  readonly frames: NodeFrames;
  readonly actions: AnimatorActions;
  private params: MassSpringParams;
  private readonly parts: SkinnedParts;
  private readonly tips: Float32Array;
  private readonly tipMass: Int32Array;
  private readonly load: WindLoad;
  private frame = 0;
  private readonly renderObserver: Observer<Scene>;
  private notesFor = "";
  /** updateMs stays 0: the host times every method's update (stats().animatorMs). */
  private readonly stat: AnimatorStats = { updateMs: 0, counts: {}, nonFinite: false, notes: [] };
  private readonly height: number;
  /** Horizontal reach of the crown from the trunk's axis, metres (at rest). */
  private readonly crown: number;
  /** This tree's recordings (kept across method switches). */
  private readonly store: TreeRecordings;
  /** The recording under way, if any. */
  private session: RecordingSession | null = null;
  private playback: Playback | null = null;
  private grove: { grove: Grove; view: GroveView; width: number } | null = null;
  /** Motion graphs built, by recording, control point and transition length. */
  private readonly graphs = new Map<string, MotionGraph>();
  /** The grove width the camera was framed for (0: the tree alone). */
  private framedWidth = 0;
  /** Drawn frames until a pending grove rebuild (a tree count being dragged); -1: none pending. */
  private groveRebuildIn = -1;
  private groveDirty = false;
  private springs: SpringsOverlay | null = null;
  private graphOverlay: GraphOverlay | null = null;
  private readonly arrow: WindArrow;
  /** Unit wind direction (x, z) the interactive walks follow. */
  private readonly steer = { x: 1, z: 0 };
  /** A message for the notes about the last thing that could not be done. */
  private problem = "";

  constructor(private readonly ctx: AnimatorContext, params: MassSpringParams) {
    this.params = { ...params };
    const s = ctx.tree.skeleton;
    this.height = treeHeight(s);
    this.system = new MassSpringSystem(s, systemSettings(this.params, ctx.material));
    this.solver = new ImplicitEuler(this.system);
    this.frames = new NodeFrames(s, this.system.massOfNode);
    const sys = this.system;
    let crown = 0;
    for (let i = 0; i < sys.count; i++) crown = max(crown, hypot(sys.rest[3 * i], sys.rest[3 * i + 2]));
    this.crown = crown;
    this.store = recordingsOf(sys);
    this.load = new WindLoad(sys);
    this.tipMass = new Int32Array(s.branchCount);
    for (let b = 0; b < s.branchCount; b++) this.tipMass[b] = sys.massOfNode[tipNode(s, b)];
    this.tips = new Float32Array(3 * s.branchCount);
    this.readTips();
    const { scene, root, tree } = ctx;
    this.parts = new SkinnedParts(tree, scene, root);
    this.arrow = new WindArrow(scene, root, (direction) => {
      if (ctx.host) ctx.host.setWind({ direction });
      else ctx.wind.set({ direction });
    });
    // Skins are written once per drawn frame, just before it is drawn, for the meshes on show only.
    this.renderObserver = scene.onBeforeRenderObservable.add(() => this.beforeRender());
    this.stat.counts = {
      masses: sys.count,
      springs: 2 * (sys.count - 2),
      branches: s.branchCount,
      vertices: this.parts.vertices,
    };
    this.actions = {
      list: () => this.actionList(),
      run: (id) => this.runAction(id),
      progress: () => this.session?.progress() ?? null,
    };
    this.enterMode();
  }

  /** What is on show now: the simulation while recording or without a recording, else the mode asked for. */
  get showing(): MassSpringMode | "recording" {
    if (this.session) return "recording";
    if (this.params.mode === "live" || !this.playback) return "live";
    return this.params.mode;
  }

  get recordings(): readonly Recording[] {
    return this.store.list;
  }

  // ---------------------------------------------------------------- modes

  /**
   * Sets up what the mode needs: a recording first (made now, live) when there is none. Never
   * throws: a recording that gives no usable graph leaves the live simulation on show, and the
   * notes say why and what to do.
   */
  private enterMode(): void {
    const mode = this.params.mode;
    if (mode !== "grove") this.disposeGrove(true);
    if (mode === "live") {
      if (this.playback) this.velocityStale();
      this.disposePlayback();
      this.refreshOverlays();
      return;
    }
    if (this.session) return; // the mode starts when the recording ends
    if (this.store.list.length === 0) {
      this.startRecording();
      return;
    }
    try {
      this.buildPlayback();
      if (mode === "grove") this.buildGrove();
      this.problem = "";
    } catch (e) {
      this.disposeGrove(true);
      this.disposePlayback();
      this.problem = `${e instanceof Error ? e.message : String(e)}. Showing the live simulation.`;
    }
    this.refreshOverlays();
  }

  /** The motion graph of a recording's control point, built once per transition length. */
  private graphFor(rec: Recording, control: number): MotionGraph {
    const key = `${rec.id}:${control}:${this.params.transition}`;
    let g = this.graphs.get(key);
    if (!g) {
      g = usableGraph(rec, control, this.params.transition);
      this.graphs.set(key, g);
    }
    return g;
  }

  private selectedRecording(): Recording {
    const list = this.store.list;
    return list.find((r) => r.id === this.store.selected) ?? list[list.length - 1];
  }

  /** The main tree's walk on the selected recording's graph, from its highest control point. */
  private buildPlayback(): void {
    this.disposePlayback();
    const rec = this.selectedRecording();
    const cand = controlPointCandidates(rec, this.system.parent);
    if (cand.length === 0) throw new Error("the tree has no mass high enough to be a control point");
    const graph = this.graphFor(rec, cand[0]);
    const walk = new GraphWalk(graph, this.ctx.rng.fork(0x5c3));
    this.playback = { recording: rec, graph, walk };
  }

  private disposePlayback(): void {
    this.playback = null;
    this.graphOverlay?.dispose();
    this.graphOverlay = null;
  }

  /** Fig. 7: `trees` trees on a jittered grid, the first the full tree at the centre. */
  private buildGrove(): void {
    this.disposeGrove(false);
    if (!this.playback) return;
    const sys = this.system, n = round(this.params.trees);
    const spacing = max(2.1 * this.crown, 0.45 * this.height);
    const rng = this.ctx.rng.fork(0x6007);
    const placements = grovePlacements(n, spacing, () => rng.next());
    const maxMasses = Math.min(MAX_GROVE_MASSES, this.ctx.scene.getEngine().getCaps().maxTextureSize || MAX_GROVE_MASSES);
    const geometry = buildGroveGeometry(sys, this.ctx.tree.geometry.leaves, GROVE_VERTEX_BUDGET / max(1, n - 1), maxMasses);
    const grove = new Grove({
      recordings: this.store.list, first: this.playback.recording, parent: sys.parent, placements, masses: geometry.masses,
      elongation: this.params.transition, rng: rng.fork(1), graph: (rec, control) => this.graphFor(rec, control),
    });
    const tree = this.ctx.tree;
    const view = new GroveView(this.ctx.scene, this.ctx.root, geometry, placements, tree.barkMaterial, tree.leafMaterial);
    const width = spacing * ceil(sqrt(n));
    this.grove = { grove, view, width };
    // The centre tree walks the grove's tree 0, which is the playback's graph.
    this.playback = { recording: grove.trees[0].recording, graph: grove.trees[0].graph, walk: grove.trees[0].walk };
    grove.advance(0, null, view.pose);
    this.groveDirty = true;
    // The camera steps back when the grove appears or changes size, and not otherwise: the
    // person's own view is kept across rebuilds.
    if (width !== this.framedWidth) {
      this.ctx.host?.frame(this.height, width);
      this.framedWidth = width;
    }
  }

  /** `reframe`: the grove is going for good, so the camera comes back to the tree. */
  private disposeGrove(reframe: boolean): void {
    this.groveRebuildIn = -1;
    if (!this.grove) return;
    this.grove.view.dispose();
    this.grove = null;
    if (reframe && this.framedWidth !== 0) {
      this.ctx.host?.frame(this.height, 0);
      this.framedWidth = 0;
    }
  }

  /**
   * Where each walking tree's control point is now, relative to its rest, in the world's x and z
   * (turned and scaled as the tree stands): the lean the wind arrow steers (§6.1.2). Tree 0 is the
   * centre tree (or the tree alone in graph mode). For tests and the console.
   */
  controlLeans(): number[] {
    const out: number[] = [];
    const p = new Float64Array(3);
    if (this.grove) {
      this.grove.grove.trees.forEach((t, k) => {
        evaluateMass(t.recording, t.walk.blend, t.control, p);
        const r = t.recording.rest, c = 3 * t.control, sc = this.grove!.view.placements[k].scale;
        const lx = p[0] - r[c], lz = p[2] - r[c + 2];
        out.push(sc * (t.c * lx - t.s * lz), sc * (t.s * lx + t.c * lz));
      });
    } else if (this.playback) {
      const x = this.system.position, r = this.playback.recording.rest, c = 3 * this.playback.graph.control;
      out.push(x[c] - r[c], x[c + 2] - r[c + 2]);
    }
    return out;
  }

  /** The GPU-vs-twin check's meshes and shader, while the grove shows. */
  get groveView(): GroveView | null {
    return this.grove?.view ?? null;
  }

  // ---------------------------------------------------------------- capture (§4.3)

  private startRecording(): void {
    this.session = new RecordingSession(this.system, this.ctx.clock.dt, this.params.recordSeconds, this.params.turningWind, this.ctx.wind.settings());
    this.problem = "";
    // Playback leaves positions without velocities: the simulation starts from the pose at rest speed.
    if (this.playback) this.velocityStale();
    this.disposePlayback();
    this.disposeGrove(false);
  }

  private finishRecording(): void {
    const id = this.store.next++;
    const rec = this.session!.finish(id);
    this.session = null;
    const dropped = keepRecording(this.store, rec);
    this.store.selected = id;
    this.enterMode();
    if (dropped.length > 0 && !this.problem) {
      this.problem = `recording ${dropped.join(", ")} dropped to keep the recordings under ${RECORDINGS_BUDGET_MB} MB`;
    }
  }

  private actionList(): AnimatorAction[] {
    const out: AnimatorAction[] = [];
    const recording = this.session !== null;
    out.push(recording
      ? { id: "cancel-recording", label: "Cancel recording", help: "Stops the recording under way and keeps nothing of it", enabled: true }
      : { id: "record", label: `Record ${this.params.recordSeconds} s`, help: "§4.3: samples every joint's position, velocity and force 30 times a second, in the wind set above", enabled: true });
    for (const r of this.store.list) {
      out.push({ id: `recording-${r.id}`, label: `Use recording ${r.label}`, help: "The recording the graph and the grove's centre tree walk (Show: graph or grove)", enabled: !recording, active: r.id === this.store.selected });
    }
    if (this.store.list.length > 0) out.push({ id: "clear-recordings", label: "Delete all recordings", help: "Forget this tree's recordings", enabled: !recording });
    return out;
  }

  private runAction(id: string): void {
    const a = this.actionList().find((x) => x.id === id);
    if (!a) throw new RangeError(`mass-spring has no command "${id}"; its commands now are: ${this.actionList().map((x) => x.id).join(", ")}`);
    if (!a.enabled) throw new RangeError(`"${id}" cannot run while a recording is under way; wait for it or cancel it`);
    if (id === "record") this.startRecording();
    else if (id === "cancel-recording") {
      this.session = null;
      if (this.store.list.length > 0) this.enterMode();
      else if (this.params.mode !== "live") this.problem = "the motion graph needs a recording: press Record";
    } else if (id === "clear-recordings") {
      this.store.list.length = 0;
      this.graphs.clear();
      this.disposePlayback();
      this.disposeGrove(true);
      if (this.params.mode !== "live") this.problem = "the motion graph needs a recording: press Record";
    } else {
      this.store.selected = Number(id.slice("recording-".length));
      this.enterMode();
    }
    this.refreshOverlays();
  }

  // ---------------------------------------------------------------- stepping

  update(dt: number): void {
    const mode = this.showing;
    if (mode === "live" || mode === "recording") {
      this.load.apply(this.ctx.wind, this.ctx.clock.time, this.session?.turn() ?? 0, this.params.gravity);
      this.solver.advance(dt);
      this.checkStable();
      if (this.session?.offer(this.system, dt)) this.finishRecording();
    } else {
      const p = this.playback!;
      const w = this.ctx.wind.direction * (PI / 180);
      this.steer.x = cos(w);
      this.steer.z = sin(w);
      const steer = this.params.walk === "interactive" ? this.steer : null;
      if (this.grove) {
        this.grove.grove.advance(dt, steer, this.grove.view.pose);
        this.groveDirty = true;
      } else p.walk.advance(dt, steer);
      evaluatePose(p.recording, p.walk.blend, this.system.position);
    }
    this.frame++;
    this.readTips();
    this.stat.nonFinite = !this.system.isFinite();
  }

  /**
   * Throws, saying why, when the simulation has gone unstable while staying finite (positions far
   * beyond the tree, segments torn); a non-finite state is stats().nonFinite's to report. The host
   * stops the method with the message (the app keeps running).
   */
  private checkStable(): void {
    if (!this.system.isFinite()) return;
    const why = this.system.instability();
    if (why) {
      const cg = this.solver.stats;
      throw new Error(`the mass-spring simulation went unstable at t = ${this.ctx.clock.time.toFixed(2)} s: ${why}${cg.converged ? "" : ` (the last step's conjugate gradient did not converge: residual ${cg.residual.toExponential(1)} after ${cg.iterations} iterations)`}`);
    }
  }

  /** After playback the velocities are not the pose's: start the simulation from it at rest speed. */
  private velocityStale(): void {
    this.system.velocity.fill(0);
  }

  private readTips(): void {
    const x = this.system.position, m = this.tipMass;
    for (let b = 0; b < m.length; b++) {
      const p = 3 * m[b];
      this.tips[3 * b] = x[p];
      this.tips[3 * b + 1] = x[p + 1];
      this.tips[3 * b + 2] = x[p + 2];
    }
  }

  // ---------------------------------------------------------------- drawing

  private beforeRender(): void {
    if (this.groveRebuildIn >= 0 && this.groveRebuildIn-- === 0) {
      try {
        this.buildGrove();
      } catch (e) {
        this.problem = e instanceof Error ? e.message : String(e);
      }
    }
    this.parts.write(this.frame, this.frames, this.system.position);
    const x = this.system.position;
    if (this.springs?.mesh.isVisible) this.springs.update(x);
    if (this.graphOverlay && this.playback) {
      const m = 3 * this.playback.graph.control;
      this.graphOverlay.setMarker(x[m], x[m + 1], x[m + 2]);
    }
    if (this.grove && this.groveDirty) {
      this.grove.view.upload();
      this.groveDirty = false;
    }
    this.placeArrow();
  }

  /** Over the tree (or the grove), pointing the way the wind blows (turning with a turning recording). */
  private placeArrow(): void {
    if (this.arrow.dragging) {
      this.arrow.place(this.arrow.node.position.x, this.arrow.node.position.y, this.arrow.node.position.z, this.arrow.node.scaling.x, this.ctx.wind.direction);
      return;
    }
    let direction = this.ctx.wind.direction;
    if (this.session) direction += (180 / PI) * this.session.turn();
    const h = this.height;
    if (this.grove) this.arrow.place(0, 1.15 * h, 0, 0.22 * this.grove.width, direction);
    else this.arrow.place(0, 0.12 * h, 0, 0.38 * h, direction);
  }

  /** Creates, shows or hides the overlays as the parameters ask. */
  private refreshOverlays(): void {
    if (this.params.springs && !this.springs) this.springs = new SpringsOverlay(this.ctx.scene, this.ctx.root, this.system);
    if (this.springs) {
      this.springs.mesh.isVisible = this.params.springs;
      if (this.params.springs) this.springs.update(this.system.position);
    }
    const wantGraph = this.params.graph && this.playback !== null;
    if (wantGraph && (!this.graphOverlay || this.graphOverlayFor !== this.playback!.graph)) {
      this.graphOverlay?.dispose();
      // The magnified copy beside the crown, level with the control point, a third of the tree across.
      const sys = this.system, c = 3 * this.playback!.graph.control;
      const at = [this.crown + 0.25 * this.height, sys.rest[c + 1], 0];
      this.graphOverlay = new GraphOverlay(this.ctx.scene, this.ctx.root, this.playback!.graph, 0.015 * this.height, at, this.height / 3);
      this.graphOverlayFor = this.playback!.graph;
    }
    this.graphOverlay?.setVisible(wantGraph);
  }

  private graphOverlayFor: MotionGraph | null = null;

  // ---------------------------------------------------------------- contract

  setParams(patch: Partial<MassSpringParams>): void {
    const before = this.params;
    this.params = { ...this.params, ...patch };
    this.system.configure(systemSettings(this.params, this.ctx.material));
    const p = this.params;
    if (p.mode !== before.mode) {
      this.problem = "";
      this.enterMode();
    } else if (p.transition !== before.transition && this.playback) {
      this.graphs.clear();
      this.enterMode();
    } else if (p.trees !== before.trees && this.grove) {
      // Dragging the tree count: rebuild once it has rested for a few drawn frames.
      this.groveRebuildIn = GROVE_REBUILD_FRAMES;
    }
    this.refreshOverlays();
  }

  probe(): Float32Array {
    return this.tips;
  }

  stats(): AnimatorStats {
    const st = this.stat, cg = this.solver.stats, mode = this.showing;
    const key = `${mode}/${cg.iterations}/${cg.converged}/${this.playback?.graph.stats.transitions}/${this.problem}/${this.store.list.length}/${this.session?.seconds}`;
    if (key !== this.notesFor) {
      // Rebuilt only when what they say changes: stats() is read after every step.
      this.notesFor = key;
      const notes: string[] = [];
      if (mode === "live" || mode === "recording") notes.push(`implicit Euler: ${cg.iterations} CG iterations${cg.converged ? "" : " (not converged)"}`);
      if (mode === "recording") notes.push(`${this.session!.note()}${this.params.mode !== "live" ? `; the ${this.params.mode} starts when it ends` : ""}`);
      if (this.playback && mode !== "live" && mode !== "recording") {
        const g = this.playback.graph, gs = g.stats;
        notes.push(`motion graph of ${this.playback.recording.label.split(":")[0]}, control point mass ${g.control}: ${gs.nodes} of ${gs.samples} samples, ${gs.transitions} transitions, ${gs.prunedDeadEnd + gs.prunedUnreachable} pruned`);
      }
      if (this.grove && mode === "grove") {
        const v = this.grove.view.geometry, gr = this.grove.grove;
        notes.push(`grove: ${gr.trees.length} trees, ${gr.graphs} motion graphs from ${this.store.list.length} recording${this.store.list.length === 1 ? "" : "s"}; instanced trees draw ${v.segments} of ${v.segmentsOfTree} segments and ${v.leafCards} of ${v.leafCardsOfTree} leaves`);
      }
      if (this.problem) notes.push(this.problem);
      st.notes = notes;
    }
    return st;
  }

  dispose(): void {
    this.ctx.scene.onBeforeRenderObservable.remove(this.renderObserver);
    this.parts.dispose();
    this.disposeGrove(false);
    this.disposePlayback();
    this.springs?.dispose();
    this.arrow.dispose();
  }
}

export const massSpringProvider: AnimatorProvider<MassSpringParams> = {
  id: "mass-spring",
  label: "Mass-spring (Van Haevre 2006)",
  source: "Van Haevre, Di Fiore and Van Reeth 2006, Physically-based driven tree animations: masses on the skeleton's joints, linear and angular springs, implicit Euler with conjugate gradients (§4.2); recordings (§4.3), motion graphs (§5), random and interactive walks and a grove (§6.1, Fig. 7). Drag the green arrow to steer the walks.",
  params: massSpringParams,
  create(ctx, params) {
    return new MassSpringAnimator(ctx, params);
  },
};
