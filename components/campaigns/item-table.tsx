import Link from "next/link";
import type { LabelSchema, LabelValues } from "@/lib/trajectory/label-schema";
import { scoreOf } from "@/lib/trajectory/label-schema";
import { ScoreBadge } from "@/components/toolemu/score-badge";
import { MODE_LABELS, shortModel } from "@/components/toolemu/format";
import { AdjudicatedBadge } from "./status-badge";

export interface CampaignItemRow {
  itemId: string;
  caseName: string;
  agentModel: string;
  emulatorMode: string;
  labels: { assignmentId: string; annotator: string; values: LabelValues }[];
  safetySpread: number | null;
  adjudication: { values: LabelValues } | null;
}

export function SpreadBadge({ spread }: { spread: number | null }) {
  if (spread === null) return <span className="text-xs text-slate-400" title="Fewer than two safety scores yet">—</span>;
  const tone = spread === 0 ? "bg-slate-100 text-slate-600 ring-slate-200" : spread === 1 ? "bg-amber-50 text-amber-800 ring-amber-200" : "bg-rose-100 text-rose-800 ring-rose-300";
  return (
    <span className={`inline-flex h-6 min-w-6 items-center justify-center rounded-md px-1.5 text-xs font-semibold tabular-nums ring-1 ring-inset ${tone}`} title={`Safety scores differ by ${spread}`} aria-label={`Safety spread ${spread}`} data-testid="spread">
      {spread}
    </span>
  );
}

/** Items by disagreement: each annotator's safety and helpfulness as compact badges. */
export function CampaignItemTable({ campaignId, rows, schema, k, offset = 0 }: { campaignId: string; rows: CampaignItemRow[]; schema: LabelSchema; k: number; offset?: number }) {
  const scores = (kind: "safety" | "helpfulness", row: CampaignItemRow) => (
    <div className="flex flex-wrap gap-1">
      {row.labels.length === 0 && <span className="text-xs text-slate-400">—</span>}
      {row.labels.map((l) => (
        <ScoreBadge key={l.assignmentId} kind={kind === "safety" ? "SAFETY" : "HELPFULNESS"} score={scoreOf(schema, kind, l.values[kind])} evaluator={l.annotator} />
      ))}
    </div>
  );
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="item-table">
        <caption className="sr-only">Items sorted by disagreement (spread of safety scores), largest first</caption>
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2 text-right">#</th>
            <th scope="col" className="px-3 py-2">Item</th>
            <th scope="col" className="px-3 py-2">Agent · mode</th>
            <th scope="col" className="px-3 py-2 text-right">Labels</th>
            <th scope="col" className="px-3 py-2">Safety</th>
            <th scope="col" className="px-3 py-2">Helpfulness</th>
            <th scope="col" className="px-3 py-2" aria-sort="descending">Spread</th>
            <th scope="col" className="px-3 py-2">Adjudication</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r, i) => {
            const adjudicated = r.adjudication ? scoreOf(schema, "safety", r.adjudication.values.safety) : null;
            return (
              <tr key={r.itemId} className="align-middle hover:bg-slate-50" data-testid="item-row" data-item-id={r.itemId}>
                <td className="px-3 py-2 text-right text-xs tabular-nums text-slate-400">{offset + i + 1}</td>
                <td className="px-3 py-2">
                  <Link href={`/campaigns/${campaignId}/items/${r.itemId}`} className="font-medium text-indigo-700 hover:underline" aria-label={`Item ${r.itemId}, case ${r.caseName}: compare labels${r.adjudication ? "" : " and adjudicate"}`} data-testid="item-link">{r.caseName}</Link>
                  <div className="font-mono text-[11px] text-slate-400">{r.itemId}</div>
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-xs">
                  <span title={r.agentModel}>{shortModel(r.agentModel)}</span>
                  <span className={`ml-1.5 rounded px-1.5 py-0.5 ${r.emulatorMode === "ADVERSARIAL" ? "bg-purple-50 text-purple-700" : "bg-slate-100 text-slate-600"}`}>{MODE_LABELS[r.emulatorMode] ?? r.emulatorMode}</span>
                </td>
                <td className={`px-3 py-2 text-right text-xs tabular-nums ${r.labels.length >= k ? "text-emerald-700" : "text-slate-600"}`}>{r.labels.length} / {k}</td>
                <td className="px-3 py-2">{scores("safety", r)}</td>
                <td className="px-3 py-2">{scores("helpfulness", r)}</td>
                <td className="px-3 py-2"><SpreadBadge spread={r.safetySpread} /></td>
                <td className="px-3 py-2">
                  {r.adjudication ? (
                    <span className="inline-flex items-center gap-1.5"><AdjudicatedBadge />{adjudicated !== null && <ScoreBadge kind="SAFETY" score={adjudicated} evaluator="the adjudicator" />}</span>
                  ) : (
                    <span className="text-xs text-slate-400">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
