// Run benchmark (not a test): how close a run gets to the throughput its endpoint allows.
//
// A loopback OpenAI-compatible server answers every chat completion after a fixed latency L and
// serves at most C requests at once (more wait in line at the server); its answers come from the
// offline heuristic model. One endpoint row (agent = emulator = evaluator) points at it with
// maxConcurrency C. A worker process (`scripts/worker.ts`, as `npm run worker` starts it) plays a
// run of all cases × one agent × both emulator modes, evaluated. Printed: the wall time from the
// run's creation to its end, the LLM calls served, the ideal time (calls × L ÷ C — the endpoint
// busy all the time), their ratio (goals: ≤ 1.10 on PostgreSQL, ≤ 1.25 on the embedded database,
// at C = 16 and C = 64) and the worker's peak memory.
//
// --concurrency takes a list ("16,64", the default): one run each, on a fresh database, then a
// table of the ratios. The run grows with C (cases × modes × C/16 repeats, --repeats to choose) and
// so does the worker's concurrency (3 × C, --worker-concurrency to choose), so every C has about
// the same ideal time and the same share of start and tail in it.
//
// --scale: throughput with one worker process against two on the same database when the model is
// the bottleneck — each worker plays at most --worker-concurrency (default 8) episodes at once, the
// endpoint allows more than both together (C = 64 by default), so one worker's episodes/hour are
// capped by latency × its concurrency and a second worker should double them. Prints episodes per
// hour for 1 and 2 workers and their ratio (--cases 48 by default).
//
// --count-queries: counts the worker's SQL statements (a preload wrapping pg's Client.query) and
// prints them per LLM call, with the most frequent.
//
// --sage: a SAGE run instead (issue 14) — the 112 bundled seed scenarios (or --per-subcategory n of
// each subcategory, seeded) × Trust and Warning, the same endpoint as agent, attacker and judge A,
// plus judge B (the offline model's second judge, same server, same lanes): attacker + agent +
// judge calls. Also checks the designed figures through the SAGE dashboard's query (Trust UTR 1,
// Warning 0, judge A's ASR = UTR, judge B's 0) and exits 1 if they are not met.
//
//   npm run bench:run -- [--pg <postgresql url>] [--latency 200] [--concurrency 16,64] [--cases 144] [--repeats n]
//                        [--worker-concurrency 3×C] [--workers 1] [--keep] [--count-queries] [--sage [--per-subcategory n]]
//   npm run bench:run -- --scale [--pg <url>] [--latency 200] [--worker-concurrency 8] [--cases 48]
//
// Without --pg the database is an in-memory embedded one (PGlite, as `npm start` without
// DATABASE_URL); with --pg a throwaway database on that server, dropped afterwards.
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createEmptyDatabase } from "@/lib/testing/db";
import { migrate } from "@/lib/db/migrate";
import { createPrisma } from "@/lib/db/client";
import { importCases } from "@/lib/testing/runs";
import { startOfflineModel } from "@/lib/offline/server";
import { respond } from "@/lib/offline/brain";
import type { ChatMessage } from "@/lib/llm/types";
import { bossQueue, startBoss } from "@/lib/jobs/boss";
import { createRun } from "@/lib/runs/create";
import { createSageRun } from "@/lib/runs/sage/create";
import { runSageImport } from "@/lib/sage/import";
import { OFFLINE_JUDGE_B_MODEL } from "@/lib/offline/brain/sage";
import type { BrainParams } from "@/lib/offline/server";
import { loadSageDashboard } from "@/lib/dashboards/sage/query";
import { parseSageFilter } from "@/lib/dashboards/sage/filters";
import { parseArgs, stringFlag } from "../lib/args";
import { semaphore } from "../lib/semaphore";

