// Plays one episode of a SAGE run: lib/engine/sage-episode.ts playSageEpisode into the trajectory
// row the claim inserted (scenario, authority context, agent), with the run's attacker, order and
// turn cap; then every judge of the run labels it (the same call, right after the episode). A judge
// whose call fails for good leaves a verdict row with the error (lib/sage/judge-episode.ts) — the
// episode is still DONE, and the run page counts judge errors apart.
import "server-only";
import type { Db } from "@/lib/db/client";
import { LlmCallError, type LlmErrorKind, type ModelClient } from "@/lib/llm/types";
import { playSageEpisode } from "@/lib/engine/sage-episode";
import { failed, type AttemptResult } from "../attempt";
import type { StoredSageRunSettings } from "./schemas";

export interface SageUnitSpec {
  scenarioId: string;
  authority: "TRUST" | "WARNING";
  settings: StoredSageRunSettings;
}

export interface SageUnitClients {
  agent: ModelClient;
  attacker: ModelClient;
  judges: ModelClient[];
}

export async function playSageUnit(
  db: Db,
  ep: { runId: string; trajectoryId: string; seed: number },
  unit: SageUnitSpec,
  clients: SageUnitClients,
  signal: AbortSignal,
): Promise<AttemptResult> {
  try {
    const r = await playSageEpisode(db, {
      scenarioId: unit.scenarioId,
      context: unit.authority,
      order: unit.settings.order,
      maxTurns: unit.settings.maxTurns,
      agent: clients.agent,
      attacker: clients.attacker,
      judges: clients.judges,
      judgeMode: unit.settings.judgeMode,
      seed: ep.seed,
      runId: ep.runId,
      into: ep.trajectoryId,
      signal,
    });
    if (signal.aborted) return failed("cancelled", "the attempt was stopped", true);
    // A failed agent call stops the episode (stored INCOMPLETE, llm_error): the attempt failed with
    // that call's kind, so it is retried like any other run's episode.
    if (r.stopReason === "llm_error") return failed((r.errorKind ?? "server_error") as LlmErrorKind, r.stopDetail ?? "the agent call failed");
    return { ok: true };
  } catch (e) {
    if (signal.aborted) return failed("cancelled", "the attempt was stopped", true);
    if (e instanceof LlmCallError) return failed(e.kind, e.message);
    return failed("crashed", e instanceof Error ? e.message : String(e));
  }
}
