// One trajectory as its page shows it: steps, evaluations, and its neighbours in the current filter.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { TrajectoryFilter } from "../filters";
import { toNumber } from "./common";
import { trajectorySort, trajectoryWhere } from "./trajectory-where";
import { compareCandidates } from "./compare-candidates";

export interface Neighbours {
  /** 1-based position of the trajectory in the filtered, sorted list. */
  position: number;
  total: number;
  prevId: string | null;
  nextId: string | null;
}

/** Where a trajectory sits in the current filter, and its neighbours; null when the filter excludes it. */
export async function trajectoryNeighbours(db: Db, filter: TrajectoryFilter, id: string): Promise<Neighbours | null> {
  const sorted = trajectorySort(filter.sort, filter.evaluator, filter.q);
  const rows = await db.$queryRaw<{ rn: bigint; total: bigint; prev: string | null; next: string | null }[]>`
    WITH ordered AS (
      SELECT t.id, row_number() OVER w AS rn, lag(t.id) OVER w AS prev, lead(t.id) OVER w AS next, count(*) OVER () AS total
      FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId" ${sorted.join}
      WHERE ${trajectoryWhere(filter)}
      WINDOW w AS (ORDER BY ${sorted.order})
    )
    SELECT rn, total, prev, next FROM ordered WHERE id = ${id}`;
  const r = rows[0];
  if (!r) return null;
  return { position: toNumber(r.rn), total: toNumber(r.total), prevId: r.prev, nextId: r.next };
}

/** A trajectory's steps and evaluations as the step and evaluation cards show them. */
export const STEP_DETAIL = {
  orderBy: { index: "asc" },
  select: {
    id: true, index: true, thought: true, action: true, actionInputRaw: true, actionInput: true, observationRaw: true, observation: true, emulatorSummary: true, emulatorThought: true,
    parseError: true, inputInvalid: true, emulatorFailure: true, emulatorProblem: true, emulatorRounds: true, emulatorCritiques: true, inputTokens: true, outputTokens: true, costUsd: true, latencyMs: true,
  },
} satisfies Prisma.Trajectory$stepsArgs;

export const EVALUATION_DETAIL = {
  orderBy: [{ kind: "asc" }, { evaluatorModel: "asc" }],
  select: { id: true, kind: true, evaluatorModel: true, score: true, label: true, thought: true, summary: true, sourceFile: true, sourceLine: true, warning: true, promptVersion: true, inputTokens: true, outputTokens: true, costUsd: true, latencyMs: true },
} satisfies Prisma.Trajectory$evaluationsArgs;

/** A ToolEmu trajectory (null for a missing one, and for a SAGE episode, which has no case). */
export async function getTrajectory(db: Db, id: string) {
  const t = await db.trajectory.findUnique({
    where: { id },
    select: {
      id: true,
      agentModel: true,
      emulatorModel: true,
      emulatorMode: true,
      finalAnswer: true,
      finalLog: true,
      status: true,
      stepCount: true,
      hasErrors: true,
      sourceFile: true,
      sourceLine: true,
      createdAt: true,
      origin: true,
      agentVariant: true,
      stopReason: true,
      stopDetail: true,
      settings: true,
      inputTokens: true,
      outputTokens: true,
      costUsd: true,
      startedAt: true,
      finishedAt: true,
      // InferAct trials of an episode behind the online critic gate (lib/runs/trials.ts).
      trial: true,
      previousTrialId: true,
      trialFeedback: true,
      nextTrials: { select: { id: true, trial: true }, orderBy: { trial: "asc" } },
      // The versions it ran against (lib/toolemu/authoring); none for data imported before versions.
      caseVersion: { select: { version: true } },
      toolkitVersionIds: true,
      case: {
        select: {
          id: true,
          name: true,
          currentVersion: true,
          source: true,
          userInstruction: true,
          underspecTaskInfo: true,
          underspecSafety: true,
          potentialRiskyOutcomes: true,
          potentialRiskyActions: true,
          toolkits: { orderBy: { position: "asc" }, select: { toolkit: { select: { name: true, nameForHuman: true } } } },
        },
      },
      steps: STEP_DETAIL,
      evaluations: EVALUATION_DETAIL,
    },
  });
  return t?.case ? { ...t, case: t.case } : null;
}

export type TrajectoryDetail = NonNullable<Awaited<ReturnType<typeof getTrajectory>>>;

export interface RanAgainst {
  /** The case's version, null when the trajectory holds none (imported before versions existed). */
  case: { name: string; version: number; current: number } | null;
  /** The toolkits' versions in the case's order; empty when none is recorded. */
  toolkits: { name: string; version: number; current: number }[];
}

/** The case and toolkit versions a trajectory ran against, beside their current versions. */
async function ranAgainst(db: Db, t: Pick<TrajectoryDetail, "caseVersion" | "toolkitVersionIds" | "case">): Promise<RanAgainst> {
  const rows = t.toolkitVersionIds.length
    ? await db.toolkitVersion.findMany({ where: { id: { in: t.toolkitVersionIds } }, select: { id: true, version: true, toolkit: { select: { name: true, currentVersion: true } } } })
    : [];
  const byId = new Map(rows.map((r) => [r.id, { name: r.toolkit.name, version: r.version, current: r.toolkit.currentVersion }]));
  return {
    case: t.caseVersion ? { name: t.case.name, version: t.caseVersion.version, current: t.case.currentVersion } : null,
    toolkits: t.toolkitVersionIds.flatMap((id) => byId.get(id) ?? []),
  };
}

export async function loadTrajectoryPage(db: Db, id: string, filter: TrajectoryFilter) {
  const trajectory = await getTrajectory(db, id);
  if (!trajectory) return null;
  const [neighbours, compareWith, versions] = await Promise.all([trajectoryNeighbours(db, filter, id), compareCandidates(db, trajectory.case.id, id), ranAgainst(db, trajectory)]);
  return { trajectory, neighbours, compareWith, versions };
}
