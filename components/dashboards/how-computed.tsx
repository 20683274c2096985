// "How is this computed": a collapsible note under each panel (a native <details>, so it works
// without JavaScript and with the keyboard). Server or client.
//
//   <HowComputed
//     formula={<>κ = 1 − Σ w·O / Σ w·E …</>}
//     counts={<>Trajectories scored by both evaluators …</>}
//     seed={filter.seed} resamples={1000}>
//     <p>anything else</p>
//   </HowComputed>
//
// Props (all optional): formula, counts ("what counts"), seed (shown with the bootstrap /
// tie-break sentence), resamples (default 1,000), tieBreak (true: mention the majority tie-break
// uses the same seed), title, children (extra paragraphs), defaultOpen.
import type { ReactNode } from "react";
import { fmtInt } from "@/lib/dashboards/format";

export interface HowComputedProps {
  formula?: ReactNode;
  counts?: ReactNode;
  seed?: number;
  resamples?: number;
  tieBreak?: boolean;
  title?: string;
  defaultOpen?: boolean;
  children?: ReactNode;
}

export function HowComputed({ formula, counts, seed, resamples = 1000, tieBreak = false, title = "How is this computed", defaultOpen, children }: HowComputedProps) {
  return (
    <details className="group mt-4 rounded-lg border border-slate-200 bg-slate-50 text-sm text-slate-700" open={defaultOpen} data-testid="how-computed">
      <summary className="cursor-pointer select-none list-none rounded-lg px-4 py-2 font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600">
        <span aria-hidden="true" className="mr-2 inline-block transition-transform group-open:rotate-90">▸</span>
        {title}
      </summary>
      <div className="space-y-2 px-4 pb-4 pt-1 leading-relaxed">
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
        {seed !== undefined && (
          <div>
            <span className="font-medium text-slate-900">Uncertainty. </span>
            95% percentile bootstrap intervals over items, {fmtInt(resamples)} resamples, seed{" "}
            <code className="rounded bg-white px-1 font-mono text-xs ring-1 ring-slate-200" data-testid="seed">{seed}</code>
            {tieBreak ? "; majority-vote ties are broken at random with the same seed" : ""}. Change the seed in the URL
            (<code className="font-mono text-xs">?seed=…</code>) to check that a figure does not hinge on it.
          </div>
        )}
        {children}
      </div>
    </details>
  );
}
