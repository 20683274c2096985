// A JSON value shown as indented text (hidden specifications, environment state).
// Focusable and named, so keyboard users can scroll a long block (axe: scrollable-region-focusable).
export function JsonView({ value, label = "JSON", testId }: { value: unknown; label?: string; testId?: string }) {
  return (
    <pre tabIndex={0} role="region" aria-label={label} className="max-h-96 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-800" data-testid={testId}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
/** A labelled block of text; nothing when empty. */
export function Field({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  if (children === null || children === undefined || children === "") return null;
  return (
    <div data-testid={testId}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 whitespace-pre-wrap break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}
