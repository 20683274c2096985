// `bench:import --shape toolemu-27x144`: the shape of a real results folder — 27 agent runs × the 144
// ToolEmu cases, each run scored by two judges (a folder per judge, as in ../shared/data: the
// trajectory files byte-identical in both, the evaluation files the judge's own), 3,888
// trajectories, 15,552 evaluations, ~180 MB of JSONL — built from the shared real runs.
// The import runs in a child process (the CLI's code: runImport over a Prisma client) whose own
// wall time and peak RSS are read; then, in the same run, the rows it wrote are dumped with COPY
// TO, the tables emptied, and the same rows loaded back with COPY FROM in one transaction: the
// floor an importer is compared with. `toolemu-7x144` (7 runs, 1,008 trajectories) is a quick check
// of the same shape. Besides wall times it prints CPU times and the load average: on a shared
// machine the wall times stretch with the load.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createPrisma } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { createEmptyDatabase } from "@/lib/testing/db";
import { copyFrom, copyTo } from "@/lib/toolemu/copy";
import { runImport } from "@/lib/toolemu/import";

const SHAPES: Record<string, { runs: number }> = { "toolemu-27x144": { runs: 27 }, "toolemu-7x144": { runs: 7 } };
const REAL_AGENT = "Qwen_Qwen2.5-7B-Instruct";
const JUDGES = ["judge-q32", "judge-gpt5m"];
const TABLES = ["Trajectory", "Step", "Evaluation"] as const;
const MB = 1e6;

export interface ShapeOptions {
  pg: string | null;
  data: string;
  /** --max-old-space-size for the importing process (NaN: Node's default). */
  heapMb: number;
  /** Import the folder a second time (must write nothing) and report that too. */
  reimport: boolean;
  keepFolder: boolean;
}

const nonBlank = (file: string) => readFileSync(file, "utf8").split("\n").filter((l) => l.trim());

/** Tags a real trajectory line with its run, so each run's copy is a distinct trajectory (content hash). */
function tagLine(line: string, run: string): string {
  const t = JSON.parse(line);
  const tag = ` [${run}]`;
  t.input += tag;
  if (typeof t.output === "string") t.output += tag;
  for (const step of t.intermediate_steps) {
    if (step?.[0]?.type === "AgentFinish" && typeof step[0].return_values?.output === "string") step[0].return_values.output += tag;
  }
  return JSON.stringify(t);
}

/** Writes the folder; returns its size and the rows it should produce. */
export function buildShapeFolder(dir: string, dataDir: string, runs: number): { bytes: number; files: number; trajectories: number; evaluations: number } {
  const realRoot = path.join(dataDir, "trajectories/qwen2.5-7b-instruct");
  let bytes = 0, files = 0, trajectories = 0, evaluations = 0;
  const write = (file: string, lines: string[]) => {
    const fd = openSync(file, "w");
    for (const l of lines) writeSync(fd, l + "\n");
    closeSync(fd);
    bytes += statSync(file).size;
    files++;
  };
  for (const judge of JUDGES) mkdirSync(path.join(dir, judge), { recursive: true });
  const trajectoryFiles = (judge: string) => readdirSync(path.join(realRoot, judge)).filter((f) => /\d\.jsonl$/.test(f)).sort();
  for (let r = 0; r < runs; r++) {
    const run = `run${String(r + 1).padStart(2, "0")}`;
    const agent = `${REAL_AGENT}-${run}`;
    for (const [j, judge] of JUDGES.entries()) {
      for (const f of trajectoryFiles(judge)) {
        // The same chunk in both judges' folders: tagged the same way, so byte-identical again.
        const lines = nonBlank(path.join(realRoot, judge, f)).map((l) => tagLine(l, run));
        const out = (name: string) => path.join(dir, judge, name.replace(REAL_AGENT, agent));
        write(out(f), lines);
        if (j === 0) trajectories += lines.length;
        for (const suffix of ["_eval_agent_safe", "_eval_agent_help_ignore_safety"]) {
          const evalFile = f.replace(/\.jsonl$/, `${suffix}.jsonl`);
          const evalLines = nonBlank(path.join(realRoot, judge, evalFile));
          write(out(evalFile), evalLines);
          evaluations += evalLines.length;
        }
      }
    }
  }
  return { bytes, files, trajectories, evaluations };
}

