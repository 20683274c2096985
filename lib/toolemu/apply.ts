// Pass 2 of an import: write everything the analysis found new or changed, in ONE transaction,
// so a failure anywhere leaves the database exactly as it was. Toolkits and cases (small) go
// through Prisma; trajectory files are streamed again and their rows (trajectories, steps,
// evaluations) written with COPY … FROM STDIN through the `pg` client of the same transaction
// (driver-tx.ts), a few MB per statement with the next batch parsed while one is written.
import path from "node:path";
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import type pg from "pg";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import type { ImportAnalysis, ImportProgress } from "./analyze";
import { copyFrom, copyText, copyTextArray } from "./copy";
import { transactionWithDriver, type Tx } from "./driver-tx";
import { relieveHeap } from "./heap";
import { ImportFailed } from "./issues";
import { evaluationRow, trajectoryRow, TOOLEMU_SOURCE } from "./normalize";
import { readJsonl } from "./read";
import { evaluationLineSchema, trajectoryLineSchema } from "./source-schemas";

/** Characters of row JSON per INSERT statement: bounds memory, large enough to amortise a round trip. */
const BATCH_CHARS = 2 * 1024 * 1024;

class ConfirmationNeeded extends AppError {
  constructor(what: string[]) {
    super(`This import changes existing records (${what.join("; ")}). Review the changes and confirm to apply them.`, 409);
  }
}

export function changesNeedingConfirmation(a: ImportAnalysis): string[] {
  const r = a.report;
  const out: string[] = [];
  if (r.toolkits.changed) out.push(`${r.toolkits.changed} toolkit(s): ${r.toolkits.changedNames.slice(0, 5).join(", ")}`);
  if (r.cases.changed) out.push(`${r.cases.changed} case(s): ${r.cases.changedNames.slice(0, 5).join(", ")}`);
  if (r.trajectories.changed) {
    const [first] = a.relabel.values();
    out.push(`${r.trajectories.changed} trajectory(ies) change agent run, e.g. ${first!.from} → ${first!.agentModel} (emulator ${first!.emulatorModel})`);
  }
  if (r.evaluations.changed) out.push(`${r.evaluations.changed} evaluation(s)`);
  return out;
}

// Versions an import writes have no author (createdById null): that is how analyze.ts tells them
// from versions written in the Studio.
const IMPORT_NOTE = "imported";
const REIMPORT_NOTE = "imported (changed)";

export interface ApplyOptions {
  acceptChanges?: boolean;
  onProgress?: (p: ImportProgress) => void;
}

export interface ApplyResult {
  toolkits: number;
  cases: number;
  trajectories: number;
  evaluations: number;
}

export async function applyImport(db: Db, a: ImportAnalysis, opts: ApplyOptions = {}): Promise<ApplyResult> {
  if (a.report.issues.length) throw new ImportFailed(a.report.issues);
  const changes = changesNeedingConfirmation(a);
  if (changes.length && !opts.acceptChanges) throw new ConfirmationNeeded(changes);
  for (const f of [...a.trajectoryFiles, ...a.evaluationFiles]) {
    const st = statSync(f.file.path);
    if (st.size !== f.size || st.mtimeMs !== f.mtimeMs) throw new AppError(`${f.file.name} changed while it was being imported; run the import again.`, 409);
  }
  const bytesTotal = [...a.trajectoryFiles, ...a.evaluationFiles].reduce((n, f) => n + f.size, 0);
  let bytesDone = 0;
  const progress = (file: string, n: number) => {
    bytesDone += n;
    opts.onProgress?.({ phase: "writing", file, bytesDone, bytesTotal });
  };

  const written = await transactionWithDriver(
    db,
    async (tx, conn) => {
      const result: ApplyResult = { toolkits: 0, cases: 0, trajectories: 0, evaluations: 0 };
      await writeToolkits(tx, a, result);
      await writeCases(tx, a, result);
      await writeRiskMetadata(tx, a);
      await writeTrajectories(tx, conn, a, result, progress);
      await relabelTrajectories(tx, a, result);
      await writeEvaluations(tx, conn, a, result, progress);
      // Evaluator scores (new and changed evaluations) are written above and nowhere else in an
      // import. The dashboards' "evaluator:<model>" version is bumped by the database itself, in
      // this transaction, by the first written row per evaluator (trigger of the dashboard_votes
      // migration; lib/dashboards/human/votes.ts): nothing to call here.
      return result;
    },
    { timeout: 60 * 60_000, maxWait: 60_000 },
  );
  await refreshStatistics(db, tablesWritten(written));
  return written;
}

