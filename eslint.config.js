// Lint gate: typescript-eslint's recommended rules, zero warnings allowed (see `npm run lint`).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", setTimeout: "readonly", clearTimeout: "readonly", Buffer: "readonly", URL: "readonly", setInterval: "readonly", clearInterval: "readonly", TextDecoder: "readonly", TextEncoder: "readonly", AbortController: "readonly", AbortSignal: "readonly", performance: "readonly", structuredClone: "readonly", queueMicrotask: "readonly", setImmediate: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-control-regex": "off",
    },
  },
);
