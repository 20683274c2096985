// Exports of the current trajectory filter, produced in batches so memory stays flat however many
// trajectories match:
//   JSONL — ToolEmu's own format: each trajectory's stored source JSON (`raw`), one per line;
//   CSV   — one row per trajectory: id, case, agent, emulator, mode, status, steps, then a safety
//           and a helpfulness column per evaluator model (empty: not scored / unparsed).
// Rows come in the filter's sort order. Nothing here knows about HTTP; the route streams it.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { TrajectoryFilter } from "./filters";
import { evaluatorModelsFor, orderedTrajectoryIds } from "./queries/trajectories";
// Cells go through the shared writer (quoting + formula-injection guard).
import { csvLine } from "@/lib/csv/cell";

export const EXPORT_FORMATS = ["jsonl", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const EXPORT_BATCH_SIZE = 200;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  jsonl: "application/x-ndjson; charset=utf-8",
  csv: "text/csv; charset=utf-8",
};

function* batches<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** JSONL: one line per trajectory, its stored `raw` JSON, yielded a batch at a time. */
export async function* jsonlChunks(db: Db, filter: TrajectoryFilter, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  const ids = await orderedTrajectoryIds(db, filter);
  for (const batch of batches(ids, batchSize)) {
    const rows = await db.trajectory.findMany({ where: { id: { in: batch } }, select: { id: true, raw: true } });
    const byId = new Map(rows.map((r) => [r.id, r.raw]));
    let chunk = "";
    for (const id of batch) {
      // A trajectory deleted between the two queries is skipped, not exported as null.
      if (byId.has(id)) chunk += `${JSON.stringify(byId.get(id))}\n`;
    }
    if (chunk) yield chunk;
  }
}

const CSV_BASE_COLUMNS = ["id", "case", "agent", "emulator", "mode", "status", "steps"] as const;

/** CSV: a header, then one row per trajectory, yielded a batch at a time. */
export async function* csvChunks(db: Db, filter: TrajectoryFilter, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  const [ids, models] = await Promise.all([orderedTrajectoryIds(db, filter), evaluatorModelsFor(db, filter)]);
  yield csvLine([...CSV_BASE_COLUMNS, ...models.flatMap((m) => [`safety:${m}`, `helpfulness:${m}`])]);
  for (const batch of batches(ids, batchSize)) {
    const rows = await db.trajectory.findMany({
      where: { id: { in: batch } },
      select: {
        id: true,
        agentModel: true,
        emulatorModel: true,
        emulatorMode: true,
        status: true,
        stepCount: true,
        case: { select: { name: true } },
        evaluations: { select: { kind: true, evaluatorModel: true, score: true } },
      },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    let chunk = "";
    for (const id of batch) {
      const t = byId.get(id);
      if (!t?.case) continue;
      const score = (kind: "SAFETY" | "HELPFULNESS", model: string) => t.evaluations.find((e) => e.kind === kind && e.evaluatorModel === model)?.score ?? null;
      chunk += csvLine([
        t.id,
        t.case.name,
        t.agentModel,
        t.emulatorModel,
        t.emulatorMode.toLowerCase(),
        t.status.toLowerCase(),
        t.stepCount,
        ...models.flatMap((m) => [score("SAFETY", m), score("HELPFULNESS", m)]),
      ]);
    }
    if (chunk) yield chunk;
  }
}

export function exportChunks(db: Db, filter: TrajectoryFilter, format: ExportFormat): AsyncGenerator<string> {
  return format === "jsonl" ? jsonlChunks(db, filter) : csvChunks(db, filter);
}

/** trajectories-20261129-1530.jsonl (UTC) */
/**
 * JSONL of a single agent and emulator is named in ToolEmu's own pattern, so importing it again
 * reads the model names back from the name; anything else gets a plain dated name.
 */
export function exportFileName(format: ExportFormat, now = new Date(), models?: { agentModel: string; emulatorModel: string }): string {
  const stamp = now.toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  if (format === "jsonl" && models) {
    const flat = (m: string) => m.replace(/\//, "_").replace(/[^\w.\-]/g, "-");
    return `${flat(models.agentModel)}_emu-${flat(models.emulatorModel)}_eval-export_${stamp.replace("-", "_")}.jsonl`;
  }
  return `trajectories-${stamp}.${format}`;
}

/** A pull-based byte stream over text chunks: the next batch is read only when the client takes more. */
export function toByteStream(chunks: AsyncIterator<string> | AsyncIterable<string>, onError?: (e: unknown) => void): ReadableStream<Uint8Array> {
  const it = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks;
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await it.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (e) {
        onError?.(e);
        controller.error(e);
      }
    },
    async cancel() {
      await it.return?.();
    },
  });
}
