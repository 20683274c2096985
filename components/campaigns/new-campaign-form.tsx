"use client";

// The "new campaign" form. Everything typed stays in component state, so a refused submit (a
// validation error, a selection that matches nothing) keeps it all; success opens the campaign.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import { ROLE_LABELS, type Role } from "@/lib/auth/permissions";
import type { CreateCampaignInput } from "@/lib/annotation/schemas";
import type { OptionCount } from "@/lib/toolemu/queries";
import { MODE_LABELS, shortModel } from "@/components/toolemu/format";
import { Guidelines } from "@/components/ui/guidelines";
import { fmtInt } from "@/components/ui/format";

export interface InvitableUserRow {
  id: string;
  name: string;
  email: string;
  role: Role;
}

export interface SelectionPreviewData {
  matching: number;
  /** Offline-model trajectories the filter matched that the campaign leaves out. */
  offlineExcluded: number;
  strata: { agentModel: string; emulatorMode: string; count: number }[];
}

interface Props {
  users: InvitableUserRow[];
  facets: { agents: OptionCount[]; modes: OptionCount[]; toolkits: OptionCount[] };
  totalTrajectories: number;
  /** A random seed chosen on the server, so server and client render the same value. */
  defaultSeed: number;
  createCampaign: (input: CreateCampaignInput) => Promise<ActionResult<{ id: string; items: number }>>;
  previewSelection: (input: { filter: Record<string, string>; includeOffline: boolean }) => Promise<ActionResult<SelectionPreviewData>>;
}

type Kind = "filter" | "sample";

const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 aria-[invalid=true]:border-rose-400";
const card = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm";
const labelCls = "block text-sm font-medium text-slate-800";
const hint = "mt-1 text-xs text-slate-500";

/** "" → undefined, else the number (NaN for junk, which the server refuses with a message). */
const num = (s: string): number | undefined => (s.trim() === "" ? undefined : Number(s));

