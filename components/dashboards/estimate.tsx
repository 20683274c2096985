// One estimate as the dashboards show it: the value, its 95% CI and n — or "undefined — reason".
// Never prints NaN. Works in server and client components (no hooks).
//
//   <Estimate value={kappa} ci={intervals.categorical} n={144} />            0.1758  [0.05, 0.30]  n = 144
//   <Estimate value={ratio(3, 10)} format="percent" ci={ci} n={10} />       30.0%  [10.0%, 60.0%]  n = 10
//   <Estimate value={{ undefined: true, reason: "no items" }} />             undefined — no items
//
// Props: value (an Estimate from lib/metrics, or a plain number, or null = undefined without a
// reason), ci (ConfidenceInterval from lib/metrics), n, format ("decimal" 4 digits | "percent"),
// digits, layout ("inline" | "stacked" for table cells), testId (put on the value element).
import type { ConfidenceInterval, Estimate as EstimateValue, SensitivityRange } from "@/lib/metrics";
import { fmtAs, fmtCi, fmtInt, isDegenerateInterval, smallSampleReason, type NumberFormat } from "@/components/ui/format";
import { UndefinedValue } from "./undefined-value";

export interface EstimateProps {
  value: EstimateValue | number | null | undefined;
  ci?: ConfidenceInterval;
  n?: number;
  format?: NumberFormat;
  digits?: number;
  layout?: "inline" | "stacked";
  /** Show the CI's level (e.g. "95% CI") in the text; the title always says it. */
  showLevel?: boolean;
  /** κ or α: below SMALL_N items, two decimals and a "small n" badge that says why. */
  chanceCorrected?: boolean;
  /** Tie policy "sensitivity": the exact range over every resolution of the ties. */
  range?: SensitivityRange;
  /** The statistic's symbol for an undefined value ("κ undefined — …"). */
  symbol?: string;
  testId?: string;
}

function asEstimate(v: EstimateProps["value"]): EstimateValue {
  if (v === null || v === undefined) return { undefined: true, reason: "no value" };
  if (typeof v === "number") return Number.isFinite(v) ? { value: v } : { undefined: true, reason: "not a finite number" };
  return v;
}

export function ciTitle(ci: ConfidenceInterval | undefined): string | undefined {
  if (!ci) return undefined;
  const level = `${Math.round(ci.level * 100)}%`;
  if (ci.undefined) return `${level} CI undefined: ${ci.reason}`;
  if (ci.method === "wilson") return `${level} Wilson score interval of ${fmtInt(ci.successes)} / ${fmtInt(ci.trials)}`;
  const skipped = ci.skipped > 0 ? `; ${ci.skipped} resamples undefined and left out` : "";
  return `${level} percentile bootstrap CI, ${fmtInt(ci.resamples)} resamples, seed ${ci.seed}${skipped}`;
}

/** The amber "small n" badge; its title and screen-reader text say why. */
export function SmallNBadge({ reason }: { reason: string }) {
  return (
    <span className="rounded bg-amber-100 px-1.5 py-0.5 text-[11px] font-medium text-amber-800" title={reason} data-testid="small-n">
      small n<span className="sr-only">: {reason}</span>
    </span>
  );
}

/** "range [a, b]" over the tie resolutions, or why there is none. */
export function TieRange({ range, format = "decimal", digits, testId }: { range: SensitivityRange; format?: NumberFormat; digits?: number; testId?: string }) {
  if (!range.defined) {
    return <span className="text-xs text-amber-700" data-testid={testId}>range not computed — {range.reason}</span>;
  }
  if (range.ties === 0) return null;
  const how =
    range.method === "dinkelbach"
      ? "found by Dinkelbach's search over the resolutions that give alike ties one label (exact)"
      : "from every resolution that gives alike ties one label (exact: the extremes of a ratio of linear counts lie there)";
  const title = `Minimum and maximum over every way of resolving the ${fmtInt(range.ties)} tied item(s): ${how}${range.partial ? "; some resolutions leave it undefined and are left out" : ""}.`;
  return (
    <span className="rounded bg-violet-50 px-1.5 py-0.5 text-xs tabular-nums text-violet-800 ring-1 ring-violet-200" title={title} data-testid={testId}
      data-min={range.min} data-max={range.max}>
      range [{fmtAs(range.min, format, digits)}, {fmtAs(range.max, format, digits)}] over {fmtInt(range.ties)} tie{range.ties === 1 ? "" : "s"}
    </span>
  );
}

export function Estimate({ value, ci, n, format = "decimal", digits, layout = "inline", showLevel = false, chanceCorrected = false, range, symbol, testId }: EstimateProps) {
  const e = asEstimate(value);
  const nText = n === undefined ? null : `n = ${fmtInt(n)}`;
  if (e.undefined) {
    return (
      <span className={layout === "stacked" ? "flex flex-col" : "inline-flex flex-wrap items-baseline gap-x-2"}>
        <UndefinedValue reason={e.reason} symbol={symbol} testId={testId} />
        {nText && <span className="text-xs text-slate-500">{nText}</span>}
      </span>
    );
  }
  const smallN = smallSampleReason(n, ci, chanceCorrected);
  // Two decimals where n is small: four would claim a precision the data do not have.
  const shown = smallN && chanceCorrected && format === "decimal" ? Math.min(digits ?? 4, 2) : digits;
  const hideCi = isDegenerateInterval(ci);
  const ciText = fmtCi(ci, format, shown);
  return (
    <span className={layout === "stacked" ? "flex flex-col" : "inline-flex flex-wrap items-baseline gap-x-2"}>
      <span className="font-semibold tabular-nums text-slate-900" data-testid={testId} data-value={e.value}>
        {fmtAs(e.value, format, shown)}
      </span>
      {ci && !hideCi && (
        <span className="text-xs tabular-nums text-slate-600" title={ciTitle(ci)}>
          {ciText ? `${showLevel ? `${Math.round(ci.level * 100)}% CI ` : ""}${ciText}` : <span className="text-amber-700">CI undefined — {ci.undefined ? ci.reason : ""}</span>}
        </span>
      )}
      {nText && <span className="text-xs text-slate-500">{nText}</span>}
      {range && <TieRange range={range} format={format} digits={shown} testId={testId ? `${testId}-range` : undefined} />}
      {smallN && <SmallNBadge reason={smallN} />}
    </span>
  );
}
