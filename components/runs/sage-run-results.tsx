// A SAGE run's panels on its run page: progress per authority context (Trust / Warning), UTR and
// each judge's ASR so far with n and a Wilson interval, the link to the SAGE dashboard filtered to
// the run, and the run's SAGE settings. No hooks (the run page polls and re-renders).
import Link from "next/link";
import type { RunProgress } from "@/lib/runs/queries";
import { CONTEXT_LABELS, PUBLISHED_MAX_TURNS } from "@/lib/runs/sage/schemas";
import { sageHref } from "@/lib/dashboards/sage/filters";
import { SAGE_METRIC_DOCS } from "@/lib/metrics/sage";
import { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { Disclosure } from "@/components/ui/panel";
import { fmtCi, fmtInt, fmtPercent } from "@/components/ui/format";
import { ProgressSegments } from "./progress-segments";

const card = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm";
const ORDER_TEXT = { CHRONOLOGICAL: "chronological (the agent sees its own earlier turns)", REFERENCE: "reference (the published runner: all attacker messages, then all tool results, no own turns)" } as const;

type Sage = NonNullable<RunProgress["sage"]>;
type Rate = Sage["contexts"][number]["utr"];

function RateCell({ r, testId }: { r: Rate; testId?: string }) {
  if (r.undefined) return <td className="py-1.5 pr-3 text-right text-slate-500" data-testid={testId} title={r.reason}>— <span className="text-xs">n = 0</span></td>;
  return (
    <td className="py-1.5 pr-3 text-right tabular-nums" data-testid={testId} data-value={r.value} data-n={r.denominator}>
      <span className="font-medium">{fmtPercent(r.value, 0)}</span> <span className="text-xs text-slate-500">{fmtInt(r.numerator)}/{fmtInt(r.denominator)} {fmtCi(r.ci, "percent", 0)}</span>
    </td>
  );
}

export function SageRunResults({ p }: { p: RunProgress }) {
  const sg = p.sage!;
  const dashboard = sageHref({ run: p.id, order: sg.settings.order, mode: sg.settings.judgeMode, judges: sg.settings.judgeModels });
  return (
    <section className={card} aria-labelledby="run-sage-h" data-testid="sage-results">
      <h2 id="run-sage-h" className="text-base font-semibold">Trust vs Warning so far</h2>
      <p className="text-xs text-slate-500">Over the episodes that have ended; the same scenarios are played under both authority texts.</p>
      <div className="mt-3 overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-3">Context</th>
              <th scope="col" className="py-1 pr-3">Episodes</th>
              <th scope="col" className="py-1 pr-3 text-right">UTR</th>
              {sg.settings.judgeModels.map((m) => <th key={m} scope="col" className="py-1 pr-3 text-right">ASR <span className="normal-case">{m}</span></th>)}
              {sg.settings.judgeModels.length > 1 && <th scope="col" className="py-1 pr-3 text-right">ASR mean</th>}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {sg.contexts.map((c) => (
              <tr key={c.context} data-testid="sage-context" data-context={c.context} data-done={c.counts.done} data-total={c.counts.total}>
                <th scope="row" className="py-1.5 pr-3 text-left font-medium">{CONTEXT_LABELS[c.context]}</th>
                <td className="min-w-48 py-1.5 pr-3">
                  <div className="text-xs tabular-nums text-slate-600">{fmtInt(c.counts.done + c.counts.failed + c.counts.cancelled)} of {fmtInt(c.counts.total)} ended{c.counts.running ? ` · ${fmtInt(c.counts.running)} running` : ""}{c.counts.failed ? <span className="text-rose-700"> · {fmtInt(c.counts.failed)} errors</span> : null}</div>
                  <ProgressSegments counts={{ ...c.counts, waiting: 0 }} compact />
                </td>
                <RateCell r={c.utr} testId="sage-utr" />
                {c.judges.map((j) => (
                  <RateCell key={j.judge} r={j.asr} testId={`sage-asr-${j.judge}`} />
                ))}
                {sg.settings.judgeModels.length > 1 && <td className="py-1.5 pr-3 text-right tabular-nums" data-testid="sage-asr-mean">{c.meanAsr === null ? "—" : fmtPercent(c.meanAsr, 0)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {sg.judgeErrors > 0 && <p className="mt-2 text-xs text-amber-700" data-testid="sage-judge-errors">{fmtInt(sg.judgeErrors)} judge verdict{sg.judgeErrors === 1 ? " was" : "s were"} errors (an unusable answer or a failed call): left out of the ASRs.</p>}
      <p className="mt-3 text-sm">
        <Link href={dashboard} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="sage-dashboard-link">Paired effect (McNemar, bootstrap CI), heatmaps and judge agreement for this run on the SAGE dashboard →</Link>
      </p>
      <Disclosure>
        <p><strong>UTR</strong>: {SAGE_METRIC_DOCS.utr}</p>
        <p><strong>ASR</strong>: {SAGE_METRIC_DOCS.asr} <strong>ASR mean</strong>: the plain mean of the judges&apos; ASRs (the dashboard adds its bootstrap interval).</p>
        <p>Episodes that ended in an error (the agent endpoint failed for good) have no outcome and are not counted; retry them with “Retry … with errors”.</p>
      </Disclosure>
    </section>
  );
}

export function SageRunSettings({ p }: { p: RunProgress }) {
  const sg = p.sage!;
  const s = sg.settings;
  return (
    <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-2" data-testid="sage-settings">
      <div><dt className="text-xs text-slate-500">Scenarios</dt><dd>{fmtInt(s.scenarios)} — {s.description}</dd></div>
      <div><dt className="text-xs text-slate-500">Agents</dt><dd>{p.agents.map((a) => <span key={a.endpointId} className="mr-2">{a.name} <span className="text-slate-500">{a.offline ? OFFLINE_MODEL_LABEL : a.model}</span></span>)}</dd></div>
      <div><dt className="text-xs text-slate-500">Authority contexts</dt><dd>{s.contexts.map((c) => CONTEXT_LABELS[c]).join(" + ")}{s.contexts.length === 2 ? " (paired by scenario)" : ""}</dd></div>
      <div><dt className="text-xs text-slate-500">Conversation order</dt><dd data-testid="sage-order">{ORDER_TEXT[s.order]}</dd></div>
      <div><dt className="text-xs text-slate-500">Turn limit</dt><dd data-testid="sage-turns">{s.maxTurns === null ? "each scenario's own (4 or 5)" : `at most ${s.maxTurns} (the published runner's ${PUBLISHED_MAX_TURNS})`}</dd></div>
      <div><dt className="text-xs text-slate-500">Attacker</dt><dd>{sg.attacker ? <>{sg.attacker.name} <span className="text-slate-500">{sg.attacker.offline ? OFFLINE_MODEL_LABEL : sg.attacker.model}</span></> : "(deleted endpoint)"} · T = 0.7</dd></div>
      <div><dt className="text-xs text-slate-500">Judges · mode</dt><dd>{s.judgeModels.length ? s.judgeModels.join(", ") : "none"} · {s.judgeMode === "BINARY" ? "binary (must choose safe or unsafe)" : "ternary (safe / unsafe / uncertain)"} · T = 0</dd></div>
      <div><dt className="text-xs text-slate-500">Repeats · seed</dt><dd className="tabular-nums">{p.repeats} · {p.seed}</dd></div>
      <div className="sm:col-span-2"><dt className="text-xs text-slate-500">Prompt templates</dt><dd className="font-mono text-xs">{p.promptVersions.join("  ")}</dd></div>
    </dl>
  );
}
