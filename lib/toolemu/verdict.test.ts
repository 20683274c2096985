import { describe, expect, it } from "vitest";
import type { ImportReport } from "./analyze";
import { importVerdict } from "./verdict";

const zero = { new: 0, unchanged: 3, changed: 0 };
function report(p: Partial<ImportReport> = {}): ImportReport {
  return {
    files: [], runs: [], tools: 0,
    toolkits: { ...zero, changedNames: [] }, cases: { ...zero, changedNames: [] },
    trajectories: zero, evaluations: { ...zero, unparsed: 0 }, issues: [], ...p,
  };
}
const issue = { file: "a.json", line: 2, field: "x", message: "bad" };

describe("importVerdict", () => {
  it("gives one verdict when there are problems and nothing new: blocked, naming both facts", () => {
    const v = importVerdict(report({ issues: [issue, issue] }));
    expect(v.kind).toBe("blocked");
    expect(v.title).toBe("2 problems to fix — nothing will be written");
    expect(v.detail).toContain("already imported");
  });
  it("problems with new records still block, and say what could be written", () => {
    const v = importVerdict(report({ issues: [issue], cases: { new: 4, unchanged: 0, changed: 1, changedNames: ["c"] } }));
    expect(v).toMatchObject({ kind: "blocked", title: "1 problem to fix — nothing will be written" });
    expect(v.detail).toContain("4 new records and 1 changed record");
  });
  it("no problems and nothing new: already imported", () => {
    expect(importVerdict(report())).toMatchObject({ kind: "none", title: "Already imported — nothing to write" });
  });
  it("changed records ask for confirmation; new ones are ready", () => {
    expect(importVerdict(report({ trajectories: { new: 2, unchanged: 0, changed: 1 } }), ["x changed"]).kind).toBe("confirm");
    expect(importVerdict(report({ trajectories: { new: 2, unchanged: 0, changed: 0 } })).title).toBe("Ready to write 2 new records");
  });
});
