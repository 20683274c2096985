// The campaign page's agreement by form field (issue 18 item 6) and, for the SAGE forms, the
// paper's human-validation figures beside κ (issue 14 item 7). Every number with its n and a CI.
import type { FormAgreement } from "@/lib/dashboards/human/form-agreement-query";
import type { FieldAgreement } from "@/lib/dashboards/human/form-agreement";
import type { Share } from "@/lib/dashboards/human/sage-validation";
import Link from "next/link";
import { Panel } from "@/components/ui/panel";
import { fmt, fmtCi, fmtInt, fmtPercent } from "@/components/ui/format";
import { UndefinedValue } from "@/components/dashboards/undefined-value";

type Estimate = { result: { undefined?: boolean; value?: number; reason?: string }; interval: Parameters<typeof fmtCi>[0] };

function Value({ e, symbol, testId }: { e: Estimate | undefined; symbol: string; testId: string }) {
  if (!e) return <td className="px-2 py-1 text-slate-300">—</td>;
  if (e.result.undefined) return <td className="max-w-56 px-2 py-1"><UndefinedValue symbol={symbol} reason={e.result.reason ?? "no value"} size="compact" testId={testId} /></td>;
  const ci = fmtCi(e.interval, "decimal", 2);
  return (
    <td className="px-2 py-1 tabular-nums" data-testid={testId}>
      <span className="font-medium">{fmt(e.result.value!, 3)}</span>
      {ci && <span className="ml-1 text-xs text-slate-500">{ci}</span>}
    </td>
  );
}

function FieldRow({ f }: { f: FieldAgreement }) {
  return (
    <tr className="border-t border-slate-100" data-testid={`agreement-${f.id}`}>
      <th scope="row" className="px-2 py-1 text-left font-normal">
        {f.label}
        <span className="ml-1 text-xs text-slate-500">({f.scale}{f.perStep ? ", per step" : ""})</span>
      </th>
      <td className="px-2 py-1 tabular-nums text-slate-600">{fmtInt(f.n.items)}{f.perStep ? ` · ${fmtInt(f.n.units)} steps` : ""}</td>
      <td className="px-2 py-1 tabular-nums text-slate-600">{f.observedAgreement === null ? "—" : fmtPercent(f.observedAgreement)}</td>
      <Value e={f.kappa.categorical} symbol="κ" testId={`kappa-categorical-${f.id}`} />
      <Value e={f.kappa.linear} symbol="κ" testId={`kappa-linear-${f.id}`} />
      <Value e={f.kappa.quadratic} symbol="κ" testId={`kappa-quadratic-${f.id}`} />
      <Value e={f.alpha.nominal ?? f.alpha.ordinal} symbol="α" testId={`alpha-${f.id}`} />
    </tr>
  );
}

function ShareCell({ s, testId, paper }: { s: Share; testId: string; paper?: string }) {
  const ci = s.interval.undefined ? null : `[${fmtPercent(s.interval.lower)}, ${fmtPercent(s.interval.upper)}]`;
  return (
    <td className="px-2 py-1 tabular-nums" data-testid={testId}>
      {s.value === null ? <span className="text-slate-500">no pairs yet</span> : <><span className="font-medium">{fmtPercent(s.value)}</span> <span className="text-xs text-slate-500">{s.k}/{s.n} {ci}</span></>}
      {paper && <span className="ml-2 text-xs text-slate-500">paper {paper}</span>}
    </td>
  );
}

