"use client";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import type { EndpointView, PingResult } from "@/lib/llm/endpoints";
import { fmtInt } from "@/components/ui/format";
import { EndpointForm, type EndpointFormInput, type EndpointFormValues } from "./endpoint-form";

/** An endpoint as the page hands it to the browser (dates as ISO strings). */
export type EndpointRow = Omit<EndpointView, "updatedAt"> & { updatedAt: string };

type Saved = ActionResult<{ id: string; name: string }>;

interface Props {
  endpoints: EndpointRow[];
  defaults: EndpointFormValues;
  createEndpoint: (input: EndpointFormInput) => Promise<Saved>;
  updateEndpoint: (input: EndpointFormInput & { id: string }) => Promise<Saved>;
  deleteEndpoint: (input: { id: string }) => Promise<ActionResult<{ id: string }>>;
  setCache: (input: { id: string; cacheEnabled: boolean }) => Promise<ActionResult<{ id: string; cacheEnabled: boolean }>>;
  ping: (input: { id: string }) => Promise<ActionResult<PingResult>>;
}

export function EndpointList({ endpoints, defaults, createEndpoint, updateEndpoint, deleteEndpoint, setCache, ping }: Props) {
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
      <div className="space-y-4">
        {notice && (
          <p role={notice.kind === "error" ? "alert" : "status"} className={`rounded-md px-3 py-2 text-sm ${notice.kind === "ok" ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-700"}`}>{notice.text}</p>
        )}
        {endpoints.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center" role="status" data-testid="empty-state">
            <p className="text-sm font-medium text-slate-800">No model endpoints yet.</p>
            <p className="mx-auto mt-2 max-w-xl text-sm text-slate-600">
              Add one with the form — for OpenAI: base URL <code className="font-mono text-xs">https://api.openai.com/v1</code>, a model id, and the name of
              the variable holding the key (<code className="font-mono text-xs">OPENAI_API_KEY</code>). To run without any model, start the app with{" "}
              <code className="font-mono text-xs">OFFLINE_LLM=1</code> (automatic in embedded mode): it adds the offline heuristic model.
            </p>
          </div>
        ) : (
          endpoints.map((e) => (
            <EndpointCard key={e.id} e={e} updateEndpoint={updateEndpoint} deleteEndpoint={deleteEndpoint} setCache={setCache} ping={ping} onNotice={setNotice} />
          ))
        )}
      </div>
      <div className="h-fit rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <EndpointForm title="Add an endpoint" submitLabel="Add endpoint" initial={defaults} onSubmit={createEndpoint} resetOnSuccess />
      </div>
    </div>
  );
}

