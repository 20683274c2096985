// What the runs list, the run page (polled live) and `npm run cli -- run status` read.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { RunEstimate } from "./estimate";
import type { RunAgent } from "./schemas";
import type { StoredEvaluationSettings } from "./evaluation/schemas";
import { replicateName } from "./evaluation/naming";
import type { StoredCriticRunSettings } from "./critic/schemas";
import { criticRunSummary } from "./critic/queries";
import type { StoredSageRunSettings } from "./sage/schemas";
import { sageRunSummary } from "./sage/queries";
import { storedGate } from "./schemas";
import { successOverTrials } from "./trials";

/** waiting: paused by the online critic gate until a flagged call is answered (lib/runs/online-gate.ts). */
export type EpisodeCounts = Record<"queued" | "running" | "waiting" | "done" | "failed" | "cancelled" | "total", number>;

const toNum = (v: unknown) => (typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : Number(v ?? 0));

/**
 * The LLM calls a run made: its episodes' (by trajectory), or an evaluation run's (by runId —
 * their trajectory is the one scored, which may belong to another run; those calls are not that
 * run's, hence `c."runId" IS NULL` on the first branch).
 */
function runCalls(runIds: string[]): Prisma.Sql {
  const ids = Prisma.join(runIds);
  return Prisma.sql`(
    SELECT t."runId" AS "ofRun", c.* FROM "LlmCall" c JOIN "Trajectory" t ON t.id = c."trajectoryId" WHERE t."runId" IN (${ids}) AND c."runId" IS NULL
    UNION ALL
    SELECT c."runId" AS "ofRun", c.* FROM "LlmCall" c WHERE c."runId" IN (${ids}))`;
}

export async function episodeCounts(db: Db, runIds: string[]): Promise<Map<string, EpisodeCounts>> {
  const out = new Map<string, EpisodeCounts>();
  for (const id of runIds) out.set(id, { queued: 0, running: 0, waiting: 0, done: 0, failed: 0, cancelled: 0, total: 0 });
  if (!runIds.length) return out;
  const rows = await db.runEpisode.groupBy({ by: ["runId", "status"], where: { runId: { in: runIds } }, _count: { _all: true } });
  for (const r of rows) {
    const c = out.get(r.runId)!;
    const k = r.status.toLowerCase() as keyof EpisodeCounts;
    c[k] += r._count._all;
    c.total += r._count._all;
  }
  return out;
}

export async function listRuns(db: Db, take = 200) {
  const runs = await db.run.findMany({
    orderBy: { createdAt: "desc" },
    take,
    select: {
      id: true, kind: true, name: true, status: true, createdAt: true, startedAt: true, finishedAt: true, modes: true, repeats: true, agents: true, evaluation: true,
      createdBy: { select: { name: true } },
      emulatorEndpoint: { select: { name: true } },
      evaluatorEndpoint: { select: { name: true } },
    },
  });
  const counts = await episodeCounts(db, runs.map((r) => r.id));
  const cost = runs.length
    ? await db.$queryRaw<{ runId: string; cost: number | null }[]>`
        SELECT c."ofRun" AS "runId", sum(c."costUsd")::float8 AS cost FROM ${runCalls(runs.map((r) => r.id))} c GROUP BY 1`
    : [];
  const costOf = new Map(cost.map((c) => [c.runId, c.cost ?? 0]));
  return runs.map((r) => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    createdBy: r.createdBy?.name ?? null,
    emulator: r.emulatorEndpoint?.name ?? null,
    evaluator: r.evaluatorEndpoint?.name ?? null,
    evaluatorBase: (r.evaluation as StoredEvaluationSettings | null)?.evaluatorBase ?? null,
    modes: r.modes,
    agents: (r.agents as RunAgent[]).length,
    counts: counts.get(r.id)!,
    costUsd: costOf.get(r.id) ?? 0,
  }));
}
export type RunListRow = Awaited<ReturnType<typeof listRuns>>[number];

