// Number, money, duration and interval formatting for every page. Pure: server and client
// components both use it. The one home of these helpers (pages used to carry their own copies).
//
// API:
//   fmt(value, digits = 4)          "0.1758", "−0.3061" (true minus sign); never "NaN"
//   fmtPercent(value, digits = 1)   "39.6%"
//   fmtInt(n)                       "1,234" (rounded)
//   fmtUsd(x)                       "$0", "$0.0042", "$3.10", "$1,234"
//   fmtCi(ci, format)               "[0.0512, 0.3012]" or null when the CI is undefined
//   fmtMean(x)                      a 0–3 mean with two decimals, "—" when there is none
//   fmtDuration(ms)                 "1 min 23 s" (time spent); fmtEta(seconds) "1 h 5 min" (time left)
//   ESTIMATE_DIGITS (4)             digits of κ and means everywhere
//   smallSampleReason(n, ci, cc)    why a κ/α gets the "small n" badge (n < SMALL_N or a
//                                   zero-width bootstrap interval), or null
import type { ConfidenceInterval } from "@/lib/metrics";

export const ESTIMATE_DIGITS = 4;

export function fmt(value: number, digits = ESTIMATE_DIGITS): string {
  if (!Number.isFinite(value)) return "—";
  // Rounding to 0 must not print "-0.0000".
  const s = value.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s.replace(/^-/, "−");
}

export function fmtPercent(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return "—";
  return `${fmt(value * 100, digits)}%`;
}

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** US dollars with enough digits for fractions of a cent (LLM calls are cheap one by one). */
export function fmtUsd(x: number): string {
  if (x === 0) return "$0";
  return x < 0.01 ? `$${x.toFixed(4)}` : x < 100 ? `$${x.toFixed(2)}` : `$${fmtInt(x)}`;
}

/** A mean score (0–3) with two decimals; "—" when nothing was scored. */
export const fmtMean = (x: { mean: number | null }) => (x.mean === null ? "—" : x.mean.toFixed(2));

/** 83_000 → "1 min 23 s"; 0 → "—". */
export function fmtDuration(ms: number): string {
  if (!ms || ms < 0) return "—";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** 3900 → "1 h 5 min"; null → "—". */
export function fmtEta(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const m = Math.round(seconds / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

export type NumberFormat = "decimal" | "percent";

export function fmtAs(value: number, format: NumberFormat = "decimal", digits?: number): string {
  return format === "percent" ? fmtPercent(value, digits ?? 1) : fmt(value, digits ?? ESTIMATE_DIGITS);
}

export function fmtCi(ci: ConfidenceInterval | undefined, format: NumberFormat = "decimal", digits?: number): string | null {
  if (!ci || ci.undefined) return null;
  return `[${fmtAs(ci.lower, format, digits)}, ${fmtAs(ci.upper, format, digits)}]`;
}

/** Below this many items a κ or α is shown with two decimals and a "small n" badge. */
export const SMALL_N = 20;

/**
 * Why an estimate's bootstrap interval should not be read as precision, or null. A percentile
 * interval whose resampled values all agree (lower = upper) says nothing at small n — it is hidden
 * rather than shown as a zero-width interval. Chance-corrected statistics (κ, α) also get the
 * badge below SMALL_N items.
 */
export function smallSampleReason(n: number | undefined, ci: ConfidenceInterval | undefined, chanceCorrected: boolean): string | null {
  const degenerate = isDegenerateInterval(ci);
  const small = chanceCorrected && n !== undefined && n < SMALL_N;
  if (!degenerate && !small) return null;
  const parts: string[] = [];
  if (small) parts.push(`n = ${fmtInt(n!)} is below ${SMALL_N}: a κ or α this small moves a lot with one item, so two decimals are shown`);
  if (degenerate) parts.push("every bootstrap resample gave the same value, so no interval is shown (it would have zero width)");
  return `${parts.join("; ")}.`;
}

/** A degenerate (zero-width) percentile interval: shown as no interval at all. */
export function isDegenerateInterval(ci: ConfidenceInterval | undefined): boolean {
  return ci !== undefined && !ci.undefined && ci.method === "percentile" && ci.upper - ci.lower === 0;
}
