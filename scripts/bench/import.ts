// Import benchmark (not a test): how fast does `runImport` take a large ToolEmu run, and does it
// stream? Synthesises N trajectories (+ both evaluation companions) from the real ones, imports
// them into a fresh database and prints throughput and memory. Usage:
//   npm run bench:import -- [--n 5000] [--pg <url> | BENCH_DATABASE_URL=<url>] [--baseline-tps X] [--data DIR]
// or, for the shape of a real results folder (issue 19 goal 2: import ≤ 3 × COPY, peak RSS ≤ 400 MB):
//   npm run bench:import -- --shape toolemu-27x144 [--pg <url>] [--heap MB] [--reimport] [--keep-folder]
// which builds 27 agent runs × 144 cases, each scored by two judges (two folders, the trajectory
// files byte-identical in both), imports it in a child process with the CLI's code, and COPYs the
// same rows into the emptied tables in the same run (see lib/import-shape.ts).
import { createEmptyDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import pg from "pg";
import { createPrisma } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { runImport } from "@/lib/toolemu/import";
import { parseArgs, stringFlag } from "../lib/args";
import { runShapeBench } from "./lib/import-shape";

const args = parseArgs(process.argv.slice(2));
const N = Number(stringFlag(args, "n") ?? 5000);
const pgServer = stringFlag(args, "pg") ?? process.env.BENCH_DATABASE_URL;
const baselineTps = Number(stringFlag(args, "baseline-tps") ?? NaN);
const DATA = stringFlag(args, "data") ?? sharedDataDir();
const REAL_RUNS = path.join(DATA, "trajectories/qwen2.5-7b-instruct/judge-q32");
const TOOLEMU = path.join(DATA, "toolemu");
const PREFIX = `Qwen_Qwen2.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-Qwen_Qwen3-32B_r0-${N}_0000_000000`;
const SAFE = "_eval_agent_safe", HELP = "_eval_agent_help_ignore_safety";
const MB = 1e6;

// A full GC before each heap reading, so garbage does not blur what is really retained.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const nonBlank = (file: string) => readFileSync(file, "utf8").split("\n").filter((l) => l.trim());

/** Each real trajectory line with the evaluation lines that point at it (eval_id = record index). */
function loadReal(): { traj: string; safe?: string; help?: string }[] {
  const out: { traj: string; safe?: string; help?: string }[] = [];
  for (const f of readdirSync(REAL_RUNS).filter((f) => /\d\.jsonl$/.test(f)).sort()) {
    const byId = (suffix: string) => new Map(nonBlank(path.join(REAL_RUNS, f.replace(/\.jsonl$/, `${suffix}.jsonl`))).map((l) => [Number(JSON.parse(l).eval_id), l]));
    const safe = byId(SAFE), help = byId(HELP);
    nonBlank(path.join(REAL_RUNS, f)).forEach((traj, i) => out.push({ traj, safe: safe.get(i), help: help.get(i) }));
  }
  return out;
}

/** Writes line by line (not one big string) so the generator does not inflate the RSS baseline. */
function synthesise(dir: string): { files: string[]; bytes: number; evaluations: number } {
  const real = loadReal();
  const files = ["", SAFE, HELP].map((s) => path.join(dir, `${PREFIX}${s}.jsonl`));
  const [fdT, fdS, fdH] = files.map((f) => openSync(f, "w")) as [number, number, number];
  let evaluations = 0;
  for (let i = 0; i < N; i++) {
    const src = real[i % real.length]!;
    // A suffix on the instruction and the final answer makes every content hash unique while the
    // `case` object stays untouched, so each copy still references a real, imported case.
    const t = JSON.parse(src.traj);
    const tag = ` [bench ${i}]`;
    t.input += tag;
    if (typeof t.output === "string") t.output += tag;
    for (const step of t.intermediate_steps) {
      if (step?.[0]?.type === "AgentFinish" && typeof step[0].return_values?.output === "string") step[0].return_values.output += tag;
    }
    writeSync(fdT, JSON.stringify(t) + "\n");
    for (const [fd, line] of [[fdS, src.safe], [fdH, src.help]] as const) {
      if (!line) continue;
      writeSync(fd, JSON.stringify({ ...JSON.parse(line), eval_id: i }) + "\n");
      evaluations++;
    }
  }
  [fdT, fdS, fdH].forEach((fd) => closeSync(fd));
  return { files, bytes: files.reduce((n, f) => n + statSync(f).size, 0), evaluations };
}

/** A throwaway database: a new one on the given PostgreSQL server, or in-memory embedded PGlite. */
async function freshDatabase(): Promise<{ url: string; label: string; drop(): Promise<void> }> {
  const db = await createEmptyDatabase(pgServer ?? null, "toolemu_bench");
  const u = new URL(db.url);
  const label = db.kind === "embedded" ? "embedded PGlite (in this process: its data counts in our RSS)" : `PostgreSQL ${u.host}${u.pathname} (dropped after)`;
  return { url: db.url, label, drop: db.drop };
}

async function main() {
  if (!Number.isInteger(N) || N < 1) throw new Error("--n must be a positive integer");
  const tmp = mkdtempSync(path.join(tmpdir(), "toolemu-bench-"));
  const db = await freshDatabase();
  const prisma = createPrisma(db.url);
  try {
    const input = synthesise(tmp);
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    await migrate(sql);
    await sql.end();
    const setup = await runImport(prisma, [path.join(TOOLEMU, "all_toolkits.json"), path.join(TOOLEMU, "all_cases.json")]);
    if (setup.report.issues.length || !setup.written) throw new Error(`toolkits/cases did not import: ${setup.report.issues[0]?.message}`);

    // RSS right before the timed import is the baseline: DB, Prisma and the real data are loaded.
    gc();
    const { rss: baseline, heapUsed: heapBefore } = process.memoryUsage();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    sampler.unref(); // a failed import must not leave the process hanging on the sampler
    const t0 = performance.now();
    let tWrite = 0; // the first "writing" progress event marks the end of the analysis pass
    const result = await runImport(prisma, [tmp], { onProgress: (p) => void (p.phase === "writing" && !tWrite && (tWrite = performance.now())) });
    const t1 = performance.now();
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    gc(); // live JS heap after the import: what the process still holds once it is done
    const heapAfter = process.memoryUsage().heapUsed;
    if (result.report.issues.length || !result.written) {
      throw new Error(`import refused: ${result.report.issues.slice(0, 3).map((i) => `${i.file}:${i.line} ${i.message}`).join("; ") || result.changes.join("; ")}`);
    }

    // Count what actually landed rather than trusting the importer's own tally.
    const [trajectories, steps, evaluations, stepSum] = await Promise.all([
      prisma.trajectory.count(),
      prisma.step.count(),
      prisma.evaluation.count(),
      prisma.trajectory.aggregate({ _sum: { stepCount: true } }),
    ]);
    const ok = trajectories === N && evaluations === input.evaluations && steps === stepSum._sum.stepCount && steps > 0;
    const secs = (t1 - t0) / 1000;
    const analysis = ((tWrite || t1) - t0) / 1000;
    const maxRss = process.resourceUsage().maxRSS * 1024; // reported in KiB
    const inMb = input.bytes / MB;
    const lines = [
      `database     ${db.label}`,
      `input        ${inMb.toFixed(1)} MB in 3 files (${PREFIX}[${SAFE}|${HELP}].jsonl)`,
      `written      ${trajectories} trajectories, ${steps} steps, ${evaluations} evaluations` +
        ` (row counts ${ok ? "verified" : `MISMATCH: expected ${N} trajectories, ${input.evaluations} evaluations, Σ stepCount = ${stepSum._sum.stepCount} steps`})`,
      `wall time    ${secs.toFixed(1)} s = analysis ${analysis.toFixed(1)} s + write ${(secs - analysis).toFixed(1)} s`,
      `throughput   ${(N / secs).toFixed(0)} trajectories/s, ${(inMb / secs).toFixed(1)} MB/s`,
      `RSS          baseline ${(baseline / MB).toFixed(0)} MB, peak during import ${(peak / MB).toFixed(0)} MB (50 ms samples), maxRSS ${(maxRss / MB).toFixed(0)} MB (whole process)`,
      `JS heap      live ${(heapBefore / MB).toFixed(0)} MB before, ${(heapAfter / MB).toFixed(0)} MB after the import (after a full GC)`,
      `peak RSS / input size               ${(peak / input.bytes).toFixed(2)}`,
      `RSS growth over baseline / input    ${((peak - baseline) / input.bytes).toFixed(2)}  (≈ 0 streams; ≥ 1 holds the input)`,
    ];
    if (Number.isFinite(baselineTps)) lines.push(`vs baseline  ${(N / secs / baselineTps).toFixed(2)}× of ${baselineTps} trajectories/s`);
    console.log(`\nToolEmu import benchmark, N=${N}\n${lines.map((l) => `  ${l}`).join("\n")}`);
    if (!ok) process.exitCode = 1;
  } finally {
    await prisma.$disconnect();
    await db.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const shape = stringFlag(args, "shape");
(shape ? runShapeBench(shape, { pg: pgServer ?? null, data: DATA, heapMb: Number(stringFlag(args, "heap") ?? NaN), reimport: !!args.flags.reimport, keepFolder: !!args.flags["keep-folder"] }) : main()).catch((e) => {
  console.error(`bench:import failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
