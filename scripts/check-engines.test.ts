// The dependency engine check: it catches a dependency needing a newer Node than we promise,
// and the installed tree passes it.
import { describe, expect, it } from "vitest";
import { checkEngines, engineProblems, promisedVersions, readmeNodeRange } from "./lib/engines";

describe("dependency engines", () => {
  it("reads the README's Node version and the versions it stands for", () => {
    expect(readmeNodeRange("Needs Node.js ≥ 20.19 and npm.")).toBe(">=20.19");
    expect(readmeNodeRange("no version here")).toBeNull();
    expect(promisedVersions(">=20.19")).toEqual(["20.19.0", "20.999.0", "22.999.0", "24.999.0", "26.999.0"]);
  });

  it("flags a dependency that needs a newer Node than we support, accepts ranges that skip odd lines", () => {
    const problems = engineProblems(">=20.19", [
      { name: "openai", version: "7.59.0", engines: { node: ">=22.0.0" } },
      { name: "old-line-only", version: "1.0.0", engines: { node: "^20.19 || ^22" } },
      { name: "newer-20", version: "1.0.0", engines: { node: "^20.20 || >=22" } },
      { name: "prisma-like", version: "1.0.0", engines: { node: "^20.19 || ^22.12 || >=24.0" } },
      { name: "fine", version: "1.0.0", engines: { node: ">=18" } },
      { name: "none", version: "1.0.0" },
      { name: "bun-only", version: "1.0.0", engines: { bun: ">=1" } },
    ]);
    expect(problems).toEqual([
      { dependency: "openai", version: "7.59.0", requires: ">=22.0.0", refuses: "20.19.0" },
      { dependency: "old-line-only", version: "1.0.0", requires: "^20.19 || ^22", refuses: "24.999.0" },
      { dependency: "newer-20", version: "1.0.0", requires: "^20.20 || >=22", refuses: "20.19.0" },
    ]);
  });

  it("every installed direct dependency accepts the README's Node version", () => {
    const { supported, checked, problems } = checkEngines(process.cwd());
    expect(supported).toBe(">=20.19");
    expect(checked).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
