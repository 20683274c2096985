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
import "server-only";
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
    r = {
      async $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
        return (await pool.query(query, values)).rows as T;
      },
      async $executeRawUnsafe(query: string, ...values: unknown[]) {
        return (await pool.query(query, values)).rowCount ?? 0;
      },
    };
  }
  made.set(db, r);
  return r;
}
