"use client";

// A campaign's gold items: the list (with the known answers, which only staff see), gold copied
// from adjudications of other campaigns, and gold entered with the campaign's form.
import { useId, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import type { LabelField, LabelSchema, LabelValues } from "@/lib/trajectory/label-schema";
import { Field, FormError, Select, TextInput, primaryButtonCls, secondaryButtonCls } from "@/components/ui/form";
import { valueText } from "../format";

type Value = string | boolean | null;
type Result = Promise<ActionResult<unknown>>;

export interface GoldRow { itemId: string; trajectoryId: string; caseName: string; values: LabelValues; source: string; sourceItemId: string | null; labels: number; opened: number }
export interface CandidateRow { sourceItemId: string; campaignName: string; trajectoryId: string; caseName: string; values: LabelValues; problem: string | null }

interface Props {
  campaignId: string;
  schema: LabelSchema;
  gold: GoldRow[];
  candidates: CandidateRow[];
  locked: boolean;
  addFromAdjudication: (i: { campaignId: string; sourceItemId: string }) => Result;
  addByForm: (i: { campaignId: string; trajectoryId: string; values: Record<string, Value> }) => Result;
  remove: (i: { campaignId: string; itemId: string }) => Result;
}

/** The answer in short: each choice / yes-no field's text. */
function Answer({ schema, values }: { schema: LabelSchema; values: LabelValues }) {
  const parts = schema.fields.filter((f) => f.kind === "choice" || f.kind === "boolean").map((f) => `${f.label.replace(/\s*\(.*\)$/, "")}: ${valueText(f, values[f.key]) ?? "—"}`);
  return <span className="text-xs text-slate-700">{parts.join(" · ")}</span>;
}

function ValueInput({ id, field, value, onChange }: { id: string; field: LabelField; value: Value; onChange: (v: Value) => void }) {
  if (field.kind === "choice") return <Select id={id} value={typeof value === "string" ? value : ""} onChange={(v) => onChange(v || null)} empty="Choose…" options={field.options.map((o) => ({ value: o.value, label: o.label }))} data-testid={`gold-${field.key}`} />;
  if (field.kind === "boolean") return <Select id={id} value={value === true ? "yes" : value === false ? "no" : ""} onChange={(v) => onChange(v === "yes" ? true : v === "no" ? false : null)} empty="Choose…" options={[{ value: "yes", label: "Yes" }, { value: "no", label: "No" }]} data-testid={`gold-${field.key}`} />;
  return <TextInput id={id} value={typeof value === "string" ? value : ""} onChange={(v) => onChange(v || null)} data-testid={`gold-${field.key}`} />;
}

export function GoldPanel({ campaignId, schema, gold, candidates, locked, addFromAdjudication, addByForm, remove }: Props) {
  const router = useRouter();
  const uid = useId();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [trajectoryId, setTrajectoryId] = useState("");
  const [values, setValues] = useState<Record<string, Value>>({});

  const run = (f: () => Result, done: string, after?: () => void) =>
    start(async () => {
      setError(null);
      const r = await f();
      if (r.ok) {
        setNotice(done);
        after?.();
        router.refresh();
      } else setError(r.error);
    });

  return (
    <div className="space-y-6">
      <p role="status" className="text-sm text-emerald-700 empty:hidden" data-testid="gold-notice">{notice}</p>
      <FormError message={error} testId="gold-error" />
      <section aria-labelledby={`${uid}-list`} className="space-y-2">
        <h3 id={`${uid}-list`} className="text-sm font-semibold text-slate-900">Gold items ({gold.length})</h3>
        {gold.length === 0 ? (
          <p className="text-sm text-slate-500" data-testid="gold-empty">No gold items yet. Add some below: gold items are only used once the campaign has them.</p>
        ) : (
          <table className="w-full text-left text-sm" data-testid="gold-table">
            <thead className="text-xs uppercase tracking-wide text-slate-500"><tr><th className="py-1 pr-3">Item</th><th className="py-1 pr-3">Case</th><th className="py-1 pr-3">Known answer</th><th className="py-1 pr-3">From</th><th className="py-1 pr-3 text-right">Answers</th><th className="py-1" /></tr></thead>
            <tbody className="divide-y divide-slate-100">
              {gold.map((g) => (
                <tr key={g.itemId} data-testid="gold-row">
                  <td className="py-1.5 pr-3 font-mono text-xs">{g.itemId}</td>
                  <td className="py-1.5 pr-3">{g.caseName}</td>
                  <td className="py-1.5 pr-3"><Answer schema={schema} values={g.values} /></td>
                  <td className="py-1.5 pr-3 text-xs text-slate-600">{g.source === "adjudication" ? "an adjudication" : "the form"}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{g.labels}</td>
                  <td className="py-1.5 text-right">
                    <button type="button" className={secondaryButtonCls} disabled={pending || locked || g.opened > 0} title={g.opened > 0 ? "Annotators have opened it: it stays" : "Take this gold item out"}
                      onClick={() => run(() => remove({ campaignId, itemId: g.itemId }), "Gold item removed.")}>Remove</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby={`${uid}-adj`} className="space-y-2">
        <h3 id={`${uid}-adj`} className="text-sm font-semibold text-slate-900">From adjudications of other campaigns</h3>
        <p className="text-xs text-slate-500">The adjudicated label becomes the known answer; the trajectory becomes a new item of this campaign.</p>
        {candidates.length === 0 ? (
          <p className="text-sm text-slate-500" data-testid="gold-candidates-empty">No adjudicated item in another campaign.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" data-testid="gold-candidates">
            {candidates.map((c) => (
              <li key={c.sourceItemId} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2" data-testid="gold-candidate">
                <div className="min-w-0">
                  <p className="text-sm"><span className="font-medium">{c.caseName || c.trajectoryId}</span> <span className="text-xs text-slate-500">· {c.campaignName}</span></p>
                  <Answer schema={schema} values={c.values} />
                  {c.problem && <p className="text-xs text-amber-700">Cannot be used: {c.problem}</p>}
                </div>
                <button type="button" className={secondaryButtonCls} disabled={pending || locked || !!c.problem} data-testid="gold-add-candidate"
                  onClick={() => run(() => addFromAdjudication({ campaignId, sourceItemId: c.sourceItemId }), "Gold item added from the adjudication.")}>Add as gold</button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby={`${uid}-form`} className="space-y-3">
        <h3 id={`${uid}-form`} className="text-sm font-semibold text-slate-900">Enter a known answer</h3>
        <form
          noValidate
          aria-label="Enter a gold answer"
          className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3"
          onSubmit={(e) => {
            e.preventDefault();
            run(() => addByForm({ campaignId, trajectoryId, values }), "Gold item added.", () => {
              setTrajectoryId("");
              setValues({});
            });
          }}
        >
          <Field id={`${uid}-traj`} label="Trajectory id" hint="From the trajectory's page; it must not be an item of this campaign yet.">
            {(aria) => <TextInput id={`${uid}-traj`} value={trajectoryId} onChange={setTrajectoryId} {...aria} data-testid="gold-trajectory" />}
          </Field>
          {schema.fields.map((f) => (
            <Field key={f.key} id={`${uid}-${f.key}`} label={f.label} optional={!f.required}>
              {() => <ValueInput id={`${uid}-${f.key}`} field={f} value={values[f.key] ?? null} onChange={(v) => setValues((p) => ({ ...p, [f.key]: v }))} />}
            </Field>
          ))}
          <div className="sm:col-span-2 xl:col-span-3">
            <button type="submit" className={primaryButtonCls} disabled={pending || locked} data-testid="gold-add">Add gold item</button>
          </div>
        </form>
      </section>
    </div>
  );
}
