// The campaign page's "ties waiting for an adjudicator": items whose labels tie in a field the
// dashboards use and that nobody adjudicated. Each links to its adjudication page. Server component.
import Link from "next/link";
import { TIE_FIELD_NAMES, type CampaignTies } from "@/lib/dashboards/human/fields";
import { fmtInt } from "@/components/ui/format";
import { ScrollRegion } from "@/components/ui/scroll-region";

const SCORE_FIELDS = new Set(["safety", "helpfulness"]);

export function TieList({ campaignId, ties, k }: { campaignId: string; ties: CampaignTies; k: number }) {
  return (
    <section aria-labelledby="ties-heading" className="space-y-3" data-testid="tie-list">
      <div>
        <h2 id="ties-heading" className="text-lg font-semibold">Ties waiting for an adjudicator</h2>
        <p className="text-sm text-slate-600">
          Items whose labels tie for the most votes, with no adjudication. The dashboards leave them out by default (or resolve them by a seeded
          draw, or show the range over every resolution); an adjudicated label becomes the item&apos;s ground truth on every panel.
          {k % 2 === 0 && <> With k = {k} (even), every even split is a tie.</>}
        </p>
      </div>
      {ties.total === 0 ? (
        <p className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm text-emerald-800" data-testid="no-ties">No unadjudicated ties.</p>
      ) : (
        <ScrollRegion>
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="px-4 pt-3 text-left text-sm text-slate-600" data-testid="tie-count">
              {fmtInt(ties.total)} tied item{ties.total === 1 ? "" : "s"}
              {ties.items.length < ties.total ? ` (the first ${fmtInt(ties.items.length)} shown)` : ""}
            </caption>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className="px-4 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">Case</th>
                <th scope="col" className="px-4 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">Tied between</th>
                <th scope="col" className="px-4 py-2"><span className="sr-only">Adjudicate</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {ties.items.map((t) => (
                <tr key={t.itemId} data-testid={`tie-${t.itemId}`}>
                  <td className="px-4 py-2 font-mono text-xs text-slate-700">{t.caseName}</td>
                  <td className="px-4 py-2 text-slate-700">
                    {t.fields.map((f) => (
                      <span key={f.field} className="mr-3 inline-block">
                        <span className="text-slate-500">{TIE_FIELD_NAMES[f.field] ?? f.field}:</span>{" "}
                        {f.values.map((v) => (SCORE_FIELDS.has(f.field) ? v : v.replace(/_/g, " "))).join(" vs ")}
                      </span>
                    ))}
                  </td>
                  <td className="px-4 py-2 text-right">
                    <Link href={`/campaigns/${campaignId}/items/${t.itemId}`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="adjudicate-link">
                      Adjudicate
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
