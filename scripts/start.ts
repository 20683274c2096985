// `npm start`: the whole app from one command.
//  1. database: DATABASE_URL, or the embedded PGlite server (data in .data/);
//  2. pending migrations, demo users on the first embedded start;
//  3. build the web app if the sources changed, start it, wait until /api/health answers;
//  4. print the URL and the demo sign-ins. Ctrl-C stops everything cleanly.
// In embedded mode (or with OFFLINE_LLM=1) the offline heuristic model also runs in this process,
// with a ModelEndpoint row pointing at it, so the engine has an endpoint out of the box.
import { spawn, execSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { connectClient, describeUrl } from "@/lib/db/connect";
import { dataDir, startEmbedded, type EmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { createPrisma } from "@/lib/db/client";
import { seedDemoUsers, usableDemoUsers } from "@/lib/seed/demo-users";
import { DEMO_CAMPAIGN_NAME, seedDemoCampaign, seedSageData, seedToolemuData } from "@/lib/seed/bundled-data";
import { resolveAuthSecret } from "@/lib/auth/secret";
import { ensureOfflineEndpoint, ensureReplayEndpoint, OFFLINE_ENDPOINT_NAME } from "@/lib/llm/endpoints";
import { loadReplayRecording } from "@/lib/engine/replay";
import { interruptOrphanEpisodes } from "@/lib/engine/background";
import { DEFAULT_OFFLINE_PORT, startOfflineModel, type OfflineModelServer } from "@/lib/offline/server";
import { describeFaults } from "@/lib/offline/faults";
import { OFFLINE_MODEL_LABEL } from "@/lib/llm/types";
import { buildIfNeeded } from "./lib/build";
import { findFreePort, isPortFree } from "./lib/port";
import { fail, info } from "./lib/output";

const t0 = Date.now();
let embedded: EmbeddedDatabase | null = null;
let web: ChildProcess | null = null;
let offline: OfflineModelServer | null = null;
let worker: ChildProcess | null = null;
let stopping = false;

async function main() {
  // Checked before anything starts, so a typo costs no database start.
  const offlineUrl = offlineModelUrl();
  const external = process.env.DATABASE_URL;
  let url: string;
  if (external) {
    url = external;
    info(`Database: PostgreSQL at ${describeUrl(url)}`);
  } else {
    const port = process.env.TOOLEMU_EMBEDDED_PORT ? Number(process.env.TOOLEMU_EMBEDDED_PORT) : undefined;
    embedded = await startEmbedded({ dir: dataDir(), port });
    url = embedded.url;
    info(`Database: embedded PostgreSQL (PGlite) in ${path.relative(process.cwd(), dataDir()) || "."}/, serving on 127.0.0.1:${embedded.port}`);
  }

  const client = await connectClient(url);
  try {
    const result = await migrate(client, { log: (l) => info(l) });
    for (const m of result.modified) info(`warning: applied migration ${m} was edited afterwards (checksum differs)`);
  } finally {
    await client.end();
  }

  // OFFLINE_LLM=1 forces the offline model on (e.g. with DATABASE_URL), OFFLINE_LLM=0 off.
  const wantOffline = process.env.OFFLINE_LLM === "1" || (!!embedded && process.env.OFFLINE_LLM !== "0");
  // OFFLINE_LLM_URL: the offline model runs elsewhere (docker compose's offline-llm service, which
  // the worker container can reach too); register that URL instead of serving one on 127.0.0.1.
  if (wantOffline && !offlineUrl) offline = await startOfflineInProcess(url);

  const prisma = createPrisma(url);
  let demo;
  try {
    if (embedded && (await prisma.user.count()) === 0) {
      const n = await seedDemoUsers(prisma);
      info(`Seeded ${n} demo users (first start).`);
    }
    if (embedded && (await prisma.toolkit.count()) === 0) {
      info("Importing the bundled ToolEmu data (first start)…");
      const w = await seedToolemuData(prisma);
      if (w) info(`Imported ${w.toolkits} toolkits, ${w.cases} cases, ${w.trajectories} trajectories, ${w.evaluations} evaluations.`);
      if (await seedDemoCampaign(prisma)) info(`Created the demo annotation campaign "${DEMO_CAMPAIGN_NAME}".`);
    }
    if (embedded && (await prisma.sageScenario.count()) === 0) {
      info("Importing the bundled SAGE scenarios…");
      const w = await seedSageData(prisma);
      if (w) info(`Imported ${w.families} SAGE family definitions and ${w.scenarios} scenarios.`);
    }
    if (offline) {
      await ensureOfflineEndpoint(prisma, offline.url);
      await ensureReplayEndpoint(prisma, offline.url);
    } else if (offlineUrl) {
      await ensureOfflineEndpoint(prisma, offlineUrl);
      info(`Offline model: ${OFFLINE_MODEL_LABEL} at ${offlineUrl} (OFFLINE_LLM_URL)`);
    }
    const orphans = await interruptOrphanEpisodes(prisma);
    if (orphans) info(`Marked ${orphans} playground episode(s) left running by the previous server as interrupted.`);
    demo = embedded ? await usableDemoUsers(prisma) : [];
  } finally {
    await prisma.$disconnect();
  }

  const secret = resolveAuthSecret({ embedded: !!embedded, dataDir: dataDir() });
  const host = process.env.HOST ?? "127.0.0.1";
  const port = await choosePort(host);
  const publicUrl = process.env.NEXTAUTH_URL ?? `http://localhost:${port}`;

  buildIfNeeded(info);

  web = spawn(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", host], {
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      DATABASE_URL: url,
      NEXTAUTH_SECRET: secret,
      NEXTAUTH_URL: publicUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      TOOLEMU_COMMIT: process.env.TOOLEMU_COMMIT ?? gitCommit(),
    },
  });
  web.on("exit", (code) => {
    if (!stopping) {
      info(`The web server exited (code ${code}).`);
      void shutdown(code ?? 1);
    }
  });

  // Embedded mode (or START_WORKER=1): one run worker beside the web server; START_WORKER=0: none.
  if (process.env.START_WORKER === "1" || (!!embedded && process.env.START_WORKER !== "0")) worker = startWorker(url);

  await waitForHealth(`http://127.0.0.1:${port}/api/health`);
  banner(publicUrl, demo, ((Date.now() - t0) / 1000).toFixed(1));
}

