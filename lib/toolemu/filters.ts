// The trajectory filter as it lives in the URL (/trajectories?agent=…&safety=0&sort=safety&page=2).
// A value that does not fit (a typo, an old link, a hand-edited URL) is dropped and the default
// applies; only bad bytes (NUL, invalid UTF-8) in any parameter throw, a 400 naming it
// (lib/http/query-params.ts). Pure (zod only), so client components may import it to build
// URLs.
import { z } from "zod";
import { assertCleanQueryParams } from "@/lib/http/query-params";

export const EMULATOR_MODES = ["STANDARD", "ADVERSARIAL"] as const;
export type EmulatorModeValue = (typeof EMULATOR_MODES)[number];

export const TRAJECTORY_SORTS = ["relevance", "newest", "oldest", "case", "safety", "safety-desc", "helpfulness", "helpfulness-desc"] as const;
export type TrajectorySort = (typeof TRAJECTORY_SORTS)[number];
const DEFAULT_SORT: TrajectorySort = "newest";

/** A search sorts by relevance unless another order is chosen; without one, newest first. */
export function defaultSort(filter: { q?: string }): TrajectorySort {
  return filter.q ? "relevance" : DEFAULT_SORT;
}

export const SORT_LABELS: Record<TrajectorySort, string> = {
  relevance: "Best match first (search)",
  newest: "Newest first",
  oldest: "Oldest first",
  case: "Case",
  safety: "Safety: riskiest first",
  "safety-desc": "Safety: safest first",
  helpfulness: "Helpfulness: least helpful first",
  "helpfulness-desc": "Helpfulness: most helpful first",
};

const TOOL_CALLS = ["none", "some"] as const;
export type ToolCallsValue = (typeof TOOL_CALLS)[number];

export const PAGE_SIZE = 50;
const MAX_PAGE = 1_000_000;

export interface TrajectoryFilter {
  /**
   * Full-text search (PostgreSQL websearch syntax: words, "a phrase", or, -not) over the case's
   * instruction, each step's thought, action, input and observation, and the final answer.
   */
  q?: string;
  /** Trajectories played for this run (Run id). */
  run?: string;
  /** Trajectories that are items of this annotation campaign (Campaign id). */
  campaign?: string;
  /** Agent model, exact (e.g. "Qwen/Qwen2.5-7B-Instruct"). */
  agent?: string;
  mode?: EmulatorModeValue;
  /** Test case name, exact (e.g. "official_12"). */
  case?: string;
  /** Toolkit name, exact (e.g. "Terminal"): trajectories of cases that use it. */
  toolkit?: string;
  /** Safety score 0–3 given by `evaluator` (any evaluator when none is chosen). */
  safety?: number;
  /** Helpfulness score 0–3 given by `evaluator` (any evaluator when none is chosen). */
  help?: number;
  /** Evaluator model: restricts to trajectories it scored and is the one score filters and sorts use. */
  evaluator?: string;
  /**
   * true: safety score ≤ 1 (a failure, ToolEmu's binarisation) by `evaluator` (any evaluator when
   * none is chosen); false: safety ≥ 2.
   */
  failure?: boolean;
  /**
   * Executed tool calls: "none" = no step ran a tool (e.g. the agent wrote its Action lines inside
   * the final answer), "some" = at least one did. See lib/toolemu/executed-calls.ts.
   */
  calls?: ToolCallsValue;
  hasErrors?: boolean;
  sort: TrajectorySort;
  page: number;
}

/** The keys a filter occupies in the URL, in a stable order. */
const FILTER_KEYS = ["q", "run", "campaign", "agent", "mode", "case", "toolkit", "evaluator", "safety", "failure", "help", "calls", "errors", "sort", "page"] as const;

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);

// A free-text value: trimmed, non-empty, bounded.
const text = z.preprocess(first, z.string().trim().min(1).max(300)).optional().catch(undefined);
const score = z.preprocess(first, z.string().trim().regex(/^[0-3]$/).transform(Number)).optional().catch(undefined);
const mode = z.preprocess((v) => {
  const s = first(v);
  return typeof s === "string" ? s.trim().toUpperCase() : s;
}, z.enum(EMULATOR_MODES)).optional().catch(undefined);
const bool = z.preprocess((v) => {
  const s = first(v);
  if (typeof s !== "string") return undefined;
  const t = s.trim().toLowerCase();
  if (["1", "yes", "true"].includes(t)) return true;
  if (["0", "no", "false"].includes(t)) return false;
  return undefined;
}, z.boolean().optional()).catch(undefined);
const calls = z.preprocess((v) => {
  const s = first(v);
  return typeof s === "string" ? s.trim().toLowerCase() : s;
}, z.enum(TOOL_CALLS)).optional().catch(undefined);
const sort = z.preprocess(first, z.enum(TRAJECTORY_SORTS)).optional().catch(undefined);
const page = z.preprocess(first, z.string().trim().regex(/^\d{1,7}$/).transform(Number).pipe(z.number().int().min(1).max(MAX_PAGE))).catch(1);

const trajectoryFilterSchema = z.object({
  q: text,
  run: text,
  campaign: text,
  agent: text,
  mode,
  case: text,
  toolkit: text,
  evaluator: text,
  safety: score,
  failure: bool,
  help: score,
  calls,
  errors: bool,
  sort,
  page,
});

export type SearchParamsInput = Record<string, string | string[] | undefined> | URLSearchParams;

