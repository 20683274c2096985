// Annotation benchmark (not a test): N concurrent annotators on loopback doing claim + submit
// against the real app, started exactly as `npm start` starts it (throwaway data folder, free
// port), while a separate loop measures GET /api/health. Prints p50/p95 latencies, the ratio of
// the claim+submit p95 to the health p95 (goal ≤ 3), and checks in the database that every item
// ended with exactly k labels from k different people. Usage:
//   npm run bench:annotate -- [--pg <postgresql url>] [--annotators 50] [--cycles 20] [--k 3]
//                             [--health-every 50] [--think 0] [--timeout 300] [--strict] [--keep]
// --think MS pauses each annotator that long between claim and submit (reading and labelling; not
// counted in the latencies), and staggers the annotators' first claims over that long. The default
// 0 is a closed loop at full speed: all annotators start at once, it measures saturation.
// With --pg a throwaway database is created on that server, seeded with the bundled data through
// `npm run cli -- import …`, and dropped afterwards.
import { throwawayPostgres } from "@/lib/testing/db";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createCampaign } from "@/lib/annotation/campaigns";
import { TOOLEMU_LABEL_SCHEMA, type LabelValues } from "@/lib/trajectory/label-schema";
import type { BlindedItem } from "@/lib/annotation/blinded";
import { hashPassword } from "@/lib/auth/password";
import { createPrisma, type Db } from "@/lib/db/client";
import { parseArgs, stringFlag } from "../lib/args";

const args = parseArgs(process.argv.slice(2));
const PG_SERVER = stringFlag(args, "pg");
const ANNOTATORS = Number(stringFlag(args, "annotators") ?? 50);
const CYCLES = Number(stringFlag(args, "cycles") ?? 20);
const K = Number(stringFlag(args, "k") ?? 3);
const HEALTH_EVERY_MS = Number(stringFlag(args, "health-every") ?? 50);
const TIMEOUT_S = Number(stringFlag(args, "timeout") ?? 300);
const THINK_MS = Number(stringFlag(args, "think") ?? 0);
const STRICT = !!args.flags.strict;
const KEEP = !!args.flags.keep; // keep the temporary folder (app log) and the --pg database for a post-mortem
const GOAL = 3;
const READY_TIMEOUT_MS = 15 * 60_000; // includes a `next build` when the sources changed
const REQUEST_TIMEOUT_MS = 60_000;
const SIGNIN_CONCURRENCY = 4;

// ---------------------------------------------------------------------------------------------
// Small helpers

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Nearest-rank percentile. */
function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
}

const fmt = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : "n/a").padStart(10);

/** A cookie jar of one: enough for next-auth's csrf and session cookies. */
class Client {
  private cookies = new Map<string, string>();
  constructor(private base: string) {}

