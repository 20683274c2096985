import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import noServerImportsInClient from "./scripts/eslint/no-server-imports-in-client.js";
import layerOrder from "./scripts/eslint/layer-order.js";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", ".data/**", "lib/db/generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    plugins: { boundaries: { rules: { "no-server-imports-in-client": noServerImportsInClient, "layer-order": layerOrder } } },
    rules: {
      "boundaries/no-server-imports-in-client": "error",
      "boundaries/layer-order": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];

export default config;