export function NewCampaignForm({ users, facets, totalTrajectories, defaultSeed, createCampaign, previewSelection }: Props) {
  const router = useRouter();
  const uid = useId();
  const [name, setName] = useState("");
  const [guidelines, setGuidelines] = useState("");
  const [k, setK] = useState("3");
  const [invited, setInvited] = useState<Set<string>>(new Set());
  const [kind, setKind] = useState<Kind>("sample");
  const [agent, setAgent] = useState("");
  const [mode, setMode] = useState("");
  const [toolkit, setToolkit] = useState("");
  const [limit, setLimit] = useState("");
  const [sampleN, setSampleN] = useState("20");
  const [sampleSeed, setSampleSeed] = useState(String(defaultSeed));
  const [stratify, setStratify] = useState(true);
  const [pseudonymize, setPseudonymize] = useState(false);
  const [includeOffline, setIncludeOffline] = useState(false);
  const [redactModelNames, setRedactModelNames] = useState(false);
  const [seed, setSeed] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [preview, setPreview] = useState<{ key: string; data: SelectionPreviewData | null; error?: string } | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  const filter = useMemo(() => {
    const f: Record<string, string> = {};
    if (agent) f.agent = agent;
    if (mode) f.mode = mode;
    if (toolkit) f.toolkit = toolkit;
    return f;
  }, [agent, mode, toolkit]);
  const filterKey = JSON.stringify([filter, includeOffline]);

  // The live count of matching trajectories; a late answer for an older filter is ignored.
  useEffect(() => {
    let current = true;
    previewSelection({ filter, includeOffline }).then(
      (res) => current && setPreview(res.ok ? { key: filterKey, data: res.data } : { key: filterKey, data: null, error: res.error }),
      () => current && setPreview({ key: filterKey, data: null, error: "Could not count the matching trajectories." }),
    );
    return () => {
      current = false;
    };
  }, [filter, includeOffline, filterKey, previewSelection]);

  const counting = preview?.key !== filterKey;
  const matching = !counting ? (preview?.data?.matching ?? null) : null;
  const kNum = num(k);
  const items =
    matching === null ? null : kind === "filter" ? Math.min(matching, num(limit) || matching) : Math.min(matching, num(sampleN) ?? 0);
  const needed = items !== null && kNum ? items * kNum : null;
  const perAnnotator = needed !== null && invited.size > 0 ? Math.ceil(needed / invited.size) : null;
  const annotatorRoleIds = users.filter((u) => u.role === "ANNOTATOR").map((u) => u.id);

  function toggle(id: string, on: boolean) {
    setInvited((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setError(null);
    const selection: CreateCampaignInput["selection"] =
      kind === "filter"
        ? { kind: "filter", filter, ...(num(limit) !== undefined ? { limit: num(limit) } : {}) }
        : { kind: "sample", filter, n: num(sampleN) as number, seed: num(sampleSeed) as number, stratify };
    const res = await createCampaign({
      name,
      guidelines,
      k: kNum as number,
      ...(num(seed) !== undefined ? { seed: num(seed) } : {}),
      pseudonymize,
      includeOffline,
      redactModelNames,
      annotatorIds: users.filter((u) => invited.has(u.id)).map((u) => u.id),
      selection,
    });
    if (res.ok) {
      router.push(`/campaigns/${res.data.id}`);
      return; // stay "pending" while the campaign page loads
    }
    setPending(false);
    const fields = res.fieldErrors ?? {};
    setFieldErrors(fields);
    // Validation errors are shown at their fields; the summary repeats them without zod's paths.
    const messages = [...new Set(Object.values(fields).flat())];
    setError(messages.length ? `Please fix: ${messages.join(" ")}` : res.error);
    requestAnimationFrame(() => errorRef.current?.focus());
  }

  const errs = (...keys: string[]) => keys.flatMap((key) => fieldErrors[key] ?? []);
  const errId = (key: string) => `${uid}-${key}-error`;
  const fieldError = (key: string, ...more: string[]) => {
    const list = errs(key, ...more);
    return list.length ? <p id={errId(key)} className="mt-1 text-xs text-rose-700">{list.join(" ")}</p> : null;
  };
  const invalid = (key: string, ...more: string[]) => (errs(key, ...more).length ? { "aria-invalid": true as const, "aria-describedby": errId(key) } : {});

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New campaign" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]" data-testid="new-campaign-form">
      <div className="min-w-0 space-y-6">
        <section className={card} aria-labelledby={`${uid}-about`}>
          <h2 id={`${uid}-about`} className="text-base font-semibold">About</h2>
          <div className="mt-4 space-y-4">
            <div>
              <label htmlFor={`${uid}-name`} className={labelCls}>Name</label>
              <input id={`${uid}-name`} name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} className={input} placeholder="e.g. Pilot: Qwen agents, adversarial emulator" {...invalid("name")} />
              {fieldError("name")}
            </div>
            <div>
              <label htmlFor={`${uid}-guidelines`} className={labelCls}>Guidelines</label>
              <p className={hint} id={`${uid}-guidelines-hint`}>Shown to annotators beside the form and before their first item. Markdown subset: # headings, - lists, **bold**, *italic*, `code`, [links](https://…).</p>
              <div className="mt-2 grid gap-3 md:grid-cols-2">
                <textarea id={`${uid}-guidelines`} name="guidelines" value={guidelines} onChange={(e) => setGuidelines(e.target.value)} rows={12} maxLength={50_000}
                  aria-describedby={`${uid}-guidelines-hint`} className={`${input} mt-0 font-mono text-xs leading-relaxed`} placeholder={"# How to label\n\n- Judge the tool calls the agent actually made.\n- **Safety**: …"} />
                <div className="min-h-40 rounded-md border border-dashed border-slate-300 bg-slate-50/60 p-3" aria-label="Guidelines preview" role="region">
                  <p className="mb-2 text-[11px] font-medium uppercase tracking-wide text-slate-400">Preview</p>
                  <Guidelines text={guidelines} empty="Nothing written yet." testId="guidelines-preview" />
                </div>
              </div>
              {fieldError("guidelines")}
            </div>
          </div>
        </section>

        <section className={card} aria-labelledby={`${uid}-traj`}>
          <h2 id={`${uid}-traj`} className="text-base font-semibold">Trajectories</h2>
          <p className="mt-1 text-sm text-slate-600">{fmtInt(totalTrajectories)} trajectories in the database. Narrow them with a filter, then take all of them or a seeded random sample.</p>
          <div className="mt-4 grid gap-3 sm:grid-cols-3">
            <div>
              <label htmlFor={`${uid}-agent`} className={labelCls}>Agent model</label>
              <select id={`${uid}-agent`} value={agent} onChange={(e) => setAgent(e.target.value)} className={input} data-testid="selection-agent">
                <option value="">Any agent</option>
                {facets.agents.map((o) => <option key={o.value} value={o.value} title={o.value}>{`${shortModel(o.value)} (${fmtInt(o.count)})`}</option>)}
              </select>
            </div>
            <div>
              <label htmlFor={`${uid}-mode`} className={labelCls}>Emulator mode</label>
              <select id={`${uid}-mode`} value={mode} onChange={(e) => setMode(e.target.value)} className={input} data-testid="selection-mode">
                <option value="">Any mode</option>
                {facets.modes.map((o) => <option key={o.value} value={o.value}>{`${MODE_LABELS[o.value] ?? o.value} (${fmtInt(o.count)})`}</option>)}
              </select>
            </div>
            <div>
              <label htmlFor={`${uid}-toolkit`} className={labelCls}>Toolkit</label>
              <select id={`${uid}-toolkit`} value={toolkit} onChange={(e) => setToolkit(e.target.value)} className={input} data-testid="selection-toolkit">
                <option value="">Any toolkit</option>
                {facets.toolkits.map((o) => <option key={o.value} value={o.value}>{`${o.value} (${fmtInt(o.count)})`}</option>)}
              </select>
            </div>
          </div>
          <p className="mt-3 text-sm" role="status" aria-live="polite" data-testid="selection-count">
            {counting ? (
              <span className="text-slate-500">Counting matching trajectories…</span>
            ) : preview?.error ? (
              <span className="text-rose-700">{preview.error}</span>
            ) : matching === 0 ? (
              <span className="text-amber-700">No trajectories match this filter — change or clear it.</span>
            ) : (
              <>
                <strong className="tabular-nums">{fmtInt(matching ?? 0)}</strong> {matching === 1 ? "trajectory matches" : "trajectories match"} this filter
                {preview?.data && preview.data.strata.length > 0 && <span className="text-slate-500"> · {preview.data.strata.length} agent × mode {preview.data.strata.length === 1 ? "stratum" : "strata"}</span>}
              </>
            )}
            {!counting && (preview?.data?.offlineExcluded ?? 0) > 0 && (
              <span className="block text-xs text-slate-500" data-testid="offline-excluded">
                {fmtInt(preview!.data!.offlineExcluded)} offline-model {preview!.data!.offlineExcluded === 1 ? "trajectory is" : "trajectories are"} left out (tick below to include).
              </span>
            )}
          </p>
          <label className="mt-2 flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-0.5" checked={includeOffline} onChange={(e) => setIncludeOffline(e.target.checked)} data-testid="include-offline" />
            <span>
              Include offline-model trajectories
              <span className="block text-xs text-slate-500">Trajectories the offline heuristic model (not an LLM) played or emulated read like it and un-blind the item; they are left out unless you tick this.</span>
            </span>
          </label>

          <fieldset className="mt-4">
            <legend className={labelCls}>Which of them</legend>
            <div className="mt-2 grid gap-3 md:grid-cols-2">
              <div className={`rounded-lg border p-3 ${kind === "sample" ? "border-indigo-300 bg-indigo-50/40" : "border-slate-200"}`}>
                <label className="flex items-center gap-2 text-sm font-medium">
                  <input type="radio" name="kind" value="sample" checked={kind === "sample"} onChange={() => setKind("sample")} data-testid="kind-sample" />
                  A seeded random sample
                </label>
                <div className="mt-3 grid grid-cols-2 gap-3">
                  <div>
                    <label htmlFor={`${uid}-n`} className="block text-xs font-medium text-slate-700">Sample size N</label>
                    <input id={`${uid}-n`} type="number" inputMode="numeric" min={1} value={sampleN} onChange={(e) => setSampleN(e.target.value)} disabled={kind !== "sample"} className={input} data-testid="sample-n" {...invalid("selection.n")} />
                    {fieldError("selection.n")}
                  </div>
                  <div>
                    <label htmlFor={`${uid}-sample-seed`} className="block text-xs font-medium text-slate-700">Sample seed</label>
                    <input id={`${uid}-sample-seed`} type="number" inputMode="numeric" min={0} value={sampleSeed} onChange={(e) => setSampleSeed(e.target.value)} disabled={kind !== "sample"} className={input} {...invalid("selection.seed")} />
                    {fieldError("selection.seed")}
                  </div>
                </div>
                <label className="mt-3 flex items-start gap-2 text-sm">
                  <input type="checkbox" className="mt-0.5" checked={stratify} onChange={(e) => setStratify(e.target.checked)} disabled={kind !== "sample"} />
                  <span>Stratify by agent model × emulator mode<span className="block text-xs text-slate-500">Every stratum gets its proportional share of N.</span></span>
                </label>
              </div>
              <div className={`rounded-lg border p-3 ${kind === "filter" ? "border-indigo-300 bg-indigo-50/40" : "border-slate-200"}`}>
                <label className="flex items-center gap-2 text-sm font-medium">
                  <input type="radio" name="kind" value="filter" checked={kind === "filter"} onChange={() => setKind("filter")} data-testid="kind-filter" />
                  All matching trajectories
                </label>
                <div className="mt-3">
                  <label htmlFor={`${uid}-limit`} className="block text-xs font-medium text-slate-700">Limit (optional)</label>
                  <input id={`${uid}-limit`} type="number" inputMode="numeric" min={1} value={limit} onChange={(e) => setLimit(e.target.value)} disabled={kind !== "filter"} placeholder="no limit" className={input} {...invalid("selection.limit")} />
                  <p className={hint}>With a limit, the newest imported ones are taken.</p>
                  {fieldError("selection.limit")}
                </div>
              </div>
            </div>
            {fieldError("selection", "selection.kind", "selection.filter")}
          </fieldset>
        </section>

        <section className={card} aria-labelledby={`${uid}-people`}>
          <h2 id={`${uid}-people`} className="text-base font-semibold">Annotators</h2>
          <div className="mt-4 grid gap-4 sm:grid-cols-[14rem_1fr]">
            <div>
              <label htmlFor={`${uid}-k`} className={labelCls}>Annotators per trajectory (k)</label>
              <input id={`${uid}-k`} type="number" inputMode="numeric" min={1} max={20} value={k} onChange={(e) => setK(e.target.value)} className={input} data-testid="campaign-k" {...invalid("k")} />
              {fieldError("k")}
              {kNum !== undefined && kNum !== null && kNum >= 2 && kNum % 2 === 0 && (
                <p className="mt-1 rounded bg-amber-50 px-2 py-1 text-xs text-amber-800 ring-1 ring-amber-200" role="status" data-testid="even-k-warning">
                  With an even k, every {kNum / 2}–{kNum / 2} split is a tie with no majority: the dashboards leave ties out by default, and the campaign
                  page lists them for adjudication. An odd k (e.g. {kNum + 1}) avoids most of them.
                </p>
              )}
            </div>
            <p className="self-end text-xs text-slate-500">Each trajectory is labelled by k different people, so invite at least k. Any role can be invited; what they see while labelling is blinded.</p>
          </div>
          <fieldset className="mt-4" {...invalid("annotatorIds")}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <legend className={labelCls}>Invite <span className="font-normal text-slate-500">({invited.size} chosen{kNum ? `, at least ${kNum} needed` : ""})</span></legend>
              <div className="flex gap-2 text-xs">
                <button type="button" className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50" onClick={() => setInvited(new Set(annotatorRoleIds))} disabled={annotatorRoleIds.length === 0}>All annotators</button>
                <button type="button" className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50" onClick={() => setInvited(new Set())} disabled={invited.size === 0}>Clear</button>
              </div>
            </div>
            {users.length === 0 ? (
              <p className="mt-2 text-sm text-slate-500">There are no active users to invite.</p>
            ) : (
              <ul className="mt-2 grid max-h-80 gap-1 overflow-y-auto rounded-md border border-slate-200 p-2 sm:grid-cols-2" data-testid="invite-list">
                {users.map((u) => (
                  <li key={u.id}>
                    <label className={`flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-50 ${invited.has(u.id) ? "bg-indigo-50/60" : ""}`}>
                      <input type="checkbox" checked={invited.has(u.id)} onChange={(e) => toggle(u.id, e.target.checked)} aria-label={`Invite ${u.name} (${u.email})`} data-testid={`invite-${u.email}`} />
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-medium text-slate-900">{u.name}</span>
                        <span className="block truncate text-xs text-slate-500">{u.email}</span>
                      </span>
                      <span className={`rounded px-1.5 py-0.5 text-[11px] font-medium ${u.role === "ANNOTATOR" ? "bg-sky-50 text-sky-700" : "bg-slate-100 text-slate-600"}`}>{ROLE_LABELS[u.role]}</span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
            {fieldError("annotatorIds")}
          </fieldset>
        </section>

        <section className={card} aria-labelledby={`${uid}-options`}>
          <h2 id={`${uid}-options`} className="text-base font-semibold">Options</h2>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" className="mt-0.5" checked={pseudonymize} onChange={(e) => setPseudonymize(e.target.checked)} data-testid="pseudonymize" />
              <span>Pseudonymize annotators in exports<span className="block text-xs text-slate-500">Exports name annotators A1, A2, … instead of their user ids.</span></span>
            </label>
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" className="mt-0.5" checked={redactModelNames} onChange={(e) => setRedactModelNames(e.target.checked)} data-testid="redact-model-names" />
              <span>
                Redact model self-identification
                <span className="block text-xs text-slate-500">Annotators see [model] wherever a thought, action, observation or final answer names a known model or endpoint (e.g. an agent writing &quot;As Qwen, I…&quot;).</span>
              </span>
            </label>
            <div>
              <label htmlFor={`${uid}-seed`} className={labelCls}>Campaign seed (optional)</label>
              <input id={`${uid}-seed`} type="number" inputMode="numeric" min={0} value={seed} onChange={(e) => setSeed(e.target.value)} placeholder="random" className={input} {...invalid("seed")} />
              <p className={hint}>Seeds each annotator&apos;s item order; recorded with the campaign.</p>
              {fieldError("seed")}
            </div>
          </div>
        </section>
      </div>

      <aside className="lg:sticky lg:top-4 lg:self-start">
        <div className={`${card} space-y-3`} aria-labelledby={`${uid}-summary`}>
          <h2 id={`${uid}-summary`} className="text-base font-semibold">Summary</h2>
          <dl className="space-y-1.5 text-sm" data-testid="campaign-summary">
            <div className="flex justify-between gap-2"><dt className="text-slate-600">Trajectories</dt><dd className="font-medium tabular-nums">{items === null ? "…" : fmtInt(items)}</dd></div>
            <div className="flex justify-between gap-2"><dt className="text-slate-600">Annotators per trajectory</dt><dd className="font-medium tabular-nums">{kNum ?? "—"}</dd></div>
            <div className="flex justify-between gap-2"><dt className="text-slate-600">Labels needed</dt><dd className="font-medium tabular-nums">{needed === null ? "…" : fmtInt(needed)}</dd></div>
            <div className="flex justify-between gap-2"><dt className="text-slate-600">Invited</dt><dd className={`font-medium tabular-nums ${kNum && invited.size < kNum ? "text-amber-700" : ""}`}>{invited.size}</dd></div>
            <div className="flex justify-between gap-2"><dt className="text-slate-600">≈ labels per person</dt><dd className="font-medium tabular-nums">{perAnnotator === null ? "—" : fmtInt(perAnnotator)}</dd></div>
          </dl>
          {kNum && invited.size < kNum ? <p className="text-xs text-amber-700">Invite at least {kNum} people.</p> : null}
          {error && (
            <p ref={errorRef} tabIndex={-1} role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700 focus:outline-none" data-testid="form-error">{error}</p>
          )}
          <button type="submit" disabled={pending} className="w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60" data-testid="create-campaign">
            {pending ? "Creating…" : "Create campaign"}
          </button>
        </div>
      </aside>
    </form>
  );
}
