// ToolEmu's agreement table: rows safety / helpfulness; column groups "evaluator vs human
// majority" and "human vs human (leave-one-out)", each with κ categorical / linear / quadratic
// (0–3) and binarized, every cell with its 95% CI and n. Server or client (no hooks).
import type { ConfidenceInterval, Estimate as EstimateValue, KappaVariant, SensitivityRange } from "@/lib/metrics";
import { Estimate } from "../estimate";
import { TiesExcluded } from "./ties-excluded";
import { ScrollRegion } from "@/components/ui/scroll-region";

export interface AgreementCell {
  value: EstimateValue;
  ci?: ConfidenceInterval;
  n: number;
  /** Tie policy "sensitivity": the range over every resolution of the ties. */
  range?: SensitivityRange;
  /** Tie policy "exclude": tied items left out of n. */
  tiesExcluded?: number;
}

export interface AgreementTableRow {
  id: string;
  label: string;
  evaluator: Record<KappaVariant, AgreementCell>;
  human: Record<KappaVariant, AgreementCell>;
}

const VARIANTS: { v: KappaVariant; label: string }[] = [
  { v: "categorical", label: "categorical" },
  { v: "linear", label: "linear" },
  { v: "quadratic", label: "quadratic" },
  { v: "binarized", label: "binarized" },
];

// No `uppercase` on headers that contain κ: an upper-case κ (Κ) reads as a Latin K.
const th = "px-3 py-2 text-left text-xs font-semibold text-slate-600";

export function HumanAgreementTable({ rows, evaluatorName }: { rows: AgreementTableRow[]; evaluatorName: string }) {
  return (
    <ScrollRegion>
      <table className="min-w-full text-sm" data-testid="agreement-table">
        <caption className="px-3 pt-3 text-left text-sm font-medium text-slate-800">
          Cohen&apos;s κ — evaluator vs the human majority, and human vs human (each annotator vs the majority of the others, averaged)
        </caption>
        <thead className="bg-slate-50">
          <tr className="border-b border-slate-200">
            <td />
            <th scope="colgroup" colSpan={4} className={`${th} border-l border-slate-200 text-center text-sm`}>
              Evaluator vs human majority <span className="font-normal text-slate-500">({evaluatorName})</span>
            </th>
            <th scope="colgroup" colSpan={4} className={`${th} border-l border-slate-200 text-center text-sm`}>
              Human vs human <span className="font-normal text-slate-500">(leave-one-out)</span>
            </th>
          </tr>
          <tr className="border-b border-slate-200">
            <th scope="col" className={th}>Score</th>
            {["evaluator", "human"].map((g) =>
              VARIANTS.map((x, i) => (
                <th key={`${g}-${x.v}`} scope="col" className={`${th} ${i === 0 ? "border-l border-slate-200" : ""}`}>
                  κ {x.label}
                  <span className="block font-normal text-slate-500">{x.v === "binarized" ? "≥ 2, binarize then vote" : "0–3"}</span>
                </th>
              )),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row" className="px-3 py-3 text-left align-top font-medium text-slate-800">{row.label}</th>
              {(["evaluator", "human"] as const).map((g) =>
                VARIANTS.map((x, i) => {
                  const c = row[g][x.v];
                  return (
                    <td key={`${g}-${x.v}`} className={`px-3 py-3 align-top ${i === 0 ? "border-l border-slate-200" : ""}`}>
                      <Estimate value={c.value} ci={c.ci} n={c.n} range={c.range} chanceCorrected layout="stacked" testId={`${row.id}-${g}-${x.v}`} />
                      <TiesExcluded count={c.tiesExcluded} testId={`${row.id}-${g}-${x.v}-ties-excluded`} />
                    </td>
                  );
                }),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
