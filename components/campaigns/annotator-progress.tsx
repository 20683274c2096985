import { MiniBar } from "./mini-bar";
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
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="annotator-progress">
        <caption className="sr-only">Progress per annotator</caption>
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2">Annotator</th>
            <th scope="col" className="px-4 py-2">Submitted / expected share</th>
            <th scope="col" className="px-4 py-2 text-right">In progress</th>
            <th scope="col" className="px-4 py-2 text-right">Skipped</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.userId} data-testid="annotator-row" data-email={r.email}>
              <th scope="row" className="px-4 py-2.5 text-left font-normal">
                <div className="font-medium text-slate-900">{r.name}</div>
                <div className="text-xs text-slate-500">{r.email}</div>
              </th>
              <td className="px-4 py-2.5"><MiniBar done={r.submitted} total={expected} label={`${r.name}: ${r.submitted} submitted of an expected ${expected}`} /></td>
              <td className="px-4 py-2.5 text-right tabular-nums">{fmtInt(r.claimed)}</td>
              <td className="px-4 py-2.5 text-right tabular-nums">{r.skipped > 0 ? <span className="text-amber-700">{fmtInt(r.skipped)}</span> : 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
