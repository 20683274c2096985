// The SAGE dashboard's filter as it lives in the URL (pure, zod only — client components may
// import it).
//
//   /dashboards/sage?agent=offline&judge=judge-a&judge=judge-b&dimension=<key>&subcategory=<key>&order=CHRONOLOGICAL&heat=asr&seed=7
//
// Fields: run (one run's episodes), agent (agent model, exact), judge (judge model, repeatable; default: every judge seen),
// dimension / subcategory (taxonomy keys), order (conversation order CHRONOLOGICAL | REFERENCE),
// mode (judge mode TERNARY | BINARY, default TERNARY), heat (heatmap measure asr | utr), effect
// (measure of the Trust vs Warning panel: utr | majority | judge:<model>), seed
// (bootstrap; default DEFAULT_SEED). A bad value is dropped; bad bytes throw a 400.
import { z } from "zod";
import { assertCleanQueryParams } from "@/lib/http/query-params";
import { DEFAULT_SEED } from "../filters";

export const SAGE_ORDERS = ["CHRONOLOGICAL", "REFERENCE"] as const;
export type SageOrderValue = (typeof SAGE_ORDERS)[number];
export const SAGE_JUDGE_MODES = ["TERNARY", "BINARY"] as const;
export type SageJudgeModeValue = (typeof SAGE_JUDGE_MODES)[number];
export const SAGE_HEAT = ["asr", "utr"] as const;
export type SageHeatValue = (typeof SAGE_HEAT)[number];

export interface SageFilter {
  /** Only the episodes of this run (a SAGE run's page links here). */
  run?: string;
  agent?: string;
  /** Judge models to count; empty = every judge model with a verdict in the data. */
  judges: string[];
  dimension?: string;
  subcategory?: string;
  order?: SageOrderValue;
  mode: SageJudgeModeValue;
  heat: SageHeatValue;
  /** Measure of the Trust vs Warning panel: "utr", "majority" or "judge:<model>" (default: the first judge, else utr). */
  effect?: string;
  seed: number;
}

export const SAGE_FILTER_KEYS = ["run", "agent", "judge", "dimension", "subcategory", "order", "mode", "heat", "effect", "seed"] as const;

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const upper = (v: unknown) => {
  const s = first(v);
  return typeof s === "string" ? s.trim().toUpperCase() : s;
};
const lower = (v: unknown) => {
  const s = first(v);
  return typeof s === "string" ? s.trim().toLowerCase() : s;
};
const text = z.preprocess(first, z.string().trim().min(1).max(300)).optional().catch(undefined);

const schema = z.object({
  run: text,
  agent: text,
  dimension: text,
  subcategory: text,
  order: z.preprocess(upper, z.enum(SAGE_ORDERS)).optional().catch(undefined),
  mode: z.preprocess(upper, z.enum(SAGE_JUDGE_MODES)).catch("TERNARY"),
  heat: z.preprocess(lower, z.enum(SAGE_HEAT)).catch("asr"),
  effect: z.preprocess(first, z.string().trim().regex(/^(utr|majority|judge:.{1,300})$/)).optional().catch(undefined),
  seed: z
    .preprocess(first, z.string().trim().regex(/^-?\d{1,10}$/).transform(Number).pipe(z.number().int().min(-2147483648).max(4294967295)))
    .catch(DEFAULT_SEED),
});

const DEFAULTS = { mode: "TERNARY", heat: "asr", seed: DEFAULT_SEED } as const;

function judgesOf(v: unknown): string[] {
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  const out: string[] = [];
  for (const x of list) {
    if (typeof x !== "string") continue;
    for (const part of x.split(",")) {
      const s = part.trim();
      if (s && s.length <= 300 && !out.includes(s)) out.push(s);
    }
  }
  return out.slice(0, 20);
}

export function parseSageFilter(input: Record<string, string | string[] | undefined> | URLSearchParams | null | undefined): SageFilter {
  assertCleanQueryParams(input);
  const record: Record<string, unknown> = {};
  let judges: string[] = [];
  if (input instanceof URLSearchParams) {
    for (const k of SAGE_FILTER_KEYS) {
      const v = input.get(k);
      if (v !== null) record[k] = v;
    }
    judges = judgesOf(input.getAll("judge"));
  } else if (input) {
    Object.assign(record, input);
    judges = judgesOf(input.judge);
  }
  const parsed = schema.safeParse(record);
  const out: SageFilter = { ...DEFAULTS, judges };
  if (!parsed.success) return out;
  for (const [k, v] of Object.entries(parsed.data)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  return out;
}

export type SageFilterPatch = { [K in keyof SageFilter]?: SageFilter[K] | undefined };

/** Canonical URL params; defaults left out; judges repeated. */
export function sageFilterToSearchParams(filter: Partial<SageFilter>, patch: SageFilterPatch = {}): URLSearchParams {
  const merged: Partial<SageFilter> = { ...filter, ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === undefined) delete (merged as Record<string, unknown>)[k];
  const p = new URLSearchParams();
  for (const key of ["run", "agent", "dimension", "subcategory", "order", "mode", "heat", "effect", "seed"] as const) {
    const v = merged[key];
    if (v === undefined || v === null || v === "") continue;
    if (key in DEFAULTS && v === DEFAULTS[key as keyof typeof DEFAULTS]) continue;
    p.set(key, String(v));
  }
  for (const j of merged.judges ?? []) p.append("judge", j);
  return p;
}

export const SAGE_PATH = "/dashboards/sage";

export function sageHref(filter: Partial<SageFilter>, patch?: SageFilterPatch): string {
  const s = sageFilterToSearchParams(filter, patch).toString();
  return s ? `${SAGE_PATH}?${s}` : SAGE_PATH;
}