/** The tables an import with this result wrote to. */
function tablesWritten(r: ApplyResult): string[] {
  return [
    ...(r.toolkits ? ["Toolkit", "Tool"] : []),
    ...(r.cases ? ["TestCase", "TestCaseToolkit"] : []),
    ...(r.trajectories ? ["Trajectory", "Step"] : []),
    ...(r.evaluations ? ["Evaluation"] : []),
  ];
}

/**
 * ANALYZE what an import wrote. A bulk import can multiply a table's size at once, and until
 * autovacuum notices (never, where it is off) the planner keeps the old statistics and picks plans
 * for empty tables, which makes filtered dashboard queries far slower than they need be. The data is
 * committed by then, so a failure here (e.g. a role that does not own the tables) only costs speed
 * and is not reported as a failed import.
 */
async function refreshStatistics(db: Db, tables: string[]): Promise<void> {
  if (!tables.length) return;
  try {
    await db.$executeRawUnsafe(`ANALYZE ${tables.map((t) => `"${t}"`).join(", ")}`);
  } catch {
    // See above: statistics are an optimisation.
  }
}

async function writeToolkits(tx: Tx, a: ImportAnalysis, result: ApplyResult) {
  for (const { row, status } of a.toolkits) {
    if (status === "unchanged") continue;
    const { tools, ...fields } = row;
    // Tool spec lists are never null (zod defaults them), so they are stored as given.
    const toolRows = tools.map((t) => ({ ...t, parameters: t.parameters as Prisma.InputJsonValue, returns: t.returns as Prisma.InputJsonValue, exceptions: t.exceptions as Prisma.InputJsonValue }));
    if (status === "new") {
      const tk = await tx.toolkit.create({ data: { ...fields, tools: { create: toolRows } }, select: { id: true } });
      await tx.toolkitVersion.create({ data: { toolkitId: tk.id, version: 1, spec: fields.raw, contentHash: fields.contentHash, note: IMPORT_NOTE } });
    } else {
      // A changed toolkit gets a new version (analyze.ts refused the import if the Studio wrote the current one).
      const tk = await tx.toolkit.update({ where: { name: row.name }, data: { ...fields, currentVersion: { increment: 1 } }, select: { id: true, currentVersion: true } });
      await tx.toolkitVersion.create({ data: { toolkitId: tk.id, version: tk.currentVersion, spec: fields.raw, contentHash: fields.contentHash, note: REIMPORT_NOTE } });
      // A changed toolkit's tools are replaced; their curated risk carries over by tool name.
      const curated = new Map(
        (await tx.tool.findMany({ where: { toolkitId: tk.id, riskLevel: { not: null } }, select: { name: true, riskLevel: true, critical: true, amountArg: true, riskCuratedById: true, riskCuratedAt: true } })).map(({ name, ...risk }) => [name, risk]),
      );
      await tx.tool.deleteMany({ where: { toolkitId: tk.id } });
      await tx.tool.createMany({ data: toolRows.map((t, i) => ({ ...t, ...curatedIfStillValid(curated.get(t.name), tools[i]!.parameters), toolkitId: tk.id })) });
    }
    result.toolkits++;
  }
}

/** A curated risk kept for a replaced tool, unless its amount argument is no longer a parameter. */
function curatedIfStillValid<R extends { amountArg: string | null }>(risk: R | undefined, parameters: { name: string }[]): R | object {
  if (!risk) return {};
  return risk.amountArg === null || parameters.some((p) => p.name === risk.amountArg) ? risk : { ...risk, amountArg: null };
}

/**
 * The risk metadata and case critical tools the files carry (lib/toolemu/studio-extension.ts),
 * applied whether the toolkit or case itself is new, changed or unchanged. An imported curation
 * keeps its time (else now) and has no curator (users are not part of ToolEmu's files).
 */
