// What the intervention queue (/interventions), the navigation's count and the run page read.
//
// The approver is staff, so the screen shows the case's real instruction beside what the critic
// saw — the chain of earlier actions with their inputs and observations, then the pending call —
// and the critic's verdict (its inferred tasks, p̄ in both option orders). Never the agent's
// thoughts: the approver judges the actions, as the critic did.
import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { claimIntervention, ts, WAITING_SQL, type ClaimDirection } from "./lease";

/** The critic's checkpoint verdict as the gate copies it onto the intervention (tolerant read). */
const orderSchema = z.object({ p: z.number().nullable().optional() }).passthrough().nullable().optional().catch(null);
const criticJsonSchema = z
  .object({
    method: z.string().optional().catch(undefined),
    inferredTasks: z.array(z.string()).optional().catch([]),
    forward: orderSchema,
    reverse: orderSchema,
    p: z.number().nullable().optional().catch(null),
    error: z.string().nullable().optional().catch(null),
  })
  .passthrough()
  .catch({});

/** The gate settings of the run (Run.critic = { gate: { settings: { tau } } }), tolerant read. */
const gateSchema = z
  .object({ gate: z.object({ settings: z.object({ tau: z.number().optional(), method: z.string().optional() }).passthrough().optional(), answerer: z.string().optional() }).passthrough().nullable().optional() })
  .passthrough()
  .nullable()
  .catch(null);

export interface ChainEntry {
  index: number;
  action: string | null;
  actionInput: string | null;
  observation: string | null;
}

export interface CriticVerdictView {
  method: string | null;
  inferredTasks: string[];
  /** p̄(t*): the mean of both orders (null = the critic's output could not be read: ERROR). */
  p: number | null;
  forwardP: number | null;
  reverseP: number | null;
  error: string | null;
  /** The run's threshold: a checkpoint passes iff p̄ > τ. */
  tau: number | null;
}

export interface InterventionView {
  id: string;
  createdAt: string;
  leaseUntil: string | null;
  run: { id: string; name: string; status: string } | null;
  /** id null: the trajectory plays no ToolEmu case. */
  case: { id: string | null; name: string; instruction: string; toolkits: string[] };
  agent: { model: string; variant: string | null; mode: string };
  trajectoryId: string;
  trial: number;
  /** Feedback a person gave the previous trial (it is in this agent's memory). */
  trialFeedback: string | null;
  stepIndex: number;
  tool: string;
  actionInput: string;
  chain: ChainEntry[];
  critic: CriticVerdictView;
}

export interface QueueRow {
  id: string;
  createdAt: string;
  tool: string;
  caseName: string;
  runName: string | null;
  p: number | null;
  /** Someone else's live lease: their name. */
  heldBy: string | null;
  mine: boolean;
}

export interface AnsweredRow {
  id: string;
  tool: string;
  caseName: string;
  status: "APPROVED" | "REJECTED";
  feedback: string | null;
  answeredBy: string | null;
  simulated: boolean;
  answeredAt: string | null;
}

export interface InterventionScreen {
  current: InterventionView | null;
  /** Waiting interventions, oldest first (the current one included). */
  waiting: QueueRow[];
  /** The latest answers, newest first. */
  answered: AnsweredRow[];
}

const NO_CASE = "(no ToolEmu case)";

const num = (v: unknown) => (typeof v === "bigint" ? Number(v) : Number(v ?? 0));

/** How many flagged calls wait for a human (the navigation's count). */
export async function countWaitingInterventions(db: Db): Promise<number> {
  const [r] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "Intervention" i WHERE ${WAITING_SQL}`;
  return num(r?.n);
}

/** How many of a run's flagged calls wait for a human (the run page's line). */
export async function countWaitingForRun(db: Db, runId: string): Promise<number> {
  const [r] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "Intervention" i WHERE i."runId" = ${runId} AND ${WAITING_SQL}`;
  return num(r?.n);
}

export interface ScreenOptions {
  from?: string | null;
  direction?: ClaimDirection;
  now?: Date;
  /** How many answered ones to list. */
  answeredTake?: number;
}

/**
 * The queue screen for `userId`: the intervention leased to them (their live one, or the next
 * free one — see ./lease.ts), the waiting list, and the latest answers.
 */
export async function loadInterventionScreen(db: Db, userId: string, opts: ScreenOptions = {}): Promise<InterventionScreen> {
  const now = opts.now ?? new Date();
  const lease = await claimIntervention(db, userId, { from: opts.from, direction: opts.direction, now });
  const [current, waiting, answered] = await Promise.all([
    lease ? loadInterventionView(db, lease.id) : Promise.resolve(null),
    listWaiting(db, userId, now),
    listAnswered(db, opts.answeredTake ?? 10),
  ]);
  return { current, waiting, answered };
}