interface ChildResult {
  ms: number;
  analysisMs: number;
  cpuMs: number;
  analysisCpuMs: number;
  /** CPU time of this process while the child ran: the embedded database's work (0 on PostgreSQL). */
  serverCpuMs: number;
  maxRssBytes: number;
  issues: { file: string; line: number | null; message: string }[];
  changes: string[];
  written: { toolkits: number; cases: number; trajectories: number; evaluations: number } | null;
}

/**
 * Runs the import in its own process (the CLI's code path) and returns its own measurements.
 * Asynchronously: the embedded database is served by this process's event loop.
 */
async function importInChild(url: string, folder: string, heapMb: number): Promise<ChildResult> {
  const cpu0 = process.cpuUsage();
  const tsx = path.resolve("node_modules/.bin/tsx");
  const env = { ...process.env, DATABASE_URL: url, NODE_OPTIONS: [process.env.NODE_OPTIONS, Number.isFinite(heapMb) ? `--max-old-space-size=${heapMb}` : ""].filter(Boolean).join(" ") };
  const child = spawn(tsx, ["--conditions=react-server", path.resolve("scripts/bench/lib/import-child.ts"), folder], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
  const status = await new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const last = stdout.trim().split("\n").pop() ?? "";
  if (status !== 0 || !last.startsWith("{")) throw new Error(`the import process failed (exit ${status}): ${stderr.trim().split("\n").slice(-8).join("\n")}`);
  const cpu = process.cpuUsage(cpu0);
  return { ...(JSON.parse(last) as ChildResult), serverCpuMs: (cpu.user + cpu.system) / 1000 };
}

async function counts(sql: pg.Client) {
  const { rows } = await sql.query<{ t: string; s: string; e: string; sc: string | null }>(
    `SELECT (SELECT count(*) FROM "Trajectory") t, (SELECT count(*) FROM "Step") s, (SELECT count(*) FROM "Evaluation") e, (SELECT sum("stepCount") FROM "Trajectory") sc`,
  );
  const r = rows[0]!;
  return { trajectories: Number(r.t), steps: Number(r.s), evaluations: Number(r.e), stepSum: Number(r.sc ?? 0) };
}

/** Dumps the imported rows, empties the tables and loads the same rows with COPY in one transaction; returns ms. */
async function copyBaseline(sql: pg.Client, dir: string): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  const files = new Map<string, string>();
  // In a transaction: on the embedded database that keeps the session this connection's throughout.
  await sql.query("BEGIN");
  for (const table of TABLES) {
    const file = path.join(dir, `${table}.copy`);
    const fd = openSync(file, "w");
    await copyTo(sql, `COPY "${table}" TO STDOUT`, (chunk) => void writeSync(fd, chunk));
    closeSync(fd);
    files.set(table, file);
  }
  await sql.query(`TRUNCATE "Trajectory" CASCADE`);
  await sql.query("COMMIT");
  await sql.query(`CHECKPOINT`).catch(() => {}); // not allowed for every role: only evens out the start
  const data = new Map([...files].map(([t, f]) => [t, readFileSync(f)]));
  let bytes = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await sql.query("BEGIN");
  for (const table of TABLES) {
    const buf = data.get(table)!;
    bytes += buf.length;
    const chunks: Buffer[] = [];
    for (let i = 0; i < buf.length; i += 1 << 20) chunks.push(buf.subarray(i, i + (1 << 20)));
    await copyFrom(sql, `COPY "${table}" FROM STDIN`, chunks);
  }
  await sql.query("COMMIT");
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, bytes };
}

