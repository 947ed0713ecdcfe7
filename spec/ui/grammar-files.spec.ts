import { readGrammarFile, MAX_GRAMMAR_BYTES } from "../../app/ui/grammar-files";
import { horizontalWind } from "../../app/ui/sections/wind-section";

/** A File-like object for readGrammarFile (node has no File before 20 in every setup). */
function file(name: string, content: string | Uint8Array, type = "", size?: number) {
  const text = typeof content === "string" ? content : new TextDecoder().decode(content);
  return { name, type, size: size ?? (typeof content === "string" ? content.length : content.length), text: async () => text };
}

describe("grammar files (readGrammarFile)", () => {
  it("reads .lsys, .txt and text/* files as grammars", async () => {
    expect(await readGrammarFile(file("oak.lsys", "axiom: F"))).toEqual({ text: "axiom: F" });
    expect(await readGrammarFile(file("OAK.TXT", "axiom: F"))).toEqual({ text: "axiom: F" });
    expect(await readGrammarFile(file("oak.grammar", "axiom: F", "text/plain"))).toEqual({ text: "axiom: F" });
  });

  it("reads a file of another name when its content is text, and refuses it when it is not", async () => {
    expect(await readGrammarFile(file("README", "axiom: F"))).toEqual({ text: "axiom: F" });
    const binary = await readGrammarFile(file("tree.dat", new Uint8Array([0, 1, 2, 0xff, 0xfe])));
    expect(binary).toEqual({ refusal: "tree.dat is not a grammar (not text). Drop a .lsys grammar, or a tree model (.glb, .gltf or .obj with its companions)." });
  });

  it("refuses models (they go to model import) and images as grammars", async () => {
    for (const name of ["tree.glb", "tree.GLTF", "tree.obj", "tree.fbx", "tree.bin"]) {
      expect(await readGrammarFile(file(name, "glTF"))).toEqual({ refusal: `${name} is a model file: load it with the model's companions through loadTree({ files })` });
    }
    expect(await readGrammarFile(file("photo.png", "\u0089PNG", "image/png"))).toEqual({ refusal: "photo.png is not a grammar. Drop a .lsys grammar, or a tree model (.glb, .gltf or .obj with its companions)." });
  });

  it("refuses a file too large to be a grammar without reading it", async () => {
    const big = { name: "huge.lsys", type: "", size: MAX_GRAMMAR_BYTES + 1, text: () => Promise.reject(new Error("read")) };
    expect(await readGrammarFile(big)).toEqual({ refusal: expect.stringMatching(/^huge\.lsys is 16 MB; a grammar file may have at most 16 MB$/) });
  });
});

describe("the panel's wind x and z (horizontalWind, Barron 2006 §6.1)", () => {
  it("turns x and z into speed and direction (0 toward +x, 90 toward +z, 0 to 360)", () => {
    expect(horizontalWind(6, 0, "x", 45)).toEqual({ speed: 6, direction: 0 });
    const w = horizontalWind(0, 5, "z", 0);
    expect(w.speed).toBeCloseTo(5, 12);
    expect(w.direction).toBe(90);
    expect(horizontalWind(-20, 0, "x", 0).direction).toBe(180);
    expect(horizontalWind(0, -3, "z", 0).direction).toBe(270);
    const d = horizontalWind(-20, 20, "z", 0);
    expect(d.speed).toBeCloseTo(Math.hypot(20, 20), 12);
    expect(d.direction).toBe(135);
  });

  it("keeps the direction when there is no horizontal wind", () => {
    expect(horizontalWind(0, 0, "x", 135)).toEqual({ speed: 0, direction: 135 });
  });

  it("past 40 m/s limits the component being edited and keeps the other", () => {
    const w = horizontalWind(40, 30, "x", 0);
    expect(w.speed).toBeCloseTo(40, 9);
    const a = (w.direction * Math.PI) / 180;
    expect(w.speed * Math.sin(a)).toBeCloseTo(30, 5);
    const v = horizontalWind(-10, -40, "z", 0);
    expect(v.speed).toBeCloseTo(40, 9);
    expect(v.speed * Math.cos((v.direction * Math.PI) / 180)).toBeCloseTo(-10, 5);
  });
});
