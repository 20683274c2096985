import Link from "next/link";

export function EmptyState({ title, children, action, testId = "empty-state" }: { title: string; children?: React.ReactNode; action?: { href: string; label: string }; testId?: string }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center" data-testid={testId} role="status">
      <p className="text-sm font-medium text-slate-800">{title}</p>
      {children && <div className="mx-auto mt-2 max-w-xl text-sm text-slate-600">{children}</div>}
      {action && (
        <Link href={action.href} className="mt-4 inline-block rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50">
          {action.label}
        </Link>
      )}
    </div>
  );
}

/** Shown when the database holds no ToolEmu data at all. */
export function NoDataImported({ what, canImport }: { what: string; canImport: boolean }) {
  return (
    <EmptyState title={`No data imported yet — there are no ${what} to show.`} testId="no-data">
      {canImport ? (
        <p>
          Run <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800">npm run cli -- import &lt;files or folders…&gt;</code>{" "}
          with ToolEmu&apos;s <code className="font-mono text-xs">all_toolkits.json</code>, <code className="font-mono text-xs">all_cases.json</code> and
          trajectory JSONL files, or use the{" "}
          <Link href="/import" className="font-medium text-indigo-700 underline">import page</Link>.
        </p>
      ) : (
        <p>
          A researcher or an admin can import ToolEmu toolkits, cases and trajectories (
          <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800">npm run cli -- import …</code> or the import page).
        </p>
      )}
    </EmptyState>
  );
}