async function listWaiting(db: Db, userId: string, now: Date): Promise<QueueRow[]> {
  const rows = await db.$queryRaw<{ id: string; createdAt: Date; tool: string; caseName: string; runName: string | null; p: number | null; leasedById: string | null; live: boolean; holder: string | null }[]>`
    SELECT i.id, i."createdAt", i.tool, COALESCE(c.name, ${NO_CASE}) AS "caseName", r.name AS "runName", i.p, i."leasedById",
           (i."leaseUntil" IS NOT NULL AND i."leaseUntil" > ${ts(now)}) AS live, u.name AS holder
    FROM "Intervention" i
    JOIN "Trajectory" t ON t.id = i."trajectoryId"
    LEFT JOIN "TestCase" c ON c.id = t."caseId"
    LEFT JOIN "Run" r ON r.id = i."runId"
    LEFT JOIN "User" u ON u.id = i."leasedById"
    WHERE ${WAITING_SQL}
    ORDER BY i."createdAt", i.id
    LIMIT 200`;
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    tool: r.tool,
    caseName: r.caseName,
    runName: r.runName,
    p: r.p,
    mine: r.live && r.leasedById === userId,
    heldBy: r.live && r.leasedById && r.leasedById !== userId ? (r.holder ?? "another approver") : null,
  }));
}

async function listAnswered(db: Db, take: number): Promise<AnsweredRow[]> {
  const rows = await db.intervention.findMany({
    where: { status: { not: "PENDING" } },
    orderBy: [{ answeredAt: { sort: "desc", nulls: "last" } }, { id: "desc" }],
    take,
    select: {
      id: true, tool: true, status: true, feedback: true, simulated: true, answeredAt: true,
      answeredBy: { select: { name: true } },
      trajectory: { select: { case: { select: { name: true } } } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    tool: r.tool,
    caseName: r.trajectory.case?.name ?? NO_CASE,
    status: r.status as "APPROVED" | "REJECTED",
    feedback: r.feedback,
    answeredBy: r.answeredBy?.name ?? null,
    simulated: r.simulated,
    answeredAt: r.answeredAt?.toISOString() ?? null,
  }));
}

/** Model-written JSON as the approver reads it: pretty-printed when it parses, else as written. */
function pretty(raw: string | null, parsed?: unknown): string | null {
  if (parsed !== undefined && parsed !== null) return JSON.stringify(parsed, null, 2);
  if (raw === null) return null;
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** One intervention as the queue screen shows it. Null when it does not exist. */
export async function loadInterventionView(db: Db, id: string): Promise<InterventionView | null> {
  const iv = await db.intervention.findUnique({
    where: { id },
    select: {
      id: true, createdAt: true, leaseUntil: true, stepIndex: true, tool: true, actionInput: true, critic: true, p: true,
      run: { select: { id: true, name: true, status: true, critic: true } },
      trajectory: {
        select: {
          id: true, agentModel: true, agentVariant: true, emulatorMode: true, trial: true, trialFeedback: true,
          case: { select: { id: true, name: true, userInstruction: true, toolkits: { orderBy: { position: "asc" }, select: { toolkit: { select: { name: true } } } } } },
        },
      },
    },
  });
  if (!iv) return null;
  // The chain S_i before the pending call: what the critic saw (actions, inputs, observations).
  const steps = await db.step.findMany({
    where: { trajectoryId: iv.trajectory.id, index: { lt: iv.stepIndex } },
    orderBy: { index: "asc" },
    select: { index: true, action: true, actionInputRaw: true, actionInput: true, observationRaw: true, observation: true },
  });
  const critic = criticJsonSchema.parse(iv.critic ?? {});
  const gate = gateSchema.parse(iv.run?.critic ?? null);
  const t = iv.trajectory;
  return {
    id: iv.id,
    createdAt: iv.createdAt.toISOString(),
    leaseUntil: iv.leaseUntil?.toISOString() ?? null,
    run: iv.run ? { id: iv.run.id, name: iv.run.name, status: iv.run.status } : null,
    case: t.case
      ? { id: t.case.id, name: t.case.name, instruction: t.case.userInstruction, toolkits: t.case.toolkits.map((k) => k.toolkit.name) }
      : { id: null, name: NO_CASE, instruction: "", toolkits: [] },
    agent: { model: t.agentModel, variant: t.agentVariant, mode: t.emulatorMode },
    trajectoryId: t.id,
    trial: t.trial,
    trialFeedback: t.trialFeedback,
    stepIndex: iv.stepIndex,
    tool: iv.tool,
    actionInput: pretty(iv.actionInput) ?? "",
    chain: steps.map((s) => ({ index: s.index, action: s.action, actionInput: pretty(s.actionInputRaw, s.actionInput), observation: pretty(s.observationRaw, s.observation) })),
    critic: {
      method: critic.method ?? gate?.gate?.settings?.method ?? null,
      inferredTasks: critic.inferredTasks ?? [],
      p: iv.p ?? critic.p ?? null,
      forwardP: critic.forward?.p ?? null,
      reverseP: critic.reverse?.p ?? null,
      error: critic.error ?? null,
      tau: gate?.gate?.settings?.tau ?? null,
    },
  };
}

export type { ClaimDirection };
