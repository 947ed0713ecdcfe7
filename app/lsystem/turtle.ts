/**
 * Turtle interpretation of a derived string (ABOP §1.5 and §2.3) into a TreeSkeleton.
 *
 * The turtle's state is a position and the frame H (heading), L (left), U (up), H x L = U,
 * starting at the origin with H = +y, L = -x, U = +z. Rotations use ABOP's matrices R_U, R_L,
 * R_H (§1.5); `$` rolls L to the horizontal (§2.3); tropism bends H toward T by e |H x T| after
 * every F (§2.3).
 *
 * From turtle paths to branches:
 * 1. Every unbroken run of F drawn by one turtle state is a segment. A `[` whose content draws
 *    starts a new segment attached to the enclosing one at the arc length where the bracket opened.
 * 2. Sympodial continuation (ABOP §2.2): when a segment ends exactly where some of its children
 *    start (its apex stopped and only brackets follow), the child best aligned with it (within
 *    60 degrees) continues the same branch instead of starting a new level.
 * 3. Branch levels are capped at MAX_LEVELS (4): a branch that would be level 4 or deeper is
 *    attached to its nearest level-2 ancestor, at the point where its level-3 ancestor leaves
 *    that ancestor, as a level-3 branch. Its nodes stay where the turtle drew them.
 * 4. `f` ends the current segment; the next F starts a new segment attached where the current
 *    one is attached (a gap splits a branch into siblings).
 * 5. `~` adds a leaf to the segment being drawn (or, before any F in a bracket, to the branch
 *    the bracket opened on): petiole at the turtle, card along H in the H-L plane, normal U.
 */
import { Rng } from "../math/rng";
import { MAX_LEVELS, SkeletonBuilder, type TreeSkeleton } from "../tree/skeleton";
import { LSystemError } from "./errors";
import type { Grammar, ModuleString } from "./grammar";

export interface InterpretOptions {
  /** Seed of the turn jitter (`#jitter`); unused when the grammar has none. */
  seed: number;
}

/** cos 60 degrees: a child continues its parent's axis only when it turns less than this. */
const CONTINUATION_COS = 0.5;
const STATE = 17; // px py pz hx hy hz lx ly lz ux uy uz width seg segArc attachSeg attachArc
const LEAF_STRIDE = 12;
const DEG = Math.PI / 180;

const C = (s: string) => s.charCodeAt(0);
const F_ = C("F"), f_ = C("f"), PLUS = C("+"), MINUS = C("-"), AMP = C("&"), CARET = C("^");
const BSLASH = C("\\"), SLASH = C("/"), PIPE = C("|"), DOLLAR = C("$"), OPEN = C("["), CLOSE = C("]");
const BANG = C("!"), TILDE = C("~");

