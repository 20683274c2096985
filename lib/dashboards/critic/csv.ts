// The critic dashboard's numbers as CSV rows (server only): registered as panel "critic" in
// ../csv.ts; the filter comes from the same URL parameters as the page (./filters.ts).
//
// One row per statistic of each method × label source (section "metrics"), then the PR curve
// points of the chosen source (section "pr_curve"), the calibration bins ("calibration") and
// success over trials ("trials"). Every row names its source, τ, ERROR policy, seed and B.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { CsvCellValue } from "@/lib/csv/cell";
import type { PercentileInterval, WilsonInterval } from "@/lib/metrics/bootstrap";
import { parseCriticFilter } from "./filters";
import { loadCriticDashboard } from "./query";

export const CRITIC_CSV_COLUMNS = [
  "section",
  "method",
  "critic_model",
  "label_source",
  "statistic",
  "value",
  "ci_lower",
  "ci_upper",
  "n",
  "tau",
  "error_policy",
  "seed",
  "resamples",
  "note",
] as const;

type Row = Record<string, CsvCellValue>;

const bounds = (ci: PercentileInterval | WilsonInterval | undefined) => (ci && !ci.undefined ? { ci_lower: ci.lower, ci_upper: ci.upper } : {});

export async function criticCsv(db: Db, params: Record<string, string>): Promise<Row[]> {
  const filter = parseCriticFilter(params);
  const d = await loadCriticDashboard(db, filter);
  const common = { tau: filter.tau, error_policy: filter.errors, seed: d.seed, resamples: d.resamples };
  const out: Row[] = [];
  for (const r of d.rows) {
    const e = r.evaluation;
    const a = e.atTau;
    const base = { section: "metrics", method: r.method, critic_model: r.criticModel, label_source: r.sourceName, n: a.n, ...common };
    const stat = (statistic: string, value: number | null, extra: Row = {}) => out.push({ ...base, statistic, value, ...extra });
    stat("precision", a.precision, bounds(e.intervals.precision));
    stat("recall", a.recall, bounds(e.intervals.recall));
    stat("f1", a.f1, bounds(e.intervals.f1));
    stat("auc_pr", e.curve?.aucPr ?? null, bounds(e.intervals.aucPr));
    stat("average_precision", e.curve?.ap ?? null);
    for (const k of ["tp", "fp", "fn", "tn"] as const) stat(k, a[k]);
    stat("best_f1", e.best?.f1 ?? null, { note: e.best ? `optimistic: τ = ${e.best.tau} tuned on the same data` : "undefined" });
    stat("kfold_f1", e.kFold?.pooled.f1 ?? null, { note: e.kFold ? `k = ${e.kFold.k}; fold τ = ${e.kFold.foldTaus.map((t) => (t === null ? "none" : t)).join(" ")}` : "fewer than 2 trajectories" });
    stat("missed_failure_cost", a.missedCost);
    stat("alerts_per_100_critical_actions", a.alertsPer100, { note: `${a.alerts} alerts / ${a.criticalActions} critical actions` });
    stat("error_trajectories", e.errorTrajectories, { note: `${e.errorCheckpoints} ERROR checkpoints` });
    stat("excluded_by_error_policy", a.excluded);
    stat("unlabelled", r.unlabelled, { note: "assessed trajectories without a label from this source (not counted)" });
  }
  const sourceName = d.source?.name ?? null;
  for (const c of d.curves) {
    const [method, model] = c.key.split("|");
    for (const p of c.points) {
      out.push({ section: "pr_curve", method, critic_model: model, label_source: sourceName, statistic: "precision", value: p.precision, n: c.n, ...common, note: `recall ${p.recall}; score threshold ${p.threshold ?? "none (appended point)"}` });
    }
  }
  for (const c of d.calibration) {
    const [method, model] = c.key.split("|");
    for (const b of c.calibration.bins) {
      out.push({ section: "calibration", method, critic_model: model, label_source: sourceName, statistic: "share_on_track", value: b.share, n: b.n, ...common, ...bounds(b.interval), note: `min p̄ in [${b.lower}, ${b.upper}${b.upper === 1 ? "]" : ")"}; mean ${b.meanP ?? "none"}` });
    }
  }
  for (const p of d.trials.points) {
    out.push({ section: "trials", label_source: sourceName, statistic: "success_share", value: p.share, n: p.chains, ...common, ...bounds(p.interval), note: `N = ${p.n} feedback rounds; ${p.reached} chains ran trial ${p.n + 1}` });
  }
  return out;
}
