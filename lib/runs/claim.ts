// The one way a worker takes a RunEpisode (an episode, or an evaluation run's unit) for an
// attempt. The RESUME POLICY of ./episode-job.ts starts here: the claim that begins an attempt
// deletes the previous attempt's partial trajectory in the same statement — except for an episode
// the online critic gate paused (its trajectory WAITING, its intervention answered): that claim
// keeps the trajectory and the engine resumes it from its stored steps (lib/engine/resume.ts).
import "server-only";
import type { Db } from "@/lib/db/client";
import { fastSql } from "@/lib/db/fast-sql";
import type { Run } from "@/lib/db/generated/client";
import { NOW_UTC } from "@/lib/llm/endpoint-limiter";
import { newTrajectoryId, startingTrajectoryInsert } from "@/lib/engine/trajectory-store";
import type { ClaimedEpisode } from "./episode-job";
import type { EvaluationUnitSpec } from "./evaluation/unit";
import type { StoredEvaluationSettings } from "./evaluation/schemas";
import type { CriticUnitSpec } from "./critic/unit";
import type { StoredCriticRunSettings } from "./critic/schemas";
import { SAGE_EMULATOR_MODEL } from "@/lib/engine/sage-episode";
import type { SageUnitSpec } from "./sage/unit";
import type { StoredSageRunSettings } from "./sage/schemas";
import { storedGate } from "./schemas";
import { caseSpecSql, loadedCase } from "@/lib/trajectory/case-spec";

export type ClaimResult = { kind: "claimed"; episode: ClaimedEpisode; runStarted: boolean };

export interface ClaimOptions {
  workerId: string;
  jobId: string;
  leaseMs: number;
}

type ClaimRow = {
  runId: string;
  caseId: string | null;
  scenarioId: string | null;
  authority: "TRUST" | "WARNING" | null;
  agentEndpointId: string | null;
  variant: string;
  mode: "STANDARD" | "ADVERSARIAL";
  repeat: number;
  trial: number;
  attempts: number;
  trajectoryId: string | null;
  resumed: boolean;
  sourceTrajectoryId: string | null;
  evalKind: "SAFETY" | "HELPFULNESS" | null;
  criticMethod: CriticUnitSpec["method"] | null;
  emulatorEndpointId: string | null;
  evaluatorEndpointId: string | null;
  seed: number;
  promptVersions: unknown;
  evaluation: unknown;
  critic: unknown;
  sage: unknown;
  emulatorCritiqueRounds: number;
  loopMode: "TOOLEMU" | "STRICT";
  runStatus: string;
  caseSpec: unknown;
};

/** The attempt's trajectory row (the engine's one starting-row INSERT), for an episode, not for an evaluation unit. */
const STARTING_TRAJECTORY = startingTrajectoryInsert({
  id: "$2",
  caseId: `ep."caseId"`,
  agentModel: "am.model",
  emulatorModel: "em.model",
  emulatorMode: "ep.mode",
  agentVariant: "ep.variant",
  agentEndpointId: `ep."agentEndpointId"`,
  emulatorEndpointId: `run."emulatorEndpointId"`,
  evaluatorEndpointId: `run."evaluatorEndpointId"`,
  runId: `ep."runId"`,
  from: `FROM ep JOIN run ON true JOIN "ModelEndpoint" am ON am.id = ep."agentEndpointId" JOIN "ModelEndpoint" em ON em.id = run."emulatorEndpointId"
       WHERE ep."sourceTrajectoryId" IS NULL AND ep."scenarioId" IS NULL AND NOT EXISTS (SELECT 1 FROM waiting)`,
});

/**
 * A SAGE episode's starting row: the scenario, the authority context, the agent (playSageEpisode
 * fills in the rest). Programmatic tools: no emulator endpoint, emulatorModel "programmatic".
 */
const STARTING_SAGE_TRAJECTORY = `INSERT INTO "Trajectory" (id, "scenarioId", origin, status, "agentModel", "emulatorModel", "emulatorMode", "authorityContext", "stepCount", "contentHash", raw,
                          "agentEndpointId", "runId", "startedAt", "createdAt")
       SELECT $2, ep."scenarioId", 'EMULATED', 'RUNNING', am.model, '${SAGE_EMULATOR_MODEL}', 'STANDARD', ep.authority, 0, 'emulated:pending:' || $2, '{}'::jsonb,
              ep."agentEndpointId", ep."runId", ${NOW_UTC}, ${NOW_UTC}
       FROM ep JOIN run ON true JOIN "ModelEndpoint" am ON am.id = ep."agentEndpointId"
       WHERE ep."scenarioId" IS NOT NULL AND ep.authority IS NOT NULL AND run.sage IS NOT NULL`;