export interface ErrorCause {
  kind: string;
  /** Attempts that failed this way and were retried. */
  retried: number;
  /** Episodes that ended FAILED this way. */
  final: number;
  latest: { at: string; message: string; runEpisodeId: string | null; attempt: number }[];
}

export interface AgentResult {
  agentEndpointId: string;
  agent: string;
  variant: string;
  mode: string;
  finished: number;
  failed: number;
  failureRate: number | null;
  safety: { mean: number | null; n: number };
  helpfulness: { mean: number | null; n: number };
}

/** The run page's live view: everything but the episode list. */
export async function loadRunProgress(db: Db, runId: string) {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: {
      id: true, kind: true, name: true, notes: true, status: true, createdAt: true, startedAt: true, finishedAt: true, seed: true, repeats: true, emulatorCritiqueRounds: true, loopMode: true, modes: true,
      caseSelection: true, caseIds: true, agents: true, promptVersions: true, estimate: true, rerunOfId: true, evaluation: true, critic: true, sage: true,
      createdBy: { select: { name: true } },
      emulatorEndpoint: { select: { id: true, name: true, model: true, offline: true } },
      evaluatorEndpoint: { select: { id: true, name: true, model: true, offline: true } },
    },
  });
  if (!run) return null;
  const counts = (await episodeCounts(db, [runId])).get(runId)!;

  const [usage] = await db.$queryRaw<{ calls: bigint; input: bigint | null; output: bigint | null; cost: number | null; retried: bigint | null }[]>`
    SELECT count(*) AS calls, sum(c."inputTokens") AS input, sum(c."outputTokens") AS output, sum(c."costUsd")::float8 AS cost,
           sum(c.attempts - 1) FILTER (WHERE c.attempts > 1) AS retried
    FROM ${runCalls([runId])} c`;
  const [discarded] = await db.$queryRaw<{ input: bigint | null; output: bigint | null; cost: number | null }[]>`
    SELECT sum("inputTokens") AS input, sum("outputTokens") AS output, sum("costUsd")::float8 AS cost FROM "RunError" WHERE "runId" = ${runId}`;

  // Observed rate: episodes ended per second since the first one started.
  const [timing] = await db.$queryRaw<{ first: Date | null; last: Date | null; ended: bigint }[]>`
    SELECT min("startedAt") AS first, max("finishedAt") AS last, count(*) FILTER (WHERE status IN ('DONE', 'FAILED')) AS ended
    FROM "RunEpisode" WHERE "runId" = ${runId}`;
  const ended = toNum(timing?.ended);
  const remaining = counts.queued + counts.running;
  let etaSeconds: number | null = null;
  let ratePerMinute: number | null = null;
  if (timing?.first && ended >= 2 && (run.status === "RUNNING" || run.status === "QUEUED")) {
    const elapsed = (Date.now() - timing.first.getTime()) / 1000;
    const rate = ended / Math.max(1, elapsed);
    ratePerMinute = rate * 60;
    etaSeconds = remaining > 0 ? Math.round(remaining / rate) : 0;
  }

  // Errors by cause: failed attempts (retried or final) and, from the calls, retries inside the LLM client.
  const errRows = await db.$queryRaw<{ kind: string; retried: bigint; final: bigint }[]>`
    SELECT kind, count(*) FILTER (WHERE NOT final) AS retried, count(*) FILTER (WHERE final) AS final
    FROM "RunError" WHERE "runId" = ${runId} GROUP BY kind ORDER BY count(*) DESC`;
  const latest = await db.$queryRaw<{ kind: string; at: Date; message: string; runEpisodeId: string | null; attempt: number }[]>`
    SELECT kind, at, message, "runEpisodeId", attempt FROM (
      SELECT *, row_number() OVER (PARTITION BY kind ORDER BY id DESC) AS rn FROM "RunError" WHERE "runId" = ${runId}) x
    WHERE rn <= 3 ORDER BY at DESC`;
  const errors: ErrorCause[] = errRows.map((r) => ({
    kind: r.kind,
    retried: toNum(r.retried),
    final: toNum(r.final),
    latest: latest.filter((l) => l.kind === r.kind).map((l) => ({ at: l.at.toISOString(), message: l.message, runEpisodeId: l.runEpisodeId, attempt: l.attempt })),
  }));
  const callRetries = await db.$queryRaw<{ reason: string; n: bigint; latest: string }[]>`
    SELECT split_part(r, ' ', 1) AS reason, count(*) AS n, max(r) AS latest
    FROM ${runCalls([runId])} c, unnest(c."retryReasons") r
    GROUP BY 1 ORDER BY 2 DESC`;

  // Per agent × variant × mode: finished episodes, failures and mean scores (any evaluator of the run).
  const agentRows = await db.$queryRaw<{ agentEndpointId: string; agent: string; variant: string; mode: string; finished: bigint; failed: bigint; safety: number | null; safetyN: bigint; help: number | null; helpN: bigint }[]>`
    SELECT e."agentEndpointId", m.name AS agent, e.variant, e.mode::text AS mode,
           count(*) FILTER (WHERE e.status = 'DONE') AS finished,
           count(*) FILTER (WHERE e.status = 'FAILED') AS failed,
           avg(s.score)::float8 AS safety, count(s.score) AS "safetyN",
           avg(h.score)::float8 AS help, count(h.score) AS "helpN"
    FROM "RunEpisode" e
    JOIN "ModelEndpoint" m ON m.id = e."agentEndpointId"
    LEFT JOIN LATERAL (SELECT score FROM "Evaluation" v WHERE v."trajectoryId" = e."trajectoryId" AND e.status = 'DONE' AND v.kind = 'SAFETY' ORDER BY v."createdAt" DESC LIMIT 1) s ON true
    LEFT JOIN LATERAL (SELECT score FROM "Evaluation" v WHERE v."trajectoryId" = e."trajectoryId" AND e.status = 'DONE' AND v.kind = 'HELPFULNESS' ORDER BY v."createdAt" DESC LIMIT 1) h ON true
    WHERE e."runId" = ${runId}
    GROUP BY 1, 2, 3, 4 ORDER BY 2, 3, 4`;
  const agents: AgentResult[] = agentRows.map((r) => {
    const finished = toNum(r.finished);
    const failed = toNum(r.failed);
    return {
      agentEndpointId: r.agentEndpointId, agent: r.agent, variant: r.variant, mode: r.mode, finished, failed,
      failureRate: finished + failed > 0 ? failed / (finished + failed) : null,
      safety: { mean: r.safety, n: toNum(r.safetyN) },
      helpfulness: { mean: r.help, n: toNum(r.helpN) },
    };
  });

  const endpointNames = new Map(
    (await db.modelEndpoint.findMany({ where: { id: { in: (run.agents as RunAgent[]).map((a) => a.endpointId) } }, select: { id: true, name: true, model: true, offline: true } })).map((e) => [e.id, e]),
  );

  const evaluation = run.kind === "EVALUATION" && run.evaluation ? run.evaluation as unknown as StoredEvaluationSettings : null;
  const critic = run.kind === "CRITIC" && run.critic ? await criticRunSummary(db, runId, run.critic as unknown as StoredCriticRunSettings) : null;
  const gate = run.kind === "EPISODES" ? await gateSummary(db, runId, run.critic) : null;
  const sage = run.kind === "SAGE" && run.sage ? await sageRunSummary(db, runId, run.sage as unknown as StoredSageRunSettings) : null;

  return {
    id: run.id,
    kind: run.kind,
    name: run.name,
    notes: run.notes,
    status: run.status,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    createdBy: run.createdBy?.name ?? null,
    seed: run.seed,
    repeats: run.repeats,
    emulatorCritiqueRounds: run.emulatorCritiqueRounds,
    loopMode: run.loopMode,
    modes: run.modes,
    caseSelection: run.caseSelection,
    caseCount: run.caseIds.length,
    rerunOfId: run.rerunOfId,
    promptVersions: run.promptVersions as string[],
    agents: (run.agents as RunAgent[]).map((a) => ({ ...a, name: endpointNames.get(a.endpointId)?.name ?? "(deleted)", model: endpointNames.get(a.endpointId)?.model ?? "", offline: !!endpointNames.get(a.endpointId)?.offline })),
    emulator: run.emulatorEndpoint,
    evaluator: run.evaluatorEndpoint,
    estimate: run.estimate as RunEstimate | null,
    counts,
    etaSeconds,
    ratePerMinute,
    usage: {
      calls: toNum(usage?.calls),
      inputTokens: toNum(usage?.input) + toNum(discarded?.input),
      outputTokens: toNum(usage?.output) + toNum(discarded?.output),
      costUsd: (usage?.cost ?? 0) + (discarded?.cost ?? 0),
      discardedCostUsd: discarded?.cost ?? 0,
      callRetries: toNum(usage?.retried),
    },
    errors,
    callRetries: callRetries.map((r) => ({ reason: r.reason, n: toNum(r.n), latest: r.latest })),
    agentResults: agents,
    evaluation,
    evaluationResults: evaluation ? await evaluationResults(db, runId, evaluation.evaluatorBase) : [],
    /** A critic replay run's results per method (lib/runs/critic/queries.ts). */
    critic,
    /** An episode run's online critic gate, its interventions and success over trials; null without a gate. */
    gate,
    /** A SAGE run's settings and its progress per authority context (lib/runs/sage/queries.ts). */
    sage,
  };
}

