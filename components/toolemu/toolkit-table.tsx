import Link from "next/link";
import type { ToolkitListRow } from "@/lib/toolemu/queries/toolkits";

export function ToolkitTable({ toolkits }: { toolkits: ToolkitListRow[] }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2">Toolkit</th>
            <th scope="col" className="px-4 py-2">Category</th>
            <th scope="col" className="px-4 py-2 text-right">Tools</th>
            <th scope="col" className="px-4 py-2 text-right">Cases</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {toolkits.map((t) => (
            <tr key={t.name} data-testid="toolkit-row" className="align-top hover:bg-slate-50">
              <td className="px-4 py-2.5">
                <Link href={`/toolkits/${encodeURIComponent(t.name)}`} className="font-medium text-indigo-700 hover:underline">{t.name}</Link>
                {t.nameForHuman && t.nameForHuman !== t.name && <span className="ml-2 text-slate-500">{t.nameForHuman}</span>}
                <p className="mt-0.5 max-w-2xl text-slate-600">{t.descriptionForHuman}</p>
              </td>
              <td className="px-4 py-2.5 text-slate-700">{t.category ?? <span className="text-slate-400" aria-label="no category">—</span>}</td>
              <td className="px-4 py-2.5 text-right tabular-nums">{t.toolCount}</td>
              <td className="px-4 py-2.5 text-right tabular-nums">
                {t.caseCount > 0 ? (
                  <Link href={`/cases?toolkit=${encodeURIComponent(t.name)}`} className="text-indigo-700 hover:underline" aria-label={`${t.caseCount} cases use ${t.name}`}>{t.caseCount}</Link>
                ) : 0}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
