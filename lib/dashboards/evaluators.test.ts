// Evaluator vs evaluator through the dashboard's own query functions: the shared ToolEmu data
// imported into a fresh database, both judges of the 144 Qwen2.5-7B trajectories, label-pair
// counts from SQL, κ from the counts. The real-data figures of docs/method.md
// (Test vectors, Real data) must come out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { DEFAULT_SEED, parseDashboardFilter } from "./filters";
import { compareEvaluators, evaluatorsCsv, loadEvaluatorsPanel } from "./evaluators";
import { loadAgentsPanel } from "./agents";
import { toCsv } from "./csv";

const Q32 = "Qwen/Qwen3-32B";
const GPT5M = "gpt-5-mini";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase({ seed: "all" });
  expect(t.imported?.written).toBeTruthy();
});

afterAll(async () => {
  await t?.cleanup();
});

const k4 = (e: { value?: number; undefined?: true }) => (e.undefined ? "undefined" : e.value!.toFixed(4));

describe("evaluator vs evaluator on the shared trajectories", () => {
  it("safety, judge q32 vs gpt5m: κ 0.1758 / 0.3008 / 0.4249 over 144 trajectories", async () => {
    const panel = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({ evaluator: Q32, evaluatorB: GPT5M, kind: "SAFETY" }));
    const c = panel.comparison!;
    expect(c).not.toBeNull();
    expect(c.summary.n).toBe(144);
    expect(k4(c.summary.kappa.categorical)).toBe("0.1758");
    expect(k4(c.summary.kappa.linear)).toBe("0.3008");
    expect(k4(c.summary.kappa.quadratic)).toBe("0.4249");
    // Every interval exists, holds its point estimate and uses the default seed.
    for (const v of ["categorical", "linear", "quadratic", "binarized"] as const) {
      const ci = c.intervals[v];
      if (ci.undefined) throw new Error(`CI of ${v} undefined: ${ci.reason}`);
      expect(ci.seed).toBe(DEFAULT_SEED);
      expect(ci.resamples).toBe(1000);
      expect(ci.lower).toBeLessThanOrEqual(c.summary.kappa[v].value!);
      expect(ci.upper).toBeGreaterThanOrEqual(c.summary.kappa[v].value!);
    }
  });

  it("defaults to the pair with most shared trajectories, and κ is symmetric in the pair", async () => {
    const panel = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({}));
    expect(panel.kind).toBe("SAFETY");
    expect(panel.pair).toMatchObject({ source: "default" });
    expect(new Set([panel.pair!.a, panel.pair!.b])).toEqual(new Set([Q32, GPT5M]));
    expect(k4(panel.comparison!.summary.kappa.linear)).toBe("0.3008");
    const swapped = await compareEvaluators(t.prisma, parseDashboardFilter({}), "SAFETY", GPT5M, Q32);
    expect(k4(swapped.summary.kappa.quadratic)).toBe("0.4249");
    expect(swapped.summary.meanBias.value).toBeCloseTo(-panel.comparison!.summary.meanBias.value! * (panel.pair!.a === Q32 ? 1 : -1), 12);
  });

  it("filters narrow the counts in SQL; a filter matching nothing gives n = 0 and undefined κ", async () => {
    const adversarial = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({ evaluator: Q32, evaluatorB: GPT5M, mode: "ADVERSARIAL" }));
    expect(adversarial.comparison!.summary.n).toBe(144);
    const terminal = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({ evaluator: Q32, evaluatorB: GPT5M, toolkit: "Terminal" }));
    expect(terminal.comparison!.summary.n).toBeGreaterThan(0);
    expect(terminal.comparison!.summary.n).toBeLessThan(144);
    const none = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({ evaluator: Q32, evaluatorB: GPT5M, mode: "STANDARD" }));
    expect(none.comparison!.summary.n).toBe(0);
    expect(none.comparison!.summary.kappa.categorical.undefined).toBe(true);
    expect(none.comparison!.intervals.categorical.undefined).toBe(true);
  });

  it("helpfulness compares the same pair on the helpfulness scores", async () => {
    const panel = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({ evaluator: Q32, evaluatorB: GPT5M, kind: "HELPFULNESS" }));
    expect(panel.kind).toBe("HELPFULNESS");
    expect(panel.comparison!.summary.n).toBeGreaterThan(0);
  });

  it("the same evaluator twice is refused with a reason", async () => {
    const panel = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({ evaluator: Q32, evaluatorB: Q32 }));
    expect(panel.comparison).toBeNull();
    expect(panel.reason).toMatch(/same model/);
  });

  it("the CSV carries the κ values with CIs and the 16 confusion counts", async () => {
    const rows = await evaluatorsCsv(t.prisma, parseDashboardFilter({ evaluator: Q32, evaluatorB: GPT5M }));
    const kappa = rows.find((r) => r.statistic === "kappa_linear")!;
    expect((kappa.value as number).toFixed(4)).toBe("0.3008");
    expect(typeof kappa.ci_lower).toBe("number");
    const cells = rows.filter((r) => r.section === "confusion");
    expect(cells).toHaveLength(16);
    expect(cells.reduce((a, r) => a + (r.value as number), 0)).toBe(144);
    const text = toCsv(rows);
    expect(text.split("\r\n")[0]).toMatch(/^section,statistic,kind,evaluator_a,evaluator_b/);
  });
});

describe("agent leaderboard on the shared trajectories", () => {
  it("per agent and mode: means and failure rate from SQL counts, with CIs and n", async () => {
    const panel = await loadAgentsPanel(t.prisma, parseDashboardFilter({ evaluator: Q32 }));
    expect(panel.evaluator).toBe(Q32);
    expect(panel.rows).toHaveLength(1);
    const row = panel.rows[0]!;
    expect(row.mode).toBe("ADVERSARIAL");
    expect(row.trajectories).toBe(144);
    expect(row.nSafety).toBeGreaterThan(0);
    expect(row.summary.failureRate.numerator).toBe(row.failures);
    expect(row.summary.failureRate.denominator).toBe(row.nSafety);
    const ci = row.intervals.meanSafety;
    if (ci.undefined) throw new Error(ci.reason);
    expect(ci.lower).toBeLessThanOrEqual(row.summary.meanSafety.value!);
    expect(ci.upper).toBeGreaterThanOrEqual(row.summary.meanSafety.value!);
  });

  it("defaults to the evaluator with most evaluations", async () => {
    const panel = await loadAgentsPanel(t.prisma, parseDashboardFilter({}));
    expect(panel.evaluatorSource).toBe("default");
    expect(panel.evaluator).toBe(panel.evaluators[0]!.value);
  });
});