/** The online critic gate of an episode run, for the run page: settings, answers so far, success after N trials. */
async function gateSummary(db: Db, runId: string, critic: unknown) {
  const g = storedGate(critic);
  if (!g) return null;
  const endpoints = await db.modelEndpoint.findMany({ where: { id: { in: [g.endpointId, ...(g.simulatedUserEndpointId ? [g.simulatedUserEndpointId] : [])] } }, select: { id: true, name: true, model: true, offline: true } });
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const answers = await db.intervention.groupBy({ by: ["status", "simulated"], where: { runId }, _count: { _all: true } });
  const withFeedback = await db.intervention.count({ where: { runId, status: "REJECTED", feedback: { not: null } } });
  const count = (status: "PENDING" | "APPROVED" | "REJECTED") => answers.filter((a) => a.status === status).reduce((n, a) => n + a._count._all, 0);
  const assessed = await db.criticCheckpoint.count({ where: { assessment: { runId, online: true } } });
  return {
    critic: byId.get(g.endpointId) ?? null,
    settings: g.settings,
    answerer: g.answerer,
    simulatedUser: g.simulatedUserEndpointId ? (byId.get(g.simulatedUserEndpointId) ?? null) : null,
    maxTrials: g.maxTrials,
    /** Gated calls the critic judged. */
    assessed,
    interventions: { pending: count("PENDING"), approved: count("APPROVED"), rejected: count("REJECTED"), withFeedback, simulated: answers.filter((a) => a.simulated).reduce((n, a) => n + a._count._all, 0) },
    trials: await successOverTrials(db, runId),
  };
}

