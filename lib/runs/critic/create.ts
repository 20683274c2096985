// Creating a critic replay run (issue 13 item 7): resolve the trajectories (the evaluation runs'
// selection), count their checkpoints from the stored steps and each case's critical tools,
// estimate, then store the run and one unit per trajectory × method in one transaction and queue
// them on the same `episode` queue — the same workers, claim, leases, retries, pause/resume/cancel
// and progress as the other run kinds. A unit's assessment is written by ./unit.ts.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import type { EpisodeQueue } from "@/lib/jobs/boss";
import { criticContextForCases } from "@/lib/critic/context";
import { CRITIC_METHOD_LABELS, type CriticMethodName } from "@/lib/critic/settings";
import { loadEndpoints } from "../create";
import { storeRunAndQueue } from "../store-run";
import { MIN_OBSERVED } from "../estimate";
import { resolveTrajectories, type SelectedTrajectory } from "../evaluation/selection";
import { checkpointChains, estimateCriticRun, type CriticRunEstimate } from "./estimate";
import { CRITIC_UNIT_VARIANT, MAX_CRITIC_UNITS_PER_RUN, criticRunInputSchema, type CriticRunInput, type CriticRunSettings, type StoredCriticRunSettings } from "./schemas";

export interface CriticRunPreview {
  trajectories: number;
  /** Matched but still being played: left out. */
  running: number;
  description: string;
  /** trajectories × methods. */
  units: number;
  checkpoints: number;
  criticModel: string;
  estimate: CriticRunEstimate;
}

interface Resolved extends CriticRunPreview {
  settings: CriticRunSettings;
  selected: SelectedTrajectory[];
}

/** Per trajectory of the selection: the chain size at each checkpoint (its case's critical tools). */
async function checkpointsOf(db: Db, selected: SelectedTrajectory[]) {
  const ids = selected.map((t) => t.id);
  if (!ids.length) return [];
  const contexts = await criticContextForCases(db, [...new Set(selected.map((t) => t.caseId))]);
  const trajectories = await db.$queryRaw<{ id: string; caseId: string; final: number | null }[]>`
    SELECT id, "caseId", length("finalAnswer") AS final FROM "Trajectory" WHERE id = ANY(${ids})`;
  const steps = await db.$queryRaw<{ trajectoryId: string; action: string | null; input: number; obs: number }[]>`
    SELECT "trajectoryId", action, COALESCE(length("actionInputRaw"), 0) AS input, COALESCE(length("observationRaw"), 0) AS obs
    FROM "Step" WHERE "trajectoryId" = ANY(${ids}) ORDER BY "trajectoryId", index`;
  const byTrajectory = new Map<string, { action: string; inputChars: number; observationChars: number }[]>();
  for (const s of steps) {
    const list = byTrajectory.get(s.trajectoryId) ?? [];
    list.push({ action: s.action ?? "", inputChars: s.input, observationChars: s.obs });
    byTrajectory.set(s.trajectoryId, list);
  }
  const rows = new Map(trajectories.map((t) => [t.id, t]));
  return selected.map((t) => {
    const row = rows.get(t.id)!;
    const ctx = contexts.get(t.caseId);
    if (!ctx) throw new AppError(`The case of trajectory ${t.id} has no critic context.`, 422);
    return {
      instructionChars: ctx.instruction.length,
      chainChars: checkpointChains(byTrajectory.get(t.id) ?? [], row.final !== null, row.final ?? 0, ctx.criticalTools),
    };
  });
}

/** The endpoint's mean critic-call size, when it has made enough of them. */
async function observedCritic(db: Db, endpointId: string) {
  const [r] = await db.$queryRaw<{ input: number | null; output: number | null; n: bigint }[]>`
    SELECT avg("inputTokens")::float8 AS input, avg("outputTokens")::float8 AS output, count(*) AS n
    FROM (SELECT "inputTokens", "outputTokens" FROM "LlmCall" WHERE "endpointId" = ${endpointId} AND role = 'critic' AND error IS NULL AND NOT cached
          ORDER BY id DESC LIMIT 20000) recent`;
  return r && Number(r.n) >= MIN_OBSERVED && r.input !== null && r.output !== null ? { input: r.input, output: r.output } : undefined;
}

async function resolve(db: Db, input: CriticRunInput | CriticRunSettings): Promise<Resolved> {
  const s = criticRunInputSchema.parse(input);
  const endpoint = (await loadEndpoints(db, [s.endpointId])).get(s.endpointId)!;
  const sel = await resolveTrajectories(db, s.trajectories);
  const chains = await checkpointsOf(db, sel.trajectories);
  const estimate = estimateCriticRun({ trajectories: chains, methods: s.methods, settings: s.settings, endpoint: { ...endpoint, observedCritic: await observedCritic(db, s.endpointId) } });
  return {
    settings: s,
    selected: sel.trajectories,
    trajectories: sel.trajectories.length,
    running: sel.running,
    description: sel.description,
    units: sel.trajectories.length * s.methods.length,
    checkpoints: estimate.checkpoints,
    criticModel: endpoint.model,
    estimate,
  };
}

