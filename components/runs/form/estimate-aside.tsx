// The sticky side card of the "new run" and "evaluate" forms: the live estimate, how it is
// estimated, the form error, and the submit button that turns into a confirmation.
import type { ReactNode, RefObject } from "react";
import { FormError, SummaryRow, cardCls, primaryButtonCls, secondaryButtonCls } from "@/components/ui/form";
import { fmtInt, fmtUsd } from "@/components/ui/format";

interface Props {
  id: string;
  title: string;
  /** data-testid and data-* attributes of the live estimate. */
  estimate: { testId: string; data: Record<string, string | number> };
  previewError?: string;
  /** The figures; null while estimating. */
  figures: ReactNode | null;
  assumptions?: { summary: string; items: string[] };
  /** The two-step submit's state (./use-confirm-submit.ts). */
  submitState: { error: string | null; errorRef: RefObject<HTMLParagraphElement | null>; confirming: boolean; pending: boolean; confirmRef: RefObject<HTMLButtonElement | null>; unconfirm: () => void };
  errorTestId: string;
  confirm: { text: ReactNode; panelTestId: string; buttonTestId: string };
  submit: { label: string; disabled: boolean; testId: string };
}

export function EstimateAside({ id, title, estimate, previewError, figures, assumptions, submitState, errorTestId, confirm, submit }: Props) {
  const { error, errorRef, confirming, pending, confirmRef, unconfirm: onBack } = submitState;
  const data = Object.fromEntries(Object.entries(estimate.data).map(([k, v]) => [`data-${k}`, v]));
  return (
    <aside className="lg:sticky lg:top-4 lg:self-start">
      <div className={cardCls} aria-labelledby={id} role="region">
        <h2 id={id} className="text-base font-semibold">{title}</h2>
        <div role="status" aria-live="polite" className="mt-3 text-sm" data-testid={estimate.testId} {...data}>
          {previewError ? <p className="text-rose-700">{previewError}</p> : figures === null ? <p className="text-slate-500">Estimating…</p> : figures}
        </div>
        {assumptions && (
          <details className="mt-3 text-xs text-slate-600">
            <summary className="cursor-pointer text-slate-700">{assumptions.summary}</summary>
            <ul className="mt-2 list-disc space-y-1 pl-4">{assumptions.items.map((a) => <li key={a}>{a}</li>)}</ul>
          </details>
        )}
        <FormError message={error} testId={errorTestId} errorRef={errorRef} />
        {confirming && figures !== null ? (
          <div className="mt-4 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm" data-testid={confirm.panelTestId}>
            <p>{confirm.text}</p>
            <div className="mt-3 flex gap-2">
              <button ref={confirmRef} type="submit" disabled={pending} className={primaryButtonCls} data-testid={confirm.buttonTestId}>{pending ? "Creating…" : "Confirm and start"}</button>
              <button type="button" onClick={onBack} disabled={pending} className={secondaryButtonCls}>Back</button>
            </div>
          </div>
        ) : (
          <button type="submit" disabled={submit.disabled} className="mt-4 w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:opacity-50" data-testid={submit.testId}>
            {submit.label}
          </button>
        )}
      </div>
    </aside>
  );
}

/**
 * The estimate's figures: the form's own rows, then tokens and cost (every form shows them), then
 * notes — `notesFirst`, the unpriced-model warning, `notes` — outside the <dl> (a definition list
 * holds only dt/dd groups).
 */
export function EstimateFigures({ estimate, children, notesFirst, notes }: { estimate: { inputTokens: number; outputTokens: number; costUsd: number; unpriced: string[] }; children: ReactNode; notesFirst?: ReactNode; notes?: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <dl className="space-y-1.5">
        {children}
        <SummaryRow label="Tokens in / out">≈ {fmtInt(estimate.inputTokens)} / {fmtInt(estimate.outputTokens)}</SummaryRow>
        <SummaryRow label="Cost" strong testId="estimate-cost">≈ {fmtUsd(estimate.costUsd)}</SummaryRow>
      </dl>
      {notesFirst}
      {estimate.unpriced.length > 0 && <p className="text-xs text-amber-700">No price set for {estimate.unpriced.join(", ")} (counted as free).</p>}
      {notes}
    </div>
  );
}
