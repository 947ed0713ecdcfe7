/**
 * The render quality: light on a software renderer, full on a GPU, what the address asks for when
 * it asks for something there is, and the shadow maps of every view made at the chosen size.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { createRegistry } from "../../app/animators/registry";
import { chooseQuality, isSoftwareRenderer, rendererName, searchWithQuality } from "../../app/sandbox/render-quality";
import { Sandbox } from "../../app/sandbox/sandbox";

// What Chromium reports on SwiftShader (this project's CI), Mesa's llvmpipe, and two GPUs.
const SWIFTSHADER = "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)";
const LLVMPIPE = "llvmpipe (LLVM 15.0.6, 256 bits)";
const NVIDIA = "ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002503) Direct3D11 vs_5_0 ps_5_0, D3D11)";
const APPLE = "Apple M2";

describe("render quality", () => {
  it("tells software renderers from GPUs by the renderer's name", () => {
    expect([SWIFTSHADER, LLVMPIPE, "Microsoft Basic Render Driver"].map(isSoftwareRenderer)).toEqual([true, true, true]);
    expect([NVIDIA, APPLE, ""].map(isSoftwareRenderer)).toEqual([false, false, false]);
    expect([SWIFTSHADER, LLVMPIPE, NVIDIA, APPLE].map(rendererName)).toEqual(["SwiftShader", "llvmpipe", "NVIDIA GeForce RTX 3060", "Apple M2"]);
  });

  it("auto: light (no antialiasing, 1024² shadows) on a software renderer, full (antialiased, 2048²) on a GPU", () => {
    const soft = chooseQuality("", SWIFTSHADER);
    expect(soft).toMatchObject({ level: "light", chosenBy: "auto", software: true, antialias: false, shadowMapSize: 1024, problem: null });
    const gpu = chooseQuality("?quality=auto", NVIDIA);
    expect(gpu).toMatchObject({ level: "full", chosenBy: "auto", software: false, antialias: true, shadowMapSize: 2048, problem: null });
  });

  it("the address's quality wins either way; a value that is none names itself and falls back to auto", () => {
    expect(chooseQuality("?model=a.glb&quality=full", SWIFTSHADER)).toMatchObject({ level: "full", chosenBy: "address", antialias: true });
    expect(chooseQuality("?quality=light", APPLE)).toMatchObject({ level: "light", chosenBy: "address", shadowMapSize: 1024 });
    const bad = chooseQuality("?quality=ultra", SWIFTSHADER);
    expect(bad).toMatchObject({ level: "light", chosenBy: "auto" });
    expect(bad.problem).toMatch(/quality 'ultra' is not one of full, light, auto; using auto \(light/);
  });

  it("a change of quality keeps the address's other fields", () => {
    expect(searchWithQuality("?model=pine.glb", "full")).toBe("?model=pine.glb&quality=full");
    expect(searchWithQuality("?quality=full&model=pine.glb", "light")).toBe("?quality=light&model=pine.glb");
    expect(searchWithQuality("?quality=full", "auto")).toBe("");
  });

  it("every view's shadow map is made at the quality's size, and the API reports the quality", async () => {
    const engine = new NullEngine();
    const sandbox = new Sandbox(engine, null, createRegistry(), { quality: chooseQuality("", SWIFTSHADER) });
    try {
      await sandbox.start("#tree=demo&method=rest", "", { renderLoop: false });
      const api = sandbox.api();
      await api.use(["rest", "rest"]);
      const sizes = sandbox.stages.list.map((s) => s.shadows.getShadowMap()!.getSize().width);
      expect(sizes).toEqual([1024, 1024]);
      expect(api.renderQuality()).toMatchObject({ level: "light", shadowMapSize: 1024, renderer: SWIFTSHADER });
    } finally {
      sandbox.dispose();
      engine.dispose();
    }
  });

  it("with no quality given (tests, the off-screen sandbox) the shadow maps are full size", async () => {
    const engine = new NullEngine();
    const sandbox = new Sandbox(engine, null, createRegistry());
    try {
      await sandbox.start("#tree=demo&method=rest", "", { renderLoop: false });
      expect(sandbox.stages.list[0].shadows.getShadowMap()!.getSize().width).toBe(2048);
    } finally {
      sandbox.dispose();
      engine.dispose();
    }
  });
});