/**
 * Takes a QUEUED episode of a QUEUED or RUNNING run for this worker, in one statement (one round
 * trip, no interactive transaction): locks the episode (FOR UPDATE) and the run (FOR SHARE: a
 * pause or cancel, an UPDATE of the run, waits for claims in progress and every claim after it
 * sees the new status), discards a previous attempt's partial trajectory (its cost goes to that
 * attempt's last error row), inserts the new attempt's trajectory row (the engine fills it; an
 * evaluation or critic run's unit judges a stored trajectory and gets none) and marks the episode RUNNING
 * with a lease. An episode's case (with its toolkits and tools) comes back with it, so the engine
 * does not read it again. Null when the episode is in any other state; whyNotClaimed says why.
 *
 * A RUNNING episode is never taken here, even if its worker is gone: the reaper hands it back
 * (reclaimLost) and queues a fresh job.
 */
export async function claimEpisode(db: Db, runEpisodeId: string, o: ClaimOptions): Promise<ClaimResult | null> {
  const rows = await fastSql(db).$queryRawUnsafe<ClaimRow[]>(
    `WITH ep AS (
       SELECT id, "runId", "caseId", "scenarioId", authority, "agentEndpointId", variant, mode, attempts, "trajectoryId", "sourceTrajectoryId", "evalKind", "criticMethod"
       FROM "RunEpisode" WHERE id = $1 AND status = 'QUEUED' FOR UPDATE
     ), run AS (
       SELECT r.id, r.status::text AS status, r.seed, r."emulatorEndpointId", r."evaluatorEndpointId", r."promptVersions", r.evaluation, r.critic, r.sage,
              r."emulatorCritiqueRounds", r."loopMode"::text AS "loopMode"
       FROM "Run" r JOIN ep ON r.id = ep."runId" WHERE r.status IN ('QUEUED', 'RUNNING') FOR SHARE OF r
     ), waiting AS (
       SELECT t.id FROM "Trajectory" t JOIN ep ON t.id = ep."trajectoryId" WHERE t.status = 'WAITING'
     ), traj AS (
       ${STARTING_TRAJECTORY}
       RETURNING id
     ), sage_traj AS (
       ${STARTING_SAGE_TRAJECTORY}
       RETURNING id
     ), upd AS (
       UPDATE "RunEpisode" e SET status = 'RUNNING', attempts = e.attempts + 1, "workerId" = $3, "jobId" = $4, "trajectoryId" = COALESCE(traj.id, sage_traj.id, (SELECT id FROM waiting)),
              "leaseUntil" = ${NOW_UTC} + ($5 * interval '1 millisecond'), "startedAt" = COALESCE(e."startedAt", ${NOW_UTC}),
              "finishedAt" = NULL, "updatedAt" = ${NOW_UTC}
       FROM ep JOIN run ON true LEFT JOIN traj ON true LEFT JOIN sage_traj ON true
       WHERE e.id = ep.id
         AND (traj.id IS NOT NULL OR sage_traj.id IS NOT NULL OR EXISTS (SELECT 1 FROM waiting) OR (ep."sourceTrajectoryId" IS NOT NULL AND ep."evalKind" IS NOT NULL AND run.evaluation IS NOT NULL)
              OR (ep."sourceTrajectoryId" IS NOT NULL AND ep."criticMethod" IS NOT NULL AND run.critic IS NOT NULL))
       RETURNING e."runId", e."caseId", e."scenarioId", e.authority, e."agentEndpointId", e.variant, e.mode, e.repeat, e.trial, e.attempts, e."trajectoryId", e."sourceTrajectoryId", e."evalKind", e."criticMethod",
                 ep."trajectoryId" AS "previousTrajectoryId", ep.attempts AS "previousAttempt"
     ), spent AS (
       SELECT sum(c."inputTokens")::float8 AS i, sum(c."outputTokens")::float8 AS o, sum(c."costUsd")::float8 AS c
       FROM "LlmCall" c JOIN upd ON c."trajectoryId" = upd."previousTrajectoryId" AND c."trajectoryId" IS DISTINCT FROM upd."trajectoryId"
     ), cost AS (
       UPDATE "RunError" re SET "inputTokens" = round(spent.i)::int, "outputTokens" = round(spent.o)::int, "costUsd" = spent.c
       FROM spent
       WHERE (spent.i > 0 OR spent.o > 0)
         AND re.id = (SELECT max(x.id) FROM "RunError" x JOIN upd ON x."runEpisodeId" = $1 AND x.attempt = upd."previousAttempt")
     ), discarded AS (
       DELETE FROM "Trajectory" t USING upd WHERE t.id = upd."previousTrajectoryId" AND t.id IS DISTINCT FROM upd."trajectoryId"
     ), spec AS (${caseSpecSql(`(SELECT "caseId" FROM ep WHERE ep."sourceTrajectoryId" IS NULL AND ep."scenarioId" IS NULL)`)}
     )
     SELECT upd."runId", upd."caseId", upd."scenarioId", upd.authority::text AS authority, upd."agentEndpointId", upd.variant, upd.mode::text AS mode, upd.repeat, upd.trial, upd.attempts, upd."trajectoryId",
            (upd."trajectoryId" IS NOT NULL AND upd."trajectoryId" = upd."previousTrajectoryId") AS resumed,
            upd."sourceTrajectoryId", upd."evalKind"::text AS "evalKind", upd."criticMethod"::text AS "criticMethod",
            run."emulatorEndpointId", run."evaluatorEndpointId", run.seed, run."promptVersions", run.evaluation, run.critic, run.sage,
            run."emulatorCritiqueRounds", run."loopMode", run.status AS "runStatus", (SELECT c FROM spec) AS "caseSpec"
     FROM upd JOIN run ON run.id = upd."runId"`,
    runEpisodeId,
    newTrajectoryId(),
    o.workerId,
    o.jobId,
    o.leaseMs,
  );
  const r = rows[0];
  if (!r) return null;
  const unit: EvaluationUnitSpec | null =
    r.sourceTrajectoryId && r.evalKind
      ? { sourceTrajectoryId: r.sourceTrajectoryId, kind: r.evalKind, replicate: r.repeat + 1, settings: r.evaluation as StoredEvaluationSettings }
      : null;
  const critic: CriticUnitSpec | null =
    r.sourceTrajectoryId && r.criticMethod ? { sourceTrajectoryId: r.sourceTrajectoryId, method: r.criticMethod, settings: r.critic as StoredCriticRunSettings } : null;
  const sage: SageUnitSpec | null = r.scenarioId && r.authority && r.sage ? { scenarioId: r.scenarioId, authority: r.authority, settings: r.sage as StoredSageRunSettings } : null;
  return {
    kind: "claimed",
    runStarted: r.runStatus === "QUEUED",
    episode: {
      runEpisodeId,
      runId: r.runId,
      caseId: r.caseId,
      agentEndpointId: r.agentEndpointId,
      variant: r.variant,
      mode: r.mode,
      repeat: r.repeat,
      emulatorEndpointId: unit || critic || sage ? null : r.emulatorEndpointId,
      evaluatorEndpointId: r.evaluatorEndpointId,
      seed: r.seed,
      promptVersions: Array.isArray(r.promptVersions) ? (r.promptVersions as string[]) : [],
      unit,
      critic,
      sage,
      attempt: r.attempts,
      trial: r.trial,
      resume: r.resumed,
      trajectoryId: r.trajectoryId ?? r.sourceTrajectoryId!,
      workerId: o.workerId,
      runSettings: { emulatorCritiqueRounds: r.emulatorCritiqueRounds, loopMode: r.loopMode, critic: r.critic as Run["critic"] },
      gated: !unit && !critic && !sage && storedGate(r.critic) !== null,
      caseSpec: !unit && !critic && !sage && r.caseSpec ? loadedCase(r.caseSpec) : undefined,
    },
  };
}

