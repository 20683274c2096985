// Raw SQL on a `pg` pool beside a Prisma client, for the statements a run worker sends for every
// model call (the claim, the steps, the LlmCall rows, the endpoint slots, the episode's end).
// Through Prisma a raw statement costs ~4× the CPU of the same statement on `pg` (measured: 0.39 vs
// 0.10 ms per statement); at dozens of calls per second that is a large share of a worker's CPU.
//
// Same interface as Prisma's unsafe raw calls ($queryRawUnsafe, $executeRawUnsafe), so a caller
// can take either. Results are `pg`'s: use it for statements whose columns come back the same
// either way — text, int4, float8, boolean, json(b), arrays of those — not int8, numeric or
// timestamps (pg reads a timestamp without time zone in the process's local time). Parameters:
// strings, numbers, booleans, null, arrays; no Date (pass a UTC ISO string and cast it).
// A client made without createPrisma (no known URL) gets Prisma's own raw calls.
//
// Each statement text is a named prepared statement (parsed and planned once per connection, then
// only bound and executed): a worker sends the same dozen texts for every call, and parsing and
// planning them was about a third of the server's CPU for them (pgbench, one of the step writes:
// 0.38 → 0.26 ms of server CPU per statement; the embedded database's CPU in bench:run C = 64
// ~15 → ~9 s). On PostgreSQL a name stands for its text in every connection. The embedded
// database (PGlite) is one session shared by every connection, so there a statement's name is
// also the pool's and the connection's (two connections preparing one name would collide), and
// its connections stay open while the process runs (a closed one's statements would stay in the
// session): at most pool size × texts statements per process.
import "server-only";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { connectionStringOf, type Db } from "./client";

export interface RawSql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

const g = globalThis as unknown as { __toolemuFastSql?: WeakMap<Db, RawSql> };
const made = (g.__toolemuFastSql ??= new WeakMap<Db, RawSql>());

function poolSize(): number {
  const n = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

/** Statement names by text, for the whole process (a name always means the same text). */
const names = ((g as { __toolemuFastSqlNames?: Map<string, string> }).__toolemuFastSqlNames ??= new Map<string, string>());
/** Beyond this many texts (a caller building texts with values in them), statements go unnamed. */
const MAX_NAMED = 200;

/** The prepared statement name of a text, or null when it is not to be named. */
export function statementName(text: string): string | null {
  const known = names.get(text);
  if (known) return known;
  if (names.size >= MAX_NAMED) return null;
  const name = `toolemu_fast_${names.size + 1}`;
  names.set(text, name);
  return name;
}

/** The raw SQL of `db` on its own `pg` pool (same database, same pool size as Prisma's). */
export function fastSql(db: Db): RawSql {
  let r = made.get(db);
  if (r) return r;
  const url = connectionStringOf(db);
  if (!url) {
    r = db;
  } else {
    // Idle connections close after a few seconds and never keep the process alive.
    const pool = new pg.Pool({ connectionString: url, max: poolSize(), idleTimeoutMillis: 5000, allowExitOnIdle: true });
    // An idle connection the server ended (a database dropped, a restart) is simply replaced.
    pool.on("error", (e) => {
      if ((e as { code?: string }).code !== "57P01") console.error("[db] idle connection of the fast pool failed:", e.message);
    });
    // Whether the server is the embedded database (see above), asked once per pool.
    let embedded: boolean | null = null;
    let asking: Promise<boolean> | null = null;
    const ask = () =>
      (asking ??= pool.query<{ v: string }>("SELECT version() AS v").then(
        (res) => {
          embedded = /PGlite|emscripten/i.test(res.rows[0]?.v ?? "");
          if (embedded) pool.options.idleTimeoutMillis = 0;
          return embedded;
        },
        (e) => {
          asking = null;
          throw e;
        },
      ));
    const pool_ = randomBytes(3).toString("hex");
    const serials = new WeakMap<pg.PoolClient, number>();
    let nextSerial = 0;
    const run = async (text: string, values: unknown[]): Promise<pg.QueryResult> => {
      const onEmbedded = embedded ?? (await ask());
      const name = statementName(text);
      if (!name) return pool.query({ text, values });
      if (!onEmbedded) return pool.query({ name, text, values });
      const c = await pool.connect();
      let serial = serials.get(c);
      if (serial === undefined) serials.set(c, (serial = ++nextSerial));
      let ok = false;
      try {
        const res = await c.query({ name: `${name}_${pool_}_${serial}`, text, values });
        ok = true;
        return res;
      } catch (e) {
        // An error the server reported leaves the connection (and its statements) usable.
        if (e instanceof pg.DatabaseError) ok = true;
        throw e;
      } finally {
        c.release(!ok);
      }
    };
    r = {
      async $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
        return (await run(query, values)).rows as T;
      },
      async $executeRawUnsafe(query: string, ...values: unknown[]) {
        return (await run(query, values)).rowCount ?? 0;
      },
    };
  }
  made.set(db, r);
  return r;
}