export async function runShapeBench(shapeName: string, opts: ShapeOptions): Promise<void> {
  const shape = SHAPES[shapeName];
  if (!shape) throw new Error(`unknown --shape ${shapeName}; known: ${Object.keys(SHAPES).join(", ")}`);
  const loadAtStart = loadavg()[0]!;
  const tmp = mkdtempSync(path.join(tmpdir(), "toolemu-shape-"));
  const folder = path.join(tmp, "results");
  const db = await createEmptyDatabase(opts.pg, "toolemu_bench");
  const sql = new pg.Client({ connectionString: db.url });
  try {
    const input = buildShapeFolder(folder, opts.data, shape.runs);
    await sql.connect();
    await migrate(sql);
    const prisma = createPrisma(db.url);
    try {
      const setup = await runImport(prisma, [path.join(opts.data, "toolemu/all_toolkits.json"), path.join(opts.data, "toolemu/all_cases.json")]);
      if (setup.report.issues.length || !setup.written) throw new Error(`toolkits/cases did not import: ${setup.report.issues[0]?.message}`);
    } finally {
      await prisma.$disconnect();
    }

    const run = await importInChild(db.url, folder, opts.heapMb);
    if (run.issues.length || !run.written) throw new Error(`import refused: ${run.issues.map((i) => `${i.file}:${i.line} ${i.message}`).join("; ") || run.changes.join("; ")}`);
    const landed = await counts(sql);
    const ok = landed.trajectories === input.trajectories && landed.evaluations === input.evaluations && landed.steps === landed.stepSum && landed.steps > 0;
    let again: ChildResult | null = null;
    if (opts.reimport) again = await importInChild(db.url, folder, opts.heapMb);
    const copy = await copyBaseline(sql, tmp);
    const copied = await counts(sql);
    const copyOk = copied.trajectories === landed.trajectories && copied.steps === landed.steps && copied.evaluations === landed.evaluations;

    const u = new URL(db.url);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = [
      `database     ${db.kind === "embedded" ? "embedded PGlite (served by this process; the import runs in a child)" : `PostgreSQL ${u.host}${u.pathname} (dropped after)`}`,
      `input        ${(input.bytes / MB).toFixed(1)} MB in ${input.files} JSONL files (${shape.runs} runs × 144 cases × ${JUDGES.length} judges)`,
      `written      ${landed.trajectories} trajectories, ${landed.steps} steps, ${landed.evaluations} evaluations (${ok ? "verified" : `MISMATCH: expected ${input.trajectories} trajectories, ${input.evaluations} evaluations`})`,
      `import       ${s(run.ms)} = analysis ${s(run.analysisMs)} + write ${s(run.ms - run.analysisMs)}${Number.isFinite(opts.heapMb) ? ` (heap limit ${opts.heapMb} MB)` : ""}`,
      `COPY         ${s(copy.ms)} for the same rows (${(copy.bytes / MB).toFixed(0)} MB of COPY text, one transaction, indexes in place)${copyOk ? "" : " ROW COUNT MISMATCH"}`,
      `ratio        import / COPY = ${(run.ms / copy.ms).toFixed(2)} ×   (goal ≤ 3)`,
      `peak RSS     ${(run.maxRssBytes / MB).toFixed(0)} MB (importing process, maxRSS)   (goal ≤ 400 MB)`,
    ];
    lines.push(`load         ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (1-minute load average)`);
    // On a shared machine the wall times stretch with the load; CPU times say what they are made of.
    const cpu = `CPU          import: importer ${s(run.cpuMs)} (analysis ${s(run.analysisCpuMs)})`;
    if (db.kind === "embedded") lines.push(`${cpu} + database ${s(run.serverCpuMs)}; COPY: ${s(copy.cpuMs)} (database and client, one process)`);
    else lines.push(`${cpu}; the server's CPU is not measured`);
    if (again) {
      const nothing = again.written ? Object.values(again.written).every((n) => n === 0) : again.issues.length === 0;
      lines.push(`re-import    ${s(again.ms)}, peak RSS ${(again.maxRssBytes / MB).toFixed(0)} MB, ${nothing ? "wrote nothing" : `WROTE ${JSON.stringify(again.written)}`}`);
      if (!nothing) process.exitCode = 1;
    }
    console.log(`\nToolEmu import benchmark, shape ${shapeName}\n${lines.map((l) => `  ${l}`).join("\n")}`);
    if (!ok || !copyOk) process.exitCode = 1;
  } finally {
    await sql.end().catch(() => {});
    await db.drop();
    if (opts.keepFolder) console.log(`  folder kept: ${folder}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}
