/** @type {import('jest').Config} */
const transform = { "^.+\\.lsys$": "<rootDir>/spec/support/text-transform.js", "^.+\\.(t|j)sx?$": ["@swc/jest", { jsc: { target: "es2020", parser: { syntax: "typescript" } } }] };
module.exports = {
  projects: [
    {
      displayName: "unit",
      testEnvironment: "node",
      roots: ["<rootDir>/spec"],
      testMatch: ["**/*.spec.ts"],
      testPathIgnorePatterns: ["/spec/e2e/", "/spec/bench/"],
      transform,
      transformIgnorePatterns: ["/node_modules/(?!(@babylonjs|babylonjs-gltf2interface)/)"],
      moduleFileExtensions: ["ts", "js", "json", "lsys"],
    },
    {
      displayName: "bench",
      testEnvironment: "node",
      roots: ["<rootDir>/spec/bench"],
      testMatch: ["**/*.bench.ts"],
      transform,
      transformIgnorePatterns: ["/node_modules/(?!(@babylonjs|babylonjs-gltf2interface)/)"],
      moduleFileExtensions: ["ts", "js", "json", "lsys"],
    },
  ],
};
