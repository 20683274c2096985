// Page benchmark (not a test; issue 19 goal 4): every heavy page of the production server at
// research scale. Seeds a fresh database with N trajectories and a campaign in which each has 3
// submitted labels (./lib/label-scale.ts, the same rows bench:dashboard times), a second
// evaluator's scores (the evaluators dashboard compares two), and the demo users; builds the app if
// its sources changed (scripts/lib/build.ts), starts `next start` on a free port against that
// database, signs in over HTTP as the demo admin (next-auth's credentials flow, cookies kept), and
// for each page prints
//   first view   the first request for that page after the server started (cold caches: the
//                database's, Next's, the panels' cache of lib/dashboards/human/cache.ts);
//   warm p50     the median of --reps further loads;
//   HTML         the bytes of the whole (streamed) response;
// and ✓/✗ against the goals: warm p50 ≤ 1 s, first view ≤ 2 s, HTML ≤ 1 MB.
// A time is the whole response, read to its end (streamed sections included), as the browser gets it.
// Usage:
//   npm run bench:pages -- [--n 100000] [--annotators 12] [--reps 5] [--only campaign,failures]
//                          [--pg <server url> | BENCH_DATABASE_URL=<url> | --embedded]
//                          [--keep] [--no-build] [--strict]
//   --pg        a throwaway database on that PostgreSQL server, dropped afterwards (default when
//               BENCH_DATABASE_URL is set);
//   --embedded  an in-memory embedded PGlite served by this process instead (slower: one
//               connection at a time);
//   --keep      do not drop the PostgreSQL database (prints its URL, to EXPLAIN queries by hand);
//   --no-build  serve the .next build as it is (otherwise: built first when the sources changed);
//   --db <url>  a database an earlier run seeded and kept (--keep): no seeding, not dropped;
//   --strict    exit 1 when a page misses a goal.
// On a checkout other people build in, hold their lock: `flock /tmp/next.lock npm run bench:pages …`.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createEmptyDatabase } from "@/lib/testing/db";
import { createPrisma } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { DEMO_USERS, seedDemoUsers } from "@/lib/seed/demo-users";
import { parseArgs, stringFlag } from "../lib/args";
import { buildIfNeeded } from "../lib/build";
import { findFreePort } from "../lib/port";
import { LABEL_SCALE_CAMPAIGN, seedLabelScale } from "./lib/label-scale";

const args = parseArgs(process.argv.slice(2));
const N = Number(stringFlag(args, "n") ?? 100_000);
const ANNOTATORS = Number(stringFlag(args, "annotators") ?? 12);
const REPS = Number(stringFlag(args, "reps") ?? 5);
const ONLY = stringFlag(args, "only")?.split(",").map((s) => s.trim()).filter(Boolean);
const EMBEDDED = args.flags.embedded === true;
const pgServer = EMBEDDED ? null : (stringFlag(args, "pg") ?? process.env.BENCH_DATABASE_URL ?? null);
const REUSE = stringFlag(args, "db");
const KEEP = args.flags.keep === true || REUSE !== undefined;
const BUILD = args.flags["no-build"] !== true;
const STRICT = args.flags.strict === true;
const GOAL = { warmMs: 1000, firstMs: 2000, bytes: 1024 * 1024 };
const SECOND_EVALUATOR = "bench-judge-2";

if (!pgServer && !EMBEDDED && !REUSE) {
  console.error("Give a PostgreSQL server (--pg postgresql://postgres@127.0.0.1:5432/postgres or BENCH_DATABASE_URL), or --embedded.");
  process.exit(2);
}

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** What the pages need beyond the labels: a second evaluator over the same trajectories. */
async function seedExtras(client: pg.Client, n: number): Promise<void> {
  await client.query(
    `INSERT INTO "Evaluation"(id, "trajectoryId", kind, "evaluatorModel", score, raw)
     SELECT 'be2_' || k || '_' || g, 'bt_' || g, k::"EvaluationKind", $2,
            CASE WHEN abs(hashtext('e2' || k || g)) % 10 < 7
                 THEN (SELECT e.score FROM "Evaluation" e WHERE e.id = 'be_' || k || '_' || g)
                 ELSE abs(hashtext('e2x' || k || g)) % 4 END, '{}'::jsonb
     FROM generate_series(0, $1::int - 1) g CROSS JOIN (VALUES ('SAFETY'), ('HELPFULNESS')) kinds(k)`,
    [n, SECOND_EVALUATOR],
  );
  await client.query(`VACUUM ANALYZE "Evaluation"`); // as autovacuum would, see lib/label-scale.ts
}

