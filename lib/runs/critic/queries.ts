// What the critic screens read: the critic replay form (endpoints, the selection), a CRITIC run's
// summary on its run page, and a trajectory's checkpoint timelines (one per assessment).
//
// Decision at τ (lib/metrics/critic.ts): a checkpoint PASSES iff p̄ > τ; it is FLAGGED when
// p̄ ≤ τ and ERROR when the critic's output could not be read (p̄ null) — ERROR counts as a flag.
// A trajectory is flagged when any of its checkpoints is flagged or ERROR.
import "server-only";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { CRITIC_METHODS, DEFAULT_CRITIC_SETTINGS, criticSettingsSchema, type CriticMethodName, type CriticSettings } from "@/lib/critic/settings";
import { resolveTrajectories } from "../evaluation/selection";
import { selectionHref } from "../evaluation/queries";
import type { TrajectorySelection } from "../evaluation/schemas";
import type { StoredCriticRunSettings } from "./schemas";

const toNum = (v: unknown) => (typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : Number(v ?? 0));

export type CheckpointDecision = "pass" | "flag" | "ERROR";

export function decisionAt(p: number | null, tau: number): CheckpointDecision {
  if (p === null) return "ERROR";
  return p > tau ? "pass" : "flag";
}

/** The critic replay form: the selection it was opened with, the endpoints, the defaults. */
export async function loadCriticRunForm(db: Db, selection: TrajectorySelection) {
  let resolved: { trajectories: number; running: number; description: string; error: string | null };
  try {
    const r = await resolveTrajectories(db, selection);
    resolved = { trajectories: r.trajectories.length, running: r.running, description: r.description, error: null };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    resolved = { trajectories: 0, running: 0, description: "", error: e.message };
  }
  const endpoints = await db.modelEndpoint.findMany({
    orderBy: [{ offline: "desc" }, { name: "asc" }],
    select: { id: true, name: true, model: true, offline: true, temperature: true, cacheEnabled: true },
  });
  return { selection, backHref: selectionHref(selection), ...resolved, endpoints, methods: [...CRITIC_METHODS], defaults: DEFAULT_CRITIC_SETTINGS };
}
export type CriticRunForm = Awaited<ReturnType<typeof loadCriticRunForm>>;

export interface CriticMethodSummary {
  method: CriticMethodName;
  units: number;
  done: number;
  failed: number;
  /** Trajectories with an assessment by this run and method. */
  assessed: number;
  /** …of which flagged at the run's τ (a checkpoint with p̄ ≤ τ or ERROR). */
  flagged: number;
  /** Checkpoints judged, ERROR checkpoints among them, and trajectories with at least one. */
  checkpoints: number;
  errors: number;
  trajectoriesWithErrors: number;
}

export interface CriticRunSummary {
  tau: number;
  criticModel: string;
  settings: CriticSettings;
  methods: CriticMethodSummary[];
  /** Trajectories the run judged (any method). */
  trajectories: number;
  /** Estimated checkpoints (when the run was created). */
  estimatedCheckpoints: number;
}

/** A CRITIC run's results per method, from its units and the assessments they wrote. */
export async function criticRunSummary(db: Db, runId: string, stored: StoredCriticRunSettings): Promise<CriticRunSummary> {
  const tau = stored.settings.tau;
  const units = await db.$queryRaw<{ method: CriticMethodName; units: bigint; done: bigint; failed: bigint }[]>`
    SELECT "criticMethod"::text AS method, count(*) AS units, count(*) FILTER (WHERE status = 'DONE') AS done, count(*) FILTER (WHERE status = 'FAILED') AS failed
    FROM "RunEpisode" WHERE "runId" = ${runId} GROUP BY 1`;
  const assessed = await db.$queryRaw<{ method: CriticMethodName; assessed: bigint; flagged: bigint; checkpoints: bigint; errors: bigint; witherrors: bigint }[]>`
    SELECT a.method::text AS method, count(*) AS assessed,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM "CriticCheckpoint" k WHERE k."assessmentId" = a.id AND (k.p IS NULL OR k.p <= ${tau}))) AS flagged,
           COALESCE(sum(a."checkpointCount"), 0) AS checkpoints, COALESCE(sum(a."errorCount"), 0) AS errors,
           count(*) FILTER (WHERE a."errorCount" > 0) AS witherrors
    FROM "CriticAssessment" a WHERE a."runId" = ${runId} GROUP BY 1`;
  const byMethod = new Map(assessed.map((r) => [r.method, r]));
  const unitsOf = new Map(units.map((r) => [r.method, r]));
  const methods = stored.methods.map((method): CriticMethodSummary => {
    const u = unitsOf.get(method);
    const a = byMethod.get(method);
    return {
      method,
      units: toNum(u?.units),
      done: toNum(u?.done),
      failed: toNum(u?.failed),
      assessed: toNum(a?.assessed),
      flagged: toNum(a?.flagged),
      checkpoints: toNum(a?.checkpoints),
      errors: toNum(a?.errors),
      trajectoriesWithErrors: toNum(a?.witherrors),
    };
  });
  return { tau, criticModel: stored.criticModel, settings: stored.settings, methods, trajectories: stored.trajectories, estimatedCheckpoints: stored.checkpoints };
}