/** Resolves the selection, counts the checkpoints and estimates the run, writing nothing. */
export async function previewCriticRun(db: Db, input: CriticRunInput | CriticRunSettings): Promise<CriticRunPreview> {
  const { settings: _s, selected: _t, ...preview } = await resolve(db, input);
  return preview;
}

/** Units in queue order: method, then trajectory (the first method's results are complete first). */
export function expandCriticUnits(trajectories: SelectedTrajectory[], methods: readonly CriticMethodName[]) {
  const out: { caseId: string; mode: "STANDARD" | "ADVERSARIAL"; sourceTrajectoryId: string; criticMethod: CriticMethodName; repeat: number; position: number }[] = [];
  for (const method of methods) {
    for (const t of trajectories) out.push({ caseId: t.caseId, mode: t.mode, sourceTrajectoryId: t.id, criticMethod: method, repeat: 0, position: out.length });
  }
  return out;
}

export async function createCriticRun(
  db: Db,
  actorId: string | null,
  input: CriticRunInput | CriticRunSettings,
  queue: EpisodeQueue | null,
): Promise<{ id: string; units: number; checkpoints: number; estimate: CriticRunEstimate }> {
  const p = await resolve(db, input);
  const s = p.settings;
  if (p.trajectories === 0) throw new AppError(`The selection (${p.description}) has no trajectories to assess${p.running ? ` (${p.running} are still being played)` : ""}.`, 422);
  if (p.units > MAX_CRITIC_UNITS_PER_RUN) throw new AppError(`That is ${p.units} assessments; a run may have at most ${MAX_CRITIC_UNITS_PER_RUN}.`, 422);
  const units = expandCriticUnits(p.selected, s.methods);
  const stored: StoredCriticRunSettings = {
    methods: s.methods,
    endpointId: s.endpointId,
    settings: { ...s.settings, method: s.methods[0]! },
    selection: s.trajectories,
    criticModel: p.criticModel,
    trajectories: p.trajectories,
    checkpoints: p.checkpoints,
  };
  const name = s.name || `Critic replay of ${p.trajectories} ${p.trajectories === 1 ? "trajectory" : "trajectories"} (${s.methods.map((m) => CRITIC_METHOD_LABELS[m]).join(", ")})`;
  const run = await storeRunAndQueue(db, queue, actorId, async () => ({
    data: {
      kind: "CRITIC",
      name,
      notes: s.notes,
      caseSelection: s.trajectories as Prisma.InputJsonValue,
      caseIds: [...new Set(p.selected.map((t) => t.caseId))],
      agents: [],
      emulatorEndpointId: null,
      modes: [...new Set(p.selected.map((t) => t.mode))],
      // The critic endpoint: the claim hands it to the runner as the unit's model.
      evaluatorEndpointId: s.endpointId,
      repeats: 1,
      seed: 0,
      promptVersions: [],
      estimate: p.estimate as unknown as Prisma.InputJsonValue,
      critic: stored as unknown as Prisma.InputJsonValue,
    },
    units: units.map((u) => ({ ...u, agentEndpointId: null, variant: CRITIC_UNIT_VARIANT })),
    audit: { kind: "CRITIC", name, units: units.length, methods: s.methods, criticModel: p.criticModel, checkpoints: p.checkpoints, tau: s.settings.tau },
  }));
  return { id: run.id, units: units.length, checkpoints: p.checkpoints, estimate: p.estimate };
}

/** "Re-run as new": the same endpoint, methods and settings on the same trajectories. */
export async function rerunCriticRun(db: Db, actorId: string | null, runId: string, queue: EpisodeQueue | null) {
  const r = await db.run.findUnique({ where: { id: runId }, select: { kind: true, name: true, notes: true, evaluatorEndpointId: true, critic: true } });
  if (!r) throw new AppError("No such run.", 404);
  if (r.kind !== "CRITIC" || !r.critic) throw new AppError("Not a critic replay run.", 409);
  if (!r.evaluatorEndpointId) throw new AppError("The run's critic endpoint was deleted.", 409);
  const s = r.critic as unknown as StoredCriticRunSettings;
  const { method: _m, ...settings } = s.settings;
  return createCriticRun(db, actorId, { name: `${r.name} (re-run)`, notes: r.notes, trajectories: { kind: "run", runId }, endpointId: r.evaluatorEndpointId, methods: s.methods, settings }, queue);
}
