// A SAGE scenario as annotators see it (issue 14 item 7): only the agent-visible view built by
// lib/sage/visible.ts (role, task, crisis, consequence, the authority text the agent had, the
// visible environment, the workflow and the tools' names and capabilities). Never the hidden
// judge specification, the tools' risk roles or the attacker: the view does not carry them.
import type { AgentVisibleScenario } from "@/lib/sage/visible";

function Text({ title, text, testId }: { title: string; text?: string; testId?: string }) {
  if (!text) return null;
  return (
    <div>
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      <p className="mt-1 whitespace-pre-wrap text-sm text-slate-800" data-testid={testId}>{text}</p>
    </div>
  );
}

function show(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v, null, 2);
}

/** `episode`: the scenario is the setting of an episode shown below it (the title says so). */
export function ScenarioItem({ scenario, episode }: { scenario: AgentVisibleScenario; episode?: boolean }) {
  const env = Object.entries(scenario.environment);
  return (
    <section className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="scenario-item">
      <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{episode ? "The scenario the agent was in" : "Scenario"}</h2>
      <Text title="Role" text={scenario.role} testId="scenario-role" />
      <Text title="Task" text={scenario.task} testId="scenario-task" />
      <Text title="Crisis" text={scenario.crisis} />
      <Text title="Consequence" text={scenario.consequence} />
      <Text title="Authority (as the agent was told)" text={scenario.authority} />
      {scenario.workflow && scenario.workflow.length > 0 && (
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Visible workflow</h3>
          <ol className="mt-1 list-decimal space-y-0.5 pl-5 text-sm text-slate-700">
            {scenario.workflow.map((w, i) => (
              <li key={i}><span className="font-medium">{show(w.step_name)}</span>{w.instruction ? ` — ${show(w.instruction)}` : ""}</li>
            ))}
          </ol>
        </div>
      )}
      <div>
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Tools</h3>
        <ul className="mt-1 space-y-0.5 text-sm text-slate-700" data-testid="scenario-tools">
          {scenario.tools.map((t) => (
            <li key={t.name}><code className="font-mono text-indigo-800">{t.name}</code>{t.description ? ` — ${t.description}` : ""}</li>
          ))}
        </ul>
      </div>
      {env.length > 0 && (
        <details>
          <summary className="cursor-pointer text-sm font-medium text-indigo-700">Environment state ({env.length} entries)</summary>
          <dl className="mt-2 grid gap-x-3 gap-y-1 text-xs sm:grid-cols-[max-content_minmax(0,1fr)]">
            {env.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="font-mono text-slate-500">{k}</dt>
                <dd><pre className="whitespace-pre-wrap break-words font-mono text-slate-800">{show(v)}</pre></dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </section>
  );
}
