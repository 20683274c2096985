// A titled panel (a dashboard figure, a section of a page) with its actions (e.g. a CSV
// download) beside the title, and the "How is this computed" disclosure under it. No hooks.
//
//   <Panel id="leaderboard" title="Leaderboard" actions={<DownloadLink href={csv} />} how={<p>…</p>}>
//     …the figure…
//   </Panel>
import type { ReactNode } from "react";

export function Panel({ id, anchor, title, description, actions, how, howTitle, children, testId, className = "" }: { id: string; /** An id on the section (a link target). */ anchor?: string; title: ReactNode; description?: ReactNode; actions?: ReactNode; how?: ReactNode; howTitle?: string; children: ReactNode; testId?: string; className?: string }) {
  return (
    <section id={anchor} aria-labelledby={`${id}-heading`} className={className} data-testid={testId}>
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">{title}</h2>
          {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
        </div>
        {actions}
      </div>
      {children}
      {how && <Disclosure title={howTitle}>{how}</Disclosure>}
    </section>
  );
}

/** "How is this computed": a native <details>, so it works without JavaScript and with the keyboard. */
export function Disclosure({ title = "How is this computed", defaultOpen, testId = "how-computed", children }: { title?: string; defaultOpen?: boolean; testId?: string; children: ReactNode }) {
  return (
    <details className="group mt-4 rounded-lg border border-slate-200 bg-slate-50 text-sm text-slate-700" open={defaultOpen} data-testid={testId}>
      <summary className="cursor-pointer select-none list-none rounded-lg px-4 py-2 font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600">
        <span aria-hidden="true" className="mr-2 inline-block transition-transform group-open:rotate-90">▸</span>
        {title}
      </summary>
      <div className="space-y-2 px-4 pb-4 pt-1 leading-relaxed">{children}</div>
    </details>
  );
}

/** A download link (CSV of a panel, an export); `disabled` shows why there is nothing to download. */
export function DownloadLink({ href, label = "Download CSV", testId, title, disabled, disabledText = "No numbers to download" }: { href: string; label?: string; testId?: string; title?: string; disabled?: boolean; disabledText?: string }) {
  if (disabled) return <span className="text-sm text-slate-500">{disabledText}</span>;
  return (
    <a href={href} download className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid={testId} title={title}>
      <span aria-hidden="true">⤓</span>
      {label}
    </a>
  );
}