interface OrderJson {
  raw?: unknown;
  probabilities?: unknown;
  p?: unknown;
}
const orderOf = (v: unknown): { raw: string; probabilities: Record<string, number>; p: number | null } | null => {
  if (!v || typeof v !== "object") return null;
  const o = v as OrderJson;
  const probabilities: Record<string, number> = {};
  if (o.probabilities && typeof o.probabilities === "object") {
    for (const [k, x] of Object.entries(o.probabilities as Record<string, unknown>)) if (typeof x === "number") probabilities[k] = x;
  }
  return { raw: typeof o.raw === "string" ? o.raw : "", probabilities, p: typeof o.p === "number" ? o.p : null };
};

export interface TimelineCheckpoint {
  stepIndex: number;
  final: boolean;
  tool: string | null;
  amount: number | null;
  inferredTasks: string[];
  forward: ReturnType<typeof orderOf>;
  reverse: ReturnType<typeof orderOf>;
  detail: unknown;
  p: number | null;
  error: string | null;
  decision: CheckpointDecision;
  /** The human's (or the simulated user's) answer at this step, if the online gate asked. */
  intervention: { status: string; feedback: string | null; simulated: boolean; answeredBy: string | null; answeredAt: string | null } | null;
}

export interface CheckpointTimeline {
  assessmentId: string;
  method: CriticMethodName;
  criticModel: string;
  online: boolean;
  run: { id: string; name: string } | null;
  tau: number;
  settings: CriticSettings;
  createdAt: string;
  checkpointCount: number;
  errorCount: number;
  minP: number | null;
  /** Any checkpoint flagged or ERROR at τ. */
  flagged: boolean;
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  checkpoints: TimelineCheckpoint[];
}

/** Every critic assessment of a trajectory, newest first, with its checkpoints and the humans' answers. */
export async function loadCheckpointTimelines(db: Db, trajectoryId: string): Promise<CheckpointTimeline[]> {
  const [assessments, interventions] = await Promise.all([
    db.criticAssessment.findMany({
      where: { trajectoryId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      select: {
        id: true, method: true, criticModel: true, online: true, settings: true, createdAt: true, checkpointCount: true, errorCount: true, minP: true,
        inputTokens: true, outputTokens: true, costUsd: true,
        run: { select: { id: true, name: true, critic: true } },
        checkpoints: { orderBy: { stepIndex: "asc" }, select: { stepIndex: true, final: true, tool: true, amount: true, inferredTasks: true, forward: true, reverse: true, detail: true, p: true, error: true } },
      },
    }),
    db.intervention.findMany({
      where: { trajectoryId },
      select: { stepIndex: true, status: true, feedback: true, simulated: true, answeredAt: true, answeredBy: { select: { name: true } } },
    }),
  ]);
  const answers = new Map(interventions.map((i) => [i.stepIndex, i]));
  return assessments.map((a) => {
    const parsed = criticSettingsSchema.safeParse(a.settings);
    const settings = parsed.success ? parsed.data : { ...DEFAULT_CRITIC_SETTINGS, method: a.method };
    // The run's τ decides (a replay run's, or an episode run's gate); else the assessment's own.
    const runCritic = a.run?.critic as { settings?: { tau?: unknown }; gate?: { settings?: { tau?: unknown } } } | null | undefined;
    const runTau = runCritic?.settings?.tau ?? runCritic?.gate?.settings?.tau;
    const tau = typeof runTau === "number" ? runTau : settings.tau;
    const checkpoints = a.checkpoints.map((k): TimelineCheckpoint => {
      const i = answers.get(k.stepIndex);
      return {
        stepIndex: k.stepIndex, final: k.final, tool: k.tool, amount: k.amount, inferredTasks: k.inferredTasks,
        forward: orderOf(k.forward), reverse: orderOf(k.reverse), detail: k.detail, p: k.p, error: k.error,
        decision: decisionAt(k.p, tau),
        intervention: i ? { status: i.status, feedback: i.feedback, simulated: i.simulated, answeredBy: i.answeredBy?.name ?? null, answeredAt: i.answeredAt?.toISOString() ?? null } : null,
      };
    });
    return {
      assessmentId: a.id,
      method: a.method,
      criticModel: a.criticModel,
      online: a.online,
      run: a.run ? { id: a.run.id, name: a.run.name } : null,
      tau,
      settings,
      createdAt: a.createdAt.toISOString(),
      checkpointCount: a.checkpointCount,
      errorCount: a.errorCount,
      minP: a.minP,
      flagged: checkpoints.some((k) => k.decision !== "pass"),
      usage: { inputTokens: a.inputTokens, outputTokens: a.outputTokens, costUsd: a.costUsd },
      checkpoints,
    };
  });
}
