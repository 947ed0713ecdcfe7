/**
 * The host's fixed-step clock (ARCHITECTURE.md, "Time and randomness"). Animators see only
 * `time` and `dt`; the sandbox decides when to step. Wall-clock time decides only how many
 * fixed steps a displayed frame takes, never what a step computes.
 */
import type { ClockView } from "../animators/animator";

export class FixedClock implements ClockView {
  time = 0;
  frame = 0;
  private accumulator = 0;

  constructor(readonly dt = 1 / 60, private readonly maxStepsPerFrame = 4) {}

  reset(): void {
    this.time = 0;
    this.frame = 0;
    this.accumulator = 0;
  }

  /** Advances one fixed step. */
  tick(): void {
    this.frame++;
    this.time = this.frame * this.dt;
  }

  /** How many fixed steps real elapsed time `elapsedS` asks for (bounded, so a stall does not spiral). */
  stepsFor(elapsedS: number): number {
    this.accumulator += Math.min(elapsedS, this.maxStepsPerFrame * this.dt);
    const n = Math.floor(this.accumulator / this.dt + 1e-9);
    this.accumulator -= n * this.dt;
    return n;
  }
}
