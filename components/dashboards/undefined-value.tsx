// Why a statistic has no value, written on the page — never only in a tooltip:
//   <UndefinedValue symbol="κ" reason="every label is 3 (no variation; chance disagreement is 0)" />
//   → κ undefined — every label is 3 (no variation; chance disagreement is 0)
// Every place that shows κ (or α) uses it, directly or through <Estimate> (./estimate.tsx).
// Works in server and client components (no hooks).

export interface UndefinedValueProps {
  reason: string;
  /** The statistic's symbol ("κ", "α"), shown before "undefined"; none in a column already named by it. */
  symbol?: string;
  /** "compact": smaller text, for table and heatmap cells. */
  size?: "normal" | "compact";
  testId?: string;
}

export function UndefinedValue({ reason, symbol, size = "normal", testId }: UndefinedValueProps) {
  return (
    <span className={`font-medium text-amber-800 ${size === "compact" ? "text-xs leading-snug" : ""}`} data-testid={testId} data-undefined="true" data-reason={reason}>
      {symbol ? `${symbol} undefined` : "undefined"} <span className="font-normal text-amber-700">— {reason}</span>
    </span>
  );
}
