/**
 * The forces on the live mass-spring tree each step (Van Haevre, Di Fiore and Van Reeth 2006,
 * §4.2): the shared wind's drag across each mass's segment, sampled at the mass, and the weight
 * of the wood.
 */
import type { WindField } from "../../wind/wind-field";
import { crossFlowDrag, cylinderDragFactor, G } from "../../wind/drag";
import type { MassSpringSystem } from "./system";

const { cos, sin } = Math;

export class WindLoad {
  /** ½ ρ C_d (2 r L) per mass (0 on the fixed ones). */
  private readonly drag: Float64Array;
  private readonly u = new Float64Array(3);
  private readonly q = new Float64Array(3);

  constructor(private readonly sys: MassSpringSystem) {
    this.drag = new Float64Array(sys.count);
    for (let i = 0; i < sys.count; i++) {
      if (!sys.fixed[i]) this.drag[i] = cylinderDragFactor(sys.radius[i], sys.restLength[i]);
    }
  }

  /**
   * Wind drag across every segment, sampled at its mass, and the weight of the wood, into
   * the system's external forces. `turn` (radians) turns the whole wind field about the vertical (a turning
   * recording): sampled at the point turned back, the air's velocity turned forward.
   */
  apply(wind: WindField, t: number, turn: number, gravity: number): void {
    const sys = this.sys, w = wind, x = sys.position, v = sys.velocity, F = sys.external, u = this.u, drag = this.drag, par = sys.parent;
    const c = cos(turn), s = sin(turn), q = this.q;
    for (let i = 0; i < sys.count; i++) {
      if (drag[i] === 0) {
        F[3 * i] = F[3 * i + 1] = F[3 * i + 2] = 0;
        continue;
      }
      const px = x[3 * i], pz = x[3 * i + 2];
      w.sample(c * px + s * pz, x[3 * i + 1], -s * px + c * pz, t, q);
      u[0] = c * q[0] - s * q[2];
      u[1] = q[1];
      u[2] = s * q[0] + c * q[2];
      // The air past the mass, across its segment only.
      const p = par[i];
      crossFlowDrag(
        drag[i], u[0] - v[3 * i], u[1] - v[3 * i + 1], u[2] - v[3 * i + 2],
        x[3 * i] - x[3 * p], x[3 * i + 1] - x[3 * p + 1], x[3 * i + 2] - x[3 * p + 2], F, 3 * i,
      );
    }
    if (gravity > 0) sys.addGravity(G * gravity);
  }
}
