import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import noServerImportsInClient from "./scripts/eslint/no-server-imports-in-client.js";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", ".data/**", "lib/db/generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    plugins: { boundaries: { rules: { "no-server-imports-in-client": noServerImportsInClient } } },
    rules: {
      "boundaries/no-server-imports-in-client": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];

export default config;
