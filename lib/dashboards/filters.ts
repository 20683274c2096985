// The dashboard filter as it lives in the URL, shared by every dashboard panel.
//
//   /dashboards/evaluators?agent=Qwen%2FQwen2.5-7B-Instruct&mode=STANDARD&evaluator=A&evaluatorB=B&kind=SAFETY&seed=7
//
// API (pure, zod only — client components may import it):
//   parseDashboardFilter(searchParams)      → DashboardFilter   a bad value is dropped; bad bytes
//                                                               (NUL, invalid UTF-8) throw a 400
//                                                               naming the parameter
//   dashboardFilterToSearchParams(filter)   → URLSearchParams   canonical, defaults omitted
//   dashboardQuery(filter, patch?)          → "?a=b" or ""      for hrefs (patch: values to change;
//                                                               `undefined` in the patch removes a key)
//   dashboardHref(path, filter, patch?)     → "/dashboards/x?a=b"
//   hasActiveFilter(filter)                 → true when a data filter (not seed/kind) is set
//   DEFAULT_SEED (20260101), DASHBOARD_FILTER_KEYS, KINDS, EMULATOR_MODES, FilterOption (select choices)
//
// Fields: campaign (campaign id: only trajectories that are items of it), agent (agent model,
// exact), mode (STANDARD | ADVERSARIAL), toolkit (toolkit name: trajectories of cases using it),
// evaluator / evaluatorB (evaluator models, exact; panels decide what they mean — the evaluators
// panel compares A with B, the agents panel reads scores of `evaluator`), kind (SAFETY |
// HELPFULNESS: the score a panel shows, when it shows one), seed (32-bit integer seeding the
// bootstrap and the majority-vote tie-break; default DEFAULT_SEED), validation (campaign id whose
// human labels measure the evaluator's sensitivity and specificity, for the agents panel's
// judge-error-corrected failure rate; not a data filter), ties (the tie policy of the human
// ground truth: exclude | seeded | sensitivity, default exclude — lib/metrics/ground-truth.ts).
// Server-side SQL for the data filters is in lib/dashboards/sql.ts (`dashboardWhere`).
import { z } from "zod";
import { DEFAULT_TIE_POLICY, TIE_POLICIES, type TiePolicy } from "@/lib/metrics/ground-truth";
import { assertCleanQueryParams } from "@/lib/http/query-params";

export const EMULATOR_MODES = ["STANDARD", "ADVERSARIAL"] as const;
export type EmulatorModeValue = (typeof EMULATOR_MODES)[number];

export const KINDS = ["SAFETY", "HELPFULNESS"] as const;
export type KindValue = (typeof KINDS)[number];

/** The default seed of the bootstrap and the tie-break; shown beside every number using it. */
export const DEFAULT_SEED = 20260101;

export interface DashboardFilter {
  /** Campaign id: only trajectories that are items of this campaign. */
  campaign?: string;
  /** Agent model, exact. */
  agent?: string;
  mode?: EmulatorModeValue;
  /** Toolkit name, exact: trajectories of cases that use it. */
  toolkit?: string;
  /** Evaluator model (the first one, "A", where a panel compares two). */
  evaluator?: string;
  /** Second evaluator model ("B") for evaluator-vs-evaluator. */
  evaluatorB?: string;
  /** Which score a panel shows; panels default it (SAFETY) when absent. */
  kind?: KindValue;
  /** Seed of the bootstrap CIs and the majority tie-break. Always set (DEFAULT_SEED). */
  seed: number;
  /** Campaign id whose labels calibrate the evaluator (agents panel); filters no trajectories. */
  validation?: string;
  /** What a tie in the human ground truth becomes; absent = DEFAULT_TIE_POLICY ("exclude"). */
  ties?: TiePolicy;
}

/** The filter's tie policy, defaulted. */
export function tiePolicyOf(filter: Pick<DashboardFilter, "ties">): TiePolicy {
  return filter.ties ?? DEFAULT_TIE_POLICY;
}

/** URL keys, in the stable order URLs are written in. */
export const DASHBOARD_FILTER_KEYS = ["campaign", "agent", "mode", "toolkit", "evaluator", "evaluatorB", "kind", "seed", "validation", "ties"] as const;
export type DashboardFilterKey = (typeof DASHBOARD_FILTER_KEYS)[number];

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const upper = (v: unknown) => {
  const s = first(v);
  return typeof s === "string" ? s.trim().toUpperCase() : s;
};

