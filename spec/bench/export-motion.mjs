// export.motion.habel.s and export.motion.habel.mb: exportMotion() of the Habel-scale tree under
// spectral-beam in a gale, 10 s at 30 fps (301 keys per bone, one bone per skeleton node): wall
// seconds to bake (step the clock 600 times, pose every bone at each key) and write the GLB
// (@babylonjs/serializers, textures encoded, then the clip), and the file's size. Fails when the
// file does not hold the keys asked for.
import { openApp } from "../e2e/helpers.mjs";

export async function runExportBench(page, url, { seconds = 10, fps = 30, tree = "habel", print = (line) => process.stdout.write(line + "\n"), progress = () => {} } = {}) {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await openApp(page, url, { errors, timeout: 120_000 });
  progress(`exporting ${seconds} s at ${fps} fps of tree ${tree} as a glTF`);
  const r = await page.evaluate(async ({ seconds, fps, tree }) => {
    const s = window.sandbox;
    s.pause();
    if (window.sandboxDebug.tree().name !== tree) await s.loadTree({ preset: tree });
    await s.use("spectral-beam");
    s.windPreset("gale");
    s.step(1);
    const t0 = performance.now();
    const { file, ...v } = await s.exportMotion({ seconds, fps, format: "glb" });
    return { ...v, wallS: (performance.now() - t0) / 1000, size: file.size };
  }, { seconds, fps, tree });
  if (r.frames !== Math.round(seconds * fps) + 1 || r.size !== r.bytes) throw new Error(`export bench: ${r.frames} keys and ${r.size} bytes, expected ${Math.round(seconds * fps) + 1} keys`);
  const common = { seconds, fps, frames: r.frames, bones: r.bones, method: r.method, tree };
  const lines = [
    { bench: `export.motion.${tree}.s`, value: Math.round(r.wallS * 100) / 100, unit: "s", ...common },
    { bench: `export.motion.${tree}.mb`, value: Math.round((r.bytes / 1048576) * 10) / 10, unit: "MB", bytes: r.bytes, ...common },
  ];
  for (const l of lines) print(JSON.stringify(l));
  if (errors.length) throw new Error(`the page reported: ${errors.join("; ")}`);
  return lines;
}
