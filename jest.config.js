/** @type {import('jest').Config} */
const transform = { "^.+\\.lsys$": "<rootDir>/spec/support/text-transform.js", "^.+\\.(t|j)sx?$": ["@swc/jest", { jsc: { target: "es2020", parser: { syntax: "typescript" } } }] };
module.exports = {
  // Every core: jest's default (cores - 1) runs the unit suite on one worker on a 2-core machine,
  // where it then takes twice as long. Nothing else runs beside it in `npm test`.
  maxWorkers: "100%",
  projects: [
    {
      displayName: "unit",
      testEnvironment: "node",
      roots: ["<rootDir>/spec"],
      testMatch: ["**/*.spec.ts"],
      testPathIgnorePatterns: ["/spec/e2e/", "/spec/bench/"],
      transform,
      transformIgnorePatterns: ["/node_modules/(?!(@babylonjs|babylonjs-gltf2interface|delaunator|robust-predicates)/)"],
      moduleFileExtensions: ["ts", "js", "json", "lsys"],
    },
    {
      displayName: "bench",
      testEnvironment: "node",
      roots: ["<rootDir>/spec/bench"],
      testMatch: ["**/*.bench.ts"],
      transform,
      transformIgnorePatterns: ["/node_modules/(?!(@babylonjs|babylonjs-gltf2interface|delaunator|robust-predicates)/)"],
      moduleFileExtensions: ["ts", "js", "json", "lsys"],
    },
    {
      // npm run samples: rewrites assets/models/own_* (spec/tree/write-samples.task.ts). Only that
      // script sets the variable: a plain `npx jest` or `npm test` never writes them.
      displayName: "samples",
      testEnvironment: "node",
      roots: ["<rootDir>/spec"],
      testMatch: process.env.TREE_WIND_WRITE_SAMPLES === "1" ? ["**/*.task.ts"] : ["**/*.task.never"],
      transform,
      transformIgnorePatterns: ["/node_modules/(?!(@babylonjs|babylonjs-gltf2interface|delaunator|robust-predicates)/)"],
      moduleFileExtensions: ["ts", "js", "json", "lsys"],
    },
    {
      // npm run calibrate: every method beside the reference on the shipped trees, printed as tables
      // (spec/calibrate/*.calibrate.ts). Only that script sets the variable.
      displayName: "calibrate",
      testEnvironment: "node",
      roots: ["<rootDir>/spec"],
      testMatch: process.env.TREE_WIND_CALIBRATE === "1" ? ["**/*.calibrate.ts"] : ["**/*.calibrate.never"],
      transform,
      transformIgnorePatterns: ["/node_modules/(?!(@babylonjs|babylonjs-gltf2interface|delaunator|robust-predicates)/)"],
      moduleFileExtensions: ["ts", "js", "json", "lsys"],
    },
  ],
};
