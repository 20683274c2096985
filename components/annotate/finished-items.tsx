// My finished items in a campaign, each with a hint of its content (the instruction's first words
// and the toolkits) rather than "Item 1…4"; each opens the item to revise its label.
import Link from "next/link";

export interface FinishedLink {
  href: string;
  hint: string;
  /** 1 = the first item I finished; null = the item I am working on (not a finished one). */
  position: number | null;
  submittedAt?: string | null;
}

function When({ at }: { at?: string | null }) {
  return at ? <time dateTime={at} className="shrink-0 text-xs text-slate-500">{at.slice(0, 16).replace("T", " ")}</time> : null;
}

function List({ items, current }: { items: FinishedLink[]; current: string | null }) {
  return (
    <ol className="space-y-1 text-sm" data-testid="finished-items">
      {items.map((f) => (
        <li key={f.href} className="flex items-baseline gap-2">
          <span className="w-6 shrink-0 text-right text-xs tabular-nums text-slate-500">{f.position}.</span>
          <Link href={f.href} aria-current={f.href === current ? "page" : undefined} className={`min-w-0 flex-1 hover:underline ${f.href === current ? "font-medium text-slate-900" : "text-indigo-700"}`} data-testid="finished-item">
            {f.hint}
          </Link>
          <When at={f.submittedAt} />
        </li>
      ))}
    </ol>
  );
}

/** `compact`: a disclosure in the screen's header; otherwise the full list (the campaign's done screen). */
export function FinishedItems({ items, current, compact }: { items: FinishedLink[]; current: string | null; compact?: boolean }) {
  if (!compact) return <List items={items} current={current} />;
  return (
    <details className="relative">
      <summary className="cursor-pointer text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">My finished items ({items.length})</summary>
      <div className="absolute right-0 z-20 mt-1 max-h-80 w-[28rem] max-w-[90vw] overflow-auto rounded-lg border border-slate-200 bg-white p-3 shadow-lg">
        <List items={items} current={current} />
      </div>
    </details>
  );
}
