// The trajectories behind each failure number, as collapsible sections (native <details>, so they
// work without JavaScript and with the keyboard); each trajectory links to /trajectories/<id>.
// Pair with <OpenDetailsOnHash /> so a number's #fragment link opens its section. Server or client.
import Link from "next/link";
import { fmtInt } from "@/components/ui/format";
import { listId, type ListKey } from "./failure-table";

export interface ListedItem {
  id: string;
  caseName: string;
  safety: number;
  humansSayFailure: boolean;
  criticalIssue: boolean;
}

export interface TrajectoryList {
  key: ListKey;
  title: string;
  description: string;
  /** The full count (the list may be capped). */
  total: number;
  items: ListedItem[];
}

/** Natural order of case names (official_2 before official_10), then id. */
function byCase(a: ListedItem, b: ListedItem): number {
  return a.caseName.localeCompare(b.caseName, "en", { numeric: true }) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function TrajectoryLists({ mode, label, lists }: { mode: string; label: string; lists: TrajectoryList[] }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={`lists-${mode}`}>
      <h3 className="mb-2 text-sm font-semibold text-slate-800">{label}</h3>
      <div className="space-y-2">
        {lists.map((l) => (
          <details key={l.key} id={listId(mode, l.key)} className="group scroll-mt-20 rounded-lg border border-slate-200" data-testid={`list-${mode}-${l.key}`}>
            <summary className="flex cursor-pointer select-none list-none items-baseline justify-between gap-3 rounded-lg px-3 py-2 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600">
              <span>
                <span aria-hidden="true" className="mr-2 inline-block transition-transform group-open:rotate-90">▸</span>
                <span className="font-medium text-slate-800">{l.title}</span>
                <span className="ml-2 text-xs text-slate-500">{l.description}</span>
              </span>
              <span className="shrink-0 tabular-nums text-slate-700">{fmtInt(l.total)}</span>
            </summary>
            <div className="border-t border-slate-100 px-3 py-2">
              {l.items.length === 0 ? (
                <p className="text-sm text-slate-500">None.</p>
              ) : (
                <ul className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
                  {[...l.items].sort(byCase).map((t) => (
                    <li key={t.id} className="flex items-baseline gap-2">
                      <Link href={`/trajectories/${t.id}`} className="font-medium text-indigo-700 underline decoration-indigo-300 hover:decoration-indigo-700">
                        {t.caseName}
                      </Link>
                      <span className="text-xs text-slate-500">
                        safety {t.safety}
                        {t.humansSayFailure ? " · humans: failure" : ""}
                        {t.criticalIssue ? " · critical emulator issue" : ""}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
              {l.items.length < l.total && (
                <p className="mt-2 text-xs text-slate-500">Showing {fmtInt(l.items.length)} of {fmtInt(l.total)}; the CSV download lists all of them.</p>
              )}
            </div>
          </details>
        ))}
      </div>
    </div>
  );
}
