// The CSV files behind the agreement, failures and emulator-quality panels (registered in
// ../csv.ts). One long table each: every number the panel shows, with its CI, n and seed, plus the
// counts it was computed from (confusion cells, 2×2 failure cells, severity counts). Every row
// names the tie policy; under "sensitivity" each statistic carries range_min / range_max (the exact
// range over every resolution of the ties); the CI method (bootstrap / wilson) is in ci_method.
// Server only.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { ConfidenceInterval, Estimate, SensitivityRange } from "@/lib/metrics";
import type { CsvRow } from "../csv";
import type { DashboardFilter } from "../filters";
import type { AgreementBlock } from "./block";
import { emulatorQualityCached } from "./emulator-quality";
import { evaluatorVsHumanCached } from "./evaluator-vs-human";
import { FAILURE_CELLS, failureReportCached } from "./failures";
import { EMULATOR_ASPECT_NAMES, HUMAN_KINDS } from "./fields";
import { humanAgreementCached } from "./human-vs-human";
import { resolveHumanScope } from "./scope";

const COMMON = ["campaign", "evaluator", "tie_policy", "seed", "resamples"] as const;
const RANGE = ["ci_method", "range_min", "range_max", "ties", "ties_excluded"] as const;

export const AGREEMENT_CSV_COLUMNS = ["section", "kind", "statistic", "rater_1", "rater_2", "label_1", "label_2", "value", "ci_lower", "ci_upper", "n", ...RANGE, "note", ...COMMON] as const;
export const FAILURES_CSV_COLUMNS = ["section", "mode", "statistic", "value", "ci_lower", "ci_upper", "numerator", "denominator", ...RANGE, "trajectory_id", "case", "evaluator_safety", "note", ...COMMON] as const;
export const EMULATOR_CSV_COLUMNS = ["section", "mode", "aspect", "statistic", "value", "ci_lower", "ci_upper", "numerator", "denominator", ...RANGE, "note", ...COMMON] as const;

function estimateCells(e: Estimate, ci?: ConfidenceInterval, range?: SensitivityRange): CsvRow {
  const notes = [e.undefined ? `undefined: ${e.reason}` : "", ci?.undefined ? `CI undefined: ${ci.reason}` : "", range && !range.defined ? `range not computed: ${range.reason}` : ""].filter(Boolean);
  return {
    value: e.undefined ? null : e.value,
    ci_lower: !ci || ci.undefined ? null : ci.lower,
    ci_upper: !ci || ci.undefined ? null : ci.upper,
    ci_method: ci ? (ci.method === "wilson" ? "wilson" : "bootstrap") : null,
    range_min: range?.defined ? range.min : null,
    range_max: range?.defined ? range.max : null,
    note: notes.join("; "),
  };
}

async function scopeOrEmpty(db: Db, filter: DashboardFilter) {
  const r = await resolveHumanScope(db, filter);
  return r.scope;
}

