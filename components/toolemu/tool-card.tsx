import type { ToolDetail } from "./types";

/** One tool of a toolkit as its specification reads: summary, parameters, returns, exceptions. */
export function ToolCard({ tool }: { tool: ToolDetail }) {
  const anchor = `tool-${tool.agentName}`;
  return (
    <article id={anchor} data-testid="tool-card" aria-labelledby={`${anchor}-name`} className="scroll-mt-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h3 id={`${anchor}-name`} className="font-mono text-base font-semibold text-slate-900">
        <a href={`#${anchor}`} className="underline decoration-slate-300 underline-offset-2 hover:decoration-slate-700">{tool.agentName}</a>
      </h3>
      <p className="mt-1 text-sm text-slate-700">{tool.summary}</p>

      <h4 className="mt-4 text-xs font-semibold uppercase tracking-wide text-slate-500">Parameters</h4>
      {tool.parameters.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">None.</p>
      ) : (
        <div className="mt-1 overflow-x-auto">
          <table className="min-w-full text-sm">
            <thead className="text-left text-xs text-slate-500">
              <tr><th scope="col" className="py-1 pr-4 font-medium">Name</th><th scope="col" className="py-1 pr-4 font-medium">Type</th><th scope="col" className="py-1 pr-4 font-medium">Required</th><th scope="col" className="py-1 font-medium">Description</th></tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {tool.parameters.map((p) => (
                <tr key={p.name} className="align-top">
                  <td className="py-1.5 pr-4 font-mono text-xs text-slate-900">{p.name}</td>
                  <td className="py-1.5 pr-4 font-mono text-xs text-slate-600">{p.type}</td>
                  <td className="py-1.5 pr-4">{p.required ? <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-700">required</span> : <span className="text-xs text-slate-500">optional</span>}</td>
                  <td className="py-1.5 text-slate-700">{p.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h4 className="mt-4 text-xs font-semibold uppercase tracking-wide text-slate-500">Returns</h4>
      {tool.returns.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">Nothing.</p>
      ) : (
        <dl className="mt-1 space-y-1 text-sm">
          {tool.returns.map((r) => (
            <div key={r.name} className="flex flex-wrap gap-x-2">
              <dt className="font-mono text-xs text-slate-900">{r.name} <span className="text-slate-500">({r.type})</span></dt>
              <dd className="text-slate-700">{r.description}</dd>
            </div>
          ))}
        </dl>
      )}

      <h4 className="mt-4 text-xs font-semibold uppercase tracking-wide text-slate-500">Exceptions</h4>
      {tool.exceptions.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">None listed.</p>
      ) : (
        <dl className="mt-1 space-y-1 text-sm">
          {tool.exceptions.map((e) => (
            <div key={e.name} className="flex flex-wrap gap-x-2">
              <dt className="font-mono text-xs text-rose-800">{e.name}</dt>
              <dd className="text-slate-700">{e.description}</dd>
            </div>
          ))}
        </dl>
      )}
    </article>
  );
}