export interface EvaluationResult {
  kind: "SAFETY" | "HELPFULNESS";
  replicate: number;
  /** The evaluator name the dashboards list ("model · evaluator@v · rN"). */
  evaluator: string;
  done: number;
  failed: number;
  total: number;
  /** Parsed scores and their mean. */
  scored: number;
  mean: number | null;
  /** Done, but the output could not be parsed (score null). */
  unparsed: number;
}

/** An evaluation run's results per kind × replicate, from its units and the rows they wrote. */
async function evaluationResults(db: Db, runId: string, base: string): Promise<EvaluationResult[]> {
  const rows = await db.$queryRaw<{ kind: "SAFETY" | "HELPFULNESS"; repeat: number; done: bigint; failed: bigint; total: bigint; scored: bigint; mean: number | null; unparsed: bigint }[]>`
    SELECT e."evalKind"::text AS kind, e.repeat,
           count(*) FILTER (WHERE e.status = 'DONE') AS done, count(*) FILTER (WHERE e.status = 'FAILED') AS failed, count(*) AS total,
           count(v.score) AS scored, avg(v.score)::float8 AS mean, count(v.id) FILTER (WHERE v.score IS NULL) AS unparsed
    FROM "RunEpisode" e
    LEFT JOIN "Evaluation" v ON e.status = 'DONE' AND v."trajectoryId" = e."sourceTrajectoryId" AND v.kind = e."evalKind"
         AND v."evaluatorModel" = ${base} || ' · r' || (e.repeat + 1)
    WHERE e."runId" = ${runId}
    GROUP BY 1, 2 ORDER BY 2, 1`;
  return rows.map((r) => ({
    kind: r.kind,
    replicate: r.repeat + 1,
    evaluator: replicateName(base, r.repeat + 1),
    done: toNum(r.done),
    failed: toNum(r.failed),
    total: toNum(r.total),
    scored: toNum(r.scored),
    mean: r.mean,
    unparsed: toNum(r.unparsed),
  }));
}
export type RunProgress = NonNullable<Awaited<ReturnType<typeof loadRunProgress>>>;

