import { EmptyState } from "@/components/toolemu/empty-state";

/** Shown when no SAGE scenario has been imported. */
export function NoSageScenarios({ canImport }: { canImport: boolean }) {
  return (
    <EmptyState title="No SAGE scenarios imported yet." testId="sage-empty" action={canImport ? { href: "/import?kind=sage", label: "Import SAGE files" } : undefined}>
      {canImport ? (
        <p>
          Import the ForesightSafety-SAGE family definitions and scenario files (<code className="font-mono text-xs">seeds.json</code> or whole{" "}
          <code className="font-mono text-xs">benchmark.json</code> files) on the import page, or run{" "}
          <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800">npm run cli -- import sage &lt;folder&gt;</code>.
        </p>
      ) : (
        <p>A researcher or an admin can import them.</p>
      )}
    </EmptyState>
  );
}
