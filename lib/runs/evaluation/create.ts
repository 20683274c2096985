// Creating an evaluation run: resolve the trajectories, name the evaluator, number the
// replicates (append: after the evaluator's existing ones on these trajectories), estimate, then
// store the run and one unit per trajectory × kind × replicate in one transaction and queue them
// on the same `episode` queue the episode runs use — the same workers, claim, leases, retries,
// pause/resume/cancel and progress.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import type { EpisodeQueue } from "@/lib/jobs/boss";
import { templateRef } from "@/lib/prompts/template";
import type { RunEstimate } from "../estimate";
import { loadEndpoints } from "../create";
import { storeRunAndQueue } from "../store-run";
import { estimateEvaluation } from "./estimate";
import { evaluatorBaseName, NAME_SEPARATOR } from "./naming";
import { evaluationRunInputSchema, MAX_UNITS_PER_RUN, type EvaluationRunInput, type EvaluationRunSettings, type StoredEvaluationSettings } from "./schemas";
import { resolveTrajectories, type SelectedTrajectory } from "./selection";
import { evaluatorTemplate } from "./templates";

/** The variant column of an evaluation unit (it has no agent). */
export const UNIT_VARIANT = "EVALUATION";

export interface EvaluationRunPreview {
  trajectories: number;
  /** Matched but still being played: left out. */
  running: number;
  description: string;
  units: number;
  evaluatorBase: string;
  /** The replicates this run would write, e.g. [3, 4]. */
  replicateNumbers: number[];
  /** Existing evaluations of this evaluator on the selection: rewritten (replace) or kept (append). */
  existing: number;
  /** replace: evaluations of replicates above r that creating the run deletes. */
  toDelete: number;
  estimate: RunEstimate;
}

interface Resolved extends EvaluationRunPreview {
  settings: EvaluationRunSettings;
  selected: SelectedTrajectory[];
  templates: string[];
  firstReplicate: number;
}

/** Evaluations of this evaluator (any replicate) on these trajectories and kinds: count and highest replicate. */
async function existingReplicates(db: Db, ids: string[], kinds: string[], base: string, above: number) {
  if (!ids.length) return { n: 0, max: 0, aboveN: 0 };
  const prefix = `${base}${NAME_SEPARATOR}r`;
  const [row] = await db.$queryRaw<{ n: bigint; max: number | null; above: bigint }[]>`
    WITH e AS (
      SELECT substr("evaluatorModel", ${prefix.length + 1}::int)::int AS r FROM "Evaluation"
      WHERE "trajectoryId" = ANY(${ids}) AND kind::text = ANY(${kinds})
        AND left("evaluatorModel", ${prefix.length}::int) = ${prefix} AND substr("evaluatorModel", ${prefix.length + 1}::int) ~ '^[1-9][0-9]{0,5}$')
    SELECT count(*) AS n, max(r) AS max, count(*) FILTER (WHERE r > ${above}) AS above FROM e`;
  return { n: Number(row?.n ?? 0), max: row?.max ?? 0, aboveN: Number(row?.above ?? 0) };
}

