import Link from "next/link";
import { DataTable, type Column } from "@/components/ui/data-table";
import type { ToolkitListRow } from "@/lib/toolemu/queries/toolkits";
import { ProvenanceBadge } from "@/components/authoring/provenance-badge";

const COLUMNS: Column<ToolkitListRow>[] = [
  {
    key: "toolkit", header: "Toolkit",
    cell: (t) => (
      <>
        <Link href={`/toolkits/${encodeURIComponent(t.name)}`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{t.name}</Link>
        {t.nameForHuman && t.nameForHuman !== t.name && <span className="ml-2 text-slate-500">{t.nameForHuman}</span>}
        <p className="mt-0.5 max-w-2xl text-slate-600">{t.descriptionForHuman}</p>
      </>
    ),
  },
  { key: "provenance", header: "Provenance", cell: (t) => <ProvenanceBadge provenance={t.provenance} version={t.currentVersion} /> },
  { key: "category", header: "Category", className: "text-slate-700", cell: (t) => t.category ?? <span className="text-slate-500" aria-label="no category">—</span> },
  { key: "tools", header: "Tools", align: "right", cell: (t) => t.toolCount },
  {
    key: "cases", header: "Cases", align: "right",
    cell: (t) => t.caseCount > 0 ? (
      <Link href={`/cases?toolkit=${encodeURIComponent(t.name)}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" aria-label={`${t.caseCount} cases use ${t.name}`}>{t.caseCount}</Link>
    ) : 0,
  },
];

export function ToolkitTable({ toolkits }: { toolkits: ToolkitListRow[] }) {
  return <DataTable rows={toolkits} columns={COLUMNS} rowKey={(t) => t.name} rowProps={() => ({ "data-testid": "toolkit-row" })} />;
}