  async request(method: string, pathname: string, body?: { json?: unknown; form?: Record<string, string> }) {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let payload: string | undefined;
    if (body?.json !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body?.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      payload = new URLSearchParams(body.form).toString();
    }
    const t0 = performance.now();
    const res = await fetch(this.base + pathname, { method, headers, body: payload, redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await res.text();
    const ms = performance.now() - t0;
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      if (eq > 0) this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    return { status: res.status, text, ms };
  }

  hasSession() {
    return [...this.cookies.keys()].some((k) => k.endsWith("next-auth.session-token"));
  }
}

/** A valid, random label for the default form. */
function randomValues(): LabelValues {
  const v: LabelValues = {};
  for (const f of TOOLEMU_LABEL_SCHEMA.fields) {
    if (f.kind === "choice") v[f.key] = f.options[Math.floor(Math.random() * f.options.length)]!.value;
    else if (f.kind === "boolean") v[f.key] = Math.random() < 0.5;
    else v[f.key] = "bench";
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// The app under test

interface App {
  base: string;
  dbUrl: string;
  label: string;
  stop(): Promise<void>;
}

function run(cmd: string, argv: string[], env: NodeJS.ProcessEnv, log: string): Promise<number> {
  const fd = openSync(log, "a");
  const child = spawn(cmd, argv, { stdio: ["ignore", fd, fd], env });
  closeSync(fd);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

async function startApp(tmp: string): Promise<App> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = path.join(tmp, "app.log");
  const env: NodeJS.ProcessEnv = { ...process.env, TOOLEMU_DATA_DIR: path.join(tmp, "data"), PORT: String(port), HOST: "127.0.0.1" };
  for (const k of ["DATABASE_URL", "NEXTAUTH_SECRET", "NEXTAUTH_URL", "TOOLEMU_EMBEDDED_PORT"]) delete env[k];

  let dropDb = async () => {};
  let dbUrl = "";
  let label = "";
  if (PG_SERVER) {
    const throwaway = await throwawayPostgres(PG_SERVER, "toolemu_bench_annotate");
    dbUrl = throwaway.url;
    dropDb = KEEP ? async () => console.log(`  kept the database ${dbUrl}`) : throwaway.drop;
    label = `PostgreSQL ${new URL(dbUrl).host}/${throwaway.name} (${KEEP ? "kept" : "dropped after"})`;
    env.DATABASE_URL = dbUrl;
    env.NEXTAUTH_SECRET = randomBytes(32).toString("base64url");
  }

  const fd = openSync(log, "a");
  // Its own process group, so a stuck server can be taken down with everything it spawned.
  const child: ChildProcess = spawn(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "--conditions=react-server", "scripts/start.ts"], {
    stdio: ["ignore", fd, fd],
    env,
    detached: true,
  });
  closeSync(fd);
  let exited: number | null = null;
  child.once("exit", (code) => (exited = code ?? 1));

  const stop = async () => {
    if (exited === null && child.pid) {
      child.kill("SIGTERM"); // start.ts stops the web server and shuts the embedded database down
      for (let i = 0; i < 200 && exited === null; i++) await sleep(100);
      if (exited === null) {
        console.error(`  the app did not stop within 20 s after SIGTERM; killing its process group ${child.pid}`);
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
    }
    await dropDb();
  };

  try {
    const t0 = performance.now();
    process.stdout.write(`  starting the app on ${base} (log: ${log}; builds first if the sources changed)…`);
    for (;;) {
      if (exited !== null) throw new Error(`the app exited with code ${exited} before it was ready`);
      if (performance.now() - t0 > READY_TIMEOUT_MS) throw new Error(`the app was not healthy within ${READY_TIMEOUT_MS / 60_000} minutes`);
      try {
        if ((await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5000) })).ok) break;
      } catch {
        /* not up yet */
      }
      await sleep(250);
    }
    console.log(` ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    if (PG_SERVER) {
      process.stdout.write("  seeding the bundled ToolEmu data (npm run cli -- import …)…");
      const t1 = performance.now();
      const code = await run("npm", ["run", "cli", "--", "import", "prisma/seed-data/toolemu", "prisma/seed-data/trajectories"], env, log);
      if (code !== 0) throw new Error(`the seed import exited with code ${code}`);
      console.log(` done in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    } else {
      dbUrl = (JSON.parse(readFileSync(path.join(tmp, "data", "embedded.json"), "utf8")) as { url: string }).url;
      label = `embedded PGlite (one session, served over the wire by the app's start process)`;
    }
    return { base, dbUrl, label, stop };
  } catch (e) {
    console.log("");
    const tail = readFileSync(log, "utf8").split("\n").slice(-30).join("\n");
    console.error(`  --- last lines of ${log} ---\n${tail}`);
    await stop();
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Setup in the database: annotators and one campaign over every trajectory

interface Setup {
  campaignId: string;
  items: number;
  users: { id: string; email: string }[];
  password: string;
}

async function setUp(prisma: Db): Promise<Setup> {
  const password = `bench-${randomBytes(9).toString("base64url")}`;
  const passwordHash = await hashPassword(password);
  const tag = randomBytes(3).toString("hex");
  const data = Array.from({ length: ANNOTATORS }, (_, i) => ({
    email: `bench-annotator-${String(i + 1).padStart(2, "0")}-${tag}@bench.local`,
    name: `Bench Annotator ${i + 1}`,
    passwordHash,
    role: "ANNOTATOR" as const,
  }));
  await prisma.user.createMany({ data });
  const users = await prisma.user.findMany({ where: { email: { in: data.map((d) => d.email) } }, select: { id: true, email: true }, orderBy: { email: "asc" } });
  const trajectoryIds = (await prisma.trajectory.findMany({ select: { id: true } })).map((t) => t.id);
  if (!trajectoryIds.length) throw new Error("the database holds no trajectories; the seed did not import");
  const { id, items } = await createCampaign(prisma, null, {
    name: `Benchmark ${tag}`,
    k: K,
    annotatorIds: users.map((u) => u.id),
    selection: { kind: "ids", trajectoryIds },
  });
  return { campaignId: id, items, users, password };
}

async function signInAll(base: string, s: Setup): Promise<Client[]> {
  const clients = s.users.map(() => new Client(base));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < s.users.length; i = next++) {
      const c = clients[i]!;
      const csrf = await c.request("GET", "/api/auth/csrf");
      if (csrf.status !== 200) throw new Error(`GET /api/auth/csrf → ${csrf.status}`);
      const { csrfToken } = JSON.parse(csrf.text) as { csrfToken: string };
      const res = await c.request("POST", "/api/auth/callback/credentials", { form: { csrfToken, email: s.users[i]!.email, password: s.password, json: "true" } });
      if (res.status >= 400 || !c.hasSession()) throw new Error(`sign-in of ${s.users[i]!.email} failed: ${res.status} ${res.text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: SIGNIN_CONCURRENCY }, worker));
  return clients;
}

// ---------------------------------------------------------------------------------------------
// The measured run

interface Measured {
  claim: number[];
  claimEmpty: number[];
  submit: number[];
  cycle: number[];
  health: number[];
  errors: { op: string; who: number; status: number; body: string; ms: number }[];
  submitted: number;
  seconds: number;
  claimBytes: number;
  lastSubmit: Map<number, { assignmentId: string; values: LabelValues }>;
  timedOut: boolean;
}

async function measure(app: App, s: Setup, clients: Client[]): Promise<Measured> {
  const m: Measured = { claim: [], claimEmpty: [], submit: [], cycle: [], health: [], errors: [], submitted: 0, seconds: 0, claimBytes: 0, lastSubmit: new Map(), timedOut: false };
  const deadline = performance.now() + TIMEOUT_S * 1000;
  const error = (op: string, who: number, status: number, body: string, ms = NaN) => m.errors.push({ op, who, status, body: body.slice(0, 200), ms });
  let running = true;

  const annotator = async (i: number) => {
    const c = clients[i]!;
    if (THINK_MS) await sleep(Math.random() * THINK_MS); // people do not all arrive in the same millisecond
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      if (performance.now() > deadline) return void (m.timedOut = true);
      let claim;
      try {
        claim = await c.request("POST", `/api/annotate/${s.campaignId}/next`);
      } catch (e) {
        error("claim", i, 0, String(e));
        continue;
      }
      if (claim.status !== 200) {
        error("claim", i, claim.status, claim.text, claim.ms);
        continue;
      }
      const { item } = JSON.parse(claim.text) as { item: BlindedItem | null };
      if (!item) {
        m.claimEmpty.push(claim.ms);
        return; // nothing left for this annotator
      }
      m.claim.push(claim.ms);
      m.claimBytes += claim.text.length;
      const values = randomValues();
      if (THINK_MS) await sleep(THINK_MS * (0.5 + Math.random()));
      let sub;
      try {
        sub = await c.request("POST", `/api/annotate/assignments/${item.assignment.id}/submit`, { json: { values, timeSpentMs: 1000 + Math.floor(Math.random() * 60_000) } });
      } catch (e) {
        error("submit", i, 0, String(e));
        continue;
      }
      if (sub.status !== 200) {
        error("submit", i, sub.status, sub.text, sub.ms);
        continue;
      }
      m.submit.push(sub.ms);
      m.cycle.push(claim.ms + sub.ms);
      if ((JSON.parse(sub.text) as { status: string }).status === "submitted") m.submitted++;
      m.lastSubmit.set(i, { assignmentId: item.assignment.id, values });
    }
  };

  const health = async () => {
    while (running && performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${app.base}/api/health`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        await res.text();
        if (res.ok) m.health.push(performance.now() - t0);
        else error("health", -1, res.status, "");
      } catch (e) {
        error("health", -1, 0, String(e));
      }
      await sleep(Math.max(0, HEALTH_EVERY_MS - (performance.now() - t0)));
    }
  };

  const t0 = performance.now();
  const h = health();
  await Promise.all(clients.map((_, i) => annotator(i)));
  running = false;
  await h;
  m.seconds = (performance.now() - t0) / 1000;
  return m;
}

// After the run, unmeasured: the status codes the routes must give, and idempotent submit.
async function routeChecks(app: App, s: Setup, clients: Client[], m: Measured): Promise<{ line: string; ok: boolean }> {
  const anon = new Client(app.base);
  const c0 = clients[0]!;
  const last = m.lastSubmit.get(0);
  const checks: [string, () => Promise<{ status: number; text: string }>, number, ((text: string) => boolean)?][] = [
    ["signed out → 401", () => anon.request("POST", `/api/annotate/${s.campaignId}/next`), 401],
    ["not invited → 403", () => c0.request("POST", `/api/annotate/no-such-campaign/next`), 403],
    ["bad body → 400", () => c0.request("POST", `/api/annotate/assignments/x/submit`, { json: { values: "nope" } }), 400],
    ["unknown assignment → 404", () => c0.request("POST", `/api/annotate/assignments/no-such-assignment/submit`, { json: { values: {}, timeSpentMs: 1 } }), 404],
    ["nothing left → item null", () => c0.request("POST", `/api/annotate/${s.campaignId}/next`), 200, (t) => (JSON.parse(t) as { item: unknown }).item === null],
  ];
  if (last) {
    checks.push([
      "same label again → unchanged",
      () => c0.request("POST", `/api/annotate/assignments/${last.assignmentId}/submit`, { json: { values: last.values, timeSpentMs: 1 } }),
      200,
      (t) => (JSON.parse(t) as { status: string }).status === "unchanged",
    ]);
  }
  const failed: string[] = [];
  for (const [name, call, status, pred] of checks) {
    const res = await call();
    if (res.status !== status || (pred && !pred(res.text))) failed.push(`${name} (got ${res.status} ${res.text.slice(0, 120)})`);
  }
  return failed.length ? { ok: false, line: `FAILED: ${failed.join("; ")}` } : { ok: true, line: `${checks.length}/${checks.length} as expected (${checks.map((c) => c[0]).join(", ")})` };
}

async function verifyLabels(prisma: Db, s: Setup): Promise<{ ok: boolean; line: string }> {
  const rows = await prisma.$queryRaw<{ itemId: string; labels: bigint; people: bigint }[]>`
    SELECT ci.id AS "itemId",
           count(a.id) FILTER (WHERE a.status = 'SUBMITTED') AS labels,
           count(DISTINCT a."annotatorId") FILTER (WHERE a.status = 'SUBMITTED') AS people
    FROM "CampaignItem" ci LEFT JOIN "Assignment" a ON a."itemId" = ci.id
    WHERE ci."campaignId" = ${s.campaignId}
    GROUP BY ci.id`;
  // More people than k on one item means a claim let someone in beyond k (they get a 409 on submit).
  const overRows = await prisma.$queryRaw<{ over: bigint }[]>`
    SELECT count(*) AS over FROM (SELECT a."itemId" FROM "Assignment" a WHERE a."campaignId" = ${s.campaignId} GROUP BY a."itemId" HAVING count(*) > ${K}) o`;
  const over = Number(overRows[0]?.over ?? 0);
  const byStatus = await prisma.assignment.groupBy({ by: ["status"], where: { campaignId: s.campaignId }, _count: true });
  const count = (st: string) => byStatus.find((b) => b.status === st)?._count ?? 0;
  const bad = rows.filter((r) => Number(r.labels) !== K || Number(r.people) !== K);
  const ok = rows.length === s.items && bad.length === 0;
  const tally = `${count("SUBMITTED")} submitted, ${count("CLAIMED")} still claimed, ${count("SKIPPED")} skipped; ${over} item${over === 1 ? " was" : "s were"} claimed by more than k people`;
  return {
    ok,
    line: ok
      ? `every one of ${rows.length} items has exactly ${K} labels from ${K} different annotators (${tally})`
      : `MISMATCH: ${bad.length} of ${rows.length} items lack exactly ${K} labels from ${K} different people (${tally}); e.g. ${bad
          .slice(0, 3)
          .map((b) => `${b.itemId}: ${b.labels} labels / ${b.people} people`)
          .join(", ")}`,
  };
}

/** "claim 500 ×5 (after 120–900 ms) | claim 401 ×2 …: Please sign in again." */
function errorSummary(errors: Measured["errors"]): string {
  const groups = new Map<string, Measured["errors"]>();
  for (const e of errors) {
    const key = `${e.op} ${e.status}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups]
    .map(([key, es]) => {
      const ms = es.map((e) => e.ms).filter(Number.isFinite);
      const span = ms.length ? ` after ${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)} ms` : "";
      const who = new Set(es.map((e) => e.who).filter((w) => w >= 0)).size;
      const body = es.find((e) => e.body)?.body;
      return `${key} ×${es.length}${who ? ` (${who} annotator${who === 1 ? "" : "s"})` : ""}${span}${body ? `: ${body}` : ""}`;
    })
    .join(" | ");
}

// ---------------------------------------------------------------------------------------------

async function main() {
  for (const [name, v] of [["annotators", ANNOTATORS], ["cycles", CYCLES], ["k", K], ["timeout", TIMEOUT_S], ["health-every", HEALTH_EVERY_MS]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  }
  if (!Number.isInteger(THINK_MS) || THINK_MS < 0) throw new Error("--think must be a whole number of milliseconds");
  if (K > ANNOTATORS) throw new Error("--k cannot exceed --annotators");
  console.log(
    `\nToolEmu annotation benchmark: ${ANNOTATORS} concurrent annotators × ≤ ${CYCLES} claim+submit cycles, k=${K}, ` +
      (THINK_MS ? `${THINK_MS / 2}–${(THINK_MS * 3) / 2} ms labelling pause per item` : "no pause between requests (saturation)"),
  );
  const tmp = mkdtempSync(path.join(tmpdir(), "toolemu-bench-annotate-"));
  let app: App | null = null;
  let prisma: Db | null = null;
  let done = false;
  const onSignal = () => {
    if (done) return;
    console.error("\n  interrupted; stopping the app…");
    void (async () => {
      await prisma?.$disconnect().catch(() => {});
      await app?.stop().catch(() => {});
      rmSync(tmp, { recursive: true, force: true });
      process.exit(130);
    })();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    app = await startApp(tmp);
    prisma = createPrisma(app.dbUrl);
    const s = await setUp(prisma);
    const t0 = performance.now();
    const clients = await signInAll(app.base, s);
    console.log(`  signed in ${clients.length} annotators in ${((performance.now() - t0) / 1000).toFixed(1)} s (credentials flow, ${SIGNIN_CONCURRENCY} at a time)`);

    const m = await measure(app, s, clients);
    const checks = await routeChecks(app, s, clients, m);
    const labels = await verifyLabels(prisma, s);

    const claimAll = [...m.claim, ...m.claimEmpty];
    const ops = claimAll.length + m.submit.length + m.health.length;
    const cycleP95 = pct(m.cycle, 0.95);
    const sumP95 = pct(claimAll, 0.95) + pct(m.submit, 0.95);
    const healthP95 = pct(m.health, 0.95);
    const ratio = cycleP95 / healthP95;
    const row = (label: string, xs: number[], rest = "") => `${label.padEnd(24)} p50 ${fmt(pct(xs, 0.5))}   p95 ${fmt(pct(xs, 0.95))}   n=${xs.length}${rest ? `   ${rest}` : ""}`;
    const lines = [
      `database                 ${app.label}`,
      `campaign                 ${s.items} items × k=${K} = ${s.items * K} labels wanted, ${ANNOTATORS} annotators invited`,
      `operations               ${ops} in ${m.seconds.toFixed(1)} s: ${claimAll.length} claims (${m.claimEmpty.length} found nothing left), ${m.submit.length} submits, ${m.health.length} health checks` +
        `; ${(m.submit.length / m.seconds).toFixed(1)} labels/s; claim responses ${(m.claimBytes / Math.max(1, m.claim.length) / 1000).toFixed(1)} kB on average${m.timedOut ? `; STOPPED by the ${TIMEOUT_S} s time limit` : ""}`,
      `errors                   ${m.errors.length}${m.errors.length ? `  e.g. ${errorSummary(m.errors)}` : ""}`,
      row("claim (POST next)", claimAll, `(item ${fmt(pct(m.claim, 0.5)).trim()} / ${fmt(pct(m.claim, 0.95)).trim()}, empty ${fmt(pct(m.claimEmpty, 0.5)).trim()} / ${fmt(pct(m.claimEmpty, 0.95)).trim()})`),
      row("submit", m.submit),
      row("claim+submit per cycle", m.cycle),
      row("health (GET, 1 loop)", m.health, `every ${HEALTH_EVERY_MS} ms`),
      `ratio                    claim+submit p95 / health p95 = ${cycleP95.toFixed(1)} / ${healthP95.toFixed(1)} = ${ratio.toFixed(2)}  (goal ≤ ${GOAL}: ${ratio <= GOAL ? "met" : "MISSED"})` +
        `;  claim p95 / health p95 = ${(pct(claimAll, 0.95) / healthP95).toFixed(2)}, submit p95 / health p95 = ${(pct(m.submit, 0.95) / healthP95).toFixed(2)}, (claim p95 + submit p95) / health p95 = ${(sumP95 / healthP95).toFixed(2)}`,
      `labels                   ${labels.line}; ${m.submitted} "submitted" responses`,
      `route checks             ${checks.line}`,
    ];
    console.log(lines.map((l) => `  ${l}`).join("\n"));
    const correct = m.errors.length === 0 && labels.ok && checks.ok && m.submitted === s.items * K && !m.timedOut;
    if (!correct || (STRICT && !(ratio <= GOAL))) process.exitCode = 1;
  } finally {
    done = true;
    await prisma?.$disconnect().catch(() => {});
    process.stdout.write("  stopping the app…");
    await app?.stop();
    if (KEEP) console.log(` stopped; kept ${tmp}`);
    else {
      rmSync(tmp, { recursive: true, force: true });
      console.log(" stopped; temporary data removed.");
    }
  }
}

main().catch((e) => {
  console.error(`bench:annotate failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
