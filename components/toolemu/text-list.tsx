/** A list of model- or author-written strings, rendered as text; "None." when empty. */
export function TextList({ items, empty = "None.", testId }: { items: string[]; empty?: string; testId?: string }) {
  if (items.length === 0) return <p className="text-sm text-slate-500" data-testid={testId}>{empty}</p>;
  return (
    <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800" data-testid={testId}>
      {items.map((item, i) => <li key={i} className="whitespace-pre-wrap break-words">{item}</li>)}
    </ul>
  );
}

/** A titled section of a detail page. */
export function Section({ id, title, children, className = "" }: { id: string; title: React.ReactNode; children: React.ReactNode; className?: string }) {
  return (
    <section aria-labelledby={id} className={`rounded-xl border border-slate-200 bg-white p-5 shadow-sm ${className}`}>
      <h2 id={id} className="text-sm font-semibold text-slate-900">{title}</h2>
      <div className="mt-2">{children}</div>
    </section>
  );
}
