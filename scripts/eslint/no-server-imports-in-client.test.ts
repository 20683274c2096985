import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// Lints in-memory sources at real paths of the project, with the project's own config.
const eslint = new ESLint({ cwd: process.cwd() });
async function problems(filePath: string, code: string): Promise<string[]> {
  const [res] = await eslint.lintText(code, { filePath });
  return res!.messages.filter((m) => m.ruleId === "boundaries/no-server-imports-in-client").map((m) => m.message);
}

describe("no-server-imports-in-client", () => {
  it("refuses server modules in components/", async () => {
    const msgs = await problems("components/x/probe.tsx", `import { db } from "@/lib/db/client";\nexport const a = db;\n`);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toContain("@/lib/db/client");
  });

  it("refuses them in app/ files marked \"use client\", including modules marked server-only", async () => {
    const code = `"use client";\nimport { getSessionUser } from "@/lib/auth/server";\nimport { checkHealth } from "@/lib/health";\nimport pg from "pg";\nexport const a = [getSessionUser, checkHealth, pg];\n`;
    expect(await problems("app/(app)/probe-client.tsx", code)).toHaveLength(3);
  });

  it("allows type-only imports, pure modules, and server components", async () => {
    expect(await problems("components/x/probe.tsx", `import type { Db } from "@/lib/db/client";\nimport { can } from "@/lib/auth/permissions";\nexport const a: Db | null = null; export const b = can;\n`)).toEqual([]);
    expect(await problems("app/(app)/probe-server.tsx", `import { db } from "@/lib/db/client";\nexport const a = db;\n`)).toEqual([]);
  });
});