async function resolve(db: Db, input: EvaluationRunInput | EvaluationRunSettings): Promise<Resolved> {
  const s = evaluationRunInputSchema.parse(input);
  const templates = s.kinds.map((k) => {
    const t = evaluatorTemplate(k, s.templateVersion);
    if (!t) throw new AppError(`There is no version ${s.templateVersion} of the ${k.toLowerCase()} evaluator template.`, 422);
    return templateRef(t);
  });
  const endpoint = (await loadEndpoints(db, [s.endpointId])).get(s.endpointId)!;
  const sel = await resolveTrajectories(db, s.trajectories);
  const ids = sel.trajectories.map((t) => t.id);
  const evaluatorBase = evaluatorBaseName(endpoint.model, s.templateVersion);
  const existing = await existingReplicates(db, ids, s.kinds, evaluatorBase, s.replicates);
  const firstReplicate = s.write === "append" ? existing.max + 1 : 1;

  // Prompt size per trajectory, in SQL: instruction, the case's toolkit specs, the record.
  const sizes = ids.length
    ? await db.$queryRaw<{ chars: number; steps: number }[]>`
        SELECT (length(c."userInstruction") + COALESCE(length(t."finalAnswer"), 0)
                + COALESCE((SELECT sum(COALESCE(length(s.action), 0) + COALESCE(length(s."actionInputRaw"), 0) + COALESCE(length(s."observationRaw"), 0))
                            FROM "Step" s WHERE s."trajectoryId" = t.id), 0)
                + COALESCE((SELECT sum(length(k."descriptionForModel")
                   + (SELECT COALESCE(sum(length(tl."agentName") + length(tl.summary) + length(tl.parameters::text) + length(tl.returns::text) + length(tl.exceptions::text)), 0)
                      FROM "Tool" tl WHERE tl."toolkitId" = k.id))
                   FROM "TestCaseToolkit" tc JOIN "Toolkit" k ON k.id = tc."toolkitId" WHERE tc."caseId" = c.id), 0))::float8 AS chars,
               t."stepCount" AS steps
        FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId" WHERE t.id = ANY(${ids})`
    : [];
  const estimate = estimateEvaluation({
    promptChars: sizes.map((r) => r.chars),
    kinds: s.kinds.length,
    replicates: s.replicates,
    endpoint,
    meanSteps: sizes.length ? sizes.reduce((a, r) => a + r.steps, 0) / sizes.length : 0,
  });
  return {
    settings: s,
    selected: sel.trajectories,
    templates,
    firstReplicate,
    trajectories: ids.length,
    running: sel.running,
    description: sel.description,
    units: estimate.calls.total,
    evaluatorBase,
    replicateNumbers: Array.from({ length: s.replicates }, (_, i) => firstReplicate + i),
    existing: existing.n,
    toDelete: s.write === "replace" ? existing.aboveN : 0,
    estimate,
  };
}

/** Resolves the selection and estimates the run, writing nothing. */
export async function previewEvaluationRun(db: Db, input: EvaluationRunInput | EvaluationRunSettings): Promise<EvaluationRunPreview> {
  const { settings: _s, selected: _t, templates: _r, firstReplicate: _f, ...preview } = await resolve(db, input);
  return preview;
}

/** Units in queue order: replicate, then trajectory, then kind (replicate 1 is complete first). */
export function expandUnits(trajectories: SelectedTrajectory[], kinds: readonly ("SAFETY" | "HELPFULNESS")[], replicates: number, firstReplicate: number) {
  const out: { caseId: string; mode: "STANDARD" | "ADVERSARIAL"; sourceTrajectoryId: string; evalKind: "SAFETY" | "HELPFULNESS"; repeat: number; position: number }[] = [];
  for (let r = 0; r < replicates; r++) {
    for (const t of trajectories) {
      for (const kind of kinds) out.push({ caseId: t.caseId, mode: t.mode, sourceTrajectoryId: t.id, evalKind: kind, repeat: firstReplicate - 1 + r, position: out.length });
    }
  }
  return out;
}

