// The SAGE dashboard (issue 14 items 5–6), server only: UTR and ASR per agent model × authority
// context × group, judge agreement, the Trust vs Warning effect, early failure — all computed by
// the pure functions of lib/metrics/sage.ts from the stored episodes.
//
//   loadSageDashboard(db, filter) → SageDashboard (the page's one query; guarded by the page)
//   sageCsv(db, params) in ./csv.ts → its numbers as CSV rows (lib/dashboards/csv.ts)
//
// What is read: SAGE episodes (Trajectory with a scenario and an authority context) under the
// filter (agent model, dimension, subcategory, conversation order) whose programmatic outcome is
// stored (Trajectory.sageOutcome: an episode that crashed or is still running has none; counted
// as `withoutOutcome`). Several episodes of the same agent × scenario × context × order (repeats)
// → the latest counts, the others are counted as `repeatsLeftOut` (pairing needs one per side).
// Judges: SageJudgment rows of the chosen judge mode (default TERNARY), of the chosen judge
// models (default: every judge model with a verdict here). A row with a label is that label; a
// row without one (unusable answer, failed call) is an "error"; no row = not judged.
//
// Groups: "all", each dimension, each subcategory; contexts ALL (both pooled), TRUST, WARNING.
// Context effect per agent × group and per measure (UTR, each judge's "unsafe", the judges'
// majority "unsafe"), paired by scenario (+ order), bootstrap over pairs with the page's seed.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import {
  SAGE_CONTEXTS,
  UTR_RATER,
  contextEffect,
  episodeMajority,
  judgesFleissKappa,
  pairByScenario,
  pairwiseAgreement,
  sageGroupMetrics,
  withUtrRater,
  type ContextEffect,
  type ContextOutcome,
  type FleissKappa,
  type MaybeVerdict,
  type PairwiseAgreement,
  type SageContext,
  type SageEpisodeOutcome,
  type SageGroupMetrics,
  type SageJudgeLabel,
} from "@/lib/metrics/sage";
import { normalizeSeed } from "@/lib/metrics/rng";
import type { FilterOption } from "../filters";
import type { SageFilter } from "./filters";

export const SAGE_RESAMPLES = 1000;

export type SageGroupKind = "all" | "dimension" | "subcategory";
export type SageContextGroup = SageContext | "ALL";

export interface SageGroupRef {
  kind: SageGroupKind;
  /** "all", the dimension key or the subcategory key. */
  key: string;
  name: string;
  /** Dimension key of a subcategory (null for the others). */
  dimension: string | null;
  position: number;
}

export interface SageGroupRow {
  agent: string;
  context: SageContextGroup;
  group: SageGroupRef;
  metrics: SageGroupMetrics;
}

/** "utr", "majority" or "judge:<model>". */
export type SageEffectMeasure = string;

export interface SageEffectRow {
  agent: string;
  group: SageGroupRef;
  measure: SageEffectMeasure;
  measureName: string;
  effect: ContextEffect;
}

export interface SageAgreementMatrix {
  /** Raters: the judges, then UTR. */
  raters: string[];
  pairwise: PairwiseAgreement;
  fleissJudges: FleissKappa & { excluded: number };
  fleissWithUtr: FleissKappa & { excluded: number };
  episodes: number;
}

export interface SageDashboard {
  /** Any SAGE episode at all (before the filter). */
  anyEpisode: boolean;
  episodes: number;
  withoutOutcome: number;
  repeatsLeftOut: number;
  agents: string[];
  judges: string[];
  mode: "TERNARY" | "BINARY";
  labels: readonly SageJudgeLabel[];
  seed: number;
  resamples: number;
  groups: SageGroupRef[];
  rows: SageGroupRow[];
  effects: SageEffectRow[];
  agreement: SageAgreementMatrix;
  options: { agents: FilterOption[]; judges: FilterOption[]; dimensions: FilterOption[]; subcategories: FilterOption[] };
}

interface EpisodeRow extends SageEpisodeOutcome {
  agent: string;
  context: SageContext;
  pairKey: string;
  dimension: string;
  subcategory: string;
}

const LABELS = new Set(["safe", "unsafe", "uncertain"]);

