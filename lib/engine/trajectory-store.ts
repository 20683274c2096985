// Every write of an emulated trajectory: its starting row, each step (inserted as soon as the
// agent has written it, completed with its observation), the finish, and the evaluations.
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { EvaluationResult } from "@/lib/evaluation/evaluate";
import type { EmulatorCritiqueRound } from "@/lib/emulation/self-critique";
import { NOW_UTC } from "@/lib/llm/endpoint-limiter";
import type { AgentVariant, EmulatorModeValue } from "@/lib/trajectory/types";
import type { Episode, EpisodeState, EpisodeStatus, EvaluationOutcome, Usage } from "./episode-types";
import { toolemuLine } from "./toolemu-line";

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
    const { runId, ...rest } = start;
    const columns = { ...rest, ...(runId !== null ? { runId } : {}), origin: "EMULATED" as const, status: "RUNNING" as const, stepCount: 0, raw: {}, startedAt: new Date(), contentHash: `emulated:${into}` };
    const { count } = await db.trajectory.updateMany({ where: { id: into, origin: "EMULATED", status: "RUNNING", steps: { none: {} } }, data: columns });
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

/** A step the agent wrote but that could not be parsed: stored whole, with why. */
export async function recordUnparsableStep(ep: Episode, index: number, step: { thought: string | null; agentLog: string; parseError: string }, usage: Usage): Promise<void> {
  await ep.db.step.create({ data: { trajectoryId: ep.trajectoryId, index, ...step, ...usageColumns(usage) } });
}

/** An action, stored at once; completeStep fills in its observation. Returns the Step id. */
export async function recordActionStep(ep: Episode, index: number, step: { thought: string | null; action: string; actionInputRaw: string; agentLog: string }, usage: Usage): Promise<string> {
  const row = await ep.db.step.create({ data: { trajectoryId: ep.trajectoryId, index, ...step, ...usageColumns(usage) }, select: { id: true } });
  return row.id;
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

export async function completeStep(ep: Episode, stepId: string, c: StepCompletion, usage: Usage): Promise<void> {
  await ep.db.step.update({
    where: { id: stepId },
    data: {
      actionInput: (c.actionInput ?? undefined) as Prisma.InputJsonValue | undefined,
      observationRaw: c.observationRaw,
      observation: (c.observation ?? undefined) as Prisma.InputJsonValue | undefined,
      inputInvalid: c.inputInvalid,
      emulatorRounds: c.emulatorRounds,
      emulatorFailure: c.emulatorFailure,
      emulatorThought: c.emulatorThought,
      emulatorSummary: c.emulatorSummary,
      emulatorProblem: c.emulatorProblem ?? null,
      ...(c.critiques ? { emulatorCritiques: c.critiques as unknown as Prisma.InputJsonValue } : {}),
      ...usageColumns(usage),
    },
  });
}

/** The end of the episode: status, stop reason, totals and the ToolEmu-format line. */
export async function finishTrajectory(ep: Episode, s: EpisodeState, status: EpisodeStatus): Promise<void> {
  const line = toolemuLine(ep.spec, ep.caseRaw, ep.opts.emulator.mode, s.rawSteps, status === "FINISHED" ? s.final : null);
  await ep.db.trajectory.update({
    where: { id: ep.trajectoryId },
    data: {
      status,
      stopReason: s.stopReason,
      stopDetail: s.stopDetail,
      stepCount: s.stepCount,
      hasErrors: s.hasErrors,
      finalAnswer: s.final?.answer ?? null,
      finalLog: s.final?.log ?? null,
      actionInFinalAnswer: s.final?.actionInside ?? false,
      inputTokens: s.total.inputTokens,
      outputTokens: s.total.outputTokens,
      costUsd: s.total.costUsd,
      finishedAt: new Date(),
      raw: line as Prisma.InputJsonValue,
    },
  });
}

/**
 * The online gate paused the episode at a flagged call (./gate.ts): the trajectory is WAITING with
 * its totals so far; the pending step stays without observation until the answer comes.
 */
export async function pauseTrajectory(ep: Episode, s: EpisodeState, pending: { stepIndex: number; tool: string }): Promise<void> {
  await ep.db.trajectory.update({
    where: { id: ep.trajectoryId },
    data: {
      status: "WAITING",
      stopReason: "intervention",
      stopDetail: `waiting for an answer to the call of ${pending.tool} at step ${pending.stepIndex + 1}`,
      stepCount: s.stepCount,
      hasErrors: s.hasErrors,
      inputTokens: s.total.inputTokens,
      outputTokens: s.total.outputTokens,
      costUsd: s.total.costUsd,
    },
  });
}

/** A WAITING trajectory plays again (its intervention was answered). False when it was not WAITING. */
export async function resumeTrajectory(ep: Episode): Promise<boolean> {
  const { count } = await ep.db.trajectory.updateMany({ where: { id: ep.trajectoryId, status: "WAITING" }, data: { status: "RUNNING", stopReason: null, stopDetail: null } });
  return count > 0;
}

/**
 * Stores evaluation results as Evaluation rows, one per trajectory, kind and evaluator name
 * (evaluating again replaces it); a failed result stores nothing and stays an outcome.
 */
export async function saveEvaluations(db: Db, trajectoryId: string, results: readonly EvaluationResult[]): Promise<EvaluationOutcome[]> {
  return Promise.all(
    results.map(async (r): Promise<EvaluationOutcome> => {
      if (!r.ok) return r;
      const { kind, evaluatorModel } = r;
      const data = { ...r.data, sourceFile: null, sourceLine: null };
      const row = await db.evaluation.upsert({
        where: { trajectoryId_kind_evaluatorModel: { trajectoryId, kind, evaluatorModel } },
        create: { trajectoryId, kind, evaluatorModel, ...data },
        update: data,
        select: { id: true },
      });
      return { kind, ok: true, evaluationId: row.id, score: r.data.score, label: r.data.label, warning: r.data.warning };
    }),
  );
}
