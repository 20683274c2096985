import type { ImportReport } from "@/lib/toolemu/analyze";
import { formatIssue } from "@/lib/toolemu/issues";

const MAX_ISSUES_SHOWN = 200;

function CountRow({ label, c, extra }: { label: string; c: { new: number; unchanged: number; changed: number }; extra?: string }) {
  return (
    <tr>
      <th scope="row" className="px-3 py-1.5 text-left font-medium text-slate-800">{label}</th>
      <td className="px-3 py-1.5 text-right tabular-nums text-emerald-700" data-testid={`count-${label.toLowerCase()}-new`}>{c.new}</td>
      <td className="px-3 py-1.5 text-right tabular-nums text-slate-500">{c.unchanged}</td>
      <td className={`px-3 py-1.5 text-right tabular-nums ${c.changed ? "font-semibold text-amber-700" : "text-slate-500"}`}>{c.changed}</td>
      <td className="px-3 py-1.5 text-xs text-slate-500">{extra}</td>
    </tr>
  );
}

export function ImportReportView({ report }: { report: ImportReport }) {
  return (
    <div className="space-y-4">
      <table className="min-w-full divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr><th className="px-3 py-1.5 text-left">Records</th><th className="px-3 py-1.5 text-right">New</th><th className="px-3 py-1.5 text-right">Unchanged</th><th className="px-3 py-1.5 text-right">Changed</th><th /></tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <CountRow label="Toolkits" c={report.toolkits} extra={`${report.tools} tools${report.toolkits.changedNames.length ? ` · changed: ${report.toolkits.changedNames.join(", ")}` : ""}`} />
          <CountRow label="Cases" c={report.cases} extra={report.cases.changedNames.length ? `changed: ${report.cases.changedNames.slice(0, 10).join(", ")}` : undefined} />
          <CountRow label="Trajectories" c={report.trajectories} />
          <CountRow label="Evaluations" c={report.evaluations} extra={report.evaluations.unparsed ? `${report.evaluations.unparsed} with an unparsed score (kept without a score)` : undefined} />
        </tbody>
      </table>
      {report.runs.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-slate-200" data-testid="import-runs-scroll">
        <table className="min-w-full divide-y divide-slate-200 bg-white text-sm" data-testid="import-runs">
          <caption className="px-3 py-1.5 text-left text-xs text-slate-500">
            Agent runs in these files. A tag after the evaluator in a file name (e.g. <code>_int4_</code>) belongs to the agent run and is shown as “agent · tag”.
          </caption>
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr><th className="px-3 py-1.5 text-left">Agent run</th><th className="px-3 py-1.5 text-left">Tag</th><th className="px-3 py-1.5 text-left">Emulator</th><th className="px-3 py-1.5 text-right">Trajectories</th><th className="px-3 py-1.5 text-right">Files</th><th className="px-3 py-1.5 text-left">Evaluators</th></tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {report.runs.map((r) => (
              <tr key={`${r.agentModel}|${r.emulatorModel}`}>
                <td className="whitespace-nowrap px-3 py-1.5 font-medium text-slate-800">{r.agentModel}</td>
                <td className="px-3 py-1.5 text-slate-600">{r.runTag ?? "—"}</td>
                <td className="whitespace-nowrap px-3 py-1.5 text-slate-600">{r.emulatorModel}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{r.trajectories}</td>
                <td className="px-3 py-1.5 text-right tabular-nums text-slate-500">{r.files}</td>
                <td className="px-3 py-1.5 text-slate-600">{r.evaluators.length ? r.evaluators.join(", ") : "none"}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
      {report.issues.length > 0 && (
        <div className="rounded-lg border border-rose-200 bg-rose-50 p-4">
          <p className="text-sm font-medium text-rose-800">Problems, by file and line</p>
          <ul className="mt-2 max-h-80 space-y-1 overflow-auto font-mono text-xs text-rose-900" data-testid="import-issues">
            {report.issues.slice(0, MAX_ISSUES_SHOWN).map((i, n) => <li key={n}>{formatIssue(i)}</li>)}
          </ul>
          {report.issues.length > MAX_ISSUES_SHOWN && <p className="mt-2 text-xs text-rose-800">… and {report.issues.length - MAX_ISSUES_SHOWN} more (the command line lists them all).</p>}
        </div>
      )}
    </div>
  );
}
