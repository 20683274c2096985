// Every write of an emulated trajectory: its starting row, each step (inserted as soon as the
// agent has written it, completed with its observation), the finish, and the evaluations. The
// writes during an episode are one SQL statement each, which also inserts the LlmCall rows of the
// calls whose result it stores (./call-buffer.ts).
import { randomBytes, randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { fastSql } from "@/lib/db/fast-sql";
import type { Prisma } from "@/lib/db/generated/client";
import type { EvaluationData, EvaluationResult } from "@/lib/evaluation/evaluate";
import type { EmulatorCritiqueRound } from "@/lib/emulation/self-critique";
import { NOW_UTC } from "@/lib/llm/endpoint-limiter";
import type { AgentVariant, EmulatorModeValue } from "@/lib/trajectory/types";
import type { Episode, EpisodeState, EpisodeStatus, EvaluationOutcome, Usage } from "./episode-types";
import { toolemuLine } from "./toolemu-line";
import { writeWithCalls, type CallBuffer } from "./call-buffer";

/** The trajectory row an episode starts from (EMULATED, RUNNING, no steps). */
export interface StartingTrajectory {
  caseId: string;
  agentModel: string;
  emulatorModel: string;
  emulatorMode: EmulatorModeValue;
  agentVariant: AgentVariant;
  agentEndpointId: string | null;
  emulatorEndpointId: string | null;
  evaluatorEndpointId: string | null;
  runId: string | null;
  settings: Prisma.InputJsonValue;
  /** InferAct trials: 1 (default) for a first attempt; n + 1 points at attempt n and carries the feedback it was given. */
  trial?: number;
  previousTrialId?: string | null;
  trialFeedback?: string | null;
}

/** SQL expressions for the starting row's columns: parameters, or columns of the caller's FROM. */
export interface StartingTrajectorySql {
  id: string;
  caseId: string;
  agentModel: string;
  emulatorModel: string;
  emulatorMode: string;
  agentVariant: string;
  agentEndpointId: string;
  emulatorEndpointId: string;
  evaluatorEndpointId: string;
  runId: string;
  /** "FROM …" and its WHERE, when the expressions read columns; absent for parameters. */
  from?: string;
}

/**
 * The one INSERT of a starting trajectory row (EMULATED, RUNNING, no steps, content hash
 * "emulated:pending:<id>"): a run's claim embeds it in its statement, writeStartingTrajectory
 * runs it with parameters. The engine then fills the row (writeStartingTrajectory).
 */
export function startingTrajectoryInsert(v: StartingTrajectorySql): string {
  return `INSERT INTO "Trajectory" (id, "caseId", origin, status, "agentModel", "emulatorModel", "emulatorMode", "agentVariant", "stepCount", "contentHash", raw,
                          "agentEndpointId", "emulatorEndpointId", "evaluatorEndpointId", "runId", "startedAt", "createdAt", "caseVersionId", "toolkitVersionIds")
       SELECT ${v.id}, ${v.caseId}, 'EMULATED', 'RUNNING', ${v.agentModel}, ${v.emulatorModel}, ${v.emulatorMode}, ${v.agentVariant}, 0, 'emulated:pending:' || ${v.id}, '{}'::jsonb,
              ${v.agentEndpointId}, ${v.emulatorEndpointId}, ${v.evaluatorEndpointId}, ${v.runId}, ${NOW_UTC}, ${NOW_UTC},
              ${caseVersionSql(v.caseId)}${v.from ? `\n       ${v.from}` : ""}`;
}

/**
 * The case version and its toolkits' versions current now (what the episode runs against: the
 * engine reads the case and Tool rows, which hold the current versions; lib/toolemu/authoring).
 */
function caseVersionSql(caseId: string): string {
  return `(SELECT _cv.id FROM "TestCaseVersion" _cv JOIN "TestCase" _c ON _c.id = _cv."caseId" AND _cv.version = _c."currentVersion" WHERE _c.id = ${caseId}),
              ARRAY(SELECT _tv.id FROM "TestCaseToolkit" _ct JOIN "Toolkit" _k ON _k.id = _ct."toolkitId"
                    JOIN "ToolkitVersion" _tv ON _tv."toolkitId" = _k.id AND _tv.version = _k."currentVersion"
                    WHERE _ct."caseId" = ${caseId} ORDER BY _ct.position)`;
}

/** A new trajectory id, in the claim's form ("t" + 32 hex digits). */
export const newTrajectoryId = () => `t${randomUUID().replace(/-/g, "")}`;

/**
 * Writes the episode's starting row and returns its id: inserts it (startingTrajectoryInsert), or
 * takes `into` — a row a run's claim inserted, which must be an emulated, RUNNING trajectory
 * without steps — and fills it: models, endpoints, settings, content hash "emulated:<id>".
 */
export async function writeStartingTrajectory(db: Db, start: StartingTrajectory, into?: string | null): Promise<string> {
  if (into) {
    // One statement: fills the row only if it is one to play into (a null runId keeps the row's).
    // (a null runId keeps the row's; trial fields left out keep theirs.)
    const count = await fastSql(db).$executeRawUnsafe(
      `UPDATE "Trajectory" SET "caseId" = $2, "agentModel" = $3, "emulatorModel" = $4, "emulatorMode" = $5::"EmulatorMode", "agentVariant" = $6,
         "agentEndpointId" = $7, "emulatorEndpointId" = $8, "evaluatorEndpointId" = $9, settings = $10::jsonb, "runId" = COALESCE($11, "runId"),
         trial = CASE WHEN $12::boolean THEN $13::int ELSE trial END, "previousTrialId" = CASE WHEN $12::boolean THEN $14 ELSE "previousTrialId" END,
         "trialFeedback" = CASE WHEN $12::boolean THEN $15 ELSE "trialFeedback" END,
         origin = 'EMULATED', status = 'RUNNING', "stepCount" = 0, raw = '{}'::jsonb, "startedAt" = $16::timestamp(3), "contentHash" = $17
       WHERE id = $1 AND origin = 'EMULATED' AND status = 'RUNNING' AND NOT EXISTS (SELECT 1 FROM "Step" s WHERE s."trajectoryId" = $1)`,
      into, start.caseId, start.agentModel, start.emulatorModel, start.emulatorMode, start.agentVariant, start.agentEndpointId, start.emulatorEndpointId, start.evaluatorEndpointId,
      json(start.settings), start.runId, start.trial !== undefined, start.trial ?? null, start.previousTrialId ?? null, start.trialFeedback ?? null, utc(new Date()), `emulated:${into}`,
    );
    if (count === 1) return into;
    const exists = await db.trajectory.count({ where: { id: into } });
    if (!exists) throw new Error(`Trajectory ${into} does not exist.`);
    throw new Error(`Trajectory ${into} cannot be played into: it must be an emulated, RUNNING trajectory without steps.`);
  }
  into = newTrajectoryId();
  const params = { id: "$1", caseId: "$2", agentModel: "$3", emulatorModel: "$4", emulatorMode: `$5::"EmulatorMode"`, agentVariant: "$6", agentEndpointId: "$7", emulatorEndpointId: "$8", evaluatorEndpointId: "$9", runId: "$10" };
  await db.$executeRawUnsafe(startingTrajectoryInsert(params), into, start.caseId, start.agentModel, start.emulatorModel, start.emulatorMode, start.agentVariant, start.agentEndpointId, start.emulatorEndpointId, start.evaluatorEndpointId, start.runId);
  const columns = { ...start, origin: "EMULATED" as const, status: "RUNNING" as const, stepCount: 0, raw: {}, startedAt: new Date() };
  await db.trajectory.update({ where: { id: into }, data: { ...columns, contentHash: `emulated:${into}` } });
  return into;
}

export function usageColumns(u: Usage) {
  return { inputTokens: u.inputTokens, outputTokens: u.outputTokens, costUsd: u.costUsd, latencyMs: Math.round(u.latencyMs) };
}

/** A new row id (the form of Prisma's cuid(): "c" and 24 more characters). */
const newRowId = () => `c${randomBytes(12).toString("hex")}`;

/** A DateTime parameter as Prisma stores it (`timestamp(3)`, UTC): cast it with ::timestamp(3). */
const utc = (d: Date) => d.toISOString().replace("Z", "");

/** A Json column's parameter (cast with ::jsonb); null / undefined: SQL NULL. */
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** The one row an UPDATE by id must find (as Prisma's update, which throws when there is none). */
function one<T>(rows: T[], what: string): T {
  if (!rows[0]) throw new Error(`${what} does not exist (it was deleted while the episode played).`);
  return rows[0];
}

const STEP_INSERT = `INSERT INTO "Step" (id, "trajectoryId", index, thought, action, "actionInputRaw", "agentLog", "parseError", "inputTokens", "outputTokens", "costUsd", "latencyMs", "createdAt")
  VALUES ($1, $2, $3::int, $4, $5, $6, $7, $8, $9::int, $10::int, $11::float8, $12::int, ${NOW_UTC}) RETURNING id`;

async function insertStep(ep: Episode, index: number, step: { thought: string | null; action?: string; actionInputRaw?: string; agentLog: string; parseError?: string }, usage: Usage): Promise<string> {
  const u = usageColumns(usage);
  const rows = await writeWithCalls<{ id: string }>(fastSql(ep.db), ep.calls ?? null, STEP_INSERT, [
    newRowId(), ep.trajectoryId, index, step.thought, step.action ?? null, step.actionInputRaw ?? null, step.agentLog, step.parseError ?? null, u.inputTokens, u.outputTokens, u.costUsd, u.latencyMs,
  ]);
  return one(rows, `Step ${index + 1} of trajectory ${ep.trajectoryId}`).id;
}

/** A step the agent wrote but that could not be parsed: stored whole, with why (and the agent's call). */
export async function recordUnparsableStep(ep: Episode, index: number, step: { thought: string | null; agentLog: string; parseError: string }, usage: Usage): Promise<void> {
  await insertStep(ep, index, step, usage);
}

/** An action, stored at once (with the agent's call); completeStep fills in its observation. Returns the Step id. */
export async function recordActionStep(ep: Episode, index: number, step: { thought: string | null; action: string; actionInputRaw: string; agentLog: string }, usage: Usage): Promise<string> {
  return insertStep(ep, index, step, usage);
}

export interface StepCompletion {
  actionInput: unknown;
  observationRaw: string;
  observation: unknown;
  inputInvalid: boolean;
  emulatorRounds: number;
  emulatorFailure: string | null;
  emulatorThought: string | null;
  emulatorSummary: string | null;
  critiques: EmulatorCritiqueRound[] | null;
  /** ToolEmu-compatible loop: what was wrong with the emulator output passed on as it was. */
  emulatorProblem?: string | null;
}

// A null actionInput, observation or critiques leaves the column as it is (NULL since the insert).
const STEP_COMPLETE = `UPDATE "Step" SET "actionInput" = COALESCE($2::jsonb, "actionInput"), "observationRaw" = $3, observation = COALESCE($4::jsonb, observation),
    "inputInvalid" = $5::boolean, "emulatorRounds" = $6::int, "emulatorFailure" = $7, "emulatorThought" = $8, "emulatorSummary" = $9, "emulatorProblem" = $10,
    "emulatorCritiques" = COALESCE($11::jsonb, "emulatorCritiques"), "inputTokens" = $12::int, "outputTokens" = $13::int, "costUsd" = $14::float8, "latencyMs" = $15::int
  WHERE id = $1 RETURNING id`;

/** The step's observation, with the emulator's calls. */
export async function completeStep(ep: Episode, stepId: string, c: StepCompletion, usage: Usage): Promise<void> {
  const u = usageColumns(usage);
  const rows = await writeWithCalls<{ id: string }>(fastSql(ep.db), ep.calls ?? null, STEP_COMPLETE, [
    stepId, json(c.actionInput), c.observationRaw, json(c.observation), c.inputInvalid, c.emulatorRounds, c.emulatorFailure, c.emulatorThought, c.emulatorSummary,
    c.emulatorProblem ?? null, c.critiques ? json(c.critiques) : null, u.inputTokens, u.outputTokens, u.costUsd, u.latencyMs,
  ]);
  one(rows, `Step ${stepId}`);
}

const TRAJECTORY_FINISH = `UPDATE "Trajectory" SET status = $2::"TrajectoryStatus", "stopReason" = $3, "stopDetail" = $4, "stepCount" = $5::int, "hasErrors" = $6::boolean,
    "finalAnswer" = $7, "finalLog" = $8, "actionInFinalAnswer" = $9::boolean, "inputTokens" = $10::int, "outputTokens" = $11::int, "costUsd" = $12::float8,
    "finishedAt" = $13::timestamp(3), raw = $14::jsonb
  WHERE id = $1 RETURNING id`;

/** The end of the episode: status, stop reason, totals and the ToolEmu-format line (with the agent's last call). */
export async function finishTrajectory(ep: Episode, s: EpisodeState, status: EpisodeStatus): Promise<void> {
  const line = toolemuLine(ep.spec, ep.caseRaw, ep.opts.emulator.mode, s.rawSteps, status === "FINISHED" ? s.final : null);
  const rows = await writeWithCalls<{ id: string }>(fastSql(ep.db), ep.calls ?? null, TRAJECTORY_FINISH, [
    ep.trajectoryId, status, s.stopReason, s.stopDetail, s.stepCount, s.hasErrors, s.final?.answer ?? null, s.final?.log ?? null, s.final?.actionInside ?? false,
    s.total.inputTokens, s.total.outputTokens, s.total.costUsd, utc(new Date()), json(line),
  ]);
  one(rows, `Trajectory ${ep.trajectoryId}`);
}

/**
 * The online gate paused the episode at a flagged call (./gate.ts): the trajectory is WAITING with
 * its totals so far; the pending step stays without observation until the answer comes.
 */
export async function pauseTrajectory(ep: Episode, s: EpisodeState, pending: { stepIndex: number; tool: string }): Promise<void> {
  const rows = await writeWithCalls<{ id: string }>(
    fastSql(ep.db),
    ep.calls ?? null,
    `UPDATE "Trajectory" SET status = 'WAITING', "stopReason" = 'intervention', "stopDetail" = $2, "stepCount" = $3::int, "hasErrors" = $4::boolean,
       "inputTokens" = $5::int, "outputTokens" = $6::int, "costUsd" = $7::float8
     WHERE id = $1 RETURNING id`,
    [ep.trajectoryId, `waiting for an answer to the call of ${pending.tool} at step ${pending.stepIndex + 1}`, s.stepCount, s.hasErrors, s.total.inputTokens, s.total.outputTokens, s.total.costUsd],
  );
  one(rows, `Trajectory ${ep.trajectoryId}`);
}

/** A WAITING trajectory plays again (its intervention was answered). False when it was not WAITING. */
export async function resumeTrajectory(ep: Episode): Promise<boolean> {
  const { count } = await ep.db.trajectory.updateMany({ where: { id: ep.trajectoryId, status: "WAITING" }, data: { status: "RUNNING", stopReason: null, stopDetail: null } });
  return count > 0;
}

// Every EvaluationData field is a column of the upsert below (a new field must be added there).
const EVALUATION_FIELDS: Record<keyof EvaluationData, true> = {
  score: true, label: true, thought: true, summary: true, warning: true, raw: true, promptVersion: true, inputTokens: true, outputTokens: true, costUsd: true, latencyMs: true,
};
void EVALUATION_FIELDS;

const EVALUATION_UPSERT = `INSERT INTO "Evaluation" (id, "trajectoryId", kind, "evaluatorModel", score, label, thought, summary, warning, raw, "promptVersion",
                           "inputTokens", "outputTokens", "costUsd", "latencyMs", "sourceFile", "sourceLine", "createdAt")
  VALUES ($1, $2, $3::"EvaluationKind", $4, $5::int, $6, $7, $8, $9, $10::jsonb, $11, $12::int, $13::int, $14::float8, $15::int, NULL, NULL, $16::timestamp(3))
  ON CONFLICT ("trajectoryId", kind, "evaluatorModel") DO UPDATE SET score = EXCLUDED.score, label = EXCLUDED.label, thought = EXCLUDED.thought, summary = EXCLUDED.summary,
    warning = EXCLUDED.warning, raw = EXCLUDED.raw, "promptVersion" = EXCLUDED."promptVersion", "inputTokens" = EXCLUDED."inputTokens", "outputTokens" = EXCLUDED."outputTokens",
    "costUsd" = EXCLUDED."costUsd", "latencyMs" = EXCLUDED."latencyMs", "sourceFile" = NULL, "sourceLine" = NULL
  RETURNING id`;

/**
 * Stores evaluation results as Evaluation rows, one per trajectory, kind and evaluator name
 * (evaluating again replaces it); a failed result stores nothing and stays an outcome. `calls`:
 * the episode's held LlmCall rows, stored with the first row written.
 */
export async function saveEvaluations(db: Db, trajectoryId: string, results: readonly EvaluationResult[], calls: CallBuffer | null = null): Promise<EvaluationOutcome[]> {
  return Promise.all(
    results.map(async (r): Promise<EvaluationOutcome> => {
      if (!r.ok) return r;
      const { kind, evaluatorModel, data: d } = r;
      const rows = await writeWithCalls<{ id: string }>(fastSql(db), calls, EVALUATION_UPSERT, [
        newRowId(), trajectoryId, kind, evaluatorModel, d.score, d.label, d.thought, d.summary, d.warning, json(d.raw), d.promptVersion,
        d.inputTokens, d.outputTokens, d.costUsd, d.latencyMs, utc(new Date()),
      ]);
      return { kind, ok: true, evaluationId: one(rows, `Evaluation of trajectory ${trajectoryId}`).id, score: d.score, label: d.label, warning: d.warning };
    }),
  );
}
