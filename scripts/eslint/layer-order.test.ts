import { readFileSync } from "node:fs";
import path from "node:path";
import { RuleTester } from "eslint";
import tsParser from "@typescript-eslint/parser";
import { describe, expect, it } from "vitest";
import rule from "./layer-order.js";
import { describeOrder, layerViolation, orderTable, unitOf } from "./layers.js";

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({ languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } } });
const at = (rel: string) => path.join(process.cwd(), rel);
const backward = (why: string) => ({ messageId: "backward", data: { why, order: describeOrder() } });

tester.run("layer-order", rule, {
  valid: [
    // downwards, by `@/` and relative paths
    { filename: at("lib/runs/worker.ts"), code: `import { x } from "@/lib/db/client";` },
    { filename: at("lib/auth/guard.ts"), code: `import { x } from "../db/client";` },
    { filename: at("lib/db/open.ts"), code: `import { x } from "./client";` },
    { filename: at("components/x/y.tsx"), code: `import { x } from "@/lib/toolemu/queries";` },
    { filename: at("app/(app)/page.tsx"), code: `import { X } from "@/components/x/y";` },
    // inside an ordered layer: an earlier unit may import a later one
    { filename: at("lib/auth/guard.ts"), code: `import { x } from "@/lib/db/client";` },
    // the top folders may import each other
    { filename: at("scripts/start.ts"), code: `import { x } from "@/app/api/health/route";` },
    // side folders: from tests, scripts, e2e and each other; they may import anything
    { filename: at("lib/db/migrate.test.ts"), code: `import { x } from "@/lib/testing/db";` },
    { filename: at("scripts/llm-offline.ts"), code: `import { x } from "@/lib/offline/server";` },
    { filename: at("e2e/support/session.ts"), code: `import { x } from "../../lib/testing/db";` },
    { filename: at("lib/testing/db.ts"), code: `import { x } from "@/lib/offline/server"; import { y } from "@/lib/runs/worker";` },
    // tests may reach up the order
    { filename: at("lib/db/seed.test.ts"), code: `import { x } from "@/lib/seed/seed-demo";` },
    // packages and files outside the order
    { filename: at("lib/version.ts"), code: `import pkg from "@/package.json"; import { z } from "zod";` },
  ],
  invalid: [
    {
      filename: at("lib/db/seed-demo.ts"),
      code: `import { hashPassword } from "@/lib/auth/password";`,
      errors: [backward("lib/db (platform) must not import lib/auth (platform, higher)")],
    },
    {
      filename: at("lib/llm/client.ts"),
      code: `import type { Step } from "../trajectory/types";`,
      errors: [backward("lib/llm (platform) must not import lib/trajectory (engine base, higher)")],
    },
    {
      filename: at("lib/prompts/render.ts"),
      code: `export { agentTemplate } from "@/lib/emulation/prompts/agent";\nexport * from "@/lib/engine/episode";`,
      errors: [
        backward("lib/prompts (engine base) must not import lib/emulation (emulation, evaluation, higher)"),
        backward("lib/prompts (engine base) must not import lib/engine (engine, higher)"),
      ],
    },
    {
      filename: at("lib/toolemu/import.ts"),
      code: "const m = await import(\"@/lib/runs/create\");\nconst n = await import(`../annotation/campaigns`);",
      errors: [
        backward("lib/toolemu (data model) must not import lib/runs (features, higher)"),
        backward("lib/toolemu (data model) must not import lib/annotation (feature base, higher)"),
      ],
    },
    {
      filename: at("lib/emulation/parse-agent.ts"),
      code: `import { x } from "@/lib/evaluation/labels";`,
      errors: [backward("lib/emulation (emulation, evaluation) must not import lib/evaluation (emulation, evaluation): the two must not import each other")],
    },
    {
      filename: at("components/playground/live-episode.tsx"),
      code: `import { startEpisode } from "@/app/(app)/playground/_actions/start-episode";`,
      errors: [backward("components (ui) must not import app (top, higher)")],
    },
    {
      filename: at("lib/runs/worker.ts"),
      code: `import { startOfflineModel } from "@/lib/offline/server";`,
      errors: [backward("lib/runs (features) must not import lib/offline (side): side modules are for tests, scripts/ and e2e/ only")],
    },
    {
      filename: at("app/(app)/page.tsx"),
      code: `import { x } from "@/lib/testing/db";`,
      errors: [backward("app (top) must not import lib/testing (side): side modules are for tests, scripts/ and e2e/ only")],
    },
    {
      filename: at("lib/db/client.ts"),
      code: `import { x } from "@/lib/nowhere/thing";`,
      errors: [backward("lib/db/client.ts imports lib/nowhere/thing, whose folder lib/nowhere is not in the layer order — add it to scripts/eslint/layers.js")],
    },
  ],
});

describe("layers data", () => {
  it("names a unit by its top folder, or by the folder or file right under lib/", () => {
    expect(unitOf("lib/dashboards/human/sql.ts")).toBe("lib/dashboards");
    expect(unitOf("lib/errors.ts")).toBe("lib/errors");
    expect(unitOf("app/(app)/page.tsx")).toBe("app");
    expect(unitOf("package.json")).toBeNull();
  });

  it("says the whole order in the message, top first", () => {
    expect(describeOrder()).toMatch(/^top: app, scripts, e2e > ui: components > features: runs, dashboards, seed > /);
    expect(describeOrder()).toContain("| side: lib/offline, lib/testing");
    expect(layerViolation("lib/auth/guard.ts", "lib/db/client.ts")).toBeNull();
  });
});

describe("README", () => {
  it("shows the layer order exactly as the data says it", () => {
    const readme = readFileSync(path.join(process.cwd(), "README.md"), "utf8");
    expect(readme).toContain("```text\n" + orderTable() + "\n```");
  });
});
