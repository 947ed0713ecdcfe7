// npm run samples: rewrites assets/models/own_* from the generator (spec/support/samples.ts) after a
// deliberate change to the trees, textures or writer. Not a test: `npm test` only compares them.
import { writeSamples } from "../support/samples";

it("writes the sample models", () => {
  for (const path of writeSamples()) process.stdout.write(`wrote ${path}\n`);
});
