// Number formatting for the dashboards. Pure: server and client components both use it.
//
// API:
//   fmt(value, digits = 4)          "0.1758", "−0.3061" (true minus sign); never "NaN"
//   fmtPercent(value, digits = 1)   "39.6%"
//   fmtInt(n)                       "1,234"
//   fmtCi(ci, format)               "[0.0512, 0.3012]" or null when the CI is undefined
//   ESTIMATE_DIGITS (4)             digits of κ and means everywhere
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
  return n.toLocaleString("en-US");
}

export type NumberFormat = "decimal" | "percent";

export function fmtAs(value: number, format: NumberFormat = "decimal", digits?: number): string {
  return format === "percent" ? fmtPercent(value, digits ?? 1) : fmt(value, digits ?? ESTIMATE_DIGITS);
}

export function fmtCi(ci: ConfidenceInterval | undefined, format: NumberFormat = "decimal", digits?: number): string | null {
  if (!ci || ci.undefined) return null;
  return `[${fmtAs(ci.lower, format, digits)}, ${fmtAs(ci.upper, format, digits)}]`;
}
