// Template databases for the tests: built once per content key (template-key.ts) — by the first
// test file that needs one — and copied for every test file after it, instead of each file
// running initdb, the migrations and the import of the shared ToolEmu data itself.
//   embedded:   PGlite data folders under node_modules/.cache; a clone is a copy of the folder,
//               opened by its own PGlite (no initdb: the slow part of a fresh PGlite).
//   PostgreSQL: databases toolemu_tpl_<key>_<name> on the test server; a clone is
//               CREATE DATABASE … TEMPLATE …; the import result is kept as the database's comment.
// Two processes may race to build one template; a lock makes the second wait, and if both build
// anyway (a stale lock), the second's rename fails and its copy is dropped: either is correct.
import { randomBytes } from "node:crypto";
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { createPrisma } from "@/lib/db/client";
import { startEmbedded } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import type { RunImportResult } from "@/lib/toolemu/import";
import { sharedDataDir } from "./shared-data";

/** What a seeded template holds: the ToolEmu toolkits and 144 cases; `all` adds the 144 shared trajectories and their evaluations. */
export type Seed = "cases" | "all";
export type TemplateName = "empty" | "migrated" | Seed;

export function seedSources(seed: Seed): string[] {
  const shared = sharedDataDir();
  return seed === "cases" ? [path.join(shared, "toolemu")] : [path.join(shared, "toolemu"), path.join(shared, "trajectories")];
}

/** The key the global setup chose for this run, or null outside vitest (benchmarks, scripts). */
export function templatesKey(): string | null {
  return process.env.TOOLEMU_TEST_TEMPLATES || null;
}

export interface Clone {
  url: string;
  imported: RunImportResult | null;
  drop(): Promise<void>;
}

/** Another key's templates are removed once unused this long (a run in flight may still clone them). */
const STALE_MS = 60 * 60 * 1000;

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function migrateAt(url: string): Promise<void> {
  await withClient(url, async (c) => void (await migrate(c)));
}

/** Imports seedSources(s) into the database at `url`; the importer is loaded only when a template is built. */
export async function seedAt(url: string, s: Seed): Promise<RunImportResult> {
  const { runImport } = await import("@/lib/toolemu/import");
  const prisma = createPrisma(url);
  try {
    const res = await runImport(prisma, seedSources(s));
    if (!res.written) throw new Error(`seeding the ${s} template failed: ${JSON.stringify(res.report.issues.slice(0, 3))}`);
    return res;
  } finally {
    await prisma.$disconnect();
  }
}

/** One build per template and process, however many callers ask at once. */
const inFlight = new Map<string, Promise<void>>();
function once(id: string, build: () => Promise<void>): Promise<void> {
  let p = inFlight.get(id);
  if (!p) {
    p = build().finally(() => inFlight.delete(id));
    inFlight.set(id, p);
  }
  return p;
}

// ---- embedded ---------------------------------------------------------------------------------

const cacheRoot = () => path.resolve("node_modules", ".cache", "toolemu-test-db");
const IMPORTED = "imported.json";

