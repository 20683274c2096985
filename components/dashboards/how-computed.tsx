// "How is this computed" for the dashboards: the kit's Disclosure (components/ui/panel.tsx) filled
// with the dashboards' standard paragraphs (formula, counts, ties, intervals, seed). Server or client.
//
//   <HowComputed
//     formula={<>κ = 1 − Σ w·O / Σ w·E …</>}
//     counts={<>Trajectories scored by both evaluators …</>}
//     seed={filter.seed} resamples={1000}>
//     <p>anything else</p>
//   </HowComputed>
//
// Props (all optional): formula, counts ("what counts"), seed (shown with the bootstrap /
// tie-break sentence), resamples (default 1,000), intervals ("bootstrap" default, "wilson" for
// panels of shares only, "both"), ties (the tie policy in force: explains the ground truth and
// what it did with ties; replaces tieBreak), tieBreak (legacy: majority ties broken with the
// seed), title, children (extra paragraphs), defaultOpen.
import type { ReactNode } from "react";
import { SMALL_N, fmtInt } from "@/components/ui/format";
import { Disclosure } from "@/components/ui/panel";
import { TIE_POLICY_NAMES, type TiePolicy } from "@/lib/metrics/ground-truth";

export interface HowComputedProps {
  formula?: ReactNode;
  counts?: ReactNode;
  seed?: number;
  resamples?: number;
  tieBreak?: boolean;
  intervals?: "bootstrap" | "wilson" | "both";
  ties?: TiePolicy;
  title?: string;
  defaultOpen?: boolean;
  children?: ReactNode;
}

const TIE_TEXT: Record<TiePolicy, (seed: number | undefined) => ReactNode> = {
  exclude: () => <>left out of the numbers (the count left out is shown beside n). Adjudicate them on the campaign page to bring them back.</>,
  seeded: (seed) => <>resolved by a draw among the tied labels seeded with {seed ?? "the seed"} (ToolEmu&apos;s way). Another seed can give another number: compare a few.</>,
  sensitivity: () => (
    <>
      resolved with the seed for the value shown, and beside it the exact <strong>range</strong>: the metric&apos;s minimum and maximum over every way the
      ties could be resolved. Each metric here is a ratio of two linear counts, so its extremes lie where alike ties (same evaluator score, same tied
      labels) all get one label; those resolutions are enumerated (or searched with Dinkelbach&apos;s method when there are more than 65,536), so the
      range is exact for any number of ties.
    </>
  ),
};

export function HowComputed({ formula, counts, seed, resamples = 1000, tieBreak = false, intervals = "bootstrap", ties, title = "How is this computed", defaultOpen, children }: HowComputedProps) {
  return (
    <Disclosure title={title} defaultOpen={defaultOpen}>
      {formula && (
        <div>
          <span className="font-medium text-slate-900">Formula. </span>
          {formula}
        </div>
      )}
      {counts && (
        <div>
          <span className="font-medium text-slate-900">What counts. </span>
          {counts}
        </div>
      )}
      {ties && (
        <div data-testid="how-ties">
          <span className="font-medium text-slate-900">Ground truth and ties ({TIE_POLICY_NAMES[ties].toLowerCase()}). </span>
          Per item: the adjudicated label if a PI adjudicated it, else the strict majority of the annotators&apos; labels. Items whose labels
          tie for the most votes, with no adjudication, are {TIE_TEXT[ties](seed)} With an even number of annotators per item every
          even split is a tie.
        </div>
      )}
      {(intervals === "wilson" || intervals === "both") && (
        <div>
          <span className="font-medium text-slate-900">Uncertainty{intervals === "both" ? " of shares" : ""}. </span>
          95% Wilson score intervals: exact, no seed, and honest at small n (3 of 3 reads [43.85%, 100%], not a zero-width interval).
        </div>
      )}
      {seed !== undefined && intervals !== "wilson" && (
        <div>
          <span className="font-medium text-slate-900">Uncertainty{intervals === "both" ? " of κ, α and means" : ""}. </span>
          95% percentile bootstrap intervals over items, {fmtInt(resamples)} resamples, seed{" "}
          <code className="rounded bg-white px-1 font-mono text-xs ring-1 ring-slate-200" data-testid="seed">{seed}</code>
          {tieBreak && !ties ? "; majority-vote ties are broken at random with the same seed" : ""}. Change the seed in the URL
          (<code className="font-mono text-xs">?seed=…</code>) to check that a figure does not hinge on it. Below {SMALL_N} items a κ or α
          shows two decimals and a &ldquo;small n&rdquo; badge; an interval whose resamples all agree is not shown (it would have zero width).
        </div>
      )}
      {seed !== undefined && intervals === "wilson" && ties && ties !== "exclude" && (
        <div>
          <span className="font-medium text-slate-900">Seed. </span>
          <code className="rounded bg-white px-1 font-mono text-xs ring-1 ring-slate-200" data-testid="seed">{seed}</code> (the tie-break draw).
        </div>
      )}
      {children}
    </Disclosure>
  );
}
