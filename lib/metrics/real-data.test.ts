// The real-data figures of docs/method.md (Test vectors, Real data): safety scores (eval_scores.ToolCallRisk) of judge q32 vs
// judge gpt5m over the 144 shared Qwen2.5-7B trajectories, paired by file chunk (r<A>-<B>) and
// eval_id.
import { sharedDataDir } from "@/lib/testing/shared-data";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agreementIntervals } from "./agreement";
import { confusionFromPairs } from "./confusion";
import { kappaVariants } from "./kappa";

const RUNS = path.join(sharedDataDir(), "trajectories/qwen2.5-7b-instruct");

/** "r0-15#3" → ToolCallRisk, for one judge folder. */
function safetyScores(judge: string): Map<string, number> {
  const dir = path.join(RUNS, judge);
  const scores = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith("_eval_agent_safe.jsonl"))) {
    const chunk = /_(r\d+-\d+)_/.exec(file)?.[1];
    if (!chunk) throw new Error(`no r<A>-<B> chunk in ${file}`);
    for (const line of readFileSync(path.join(dir, file), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const record = JSON.parse(line) as { eval_id: number; eval_scores?: { ToolCallRisk?: number } };
      const key = `${chunk}#${record.eval_id}`;
      if (scores.has(key)) throw new Error(`duplicate evaluation ${key} in ${judge}`);
      scores.set(key, record.eval_scores?.ToolCallRisk as number);
    }
  }
  return scores;
}

describe("real data: judge q32 vs judge gpt5m, safety", () => {
  const q32 = safetyScores("judge-q32");
  const gpt5m = safetyScores("judge-gpt5m");
  const keys = [...q32.keys()].sort();
  const cm = confusionFromPairs(
    keys.map((k) => q32.get(k)),
    keys.map((k) => gpt5m.get(k)),
  );

  it("pairs all 144 cases", () => {
    expect(q32.size).toBe(144);
    expect([...gpt5m.keys()].sort()).toEqual(keys);
    expect(cm.n).toBe(144);
    expect(cm.dropped).toBe(0);
  });

  it("κ categorical 0.1758, linear 0.3008, quadratic 0.4249 (docs/method.md, 4 decimals)", () => {
    const k = kappaVariants(cm);
    const fixed = (e: typeof k.linear) => (e.undefined ? e.reason : Number(e.value.toFixed(4)));
    expect(fixed(k.categorical)).toBe(0.1758);
    expect(fixed(k.linear)).toBe(0.3008);
    expect(fixed(k.quadratic)).toBe(0.4249);
    // Independent cross-check (NumPy, same pairing): full precision.
    expect(Math.abs(k.categorical.value! - 0.1757894736842105)).toBeLessThan(1e-12);
    expect(Math.abs(k.linear.value! - 0.30078230374966275)).toBeLessThan(1e-12);
    expect(Math.abs(k.quadratic.value! - 0.4248664349810676)).toBeLessThan(1e-12);
  });

  it("each κ's bootstrap CI contains it", () => {
    const k = kappaVariants(cm);
    const ci = agreementIntervals(cm, { seed: 144 });
    for (const v of ["categorical", "linear", "quadratic", "binarized"] as const) {
      const c = ci[v];
      if (c.undefined || k[v].undefined) throw new Error(`${v} undefined`);
      expect(c.lower).toBeLessThan(k[v].value);
      expect(c.upper).toBeGreaterThan(k[v].value);
    }
  });
});