export async function createEvaluationRun(
  db: Db,
  actorId: string | null,
  input: EvaluationRunInput | EvaluationRunSettings,
  queue: EpisodeQueue | null,
): Promise<{ id: string; units: number; estimate: RunEstimate; replicateNumbers: number[]; evaluatorBase: string }> {
  const p = await resolve(db, input);
  const s = p.settings;
  if (p.trajectories === 0) throw new AppError(`The selection (${p.description}) has no trajectories to evaluate${p.running ? ` (${p.running} are still being played)` : ""}.`, 422);
  if (p.units > MAX_UNITS_PER_RUN) throw new AppError(`That is ${p.units} evaluations; a run may have at most ${MAX_UNITS_PER_RUN}.`, 422);
  const units = expandUnits(p.selected, s.kinds, s.replicates, p.firstReplicate);
  const stored: StoredEvaluationSettings = {
    selection: s.trajectories,
    kinds: s.kinds,
    templateVersion: s.templateVersion,
    templates: p.templates,
    replicates: s.replicates,
    firstReplicate: p.firstReplicate,
    write: s.write,
    temperature: s.temperature ?? null,
    evaluatorBase: p.evaluatorBase,
    trajectories: p.trajectories,
    deleted: 0,
  };
  const name = s.name || `Evaluate ${p.trajectories} ${p.trajectories === 1 ? "trajectory" : "trajectories"} with ${p.evaluatorBase}`;

  const run = await storeRunAndQueue(db, queue, actorId, async (tx) => {
    // replace: replicates above r go now (those up to r are rewritten as their units finish).
    let deleted = 0;
    if (s.write === "replace" && p.toDelete > 0) {
      const prefix = `${p.evaluatorBase}${NAME_SEPARATOR}r`;
      deleted = await tx.$executeRaw`
        DELETE FROM "Evaluation"
        WHERE "trajectoryId" = ANY(${p.selected.map((t) => t.id)}) AND kind::text = ANY(${s.kinds})
          AND left("evaluatorModel", ${prefix.length}::int) = ${prefix} AND substr("evaluatorModel", ${prefix.length + 1}::int) ~ '^[1-9][0-9]{0,5}$'
          AND substr("evaluatorModel", ${prefix.length + 1}::int)::int > ${s.replicates}`;
    }
    return {
      data: {
        kind: "EVALUATION",
        name,
        notes: s.notes,
        caseSelection: s.trajectories as Prisma.InputJsonValue,
        caseIds: [...new Set(p.selected.map((t) => t.caseId))],
        agents: [],
        emulatorEndpointId: null,
        modes: [...new Set(p.selected.map((t) => t.mode))],
        evaluatorEndpointId: s.endpointId,
        repeats: s.replicates,
        seed: 0,
        promptVersions: p.templates,
        estimate: p.estimate as unknown as Prisma.InputJsonValue,
        evaluation: { ...stored, deleted } as unknown as Prisma.InputJsonValue,
      },
      units: units.map((u) => ({ ...u, agentEndpointId: null, variant: UNIT_VARIANT })),
      audit: { kind: "EVALUATION", name, units: units.length, evaluator: p.evaluatorBase, replicates: p.replicateNumbers, write: s.write, deleted },
    };
  });
  return { id: run.id, units: units.length, estimate: p.estimate, replicateNumbers: p.replicateNumbers, evaluatorBase: p.evaluatorBase };
}

/** "Re-run as new": the same evaluator, kinds, replicates and temperature on the same trajectories, appended. */
export async function rerunEvaluationRun(db: Db, actorId: string | null, runId: string, queue: EpisodeQueue | null) {
  const r = await db.run.findUnique({ where: { id: runId }, select: { kind: true, name: true, notes: true, evaluatorEndpointId: true, evaluation: true } });
  if (!r) throw new AppError("No such run.", 404);
  if (r.kind !== "EVALUATION" || !r.evaluation) throw new AppError("Not an evaluation run.", 409);
  if (!r.evaluatorEndpointId) throw new AppError("The run's evaluator endpoint was deleted.", 409);
  const s = r.evaluation as unknown as StoredEvaluationSettings;
  return createEvaluationRun(
    db,
    actorId,
    {
      name: `${r.name} (re-run)`,
      notes: r.notes,
      trajectories: { kind: "run", runId },
      endpointId: r.evaluatorEndpointId,
      templateVersion: s.templateVersion,
      kinds: s.kinds,
      replicates: s.replicates,
      write: "append",
      temperature: s.temperature,
    },
    queue,
  );
}
