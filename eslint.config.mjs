import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "spec/e2e/out/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { window: "readonly", document: "readonly", console: "readonly", process: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", performance: "readonly", requestAnimationFrame: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": ["error", { selector: "ExportDefaultDeclaration", message: "No default exports (STYLE.md)." }],
    },
  },
  {
    // Physics and math stay free of globals for time and randomness (ARCHITECTURE.md: Time and randomness).
    files: ["app/math/**", "app/wind/**", "app/tree/**", "app/lsystem/**", "app/animators/**"],
    rules: {
      "no-restricted-properties": ["error",
        { object: "Math", property: "random", message: "Use the seeded RNG from app/math/rng.ts." },
        { object: "performance", property: "now", message: "Take time from the host's fixed-step clock." },
        { object: "Date", property: "now", message: "Take time from the host's fixed-step clock." }],
    },
  },
  {
    files: ["app/math/**", "app/wind/**", "app/lsystem/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["@babylonjs/*"], message: "Physics and math import nothing from Babylon." }] }] },
  },
  {
    files: ["scripts/**/*.mjs", "*.js", "spec/e2e/**", "spec/bench/**", "spec/support/**"],
    languageOptions: { globals: { require: "readonly", module: "writable", __dirname: "readonly", Buffer: "readonly", setInterval: "readonly", clearInterval: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