export function interpret(derived: ModuleString, grammar: Grammar, options: InterpretOptions): TreeSkeleton {
  const sym = derived.symbols, ps = derived.paramStart, par = derived.params;
  const delta = grammar.angle * DEG;
  const jitter = grammar.jitter * DEG;
  const rng = jitter > 0 ? new Rng(options.seed).fork(0x7e47) : null;
  const trop = grammar.tropism;
  const tx = trop?.x ?? 0, ty = trop?.y ?? 0, tz = trop?.z ?? 0, te = trop?.e ?? 0;

  // Segments (runs of F of one turtle state): flat growable arrays, one entry per segment.
  const segParent: number[] = [], segAttach: number[] = [], segLength: number[] = [];
  const segStartH: number[] = [], segEndH: number[] = [], segRoll: number[] = [];
  const segNodes: number[][] = []; // x, y, z, radius per node
  // Leaves, LEAF_STRIDE numbers each: segment, arc, petiole xyz, H, U, size.
  const leaves: number[] = [];

  let px = 0, py = 0, pz = 0;
  let hx = 0, hy = 1, hz = 0, lx = -1, ly = 0, lz = 0, ux = 0, uy = 0, uz = 1;
  let width = grammar.width;
  let seg = -1, segArc = 0, attachSeg = -1, attachArc = 0;
  let stack = new Float64Array(STATE * 64);
  let sp = 0;

  for (let i = 0; i < derived.length; i++) {
    const s = sym[i];
    const o = ps[i], n = ps[i + 1] - o;
    switch (s) {
      case F_: {
        const len = n > 0 ? par[o] : grammar.length;
        if (n > 1) width = par[o + 1];
        if (!(len > 1e-9)) break;
        if (seg < 0) {
          // First F of this state: a new segment.
          seg = segParent.length;
          let parent = attachSeg, at = attachArc;
          if (parent < 0 && seg > 0) {
            // One trunk: a second root hangs off the first at its base.
            parent = 0;
            at = 0;
          }
          segParent.push(parent);
          segAttach.push(at);
          segLength.push(0);
          segStartH.push(hx, hy, hz);
          segEndH.push(hx, hy, hz);
          segRoll.push(lx, ly, lz);
          segNodes.push([px, py, pz, 0.5 * width]);
          segArc = 0;
        }
        const k = 3 * seg;
        segEndH[k] = hx; segEndH[k + 1] = hy; segEndH[k + 2] = hz;
        px += hx * len; py += hy * len; pz += hz * len;
        segArc += len;
        segLength[seg] = segArc;
        segNodes[seg].push(px, py, pz, 0.5 * width);
        if (te !== 0) {
          // ABOP §2.3: rotate the frame about H x T by alpha = e |H x T|.
          let ax = hy * tz - hz * ty, ay = hz * tx - hx * tz, az = hx * ty - hy * tx;
          const m = Math.hypot(ax, ay, az);
          if (m > 1e-9) {
            ax /= m; ay /= m; az /= m;
            const a = te * m, c = Math.cos(a), sn = Math.sin(a), t1 = 1 - c;
            let d = ax * hx + ay * hy + az * hz;
            const nhx = hx * c + (ay * hz - az * hy) * sn + ax * d * t1;
            const nhy = hy * c + (az * hx - ax * hz) * sn + ay * d * t1;
            const nhz = hz * c + (ax * hy - ay * hx) * sn + az * d * t1;
            d = ax * lx + ay * ly + az * lz;
            const nlx = lx * c + (ay * lz - az * ly) * sn + ax * d * t1;
            const nly = ly * c + (az * lx - ax * lz) * sn + ay * d * t1;
            const nlz = lz * c + (ax * ly - ay * lx) * sn + az * d * t1;
            hx = nhx; hy = nhy; hz = nhz; lx = nlx; ly = nly; lz = nlz;
            ux = hy * lz - hz * ly; uy = hz * lx - hx * lz; uz = hx * ly - hy * lx;
          }
        }
        break;
      }
      case f_: {
        const len = n > 0 ? par[o] : grammar.length;
        px += hx * len; py += hy * len; pz += hz * len;
        if (seg >= 0) {
          attachSeg = segParent[seg];
          attachArc = segAttach[seg];
          seg = -1;
        }
        break;
      }
      case PLUS:
      case MINUS:
      case PIPE: {
        // R_U: + turns left by delta, - right, | turns around (ABOP §1.5).
        let a = s === PIPE ? Math.PI : (n > 0 ? par[o] * DEG : delta) + (rng ? rng.range(-jitter, jitter) : 0);
        if (s === MINUS) a = -a;
        const c = Math.cos(a), sn = Math.sin(a);
        const nhx = hx * c - lx * sn, nhy = hy * c - ly * sn, nhz = hz * c - lz * sn;
        lx = hx * sn + lx * c; ly = hy * sn + ly * c; lz = hz * sn + lz * c;
        hx = nhx; hy = nhy; hz = nhz;
        break;
      }
      case AMP:
      case CARET: {
        // R_L: & pitches down by delta, ^ up.
        let a = (n > 0 ? par[o] * DEG : delta) + (rng ? rng.range(-jitter, jitter) : 0);
        if (s === CARET) a = -a;
        const c = Math.cos(a), sn = Math.sin(a);
        const nhx = hx * c + ux * sn, nhy = hy * c + uy * sn, nhz = hz * c + uz * sn;
        ux = -hx * sn + ux * c; uy = -hy * sn + uy * c; uz = -hz * sn + uz * c;
        hx = nhx; hy = nhy; hz = nhz;
        break;
      }
      case BSLASH:
      case SLASH: {
        // R_H: \ rolls left by delta, / right.
        let a = (n > 0 ? par[o] * DEG : delta) + (rng ? rng.range(-jitter, jitter) : 0);
        if (s === SLASH) a = -a;
        const c = Math.cos(a), sn = Math.sin(a);
        const nlx = lx * c + ux * sn, nly = ly * c + uy * sn, nlz = lz * c + uz * sn;
        ux = -lx * sn + ux * c; uy = -ly * sn + uy * c; uz = -lz * sn + uz * c;
        lx = nlx; ly = nly; lz = nlz;
        break;
      }
      case DOLLAR: {
        // ABOP §2.3: L = V x H / |V x H| with V = +y, U = H x L.
        let nx = hz, nz = -hx; // (0,1,0) x H, y component 0
        const m = Math.hypot(nx, nz);
        if (m > 1e-9) {
          nx /= m; nz /= m;
          lx = nx; ly = 0; lz = nz;
          ux = hy * lz - hz * ly; uy = hz * lx - hx * lz; uz = hx * ly - hy * lx;
        }
        break;
      }
      case OPEN: {
        if (sp + STATE > stack.length) {
          const bigger = new Float64Array(stack.length * 2);
          bigger.set(stack);
          stack = bigger;
        }
        stack[sp] = px; stack[sp + 1] = py; stack[sp + 2] = pz;
        stack[sp + 3] = hx; stack[sp + 4] = hy; stack[sp + 5] = hz;
        stack[sp + 6] = lx; stack[sp + 7] = ly; stack[sp + 8] = lz;
        stack[sp + 9] = ux; stack[sp + 10] = uy; stack[sp + 11] = uz;
        stack[sp + 12] = width; stack[sp + 13] = seg; stack[sp + 14] = segArc;
        stack[sp + 15] = attachSeg; stack[sp + 16] = attachArc;
        sp += STATE;
        if (seg >= 0) {
          attachSeg = seg;
          attachArc = segArc;
        }
        seg = -1;
        break;
      }
      case CLOSE: {
        if (sp === 0) break; // an unmatched ']' is ignored
        sp -= STATE;
        px = stack[sp]; py = stack[sp + 1]; pz = stack[sp + 2];
        hx = stack[sp + 3]; hy = stack[sp + 4]; hz = stack[sp + 5];
        lx = stack[sp + 6]; ly = stack[sp + 7]; lz = stack[sp + 8];
        ux = stack[sp + 9]; uy = stack[sp + 10]; uz = stack[sp + 11];
        width = stack[sp + 12]; seg = stack[sp + 13]; segArc = stack[sp + 14];
        attachSeg = stack[sp + 15]; attachArc = stack[sp + 16];
        break;
      }
      case BANG:
        width = par[o];
        break;
      case TILDE: {
        const on = seg >= 0 ? seg : attachSeg;
        if (on < 0) break; // a leaf before any wood has nothing to hang on
        leaves.push(on, seg >= 0 ? segArc : attachArc, px, py, pz, hx, hy, hz, ux, uy, uz, n > 0 ? par[o] : grammar.leafSize);
        break;
      }
      default:
        break; // other modules do not move the turtle
    }
  }

  const nSeg = segParent.length;
  if (nSeg === 0) throw new LSystemError("the derived string draws nothing (no F with a length > 0)", grammar.fileName);

  // 2. Sympodial continuation: the best aligned child starting at a segment's tip continues it.
  const cont = new Int32Array(nSeg).fill(-1);
  const contScore = new Float64Array(nSeg).fill(CONTINUATION_COS);
  for (let c = 1; c < nSeg; c++) {
    const p = segParent[c];
    if (p < 0 || segAttach[c] < segLength[p] - 1e-6) continue;
    const d = segStartH[3 * c] * segEndH[3 * p] + segStartH[3 * c + 1] * segEndH[3 * p + 1] + segStartH[3 * c + 2] * segEndH[3 * p + 2];
    if (d > contScore[p]) {
      contScore[p] = d;
      cont[p] = c;
    }
  }

  // Chains of segments become branches; 3. levels capped at MAX_LEVELS.
  const segBranch = new Int32Array(nSeg), segOffset = new Float64Array(nSeg);
  const brParent: number[] = [], brAttach: number[] = [], brLevel: number[] = [], brLength: number[] = [], brSegs: number[][] = [];
  for (let s = 0; s < nSeg; s++) {
    const p = segParent[s];
    if (p >= 0 && cont[p] === s) {
      const b = segBranch[p];
      segBranch[s] = b;
      segOffset[s] = segOffset[p] + segLength[p];
      brSegs[b].push(s);
      brLength[b] = segOffset[s] + segLength[s];
      continue;
    }
    let parent = p >= 0 ? segBranch[p] : -1;
    let at = p >= 0 ? segOffset[p] + segAttach[s] : 0;
    while (parent >= 0 && brLevel[parent] + 1 >= MAX_LEVELS) {
      at = brAttach[parent];
      parent = brParent[parent];
    }
    const b = brParent.length;
    brParent.push(parent);
    brAttach.push(at);
    brLevel.push(parent < 0 ? 0 : brLevel[parent] + 1);
    brLength.push(segLength[s]);
    brSegs.push([s]);
    segBranch[s] = b;
    segOffset[s] = 0;
  }

  // Where each segment's first node sits along its branch's nodes (continuations share a node).
  const segNodeStart = new Int32Array(nSeg);
  for (const segs of brSegs) {
    for (let k = 1; k < segs.length; k++) segNodeStart[segs[k]] = segNodeStart[segs[k - 1]] + segNodes[segs[k - 1]].length / 4 - 1;
  }

  const builder = new SkeletonBuilder();
  for (let b = 0; b < brParent.length; b++) {
    const parent = brParent[b];
    const first = brSegs[b][0];
    // The node the turtle stood on when this branch began (Barron §4.1's current particle): on the
    // segment it opened from, at the arc length where its bracket opened, whatever the level cap did.
    const from = segParent[first];
    const origin = from < 0 ? null : { branch: segBranch[from], node: segNodeStart[from] + nodeAtArc(segNodes[from], segAttach[first]) };
    builder.addBranch(parent, parent < 0 ? 0 : brAttach[b] / brLength[parent], [segRoll[3 * first], segRoll[3 * first + 1], segRoll[3 * first + 2]], origin);
    const segs = brSegs[b];
    for (let k = 0; k < segs.length; k++) {
      const nodes = segNodes[segs[k]];
      for (let j = k === 0 ? 0 : 4; j < nodes.length; j += 4) builder.addNode(b, nodes[j], nodes[j + 1], nodes[j + 2], nodes[j + 3]);
    }
  }
  for (let i = 0; i < leaves.length; i += LEAF_STRIDE) {
    const s = leaves[i], b = segBranch[s];
    const size = leaves[i + 11];
    const hx2 = leaves[i + 5], hy2 = leaves[i + 6], hz2 = leaves[i + 7];
    builder.addLeaf(
      b,
      (segOffset[s] + leaves[i + 1]) / brLength[b],
      [leaves[i + 2] + 0.5 * size * hx2, leaves[i + 3] + 0.5 * size * hy2, leaves[i + 4] + 0.5 * size * hz2],
      [leaves[i + 8], leaves[i + 9], leaves[i + 10]],
      [hx2, hy2, hz2],
      size,
    );
  }
  return builder.build();
}

/** Index of the node of a segment (x, y, z, radius per node) whose arc length from the segment's start is nearest `arc`. */
function nodeAtArc(nodes: number[], arc: number): number {
  let best = 0, bestErr = Math.abs(arc), acc = 0;
  for (let j = 1; 4 * j < nodes.length; j++) {
    acc += Math.hypot(nodes[4 * j] - nodes[4 * j - 4], nodes[4 * j + 1] - nodes[4 * j - 3], nodes[4 * j + 2] - nodes[4 * j - 2]);
    const err = Math.abs(acc - arc);
    if (err < bestErr) {
      bestErr = err;
      best = j;
    }
  }
  return best;
}
