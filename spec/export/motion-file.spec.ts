/**
 * Telling a motion file from a tree model by its GLB JSON alone: a skinned animation and, for the
 * sandbox's exports, its mark; anything else (not a GLB, cut short, no animation, no skin) is not.
 */
import { glbMotion, SANDBOX_SOURCE } from "../../app/export/motion-file";

/** A GLB of this JSON and no binary chunk. */
function glb(json: unknown, cut = 0): Uint8Array {
  let text = JSON.stringify(json);
  while (text.length % 4) text += " ";
  const body = new TextEncoder().encode(text);
  const out = new Uint8Array(20 + body.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x46546c67, true); // "glTF"
  v.setUint32(4, 2, true);
  v.setUint32(8, out.length, true);
  v.setUint32(12, body.length, true);
  v.setUint32(16, 0x4e4f534a, true); // "JSON"
  out.set(body, 20);
  return cut ? out.subarray(0, out.length - cut) : out;
}

describe("glbMotion", () => {
  const skinned = { asset: { version: "2.0" }, skins: [{ joints: [0] }], animations: [{ name: "wind", channels: [], samplers: [] }] };

  it("reads the clip and the sandbox's mark", () => {
    expect(glbMotion(glb({ ...skinned, extras: { source: SANDBOX_SOURCE, method: "mass-spring" } }))).toEqual({ clip: "wind", source: SANDBOX_SOURCE, method: "mass-spring" });
    expect(glbMotion(glb(skinned))).toEqual({ clip: "wind", source: null, method: null });
  });

  it("is null for a tree model, a file cut short and what is no GLB", () => {
    expect(glbMotion(glb({ asset: { version: "2.0" }, meshes: [] }))).toBeNull();
    expect(glbMotion(glb({ ...skinned, skins: [] }))).toBeNull();
    expect(glbMotion(glb({ ...skinned, animations: [] }))).toBeNull();
    expect(glbMotion(glb(skinned, 8))).toBeNull();
    expect(glbMotion(new TextEncoder().encode("v 0 0 0\nf 1 1 1\n"))).toBeNull();
    const bad = glb(skinned);
    bad[20] = 0x7b + 1; // the JSON no longer parses
    expect(glbMotion(bad)).toBeNull();
  });
});
