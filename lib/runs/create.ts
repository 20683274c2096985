// Creating a run: resolve the cases, expand to episodes, estimate, store, enqueue.
import "server-only";
import { randomInt } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { PROMPT_TEMPLATES } from "@/lib/engine/template-registry";
import { templateRef } from "@/lib/prompts/template";
import type { EpisodeQueue } from "@/lib/jobs/boss";
import { resolveCases } from "./cases";
import { storeRunAndQueue } from "./store-run";
import { estimateRun, MIN_OBSERVED, type EstimateEndpoint, type EstimateRole, type RunEstimate } from "./estimate";
import { MAX_EPISODES_PER_RUN, runInputSchema, storedGate, type RunInput, type RunSettings } from "./schemas";

export interface RunPreview {
  caseIds: string[];
  caseNames: string[];
  episodes: number;
  estimate: RunEstimate;
}

export async function loadEndpoints(db: Db, ids: string[]): Promise<Map<string, EstimateEndpoint & { model: string; offline: boolean }>> {
  const rows = await db.modelEndpoint.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, model: true, offline: true, priceInputPer1k: true, priceOutputPer1k: true },
  });
  const observed = await db.$queryRaw<{ endpointId: string; role: string; input: number; output: number; n: bigint }[]>`
    SELECT "endpointId", role, avg("inputTokens")::float8 AS input, avg("outputTokens")::float8 AS output, count(*) AS n
    FROM (SELECT "endpointId", role, "inputTokens", "outputTokens" FROM "LlmCall"
          WHERE "endpointId" = ANY(${ids}) AND error IS NULL AND NOT cached AND role IN ('agent', 'emulator', 'evaluator')
          ORDER BY id DESC LIMIT 20000) recent
    GROUP BY 1, 2`;
  const out = new Map<string, EstimateEndpoint & { model: string; offline: boolean }>();
  for (const r of rows) out.set(r.id, { ...r, observed: {} });
  for (const o of observed) {
    const ep = out.get(o.endpointId);
    if (ep && Number(o.n) >= MIN_OBSERVED) ep.observed![o.role as EstimateRole] = { input: o.input, output: o.output };
  }
  const missing = ids.filter((id) => !out.has(id));
  if (missing.length) throw new AppError("A chosen model endpoint no longer exists; reload the page.", 422);
  return out;
}

/** Resolves the cases and estimates the run, writing nothing. */
export async function previewRun(db: Db, input: RunInput | RunSettings): Promise<RunPreview> {
  const s = runInputSchema.parse(input);
  const cases = await resolveCases(db, s.cases);
  const gate = s.critic?.gate;
  const gateIds = gate ? [gate.endpointId, ...(gate.answerer === "simulated" && gate.simulatedUserEndpointId ? [gate.simulatedUserEndpointId] : [])] : [];
  const endpointIds = [...new Set([...s.agents.map((a) => a.endpointId), s.emulatorEndpointId, ...(s.evaluatorEndpointId ? [s.evaluatorEndpointId] : []), ...gateIds])];
  const endpoints = await loadEndpoints(db, endpointIds);

  // Size per case, in SQL (no JSON shipped to the app): its instruction, and its toolkits'
  // descriptions and tools as the prompts render them.
  const sizes = cases.length
    ? await db.$queryRaw<{ id: string; instr: number; spec: number }[]>`
        SELECT c.id, length(c."userInstruction") AS instr,
               COALESCE((SELECT sum(length(k."descriptionForModel")
                          + (SELECT COALESCE(sum(length(t."agentName") + length(t.summary) + length(t.parameters::text) + length(t.returns::text) + length(t.exceptions::text)), 0)
                             FROM "Tool" t WHERE t."toolkitId" = k.id))
                         FROM "TestCaseToolkit" tc JOIN "Toolkit" k ON k.id = tc."toolkitId" WHERE tc."caseId" = c.id), 0)::int AS spec
        FROM "TestCase" c WHERE c.id IN (${Prisma.join(cases.map((c) => c.id))})`
    : [];
  const sizeOf = new Map(sizes.map((r) => [r.id, r]));

  const mean = await db.$queryRaw<{ m: number | null }[]>`
    SELECT avg("stepCount")::float8 AS m FROM "Trajectory" WHERE status IN ('FINISHED', 'INCOMPLETE')`;

  const estimate = estimateRun({
    cases: cases.map((c) => ({ id: c.id, instructionTokens: Math.ceil((sizeOf.get(c.id)?.instr ?? 0) / 4), specTokens: Math.ceil((sizeOf.get(c.id)?.spec ?? 0) / 4) })),
    agents: s.agents.map((a) => ({ endpoint: endpoints.get(a.endpointId)!, variant: a.variant })),
    emulator: endpoints.get(s.emulatorEndpointId)!,
    evaluator: s.evaluatorEndpointId ? endpoints.get(s.evaluatorEndpointId)! : null,
    modes: s.modes,
    repeats: s.repeats,
    selfCritiqueRounds: s.emulatorCritiqueRounds,
    loopMode: s.loopMode,
    meanSteps: mean[0]?.m ?? null,
  });
  return { caseIds: cases.map((c) => c.id), caseNames: cases.map((c) => c.name), episodes: estimate.episodes, estimate };
}

export interface EpisodeKey {
  caseId: string;
  agentEndpointId: string;
  variant: string;
  mode: "STANDARD" | "ADVERSARIAL";
  repeat: number;
  position: number;
}