const text = z.preprocess(first, z.string().trim().min(1).max(300)).optional().catch(undefined);
const mode = z.preprocess(upper, z.enum(EMULATOR_MODES)).optional().catch(undefined);
const kind = z.preprocess(upper, z.enum(KINDS)).optional().catch(undefined);
const lower = (v: unknown) => {
  const s = first(v);
  return typeof s === "string" ? s.trim().toLowerCase() : s;
};
const ties = z.preprocess(lower, z.enum(TIE_POLICIES)).optional().catch(undefined);
const seed = z
  .preprocess(first, z.string().trim().regex(/^-?\d{1,10}$/).transform(Number).pipe(z.number().int().min(-2147483648).max(4294967295)))
  .catch(DEFAULT_SEED);

export const dashboardFilterSchema = z.object({
  campaign: text,
  agent: text,
  mode,
  toolkit: text,
  evaluator: text,
  evaluatorB: text,
  kind,
  seed,
  validation: text,
  ties,
});

export type SearchParamsInput = Record<string, string | string[] | undefined> | URLSearchParams;

function toRecord(input: SearchParamsInput | null | undefined): Record<string, unknown> {
  if (!input) return {};
  if (input instanceof URLSearchParams) {
    const out: Record<string, string> = {};
    for (const key of DASHBOARD_FILTER_KEYS) {
      const v = input.get(key);
      if (v !== null) out[key] = v;
    }
    return out;
  }
  return input;
}

/**
 * URL search params → a typed filter. Invalid values are dropped (seed → default); bad bytes in any
 * parameter throw BadQueryParamError (400).
 */
export function parseDashboardFilter(input: SearchParamsInput | null | undefined): DashboardFilter {
  assertCleanQueryParams(input);
  const parsed = dashboardFilterSchema.safeParse(toRecord(input));
  if (!parsed.success) return { seed: DEFAULT_SEED };
  const out: DashboardFilter = { seed: parsed.data.seed };
  for (const key of DASHBOARD_FILTER_KEYS) {
    if (key === "seed") continue;
    const v = parsed.data[key];
    if (v !== undefined) (out as unknown as Record<string, unknown>)[key] = v;
  }
  return out;
}

export type DashboardFilterPatch = { [K in DashboardFilterKey]?: DashboardFilter[K] | undefined };

/** A filter (optionally patched) → URL params; the default seed and empty values are left out. */
export function dashboardFilterToSearchParams(filter: Partial<DashboardFilter>, patch: DashboardFilterPatch = {}): URLSearchParams {
  const merged: Partial<DashboardFilter> = { ...filter };
  for (const [k, v] of Object.entries(patch)) (merged as Record<string, unknown>)[k] = v;
  const p = new URLSearchParams();
  for (const key of DASHBOARD_FILTER_KEYS) {
    const v = merged[key];
    if (v === undefined || v === null || v === "") continue;
    if (key === "seed" && v === DEFAULT_SEED) continue;
    if (key === "ties" && v === DEFAULT_TIE_POLICY) continue;
    p.set(key, String(v));
  }
  return p;
}

/** "?a=b" or "". */
export function dashboardQuery(filter: Partial<DashboardFilter>, patch?: DashboardFilterPatch): string {
  const s = dashboardFilterToSearchParams(filter, patch).toString();
  return s ? `?${s}` : "";
}

/** `${path}?a=b` — e.g. dashboardHref("/dashboards/agents", filter). */
export function dashboardHref(path: string, filter: Partial<DashboardFilter>, patch?: DashboardFilterPatch): string {
  return `${path}${dashboardQuery(filter, patch)}`;
}

/** True when a data filter (campaign, agent, mode, toolkit) is set. */
export function hasActiveFilter(filter: DashboardFilter): boolean {
  return filter.campaign !== undefined || filter.agent !== undefined || filter.mode !== undefined || filter.toolkit !== undefined;
}

/** One choice of a filter-bar select: value, optional label (shown instead) and count. */
export interface FilterOption {
  value: string;
  label?: string;
  count?: number;
}

export const KIND_NAMES: Record<KindValue, string> = { SAFETY: "Safety", HELPFULNESS: "Helpfulness" };
export const MODE_NAMES: Record<EmulatorModeValue, string> = { STANDARD: "Standard", ADVERSARIAL: "Adversarial" };
