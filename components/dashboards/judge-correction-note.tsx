// The line above the agents leaderboard about the judge-error correction: a hint when no
// validation campaign is chosen, why it cannot be used when it cannot, or the evaluator's Se and
// Sp (with their counts) when it can. Server component (its data type is the server query's).
import type { AgentsValidation } from "@/lib/dashboards/agents";
import { fmtInt, fmtPercent } from "@/components/ui/format";
import { TIE_POLICY_NAMES } from "@/lib/metrics/ground-truth";

export function JudgeCorrectionNote({ validation, evaluator }: { validation: AgentsValidation | null; evaluator: string }) {
  if (!validation) {
    return (
      <p className="text-sm text-slate-500" data-testid="correction-hint">
        Choose a validation campaign (filter above) to correct failure rates for judge error.
      </p>
    );
  }
  if (validation.status === "unavailable") {
    return (
      <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status" data-testid="correction-unavailable">
        No correction for judge error: {validation.reason}.
      </p>
    );
  }
  const { counts: c } = validation;
  const { sensitivity: se, specificity: sp } = validation.accuracy;
  const trueFailures = c.identifiedTrue + c.trueOnly;
  const others = c.identifiedOnly + c.neither;
  const pct = (e: { value?: number; undefined?: true; reason?: string }) => (e.undefined ? `undefined (${e.reason})` : fmtPercent(e.value!));
  return (
    <p className="text-sm text-slate-600" data-testid="correction-note">
      <strong>Corrected for judge error</strong> with validation campaign <strong>{validation.campaignName}</strong>: on its{" "}
      {fmtInt(trueFailures + others)} labelled items that {evaluator} scored, it flagged {fmtInt(c.identifiedTrue)} of {fmtInt(trueFailures)} true
      failures (sensitivity Se = {pct(se)}) and left {fmtInt(c.neither)} of {fmtInt(others)} others alone (specificity Sp = {pct(sp)})
      {validation.unscored > 0 ? `; ${fmtInt(validation.unscored)} labelled items without its score are left out` : ""}.
      {validation.ties > 0 && (
        <span data-testid="correction-ties">
          {" "}
          On {fmtInt(validation.ties)} of them humans tied on “true failure” (no adjudication):{" "}
          {validation.tiesExcluded > 0
            ? `${fmtInt(validation.tiesExcluded)} left out (tie policy “${TIE_POLICY_NAMES[validation.tiePolicy]}”).`
            : validation.tiePolicy === "sensitivity"
              ? "resolved with the seed; the corrected rate shows that resolution only (no range over the ties)."
              : "resolved with the seed (tie policy)."}
        </span>
      )}
    </p>
  );
}
