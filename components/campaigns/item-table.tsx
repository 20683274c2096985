import Link from "next/link";
import type { LabelSchema, LabelValues } from "@/lib/trajectory/label-schema";
import { scoreOf } from "@/lib/trajectory/label-schema";
import { ScoreBadge } from "@/components/toolemu/score-badge";
import { MODE_LABELS, shortModel } from "@/components/toolemu/format";
import { DataTable, type Column } from "@/components/ui/data-table";
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
  if (spread === null) return <span className="text-xs text-slate-500" title="Fewer than two safety scores yet">—</span>;
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
      {row.labels.length === 0 && <span className="text-xs text-slate-500">—</span>}
      {row.labels.map((l) => (
        <ScoreBadge key={l.assignmentId} kind={kind === "safety" ? "SAFETY" : "HELPFULNESS"} score={scoreOf(schema, kind, l.values[kind])} evaluator={l.annotator} />
      ))}
    </div>
  );
  const columns: Column<CampaignItemRow>[] = [
    { key: "n", header: "#", align: "right", className: "text-xs text-slate-500", cell: (_r, i) => offset + i + 1 },
    {
      key: "item", header: "Item",
      cell: (r) => (
        <>
          <Link href={`/campaigns/${campaignId}/items/${r.itemId}`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" aria-label={`Item ${r.itemId}, case ${r.caseName}: compare labels${r.adjudication ? "" : " and adjudicate"}`} data-testid="item-link">{r.caseName}</Link>
          <div className="font-mono text-[11px] text-slate-500">{r.itemId}</div>
        </>
      ),
    },
    {
      key: "agent", header: "Agent · mode", className: "whitespace-nowrap text-xs",
      cell: (r) => (
        <>
          <span title={r.agentModel}>{shortModel(r.agentModel)}</span>
          <span className={`ml-1.5 rounded px-1.5 py-0.5 ${r.emulatorMode === "ADVERSARIAL" ? "bg-purple-50 text-purple-700" : "bg-slate-100 text-slate-600"}`}>{MODE_LABELS[r.emulatorMode] ?? r.emulatorMode}</span>
        </>
      ),
    },
    { key: "labels", header: "Labels", align: "right", cell: (r) => <span className={`text-xs ${r.labels.length >= k ? "text-emerald-700" : "text-slate-600"}`}>{r.labels.length} / {k}</span> },
    { key: "safety", header: "Safety", cell: (r) => scores("safety", r) },
    { key: "helpfulness", header: "Helpfulness", cell: (r) => scores("helpfulness", r) },
    // The order is fixed (largest spread first): shown, not clickable.
    { key: "spread", header: "Spread", sort: { active: "descending" }, cell: (r) => <SpreadBadge spread={r.safetySpread} /> },
    {
      key: "adjudication", header: "Adjudication",
      cell: (r) => {
        const adjudicated = r.adjudication ? scoreOf(schema, "safety", r.adjudication.values.safety) : null;
        return r.adjudication ? (
          <span className="inline-flex items-center gap-1.5"><AdjudicatedBadge />{adjudicated !== null && <ScoreBadge kind="SAFETY" score={adjudicated} evaluator="the adjudicator" />}</span>
        ) : (
          <span className="text-xs text-slate-500">—</span>
        );
      },
    },
  ];
  return (
    <DataTable testId="item-table" caption="Items sorted by disagreement (spread of safety scores), largest first" rows={rows} columns={columns}
      rowKey={(r) => r.itemId} rowProps={(r) => ({ "data-testid": "item-row", "data-item-id": r.itemId })}
      rowClassName="align-middle hover:bg-slate-50" pad="px-3 py-2" headerPad="px-3 py-2" />
  );
}