function EndpointCard({
  e,
  updateEndpoint,
  deleteEndpoint,
  setCache,
  ping,
  onNotice,
}: Pick<Props, "updateEndpoint" | "deleteEndpoint" | "setCache" | "ping"> & { e: EndpointRow; onNotice: (n: { kind: "ok" | "error"; text: string } | null) => void }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [pinging, setPinging] = useState(false);
  const [pingResult, setPingResult] = useState<PingResult | { ok: false; error: string; latencyMs: null; kind: string } | null>(null);
  const [cache, setCacheState] = useState(e.cacheEnabled);
  // Follow the server's value when fresh data arrives, without remounting the card (a remount
  // would close an edit form opened meanwhile).
  const [seenCache, setSeenCache] = useState(e.cacheEnabled);
  if (seenCache !== e.cacheEnabled) {
    setSeenCache(e.cacheEnabled);
    setCacheState(e.cacheEnabled);
  }
  const [pending, startTransition] = useTransition();

  async function sendPing() {
    setPinging(true);
    setPingResult(null);
    const res = await ping({ id: e.id });
    setPinging(false);
    setPingResult(res.ok ? res.data : { ok: false, error: res.error, latencyMs: null, kind: "action" });
    router.refresh(); // the call count changed
  }

  function toggleCache() {
    const next = !cache;
    setCacheState(next);
    startTransition(async () => {
      const res = await setCache({ id: e.id, cacheEnabled: next });
      if (!res.ok) {
        setCacheState(!next);
        onNotice({ kind: "error", text: res.error });
      } else onNotice({ kind: "ok", text: `Response cache ${next ? "on" : "off"} for "${e.name}".` });
    });
  }

  function remove() {
    startTransition(async () => {
      const res = await deleteEndpoint({ id: e.id });
      setConfirmDelete(false);
      onNotice(res.ok ? { kind: "ok", text: `Deleted "${e.name}".` } : { kind: "error", text: res.error });
    });
  }

  const usedBy = e.trajectories > 0 ? `used by ${e.trajectories} trajector${e.trajectories === 1 ? "y" : "ies"}` : "not used by any trajectory";
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-label={`Endpoint ${e.name}`} data-testid={`endpoint-${e.name}`} aria-busy={pending}>
      {editing ? (
        <EndpointForm
          title={`Edit "${e.name}"`}
          submitLabel="Save changes"
          offline={e.offline}
          initial={{ ...e, apiKeyEnv: e.apiKeyEnv ?? "", tokenParam: e.tokenParam ?? "max_tokens", cacheEnabled: cache }}
          onSubmit={(v) => updateEndpoint({ ...v, id: e.id })}
          onDone={(name) => {
            setEditing(false);
            onNotice({ kind: "ok", text: `Saved "${name}".` });
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <h2 className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                {e.name}
                {e.badge && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900" data-testid="offline-badge">{e.badge}</span>}
              </h2>
              <p className="mt-0.5 break-all font-mono text-xs text-slate-500">{e.model} · {e.baseUrl}</p>
            </div>
            <button type="button" role="switch" aria-checked={cache} aria-label={`Response cache for ${e.name}`} onClick={toggleCache} disabled={pending}
              className="inline-flex items-center gap-2 text-sm text-slate-700 disabled:opacity-60">
              <span className={`relative inline-block h-5 w-9 rounded-full transition ${cache ? "bg-indigo-600" : "bg-slate-300"}`}>
                <span className={`absolute top-0.5 h-4 w-4 rounded-full bg-white shadow transition-all ${cache ? "left-4" : "left-0.5"}`} />
              </span>
              Cache {cache ? "on" : "off"}
            </button>
          </div>
          <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
            <Item label="API key">
              {e.apiKeyEnv === null ? (
                <span className="text-slate-500">none needed</span>
              ) : (
                <>
                  <code className="font-mono text-xs">{e.apiKeyEnv}</code>{" "}
                  {e.apiKeyProblem ? (
                    <span className="text-rose-700">not allowed</span>
                  ) : e.apiKeySet ? (
                    <span className="text-emerald-700">set: yes</span>
                  ) : (
                    <span className="text-rose-700">set: no</span>
                  )}
                </>
              )}
            </Item>
            <Item label="Temperature">{e.temperature}</Item>
            <Item label="Max tokens">{fmtInt(e.maxTokens)}{e.tokenParam === "max_completion_tokens" && <span className="text-slate-500"> (as max_completion_tokens)</span>}</Item>
            <Item label="Timeout">{fmtInt(e.timeoutMs)} ms</Item>
            <Item label="Concurrency">{e.maxConcurrency}</Item>
            <Item label="$ per 1k in / out">{e.priceInputPer1k} / {e.priceOutputPer1k}</Item>
          </dl>
          <p className="mt-2 text-xs text-slate-500">{fmtInt(e.calls)} call{e.calls === 1 ? "" : "s"} recorded · {usedBy}</p>
          {e.apiKeyProblem && (
            <p role="alert" className="mt-2 rounded-md bg-rose-50 px-3 py-2 text-xs text-rose-800" data-testid="api-key-refused">
              No key is sent: <code className="font-mono">{e.apiKeyEnv}</code> may not hold an endpoint&apos;s key (saved before this rule). {e.apiKeyProblem} Edit the endpoint to fix it; calls fail until then.
            </p>
          )}
          {e.apiKeyEnv !== null && !e.apiKeyProblem && !e.apiKeySet && (
            <p className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">
              <code className="font-mono">{e.apiKeyEnv}</code> is not set where the server runs, so calls will fail. Set it before <code className="font-mono">npm start</code> (and for the worker).
            </p>
          )}
          <div className="mt-3 flex flex-wrap gap-2 text-sm">
            <button type="button" onClick={sendPing} disabled={pinging} className="rounded-md bg-indigo-600 px-3 py-1 font-medium text-white hover:bg-indigo-500 disabled:opacity-60">
              {pinging ? "Pinging…" : "Send a ping"}
            </button>
            <button type="button" onClick={() => setEditing(true)} className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-50">Edit</button>
            {confirmDelete ? (
              <span className="inline-flex items-center gap-2">
                <span className="text-slate-700">Delete &quot;{e.name}&quot;?</span>
                <button type="button" onClick={remove} disabled={pending} className="rounded-md bg-rose-600 px-3 py-1 font-medium text-white hover:bg-rose-500">Delete</button>
                <button type="button" onClick={() => setConfirmDelete(false)} className="px-1 text-slate-600">Cancel</button>
              </span>
            ) : (
              <button type="button" onClick={() => setConfirmDelete(true)} disabled={e.trajectories > 0}
                title={e.trajectories > 0 ? `Cannot delete: ${usedBy}. Edit it instead.` : undefined}
                className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50">Delete</button>
            )}
          </div>
          <PingOutcome pinging={pinging} result={pingResult} offline={e.offline} />
        </>
      )}
    </section>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-slate-800">{children}</dd>
    </div>
  );
}

function PingOutcome({ pinging, result, offline }: { pinging: boolean; result: PingResult | { ok: false; error: string; latencyMs: null; kind: string } | null; offline: boolean }) {
  if (pinging) return <p className="mt-3 text-sm text-slate-500" role="status">Sending one request…</p>;
  if (!result) return null;
  if (!result.ok) {
    return (
      <div className="mt-3 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800" role="alert" data-testid="ping-result">
        <p className="font-medium">Ping failed{result.latencyMs !== null ? ` after ${result.latencyMs} ms` : ""}.</p>
        <p className="mt-1 break-words">{result.error}</p>
        {offline && result.kind === "network" && (
          <p className="mt-1 text-xs">The offline model runs inside <code className="font-mono">npm start</code> in embedded mode (or with OFFLINE_LLM=1), or alone with <code className="font-mono">npm run llm:offline</code>.</p>
        )}
      </div>
    );
  }
  return (
    <div className="mt-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" role="status" data-testid="ping-result">
      <p className="font-medium">
        Answered in {result.latencyMs} ms · {result.inputTokens} in / {result.outputTokens} out tokens{result.costUsd > 0 ? ` · $${result.costUsd.toFixed(6)}` : ""}
      </p>
      <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-white/70 p-2 font-mono text-xs text-slate-800">{result.reply || "(empty reply)"}</pre>
    </div>
  );
}
