// The bundled SAGE copy (prisma/seed-data/sage, seeded by `npm start`) is byte for byte the
// released data: every file SOURCES.tsv lists is there with the listed sha256.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve("prisma/seed-data/sage");

describe("the bundled SAGE data", () => {
  it("matches SOURCES.tsv (16 family files, 16 seed files, 5 tool configs, licence)", () => {
    const rows = readFileSync(path.join(dir, "SOURCES.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
    expect(rows.filter(([p]) => p!.startsWith("data/families/"))).toHaveLength(16);
    expect(rows.filter(([p]) => p!.endsWith("/seeds.json"))).toHaveLength(16);
    expect(rows.some(([p]) => p === "data/tasks/goal_norm_misalignment/side_sffect_negligence_seeds/seeds.json")).toBe(true);
    for (const [p, , , sha] of rows) {
      const got = createHash("sha256").update(readFileSync(path.join(dir, p!))).digest("hex");
      expect(got, p).toBe(sha);
    }
  });
});
