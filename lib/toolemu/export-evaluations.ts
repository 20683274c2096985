// "ToolEmu files with evaluations": the current trajectory filter as ToolEmu's own layout, zipped —
// per (agent, emulator, evaluator): <agent>_emu-<emulator>_eval-<evaluator>_<date>_<time>.jsonl
// with the trajectories that evaluator scored (their stored source JSON, one per line) and its
// companions ..._eval_agent_safe.jsonl and ..._eval_agent_help_ignore_safety.jsonl, whose lines
// point into it by eval_id (0-based line index). With an evaluator chosen in the filter, only its
// files are written. Trajectories no evaluator scored go to an
// "_eval-none_" file without companions. Importing the zip gives the same trajectories and
// evaluations back (lib/toolemu/file-names.ts reads the models from the names).
// The zip is streamed: files are deflated a batch at a time, so memory stays flat.
import "server-only";
import { Zip, ZipDeflate } from "fflate";
import type { Db } from "@/lib/db/client";
import type { TrajectoryFilter } from "./filters";
import { orderedTrajectoryIds } from "./queries/trajectories";

const BATCH = 200;
const SUFFIX = { SAFETY: "_eval_agent_safe", HELPFULNESS: "_eval_agent_help_ignore_safety" } as const;
const SCORE_KEY = { SAFETY: "ToolCallRisk", HELPFULNESS: "Helpfulness" } as const;
export const NO_EVALUATOR = "none";

interface EvalRow {
  trajectoryId: string;
  kind: "SAFETY" | "HELPFULNESS";
  evaluatorModel: string;
  score: number | null;
  label: string | null;
  thought: string | null;
  summary: string | null;
  raw: unknown;
}

/**
 * An evaluation as a ToolEmu evaluation line: the stored source line when it was imported (its
 * keys as written), completed from the columns for evaluations this app produced, with eval_id set.
 */
export function evaluationLine(e: Omit<EvalRow, "trajectoryId" | "evaluatorModel">, evalId: number): Record<string, unknown> {
  const raw = e.raw && typeof e.raw === "object" && !Array.isArray(e.raw) ? (e.raw as Record<string, unknown>) : {};
  const line: Record<string, unknown> = { ...raw };
  line["Evaluator Thought"] ??= e.thought ?? "";
  line["Overall Qualitative Label"] ??= e.label ?? "";
  line["Overall Quantitative Score"] ??= e.score === null ? "" : String(e.score);
  line["Evaluator Log Summary"] ??= e.summary ?? "";
  if (line.eval_scores === undefined && e.score !== null) line.eval_scores = { [SCORE_KEY[e.kind]]: e.score };
  line.eval_id = evalId;
  return line;
}

const flat = (m: string) => m.replace(/\//, "_").replace(/[^\w.\-]/g, "-");

/** The trajectory file name of one group (without .jsonl), in ToolEmu's pattern. */
export function groupPrefix(agentModel: string, emulatorModel: string, evaluatorModel: string, now: Date): string {
  const stamp = now.toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "_");
  return `${flat(agentModel)}_emu-${flat(emulatorModel)}_eval-${flat(evaluatorModel)}_${stamp}`;
}

interface Group {
  prefix: string;
  /** Trajectory ids in the filter's order; their line index is the eval_id. */
  ids: string[];
  evaluator: string | null;
}

/** Groups of the filtered trajectories by (agent, emulator, evaluator), in a stable order. */
async function groupsOf(db: Db, filter: TrajectoryFilter, now: Date): Promise<Group[]> {
  const ids = await orderedTrajectoryIds(db, filter);
  const groups = new Map<string, Group>();
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const rows = await db.trajectory.findMany({
      where: { id: { in: batch } },
      select: { id: true, agentModel: true, emulatorModel: true, evaluations: { select: { evaluatorModel: true } } },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of batch) {
      const t = byId.get(id);
      if (!t) continue;
      // A chosen evaluator is the only one exported (the filter already keeps what it scored).
      const evaluators = [...new Set(t.evaluations.map((e) => e.evaluatorModel))].filter((e) => filter.evaluator === undefined || e === filter.evaluator);
      for (const ev of evaluators.length ? evaluators : [null]) {
        const key = JSON.stringify([t.agentModel, t.emulatorModel, ev]);
        const g = groups.get(key) ?? { prefix: groupPrefix(t.agentModel, t.emulatorModel, ev ?? NO_EVALUATOR, now), ids: [], evaluator: ev };
        g.ids.push(id);
        groups.set(key, g);
      }
    }
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
}

/** The zip's bytes, a few batches at a time. */
export async function* evaluationsZipChunks(db: Db, filter: TrajectoryFilter, now = new Date()): AsyncGenerator<Uint8Array> {
  const queue: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, data) => {
    if (err) failure = err;
    else queue.push(data);
  });
  const drain = function* () {
    if (failure) throw failure;
    while (queue.length) yield queue.shift()!;
  };
  const encoder = new TextEncoder();
  const writeFile = async function* (name: string, lines: (ids: string[]) => Promise<string>, ids: string[]) {
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    for (let i = 0; i < ids.length; i += BATCH) {
      file.push(encoder.encode(await lines(ids.slice(i, i + BATCH))), false);
      yield* drain();
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
  };

  for (const g of await groupsOf(db, filter, now)) {
    const index = new Map(g.ids.map((id, i) => [id, i]));
    yield* writeFile(`${g.prefix}.jsonl`, async (batch) => {
      const rows = await db.trajectory.findMany({ where: { id: { in: batch } }, select: { id: true, raw: true } });
      const byId = new Map(rows.map((r) => [r.id, r.raw]));
      return batch.map((id) => `${JSON.stringify(byId.get(id) ?? {})}\n`).join("");
    }, g.ids);
    if (!g.evaluator) continue;
    for (const kind of ["SAFETY", "HELPFULNESS"] as const) {
      const scored = await db.evaluation.findMany({ where: { trajectoryId: { in: g.ids }, kind, evaluatorModel: g.evaluator }, select: { trajectoryId: true } });
      // The importer reports an empty companion file: none is written.
      if (scored.length === 0) continue;
      const has = new Set(scored.map((s) => s.trajectoryId));
      const scoredIds = g.ids.filter((id) => has.has(id));
      yield* writeFile(`${g.prefix}${SUFFIX[kind]}.jsonl`, async (batch) => {
        const evals = await db.evaluation.findMany({
          where: { trajectoryId: { in: batch }, kind, evaluatorModel: g.evaluator! },
          select: { trajectoryId: true, kind: true, score: true, label: true, thought: true, summary: true, raw: true },
        });
        const byId = new Map(evals.map((e) => [e.trajectoryId, e]));
        // An evaluation deleted meanwhile is left out (its eval_id simply has no line).
        return batch.flatMap((id) => (byId.has(id) ? [`${JSON.stringify(evaluationLine(byId.get(id)!, index.get(id)!))}\n`] : [])).join("");
      }, scoredIds);
    }
  }
  zip.end();
  yield* drain();
}

/** trajectories-with-evaluations-20261202-0715.zip (UTC). */
export function evaluationsZipName(now = new Date()): string {
  return `trajectories-with-evaluations-${now.toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-")}.zip`;
}

/** A pull-based byte stream over byte chunks: the next batch is read only when the client takes more. */
export function bytesToStream(chunks: AsyncGenerator<Uint8Array>, onError?: (e: unknown) => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (e) {
        onError?.(e);
        controller.error(e);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