/** Scratch space for clones: memory-backed when the machine has it (clones are thrown away). */
function scratch(): string {
  return existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes `file` as a lock (it holds our pid); null while a live process holds it. */
function tryLock(file: string): (() => void) | null {
  try {
    const fd = openSync(file, "wx");
    writeFileSync(fd, String(process.pid));
    closeSync(fd);
    return () => rmSync(file, { force: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    const pid = Number(readFileSync(file, "utf8").trim() || "0");
    if (pid > 0 && isAlive(pid)) return null;
    rmSync(file, { force: true }); // left by a process that died while building
    return tryLock(file);
  }
}

async function ensureEmbedded(key: string, name: TemplateName): Promise<string> {
  const dir = path.join(cacheRoot(), key);
  const final = path.join(dir, name);
  if (existsSync(final)) return final;
  await once(`embedded ${key} ${name}`, async () => {
    mkdirSync(dir, { recursive: true });
    while (!existsSync(final)) {
      const release = tryLock(path.join(dir, `${name}.lock`));
      if (!release) {
        await sleep(250); // another process is building it
        continue;
      }
      try {
        if (!existsSync(final)) await buildEmbedded(key, name, dir, final);
      } finally {
        release();
      }
    }
  });
  return final;
}

async function buildEmbedded(key: string, name: TemplateName, dir: string, final: string): Promise<void> {
  const seed = name === "cases" || name === "all" ? name : null;
  // Each template starts from a copy of the one before (empty → migrated → cases | all): one initdb.
  const from = seed ? await ensureEmbedded(key, "migrated") : name === "migrated" ? await ensureEmbedded(key, "empty") : null;
  const work = mkdtempSync(path.join(dir, `.${name}-`));
  try {
    if (from) cpSync(path.join(from, "pgdata"), path.join(work, "pgdata"), { recursive: true });
    const db = await startEmbedded({ dir: work }); // "empty": no pgdata yet, so initdb
    try {
      if (name === "migrated") await migrateAt(db.url);
      if (seed) writeFileSync(path.join(work, IMPORTED), JSON.stringify(await seedAt(db.url, seed)));
    } finally {
      await db.stop();
    }
    try {
      renameSync(work, final);
    } catch (e) {
      if (!existsSync(final)) throw e; // else: built by another process meanwhile
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function cloneEmbedded(key: string, name: TemplateName): Promise<Clone> {
  const from = await ensureEmbedded(key, name);
  const importedFile = path.join(from, IMPORTED);
  const imported = existsSync(importedFile) ? (JSON.parse(readFileSync(importedFile, "utf8")) as RunImportResult) : null;
  const dir = mkdtempSync(path.join(scratch(), "toolemu-test-"));
  try {
    cpSync(path.join(from, "pgdata"), path.join(dir, "pgdata"), { recursive: true });
    const db = await startEmbedded({ dir });
    return {
      url: db.url,
      imported,
      async drop() {
        await db.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Builds every embedded template of `key` now (the whole suite needs them all). */
export async function prebuildEmbedded(key: string): Promise<void> {
  for (const name of ["empty", "migrated", "cases", "all"] as const) await ensureEmbedded(key, name);
}

/** Marks `key`'s embedded templates as in use and removes other keys' stale ones and stale copies. */
export function touchEmbeddedTemplates(key: string): void {
  const root = cacheRoot();
  mkdirSync(path.join(root, key), { recursive: true });
  const now = new Date();
  utimesSync(path.join(root, key), now, now);
  for (const name of readdirSync(root)) {
    const dir = path.join(root, name);
    if (name !== key && Date.now() - statSync(dir).mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true });
  }
  // Copies left by test processes that were killed before their clean-up (no test runs an hour).
  for (const name of readdirSync(scratch()).filter((n) => n.startsWith("toolemu-test-"))) {
    const dir = path.join(scratch(), name);
    if (Date.now() - statSync(dir).mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true });
  }
}

// ---- PostgreSQL -------------------------------------------------------------------------------

const pgName = (key: string, name: TemplateName) => `toolemu_tpl_${key}_${name}`;

function dbUrl(server: string, name: string): string {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

interface Comment {
  /** When a run built it or last started using it (ISO time). */
  used: string;
  imported: RunImportResult | null;
}

async function readComment(admin: pg.Client, name: string): Promise<Comment | null> {
  const { rows } = await admin.query<{ c: string | null }>(`SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1`, [name]);
  return rows[0]?.c ? (JSON.parse(rows[0].c) as Comment) : null;
}

async function writeComment(admin: pg.Client, name: string, imported: RunImportResult | null): Promise<void> {
  const c: Comment = { used: new Date().toISOString(), imported };
  await admin.query(`COMMENT ON DATABASE "${name}" IS ${pg.escapeLiteral(JSON.stringify(c))}`);
}

async function exists(admin: pg.Client, name: string): Promise<boolean> {
  return ((await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount ?? 0) > 0;
}

async function ensurePostgres(server: string, key: string, name: Exclude<TemplateName, "empty">): Promise<void> {
  const final = pgName(key, name);
  await once(`postgres ${server} ${final}`, () =>
    withClient(server, async (admin) => {
      if (await exists(admin, final)) return;
      // Session lock: another process building the same template makes this one wait.
      await admin.query(`SELECT pg_advisory_lock(hashtext($1))`, [final]);
      try {
        if (await exists(admin, final)) return;
        const seed = name === "migrated" ? null : name;
        if (seed) await ensurePostgres(server, key, "migrated");
        const work = `toolemu_tplbuild_${randomBytes(4).toString("hex")}_${name}`;
        try {
          await admin.query(seed ? `CREATE DATABASE "${work}" TEMPLATE "${pgName(key, "migrated")}"` : `CREATE DATABASE "${work}"`);
          await writeComment(admin, work, null);
          if (seed) await writeComment(admin, work, await seedAt(dbUrl(server, work), seed));
          else await migrateAt(dbUrl(server, work));
          await admin.query(`ALTER DATABASE "${work}" RENAME TO "${final}"`);
        } finally {
          await admin.query(`DROP DATABASE IF EXISTS "${work}" WITH (FORCE)`);
        }
      } finally {
        await admin.query(`SELECT pg_advisory_unlock(hashtext($1))`, [final]);
      }
    }),
  );
}

/** A new database on `server` copied from the template `name` (built first if need be). */
export async function clonePostgres(server: string, key: string, name: Exclude<TemplateName, "empty">, prefix = "toolemu_test"): Promise<Clone> {
  await ensurePostgres(server, key, name);
  const db = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const imported = await withClient(server, async (admin) => {
    await admin.query(`CREATE DATABASE "${db}" TEMPLATE "${pgName(key, name)}"`);
    return (await readComment(admin, pgName(key, name)))?.imported ?? null;
  });
  return {
    url: dbUrl(server, db),
    imported,
    drop: () => withClient(server, async (admin) => void (await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`))),
  };
}

/** Builds every PostgreSQL template of `key` now (the whole suite needs them all). */
export async function prebuildPostgres(server: string, key: string): Promise<void> {
  await ensurePostgres(server, key, "migrated");
  await Promise.all([ensurePostgres(server, key, "cases"), ensurePostgres(server, key, "all")]);
}

/** Marks `key`'s templates on `server` as in use and drops other keys' stale ones. */
export async function touchPostgresTemplates(server: string, key: string): Promise<void> {
  await withClient(server, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'toolemu\\_tpl\\_%'`);
    for (const { datname } of rows) {
      const c = await readComment(admin, datname);
      if (datname.startsWith(`toolemu_tpl_${key}_`)) await writeComment(admin, datname, c?.imported ?? null);
      else if (c && Date.now() - Date.parse(c.used) > STALE_MS) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => {}); // in use by a run in flight: next time
      }
    }
  });
}
