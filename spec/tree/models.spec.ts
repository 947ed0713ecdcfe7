// Branch hierarchies of real models made by other people (assets/models/, CC0, see its
// SOURCES.md): wood in separate intersecting tubes that share no vertices, one in an OBJ whose
// vertex list is shared with the leaves. The up axis is found from the trunk, and the branch
// hierarchy from the wood: one branch per piece, every branch hung on one that holds it.
import { join } from "node:path";
import { bindVertices, upFromWood } from "../../app/tree/extract";
import { extractFromParts } from "../../app/tree/extract/parts";
import { normaliseModel } from "../../app/tree/normalise";
import { readGltf, readObj, type ModelPiece } from "../support/model-files";

const models = join(__dirname, "../../assets/models");
const samples: { name: string; read: () => ModelPiece[]; pieces: number; height: number }[] = [
  { name: "TwistedTree_1.obj", read: () => readObj(join(models, "megakit_twistedtree_1_obj/TwistedTree_1.obj")), pieces: 42, height: 16.7 },
  { name: "DeadTree_1.gltf", read: () => readGltf(join(models, "megakit_deadtree_1/DeadTree_1.gltf")), pieces: 48, height: 9.5 },
];

describe("real tree models", () => {
  for (const s of samples) {
    it(`${s.name}: Y-up found from its trunk; ${s.pieces} pieces of wood become a hierarchy; every vertex bound`, () => {
      const wood = s.read().find((p) => /bark/i.test(p.material))!;
      // Written Z-up, the trunk still says which way is up.
      const zUp = new Float32Array(wood.positions.length);
      for (let i = 0; i < zUp.length; i += 3) zUp.set([wood.positions[i], -wood.positions[i + 2], wood.positions[i + 1]], i);
      expect(upFromWood(wood)?.up).toBe("+y");
      expect(upFromWood({ positions: zUp, indices: wood.indices })?.up).toBe("+z");
      const n = normaliseModel(wood.positions, wood.indices, { wood });
      expect(n.up).toBe("+y");
      expect(n.scale).toBe(1);
      expect(n.height).toBeCloseTo(s.height, 0);
      const ex = extractFromParts({ positions: n.positions, indices: wood.indices });
      const sk = ex.skeleton;
      expect(ex.parts).toBe(s.pieces);
      expect(sk.branchCount).toBe(s.pieces);
      expect(sk.levels).toBeGreaterThanOrEqual(3);
      // The trunk is the longest piece and stands on the ground.
      for (let b = 1; b < sk.branchCount; b++) {
        expect(sk.branchLength[b]).toBeLessThan(sk.branchLength[0]);
        expect(sk.branchParent[b]).toBeGreaterThanOrEqual(0);
      }
      expect(sk.nodePosition[3 * sk.branchFirstNode[0] + 1]).toBeLessThan(0.5);
      const bind = bindVertices(sk, n.positions, ex.vertexBranch);
      let bound = 0;
      for (let i = 0; i < bind.branchIndex.length; i++) {
        if (bind.branchIndex[i] < 0) continue;
        bound++;
        for (let c = 0; c < 4; c++) expect(Number.isFinite(bind.wVector[4 * i + c])).toBe(true);
      }
      // The OBJ's vertex list also holds the leaves' vertices, which the wood leaves unbound.
      expect(bound).toBeGreaterThan(0.4 * bind.branchIndex.length);
      for (const x of sk.nodePosition) expect(Number.isFinite(x)).toBe(true);
    });
  }
});
