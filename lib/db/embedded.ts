// Embedded mode: a pinned PGlite (PostgreSQL in WASM) served over the PostgreSQL wire protocol on
// a free localhost port, so the web app, the worker and the CLI all use the ordinary `pg` driver
// exactly as they would against a real server. PGlite is single-process per data directory, so
// a lock file guards `.data/` against a second process opening it.
//
// Access: the server listens on 127.0.0.1 only and asks every connection for a password made
// fresh at each start. Our own processes get it in the URL — the start script hands DATABASE_URL
// to the web server and the worker; the CLI and `next dev` read it from `.data/embedded.json` — so
// `.data/` is owner-only (0700) and the files we write there are 0600.
import { randomBytes } from "node:crypto";
import { mkdirSync, openSync, closeSync, writeFileSync, readFileSync, rmSync, existsSync, chmodSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { linearMemfsGrowth } from "./pglite-memfs";
import { installBatchQueue } from "./pglite-queue";

const DEFAULT_DATA_DIR = ".data";

export function dataDir(): string {
  // The data folder is chosen at run time; it is not part of the built server (no file tracing).
  return path.resolve(/*turbopackIgnore: true*/ process.env.TOOLEMU_DATA_DIR ?? DEFAULT_DATA_DIR);
}

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** true when this process created the database files (first start). */
  created: boolean;
  stop(): Promise<void>;
}

export class EmbeddedBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is already in use by another ToolEmu Studio process (pid ${pid}). ` +
        `Stop that process first, or set TOOLEMU_DATA_DIR to another folder.`,
    );
  }
}

interface RunningInfo {
  pid: number;
  port: number;
  url: string;
}

const lockFile = (dir: string) => path.join(dir, "embedded.lock");
const infoFile = (dir: string) => path.join(dir, "embedded.json");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws EmbeddedBusyError; a lock left by a dead process is taken over. */
function acquireLock(dir: string): () => void {
  const file = lockFile(dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new EmbeddedBusyError(dir, pid);
      }
      rmSync(file, { force: true }); // stale: its owner died without cleaning up
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}

/** The URL of an embedded database another live process is serving from `dir`, if any. */
export function runningEmbedded(dir = dataDir()): RunningInfo | null {
  try {
    const info = JSON.parse(readFileSync(infoFile(dir), "utf8")) as RunningInfo;
    return isAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

const EMBEDDED_USER = "postgres";

function embeddedUrl(port: number, password: string): string {
  return `postgresql://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres?sslmode=disable`;
}

/** Creates `dir` owner-only, or narrows an existing one to that (it holds the password and the data). */
function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

export async function startEmbedded(
  opts: { dir?: string; port?: number; inMemory?: boolean; password?: string } = {},
): Promise<EmbeddedDatabase> {
  const dir = opts.dir ?? dataDir();
  const password = opts.password ?? randomBytes(24).toString("hex");
  let release = () => {};
  let created = true;
  let db: PGlite;
  if (opts.inMemory) {
    db = new PGlite();
  } else {
    ensurePrivateDir(dir); // also: PGlite does not create missing parents
    release = acquireLock(dir);
    const pgdata = path.join(dir, "pgdata");
    created = !existsSync(path.join(pgdata, "PG_VERSION"));
    try {
      db = new PGlite(pgdata);
      await db.waitReady;
    } catch (e) {
      release();
      throw new Error(
        `Could not open the embedded database in ${pgdata}: ${(e as Error).message}. ` +
          `If it was made by another PGlite version, move the folder away to start fresh.`,
      );
    }
  }
  await db.waitReady;
  // In memory, every table is a growing array: without this a bulk load (COPY) costs O(size²).
  if (opts.inMemory) linearMemfsGrowth(db);
  // Connections are multiplexed onto PGlite's single session; transactions are serialised.
  const server = new PGLiteSocketServer({
    db,
    host: "127.0.0.1",
    port: opts.port ?? 0,
    maxConnections: 64,
  });
  installBatchQueue(server, db, { user: EMBEDDED_USER, password });
  try {
    await server.start();
  } catch (e) {
    await db.close();
    release();
    const err = e as NodeJS.ErrnoException;
    throw new Error(
      err.code === "EADDRINUSE"
        ? `Port ${opts.port} is already in use; unset TOOLEMU_EMBEDDED_PORT to pick a free one.`
        : `Could not start the embedded database server: ${err.message}`,
    );
  }
  const port = Number(server.getServerConn().split(":").pop());
  const url = embeddedUrl(port, password);
  if (!opts.inMemory) {
    const file = infoFile(dir);
    writeFileSync(file, JSON.stringify({ pid: process.pid, port, url } satisfies RunningInfo), { mode: 0o600 });
    chmodSync(file, 0o600); // a file left by a crash keeps its old mode otherwise
  }
  let stopped = false;
  return {
    url,
    port,
    created,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
      if (!opts.inMemory) rmSync(infoFile(dir), { force: true });
      release();
    },
  };
}
