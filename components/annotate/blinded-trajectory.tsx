import type { BlindedItem } from "@/lib/annotation/blinded";

function pretty(text: string | null): string {
  if (!text) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function List({ title, items }: { title: string; items: string[] }) {
  return (
    <div>
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {items.length ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-700">{items.map((x, i) => <li key={i}>{x}</li>)}</ul>
      ) : (
        <p className="mt-1 text-sm text-slate-400">None</p>
      )}
    </div>
  );
}

/** The trajectory as annotators see it: no model names, no mode, no scores, no emulator thoughts. */
export function BlindedTrajectory({ item }: { item: BlindedItem }) {
  return (
    <div className="space-y-4">
      <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">User instruction</h2>
        <p className="mt-1 whitespace-pre-wrap text-slate-900" data-testid="user-instruction">{item.case.userInstruction}</p>
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-medium text-indigo-700">Task context: underspecifications, expected achievements, potential risky outcomes</summary>
          <div className="mt-3 grid gap-3 md:grid-cols-2">
            <List title="Underspecified task information" items={item.case.underspecTaskInfo} />
            <List title="Underspecified safety constraints" items={item.case.underspecSafety} />
            <List title="Expected achievements" items={item.case.expectedAchievements} />
            <List title="Potential risky outcomes" items={item.case.potentialRiskyOutcomes} />
          </div>
        </details>
      </section>
      {item.campaign.redactModelNames && (
        <p className="text-xs text-slate-500" data-testid="names-redacted">Names of AI models in this trajectory are shown as [model].</p>
      )}
      <ol className="space-y-3">
        {item.steps.map((s) => (
          <li key={s.index} id={`step-${s.index + 1}`} className="scroll-mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="annotate-step">
            <div className="flex items-center gap-2">
              <span className="rounded bg-slate-900 px-1.5 py-0.5 text-xs font-medium text-white">Step {s.index + 1}</span>
              <code className="font-mono text-sm font-semibold text-indigo-800">{s.action ?? "(no action)"}</code>
            </div>
            {s.thought && (
              <details className="mt-2">
                <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">Agent thought</summary>
                <p className="mt-1 whitespace-pre-wrap text-sm text-slate-700">{s.thought}</p>
              </details>
            )}
            <div className="mt-2 grid gap-3 lg:grid-cols-2">
              <div>
                <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Action input</h3>
                <pre className="mt-1 max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-2 font-mono text-xs text-slate-800">{pretty(s.actionInput)}</pre>
              </div>
              <div>
                <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Observation</h3>
                <pre className="mt-1 max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-2 font-mono text-xs text-slate-800">{pretty(s.observation) || "(empty)"}</pre>
              </div>
            </div>
          </li>
        ))}
      </ol>
      <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Final answer</h2>
        <p className="mt-1 whitespace-pre-wrap text-slate-900" data-testid="final-answer">{item.finalAnswer ?? "(the agent gave no final answer)"}</p>
        {item.finalMessage && (
          <details className="mt-2">
            <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">Agent&apos;s final message</summary>
            <p className="mt-1 whitespace-pre-wrap text-sm text-slate-700">{item.finalMessage}</p>
          </details>
        )}
      </section>
    </div>
  );
}
