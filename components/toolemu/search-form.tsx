import Link from "next/link";

/**
 * A plain GET form (works without JavaScript, keeps the search in the URL). Extra fields, e.g.
 * a toolkit select, go in `children`.
 */
export function SearchForm({ action, label, placeholder, defaultValue, children, clearHref }: {
  action: string;
  label: string;
  placeholder?: string;
  defaultValue?: string;
  children?: React.ReactNode;
  /** Shown as "Clear" when something is set. */
  clearHref?: string;
}) {
  return (
    <form action={action} method="get" role="search" aria-label={label} className="mb-4 flex flex-wrap items-end gap-3">
      <div className="flex min-w-64 flex-1 flex-col">
        <label htmlFor="search-q" className="text-xs font-medium text-slate-600">{label}</label>
        <input id="search-q" type="search" name="q" defaultValue={defaultValue} placeholder={placeholder} maxLength={300}
          className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 placeholder:text-slate-400" />
      </div>
      {children}
      <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Search</button>
      {clearHref && <Link href={clearHref} className="py-1.5 text-sm text-slate-600 underline hover:text-slate-900">Clear</Link>}
    </form>
  );
}