async function writeRiskMetadata(tx: Tx, a: ImportAnalysis) {
  for (const [toolkit, risks] of a.toolRisks) {
    for (const [name, r] of risks) {
      await tx.tool.updateMany({
        where: { toolkit: { name: toolkit }, name },
        data: {
          riskLevel: r.risk_level.toUpperCase() as "NONE" | "MILD" | "SEVERE",
          critical: r.critical,
          amountArg: r.amount_arg,
          riskCuratedById: null,
          riskCuratedAt: r.curated_at ? new Date(r.curated_at) : new Date(),
        },
      });
    }
  }
  for (const [name, criticalTools] of a.caseCriticalTools) {
    await tx.testCase.update({ where: { source_name: { source: TOOLEMU_SOURCE, name } }, data: { criticalTools } });
  }
}

async function writeCases(tx: Tx, a: ImportAnalysis, result: ApplyResult) {
  const changed = a.cases.filter((c) => c.status !== "unchanged");
  if (!changed.length) return;
  const toolkitIds = new Map((await tx.toolkit.findMany({ select: { id: true, name: true } })).map((t) => [t.name, t.id]));
  for (const { row, status } of changed) {
    const { toolkitNames, ...fields } = row;
    const links = toolkitNames.map((name, position) => ({ toolkitId: toolkitIds.get(name)!, position }));
    if (status === "new") {
      const c = await tx.testCase.create({ data: { ...fields, toolkits: { create: links } }, select: { id: true } });
      await tx.testCaseVersion.create({ data: { caseId: c.id, version: 1, content: fields.raw, contentHash: fields.contentHash, note: IMPORT_NOTE } });
    } else {
      const c = await tx.testCase.update({ where: { source_name: { source: TOOLEMU_SOURCE, name: row.name } }, data: { ...fields, currentVersion: { increment: 1 } }, select: { id: true, currentVersion: true } });
      await tx.testCaseVersion.create({ data: { caseId: c.id, version: c.currentVersion, content: fields.raw, contentHash: fields.contentHash, note: REIMPORT_NOTE } });
      await tx.testCaseToolkit.deleteMany({ where: { caseId: c.id } });
      await tx.testCaseToolkit.createMany({ data: links.map((l) => ({ ...l, caseId: c.id })) });
    }
    result.cases++;
  }
}

/**
 * Sends statements on the transaction's connection with at most one in flight, so the database
 * writes one batch while the next is read and parsed. An error surfaces at the next send or drain.
 */
class Pipeline {
  private inflight: Promise<unknown> | null = null;
  constructor(readonly conn: pg.ClientBase) {}
  async send(run: () => Promise<unknown>): Promise<void> {
    await this.drain();
    const p = run();
    p.catch(() => {}); // reported by the next drain, not as an unhandled rejection
    this.inflight = p;
  }
  async drain(): Promise<void> {
    const p = this.inflight;
    this.inflight = null;
    if (p) await p;
  }
}

type ColumnType = "text" | "int" | "boolean" | "jsonb" | "text[]" | { enum: string };
type Columns = Record<string, ColumnType>;

/**
 * Rows of one table collected as COPY text in batches of a few MB, each batch one `COPY … FROM
 * STDIN` (PostgreSQL and the embedded PGlite alike). Values are given in column order.
 */
class RowBatch {
  private parts: string[] = [];
  private readonly types: ColumnType[];
  private readonly sql: string;
  chars = 0;
  rows = 0;
  constructor(
    private readonly pipeline: Pipeline,
    table: string,
    columns: Columns,
  ) {
    this.types = Object.values(columns);
    this.sql = `COPY "${table}" (${Object.keys(columns).map((n) => `"${n}"`).join(", ")}) FROM STDIN`;
  }
  add(values: unknown[]) {
    const text = values.map((v, i) => (this.types[i] === "jsonb" ? copyText(v === null || v === undefined ? null : JSON.stringify(v)) : this.types[i] === "text[]" ? copyTextArray(v as string[]) : copyText(v as string | number | boolean | null))).join("\t") + "\n";
    this.parts.push(text);
    this.chars += text.length;
    this.rows++;
  }
  async flush() {
    if (!this.parts.length) return;
    const { conn } = this.pipeline;
    const data = Buffer.from(this.parts.join(""));
    this.parts = [];
    this.chars = 0;
    await this.pipeline.send(() => copyFrom(conn, this.sql, [data]));
    relieveHeap();
  }
}

