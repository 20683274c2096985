"use client";

// Edit a running campaign's label form (issue 18 item 6): the same editor as on the new-campaign
// page; saving makes a new version. Labels already given keep the version they were given under.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import { formatLabelForm, parseLabelFormText } from "@/lib/trajectory/label-form";
import type { LabelSchema } from "@/lib/trajectory/label-schema";
import { LabelFormEditor } from "./form/label-form-editor";

type ReviseForm = (input: { campaignId: string; form: unknown }) => Promise<ActionResult<{ version: number }>>;

export function ReviseForm({ campaignId, schema, reviseForm }: { campaignId: string; schema: LabelSchema; reviseForm: ReviseForm }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(() => formatLabelForm({ version: schema.version, fields: schema.fields }));
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-50" data-testid="edit-form">
        Edit the form (makes version {schema.version + 1})…
      </button>
    );
  }
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="revise-form">
      <p className="text-sm text-slate-600">Labels already given keep version {schema.version}; new and revised labels are given under the new version. Keep a field&apos;s key and kind to keep it comparable in the agreement figures.</p>
      <LabelFormEditor text={text} onText={setText} />
      <div className="mt-3 flex items-center gap-2">
        <button type="button" disabled={pending} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60" data-testid="save-form"
          onClick={() => startTransition(async () => {
            const parsed = parseLabelFormText(text);
            if (!parsed.ok) return setError("Fix the problems listed above first.");
            const res = await reviseForm({ campaignId, form: parsed.schema });
            if (!res.ok) return setError(res.error);
            setOpen(false);
            router.refresh();
          })}>
          {pending ? "Saving…" : `Save as version ${schema.version + 1}`}
        </button>
        <button type="button" onClick={() => setOpen(false)} className="rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-100">Cancel</button>
        {error && <p role="alert" className="text-sm text-rose-700">{error}</p>}
      </div>
    </div>
  );
}
