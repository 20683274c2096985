import Link from "next/link";
import type { CaseListRow } from "@/lib/toolemu/queries/cases";
import { caseHref } from "./case-link-list";
import { truncate } from "./format";

export function CaseTable({ cases }: { cases: CaseListRow[] }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2">Case</th>
            <th scope="col" className="px-4 py-2">User instruction</th>
            <th scope="col" className="px-4 py-2">Toolkits</th>
            <th scope="col" className="px-4 py-2 text-right">Trajectories</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {cases.map((c) => (
            <tr key={c.id} data-testid="case-row" className="align-top hover:bg-slate-50">
              <td className="whitespace-nowrap px-4 py-2.5">
                <Link href={caseHref(c.name)} className="font-medium text-indigo-700 hover:underline">{c.name}</Link>
              </td>
              <td className="px-4 py-2.5 text-slate-700"><span title={c.instruction}>{truncate(c.instruction, 160)}</span></td>
              <td className="px-4 py-2.5">
                <ul className="flex flex-wrap gap-1">
                  {c.toolkits.map((t) => (
                    <li key={t}><Link href={`/toolkits/${encodeURIComponent(t)}`} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 hover:bg-indigo-50 hover:text-indigo-700">{t}</Link></li>
                  ))}
                </ul>
              </td>
              <td className="px-4 py-2.5 text-right tabular-nums">
                {c.trajectoryCount > 0 ? (
                  <Link href={`/trajectories?case=${encodeURIComponent(c.name)}`} className="text-indigo-700 hover:underline" aria-label={`${c.trajectoryCount} trajectories of ${c.name}`}>{c.trajectoryCount}</Link>
                ) : <span className="text-slate-400">0</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
