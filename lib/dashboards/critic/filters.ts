// The critic dashboard's filter as it lives in the URL (pure, zod only — client components may
// import it).
//
//   /dashboards/critic?method=INFERACT&model=offline&run=<id>&source=proxy%3AQwen%2FQwen3-32B&tau=0.5&errors=exclude&ties=seeded&seed=7
//
// Fields: method (CriticMethod), model (critic model, exact), run (the run whose assessments are
// read; default: the latest assessment per trajectory, method and critic model), source (label
// source id, see ./sources.ts: "proxy:<evaluator model>", "human:<campaign id>",
// "adjudicated:<campaign id>"; default: the source labelling most assessed trajectories), tau
// (τ of the table, 0–1, default 0.5), errors (ERROR policy flag | exclude, default flag), ties
// (tie policy of a human source, default exclude), seed (bootstrap; default DEFAULT_SEED), and the
// dashboards' data filters agent, mode, toolkit. A bad value is dropped; bad bytes throw a 400.
import { z } from "zod";
import { assertCleanQueryParams } from "@/lib/http/query-params";
import { DEFAULT_TIE_POLICY, TIE_POLICIES, type TiePolicy } from "@/lib/metrics/ground-truth";
import { DEFAULT_ERROR_POLICY, ERROR_POLICIES } from "@/lib/metrics/critic-eval";
import type { ErrorPolicy } from "@/lib/metrics/critic";
import { DEFAULT_SEED, EMULATOR_MODES, type EmulatorModeValue } from "../filters";

export const CRITIC_METHOD_VALUES = ["INFERACT", "STANDARD", "SELF_CONSISTENCY", "MULTI_STEP"] as const;
export type CriticMethodValue = (typeof CRITIC_METHOD_VALUES)[number];

export const DEFAULT_TAU = 0.5;

export interface CriticFilter {
  method?: CriticMethodValue;
  model?: string;
  run?: string;
  source?: string;
  /** τ of the table (the slider starts here). */
  tau: number;
  errors: ErrorPolicy;
  ties: TiePolicy;
  seed: number;
  agent?: string;
  mode?: EmulatorModeValue;
  toolkit?: string;
}

export const CRITIC_FILTER_KEYS = ["method", "model", "run", "source", "tau", "errors", "ties", "seed", "agent", "mode", "toolkit"] as const;
export type CriticFilterKey = (typeof CRITIC_FILTER_KEYS)[number];

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const trimmed = (f: (s: string) => string) => (v: unknown) => {
  const s = first(v);
  return typeof s === "string" ? f(s.trim()) : s;
};
const text = z.preprocess(first, z.string().trim().min(1).max(300)).optional().catch(undefined);

const schema = z.object({
  method: z.preprocess(trimmed((s) => s.toUpperCase()), z.enum(CRITIC_METHOD_VALUES)).optional().catch(undefined),
  model: text,
  run: text,
  source: z.preprocess(first, z.string().trim().min(1).max(400).regex(/^(proxy|human|adjudicated):./)).optional().catch(undefined),
  tau: z.preprocess(first, z.string().trim().regex(/^(0(\.\d{1,4})?|1(\.0{1,4})?|\.\d{1,4})$/).transform(Number)).catch(DEFAULT_TAU),
  errors: z.preprocess(trimmed((s) => s.toLowerCase()), z.enum(ERROR_POLICIES)).catch(DEFAULT_ERROR_POLICY),
  ties: z.preprocess(trimmed((s) => s.toLowerCase()), z.enum(TIE_POLICIES)).catch(DEFAULT_TIE_POLICY),
  seed: z
    .preprocess(first, z.string().trim().regex(/^-?\d{1,10}$/).transform(Number).pipe(z.number().int().min(-2147483648).max(4294967295)))
    .catch(DEFAULT_SEED),
  agent: text,
  mode: z.preprocess(trimmed((s) => s.toUpperCase()), z.enum(EMULATOR_MODES)).optional().catch(undefined),
  toolkit: text,
});

const DEFAULTS: Pick<CriticFilter, "tau" | "errors" | "ties" | "seed"> = { tau: DEFAULT_TAU, errors: DEFAULT_ERROR_POLICY, ties: DEFAULT_TIE_POLICY, seed: DEFAULT_SEED };

export function parseCriticFilter(input: Record<string, string | string[] | undefined> | URLSearchParams | null | undefined): CriticFilter {
  assertCleanQueryParams(input);
  const record: Record<string, unknown> = {};
  if (input instanceof URLSearchParams) {
    for (const k of CRITIC_FILTER_KEYS) {
      const v = input.get(k);
      if (v !== null) record[k] = v;
    }
  } else if (input) Object.assign(record, input);
  const parsed = schema.safeParse(record);
  if (!parsed.success) return { ...DEFAULTS };
  const out: CriticFilter = { ...DEFAULTS };
  for (const [k, v] of Object.entries(parsed.data)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  return out;
}

export type CriticFilterPatch = { [K in CriticFilterKey]?: CriticFilter[K] | undefined };

/** Canonical URL params; defaults left out. */
export function criticFilterToSearchParams(filter: Partial<CriticFilter>, patch: CriticFilterPatch = {}): URLSearchParams {
  const merged: Partial<CriticFilter> = { ...filter, ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === undefined) delete (merged as Record<string, unknown>)[k];
  const p = new URLSearchParams();
  for (const key of CRITIC_FILTER_KEYS) {
    const v = merged[key];
    if (v === undefined || v === null || v === "") continue;
    if (key in DEFAULTS && v === DEFAULTS[key as keyof typeof DEFAULTS]) continue;
    p.set(key, String(v));
  }
  return p;
}

export const CRITIC_PATH = "/dashboards/critic";

export function criticHref(filter: Partial<CriticFilter>, patch?: CriticFilterPatch, path = CRITIC_PATH): string {
  const s = criticFilterToSearchParams(filter, patch).toString();
  return s ? `${path}?${s}` : path;
}
