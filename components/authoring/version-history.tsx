// A toolkit's or case's versions (newest first) and a structural diff of two of them, chosen with
// a plain GET form (works without JavaScript; the URL can be shared).
import Link from "next/link";
import type { DiffEntry, VersionRow } from "@/lib/toolemu/authoring";
import { formatDate } from "@/components/toolemu/format";
import { secondaryButtonCls } from "@/components/ui/form";

interface Props {
  basePath: string;
  versions: VersionRow[];
  currentVersion: number;
  diff: { from: number; to: number; entries: DiffEntry[] } | null;
  /** "saved" from the URL: the version just saved, announced once. */
  saved?: number | null;
}

const KIND_CLS: Record<DiffEntry["kind"], string> = {
  added: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  removed: "bg-rose-50 text-rose-800 ring-rose-200",
  changed: "bg-amber-50 text-amber-900 ring-amber-200",
};

function Value({ v }: { v: unknown }) {
  if (typeof v === "string") return <span className="whitespace-pre-wrap break-words">{v || <em className="text-slate-500">empty</em>}</span>;
  return <pre tabIndex={0} role="region" aria-label="Value as JSON" className="max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs">{JSON.stringify(v, null, 2)}</pre>;
}

export function VersionHistory({ basePath, versions, currentVersion, diff, saved }: Props) {
  const select = (name: "from" | "to", value: number | undefined) => (
    <label className="flex items-center gap-1 text-sm text-slate-700">
      {name === "from" ? "Compare version" : "with version"}
      <select name={name} defaultValue={value} className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm">
        {versions.map((v) => (
          <option key={v.version} value={v.version}>
            {v.version}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="space-y-4" data-testid="version-history">
      {saved ? (
        <p role="status" className="rounded-md bg-emerald-50 p-2 text-sm text-emerald-800" data-testid="saved-notice">
          Saved as version {saved}.
        </p>
      ) : null}
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm">
          <caption className="sr-only">Versions, newest first</caption>
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-4">Version</th>
              <th scope="col" className="py-1 pr-4">Note</th>
              <th scope="col" className="py-1 pr-4">By</th>
              <th scope="col" className="py-1 pr-4">When</th>
              <th scope="col" className="py-1 pr-4 text-right" title="Trajectories that ran against this version">Trajectories</th>
              <th scope="col" className="py-1"><span className="sr-only">Compare</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {versions.map((v) => (
              <tr key={v.version} data-testid="version-row">
                <td className="py-1.5 pr-4 font-medium">
                  v{v.version}
                  {v.version === currentVersion && <span className="ml-2 rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-700">current</span>}
                </td>
                <td className="py-1.5 pr-4 text-slate-700">{v.note ?? <span className="text-slate-500">—</span>}</td>
                <td className="py-1.5 pr-4 text-slate-700">{v.createdBy ?? <span className="text-slate-500">import</span>}</td>
                <td className="py-1.5 pr-4 whitespace-nowrap text-slate-600">{formatDate(v.createdAt)}</td>
                <td className="py-1.5 pr-4 text-right tabular-nums">{v.trajectories}</td>
                <td className="py-1.5 text-right">
                  {v.version > 1 && (
                    <Link href={`${basePath}?from=${v.version - 1}&to=${v.version}#history`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" aria-label={`Changes in version ${v.version}`}>
                      changes
                    </Link>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {versions.length > 1 && (
        <form method="get" action={`${basePath}#history`} className="flex flex-wrap items-center gap-3" aria-label="Compare two versions">
          {select("from", diff?.from)}
          {select("to", diff?.to)}
          <button type="submit" className={secondaryButtonCls}>Show the differences</button>
        </form>
      )}
      {diff && (
        <section aria-labelledby="diff-title" data-testid="version-diff">
          <h3 id="diff-title" className="text-sm font-semibold text-slate-900">
            From version {diff.from} to version {diff.to}: {diff.entries.length} difference{diff.entries.length === 1 ? "" : "s"}
          </h3>
          {diff.entries.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">The two versions are the same.</p>
          ) : (
            <ul className="mt-2 space-y-2">
              {diff.entries.map((d, i) => (
                <li key={i} className="rounded-md border border-slate-200 p-2 text-sm" data-testid="diff-entry">
                  <span className={`mr-2 rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${KIND_CLS[d.kind]}`}>{d.kind}</span>
                  <span className="font-mono text-xs text-slate-800">{d.path.join(" › ") || "(whole value)"}</span>
                  <div className="mt-1 grid gap-2 md:grid-cols-2">
                    {d.kind !== "added" && (
                      <div>
                        <p className="text-xs font-medium text-rose-700">Before (v{diff.from})</p>
                        <Value v={d.before} />
                      </div>
                    )}
                    {d.kind !== "removed" && (
                      <div>
                        <p className="text-xs font-medium text-emerald-700">After (v{diff.to})</p>
                        <Value v={d.after} />
                      </div>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-2 text-xs text-slate-500">
            Tools, parameters, return fields and exceptions are matched by name; lists of text (underspecifications, outcomes, actions) are compared as sets, so a moved line is not a change. Each trajectory keeps the versions it ran against.
          </p>
        </section>
      )}
    </div>
  );
}