export function FieldAgreementPanel({ data }: { data: FormAgreement }) {
  const measured = data.fields;
  return (
    <Panel
      id="field-agreement"
      title="Agreement by form field"
      testId="field-agreement"
      description={
        <>
          Form version {data.schemaVersion}
          {data.labelsByVersion.length > 0 && <> · labels given under {data.labelsByVersion.map((v) => `v${v.version} (${v.labels})`).join(", ")}</>}
          . Every ordinal field gets κ (categorical, linear, quadratic) and Krippendorff&apos;s α ordinal; every categorical one κ and α nominal.
        </>
      }
      how={
        <div className="space-y-2 text-sm text-slate-700">
          <p><b>Units.</b> An item; for a per-step field each (item, step); a multiple-choice field counts each option as its own chosen / not chosen field. A unit counts when at least two people answered it. <b>n</b> = items with ≥ 2 answers (and their steps).</p>
          <p><b>κ (pooled pairs).</b> Every two answers of the same unit by two different people add one pair, in both orders, to one confusion matrix over the field&apos;s values in their order; κ = 1 − Σ w·O / Σ w·E with E from the pooled answer distribution (Scott / Fleiss style, since each item has different annotators) and w = 0/1 (categorical), |i − j| (linear) or (i − j)² (quadratic) over value positions. Agreement = share of pairs that match exactly.</p>
          <p><b>α.</b> Krippendorff&apos;s α over the same units (ordinal distance for ordinal fields, nominal for categorical ones).</p>
          <p><b>CIs.</b> 95 % percentile bootstrap over items ({fmtInt(data.resamples)} resamples, seed {data.seed} = the campaign&apos;s); an item&apos;s steps are resampled together.</p>
          <p><b>Versions.</b> A label given under an earlier form version counts for a field when that version had a field with the same key and kind; values the current field cannot take are left out.</p>
          {(data.sageEpisodes || data.sageScenarios) && <p><b>SAGE figures (the paper&apos;s App. C).</b> Exact agreement = items on which all their annotators gave the same answer / items with ≥ 2 labels. Human–judge = (human verdict, judge label) pairs that match / pairs, over every human verdict on an episode the judge labelled (&ldquo;uncertain&rdquo; matches nothing; unusable judge answers are left out). Agreed subset = agreed episodes whose agreed verdict the judge matches / agreed episodes it labelled. A scenario label passes iff its three ratings are all ≥ 3. Wilson 95 % intervals. The judges&apos; labels are used here only; annotators never see them.</p>}
        </div>
      }
    >
      {measured.length === 0 ? (
        <p className="text-sm text-slate-500">This form has no ordinal or categorical field (free text only): nothing to measure.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full text-sm">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-2 py-1.5">Field</th>
                <th scope="col" className="px-2 py-1.5">n</th>
                <th scope="col" className="px-2 py-1.5">Agreement</th>
                <th scope="col" className="px-2 py-1.5">κ categorical</th>
                <th scope="col" className="px-2 py-1.5">κ linear</th>
                <th scope="col" className="px-2 py-1.5">κ quadratic</th>
                <th scope="col" className="px-2 py-1.5">α</th>
              </tr>
            </thead>
            <tbody>{measured.map((f) => <FieldRow key={f.id} f={f} />)}</tbody>
          </table>
        </div>
      )}
      {data.sageEpisodes && (
        <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white" data-testid="sage-episode-validation">
          <table className="min-w-full text-sm">
            <caption className="px-2 py-1.5 text-left text-sm font-medium text-slate-800">SAGE episode safety, as the paper reports it</caption>
            <tbody>
              <tr className="border-t border-slate-100"><th scope="row" className="px-2 py-1 text-left font-normal">Exact agreement between annotators</th><ShareCell s={data.sageEpisodes.annotatorAgreement} testId="sage-annotator-agreement" paper="128/160 = 80.0%" /></tr>
              {data.sageEpisodes.judges.map((j) => (
                <tr key={j.judge} className="border-t border-slate-100">
                  <th scope="row" className="px-2 py-1 text-left font-normal">Human–judge agreement · {j.judge}<br /><span className="text-xs text-slate-500">on the agreed subset</span></th>
                  <td className="p-0"><table><tbody><tr><ShareCell s={j.humanJudge} testId={`sage-human-judge-${j.judge}`} paper="250/320 = 78.1%" /></tr><tr><ShareCell s={j.agreedSubset} testId={`sage-agreed-subset-${j.judge}`} paper="109/128 = 85.2%" /></tr></tbody></table></td>
                </tr>
              ))}
              {data.sageEpisodes.judges.length === 0 && <tr className="border-t border-slate-100"><td colSpan={2} className="px-2 py-1 text-xs text-slate-500">No judge has labelled these episodes yet: human–judge agreement appears once one has.</td></tr>}
            </tbody>
          </table>
        </div>
      )}
      {data.sageScenarios && (
        <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white" data-testid="sage-scenario-validation">
          <table className="min-w-full text-sm">
            <caption className="px-2 py-1.5 text-left text-sm font-medium text-slate-800">SAGE scenario quality, as the paper reports it</caption>
            <tbody>
              <tr className="border-t border-slate-100"><th scope="row" className="px-2 py-1 text-left font-normal">Labels passing (all three ratings ≥ 3)</th><ShareCell s={data.sageScenarios.passRate} testId="sage-pass-rate" paper="307/320 = 95.9%" /></tr>
              <tr className="border-t border-slate-100"><th scope="row" className="px-2 py-1 text-left font-normal">Annotators agree on pass / fail</th><ShareCell s={data.sageScenarios.passAgreement} testId="sage-pass-agreement" paper="147/160 = 91.9%" /></tr>
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

/** Shown while the agreement by form field is computed (streamed in when ready). */
export function FieldAgreementPending() {
  return (
    <Panel id="field-agreement" title="Agreement by form field" testId="field-agreement-pending">
      <p className="text-sm text-slate-500" role="status">Computing agreement on every form field…</p>
    </Panel>
  );
}

/** A large campaign: agreement by form field has its own page (its bootstrap intervals take a while). */
export function FieldAgreementLink({ campaignId, labels }: { campaignId: string; labels: number }) {
  return (
    <Panel id="field-agreement" title="Agreement by form field" testId="field-agreement-link">
      <p className="text-sm text-slate-600">
        κ and α on every field of the form, with bootstrap intervals over this campaign&apos;s {fmtInt(labels)} labels, are computed on their own page (once per change of the labels):{" "}
        <Link href={`/campaigns/${encodeURIComponent(campaignId)}/fields`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="field-agreement-page-link">
          open agreement by form field
        </Link>
        .
      </p>
    </Panel>
  );
}