/** Evaluator vs majority (κ, raw agreement, mean bias, confusion, marginals), LOO, pairwise, α. */
export async function agreementCsv(db: Db, filter: DashboardFilter): Promise<CsvRow[]> {
  const scope = await scopeOrEmpty(db, filter);
  if (!scope) return [];
  const [evh, hh] = await Promise.all([evaluatorVsHumanCached(db, scope), humanAgreementCached(db, scope)]);
  const common = { campaign: scope.campaign.name, evaluator: scope.evaluator ?? "", tie_policy: scope.ties, seed: scope.seed, resamples: evh.resamples };
  const rows: CsvRow[] = [];
  const blockRows = (section: string, kind: string, b: AgreementBlock, raters: [string, string], variants: readonly ("categorical" | "linear" | "quadratic" | "binarized")[]) => {
    const base = { section, kind, rater_1: raters[0], rater_2: raters[1], ties: b.ties, ties_excluded: b.tiesExcluded ?? 0, ...common };
    // On the 2×2 binarized block the categorical range is the binarized κ's.
    const range = (v: string) => b.ranges?.[(v === "binarized" ? "categorical" : v) as keyof NonNullable<AgreementBlock["ranges"]>];
    for (const v of variants) rows.push({ ...base, statistic: `kappa_${v}`, ...estimateCells(b.summary.kappa[v], b.intervals[v], range(v)), n: b.n });
    if (variants.includes("categorical")) {
      rows.push({ ...base, statistic: "raw_agreement", ...estimateCells(b.summary.rawAgreement, b.intervals.rawAgreement, range("rawAgreement")), n: b.n });
      rows.push({ ...base, statistic: "mean_bias_2_minus_1", ...estimateCells(b.summary.meanBias, b.intervals.meanBias, range("meanBias")), n: b.n });
    }
    b.confusion.labels.forEach((l1, i) =>
      b.confusion.labels.forEach((l2, j) => rows.push({ ...base, section: `${section}_confusion`, statistic: "count", label_1: l1, label_2: l2, value: b.confusion.counts[i]![j]!, n: b.n })),
    );
    b.summary.marginals.labels.forEach((l, i) => {
      rows.push({ ...base, section: `${section}_marginal`, statistic: "count_1", label_1: l, value: b.summary.marginals.rater1[i]!, n: b.n });
      rows.push({ ...base, section: `${section}_marginal`, statistic: "count_2", label_2: l, value: b.summary.marginals.rater2[i]!, n: b.n });
    });
    if (b.ties) rows.push({ ...base, statistic: scope.ties === "exclude" ? "ties_excluded" : "ties_resolved_by_seed", value: b.ties, n: b.n });
  };
  for (const kind of HUMAN_KINDS) {
    const e = evh[kind];
    const ev = scope.evaluator ?? "(no evaluator)";
    blockRows("evaluator_vs_majority", kind, e.score, [ev, "human majority"], ["categorical", "linear", "quadratic"]);
    blockRows("evaluator_vs_majority_binarized", kind, e.binarized, [ev, "human majority (binarize, then vote)"], ["binarized"]);
    if (e.unscored) rows.push({ section: "evaluator_vs_majority", kind, statistic: "items_without_evaluator_score", value: e.unscored, ...common });
    for (const [variant, loo] of Object.entries(hh.loo[kind])) {
      rows.push({
        section: "human_leave_one_out",
        kind,
        statistic: `kappa_${variant}`,
        rater_1: "each annotator",
        rater_2: "majority of the others",
        ...estimateCells(loo.result.mean, loo.interval),
        n: loo.result.items,
        note: [loo.result.mean.undefined ? `undefined: ${loo.result.mean.reason}` : "", `${loo.result.mean.annotators} annotators averaged`, `${loo.ties} tied votes ${scope.ties === "exclude" ? "left out" : "broken by seed"}`].filter(Boolean).join("; "),
        ...common,
      });
      for (const a of loo.result.perAnnotator) {
        rows.push({
          section: "human_leave_one_out_annotator",
          kind,
          statistic: `kappa_${variant}`,
          rater_1: hh.annotators[a.annotator]!.name,
          rater_2: "majority of the others",
          ...estimateCells(a.kappa),
          n: a.confusion.n,
          ...common,
        });
      }
    }
    for (const p of hh.pairwise[kind]) {
      const b = p.block;
      for (const v of ["categorical", "linear", "quadratic", "binarized"] as const) {
        rows.push({
          section: "human_pairwise",
          kind,
          statistic: `kappa_${v}`,
          rater_1: hh.annotators[p.a]!.name,
          rater_2: hh.annotators[p.b]!.name,
          ...estimateCells(b.summary.kappa[v], b.intervals[v]),
          n: b.n,
          ...common,
        });
      }
    }
    for (const [level, a] of Object.entries(hh.alpha[kind])) {
      rows.push({ section: "krippendorff_alpha", kind, statistic: `alpha_${level}`, ...estimateCells(a.result, a.interval), n: a.result.pairableUnits, ...common });
    }
  }
  return rows;
}

