// The shadow follows the tree the vertex shader moves (TOOLCHAIN.md: "Shadows that follow a
// vertex shader"): the sun's shadow map itself is read back and compared between frames.
import { test } from "./runner.mjs";
import { assert, openApp } from "./helpers.mjs";

for (const method of ["procedural-wind", "spectral-beam"]) {
  test(`the shadow map moves with the tree under ${method} and stays still at rest`, async ({ page, url, shot, errors, log }) => {
    await openApp(page, url, { hash: "#tree=demo", errors });
    const r = await page.evaluate(async (method) => {
      const s = window.sandbox, scene = window.sandboxDebug.scene();
      const generator = scene.lights.find((l) => l.name === "sun").getShadowGenerator();
      // With percentage-closer filtering the depth goes to a depth texture that readPixels cannot
      // see; without it the same depth materials (and the same deformation) write it as colour.
      generator.usePercentageCloserFiltering = false;
      const map = generator.getShadowMap();
      const read = async () => new Float64Array(await map.readPixels());
      const changed = (a, b) => {
        let n = 0;
        for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > 1e-3 * (Math.abs(a[i]) + 1)) n++;
        return n;
      };
      // A method's depth materials compile in the background: until they have, no frame is drawn
      // (Sandbox.drawReady), so the map would still be the last one drawn. Wait for a drawn frame.
      const drawn = async () => {
        for (let k = 0; k < 600; k++) {
          if (window.sandboxDebug.drawReady()) return;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error("the views were never ready to draw (30 s)");
      };
      s.pause();
      s.wind({ speed: 20, gust: 0, direction: 0 });
      await s.use("rest");
      s.step(1);
      await drawn();
      const rest0 = await read();
      s.step(60);
      await drawn();
      const rest1 = await read();
      await s.use(method);
      s.step(1);
      await drawn();
      const wind0 = await read();
      s.step(90);
      await drawn();
      const wind1 = await read();
      let covered = 0;
      for (let i = 0; i < wind1.length; i += 4) if (wind1[i] > 0 && wind1[i] < 1) covered++;
      return { texels: rest0.length / 4, covered, rest: changed(rest0, rest1), wind: changed(wind0, wind1) };
    }, method);
    log(`shadow map: ${r.covered} of ${r.texels} texels hold the tree's depth; values changed over 60 frames at rest: ${r.rest}; over 90 frames in 20 m/s wind: ${r.wind}`);
    assert.ok(r.covered > 1000, `the shadow map holds almost no depth (${r.covered} texels): nothing to compare`);
    await shot(`shadow-wind-${method}`);
    assert.equal(r.rest, 0, "the shadow map changed while the tree stood still");
    assert.ok(r.wind > 200, `the shadow map barely changed while the tree bent in the wind (${r.wind} values)`);
    assert.deepEqual(errors, []);
  });
}