/** `npm run worker` as a child process on the same database (same code path as a separate worker). */
function startWorker(url: string): ChildProcess {
  // Node with tsx's loader directly (not tsx's CLI, which would sit between us and the worker's signals).
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", path.join("scripts", "worker.ts")], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DATABASE_URL: url, WORKER_DRAIN_SECONDS: process.env.WORKER_DRAIN_SECONDS ?? "5", TOOLEMU_COMMIT: process.env.TOOLEMU_COMMIT ?? gitCommit() },
  });
  child.on("exit", (code, signal) => {
    if (!stopping) info(`The run worker exited (${signal ?? `code ${code}`}); runs wait until a worker runs again (\`npm run worker\`).`);
  });
  return child;
}

/** OFFLINE_LLM_URL, checked: an http(s) URL of the offline model's /v1, or null when unset. */
function offlineModelUrl(): string | null {
  const raw = process.env.OFFLINE_LLM_URL?.trim();
  if (!raw) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`OFFLINE_LLM_URL=${raw} is not a URL; use e.g. http://offline-llm:11435/v1.`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(`OFFLINE_LLM_URL=${raw} must be an http:// or https:// URL.`);
  return raw.replace(/\/+$/, "");
}

async function startOfflineInProcess(dbUrl: string): Promise<OfflineModelServer> {
  const host = process.env.OFFLINE_LLM_HOST ?? "127.0.0.1";
  const explicit = process.env.OFFLINE_LLM_PORT;
  let port = Number(explicit ?? DEFAULT_OFFLINE_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`OFFLINE_LLM_PORT=${explicit} is not a port number.`);
  if (port !== 0 && !(await isPortFree(port, host))) {
    if (explicit) throw new Error(`Port ${port} for the offline model is already in use. Stop what uses it, or choose another: OFFLINE_LLM_PORT=${port + 1} npm start`);
    const free = await findFreePort(port + 1, host);
    if (!free) throw new Error(`Ports ${port}–${port + 50} are all in use; set OFFLINE_LLM_PORT to a free one.`);
    port = free;
  }
  // The replay endpoint is served beside it, answering from the recordings in this database.
  const replayDb = createPrisma(dbUrl);
  const server = await startOfflineModel({ port, host, replay: (id) => loadReplayRecording(replayDb, id) });
  const faults = describeFaults(server.faults);
  info(`Offline model: ${OFFLINE_MODEL_LABEL} at ${server.url}${faults === "none" ? "" : ` (fault mode: ${faults})`}`);
  return server;
}

async function choosePort(host: string): Promise<number> {
  const explicit = process.env.PORT;
  const wanted = Number(explicit ?? 3000);
  if (await isPortFree(wanted, host)) return wanted;
  if (explicit) throw new Error(`Port ${wanted} is already in use. Stop what uses it, or choose another: PORT=${wanted + 1} npm start`);
  const free = await findFreePort(wanted + 1, host);
  if (!free) throw new Error(`Ports ${wanted}–${wanted + 50} are all in use; set PORT to a free one.`);
  info(`Port ${wanted} is in use; using ${free} instead.`);
  return free;
}

async function waitForHealth(url: string) {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The web server did not become healthy at ${url} within 2 minutes.`);
}

function banner(url: string, demo: { email: string; password: string; role: string }[], seconds: string) {
  const lines = [``, `  ToolEmu Studio is ready at ${url}   (started in ${seconds} s)`, ``];
  if (demo.length) {
    lines.push(`  Demo sign-ins (embedded database only; change them before sharing this machine):`);
    for (const u of demo) lines.push(`    ${u.role.padEnd(11)} ${u.email.padEnd(24)} ${u.password}`);
    lines.push(``);
  }
  if (offline) {
    lines.push(`  Model endpoint "${OFFLINE_ENDPOINT_NAME}": ${offline.url}   ${OFFLINE_MODEL_LABEL}`, ``);
  }
  lines.push(`  Press Ctrl-C to stop.`, ``);
  console.log(lines.join("\n"));
}

function gitCommit(): string {
  try {
    return execSync("git rev-parse --short HEAD", { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  } catch {
    return "";
  }
}

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (worker && worker.exitCode === null) {
    // Running episodes get WORKER_DRAIN_SECONDS (5 s here) to finish, then go back to the queue.
    worker.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(r, 20_000);
      worker!.once("exit", () => (clearTimeout(t), r(null)));
    });
  }
  if (web && web.exitCode === null) {
    web.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(r, 5000);
      web!.once("exit", () => (clearTimeout(t), r(null)));
    });
  }
  await offline?.close().catch(() => {});
  await embedded?.stop().catch(() => {});
  process.exit(code);
}

process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

main().catch((e) => {
  fail(e);
  void shutdown(1);
});