export const EPISODE_PAGE_SIZE = 100;
export const EPISODE_FILTERS = ["all", "queued", "running", "waiting", "done", "failed", "cancelled"] as const;
export type EpisodeFilter = (typeof EPISODE_FILTERS)[number];

export async function listRunEpisodes(db: Db, runId: string, filter: EpisodeFilter = "all", page = 1) {
  const where: Prisma.RunEpisodeWhereInput = { runId, ...(filter === "all" ? {} : { status: filter.toUpperCase() as Prisma.EnumRunEpisodeStatusFilter["equals"] }) };
  const total = await db.runEpisode.count({ where });
  const pages = Math.max(1, Math.ceil(total / EPISODE_PAGE_SIZE));
  const p = Math.min(Math.max(1, page), pages);
  const rows = await db.runEpisode.findMany({
    where,
    orderBy: filter === "done" || filter === "failed" ? { finishedAt: "desc" } : { position: "asc" },
    skip: (p - 1) * EPISODE_PAGE_SIZE,
    take: EPISODE_PAGE_SIZE,
    select: {
      id: true, status: true, variant: true, mode: true, repeat: true, attempts: true, lastError: true, errorKind: true, trajectoryId: true, startedAt: true, finishedAt: true,
      sourceTrajectoryId: true, evalKind: true, criticMethod: true, trial: true,
      case: { select: { name: true } },
      scenario: { select: { instanceId: true } },
      authority: true,
      agentEndpoint: { select: { name: true } },
      trajectory: { select: { stepCount: true, stopReason: true, status: true, evaluations: { select: { kind: true, score: true } } } },
    },
  });
  // Evaluation units: the score each wrote.
  const run = rows.some((r) => r.evalKind) ? await db.run.findUnique({ where: { id: runId }, select: { evaluation: true } }) : null;
  const base = (run?.evaluation as StoredEvaluationSettings | null | undefined)?.evaluatorBase;
  const unitScores = new Map<string, number | null>();
  if (base) {
    const done = rows.filter((r) => r.sourceTrajectoryId && r.evalKind && r.status === "DONE");
    const evals = done.length
      ? await db.evaluation.findMany({
          where: { OR: done.map((r) => ({ trajectoryId: r.sourceTrajectoryId!, kind: r.evalKind!, evaluatorModel: replicateName(base, r.repeat + 1) })) },
          select: { trajectoryId: true, kind: true, evaluatorModel: true, score: true },
        })
      : [];
    for (const v of evals) unitScores.set(`${v.trajectoryId}:${v.kind}:${v.evaluatorModel}`, v.score);
  }
  // Critic units: the assessment each wrote (checkpoints, min p, flagged at the run's τ).
  const criticRows = rows.filter((r) => r.criticMethod && r.sourceTrajectoryId && r.status === "DONE");
  const criticOf = new Map<string, { checkpoints: number; minP: number | null; errors: number; flagged: boolean }>();
  if (criticRows.length) {
    const cr = await db.run.findUnique({ where: { id: runId }, select: { critic: true } });
    const tau = (cr?.critic as StoredCriticRunSettings | null)?.settings?.tau ?? 0.5;
    const found = await db.criticAssessment.findMany({
      where: { runId, trajectoryId: { in: criticRows.map((r) => r.sourceTrajectoryId!) } },
      select: { trajectoryId: true, method: true, checkpointCount: true, minP: true, errorCount: true },
    });
    for (const a of found) criticOf.set(`${a.trajectoryId}:${a.method}`, { checkpoints: a.checkpointCount, minP: a.minP, errors: a.errorCount, flagged: a.minP !== null && a.minP <= tau });
  }
  const unitScore = (r: (typeof rows)[number], kind: "SAFETY" | "HELPFULNESS") =>
    base && r.evalKind === kind ? (unitScores.get(`${r.sourceTrajectoryId}:${kind}:${replicateName(base, r.repeat + 1)}`) ?? null) : null;
  return {
    total,
    page: p,
    pages,
    rows: rows.map((r) => ({
      // A SAGE episode names its scenario (instance_id) and authority context.
      id: r.id, status: r.status, case: r.case?.name ?? r.scenario?.instanceId ?? "?", authority: r.authority, agent: r.agentEndpoint?.name ?? null, variant: r.variant, mode: r.mode, repeat: r.repeat, attempts: r.attempts,
      lastError: r.lastError, errorKind: r.errorKind, trajectoryId: r.trajectoryId ?? r.sourceTrajectoryId, evalKind: r.evalKind, criticMethod: r.criticMethod, trial: r.trial,
      critic: r.criticMethod ? (criticOf.get(`${r.sourceTrajectoryId}:${r.criticMethod}`) ?? null) : null,
      startedAt: r.startedAt?.toISOString() ?? null, finishedAt: r.finishedAt?.toISOString() ?? null,
      steps: r.trajectory?.stepCount ?? null, stopReason: r.trajectory?.stopReason ?? null,
      safety: r.evalKind ? unitScore(r, "SAFETY") : (r.trajectory?.evaluations.find((e) => e.kind === "SAFETY")?.score ?? null),
      helpfulness: r.evalKind ? unitScore(r, "HELPFULNESS") : (r.trajectory?.evaluations.find((e) => e.kind === "HELPFULNESS")?.score ?? null),
    })),
  };
}
export type RunEpisodePage = Awaited<ReturnType<typeof listRunEpisodes>>;

/** Choices for the new-run form: endpoints (never keys), toolkits with their case counts. */
export async function loadRunFormOptions(db: Db) {
  const [endpoints, toolkits, totalCases] = await Promise.all([
    db.modelEndpoint.findMany({
      orderBy: [{ offline: "desc" }, { name: "asc" }],
      select: { id: true, name: true, model: true, offline: true, priceInputPer1k: true, priceOutputPer1k: true, maxConcurrency: true },
    }),
    db.toolkit.findMany({ orderBy: { name: "asc" }, select: { name: true, _count: { select: { cases: true } } } }),
    db.testCase.count(),
  ]);
  return {
    endpoints,
    toolkits: toolkits.filter((t) => t._count.cases > 0).map((t) => ({ name: t.name, cases: t._count.cases })),
    totalCases,
  };
}
export type RunFormOptions = Awaited<ReturnType<typeof loadRunFormOptions>>;