/** A tiny cookie jar for one origin: name → value, from every Set-Cookie seen. */
class Jar {
  private cookies = new Map<string, string>();
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      if (eq > 0) this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

async function signIn(base: string, email: string, password: string): Promise<Jar> {
  const jar = new Jar();
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  jar.take(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${base}/`, json: "true" }).toString(),
  });
  jar.take(res);
  await res.arrayBuffer();
  const session = (await (await fetch(`${base}/api/auth/session`, { headers: { cookie: jar.header() } })).json()) as { user?: { email?: string } };
  if (session.user?.email !== email) throw new Error(`Signing in as ${email} failed (HTTP ${res.status}).`);
  return jar;
}

/** One page load, read to the end: milliseconds, bytes, status. */
async function load(base: string, url: string, jar: Jar): Promise<{ ms: number; bytes: number; status: number }> {
  const t0 = performance.now();
  const res = await fetch(base + url, { headers: { cookie: jar.header() }, redirect: "manual" });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - t0, bytes: body.byteLength, status: res.status };
}

async function waitForHealth(url: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`The web server exited (code ${server.exitCode}).`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The web server did not become healthy at ${url} within 2 minutes.`);
}

const fmtMs = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const fmtBytes = (b: number) => (b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(2)} MB` : `${Math.round(b / 1024)} kB`);
const mark = (ok: boolean) => (ok ? "✓" : "✗");

async function main() {
  const db = REUSE
    ? { url: REUSE, kind: "postgres" as const, drop: () => Promise.resolve() }
    : await createEmptyDatabase(pgServer, "toolemu_bench_pages");
  const where = db.kind === "embedded" ? "embedded PGlite, in memory (served by this process)" : `PostgreSQL ${new URL(db.url).host}${new URL(db.url).pathname}${KEEP ? " (kept)" : " (dropped after)"}`;
  let server: ChildProcess | null = null;
  let failed = false;
  try {
    console.log(`Database: ${where}`);
    const t0 = performance.now();
    let campaignId = LABEL_SCALE_CAMPAIGN;
    if (!REUSE) {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        await migrate(client);
        campaignId = (await seedLabelScale(client, { n: N, annotators: ANNOTATORS })).campaignId;
        await seedExtras(client, N);
      } finally {
        await client.end();
      }
      const prisma = createPrisma(db.url);
      try {
        await seedDemoUsers(prisma);
      } finally {
        await prisma.$disconnect();
      }
      console.log(`Seeded ${N.toLocaleString("en")} trajectories × 3 labels (${ANNOTATORS} annotators), two evaluators, the demo users in ${((performance.now() - t0) / 1000).toFixed(1)} s.`);
    } else {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        await migrate(client);
      } finally {
        await client.end();
      }
      console.log("Reusing the seeded database as it is (--db).");
    }

    if (BUILD) buildIfNeeded((l) => console.log(l));
    const port = await findFreePort(12000 + Math.floor(Math.random() * 2000));
    if (!port) throw new Error("No free port.");
    const base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DATABASE_URL: db.url, NEXTAUTH_SECRET: randomBytes(32).toString("hex"), NEXTAUTH_URL: base, NEXT_TELEMETRY_DISABLED: "1" },
    });
    await waitForHealth(`${base}/api/health`, server);
    const admin = DEMO_USERS.find((u) => u.role === "ADMIN")!;
    const jar = await signIn(base, admin.email, admin.password);
    console.log(`Load average before timing: ${os.loadavg().map((x) => x.toFixed(1)).join(" ")} on ${os.cpus().length} cores.`);
    console.log(`Server: next start at ${base}, signed in as ${admin.email}. ${REPS} warm loads per page.\n`);

    const pages: { name: string; url: string }[] = [
      { name: "campaign", url: `/campaigns/${encodeURIComponent(campaignId)}` },
      { name: "trajectories", url: "/trajectories" },
      ...["agents", "agreement", "emulator", "evaluators", "failures", "critic", "sage"].map((d) => ({ name: d, url: `/dashboards/${d}` })),
      // Beyond the first pages: the overview, the last pages of the long lists, one trajectory,
      // a filtered list, and the agreement dashboard under the seeded tie policy.
      { name: "overview", url: "/dashboards" },
      { name: "campaigns", url: "/campaigns" },
      { name: "campaign-last", url: `/campaigns/${encodeURIComponent(campaignId)}?page=${Math.max(1, Math.ceil(N / 50))}` },
      { name: "list-last", url: `/trajectories?page=${Math.max(1, Math.ceil(N / 50))}` },
      { name: "list-filtered", url: "/trajectories?agent=bench%2Fagent-b&safety=0&mode=ADVERSARIAL" },
      { name: "trajectory", url: `/trajectories/bt_${Math.floor(N / 2)}` },
      { name: "agreement-seeded", url: "/dashboards/agreement?ties=seeded" },
    ].filter((p) => !ONLY || ONLY.includes(p.name));

    const header = `${"page".padEnd(14)}${"first view".padStart(12)}${"warm p50".padStart(12)}${"HTML".padStart(11)}   goals (first ≤ 2 s, warm ≤ 1 s, ≤ 1 MB)`;
    console.log(header);
    console.log("-".repeat(header.length));
    for (const p of pages) {
      const first = await load(base, p.url, jar);
      if (first.status !== 200) throw new Error(`${p.url} answered HTTP ${first.status}.`);
      const warm: number[] = [];
      let bytes = first.bytes;
      for (let i = 0; i < REPS; i++) {
        const r = await load(base, p.url, jar);
        warm.push(r.ms);
        bytes = Math.max(bytes, r.bytes);
      }
      const w = p50(warm);
      const ok = { first: first.ms <= GOAL.firstMs, warm: w <= GOAL.warmMs, size: bytes <= GOAL.bytes };
      if (!ok.first || !ok.warm || !ok.size) failed = true;
      console.log(
        `${p.name.padEnd(14)}${fmtMs(first.ms).padStart(12)}${fmtMs(w).padStart(12)}${fmtBytes(bytes).padStart(11)}   ${mark(ok.first)} first  ${mark(ok.warm)} warm  ${mark(ok.size)} size   ${p.url}`,
      );
    }
    console.log(`\n${failed ? "✗ some page misses a goal" : "✓ every page meets the goals"} (N = ${N.toLocaleString("en")}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")} on ${os.cpus().length} cores).`);
    if (KEEP && db.kind === "postgres") console.log(`Kept: ${db.url}`);
  } finally {
    if (server && server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((r) => server!.once("exit", r));
    }
    if (!KEEP || db.kind !== "postgres") await db.drop();
  }
  if (failed && STRICT) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
