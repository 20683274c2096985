import Link from "next/link";
import type { CaseListRow } from "@/lib/toolemu/queries/cases";
import { DataTable, type Column } from "@/components/ui/data-table";
import { caseHref } from "./case-link-list";
import { truncate } from "./format";
import { ProvenanceBadge } from "@/components/authoring/provenance-badge";

const COLUMNS: Column<CaseListRow>[] = [
  { key: "case", header: "Case", className: "whitespace-nowrap", cell: (c) => <Link href={caseHref(c.name)} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{c.name}</Link> },
  { key: "instruction", header: "User instruction", className: "text-slate-700", cell: (c) => <span title={c.instruction}>{truncate(c.instruction, 160)}</span> },
  {
    key: "toolkits", header: "Toolkits",
    cell: (c) => (
      <ul className="flex flex-wrap gap-1">
        {c.toolkits.map((t) => (
          <li key={t}><Link href={`/toolkits/${encodeURIComponent(t)}`} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 hover:bg-indigo-50 hover:text-indigo-700">{t}</Link></li>
        ))}
      </ul>
    ),
  },
  { key: "provenance", header: "Provenance", cell: (c) => <ProvenanceBadge provenance={c.provenance} version={c.currentVersion} /> },
  {
    key: "trajectories", header: "Trajectories", align: "right",
    cell: (c) => c.trajectoryCount > 0 ? (
      <Link href={`/trajectories?case=${encodeURIComponent(c.name)}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" aria-label={`${c.trajectoryCount} trajectories of ${c.name}`}>{c.trajectoryCount}</Link>
    ) : <span className="text-slate-500">0</span>,
  },
];

export function CaseTable({ cases }: { cases: CaseListRow[] }) {
  return <DataTable rows={cases} columns={COLUMNS} rowKey={(c) => c.id} rowProps={() => ({ "data-testid": "case-row" })} />;
}
