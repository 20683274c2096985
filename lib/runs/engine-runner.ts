// Plays a run's episode with the emulation engine (lib/engine/episode.ts) — the production
// EpisodeRunner of the worker. An evaluation run's unit is scored by ./evaluation/unit.ts instead,
// a critic replay run's unit is judged by ./critic/unit.ts, a SAGE run's episode is played and judged
// by ./sage/unit.ts.
// The claim (./claim.ts) creates the attempt's trajectory row (so the RunEpisode points at it from
// the first instant); the engine then plays into that row.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { ModelEndpoint } from "@/lib/db/generated/client";
import { runEpisode } from "@/lib/engine/episode";
import type { AgentVariant } from "@/lib/trajectory/types";
import { createModelClient, type ModelClientOptions } from "@/lib/llm/client";
import { toEndpointSettings } from "@/lib/llm/endpoints";
import { LlmCallError } from "@/lib/llm/types";
import { backgroundLimiter, type ConcurrencyLimiter } from "@/lib/llm/limiter";
import { batchedCallLog, type CallLogDb } from "./call-log";
import { failed, type AttemptResult } from "./attempt";
import type { ClaimedEpisode } from "./episode-job";
import { playEvaluationUnit } from "./evaluation/unit";
import { gatedEpisodeOptions, gateEndpointIds } from "./online-gate";
import { storedGate } from "./schemas";
import { playCriticUnit } from "./critic/unit";
import { playSageUnit } from "./sage/unit";
import type { EpisodeRunner } from "./worker";

const ENDPOINT_TTL_MS = 5000;

