/**
 * lsystem-particles calibrated by default: on the shipped trees, in a steady
 * wind without turbulence, the mean static tip deflection per hierarchy level at 5, 10 and 20 m/s
 * within 20 % of the reference solver's, the trunk's free motion within 20 % of the reference's
 * first mode, and its damping ratio (logarithmic decrement) within 20 % of the damping slider's ζ.
 * Paper-literal (Barron's tip drag and k_s ∝ r² springs) is printed beside it for comparison.
 */
import { dampingRatio } from "../../../app/physics/damping";
import { calibrate, expectCalibrated, openBench, printCalibration, referenceFigures } from "../../support/calibration-driver";

const ID = "lsystem-particles";

describe("lsystem-particles against the reference solver", () => {
  // Habel and every other shipped tree: `npm run calibrate` (spec/calibrate/trees.calibrate.ts).
  it("demo: calibrated by default; paper-literal beside it", async () => {
    const bench = await openBench("#tree=demo");
    try {
      await expectCalibrated(bench, ID, "demo");
      bench.api.params(ID, { paperLiteral: true });
      const ref = referenceFigures(bench);
      const literal = await calibrate(bench, ID);
      printCalibration("demo", "paper-literal", ref, literal, dampingRatio(bench.api.params(ID).damping as number));
      // Barron's springs are far softer than the oak beam: the literal tree bends many times the reference.
      expect(literal.static[1].levels[0]).toBeGreaterThan(3 * ref.static[1].levels[0]);
    } finally {
      bench.dispose();
    }
  }, 300_000);
});
