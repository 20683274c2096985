import Link from "next/link";
import { PROVENANCE_LABELS, type ProvenanceValue } from "./provenance-badge";

/** All / Imported / Authored / Generated: links that keep the rest of the query. */
export function ProvenanceFilter({ base, params, current, counts }: { base: string; params: Record<string, string>; current: ProvenanceValue | null; counts: Record<ProvenanceValue, number> }) {
  const href = (p: ProvenanceValue | null) => {
    const q = new URLSearchParams(Object.entries(params).filter(([k, v]) => k !== "provenance" && k !== "page" && v));
    if (p) q.set("provenance", p.toLowerCase());
    const s = q.toString();
    return s ? `${base}?${s}` : base;
  };
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const item = (p: ProvenanceValue | null, label: string, n: number) => (
    <li key={label}>
      <Link
        href={href(p)}
        aria-current={current === p ? "page" : undefined}
        className={`inline-block rounded-md px-2.5 py-1 text-sm ${current === p ? "bg-indigo-600 text-white" : "border border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
      >
        {label} <span className={current === p ? "text-indigo-100" : "text-slate-500"}>{n}</span>
      </Link>
    </li>
  );
  return (
    <nav aria-label="Filter by provenance" className="mb-3" data-testid="provenance-filter">
      <ul className="flex flex-wrap items-center gap-2">
        <li className="text-sm text-slate-600">Provenance:</li>
        {item(null, "All", total)}
        {(Object.keys(PROVENANCE_LABELS) as ProvenanceValue[]).map((p) => item(p, PROVENANCE_LABELS[p], counts[p]))}
      </ul>
    </nav>
  );
}
