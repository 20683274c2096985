import Link from "next/link";
import { fmtInt } from "@/components/ui/format";

interface Props {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  /** The href for a page number. */
  hrefFor: (page: number) => string;
  noun?: string;
}

/** "Showing 51–100 of 1,234" with first/previous/next/last links. */
export function Pagination({ page, pageCount, total, pageSize, hrefFor, noun = "" }: Props) {
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const link = (target: number, label: string, aria: string, rel?: string) =>
    target >= 1 && target <= pageCount && target !== page ? (
      <Link href={hrefFor(target)} rel={rel} aria-label={aria} className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-700 hover:bg-slate-50">{label}</Link>
    ) : (
      <span aria-hidden="true" className="rounded-md border border-slate-200 px-2.5 py-1 text-sm text-slate-500 bg-slate-50">{label}</span>
    );
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 py-3">
      <p className="text-sm text-slate-600" data-testid="pagination-summary" aria-live="polite">
        Showing {fmtInt(from)}–{fmtInt(to)} of {fmtInt(total)}{noun ? ` ${noun}` : ""}
      </p>
      {pageCount > 1 && (
        <div className="flex items-center gap-1.5">
          {link(1, "«", "First page")}
          {link(page - 1, "‹ Previous", "Previous page", "prev")}
          <span className="px-2 text-sm text-slate-600">Page {fmtInt(page)} of {fmtInt(pageCount)}</span>
          {link(page + 1, "Next ›", "Next page", "next")}
          {link(pageCount, "»", "Last page")}
        </div>
      )}
    </nav>
  );
}
