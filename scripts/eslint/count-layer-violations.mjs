// Counts imports against the layer order over the whole tree, with the lint rule alone
// (so it works before the rule is switched on in eslint.config.js).
// Usage: node scripts/eslint/count-layer-violations.mjs [--by-unit]
import { ESLint } from "eslint";
import tsParser from "@typescript-eslint/parser";
import { readFileSync } from "node:fs";
import path from "node:path";
import layerOrder from "./layer-order.js";
import { resolveSpecifier, unitOf } from "./layers.js";

const root = process.cwd();
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [
    { ignores: [".next/**", "node_modules/**", ".data/**", ".data-e2e/**", "lib/db/generated/**", "test-results/**", "playwright-report/**"] },
    {
      files: ["**/*.{ts,tsx,js,mjs,cjs,mts}"],
      languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } },
      plugins: { boundaries: { rules: { "layer-order": layerOrder } } },
      rules: { "boundaries/layer-order": "error" },
      linterOptions: { reportUnusedDisableDirectives: "off" },
    },
  ],
});

const results = await eslint.lintFiles(["app", "components", "lib", "scripts", "e2e", "*.ts"]);
const lines = [];
const byPair = new Map();
for (const r of results) {
  const rel = path.relative(root, r.filePath).split(path.sep).join("/");
  if (!r.messages.length) continue;
  let source = r.source ?? "";
  try {
    source ||= readFileSync(r.filePath, "utf8");
  } catch {
    // moved away while we linted
  }
  const srcLines = source.split("\n");
  for (const m of r.messages) {
    if (m.ruleId !== "boundaries/layer-order") {
      if (m.fatal) lines.push(`${rel}:${m.line} PARSE ERROR ${m.message}`);
      continue;
    }
    const spec = /["']([^"']+)["']/.exec(srcLines[m.line - 1] ?? "")?.[1] ?? "?";
    const toRel = resolveSpecifier(spec, r.filePath, root);
    const pair = `${unitOf(rel)} -> ${toRel ? unitOf(toRel) : spec}`;
    byPair.set(pair, (byPair.get(pair) ?? 0) + 1);
    lines.push(`${rel}:${m.line}  ${spec}  — ${m.message.split(" — layer order:")[0]}`);
  }
}
const count = lines.filter((l) => !l.includes("PARSE ERROR")).length;
console.log(`backward imports: ${count}`);
for (const [pair, n] of [...byPair].sort((a, b) => b[1] - a[1])) console.log(`  ${n}\t${pair}`);
console.log("");
for (const l of lines.sort()) console.log(l);
process.exitCode = count > 0 ? 1 : 0;
