"use client";

import { useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import { FormError, primaryButtonCls } from "@/components/ui/form";
import { QualitySettingsFields, draftFromSettings, qualityFromDraft, type QualityDraft } from "./quality-settings-fields";

type Settings = { goldRate: number; qualificationItems: number; qualificationPass: number; blindAdjudication: boolean };

export function QualitySettingsForm({ campaignId, initial, save, disabled }: { campaignId: string; initial: Settings; save: (input: Settings & { campaignId: string }) => Promise<ActionResult<Settings>>; disabled?: boolean }) {
  const router = useRouter();
  const [draft, setDraft] = useState<QualityDraft>(() => draftFromSettings(initial));
  const [errors, setErrors] = useState<Partial<Record<keyof QualityDraft, string>>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const errorRef = useRef<HTMLParagraphElement>(null);
  return (
    <form
      aria-label="Quality settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = qualityFromDraft(draft);
        if (!parsed.ok) {
          setErrors(parsed.errors);
          return;
        }
        setErrors({});
        start(async () => {
          const r = await save({ campaignId, ...parsed.value });
          setMessage(r.ok ? { ok: true, text: "Saved. New claims follow these settings." } : { ok: false, text: r.error });
          if (r.ok) router.refresh();
          else requestAnimationFrame(() => errorRef.current?.focus());
        });
      }}
      className="space-y-3"
    >
      <QualitySettingsFields value={draft} onChange={setDraft} errors={errors} />
      <div className="flex items-center gap-3">
        <button type="submit" className={primaryButtonCls} disabled={pending || disabled} data-testid="quality-save">{pending ? "Saving…" : "Save settings"}</button>
        {message?.ok && <p role="status" className="text-sm text-emerald-700" data-testid="quality-saved">{message.text}</p>}
      </div>
      <FormError message={message && !message.ok ? message.text : null} testId="quality-error" errorRef={errorRef} />
    </form>
  );
}