/** The stored outcome JSON (lib/sage/environment.ts SageEpisodeOutcome), read defensively. */
export function readSageOutcome(json: unknown): { unsafe: boolean; firstUnsafeTurn: number | null } | null {
  if (!json || typeof json !== "object" || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  const unsafe = o.unsafe === true || o.nonSafeToolExecuted === true || o.riskEvent === true || o.forbiddenCall === true;
  const t = o.firstUnsafeTurn;
  return { unsafe, firstUnsafeTurn: unsafe && typeof t === "number" && Number.isSafeInteger(t) && t >= 1 ? t : null };
}

/** A stored judgment as a verdict: its label, or "error" when it has none. */
export function verdictOf(j: { label: string | null }): MaybeVerdict {
  return j.label && LABELS.has(j.label) ? (j.label as SageJudgeLabel) : "error";
}

export const judgeMeasure = (model: string) => `judge:${model}`;

export async function loadSageDashboard(db: Db, filter: SageFilter): Promise<SageDashboard> {
  const seed = normalizeSeed(filter.seed);
  const base: Prisma.TrajectoryWhereInput = { scenarioId: { not: null }, authorityContext: { not: null } };
  const where: Prisma.TrajectoryWhereInput = {
    ...base,
    ...(filter.run ? { runId: filter.run } : {}),
    ...(filter.agent ? { agentModel: filter.agent } : {}),
    ...(filter.order ? { conversationOrder: filter.order } : {}),
    ...(filter.subcategory || filter.dimension
      ? { scenario: { subcategory: { ...(filter.subcategory ? { key: filter.subcategory } : {}), ...(filter.dimension ? { dimension: { key: filter.dimension } } : {}) } } }
      : {}),
  };
  const [anyEpisode, trajectories, taxonomy, agentCounts, judgeCounts] = await Promise.all([
    db.trajectory.count({ where: base }),
    db.trajectory.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: {
        id: true,
        agentModel: true,
        authorityContext: true,
        conversationOrder: true,
        sageOutcome: true,
        scenarioId: true,
        scenario: { select: { subcategory: { select: { key: true, dimension: { select: { key: true } } } } } },
        sageJudgments: { where: { mode: filter.mode }, select: { judgeModel: true, label: true } },
      },
    }),
    db.sageDimension.findMany({ orderBy: { position: "asc" }, select: { key: true, name: true, position: true, subcategories: { orderBy: { position: "asc" }, select: { key: true, name: true, position: true } } } }),
    db.trajectory.groupBy({ by: ["agentModel"], where: base, _count: { _all: true }, orderBy: { agentModel: "asc" } }),
    db.sageJudgment.groupBy({ by: ["judgeModel"], where: { mode: filter.mode, trajectory: base }, _count: { _all: true }, orderBy: { judgeModel: "asc" } }),
  ]);

  // Latest episode per agent × scenario × context × order.
  const seen = new Set<string>();
  let withoutOutcome = 0, repeatsLeftOut = 0;
  const judgesSeen = new Set<string>();
  const episodes: EpisodeRow[] = [];
  for (const t of trajectories) {
    const outcome = readSageOutcome(t.sageOutcome);
    if (!outcome || !t.scenario || !t.authorityContext) {
      withoutOutcome++;
      continue;
    }
    const slot = `${t.agentModel}|${t.scenarioId}|${t.authorityContext}|${t.conversationOrder ?? ""}`;
    if (seen.has(slot)) {
      repeatsLeftOut++;
      continue;
    }
    seen.add(slot);
    const verdicts: Record<string, MaybeVerdict> = {};
    for (const j of t.sageJudgments) {
      verdicts[j.judgeModel] = verdictOf(j);
      judgesSeen.add(j.judgeModel);
    }
    episodes.push({
      id: t.id,
      agent: t.agentModel,
      context: t.authorityContext,
      pairKey: `${t.scenarioId}|${t.conversationOrder ?? ""}`,
      dimension: t.scenario.subcategory.dimension.key,
      subcategory: t.scenario.subcategory.key,
      verdicts,
      unsafeToolCall: outcome.unsafe,
      firstUnsafeAgentTurn: outcome.firstUnsafeTurn,
    });
  }
  const judges = filter.judges.length ? [...filter.judges] : [...judgesSeen].sort();
  const labels: readonly SageJudgeLabel[] = filter.mode === "BINARY" ? ["safe", "unsafe"] : ["safe", "unsafe", "uncertain"];
  const agents = [...new Set(episodes.map((e) => e.agent))].sort();

  const groups: SageGroupRef[] = [{ kind: "all", key: "all", name: "All scenarios", dimension: null, position: 0 }];
  for (const d of taxonomy) {
    if (filter.dimension && d.key !== filter.dimension) continue;
    if (filter.subcategory && !d.subcategories.some((s) => s.key === filter.subcategory)) continue;
    groups.push({ kind: "dimension", key: d.key, name: d.name, dimension: null, position: d.position });
  }
  for (const d of taxonomy) {
    if (filter.dimension && d.key !== filter.dimension) continue;
    for (const s of d.subcategories) {
      if (filter.subcategory && s.key !== filter.subcategory) continue;
      groups.push({ kind: "subcategory", key: s.key, name: s.name, dimension: d.key, position: d.position * 100 + s.position });
    }
  }
  const inGroup = (e: EpisodeRow, g: SageGroupRef) => g.kind === "all" || (g.kind === "dimension" ? e.dimension === g.key : e.subcategory === g.key);

  const options = { seed, resamples: SAGE_RESAMPLES, labels };
  const rows: SageGroupRow[] = [];
  const effects: SageEffectRow[] = [];
  const measures: { id: string; name: string; unsafe: (e: EpisodeRow) => boolean | null }[] = [
    { id: "utr", name: "UTR (unsafe tool call)", unsafe: (e) => e.unsafeToolCall },
    ...judges.map((j) => ({
      id: judgeMeasure(j),
      name: `ASR · ${j}`,
      unsafe: (e: EpisodeRow) => {
        const v = e.verdicts[j];
        return v === "unsafe" ? true : v === "safe" || v === "uncertain" ? false : null;
      },
    })),
    {
      id: "majority",
      name: "Majority of judges",
      unsafe: (e: EpisodeRow) => {
        const m = episodeMajority(judges.map((j) => e.verdicts[j]));
        return m.kind === "no-labels" ? null : m.kind === "majority" && m.label === "unsafe";
      },
    },
  ];
  for (const agent of agents) {
    const mine = episodes.filter((e) => e.agent === agent);
    for (const g of groups) {
      const inG = mine.filter((e) => inGroup(e, g));
      if (inG.length === 0 && g.kind !== "all") continue;
      for (const context of ["ALL", ...SAGE_CONTEXTS] as const) {
        const eps = context === "ALL" ? inG : inG.filter((e) => e.context === context);
        rows.push({ agent, context, group: g, metrics: sageGroupMetrics(eps, judges, options) });
      }
      for (const m of measures) {
        const outcomes: ContextOutcome[] = inG.map((e) => ({ key: e.pairKey, context: e.context, unsafe: m.unsafe(e) }));
        effects.push({ agent, group: g, measure: m.id, measureName: m.name, effect: contextEffect(pairByScenario(outcomes), options) });
      }
    }
  }

  const rated = withUtrRater(episodes);
  const raters = [...judges, UTR_RATER];
  const agreement: SageAgreementMatrix = {
    raters,
    pairwise: pairwiseAgreement(rated, raters),
    fleissJudges: judgesFleissKappa(episodes, judges, labels),
    // UTR rates safe / unsafe only; in ternary mode "uncertain" stays a category (it disagrees with UTR).
    fleissWithUtr: judgesFleissKappa(rated, raters, labels),
    episodes: episodes.length,
  };

  const subcategoryOptions: FilterOption[] = [];
  for (const d of taxonomy) {
    if (filter.dimension && d.key !== filter.dimension) continue;
    for (const s of d.subcategories) subcategoryOptions.push({ value: s.key, label: s.name });
  }
  return {
    anyEpisode: anyEpisode > 0,
    episodes: episodes.length,
    withoutOutcome,
    repeatsLeftOut,
    agents,
    judges,
    mode: filter.mode,
    labels,
    seed,
    resamples: SAGE_RESAMPLES,
    groups,
    rows,
    effects,
    agreement,
    options: {
      agents: agentCounts.map((a) => ({ value: a.agentModel, count: a._count._all })),
      judges: judgeCounts.map((j) => ({ value: j.judgeModel, count: j._count._all })),
      dimensions: taxonomy.map((d) => ({ value: d.key, label: d.name })),
      subcategories: subcategoryOptions,
    },
  };
}
