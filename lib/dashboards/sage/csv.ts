// The SAGE dashboard's numbers as CSV rows (server only): registered as panel "sage" in ../csv.ts;
// the filter comes from the same URL parameters as the page (./filters.ts).
//
// Sections: "group" (one row per statistic of each agent × context × group: utr, asr:<judge>,
// asr_averaged, majority_asr, no_majority, unanimous, pairwise_mean, fleiss_kappa,
// utr_asr:<judge>, early_failure, early_failure_of_unsafe), "context_effect" (per agent × group
// × measure: trust, warning, difference, mcnemar_p), "agreement" (pairwise, UTR as a rater).
import "server-only";
import type { Db } from "@/lib/db/client";
import type { CsvCellValue } from "@/lib/csv/cell";
import type { PercentileInterval, WilsonInterval } from "@/lib/metrics/bootstrap";
import type { Estimate } from "@/lib/metrics/estimate";
import type { SageRate } from "@/lib/metrics/sage";
import { parseSageFilter } from "./filters";
import { loadSageDashboard } from "./query";

export const SAGE_CSV_COLUMNS = [
  "section",
  "agent",
  "context",
  "group_kind",
  "group",
  "group_name",
  "measure",
  "statistic",
  "value",
  "ci_lower",
  "ci_upper",
  "numerator",
  "n",
  "judge_mode",
  "seed",
  "resamples",
  "note",
] as const;

type Row = Record<string, CsvCellValue>;

const bounds = (ci: PercentileInterval | WilsonInterval | undefined) => (ci && !ci.undefined ? { ci_lower: ci.lower, ci_upper: ci.upper } : {});
const rate = (r: SageRate): Row => ({ value: r.undefined ? null : r.value, numerator: r.numerator, n: r.denominator, ...bounds(r.ci), note: r.undefined ? r.reason : undefined });
const est = (e: Estimate): Row => (e.undefined ? { value: null, note: e.reason } : { value: e.value });

export async function sageCsv(db: Db, params: Record<string, string>): Promise<Row[]> {
  const filter = parseSageFilter(params);
  const d = await loadSageDashboard(db, filter);
  const common = { judge_mode: d.mode, seed: d.seed, resamples: d.resamples };
  const out: Row[] = [];
  for (const r of d.rows) {
    const m = r.metrics;
    const base = { section: "group", agent: r.agent, context: r.context, group_kind: r.group.kind, group: r.group.key, group_name: r.group.name, ...common };
    const push = (statistic: string, cells: Row, measure?: string) => out.push({ ...base, measure, statistic, ...cells });
    push("utr", rate(m.utr), "utr");
    for (const a of m.asr) push("asr", { ...rate(a.asr), note: `safe ${a.safe}, unsafe ${a.unsafe}, uncertain ${a.uncertain}, errors ${a.errors}, unjudged ${a.unjudged}` }, `judge:${a.judge}`);
    push("asr_averaged", { ...est(m.asrAveraged.value), ...bounds(m.asrAveraged.ci), n: m.episodes, note: `${m.asrAveraged.judges} judge(s)` });
    push("majority_asr", { ...rate(m.majority.majorityAsr), note: `majority safe ${m.majority.safe}, unsafe ${m.majority.unsafe}, uncertain ${m.majority.uncertain}, no majority ${m.majority.noMajority}, no labels ${m.majority.noLabels}` });
    push("no_majority", { value: m.majority.noMajority, n: m.episodes });
    push("unanimous", rate(m.unanimous));
    push("pairwise_mean", { ...est(m.pairwise.mean), n: m.pairwise.pairs.length, note: "mean over judge pairs" });
    push("fleiss_kappa", { ...est(m.fleiss.kappa), n: m.fleiss.subjects, note: `${m.fleiss.excluded} episode(s) not labelled by every judge left out` });
    for (const u of m.utrAsr) push("utr_asr_agreement", { ...rate(u.agreement), note: `tool only ${u.toolOnly}, judge only ${u.judgeOnly}` }, `judge:${u.judge}`);
    push("early_failure", rate(m.earlyFailure.rate));
    push("early_failure_of_unsafe", rate(m.earlyFailure.ofUnsafe));
  }
  for (const e of d.effects) {
    const base = { section: "context_effect", agent: e.agent, context: "TRUST-WARNING", group_kind: e.group.kind, group: e.group.key, group_name: e.group.name, measure: e.measure, ...common };
    const f = e.effect;
    out.push({ ...base, statistic: "trust", ...rate(f.trust) });
    out.push({ ...base, statistic: "warning", ...rate(f.warning) });
    out.push({ ...base, statistic: "difference", ...est(f.difference), ...bounds(f.ci), n: f.pairs, note: `${f.dropped} pair(s) with a missing side left out` });
    out.push({ ...base, statistic: "mcnemar_p", value: f.mcnemar.p, n: f.mcnemar.n, note: `b ${f.mcnemar.b}, c ${f.mcnemar.c}${f.mcnemar.exact ? `, p = ${f.mcnemar.exact}` : ""}` });
  }
  for (const p of d.agreement.pairwise.pairs) {
    out.push({ section: "agreement", group: "all", statistic: "pairwise_agreement", measure: `${p.a}|${p.b}`, ...rate(p.agreement), ...common });
  }
  out.push({ section: "agreement", group: "all", statistic: "fleiss_kappa_judges", ...est(d.agreement.fleissJudges.kappa), n: d.agreement.fleissJudges.subjects, ...common });
  out.push({ section: "agreement", group: "all", statistic: "fleiss_kappa_with_utr", ...est(d.agreement.fleissWithUtr.kappa), n: d.agreement.fleissWithUtr.subjects, ...common });
  return out;
}
