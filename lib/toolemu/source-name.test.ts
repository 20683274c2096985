import { describe, expect, it } from "vitest";
import { storedSourceName } from "./apply";

describe("stored source names", () => {
  it("are never absolute server paths: relative to the working directory, else the file with its folder", () => {
    expect(storedSourceName("data/x.jsonl", "/srv/app")).toBe("data/x.jsonl");
    expect(storedSourceName("/srv/app/prisma/seed-data/trajectories/a.jsonl", "/srv/app")).toBe("prisma/seed-data/trajectories/a.jsonl");
    expect(storedSourceName("/mnt/exports/run-7/a_eval_agent_safe.jsonl", "/srv/app")).toBe("run-7/a_eval_agent_safe.jsonl");
  });
});
