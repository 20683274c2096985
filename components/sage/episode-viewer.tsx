// A SAGE episode on the trajectory page (staff only; server component, no hooks): the scenario and
// context, the attacker's strategy and per-turn tactic chips, the flag timeline, then each turn in
// order — the attacker's (user's) message, the agent's output, the tool call with its observation
// and flags — with the judges' cited evidence beside the turn it cites, the judges' verdicts
// (label, risk points, safe points, reason), and the hidden judge specification in a collapsed panel.
import Link from "next/link";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { ModelText, CodeBlock } from "@/components/toolemu/code-block";
import { formatDate } from "@/components/toolemu/format";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { JsonView } from "@/components/sage/json-view";
import type { SageEpisodeTurn, SageEpisodeView } from "@/lib/dashboards/sage/episode";

const LABEL_STYLE: Record<string, string> = {
  unsafe: "bg-red-50 text-red-800 ring-red-200",
  safe: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  uncertain: "bg-amber-50 text-amber-800 ring-amber-200",
};
const CONTEXT_NAMES = { TRUST: "Trust", WARNING: "Warning" } as const;

function LabelBadge({ label, testId }: { label: string | null; testId?: string }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${label ? (LABEL_STYLE[label] ?? "bg-slate-50 text-slate-700 ring-slate-200") : "bg-slate-100 text-slate-600 ring-slate-300"}`} data-testid={testId}>
      {label ?? "error"}
    </span>
  );
}

function Chip({ children, tone = "slate", title, testId }: { children: React.ReactNode; tone?: "slate" | "violet" | "red" | "amber"; title?: string; testId?: string }) {
  const cls = { slate: "bg-slate-100 text-slate-700", violet: "bg-violet-50 text-violet-800 ring-1 ring-inset ring-violet-200", red: "bg-red-50 text-red-800 ring-1 ring-inset ring-red-200", amber: "bg-amber-50 text-amber-800 ring-1 ring-inset ring-amber-200" }[tone];
  return <span className={`inline-block rounded px-1.5 py-0.5 text-xs ${cls}`} title={title} data-testid={testId}>{children}</span>;
}

function flagChips(t: SageEpisodeTurn) {
  const f = t.flags;
  if (!f) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {f.type && <Chip title="The tool's type (hidden from the agent)">{f.type}</Chip>}
      {!f.executed && <Chip tone="amber" title={f.error ?? undefined}>not executed</Chip>}
      {f.nonSafeExecuted && <Chip tone="red">non-safe tool executed</Chip>}
      {f.riskEvent && <Chip tone="red">risk event: {f.riskEvent}</Chip>}
      {f.forbiddenCall && <Chip tone="red">forbidden call</Chip>}
    </span>
  );
}

export function SageEpisodeViewer({ e }: { e: SageEpisodeView }) {
  const s = e.scenario;
  const tactics = e.turns.filter((t) => t.tactic);
  return (
    <>
      <div className="mb-2">
        <Breadcrumbs items={[{ href: "/dashboards/sage", label: "SAGE dashboard" }, { label: e.id }]} />
      </div>
      <PageHeader
        card
        title={<>SAGE episode of <Link href={`/sage/scenarios/${encodeURIComponent(s.instanceId)}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="scenario-link">{s.instanceId}</Link></>}
        meta={
          <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
            <div><dt className="inline text-slate-500">Agent </dt><dd className="inline font-medium">{e.agentModel}</dd></div>
            <div><dt className="inline text-slate-500">Context </dt><dd className="inline font-medium" data-testid="episode-context">{e.authorityContext ? CONTEXT_NAMES[e.authorityContext] : "—"}</dd></div>
            <div><dt className="inline text-slate-500">Order </dt><dd className="inline">{e.conversationOrder?.toLowerCase() ?? "—"}</dd></div>
            <div><dt className="inline text-slate-500">Family </dt><dd className="inline">{s.subcategory.dimension.name} › {s.subcategory.name}</dd></div>
            <div><dt className="inline text-slate-500">Stopped </dt><dd className="inline" title={e.stopDetail ?? undefined}>{e.stopReason?.replace(/_/g, " ") ?? e.status.toLowerCase()} · {e.stepCount} turn{e.stepCount === 1 ? "" : "s"}</dd></div>
            <div><dt className="inline text-slate-500">Outcome </dt><dd className="inline font-medium" data-testid="episode-outcome">{e.outcome ? (e.outcome.unsafe ? `unsafe tool call (first in turn ${e.outcome.firstUnsafeTurn ?? "?"})` : "no unsafe tool call") : "none stored"}</dd></div>
            <div><dt className="inline text-slate-500">Played </dt><dd className="inline">{formatDate(e.startedAt ?? e.createdAt)} · {fmtInt(e.inputTokens + e.outputTokens)} tokens · {fmtUsd(e.costUsd)}</dd></div>
          </dl>
        }
      />

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="space-y-4">
          <section aria-labelledby="attacker-h" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <h2 id="attacker-h" className="text-sm font-semibold text-slate-900">Attacker</h2>
            <div className="mt-2 flex flex-wrap gap-1.5" data-testid="strategy-chips">
              <Chip tone="violet" title="The attacker's mode">{s.attackerMode}</Chip>
              <Chip tone="violet" title="The attacker's strategy">{s.attackerStrategy}</Chip>
              {tactics.map((t) => <Chip key={t.turn} title={`Turn ${t.turn}${t.usedFallback ? " (fallback message)" : ""}`}>turn {t.turn}: {t.tactic}{t.usedFallback ? " · fallback" : ""}</Chip>)}
            </div>
            <p className="mt-2 text-xs text-slate-600"><span className="font-medium">Objective:</span> {s.attackerObjective}</p>
          </section>

          <section aria-labelledby="timeline-h" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <h2 id="timeline-h" className="text-sm font-semibold text-slate-900">Flag timeline</h2>
            <ol className="mt-2 flex flex-wrap items-center gap-2" data-testid="flag-timeline">
              {e.turns.map((t) => (
                <li key={t.turn}>
                  <a href={`#turn-${t.turn}`} className={`flex items-center gap-1 rounded-md px-2 py-1 text-xs ring-1 ring-inset ${t.unsafe ? "bg-red-50 text-red-800 ring-red-200" : t.final ? "bg-slate-50 text-slate-700 ring-slate-200" : "bg-emerald-50 text-emerald-800 ring-emerald-200"}`}
                    data-testid={`timeline-turn-${t.turn}`} data-unsafe={t.unsafe}>
                    <span className="font-semibold">{t.turn}</span>
                    <span>{t.tool ?? (t.final !== null ? "final answer" : t.parseError ? "invalid output" : "—")}</span>
                    {t.unsafe && <span aria-label="unsafe">⚠</span>}
                  </a>
                </li>
              ))}
            </ol>
          </section>

          {e.turns.map((t) => {
            const cited = e.evidenceByTurn[t.turn] ?? [];
            return (
              <section key={t.turn} id={`turn-${t.turn}`} className="grid gap-3 md:grid-cols-[minmax(0,1fr)_16rem]" data-testid={`turn-${t.turn}`}>
                <div className={`space-y-2 rounded-xl border bg-white p-4 shadow-sm ${t.unsafe ? "border-red-300" : "border-slate-200"}`}>
                  <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Turn {t.turn}</h3>
                  <div className="rounded-md bg-violet-50 p-2" data-testid={`attacker-${t.turn}`}>
                    <p className="text-xs font-medium text-violet-800">Attacker (as the user){t.tactic ? ` · ${t.tactic}` : t.turn === 1 ? " · opening message" : ""}</p>
                    <ModelText text={t.user} className="text-sm text-slate-900" />
                  </div>
                  <div className="rounded-md bg-slate-50 p-2" data-testid={`agent-${t.turn}`}>
                    <p className="text-xs font-medium text-slate-700">Agent</p>
                    {t.reason && <p className="text-sm text-slate-700">{t.reason}</p>}
                    {t.tool && <p className="font-mono text-sm text-slate-900">{t.tool}({t.arguments === null || t.arguments === undefined ? "" : JSON.stringify(t.arguments)})</p>}
                    {t.final !== null && <ModelText text={t.final} className="text-sm text-slate-900" />}
                    {t.parseError && <CodeBlock text={`${t.parseError}\n\n${t.agentLog ?? ""}`} label="Unusable output" tone="error" />}
                  </div>
                  {t.tool && (
                    <div className="rounded-md bg-sky-50 p-2" data-testid={`tool-${t.turn}`}>
                      <p className="flex flex-wrap items-center gap-2 text-xs font-medium text-sky-800">Tool {t.tool} {flagChips(t)}</p>
                      {t.observation && <pre tabIndex={0} role="region" aria-label={`Observation of turn ${t.turn}`} className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-words font-mono text-xs text-slate-800">{t.observation}</pre>}
                    </div>
                  )}
                </div>
                <aside aria-label={`Evidence cited from turn ${t.turn}`} className="space-y-2" data-testid={`evidence-${t.turn}`}>
                  {cited.map((c, i) => (
                    <div key={i} className="rounded-md border border-slate-200 bg-white p-2 text-xs shadow-sm">
                      <p className="flex items-center justify-between gap-2"><span className="font-medium text-slate-800">{c.judge}</span><LabelBadge label={c.label} /></p>
                      <blockquote className="mt-1 border-l-2 border-slate-300 pl-2 italic text-slate-700">{c.quote || "(no quote)"}</blockquote>
                    </div>
                  ))}
                </aside>
              </section>
            );
          })}
          {e.turns.length === 0 && <p className="text-sm text-slate-500">No turn was stored.</p>}
        </div>

        <aside className="space-y-4" aria-label="Judges">
          <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="judges">
            <h2 className="text-sm font-semibold text-slate-900">Judges</h2>
            {e.judgments.length === 0 && <p className="mt-2 text-sm text-slate-500">Not judged yet.</p>}
            <ul className="mt-2 space-y-3">
              {e.judgments.map((j) => (
                <li key={`${j.judgeModel}-${j.mode}`} className="text-sm" data-testid={`judge-${j.judgeModel}`}>
                  <p className="flex items-center justify-between gap-2"><span className="font-medium text-slate-900" title={j.template}>{j.judgeModel}</span><LabelBadge label={j.label} testId={`judge-label-${j.judgeModel}`} /></p>
                  <p className="text-xs text-slate-500">{j.mode.toLowerCase()} · cites turn{j.evidence.length === 1 ? "" : "s"} {j.evidence.length ? [...new Set(j.evidence.map((x) => x.turn))].map((n) => <a key={n} href={`#turn-${n}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{n} </a>) : "none"}</p>
                  {j.error && <p className="mt-1 text-xs text-red-700">{j.error}</p>}
                  {j.riskPoints.length > 0 && <div className="mt-1"><p className="text-xs font-medium text-red-800">Risk points</p><ul className="list-disc pl-4 text-xs text-slate-700">{j.riskPoints.map((p, i) => <li key={i}>{p}</li>)}</ul></div>}
                  {j.safePoints.length > 0 && <div className="mt-1"><p className="text-xs font-medium text-emerald-800">Safe points</p><ul className="list-disc pl-4 text-xs text-slate-700">{j.safePoints.map((p, i) => <li key={i}>{p}</li>)}</ul></div>}
                  {j.reason && <p className="mt-1 text-xs text-slate-700"><span className="font-medium">Reason: </span>{j.reason}</p>}
                  {j.warnings.length > 0 && <p className="mt-1 text-xs text-amber-700">{j.warnings.join("; ")}</p>}
                </li>
              ))}
            </ul>
          </section>
          <details className="rounded-xl border border-amber-200 bg-amber-50/40 p-4 shadow-sm" data-testid="hidden-judge-spec">
            <summary className="cursor-pointer text-sm font-semibold text-amber-900">Hidden judge specification (staff only)</summary>
            <p className="mt-2 text-xs text-amber-900">Never shown to the agent or to annotators; the judges see it.</p>
            <div className="mt-2"><JsonView value={s.judgeSpec} label="Hidden judge specification" /></div>
            {s.judgeExtra !== null && <div className="mt-2"><JsonView value={s.judgeExtra} label="Other judge-only fields" /></div>}
          </details>
          <section className="rounded-xl border border-slate-200 bg-white p-4 text-xs text-slate-700 shadow-sm">
            <h2 className="text-sm font-semibold text-slate-900">Authority text given</h2>
            <p className="mt-1 whitespace-pre-wrap">{e.authorityContext === "WARNING" ? s.authorityWarning : s.authorityTrust}</p>
          </section>
        </aside>
      </div>
    </>
  );
}
