// The data table every list uses: columns as data, a header cell that sorts (a link when the
// sort lives in the URL, a button when the rows are sorted in the browser; aria-sort says which
// is active), rows with their own test ids. No hooks: server or client. Pagination is
// ./pagination.tsx (URL-driven, under the table).
//
//   <DataTable testId="run-table" rows={rows} rowKey={(r) => r.id} rowProps={(r) => ({ "data-testid": "run-row" })}
//     columns={[{ key: "name", header: "Run", cell: (r) => r.name }, { key: "cost", header: "Cost", align: "right", cell: (r) => fmtUsd(r.cost) }]} />
import Link from "next/link";
import type { ReactNode } from "react";

export type SortDirection = "ascending" | "descending";

export interface ColumnSort {
  active?: SortDirection;
  /** URL-driven: the link that applies the next sort. */
  href?: string;
  /** Client-side: what clicking does. Neither href nor onClick: a fixed order, shown but not clickable. */
  onClick?: () => void;
  title?: string;
  testId?: string;
}

export interface Column<R> {
  key: string;
  header: ReactNode;
  cell: (row: R, index: number) => ReactNode;
  align?: "right";
  /** Classes of the body cells (added to the table's padding). */
  className?: string;
  headerClassName?: string;
  headerTitle?: string;
  /** A second line under the heading. */
  sub?: ReactNode;
  sort?: ColumnSort;
  /** The cell names its row (th scope="row"). */
  rowHeader?: boolean;
}

interface Props<R> {
  rows: R[];
  columns: Column<R>[];
  rowKey: (row: R, index: number) => string;
  rowProps?: (row: R) => Record<string, string | number | boolean | undefined>;
  rowClassName?: string;
  testId?: string;
  caption?: string;
  /** Cell padding: "px-4 py-2.5" by default. */
  pad?: string;
  headerPad?: string;
  headClassName?: string;
  /** aria-busy on the table (an action on a row is in flight). */
  busy?: boolean;
}

function SortHeading({ label, sort }: { label: ReactNode; sort: ColumnSort }) {
  const arrow = <span aria-hidden="true" className={sort.active ? "text-indigo-600" : "text-slate-300"}>{sort.active === "descending" ? "▼" : sort.active === "ascending" ? "▲" : "↕"}</span>;
  const cls = "inline-flex items-center gap-1 uppercase hover:text-slate-900";
  if (!sort.href && !sort.onClick) return <span className="inline-flex items-center gap-1 uppercase" title={sort.title} data-testid={sort.testId}>{label}{arrow}</span>;
  if (sort.href) return <Link href={sort.href} className={cls} title={sort.title} data-testid={sort.testId}>{label}{arrow}</Link>;
  return <button type="button" className={cls} onClick={sort.onClick} title={sort.title} data-testid={sort.testId}>{label}{arrow}</button>;
}

export function DataTable<R>({ rows, columns, rowKey, rowProps, rowClassName = "align-top hover:bg-slate-50", testId, caption, pad = "px-4 py-2.5", headerPad = "px-4 py-2", headClassName = "bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500", busy }: Props<R>) {
  return (
    // Focusable and named: a table wider than the page scrolls, and keyboard users must reach it.
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500" tabIndex={0} role="region" aria-label={caption ?? "Table"}>
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid={testId} aria-busy={busy}>
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className={headClassName}>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" title={c.headerTitle} aria-sort={c.sort ? (c.sort.active ?? "none") : undefined}
                className={`${headerPad} ${c.align === "right" ? "text-right" : ""} ${c.headerClassName ?? ""}`}>
                {c.sort ? <SortHeading label={c.header} sort={c.sort} /> : c.header}
                {c.sub}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r, i) => (
            <tr key={rowKey(r, i)} className={rowClassName} {...rowProps?.(r)}>
              {columns.map((c) => {
                const cls = `${pad} ${c.align === "right" ? "text-right tabular-nums" : ""} ${c.className ?? ""}`;
                return c.rowHeader
                  ? <th key={c.key} scope="row" className={`${cls} text-left`}>{c.cell(r, i)}</th>
                  : <td key={c.key} className={cls}>{c.cell(r, i)}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The next state of a client-sorted table: the same column flips, another starts at its first direction. */
export function nextSort<K extends string>(current: { key: K; dir: "asc" | "desc" }, key: K, firstDir: "asc" | "desc"): { key: K; dir: "asc" | "desc" } {
  return current.key === key ? { key, dir: current.dir === "asc" ? "desc" : "asc" } : { key, dir: firstDir };
}
