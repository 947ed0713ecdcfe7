/**
 * The mass-spring tree on a model as people export it: assets/models/megakit_commontree_1 (a
 * stylized 7.3 m tree read by the app's own loader and importer under NullEngine). Its skeleton
 * zigzags (segments of 4 cm folding back by up to 95° on the last) and three of its nodes inside
 * branches measure a radius of 0: the angular springs' pull through a frame twisted at a zigzag,
 * taken explicitly, blew the simulation up within three frames (tips 10 km away after 30), and the
 * zero radii made hinges whose floppy mode (ω₁ 0.03 rad/s) set the Rayleigh damping.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { importModel, type ImportedTree } from "../../../app/import/build";
import { tipNode, treeHeight } from "../../../app/tree/skeleton";
import { WindField } from "../../../app/wind/wind-field";
import { MassSpringSystem } from "../../../app/animators/mass-spring/system";
import { ImplicitEuler } from "../../../app/animators/mass-spring/implicit";
import { WindLoad } from "../../../app/animators/mass-spring/wind-load";
import { readModelFile } from "../../support/read-model";

let tree: ImportedTree;
beforeAll(async () => {
  const engine = new NullEngine();
  const scene = new Scene(engine);
  const loaded = await readModelFile("assets/models/megakit_commontree_1/CommonTree_1.gltf", scene);
  try {
    tree = await importModel(loaded.data);
  } finally {
    loaded.dispose();
    scene.dispose();
    engine.dispose();
  }
}, 60_000);

describe("mass-spring on an imported model (CommonTree_1)", () => {
  it("moves its tips a plausible amount in a 14 m/s gusty wind, stable at every frame", () => {
    const s = tree.skeleton, height = treeHeight(s);
    expect(height).toBeGreaterThan(7);
    const sys = new MassSpringSystem(s), solver = new ImplicitEuler(sys), load = new WindLoad(sys);
    const tips = Array.from({ length: s.branchCount }, (_, b) => sys.massOfNode[tipNode(s, b)]);
    const wind = new WindField({ speed: 14, gust: 0.4, seed: 1 });
    const dt = 1 / 60;
    let moved = 0;
    for (let f = 1; f <= 120; f++) {
      load.apply(wind, f * dt, 0, 0);
      solver.advance(dt);
      expect(sys.isFinite()).toBe(true);
      expect(sys.instability()).toBeNull();
      for (const m of tips) {
        moved = Math.max(moved, Math.hypot(sys.position[3 * m] - sys.rest[3 * m], sys.position[3 * m + 1] - sys.rest[3 * m + 1], sys.position[3 * m + 2] - sys.rest[3 * m + 2]));
      }
    }
    console.log(`CommonTree_1: ω₁ ${sys.firstOmega.toFixed(1)} rad/s, ${solver.substeps} substeps a frame, tips moved at most ${(1000 * moved).toFixed(1)} mm in 2 s; twist pull at ${Array.from(sys.twistShare).filter((x) => x < 1).length} springs cut`);
    // The stiff (9.8 Hz) tree's first mode, not a hinge's.
    expect(sys.firstOmega).toBeGreaterThan(10);
    // Thick wood (a 0.5 m trunk, 2-10 cm limbs): about a centimetre, not metres, and nothing like the tree's size.
    expect(moved).toBeGreaterThan(0.01);
    expect(moved).toBeLessThan(0.1 * height);
    expect(sys.maxStrain()).toBeLessThan(0.01);
  }, 120_000);

  it("says when a state is no tree's: a mass beyond the tree's reach, a segment torn", () => {
    const sys = new MassSpringSystem(tree.skeleton);
    expect(sys.instability()).toBeNull();
    const m = sys.count - 1;
    sys.position[3 * m] += 40;
    expect(sys.instability()).toMatch(new RegExp(`mass ${m} is 40\\.\\d m from its rest, beyond twice the tree's reach`));
    sys.reset();
    sys.position[3 * m + 1] += 3 * sys.restLength[m];
    expect(sys.instability()).toMatch(new RegExp(`segment ${m} is [34]\\.\\d+ times its rest length`));
  });
});
