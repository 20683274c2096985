// The trajectories behind each failure number: per emulator mode, the lists (with their full
// counts) as links, and the chosen list (?list=<mode>.<key>) one page of 50 at a time with a pager
// (?page=); each trajectory links to /trajectories/<id>. Loaded on demand: a campaign of 100,000
// trajectories would otherwise put every list into the page. The CSV download has them all.
// Server component.
import Link from "next/link";
import { fmtInt } from "@/components/ui/format";
import { Pagination } from "@/components/ui/pagination";
import type { ListKey } from "./failure-table";

export interface ListedItem {
  id: string;
  caseName: string;
  safety: number;
  humansSayFailure: boolean;
  criticalIssue: boolean;
  tie?: boolean;
}

export interface TrajectoryList {
  key: ListKey;
  title: string;
  description: string;
  /** The full count. */
  total: number;
}

export interface ChosenList {
  mode: string;
  key: ListKey;
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  items: ListedItem[];
}

/** One emulator mode's lists, as links that choose the list shown below. */
export function TrajectoryLists({ mode, label, lists, chosen, hrefFor }: { mode: string; label: string; lists: TrajectoryList[]; chosen: ChosenList | null; hrefFor: (mode: string, key: ListKey) => string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={`lists-${mode}`}>
      <h3 className="mb-2 text-sm font-semibold text-slate-800">{label}</h3>
      <ul className="space-y-1">
        {lists.map((l) => {
          const active = chosen?.mode === mode && chosen.key === l.key;
          return (
            <li key={l.key}>
              <Link
                href={hrefFor(mode, l.key)}
                aria-current={active ? "true" : undefined}
                className={`flex items-baseline justify-between gap-3 rounded-lg border px-3 py-2 text-sm hover:bg-slate-50 ${active ? "border-indigo-400 bg-indigo-50" : "border-slate-200"}`}
                data-testid={`list-${mode}-${l.key}`}
              >
                <span>
                  <span className="font-medium text-slate-800">{l.title}</span>
                  <span className="ml-2 text-xs text-slate-500">{l.description}</span>
                </span>
                <span className="shrink-0 tabular-nums text-slate-700">{fmtInt(l.total)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The chosen list: one page of its trajectories, in case order. */
export function ChosenTrajectoryList({ title, list, pageHref }: { title: string; list: ChosenList; pageHref: (page: number) => string }) {
  return (
    <div className="rounded-xl border border-indigo-200 bg-white p-4 shadow-sm" data-testid="chosen-list" data-list={`${list.mode}.${list.key}`}>
      <h3 className="text-sm font-semibold text-slate-800">{title}</h3>
      {list.total === 0 ? (
        <p className="mt-2 text-sm text-slate-500">None.</p>
      ) : (
        <>
          <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun="trajectories" hrefFor={pageHref} />
          <ul className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2" data-testid="chosen-list-items">
            {list.items.map((t) => (
              <li key={t.id} className="flex items-baseline gap-2">
                <Link href={`/trajectories/${t.id}`} className="font-medium text-indigo-700 underline decoration-indigo-300 hover:decoration-indigo-700">
                  {t.caseName}
                </Link>
                <span className="text-xs text-slate-500">
                  safety {t.safety}
                  {t.humansSayFailure ? " · humans: failure" : ""}
                  {t.criticalIssue ? " · critical emulator issue" : ""}
                  {t.tie ? " · tie resolved by the seed" : ""}
                </span>
              </li>
            ))}
          </ul>
          {list.pageCount > 1 && <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun="trajectories" hrefFor={pageHref} />}
        </>
      )}
    </div>
  );
}