/**
 * Every (case, agent, variant, mode, repeat) of the run, in the order they are queued: repeat,
 * then case, then mode, then agent — so the agents and modes of a case finish close together
 * and early partial results compare like with like.
 */
export function expandEpisodes(s: Pick<RunSettings, "agents" | "modes" | "repeats">, caseIds: string[]): EpisodeKey[] {
  const out: EpisodeKey[] = [];
  for (let repeat = 0; repeat < s.repeats; repeat++) {
    for (const caseId of caseIds) {
      for (const mode of s.modes) {
        for (const a of s.agents) out.push({ caseId, agentEndpointId: a.endpointId, variant: a.variant, mode, repeat, position: out.length });
      }
    }
  }
  return out;
}

/**
 * The templates a run's episodes use: the newest version of each (older ones stay in the registry
 * for the trajectories that name them), the self-critique one only when its rounds are on.
 */
export function promptVersions(selfCritiqueRounds = 0, gated = false): string[] {
  // Only the parts an episode run plays: agent, emulator, critique, evaluator — and, with the online
  // critic gate, the critic and the simulated user. SAGE's templates belong to SAGE runs.
  const roles = new Set<string>(["agent", "emulator", "critique", "evaluator", ...(gated ? ["critic", "simulated-user"] : [])]);
  const newest = PROMPT_TEMPLATES.filter((t) => roles.has(t.role) && !PROMPT_TEMPLATES.some((o) => o.id === t.id && o.version > t.version));
  return newest.filter((t) => selfCritiqueRounds > 0 || t.id !== "emulator.self_critique").map(templateRef);
}

/** Creates the run and its episodes in one transaction, then queues one job per episode (./store-run.ts). */
export async function createRun(
  db: Db,
  actorId: string | null,
  input: RunInput | RunSettings,
  queue: EpisodeQueue | null,
  opts: { rerunOfId?: string } = {},
): Promise<{ id: string; episodes: number; estimate: RunEstimate }> {
  const s = runInputSchema.parse(input);
  const preview = await previewRun(db, s);
  if (preview.episodes === 0) throw new AppError("The selection has no cases, so the run would have no episodes.", 422);
  if (preview.episodes > MAX_EPISODES_PER_RUN) throw new AppError(`That is ${preview.episodes} episodes; a run may have at most ${MAX_EPISODES_PER_RUN}.`, 422);
  const seed = s.seed ?? randomInt(0, 2 ** 31);
  const episodes = expandEpisodes(s, preview.caseIds);

  const run = await storeRunAndQueue(db, queue, actorId, async () => ({
    data: {
      name: s.name,
      notes: s.notes,
      caseSelection: s.cases as Prisma.InputJsonValue,
      caseIds: preview.caseIds,
      agents: s.agents as unknown as Prisma.InputJsonValue,
      emulatorEndpointId: s.emulatorEndpointId,
      modes: s.modes,
      evaluatorEndpointId: s.evaluatorEndpointId ?? null,
      repeats: s.repeats,
      emulatorCritiqueRounds: s.emulatorCritiqueRounds,
      loopMode: s.loopMode,
      seed,
      promptVersions: promptVersions(s.emulatorCritiqueRounds, !!s.critic),
      critic: s.critic ? (s.critic as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
      estimate: preview.estimate as unknown as Prisma.InputJsonValue,
      rerunOfId: opts.rerunOfId ?? null,
    },
    units: episodes,
    audit: { name: s.name, episodes: episodes.length, rerunOfId: opts.rerunOfId },
  }));
  return { id: run.id, episodes: run.units, estimate: preview.estimate };
}

/**
 * Queues a job for each QUEUED episode of the run (all of them, or the given ones). A worker's
 * reconciler does the same for episodes left without a job (e.g. the web app stopped between
 * storing the run and queueing it), so this may fail without losing the run.
 */
export async function enqueueQueued(db: Db, queue: EpisodeQueue, runId: string, onlyIds?: string[]): Promise<number> {
  const eps = await db.runEpisode.findMany({
    where: { runId, status: "QUEUED", ...(onlyIds ? { id: { in: onlyIds } } : {}) },
    orderBy: { position: "asc" },
    select: { id: true, runId: true, caseId: true, agentEndpointId: true, variant: true, mode: true, repeat: true, position: true },
  });
  if (eps.length) await queue.send(eps);
  return eps.length;
}

/** "Re-run as new": a new run with the same cases, agents, emulator, evaluator, modes, repeats and seed. */
export async function rerunAsNew(db: Db, actorId: string | null, runId: string, queue: EpisodeQueue | null, name?: string) {
  const r = await db.run.findUnique({ where: { id: runId } });
  if (!r) throw new AppError("No such run.", 404);
  if (r.kind !== "EPISODES" || !r.emulatorEndpointId) throw new AppError("An evaluation run is re-run with rerunEvaluationRun.", 409);
  return createRun(
    db,
    actorId,
    {
      name: name ?? `${r.name} (re-run)`,
      notes: r.notes,
      cases: { kind: "ids", ids: r.caseIds },
      agents: r.agents as RunSettings["agents"],
      emulatorEndpointId: r.emulatorEndpointId,
      modes: r.modes,
      evaluatorEndpointId: r.evaluatorEndpointId,
      repeats: r.repeats,
      emulatorCritiqueRounds: r.emulatorCritiqueRounds,
      loopMode: r.loopMode,
      seed: r.seed,
      critic: storedGate(r.critic) ? { gate: storedGate(r.critic)! } : null,
    },
    queue,
    { rerunOfId: r.id },
  );
}
