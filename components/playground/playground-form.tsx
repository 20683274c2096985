"use client";

import { useMemo, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { PlaygroundOptions } from "@/lib/engine/playground";
import { VARIANT_HELP, MODE_HELP } from "./labels";
import type { StartEpisodeAction } from "./start-action";

type Props = { options: PlaygroundOptions; initialCaseId: string | null; startEpisode: StartEpisodeAction };

const field = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500";

/** Choose a case, the agent (endpoint + prompt variant), the emulator (endpoint + mode) and the evaluator. */
export function PlaygroundForm({ options, initialCaseId, startEpisode }: Props) {
  const router = useRouter();
  const firstEndpoint = options.endpoints[0]?.id ?? "";
  const [query, setQuery] = useState("");
  const [caseId, setCaseId] = useState(initialCaseId ?? options.cases[0]?.id ?? "");
  const [agentEndpointId, setAgent] = useState(firstEndpoint);
  const [variant, setVariant] = useState<(typeof options.variants)[number]>("NAIVE");
  const [emulatorEndpointId, setEmulator] = useState(firstEndpoint);
  const [mode, setMode] = useState<(typeof options.modes)[number]>("STANDARD");
  const [selfCritiqueRounds, setSelfCritiqueRounds] = useState(0);
  const [loopMode, setLoopMode] = useState<"TOOLEMU" | "STRICT">("TOOLEMU");
  const [evaluatorEndpointId, setEvaluator] = useState<string>(firstEndpoint);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return options.cases;
    return options.cases.filter((c) => c.name.toLowerCase().includes(q) || c.instruction.toLowerCase().includes(q) || c.toolkits.some((t) => t.toLowerCase().includes(q)));
  }, [query, options.cases]);
  const chosen = options.cases.find((c) => c.id === caseId) ?? null;

  if (options.endpoints.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-600" data-testid="no-endpoints">
        No model endpoint is configured yet. An admin can add one under Admin → Endpoints (any OpenAI-compatible URL); in embedded mode the offline heuristic model is added at start.
      </p>
    );
  }
  if (options.cases.length === 0) {
    return <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-600">No test cases yet. Import the ToolEmu cases first (Import).</p>;
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    startTransition(async () => {
      const res = await startEpisode({ caseId, agentEndpointId, variant, emulatorEndpointId, mode, selfCritiqueRounds, loopMode, evaluatorEndpointId: evaluatorEndpointId || null });
      if (res.ok) router.push(`/playground/${res.data.trajectoryId}`);
      else setError(res.error);
    });
  }

  const endpointOptions = options.endpoints.map((ep) => (
    <option key={ep.id} value={ep.id}>{ep.badge ? (ep.badge.startsWith(ep.name) ? ep.badge : `${ep.name} — ${ep.badge}`) : `${ep.name} (${ep.model})`}</option>
  ));

  return (
    <form onSubmit={submit} className="grid gap-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm lg:grid-cols-[minmax(0,1fr)_22rem]" data-testid="playground-form">
      <fieldset className="min-w-0">
        <legend className="text-sm font-semibold text-slate-800">Test case</legend>
        <label className="mt-2 block text-xs text-slate-600">
          Filter by name, instruction or toolkit
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} className={field} placeholder="e.g. Terminal, delete, official_12" data-testid="case-filter" />
        </label>
        <label className="mt-2 block text-xs text-slate-600">
          Case ({shown.length} of {options.cases.length})
          <select value={caseId} onChange={(e) => setCaseId(e.target.value)} size={8} className={`${field} font-mono`} data-testid="case-select">
            {shown.map((c) => <option key={c.id} value={c.id}>{c.name} — {c.instruction.slice(0, 90)}</option>)}
          </select>
        </label>
        {chosen && (
          <div className="mt-3 rounded-md bg-slate-50 p-3 text-sm" data-testid="chosen-case">
            <p className="text-slate-900">{chosen.instruction}</p>
            <p className="mt-1 text-xs text-slate-500">Toolkits: {chosen.toolkits.join(", ")}</p>
          </div>
        )}
      </fieldset>
      <div className="space-y-4">
        <fieldset>
          <legend className="text-sm font-semibold text-slate-800">Agent</legend>
          <label className="mt-1 block text-xs text-slate-600">Endpoint<select value={agentEndpointId} onChange={(e) => setAgent(e.target.value)} className={field} data-testid="agent-endpoint">{endpointOptions}</select></label>
          <label className="mt-2 block text-xs text-slate-600">
            Prompt variant
            <select value={variant} onChange={(e) => setVariant(e.target.value as typeof variant)} className={field} data-testid="agent-variant">
              {options.variants.map((v) => <option key={v} value={v}>{v}</option>)}
            </select>
            <span className="mt-1 block text-slate-500">{VARIANT_HELP[variant]}</span>
          </label>
        </fieldset>
        <fieldset>
          <legend className="text-sm font-semibold text-slate-800">Emulator</legend>
          <label className="mt-1 block text-xs text-slate-600">Endpoint<select value={emulatorEndpointId} onChange={(e) => setEmulator(e.target.value)} className={field} data-testid="emulator-endpoint">{endpointOptions}</select></label>
          <div className="mt-2 flex gap-4 text-sm" role="radiogroup" aria-label="Emulator mode">
            {options.modes.map((m) => (
              <label key={m} className="flex items-center gap-1.5">
                <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} data-testid={`mode-${m}`} />
                {m === "STANDARD" ? "Standard" : "Adversarial"}
              </label>
            ))}
          </div>
          <p className="mt-1 text-xs text-slate-500">{MODE_HELP[mode]}</p>
          <label className="mt-2 block text-xs text-slate-600">
            Self-critique rounds
            <select value={selfCritiqueRounds} onChange={(e) => setSelfCritiqueRounds(Number(e.target.value))} className={field} data-testid="self-critique-rounds">
              <option value={0}>0 — off (ToolEmu&apos;s default)</option>
              <option value={1}>1 round</option>
              <option value={2}>2 rounds</option>
              <option value={3}>3 rounds</option>
            </select>
            <span className="mt-1 block text-slate-500">The emulator critiques each valid observation (realism, accuracy, consistency; adversarial: the stress test) and revises it — one more emulator call per round.</span>
          </label>
          <label className="mt-2 block text-xs text-slate-600">
            Loop rules
            <select value={loopMode} onChange={(e) => setLoopMode(e.target.value as "TOOLEMU" | "STRICT")} className={field} data-testid="loop-mode">
              <option value="TOOLEMU">ToolEmu-compatible (default)</option>
              <option value="STRICT">Strict</option>
            </select>
            <span className="mt-1 block text-slate-500">ToolEmu-compatible: a Final Answer ends the episode even after an Action (flagged); emulator outputs are passed on as they are (problems flagged). Strict: that Action is executed; an unusable emulator output is re-asked, then replaced by an error.</span>
          </label>
        </fieldset>
        <fieldset>
          <legend className="text-sm font-semibold text-slate-800">Evaluators (safety and helpfulness)</legend>
          <label className="mt-1 block text-xs text-slate-600">Endpoint
            <select value={evaluatorEndpointId} onChange={(e) => setEvaluator(e.target.value)} className={field} data-testid="evaluator-endpoint">
              {endpointOptions}
              <option value="">No evaluation</option>
            </select>
          </label>
        </fieldset>
        {error && <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">{error}</p>}
        <button type="submit" disabled={pending || !caseId} className="w-full rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-50" data-testid="run-episode">
          {pending ? "Starting…" : "Run episode"}
        </button>
      </div>
    </form>
  );
}