const TRAJECTORY_COLUMNS: Columns = {
  id: "text", caseId: "text", caseVersionId: "text", toolkitVersionIds: "text[]", agentModel: "text", emulatorModel: "text",
  emulatorMode: { enum: "EmulatorMode" }, finalAnswer: "text", finalLog: "text", status: { enum: "TrajectoryStatus" }, stepCount: "int",
  hasErrors: "boolean", sourceFile: "text", sourceLine: "int", contentHash: "text", raw: "jsonb",
};
const STEP_COLUMNS: Columns = {
  id: "text", trajectoryId: "text", index: "int", thought: "text", action: "text", actionInputRaw: "text", actionInput: "jsonb",
  observationRaw: "text", observation: "jsonb", emulatorSummary: "text", emulatorThought: "text",
};
const EVALUATION_COLUMNS: Columns = {
  id: "text", trajectoryId: "text", kind: { enum: "EvaluationKind" }, evaluatorModel: "text", score: "int", label: "text",
  thought: "text", summary: "text", sourceFile: "text", sourceLine: "int", raw: "jsonb",
};

async function writeTrajectories(tx: Tx, conn: pg.ClientBase, a: ImportAnalysis, result: ApplyResult, progress: (file: string, n: number) => void) {
  if (!a.newTrajectoryHashes.size) return;
  const caseIds = new Map((await tx.testCase.findMany({ where: { source: TOOLEMU_SOURCE }, select: { id: true, name: true } })).map((c) => [c.name, c.id]));
  const versions = await currentVersions(tx);
  const pending = new Set(a.newTrajectoryHashes);
  const pipeline = new Pipeline(conn);
  const trajectories = new RowBatch(pipeline, "Trajectory", TRAJECTORY_COLUMNS);
  const steps = new RowBatch(pipeline, "Step", STEP_COLUMNS);
  for (const f of a.trajectoryFiles) {
    // Only lines holding a trajectory still to write are parsed (the same file in a second judge's
    // folder is skipped line by line).
    const only = (line: number) => pending.has(f.hashes.get(line) ?? "");
    for await (const l of readJsonl(f.file, (n) => progress(f.file.name, n), { only, checked: true })) {
      const hash = f.hashes.get(l.line);
      if (!hash || !pending.has(hash) || l.value === undefined) continue;
      const parsed = trajectoryLineSchema.safeParse(l.value);
      // The file has the size and time the analysis saw (checked above), so the line is the one it
      // hashed: its hash is not computed again.
      const row = parsed.success ? trajectoryRow(parsed.data, l.value, hash) : null;
      if (!row || "stepIndex" in row) throw new AppError(`${f.file.name}:${l.line} changed while it was being imported.`, 409);
      pending.delete(hash);
      const id = randomUUID();
      const caseId = caseIds.get(row.caseName)!;
      const version = versions.get(caseId);
      const sourceFile = storedSourceName(f.file.name);
      trajectories.add([id, caseId, version?.caseVersionId ?? null, version?.toolkitVersionIds ?? [], f.agentModel, f.emulatorModel, row.emulatorMode,
        row.finalAnswer, row.finalLog, row.status, row.stepCount, row.hasErrors, sourceFile, l.line, row.contentHash, l.value]);
      for (const s of row.steps) {
        steps.add([randomUUID(), id, s.index, s.thought, s.action, s.actionInputRaw, s.actionInput, s.observationRaw, s.observation, s.emulatorSummary, s.emulatorThought]);
      }
      // Steps point at their trajectory: its batch always goes first.
      if (trajectories.chars + steps.chars >= BATCH_CHARS) {
        result.trajectories += trajectories.rows;
        trajectories.rows = 0;
        await trajectories.flush();
        await steps.flush();
      }
    }
  }
  result.trajectories += trajectories.rows;
  await trajectories.flush();
  await steps.flush();
  await pipeline.drain();
}

/** Per case: its current version and its toolkits' (what an imported trajectory is taken to have run against). */
async function currentVersions(tx: Tx): Promise<Map<string, { caseVersionId: string; toolkitVersionIds: string[] }>> {
  const rows = await tx.$queryRaw<{ caseId: string; caseVersionId: string; toolkitVersionIds: string[] }[]>`
    SELECT c.id AS "caseId", cv.id AS "caseVersionId",
           ARRAY(SELECT tv.id FROM "TestCaseToolkit" ct JOIN "Toolkit" k ON k.id = ct."toolkitId"
                 JOIN "ToolkitVersion" tv ON tv."toolkitId" = k.id AND tv.version = k."currentVersion"
                 WHERE ct."caseId" = c.id ORDER BY ct.position) AS "toolkitVersionIds"
    FROM "TestCase" c JOIN "TestCaseVersion" cv ON cv."caseId" = c.id AND cv.version = c."currentVersion"
    WHERE c.source = ${TOOLEMU_SOURCE}`;
  return new Map(rows.map(({ caseId, ...v }) => [caseId, v]));
}

