/**
 * The separate parts' centre-line ends in a uniform grid, so that a branch placed (Prim's tree,
 * nearest first) measures only the ends near it, not every part's: the ends within SEARCH_RADII
 * of its largest radius plus SEARCH_MARGIN of the model. Both methods place separate parts so.
 */

/** A branch placed offers itself as parent to the parts' ends within this many of its radii... */
const SEARCH_RADII = 4;
/** ...plus this share of the model's size. */
const SEARCH_MARGIN = 0.02;
/** Grid cells along the model's size. */
const CELLS = 64;
/** Cells along each axis at most (the key packs three into one number). */
const MAX_CELL = 1023;

export class EndGrid {
  private readonly cells = new Map<number, number[]>();
  private readonly cell: number;
  private readonly a = [0, 0, 0];
  private readonly z = [0, 0, 0];
  /** `lo`: the grid's corner; `modelSize`: the model's largest extent. */
  constructor(private readonly lo: readonly number[], readonly modelSize: number) {
    this.cell = modelSize / CELLS;
  }

  private cellOf(v: number, c: number): number {
    return Math.max(0, Math.min(MAX_CELL, Math.floor((v - this.lo[c]) / this.cell)));
  }

  /** Files the two ends of part p's centre line (`nodes`, xyz each) as 2p (its first node) and 2p + 1 (its last). */
  add(p: number, nodes: ArrayLike<number>): void {
    for (let e = 0; e < 2; e++) {
      const o = e === 0 ? 0 : nodes.length - 3;
      const key = this.cellOf(nodes[o], 0) + (MAX_CELL + 1) * (this.cellOf(nodes[o + 1], 1) + (MAX_CELL + 1) * this.cellOf(nodes[o + 2], 2));
      const list = this.cells.get(key);
      if (list) list.push(2 * p + e);
      else this.cells.set(key, [2 * p + e]);
    }
  }

  /**
   * Calls `visit` with every end filed in the cells that the box round a placed branch (its
   * nodes, its radii) grown by the search margin touches.
   */
  near(nodes: ArrayLike<number>, radii: ArrayLike<number>, visit: (end: number) => void): void {
    let maxR = 0;
    for (let j = 0; j < radii.length; j++) maxR = Math.max(maxR, radii[j]);
    const margin = SEARCH_RADII * maxR + SEARCH_MARGIN * this.modelSize;
    const a = this.a, z = this.z;
    for (let c = 0; c < 3; c++) {
      a[c] = Infinity;
      z[c] = -Infinity;
    }
    for (let j = 0; j < nodes.length; j += 3) {
      for (let c = 0; c < 3; c++) {
        a[c] = Math.min(a[c], nodes[j + c] - margin);
        z[c] = Math.max(z[c], nodes[j + c] + margin);
      }
    }
    const x0 = this.cellOf(a[0], 0), x1 = this.cellOf(z[0], 0), y0 = this.cellOf(a[1], 1), y1 = this.cellOf(z[1], 1), z0 = this.cellOf(a[2], 2), z1 = this.cellOf(z[2], 2);
    for (let iz = z0; iz <= z1; iz++) {
      for (let iy = y0; iy <= y1; iy++) {
        for (let ix = x0; ix <= x1; ix++) {
          const list = this.cells.get(ix + (MAX_CELL + 1) * (iy + (MAX_CELL + 1) * iz));
          if (list) for (const end of list) visit(end);
        }
      }
    }
  }
}