/** Per mode: the 2×2 counts, precision and both incidences with CIs, and the trajectories. */
export async function failuresCsv(db: Db, filter: DashboardFilter): Promise<CsvRow[]> {
  const scope = await scopeOrEmpty(db, filter);
  if (!scope) return [];
  const r = await failureReportCached(db, scope, { listCap: 100_000 });
  const common = { campaign: scope.campaign.name, evaluator: scope.evaluator ?? "", tie_policy: r.ties, seed: r.seed, resamples: "" };
  const rows: CsvRow[] = [];
  for (const row of r.rows) {
    const m = row.metrics;
    const stat = (statistic: string, e: (typeof m)["precision"], ci: ConfidenceInterval, range?: SensitivityRange) =>
      rows.push({ section: "metric", mode: row.mode, statistic, ...estimateCells(e, ci, range), numerator: e.numerator, denominator: e.denominator, ties: row.ties, ties_excluded: row.tiesExcluded, ...common });
    stat("identified_failure_precision", m.precision, row.intervals.precision, row.ranges?.precision);
    stat("incidence_seed", m.incidence.seed, row.intervals.incidenceSeed, row.ranges?.incidenceSeed);
    stat("incidence_paper", m.incidence.paper, row.intervals.incidencePaper, row.ranges?.incidencePaper);
    for (const [statistic, value] of [["n", m.n], ["identified", m.identified], ["true_failures", m.trueFailures], ["identified_true", m.identifiedTrue], ["unscored", row.unscored], ["ties", row.ties], ["ties_excluded", row.tiesExcluded]] as const) {
      rows.push({ section: "count", mode: row.mode, statistic, value, ...common });
    }
    if (row.mode === "ALL") continue; // the per-mode rows already list every trajectory
    for (const cell of FAILURE_CELLS) {
      for (const t of row.lists[cell]) {
        rows.push({ section: "trajectory", mode: row.mode, statistic: cell, trajectory_id: t.id, case: t.caseName, evaluator_safety: t.safety, note: [t.humansSayFailure ? "humans: failure" : "humans: no failure", t.criticalIssue ? "critical emulator issue" : "", t.tie ? "tie resolved by seed" : ""].filter(Boolean).join("; "), ...common });
      }
    }
  }
  return rows;
}

/** Per mode and aspect: severity counts and the two shares with CIs. */
export async function emulatorCsv(db: Db, filter: DashboardFilter): Promise<CsvRow[]> {
  const scope = await scopeOrEmpty(db, filter);
  if (!scope) return [];
  const r = await emulatorQualityCached(db, scope);
  const common = { campaign: scope.campaign.name, evaluator: "", tie_policy: r.ties, seed: r.seed, resamples: "" };
  const rows: CsvRow[] = [];
  for (const c of r.cells) {
    const base = { mode: c.mode, aspect: c.aspect, ties: c.ties, ties_excluded: c.tiesExcluded, ...common };
    rows.push({ section: "share", statistic: "free_of_critical", ...estimateCells(c.quality.freeOfCritical, c.intervals.freeOfCritical, c.ranges?.freeOfCritical), numerator: c.quality.freeOfCritical.numerator, denominator: c.quality.freeOfCritical.denominator, ...base });
    rows.push({ section: "share", statistic: "free_of_any_issue", ...estimateCells(c.quality.freeOfAnyIssue, c.intervals.freeOfAnyIssue, c.ranges?.freeOfAnyIssue), numerator: c.quality.freeOfAnyIssue.numerator, denominator: c.quality.freeOfAnyIssue.denominator, ...base });
    for (const s of ["none", "minor", "critical"] as const) rows.push({ section: "count", statistic: `ground_truth_${s}`, value: c.counts[s], note: EMULATOR_ASPECT_NAMES[c.aspect], ...base });
  }
  return rows;
}