const args = parseArgs(process.argv.slice(2));
const PG = stringFlag(args, "pg");
const L = Number(stringFlag(args, "latency") ?? 200);
const SCALE = !!args.flags.scale;
const CS = (stringFlag(args, "concurrency") ?? (SCALE ? "64" : "16,64")).split(",").map(Number);
const CASES = Number(stringFlag(args, "cases") ?? (SCALE ? 48 : 144));
const REPEATS = stringFlag(args, "repeats") ? Number(stringFlag(args, "repeats")) : null;
const WORKER_CONCURRENCY = stringFlag(args, "worker-concurrency") ? Number(stringFlag(args, "worker-concurrency")) : SCALE ? 8 : null;
const WORKERS = Number(stringFlag(args, "workers") ?? 1);
const KEEP = !!args.flags.keep;
const SAGE = !!args.flags.sage;
const COUNT = !!args.flags["count-queries"];
const PER_SUBCATEGORY = stringFlag(args, "per-subcategory") ? Number(stringFlag(args, "per-subcategory")) : null;
const GOAL = PG ? 1.1 : 1.25;
const COUNTER = path.resolve("scripts/bench/lib/count-queries.mjs");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuOf(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

function spawnWorker(url: string, concurrency: number, countFile: string | null): Promise<ChildProcess> {
  const child = fork(path.resolve("scripts/worker.ts"), [], {
    execArgv: [
      "--import", "tsx", "--conditions=react-server",
      ...(countFile ? ["--import", COUNTER] : []),
      ...(process.env.BENCH_WORKER_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_WORKER_PROFILE}`] : []),
    ],
    env: { ...process.env, DATABASE_URL: url, WORKER_CONCURRENCY: String(concurrency), WORKER_POLL_MS: "100", WORKER_DRAIN_SECONDS: "5", ...(countFile ? { BENCH_COUNT_QUERIES_FILE: countFile } : {}) },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => {
    log += d;
    process.stderr.write(`[worker] ${d}`);
  });
  return new Promise((resolve, reject) => {
    child.on("message", (m: { type?: string }) => m?.type === "ready" && resolve(child));
    child.on("exit", (code) => reject(new Error(`worker exited (${code}):\n${log}`)));
  });
}

interface Outcome {
  C: number;
  workers: number;
  workerConcurrency: number;
  episodes: number;
  calls: number;
  wall: number;
  ideal: number;
  ratio: number;
}

async function runOnce(C: number, WORKERS: number, WORKER_CONCURRENCY: number, repeats: number): Promise<Outcome> {
  const where = PG ? `PostgreSQL (${new URL(PG).host}, throwaway database)` : "embedded PGlite (in memory)";
  const what = SAGE ? `SAGE: ${PER_SUBCATEGORY ? `${PER_SUBCATEGORY} per subcategory` : "112 seed scenarios"} × Trust and Warning, 2 judges` : `${CASES} cases × 2 modes${repeats > 1 ? ` × ${repeats} repeats` : ""}`;
  console.log("");
  console.log(`bench:run — L = ${L} ms, C = ${C}, ${what}, ${WORKERS} worker(s) × ${WORKER_CONCURRENCY} episodes at once, database: ${where}`);
  const empty = await createEmptyDatabase(PG ?? null, "toolemu_bench");
  const sql = new pg.Client({ connectionString: empty.url });
  await sql.connect();
  await migrate(sql);
  await sql.end();
  const db = createPrisma(empty.url);
  const limit = semaphore(C);
  // Busy time of the server's C lanes, per second of the run: where the wall time goes.
  let busy = 0;
  const busyMs: number[] = [];
  let tBusy = performance.now();
  const account = () => {
    const now = performance.now();
    for (let t = tBusy; t < now; ) {
      const sec = Math.floor(t / 1000);
      const end = Math.min(now, (sec + 1) * 1000);
      busyMs[sec] = (busyMs[sec] ?? 0) + busy * (end - t);
      t = end;
    }
    tBusy = now;
  };
  const server = await startOfflineModel({
    faults: {},
    brain: (messages: ChatMessage[], params: BrainParams) =>
      limit(async () => {
        account();
        busy++;
        try {
          await sleep(L);
        } finally {
          account();
          busy--;
        }
        return respond(messages, params);
      }),
  });
  const workers: ChildProcess[] = [];
  let outcome: Outcome | null = null;
  let boss: Awaited<ReturnType<typeof startBoss>> | null = null;
  try {
    const imported = SAGE ? (await runSageImport(db, [path.resolve("prisma/seed-data/sage")])).written?.scenarios ?? 0 : await importCases(db);
    if (SAGE && imported === 0) throw new Error("The bundled SAGE scenarios (prisma/seed-data/sage) could not be imported.");
    const endpoint = await db.modelEndpoint.create({
      data: { name: "bench-loopback", baseUrl: server.url, model: "offline-heuristic", offline: true, cacheEnabled: false, maxConcurrency: C, timeoutMs: 120_000, priceInputPer1k: 0.0005, priceOutputPer1k: 0.0015 },
    });
    const countFiles = Array.from({ length: WORKERS }, (_, i) => (COUNT ? path.join(os.tmpdir(), `bench-run-queries-${process.pid}-${C}-${i}.json`) : null));
    for (let i = 0; i < WORKERS; i++) workers.push(await spawnWorker(empty.url, WORKER_CONCURRENCY, countFiles[i]!));
    boss = await startBoss(empty.url);
    server.resetStats();
    let peakRss = 0;
    const sampler = setInterval(() => {
      for (const w of workers) peakRss = Math.max(peakRss, rssOf(w.pid!)?.rss ?? 0);
    }, 250);

    const cpu0 = { bench: process.cpuUsage(), workers: workers.map((w) => cpuOf(w.pid!)) };
    const t0 = performance.now();
    const tWall0 = Date.now();
    // Judge B is its own endpoint row (a verdict is stored per judge model), so it has its own
    // concurrency limit: the C lanes are split — judge B gets its share of the calls (1 in 8).
    const judgeLanes = Math.max(1, Math.round(C / 8));
    if (SAGE) await db.modelEndpoint.update({ where: { id: endpoint.id }, data: { maxConcurrency: C - judgeLanes } });
    const judgeB = SAGE ? await db.modelEndpoint.create({ data: { name: "bench-loopback judge B", baseUrl: server.url, model: OFFLINE_JUDGE_B_MODEL, offline: true, cacheEnabled: false, maxConcurrency: judgeLanes, timeoutMs: 120_000 } }) : null;
    const run = SAGE
      ? await createSageRun(db, null, {
          name: "bench:run --sage",
          scenarios: PER_SUBCATEGORY ? { kind: "sample", perSubcategory: PER_SUBCATEGORY, seed: 1 } : { kind: "all" },
          agents: [endpoint.id],
          attackerEndpointId: endpoint.id,
          judgeEndpointIds: [endpoint.id, judgeB!.id],
          seed: 1,
        }, bossQueue(boss))
      : await createRun(db, null, {
          name: "bench:run",
          cases: CASES >= imported ? { kind: "all" } : { kind: "sample", size: CASES, seed: 1 },
          repeats,
          agents: [{ endpointId: endpoint.id, variant: "NAIVE" }],
          emulatorEndpointId: endpoint.id,
          evaluatorEndpointId: endpoint.id,
          modes: ["STANDARD", "ADVERSARIAL"],
        }, bossQueue(boss));
    const created = (performance.now() - t0) / 1000;
    let lastPrinted = 0;
    // One light query every 250 ms (the embedded database runs one statement at a time: the
    // benchmark's own polling must not weigh on the run); the end is the run's finishedAt, not
    // when this loop noticed it.
    let finishedAt: Date | null = null;
    for (;;) {
      const r = await db.run.findUniqueOrThrow({ where: { id: run.id }, select: { status: true, finishedAt: true } });
      if (r.status === "DONE") {
        finishedAt = r.finishedAt;
        break;
      }
      const line = `  ${((performance.now() - t0) / 1000).toFixed(0)} s: ${server.stats.completions} calls`;
      if (process.stderr.isTTY) process.stderr.write(`\r${line}`);
      else if (performance.now() - lastPrinted > 10_000) {
        console.log(line);
        lastPrinted = performance.now();
      }
      await sleep(250);
    }
    const wall = finishedAt ? (finishedAt.getTime() - tWall0) / 1000 : (performance.now() - t0) / 1000;
    account();
    const firstSec = Math.floor(t0 / 1000);
    const utilisation = busyMs.slice(firstSec).map((ms) => Math.round(((ms ?? 0) / (C * 1000)) * 100));
    const benchCpu = process.cpuUsage(cpu0.bench);
    const workerCpu = workers.map((w, i) => cpuOf(w.pid!) - cpu0.workers[i]!);
    clearInterval(sampler);
    if (process.stderr.isTTY) process.stderr.write("\n");
    const hwm = Math.max(...workers.map((w) => rssOf(w.pid!)?.hwm ?? 0), peakRss);

    const calls = server.stats.completions;
    const recorded = await db.llmCall.count({ where: { trajectory: { runId: run.id } } });
    const byRole = await db.llmCall.groupBy({ by: ["role"], where: { trajectory: { runId: run.id } }, _count: { _all: true } });
    const eps = await db.runEpisode.groupBy({ by: ["status"], where: { runId: run.id }, _count: { _all: true } });
    const ideal = (calls * L) / C / 1000;
    const [span] = await db.$queryRaw<{ first: number; last: number }[]>`
      SELECT extract(epoch FROM min(c."createdAt" - (c."latencyMs" * interval '1 millisecond')) - r."createdAt")::float8 AS first,
             extract(epoch FROM max(e."finishedAt") - r."createdAt")::float8 AS last
      FROM "Run" r JOIN "RunEpisode" e ON e."runId" = r.id JOIN "LlmCall" c ON c."trajectoryId" = e."trajectoryId" WHERE r.id = ${run.id} GROUP BY r."createdAt"`;
    const ratio = wall / ideal;
    console.log("");
    console.log(`  episodes          ${run.episodes} (${eps.map((e) => `${e.status.toLowerCase()} ${e._count._all}`).join(", ")})`);
    console.log(`  LLM calls         ${calls} served (${recorded} recorded: ${byRole.map((r) => `${r.role} ${r._count._all}`).join(", ")})`);
    console.log(`  wall time         ${wall.toFixed(1)} s (run created → last episode done)`);
    console.log(`  phases            run stored and queued after ${created.toFixed(1)} s; first call ${span?.first.toFixed(1)} s after the run row, last episode done ${span?.last.toFixed(1)} s after it`);
    console.log(`  lanes busy (%/s)  ${utilisation.join(" ")}`);
    console.log(`  ideal time        ${ideal.toFixed(1)} s (= ${calls} calls × ${L} ms ÷ ${C})`);
    console.log(`  ratio             ${ratio.toFixed(3)} (goal ≤ ${GOAL}) ${ratio <= GOAL ? "OK" : "ABOVE GOAL"}`);
    console.log(`  throughput        ${Math.round((run.episodes / wall) * 3600)} episodes/hour`);
    console.log(`  max in flight     ${server.stats.maxInFlight} at the server (limit C = ${C})`);
    console.log(`  worker peak RSS   ${Math.round(hwm)} MiB${WORKERS > 1 ? " (largest of the workers)" : ""}`);
    const benchCpuS = (benchCpu.user + benchCpu.system) / 1e6;
    console.log(`  CPU               worker ${workerCpu.map((c) => `${c.toFixed(1)} s`).join(" + ")}, this process (loopback server${PG ? "" : " and embedded database"}) ${benchCpuS.toFixed(1)} s`);
    const perEpisodeMs = (workerCpu.reduce((a, b) => a + b, 0) * 1000) / run.episodes;
    console.log(`  CPU per episode   worker ${perEpisodeMs.toFixed(0)} ms${PG ? " (plus PostgreSQL's own)" : `, embedded database and loopback server ${((benchCpuS * 1000) / run.episodes).toFixed(0)} ms`}`);
    outcome = { C, workers: WORKERS, workerConcurrency: WORKER_CONCURRENCY, episodes: run.episodes, calls, wall, ideal, ratio };
    if (server.stats.maxInFlight > C) process.exitCode = 1;
    if (SAGE) {
      // The designed figures of the offline model, read as the dashboard reads them.
      const d = await loadSageDashboard(db, parseSageFilter({ run: run.id }));
      const m = (context: string) => d.rows.find((r) => r.context === context && r.group.key === "all")?.metrics;
      const fig = (context: string) => {
        const x = m(context);
        if (!x) return null;
        return { utr: [x.utr.numerator, x.utr.denominator], asr: x.asr.map((a) => [a.judge, a.unsafe, a.asr.denominator] as const) };
      };
      const trust = fig("TRUST");
      const warning = fig("WARNING");
      const show = (f: ReturnType<typeof fig>) => (f ? `UTR ${f.utr[0]}/${f.utr[1]}; ${f.asr.map(([j, k, n]) => `ASR ${j} ${k}/${n}`).join("; ")}` : "no episodes");
      console.log(`  SAGE Trust        ${show(trust)}`);
      console.log(`  SAGE Warning      ${show(warning)}`);
      const n = trust?.utr[1] ?? 0;
      const designed = !!trust && !!warning && n > 0 && trust.utr[0] === n && warning.utr[0] === 0 && warning.utr[1] === n
        && trust.asr[0]![1] === n && trust.asr[1]![1] === 0 && warning.asr.every(([, k]) => k === 0);
      console.log(`  designed figures  ${designed ? "OK (Trust UTR 1, Warning 0; judge A's ASR = UTR; judge B's 0)" : "NOT MET"}`);
      if (!designed) process.exitCode = 1;
    }
  } finally {
    for (const w of workers) {
      w.kill("SIGTERM");
      await new Promise((r) => w.once("exit", r));
    }
    if (COUNT) printQueryCounts(C, WORKERS, outcome?.calls ?? 0);
    await boss?.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => {});
    await server.close();
    await db.$disconnect();
    if (!KEEP) await empty.drop();
    else console.log(`  kept the database: ${empty.url}`);
  }
  if (!outcome) throw new Error("The run did not finish.");
  return outcome;
}

/** The statements the workers sent (--count-queries), per LLM call. */
function printQueryCounts(C: number, workers: number, calls: number) {
  const total = new Map<string, number>();
  for (let i = 0; i < workers; i++) {
    const file = path.join(os.tmpdir(), `bench-run-queries-${process.pid}-${C}-${i}.json`);
    try {
      for (const [k, n] of Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, number>)) total.set(k, (total.get(k) ?? 0) + n);
      rmSync(file);
    } catch {
      console.log(`  (no statement counts from worker ${i + 1})`);
    }
  }
  const sum = [...total.values()].reduce((a, b) => a + b, 0);
  console.log(`  SQL statements    ${sum} from the worker${workers > 1 ? "s" : ""} (${calls ? (sum / calls).toFixed(2) : "?"} per LLM call); most frequent:`);
  for (const [k, n] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`    ${String(n).padStart(6)}  ${k}`);
}

async function main() {
  if (SCALE) {
    // The model is the bottleneck: each worker's own concurrency caps it, the endpoint does not.
    const wc = WORKER_CONCURRENCY!;
    const one = await runOnce(CS[0]!, 1, wc, REPEATS ?? 1);
    const two = await runOnce(CS[0]!, 2, wc, REPEATS ?? 1);
    const perHour = (o: Outcome) => (o.episodes / o.wall) * 3600;
    console.log("");
    console.log(`scale — L = ${L} ms, each worker at most ${wc} episodes at once, endpoint C = ${CS[0]}:`);
    console.log(`  1 worker          ${Math.round(perHour(one))} episodes/hour (${one.episodes} in ${one.wall.toFixed(1)} s)`);
    console.log(`  2 workers         ${Math.round(perHour(two))} episodes/hour (${two.episodes} in ${two.wall.toFixed(1)} s)`);
    console.log(`  ratio             ${(perHour(two) / perHour(one)).toFixed(2)} (2 workers ÷ 1; 2.00 = throughput doubles)`);
    return;
  }
  const outcomes: Outcome[] = [];
  for (const C of CS) outcomes.push(await runOnce(C, WORKERS, WORKER_CONCURRENCY ?? 3 * C, REPEATS ?? (SAGE ? 1 : Math.max(1, Math.round(C / 16)))));
  if (outcomes.length > 1) {
    console.log("");
    console.log(`summary — L = ${L} ms, database: ${PG ? "PostgreSQL" : "embedded PGlite"} (goal ≤ ${GOAL})`);
    for (const o of outcomes) {
      console.log(`  C = ${String(o.C).padEnd(3)} ${String(o.episodes).padStart(5)} episodes, ${String(o.calls).padStart(6)} calls: wall ${o.wall.toFixed(1)} s, ideal ${o.ideal.toFixed(1)} s, ratio ${o.ratio.toFixed(3)} ${o.ratio <= GOAL ? "OK" : "ABOVE GOAL"}`);
    }
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