export function engineRunner(opts: { clientOptions?: Omit<ModelClientOptions, "db" | "limiter"> } = {}): EpisodeRunner {
  // Endpoint rows, re-read at most every few seconds (an edit applies to the next episodes).
  const endpoints = new Map<string, { at: number; row: ModelEndpoint | null }>();
  async function loadEndpoints(db: Db, ids: string[]): Promise<Map<string, ModelEndpoint>> {
    const now = Date.now();
    const stale = ids.filter((id) => (endpoints.get(id)?.at ?? 0) < now - ENDPOINT_TTL_MS);
    if (stale.length) {
      const rows = await db.modelEndpoint.findMany({ where: { id: { in: stale } } });
      for (const id of stale) endpoints.set(id, { at: now, row: rows.find((r) => r.id === id) ?? null });
    }
    const out = new Map<string, ModelEndpoint>();
    for (const id of ids) {
      const row = endpoints.get(id)?.row;
      if (row) out.set(id, row);
    }
    return out;
  }

  // The clients' LlmCall rows, batched per database (./call-log.ts).
  const callLogs = new WeakMap<Db, CallLogDb>();
  const callLog = (db: Db) => {
    let l = callLogs.get(db);
    if (!l) callLogs.set(db, (l = batchedCallLog(db)));
    return l;
  };

  return {
    async play(db: Db, ep: ClaimedEpisode, ctx: { signal: AbortSignal; limiter: ConcurrencyLimiter }): Promise<AttemptResult> {
      const log = callLog(db);
      if (ep.unit) {
        const id = ep.evaluatorEndpointId;
        const row = id ? (await loadEndpoints(db, [id])).get(id) : undefined;
        if (!row) return failed("bad_request", `The evaluator endpoint ${id ?? "(none)"} no longer exists.`);
        const client = createModelClient(toEndpointSettings(row), { ...opts.clientOptions, db: log, limiter: ctx.limiter });
        return playEvaluationUnit(db, ep.runId, ep.unit, client, ctx.signal);
      }
      if (ep.critic) {
        const id = ep.evaluatorEndpointId;
        const row = id ? (await loadEndpoints(db, [id])).get(id) : undefined;
        if (!row) return failed("bad_request", `The critic endpoint ${id ?? "(none)"} no longer exists.`);
        const client = createModelClient(toEndpointSettings(row), { ...opts.clientOptions, db: log, limiter: ctx.limiter });
        return playCriticUnit(db, ep.runId, ep.critic, client, ctx.signal);
      }
      if (ep.sage) {
        const st = ep.sage.settings;
        const ids = [...new Set([ep.agentEndpointId ?? "", st.attackerEndpointId, ...st.judgeEndpointIds])];
        const byId = await loadEndpoints(db, ids);
        const missing = ids.filter((id) => !byId.has(id));
        if (missing.length) return failed("bad_request", `The model endpoint${missing.length === 1 ? "" : "s"} ${missing.join(", ")} no longer exist${missing.length === 1 ? "s" : ""}.`);
        const client = (id: string) => createModelClient(toEndpointSettings(byId.get(id)!), { ...opts.clientOptions, db: log, limiter: ctx.limiter });
        return playSageUnit(db, ep, ep.sage, { agent: client(ep.agentEndpointId!), attacker: client(st.attackerEndpointId), judges: st.judgeEndpointIds.map(client) }, ctx.signal);
      }
      if (!ep.caseId || !ep.agentEndpointId || !ep.emulatorEndpointId) return failed("internal", "An episode without a case, an agent or an emulator endpoint.", false);
      const agentId = ep.agentEndpointId;
      const emulatorId = ep.emulatorEndpointId;
      // The run's forced emulator self-critique rounds (0 = off), loop rules and online critic gate
      // (the claim returns them; a fake claim may not).
      const run = ep.runSettings ?? (await db.run.findUnique({ where: { id: ep.runId }, select: { emulatorCritiqueRounds: true, loopMode: true, critic: true } }));
      const gate = storedGate(run?.critic);
      const ids = [...new Set([agentId, emulatorId, ...(ep.evaluatorEndpointId ? [ep.evaluatorEndpointId] : []), ...gateEndpointIds(gate)])];
      const byId = await loadEndpoints(db, ids);
      const client = (id: string, limiter = ctx.limiter) => {
        const row = byId.get(id);
        if (!row) throw new LlmCallError("bad_request", `The model endpoint ${id} no longer exists.`, 0);
        return createModelClient(toEndpointSettings(row), { ...opts.clientOptions, db: log, limiter });
      };
      let result;
      try {
        result = await runEpisode(db, {
          trajectoryId: ep.trajectoryId,
          caseId: ep.caseId,
          loadedCase: ep.caseSpec,
          runId: ep.runId,
          seed: ep.seed,
          agent: { client: client(agentId), variant: ep.variant as AgentVariant },
          emulator: { client: client(emulatorId), mode: ep.mode, selfCritiqueRounds: run?.emulatorCritiqueRounds ?? 0 },
          // The evaluations are background work for the endpoint's lanes: the agent's and the
          // emulator's calls go first (each one holds up the rest of its episode; an evaluation
          // holds up nothing but its own episode's end), so evaluations fill the lanes the
          // episodes leave free — above all at the end of a run, when fewer episodes than lanes remain.
          evaluator: ep.evaluatorEndpointId ? { client: client(ep.evaluatorEndpointId, backgroundLimiter(ctx.limiter)) } : null,
          loopMode: run?.loopMode ?? "TOOLEMU",
          ...(await gatedEpisodeOptions(db, gate, ep, client)),
          signal: ctx.signal,
        });
      } catch (e) {
        // Thrown after the steps: e.g. an evaluator call that failed for good.
        if (e instanceof LlmCallError) return failed(e.kind, e.message);
        return failed("internal", e instanceof Error ? e.message : String(e));
      }
      // Paused by the online gate: the worker marks it WAITING and frees the slot.
      if (result.status === "WAITING") return { ok: true, waiting: true };
      if (result.status !== "INTERRUPTED") return { ok: true };
      // The engine's result says which kind of call failure stopped it.
      if (result.stopReason === "llm_error" && result.errorKind) return failed(result.errorKind, result.stopDetail ?? "a model call failed");
      const kind = result.stopReason === "cancelled" ? "cancelled" : "crashed";
      return failed(kind, result.stopDetail ?? result.stopReason, true);
    },
  };
}