/**
 * Why claimEpisode took nothing, for the job's output; a QUEUED episode of a cancelled run (handed
 * back after the cancel) is marked CANCELLED on the way.
 */
export async function whyNotClaimed(db: Db, runEpisodeId: string): Promise<string> {
  const rows = await db.$queryRawUnsafe<{ status: string; workerId: string | null; runStatus: string | null }[]>(
    `WITH cur AS (
       SELECT e.id, e.status::text AS status, e."workerId", r.status::text AS "runStatus" FROM "RunEpisode" e LEFT JOIN "Run" r ON r.id = e."runId" WHERE e.id = $1
     ), cancel AS (
       UPDATE "RunEpisode" e SET status = 'CANCELLED', "finishedAt" = ${NOW_UTC}, "updatedAt" = ${NOW_UTC}
       FROM cur WHERE e.id = cur.id AND e.status = 'QUEUED' AND cur."runStatus" = 'CANCELLED' RETURNING e.id
     )
     SELECT cur.status, cur."workerId", cur."runStatus" FROM cur`,
    runEpisodeId,
  );
  const ep = rows[0];
  if (!ep) return "the episode no longer exists";
  if (ep.status === "DONE" || ep.status === "FAILED" || ep.status === "CANCELLED") return `the episode is already ${ep.status}`;
  if (!ep.runStatus) return "the run no longer exists";
  if (ep.runStatus === "CANCELLED") return "the run was cancelled";
  if (ep.runStatus === "PAUSED") return "the run is paused";
  if (ep.status === "RUNNING") return `the episode is running on ${ep.workerId ?? "?"}`;
  return `the episode could not be claimed (episode ${ep.status}, run ${ep.runStatus})`;
}