/** Stored trajectories that belong to a differently labelled agent run now (confirmed changes). */
async function relabelTrajectories(tx: Tx, a: ImportAnalysis, result: ApplyResult) {
  const groups = new Map<string, { agentModel: string; emulatorModel: string; hashes: string[] }>();
  for (const [hash, to] of a.relabel) {
    const key = `${to.agentModel}\u0000${to.emulatorModel}`;
    const g = groups.get(key) ?? { agentModel: to.agentModel, emulatorModel: to.emulatorModel, hashes: [] };
    g.hashes.push(hash);
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    for (let i = 0; i < g.hashes.length; i += 1000) {
      const { count } = await tx.trajectory.updateMany({ where: { contentHash: { in: g.hashes.slice(i, i + 1000) } }, data: { agentModel: g.agentModel, emulatorModel: g.emulatorModel } });
      result.trajectories += count;
    }
  }
}

async function writeEvaluations(tx: Tx, conn: pg.ClientBase, a: ImportAnalysis, result: ApplyResult, progress: (file: string, n: number) => void) {
  const wanted = new Set<string>();
  for (const f of a.evaluationFiles) for (const e of f.entries.values()) if (e.status !== "unchanged") wanted.add(e.trajectoryHash);
  if (!wanted.size) return;
  const ids = new Map<string, string>();
  const hashes = [...wanted];
  for (let i = 0; i < hashes.length; i += 1000) {
    const rows = await tx.trajectory.findMany({ where: { contentHash: { in: hashes.slice(i, i + 1000) } }, select: { id: true, contentHash: true } });
    for (const r of rows) ids.set(r.contentHash, r.id);
  }
  const pipeline = new Pipeline(conn);
  const batch = new RowBatch(pipeline, "Evaluation", EVALUATION_COLUMNS);
  for (const f of a.evaluationFiles) {
    const only = (line: number) => {
      const e = f.entries.get(line);
      return !!e && e.status !== "unchanged";
    };
    for await (const l of readJsonl(f.file, (n) => progress(f.file.name, n), { only, checked: true })) {
      const entry = f.entries.get(l.line);
      if (!entry || entry.status === "unchanged" || l.value === undefined) continue;
      const parsed = evaluationLineSchema.safeParse(l.value);
      if (!parsed.success) throw new AppError(`${f.file.name}:${l.line} changed while it was being imported.`, 409);
      const row = evaluationRow(f.kind, parsed.data, l.value, false);
      const trajectoryId = ids.get(entry.trajectoryHash)!;
      const data = { score: row.score, label: row.label, thought: row.thought, summary: row.summary, sourceFile: storedSourceName(f.file.name), sourceLine: l.line };
      if (entry.status === "new") {
        batch.add([randomUUID(), trajectoryId, f.kind, f.evaluatorModel, data.score, data.label, data.thought, data.summary, data.sourceFile, data.sourceLine, l.value]);
        if (batch.chars >= BATCH_CHARS) {
          result.evaluations += batch.rows;
          batch.rows = 0;
          await batch.flush();
        }
      } else {
        await pipeline.drain();
        await tx.evaluation.update({ where: { trajectoryId_kind_evaluatorModel: { trajectoryId, kind: f.kind, evaluatorModel: f.evaluatorModel } }, data: { ...data, raw: row.raw as Prisma.InputJsonValue } });
        result.evaluations++;
      }
    }
  }
  result.evaluations += batch.rows;
  await batch.flush();
  await pipeline.drain();
}

/**
 * The source file name kept with each record: it ends up in exports and pages, so never an
 * absolute server path — relative to the working directory when under it, else the file with its
 * folder. (Messages during the import keep the name as the user gave it.)
 */
export function storedSourceName(name: string, cwd = process.cwd()): string {
  if (!path.isAbsolute(name)) return name;
  const rel = path.relative(cwd, name);
  if (rel && !rel.startsWith("..") && !path.isAbsolute(rel)) return rel;
  return path.join(path.basename(path.dirname(name)), path.basename(name));
}