function toRecord(input: SearchParamsInput | null | undefined): Record<string, string | string[] | undefined> {
  if (!input) return {};
  if (input instanceof URLSearchParams) {
    const out: Record<string, string> = {};
    for (const key of FILTER_KEYS) {
      const v = input.get(key);
      if (v !== null) out[key] = v;
    }
    return out;
  }
  return input;
}

/**
 * URL search params → a typed filter. Unknown or invalid values fall back to defaults; bad bytes in
 * any parameter throw BadQueryParamError (400).
 */
export function parseTrajectoryFilter(input: SearchParamsInput | null | undefined): TrajectoryFilter {
  assertCleanQueryParams(input);
  const parsed = trajectoryFilterSchema.safeParse(toRecord(input));
  // Every field catches its own errors, so this only fails on a non-object input.
  if (!parsed.success) return { sort: DEFAULT_SORT, page: 1 };
  const { errors, ...rest } = parsed.data;
  // "relevance" means nothing without a search: newest first then.
  const sorted = rest.sort && (rest.sort !== "relevance" || rest.q) ? rest.sort : defaultSort(rest);
  const out: TrajectoryFilter = { sort: sorted, page: rest.page };
  if (rest.q !== undefined) out.q = rest.q;
  if (rest.run !== undefined) out.run = rest.run;
  if (rest.campaign !== undefined) out.campaign = rest.campaign;
  if (rest.agent !== undefined) out.agent = rest.agent;
  if (rest.mode !== undefined) out.mode = rest.mode;
  if (rest.case !== undefined) out.case = rest.case;
  if (rest.toolkit !== undefined) out.toolkit = rest.toolkit;
  if (rest.evaluator !== undefined) out.evaluator = rest.evaluator;
  if (rest.safety !== undefined) out.safety = rest.safety;
  if (rest.failure !== undefined) out.failure = rest.failure;
  if (rest.help !== undefined) out.help = rest.help;
  if (rest.calls !== undefined) out.calls = rest.calls;
  if (errors !== undefined) out.hasErrors = errors;
  return out;
}

/**
 * A filter → URL search params, omitting defaults (so URLs stay short and canonical).
 * `page: false` drops the page (for links that change the filter, which should start at page 1).
 */
export function trajectoryFilterToSearchParams(filter: Partial<TrajectoryFilter>, opts: { page?: boolean; sort?: boolean } = {}): URLSearchParams {
  const p = new URLSearchParams();
  if (filter.q) p.set("q", filter.q);
  if (filter.run) p.set("run", filter.run);
  if (filter.campaign) p.set("campaign", filter.campaign);
  if (filter.agent) p.set("agent", filter.agent);
  if (filter.mode) p.set("mode", filter.mode);
  if (filter.case) p.set("case", filter.case);
  if (filter.toolkit) p.set("toolkit", filter.toolkit);
  if (filter.evaluator) p.set("evaluator", filter.evaluator);
  if (filter.safety !== undefined) p.set("safety", String(filter.safety));
  if (filter.failure !== undefined) p.set("failure", filter.failure ? "1" : "0");
  if (filter.help !== undefined) p.set("help", String(filter.help));
  if (filter.calls) p.set("calls", filter.calls);
  if (filter.hasErrors !== undefined) p.set("errors", filter.hasErrors ? "1" : "0");
  if (opts.sort !== false && filter.sort && filter.sort !== defaultSort(filter)) p.set("sort", filter.sort);
  if (opts.page !== false && filter.page && filter.page > 1) p.set("page", String(filter.page));
  return p;
}

/** "?a=b" or "" — for building hrefs. */
export function filterQuery(filter: Partial<TrajectoryFilter>, opts?: { page?: boolean; sort?: boolean }): string {
  const s = trajectoryFilterToSearchParams(filter, opts).toString();
  return s ? `?${s}` : "";
}

/** True when any filter (not sort or page) is set. */
export function hasActiveFilter(filter: TrajectoryFilter): boolean {
  return (
    filter.q !== undefined ||
    filter.run !== undefined ||
    filter.campaign !== undefined ||
    filter.agent !== undefined ||
    filter.mode !== undefined ||
    filter.case !== undefined ||
    filter.toolkit !== undefined ||
    filter.evaluator !== undefined ||
    filter.safety !== undefined ||
    filter.failure !== undefined ||
    filter.help !== undefined ||
    filter.calls !== undefined ||
    filter.hasErrors !== undefined
  );
}

// Filters for the cases and toolkits lists.

export interface CaseFilter {
  q?: string;
  toolkit?: string;
  page: number;
}

const caseFilterSchema = z.object({ q: text, toolkit: text, page });

export function parseCaseFilter(input: SearchParamsInput | null | undefined): CaseFilter {
  assertCleanQueryParams(input);
  const rec = input instanceof URLSearchParams ? Object.fromEntries(input) : (input ?? {});
  const parsed = caseFilterSchema.safeParse(rec);
  if (!parsed.success) return { page: 1 };
  const out: CaseFilter = { page: parsed.data.page };
  if (parsed.data.q !== undefined) out.q = parsed.data.q;
  if (parsed.data.toolkit !== undefined) out.toolkit = parsed.data.toolkit;
  return out;
}

export function parseSearchQuery(input: SearchParamsInput | null | undefined): string | undefined {
  assertCleanQueryParams(input);
  const rec = input instanceof URLSearchParams ? Object.fromEntries(input) : (input ?? {});
  const parsed = z.object({ q: text }).safeParse(rec);
  return parsed.success ? parsed.data.q : undefined;
}
