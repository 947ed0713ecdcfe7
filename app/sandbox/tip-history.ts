/**
 * The motion of one branch tip over the last seconds (the plots show its last 10 s), recorded every fixed step from the method's probe: the
 * horizontal displacement from the tip's rest position, split along and across the wind. A ring
 * buffer of plain typed arrays; no allocation per step.
 */
export class TipHistory {
  readonly along: Float32Array;
  readonly across: Float32Array;
  private head = 0;
  private count = 0;

  /** `capacity` steps (600: 10 s at 60 Hz). */
  constructor(readonly capacity: number) {
    this.along = new Float32Array(capacity);
    this.across = new Float32Array(capacity);
  }

  get length(): number {
    return this.count;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  /** One step: the tip's displacement (dx, dz) from rest, and the wind's direction (unit dirX, dirZ). */
  push(dx: number, dz: number, dirX: number, dirZ: number): void {
    this.along[this.head] = dx * dirX + dz * dirZ;
    this.across[this.head] = -dx * dirZ + dz * dirX;
    this.head = (this.head + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** The samples, oldest first, into `along` and `across` (each at least `length` long). */
  read(along: Float32Array | Float64Array, across: Float32Array | Float64Array): number {
    const n = this.count, start = (this.head - n + this.capacity) % this.capacity;
    for (let i = 0; i < n; i++) {
      const k = (start + i) % this.capacity;
      along[i] = this.along[k];
      across[i] = this.across[k];
    }
    return n;
  }
}
