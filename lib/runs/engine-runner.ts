// Plays a run's episode with the emulation engine (lib/emulation/episode.ts) — the production
// EpisodeRunner of the worker. An evaluation run's unit is scored by ./evaluation/unit.ts instead. The claim transaction creates the attempt's trajectory row (so the
// RunEpisode points at it from the first instant); the engine then plays into that row.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { ModelEndpoint, Prisma } from "@/lib/db/generated/client";
import { runEpisode } from "@/lib/engine/episode";
import type { AgentVariant } from "@/lib/trajectory/types";
import { createModelClient, type ModelClientOptions } from "@/lib/llm/client";
import { toEndpointSettings } from "@/lib/llm/endpoints";
import { LlmCallError, type LlmErrorKind } from "@/lib/llm/types";
import type { ConcurrencyLimiter } from "@/lib/llm/limiter";
import type { ClaimedEpisode, EpisodeSpec } from "./episode-job";
import { playEvaluationUnit } from "./evaluation/unit";
import type { AttemptResult, EpisodeRunner } from "./worker";

/** Failures worth another attempt: the endpoint may answer next time. */
const RETRYABLE = new Set<string>(["rate_limited", "server_error", "timeout", "network", "malformed_response", "crashed", "internal"] satisfies (LlmErrorKind | "crashed" | "internal")[]);

const ENDPOINT_TTL_MS = 5000;

export function isRetryableKind(kind: string): boolean {
  return RETRYABLE.has(kind);
}

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

  return {
    fastClaim: true,
    async createTrajectory(tx: Prisma.TransactionClient, s: EpisodeSpec): Promise<string> {
      const [agent, emulator] = await Promise.all([
        tx.modelEndpoint.findUniqueOrThrow({ where: { id: s.agentEndpointId! }, select: { model: true } }),
        tx.modelEndpoint.findUniqueOrThrow({ where: { id: s.emulatorEndpointId! }, select: { model: true } }),
      ]);
      const row = await tx.trajectory.create({
        data: {
          caseId: s.caseId,
          origin: "EMULATED",
          status: "RUNNING",
          agentModel: agent.model,
          emulatorModel: emulator.model,
          emulatorMode: s.mode,
          agentVariant: s.variant,
          stepCount: 0,
          contentHash: `emulated:pending:${crypto.randomUUID()}`,
          raw: {},
          agentEndpointId: s.agentEndpointId,
          emulatorEndpointId: s.emulatorEndpointId,
          evaluatorEndpointId: s.evaluatorEndpointId,
          runId: s.runId,
          startedAt: new Date(),
        },
        select: { id: true },
      });
      return row.id;
    },

    async play(db: Db, ep: ClaimedEpisode, ctx: { signal: AbortSignal; limiter: ConcurrencyLimiter }): Promise<AttemptResult> {
      if (ep.unit) {
        const id = ep.evaluatorEndpointId;
        const row = id ? (await loadEndpoints(db, [id])).get(id) : undefined;
        if (!row) return { ok: false, retryable: false, error: { kind: "bad_request", message: `The evaluator endpoint ${id ?? "(none)"} no longer exists.` } };
        const client = createModelClient(toEndpointSettings(row), { ...opts.clientOptions, db, limiter: ctx.limiter });
        return playEvaluationUnit(db, ep.runId, ep.unit, client, ctx.signal, isRetryableKind);
      }
      if (!ep.agentEndpointId || !ep.emulatorEndpointId) return { ok: false, retryable: false, error: { kind: "internal", message: "An episode without an agent or an emulator endpoint." } };
      const agentId = ep.agentEndpointId;
      const emulatorId = ep.emulatorEndpointId;
      const ids = [...new Set([agentId, emulatorId, ...(ep.evaluatorEndpointId ? [ep.evaluatorEndpointId] : [])])];
      const byId = await loadEndpoints(db, ids);
      const client = (id: string) => {
        const row = byId.get(id);
        if (!row) throw new LlmCallError("bad_request", `The model endpoint ${id} no longer exists.`, 0);
        return createModelClient(toEndpointSettings(row), { ...opts.clientOptions, db, limiter: ctx.limiter });
      };
      // The run's forced emulator self-critique rounds (0 = off).
      const run = await db.run.findUnique({ where: { id: ep.runId }, select: { emulatorCritiqueRounds: true } });
      let result;
      try {
        result = await runEpisode(db, {
          trajectoryId: ep.trajectoryId,
          caseId: ep.caseId,
          runId: ep.runId,
          seed: ep.seed,
          agent: { client: client(agentId), variant: ep.variant as AgentVariant },
          emulator: { client: client(emulatorId), mode: ep.mode, selfCritiqueRounds: run?.emulatorCritiqueRounds ?? 0 },
          evaluator: ep.evaluatorEndpointId ? { client: client(ep.evaluatorEndpointId) } : null,
          signal: ctx.signal,
        });
      } catch (e) {
        // Thrown after the steps: e.g. an evaluator call that failed for good.
        if (e instanceof LlmCallError) return { ok: false, retryable: isRetryableKind(e.kind), error: { kind: e.kind, message: e.message } };
        return { ok: false, retryable: true, error: { kind: "internal", message: e instanceof Error ? e.message : String(e) } };
      }
      if (result.status !== "INTERRUPTED") return { ok: true };
      if (result.stopReason === "llm_error") {
        // The engine stored the call's failure as "<kind>: <message>" on its LlmCall row.
        const last = await db.llmCall.findFirst({ where: { trajectoryId: ep.trajectoryId, error: { not: null } }, orderBy: { id: "desc" }, select: { error: true } });
        const kind = last?.error?.split(":")[0]?.trim() || "llm_error";
        return { ok: false, retryable: isRetryableKind(kind), error: { kind, message: result.stopDetail ?? "a model call failed" } };
      }
      return { ok: false, retryable: true, error: { kind: result.stopReason, message: result.stopDetail ?? result.stopReason } };
    },
  };
}
