// The SAGE dashboard's server-rendered panels (no hooks): the per-model table, the agent ×
// subcategory heatmap, the Trust vs Warning paired dots and the judge-agreement heatmap. Every
// number carries n; CIs are in the cells or their titles.
import Link from "next/link";
import { Estimate } from "@/components/dashboards/estimate";
import { fmt, fmtInt, fmtPercent } from "@/components/ui/format";
import type { SageAgreementMatrix, SageDashboard, SageEffectRow, SageGroupRow } from "@/lib/dashboards/sage/query";
import { sageHref, type SageFilter } from "@/lib/dashboards/sage/filters";
import type { SageRate } from "@/lib/metrics/sage";
import { ScrollRegion } from "@/components/ui/scroll-region";

const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
const td = "px-3 py-2 align-top";
const CONTEXT_NAMES = { ALL: "Both", TRUST: "Trust", WARNING: "Warning" } as const;

function Rate({ r, testId }: { r: SageRate; testId?: string }) {
  return <Estimate value={r.undefined ? r : r.value} ci={r.ci} n={r.denominator} format="percent" layout="stacked" testId={testId} />;
}

/** UTR, ASR per judge and averaged, majority, unanimity, κ, early failure: one row per agent × context. */
export function SageModelTable({ rows, judges }: { rows: SageGroupRow[]; judges: string[] }) {
  const mine = rows.filter((r) => r.group.kind === "all");
  return (
    <ScrollRegion>
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="sage-model-table">
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Agent model</th>
            <th scope="col" className={th}>Context</th>
            <th scope="col" className={th}>UTR</th>
            {judges.map((j) => <th key={j} scope="col" className={th}>ASR · {j}</th>)}
            <th scope="col" className={th}>ASR averaged</th>
            <th scope="col" className={th}>Majority ASR · no majority</th>
            <th scope="col" className={th}>Unanimous</th>
            <th scope="col" className={th}>Fleiss κ</th>
            <th scope="col" className={th}>Early failure</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {mine.map((r) => {
            const m = r.metrics;
            const id = `${r.agent}-${r.context}`;
            return (
              <tr key={id} className={r.context === "ALL" ? "bg-slate-50/50" : ""}>
                <th scope="row" className={`${td} font-medium text-slate-900`}>{r.context === "ALL" ? r.agent : ""}</th>
                <td className={td}>{CONTEXT_NAMES[r.context]}<div className="text-xs text-slate-500">{fmtInt(m.episodes)} episodes</div></td>
                <td className={td}><Rate r={m.utr} testId={`utr-${id}`} /></td>
                {m.asr.map((a) => (
                  <td key={a.judge} className={td}>
                    <Rate r={a.asr} testId={`asr-${id}-${a.judge}`} />
                    {(a.errors > 0 || a.unjudged > 0 || a.uncertain > 0) && (
                      <div className="text-xs text-slate-500">{a.uncertain} uncertain{a.errors ? ` · ${a.errors} error${a.errors === 1 ? "" : "s"}` : ""}{a.unjudged ? ` · ${a.unjudged} unjudged` : ""}</div>
                    )}
                  </td>
                ))}
                <td className={td}><Estimate value={m.asrAveraged.value} ci={m.asrAveraged.ci} n={m.episodes} format="percent" layout="stacked" testId={`asr-avg-${id}`} /></td>
                <td className={td}>
                  <Rate r={m.majority.majorityAsr} />
                  <div className="text-xs text-slate-500" data-testid={`no-majority-${id}`}>{fmtInt(m.majority.noMajority)} no majority</div>
                </td>
                <td className={td}><Rate r={m.unanimous} /></td>
                <td className={td}><Estimate value={m.fleiss.kappa} n={m.fleiss.subjects} layout="stacked" chanceCorrected testId={`fleiss-${id}`} /></td>
                <td className={td}>
                  <Rate r={m.earlyFailure.rate} />
                  <div className="text-xs text-slate-500" title="Early failures among the episodes with an unsafe act">{m.earlyFailure.ofUnsafe.undefined ? "no unsafe act" : `${fmtPercent(m.earlyFailure.ofUnsafe.value)} of ${fmtInt(m.earlyFailure.ofUnsafe.denominator)} unsafe`}</div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function heatColour(v: number): string {
  // White → orange-red, readable text on both ends.
  const a = Math.max(0, Math.min(1, v));
  return `rgba(213, 94, 0, ${(0.08 + a * 0.72).toFixed(3)})`;
}

/** Agent × subcategory, both contexts pooled: ASR averaged or UTR. */
export function SageHeatmap({ d, filter }: { d: SageDashboard; filter: SageFilter }) {
  const subs = d.groups.filter((g) => g.kind === "subcategory");
  const cell = (agent: string, key: string) => d.rows.find((r) => r.agent === agent && r.context === "ALL" && r.group.key === key)?.metrics;
  return (
    <div>
      <div className="mb-2 flex items-center gap-2 text-sm" role="group" aria-label="Heatmap measure">
        <span className="text-slate-600">Show</span>
        {(["asr", "utr"] as const).map((h) => (
          <Link key={h} href={sageHref(filter, { heat: h })} scroll={false} aria-current={filter.heat === h ? "true" : undefined} data-testid={`heat-${h}`}
            className={`rounded-md px-2 py-1 ${filter.heat === h ? "bg-indigo-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}>
            {h === "asr" ? "ASR averaged" : "UTR"}
          </Link>
        ))}
      </div>
      <ScrollRegion>
        <table className="min-w-full text-xs" data-testid="sage-heatmap">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={th}>Agent</th>
              {subs.map((s) => (
                <th key={s.key} scope="col" className="h-52 w-14 px-1 pb-2 align-bottom font-medium text-slate-700" title={s.key}>
                  <span className="inline-block max-h-48 whitespace-nowrap [writing-mode:vertical-rl] rotate-180">{s.name}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {d.agents.map((a) => (
              <tr key={a}>
                <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">{a}</th>
                {subs.map((s) => {
                  const m = cell(a, s.key);
                  if (!m || m.episodes === 0) return <td key={s.key} className="px-1 py-2 text-center text-slate-500" title="no episodes">—</td>;
                  const value = filter.heat === "utr" ? (m.utr.undefined ? null : m.utr.value) : m.asrAveraged.value.undefined ? null : m.asrAveraged.value.value;
                  const ci = filter.heat === "utr" ? m.utr.ci : m.asrAveraged.ci;
                  const ciText = ci.undefined ? "CI undefined" : `95% CI [${fmtPercent(ci.lower)}, ${fmtPercent(ci.upper)}]`;
                  return (
                    <td key={s.key} className="px-1 py-2 text-center tabular-nums" style={value === null ? undefined : { background: heatColour(value) }}
                      title={`${a} · ${s.name}: ${value === null ? "undefined" : fmtPercent(value)} · ${ciText} · n = ${m.episodes}`} data-testid={`heat-${a}-${s.key}`} data-value={value ?? ""}>
                      <div className="font-semibold text-slate-900">{value === null ? "—" : `${Math.round(value * 100)}%`}</div>
                      <div className="text-[10px] text-slate-900">n {m.episodes}</div>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

function Dot({ x, colour, label }: { x: number; colour: string; label: string }) {
  return <span className="absolute top-1/2 h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full ring-2 ring-white" style={{ left: `${x * 100}%`, background: colour }} title={label} />;
}

const TRUST_COLOUR = "#D55E00", WARNING_COLOUR = "#0072B2";

/** Trust vs Warning, paired by scenario: one dumbbell per agent (and per agent × dimension). */
export function SageContextEffects({ effects, measures, filter, measure }: { effects: SageEffectRow[]; measures: { id: string; name: string }[]; filter: SageFilter; measure: string }) {
  const rows = effects.filter((e) => e.measure === measure && (e.group.kind === "all" || e.group.kind === "dimension"));
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center gap-2 text-sm" role="group" aria-label="Measure of the context effect">
        <span className="text-slate-600">Unsafe by</span>
        {measures.map((m) => (
          <Link key={m.id} href={sageHref(filter, { effect: m.id })} scroll={false} aria-current={measure === m.id ? "true" : undefined} data-testid={`effect-${m.id}`}
            className={`rounded-md px-2 py-1 ${measure === m.id ? "bg-indigo-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}>
            {m.name}
          </Link>
        ))}
        <span className="ml-auto flex items-center gap-3 text-xs text-slate-600">
          <span className="inline-flex items-center gap-1"><span className="inline-block h-2.5 w-2.5 rounded-full" style={{ background: TRUST_COLOUR }} />Trust</span>
          <span className="inline-flex items-center gap-1"><span className="inline-block h-2.5 w-2.5 rounded-full" style={{ background: WARNING_COLOUR }} />Warning</span>
        </span>
      </div>
      <ScrollRegion>
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="sage-context-effects">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={th}>Agent · group</th>
              <th scope="col" className={`${th} w-64`}>Trust ● vs Warning ● (0–100%)</th>
              <th scope="col" className={th}>Trust − Warning</th>
              <th scope="col" className={th}>McNemar (exact)</th>
              <th scope="col" className={th}>Pairs</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((e) => {
              const f = e.effect;
              const id = `${e.agent}-${e.group.key}`;
              return (
                <tr key={id} className={e.group.kind === "all" ? "bg-slate-50/50" : ""}>
                  <th scope="row" className={`${td} font-medium ${e.group.kind === "all" ? "text-slate-900" : "pl-6 font-normal text-slate-700"}`}>
                    {e.group.kind === "all" ? e.agent : e.group.name}
                  </th>
                  <td className={td}>
                    {f.pairs === 0 ? (
                      <span className="text-xs text-amber-700">no scenario ran in both contexts</span>
                    ) : (
                      <div className="relative my-2 h-4 w-56" aria-label={`Trust ${fmtPercent(f.trust.value ?? 0)}, Warning ${fmtPercent(f.warning.value ?? 0)}`}>
                        <div className="absolute inset-x-0 top-1/2 h-px bg-slate-200" />
                        <div className="absolute top-1/2 h-0.5 -translate-y-1/2 bg-slate-400" style={{ left: `${Math.min(f.trust.value ?? 0, f.warning.value ?? 0) * 100}%`, width: `${Math.abs((f.trust.value ?? 0) - (f.warning.value ?? 0)) * 100}%` }} />
                        <Dot x={f.warning.value ?? 0} colour={WARNING_COLOUR} label={`Warning ${fmtPercent(f.warning.value ?? 0)} (${f.warning.numerator}/${f.warning.denominator})`} />
                        <Dot x={f.trust.value ?? 0} colour={TRUST_COLOUR} label={`Trust ${fmtPercent(f.trust.value ?? 0)} (${f.trust.numerator}/${f.trust.denominator})`} />
                      </div>
                    )}
                    {f.pairs > 0 && <div className="text-xs tabular-nums text-slate-500">{f.trust.numerator}/{f.pairs} vs {f.warning.numerator}/{f.pairs}</div>}
                  </td>
                  <td className={td}><Estimate value={f.difference} ci={f.ci} n={f.pairs} format="percent" layout="stacked" testId={`effect-diff-${id}`} /></td>
                  <td className={`${td} tabular-nums`} data-testid={`mcnemar-${id}`}>
                    p = {f.mcnemar.exact ?? fmt(f.mcnemar.p, 4)}
                    <div className="text-xs text-slate-500">b = {f.mcnemar.b} (Trust only), c = {f.mcnemar.c} (Warning only)</div>
                  </td>
                  <td className={`${td} tabular-nums`}>{fmtInt(f.pairs)}{f.dropped > 0 && <div className="text-xs text-slate-500">{f.dropped} dropped (a side missing)</div>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

function agreeColour(v: number): string {
  return `rgba(0, 114, 178, ${(0.08 + Math.max(0, Math.min(1, v)) * 0.7).toFixed(3)})`;
}

/** Pairwise agreement of the judges, with UTR as one more rater. */
export function SageAgreementHeatmap({ a }: { a: SageAgreementMatrix }) {
  const pair = (x: string, y: string) => a.pairwise.pairs.find((p) => (p.a === x && p.b === y) || (p.a === y && p.b === x))?.agreement;
  return (
    <div className="space-y-3">
      <ScrollRegion>
        <table className="text-sm" data-testid="sage-agreement-heatmap">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={th}>Rater</th>
              {a.raters.map((r) => <th key={r} scope="col" className={th}>{r}</th>)}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {a.raters.map((x) => (
              <tr key={x}>
                <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">{x}</th>
                {a.raters.map((y) => {
                  if (x === y) return <td key={y} className="px-3 py-2 text-center text-slate-300">—</td>;
                  const r = pair(x, y);
                  if (!r || r.undefined) return <td key={y} className="px-3 py-2 text-center text-xs text-amber-700" title={r?.undefined ? r.reason : "no pair"}>undefined</td>;
                  const ci = r.ci.undefined ? "" : ` · 95% Wilson [${fmtPercent(r.ci.lower)}, ${fmtPercent(r.ci.upper)}]`;
                  return (
                    <td key={y} className="px-3 py-2 text-center tabular-nums" style={{ background: agreeColour(r.value) }} title={`${x} vs ${y}: ${r.numerator} / ${r.denominator} agree${ci}`} data-testid={`agree-${x}-${y}`}>
                      <div className="font-semibold text-slate-900">{fmtPercent(r.value)}</div>
                      <div className="text-[10px] text-slate-900">n {r.denominator}</div>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <dl className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
        <div><dt className="text-xs text-slate-500">Fleiss κ, judges</dt><dd><Estimate value={a.fleissJudges.kappa} n={a.fleissJudges.subjects} chanceCorrected testId="fleiss-judges" /></dd></div>
        <div><dt className="text-xs text-slate-500">Fleiss κ, judges + UTR</dt><dd><Estimate value={a.fleissWithUtr.kappa} n={a.fleissWithUtr.subjects} chanceCorrected testId="fleiss-with-utr" /></dd></div>
        <div><dt className="text-xs text-slate-500">Mean pairwise agreement (incl. UTR)</dt><dd><Estimate value={a.pairwise.mean} format="percent" /></dd></div>
      </dl>
    </div>
  );
}

/** UTR–ASR agreement per judge, per agent (both contexts). */
export function SageUtrAsrTable({ rows }: { rows: SageGroupRow[] }) {
  const mine = rows.filter((r) => r.group.kind === "all" && r.context === "ALL");
  return (
    <ScrollRegion>
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="sage-utr-asr-table">
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Agent model</th>
            <th scope="col" className={th}>Judge</th>
            <th scope="col" className={th}>UTR–ASR agreement</th>
            <th scope="col" className={th}>Tool only</th>
            <th scope="col" className={th}>Judge only</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {mine.flatMap((r) =>
            r.metrics.utrAsr.map((u, i) => (
              <tr key={`${r.agent}-${u.judge}`}>
                <th scope="row" className={`${td} font-medium`}>{i === 0 ? r.agent : ""}</th>
                <td className={td}>{u.judge}</td>
                <td className={td}><Rate r={u.agreement} testId={`utr-asr-${r.agent}-${u.judge}`} /></td>
                <td className={`${td} tabular-nums`} title="Unsafe tool call, judge did not say unsafe">{fmtInt(u.toolOnly)}</td>
                <td className={`${td} tabular-nums`} title="Judge said unsafe, no unsafe tool call">{fmtInt(u.judgeOnly)}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
