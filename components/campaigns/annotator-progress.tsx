import { MiniBar } from "./mini-bar";
import { DataTable, type Column } from "@/components/ui/data-table";
import { fmtInt } from "@/components/ui/format";

export interface AnnotatorProgressRow {
  userId: string;
  name: string;
  email: string;
  submitted: number;
  claimed: number;
  skipped: number;
}

/** One row per invited annotator: submitted against their expected share, in progress, skipped. */
export function AnnotatorProgressTable({ rows, expected }: { rows: AnnotatorProgressRow[]; expected: number }) {
  if (rows.length === 0) return <p className="text-sm text-slate-500">Nobody is invited to this campaign.</p>;
  const columns: Column<AnnotatorProgressRow>[] = [
    {
      key: "annotator", header: "Annotator", rowHeader: true, className: "font-normal",
      cell: (r) => (
        <>
          <div className="font-medium text-slate-900">{r.name}</div>
          <div className="text-xs text-slate-500">{r.email}</div>
        </>
      ),
    },
    { key: "submitted", header: "Submitted / expected share", cell: (r) => <MiniBar done={r.submitted} total={expected} label={`${r.name}: ${r.submitted} submitted of an expected ${expected}`} /> },
    { key: "claimed", header: "In progress", align: "right", cell: (r) => fmtInt(r.claimed) },
    { key: "skipped", header: "Skipped", align: "right", cell: (r) => (r.skipped > 0 ? <span className="text-amber-700">{fmtInt(r.skipped)}</span> : 0) },
  ];
  return (
    <DataTable testId="annotator-progress" caption="Progress per annotator" rows={rows} columns={columns} rowKey={(r) => r.userId} rowClassName=""
      rowProps={(r) => ({ "data-testid": "annotator-row", "data-email": r.email })} />
  );
}
