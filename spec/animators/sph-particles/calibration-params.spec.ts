/**
 * Calibration measures the tree's elastic bend, so sph-particles declares the values it is
 * calibrated with (calibrationParams: the strongest wood and leaves). In a gale's steady wind its
 * default limits break links and shed leaves; at the calibration's values nothing breaks.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { createRegistry } from "../../../app/animators/registry";
import { Sandbox } from "../../../app/sandbox/sandbox";
import { sphParticlesParams } from "../../../app/animators/sph-particles/params";

async function brokenAfterStorm(patch: Record<string, number>): Promise<Record<string, number>> {
  const engine = new NullEngine();
  const sandbox = new Sandbox(engine, null, createRegistry());
  try {
    await sandbox.start("#tree=demo", "", { renderLoop: false });
    const api = sandbox.api();
    api.params("sph-particles", patch);
    api.wind({ speed: 30, direction: 0, vertical: 0, turbulence: 0, gust: 0 });
    await api.use("sph-particles");
    api.step(360);
    return api.stats().counts;
  } finally {
    sandbox.dispose();
    engine.dispose();
  }
}

describe("sph-particles: what calibration runs it with", () => {
  const provider = createRegistry().get("sph-particles");
  it("declares the strongest wood and leaves", () => {
    expect(provider.calibrationParams).toEqual({ woodStrength: sphParticlesParams.woodStrength.max, leafHold: sphParticlesParams.leafHold.max });
  });
  it("a 30 m/s steady wind breaks the demo tree at the default limits and nothing at the calibration's", async () => {
    const weak = await brokenAfterStorm({});
    const strong = await brokenAfterStorm(provider.calibrationParams as Record<string, number>);
    expect(weak.brokenLinks + weak.fallenLeaves).toBeGreaterThan(0);
    expect(strong.brokenLinks).toBe(0);
    expect(strong.fallenLeaves).toBe(0);
  }, 300_000);
});
