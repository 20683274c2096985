// Bad bytes in query parameters: a NUL byte (%00) or bytes that are not UTF-8 (%FF, which the URL
// parser turns into U+FFFD, or a lone surrogate) would otherwise reach SQL and fail there — a 500,
// an error page with status 200, or an export cut mid-stream. Every filter parser calls
// assertCleanQueryParams first, so such a request is refused up front with a 400 that names the
// parameter. Pure (no I/O): client components that build filter URLs import the parsers.
import { AppError } from "@/lib/errors";

export type QueryInput = URLSearchParams | Record<string, unknown> | null | undefined;

// Other C0 controls (except TAB, LF, CR, which a pasted multi-line value may carry) are refused
// too: no filter value contains them, and PostgreSQL text cannot hold NUL at all.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with one decoded query value (or name), or null when it is fine. */
export function queryTextProblem(value: string): string | null {
  if (value.includes("\u0000")) return "contains a NUL byte (%00)";
  if (value.includes("\uFFFD") || LONE_SURROGATE.test(value)) return "is not valid UTF-8 text";
  if (CONTROL.test(value)) return "contains a control character";
  return null;
}

export interface BadQueryParam {
  param: string;
  problem: string;
}

function* entries(input: QueryInput): Generator<[string, unknown]> {
  if (!input) return;
  if (input instanceof URLSearchParams) yield* input.entries();
  else yield* Object.entries(input);
}

/** The first parameter (name or any of its values) with bad bytes, or null. */
export function findBadQueryParam(input: QueryInput): BadQueryParam | null {
  for (const [name, raw] of entries(input)) {
    const nameProblem = queryTextProblem(name);
    if (nameProblem) return { param: JSON.stringify(name).slice(1, -1), problem: `its name ${nameProblem}` };
    for (const v of Array.isArray(raw) ? raw : [raw]) {
      if (typeof v !== "string") continue;
      const problem = queryTextProblem(v);
      if (problem) return { param: name, problem };
    }
  }
  return null;
}

function badQueryParamMessage(bad: BadQueryParam): string {
  return `Query parameter "${bad.param}" ${bad.problem}; remove it from the URL or retype the value.`;
}

/** A 400 AppError naming the parameter; thrown by every filter parser. */
export class BadQueryParamError extends AppError {
  constructor(readonly bad: BadQueryParam) {
    super(badQueryParamMessage(bad), 400);
    this.name = "BadQueryParamError";
  }
}

/** Throws BadQueryParamError when any parameter carries bad bytes. */
export function assertCleanQueryParams(input: QueryInput): void {
  const bad = findBadQueryParam(input);
  if (bad) throw new BadQueryParamError(bad);
}

/**
 * For the request proxy, which sees every page and route first (a page cannot answer 400 itself):
 * the 400 body when the URL's query has bad bytes, else null.
 *   const bad = badQueryParamBody(req.nextUrl.searchParams);
 *   if (bad) return secure(NextResponse.json(bad, { status: 400 }));
 */
export function badQueryParamBody(params: URLSearchParams): { error: string; fieldErrors: Record<string, string[]> } | null {
  const bad = findBadQueryParam(params);
  if (!bad) return null;
  const message = badQueryParamMessage(bad);
  return { error: message, fieldErrors: { [bad.param]: [message] } };
}
