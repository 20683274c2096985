// A per-endpoint concurrency limit that holds across processes and machines: the LLM client's
// ConcurrencyLimiter (lib/llm/limiter.ts) backed by the EndpointSlot table. A call holds one
// row — (endpoint key, slot) with slot < the endpoint's maxConcurrency — while it runs.
//
// Why a table and not pg_try_advisory_lock: on the embedded database every connection shares
// PGlite's one session, and session advisory locks are re-entrant within a session, so they
// would never refuse anyone. Row leases work the same on PGlite and on PostgreSQL.
//
//   - acquire: one UPDATE … FOR UPDATE SKIP LOCKED takes up to n free slots at once (a slot is
//     free when nobody holds it or its lease ran out);
//   - each process has one FIFO queue per key and a single "pump" asking the database, so many
//     waiting calls cost one query, not one each; a release in this process wakes the pump at
//     once, slots freed by other processes are found by polling (20 ms, backing off to 200 ms);
//   - a call that ends while another call of this process waits for the same endpoint hands its
//     slot over directly (no database round trip), for at most fairShareMs (default 2 s) of
//     continuous holding; then the slot goes back to the table, so other processes get a turn;
//   - a call that ends while nobody here waits keeps its slot idle for idleHoldMs (default 50 ms):
//     an episode's next call usually follows within a few milliseconds (the step is stored in
//     between), and takes the slot without a round trip; unused, it goes back to the table;
//   - background calls (RunOptions.background: evaluations, which no later call of their episode
//     waits for) get a slot only when no other call of this process waits for the key;
//   - leases (default 60 s) are renewed for everything this process holds every leaseMs/3; a
//     process that dies loses its slots when the lease runs out, or at once when a process on
//     the same host sees that the holder's pid is gone (holder = "host:pid:random").
import "server-only";
import { randomBytes } from "node:crypto";
import os from "node:os";
import type { ConcurrencyLimiter } from "@/lib/llm/limiter";
import type { Db } from "@/lib/db/client";
import { fastSql } from "@/lib/db/fast-sql";

/** now() as Prisma stores DateTime in `timestamp(3)` columns: UTC without a time zone. */
export const NOW_UTC = `(now() AT TIME ZONE 'UTC')`;

export interface DbLimiterOptions {
  leaseMs?: number;
  minPollMs?: number;
  maxPollMs?: number;
  /** Identifies this process's slots; default "<host>:<pid>:<random>". */
  holder?: string;
  /** How long a slot may pass from call to call within this process before it is given back. */
  fairShareMs?: number;
  /** How long a freed slot nobody here waits for stays held for this process's next call (0: given back at once). */
  idleHoldMs?: number;
}

export interface DbLimiter extends ConcurrencyLimiter {
  readonly holder: string;
  /** Slots this process holds now, for a key or in all. */
  held(key?: string): number;
  /** Frees slots held by processes on this host that no longer exist. Returns how many. */
  reclaimDead(): Promise<number>;
  /** Stops lease renewal and frees this process's slots. */
  stop(): Promise<void>;
}

interface Waiter {
  background: boolean;
  resolve: (slot: number) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface KeyState {
  queue: Waiter[];
  pumping: boolean;
  held: number;
  limit: number;
  ensured: number;
  wake: (() => void) | null;
  /** When this process took each slot it holds from the table. */
  since: Map<number, number>;
  /** Held slots no call uses now (idleHoldMs), with the timer that gives each back. */
  idle: Map<number, NodeJS.Timeout>;
}

function processHolderId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Holders (of slots or episodes) that ran on this host under a pid that no longer exists. */
export function deadLocalHolders(holders: (string | null)[], self: string): string[] {
  const host = os.hostname();
  const out: string[] = [];
  for (const h of new Set(holders)) {
    if (!h || h === self) continue;
    const parts = h.split(":");
    if (parts.length < 3 || parts.slice(0, -2).join(":") !== host) continue;
    const pid = Number(parts[parts.length - 2]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !pidAlive(pid)) out.push(h);
  }
  return out;
}

export function createDbLimiter(db: Db, options: DbLimiterOptions = {}): DbLimiter {
  const leaseMs = options.leaseMs ?? 60_000;
  const minPoll = options.minPollMs ?? 20;
  const maxPoll = options.maxPollMs ?? 200;
  const holder = options.holder ?? processHolderId();
  const fairShareMs = options.fairShareMs ?? 2000;
  const idleHoldMs = options.idleHoldMs ?? 50;
  const keys = new Map<string, KeyState>();
  let stopped = false;
  // The slot statements (several per second per endpoint in a busy worker) on the fast pool.
  const sql = fastSql(db);

  const renew = setInterval(() => {
    if (![...keys.values()].some((k) => k.held > 0)) return;
    db.$executeRawUnsafe(
      `UPDATE "EndpointSlot" SET "leaseUntil" = ${NOW_UTC} + ($1 * interval '1 millisecond') WHERE holder = $2`,
      leaseMs,
      holder,
    ).catch((e) => console.error("[limiter] could not renew endpoint slot leases:", (e as Error).message));
  }, Math.max(1000, Math.floor(leaseMs / 3)));
  renew.unref();

  function state(key: string): KeyState {
    let s = keys.get(key);
    if (!s) keys.set(key, (s = { queue: [], pumping: false, held: 0, limit: 1, ensured: 0, wake: null, since: new Map(), idle: new Map() }));
    return s;
  }

  async function ensureSlots(key: string, s: KeyState) {
    if (s.ensured >= s.limit) return;
    await sql.$executeRawUnsafe(
      `INSERT INTO "EndpointSlot" (key, slot) SELECT $1, g FROM generate_series(0, $2::int - 1) g ON CONFLICT DO NOTHING`,
      key,
      s.limit,
    );
    s.ensured = s.limit;
  }

  async function take(key: string, limit: number, n: number): Promise<number[]> {
    const rows = await sql.$queryRawUnsafe<{ slot: number }[]>(
      `WITH free AS (
         SELECT key, slot FROM "EndpointSlot"
         WHERE key = $1 AND slot < $2 AND (holder IS NULL OR "leaseUntil" < ${NOW_UTC})
         ORDER BY slot LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE "EndpointSlot" s SET holder = $4, "leaseUntil" = ${NOW_UTC} + ($5 * interval '1 millisecond')
       FROM free WHERE s.key = free.key AND s.slot = free.slot
       RETURNING s.slot`,
      key,
      limit,
      n,
      holder,
      leaseMs,
    );
    return rows.map((r) => Number(r.slot));
  }

  async function give(key: string, slot: number) {
    await sql.$executeRawUnsafe(`UPDATE "EndpointSlot" SET holder = NULL, "leaseUntil" = NULL WHERE key = $1 AND slot = $2 AND holder = $3`, key, slot, holder);
  }

  function waitForWake(s: KeyState, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        s.wake = null;
        resolve();
      }, ms);
      s.wake = () => {
        clearTimeout(t);
        s.wake = null;
        resolve();
      };
    });
  }

  async function pump(key: string) {
    const s = state(key);
    if (s.pumping) return;
    s.pumping = true;
    let poll = minPoll;
    let lastReclaim = Date.now();
    try {
      while (s.queue.length && !stopped) {
        handOutIdle(key, s);
        if (!s.queue.length) break;
        const room = s.limit - s.held;
        if (room <= 0) {
          await waitForWake(s, maxPoll * 5);
          continue;
        }
        let slots: number[];
        try {
          await ensureSlots(key, s);
          slots = await take(key, s.limit, Math.min(room, s.queue.length));
        } catch (e) {
          console.error("[limiter] could not take an endpoint slot:", (e as Error).message);
          slots = [];
        }
        for (const slot of slots) {
          const w = s.queue.shift();
          s.held++;
          s.since.set(slot, Date.now());
          if (!w) {
            release(key, slot);
            continue;
          }
          if (w.onAbort) w.signal?.removeEventListener("abort", w.onAbort);
          w.resolve(slot);
        }
        if (s.queue.length === 0) break;
        if (slots.length) {
          poll = minPoll;
          continue;
        }
        if (Date.now() - lastReclaim > 5000) {
          lastReclaim = Date.now();
          await reclaimDead().catch(() => 0);
        }
        await waitForWake(s, poll);
        poll = Math.min(maxPoll, Math.ceil(poll * 1.5));
      }
    } finally {
      s.pumping = false;
      // A waiter that arrived as the loop ended.
      if (s.queue.length && !stopped) void pump(key);
    }
  }

  /** Whether a held slot may serve another call of this process (within its fair share). */
  const reusable = (s: KeyState, slot: number) => !stopped && slot < s.limit && Date.now() - (s.since.get(slot) ?? 0) < fairShareMs;

  /** Hands idle held slots to waiters; idle slots past their fair share go back. */
  function handOutIdle(key: string, s: KeyState) {
    for (const [slot, timer] of s.idle) {
      if (!s.queue.length) return;
      clearTimeout(timer);
      s.idle.delete(slot);
      if (!reusable(s, slot)) {
        giveBack(key, s, slot);
        continue;
      }
      const w = s.queue.shift()!;
      if (w.onAbort) w.signal?.removeEventListener("abort", w.onAbort);
      w.resolve(slot);
    }
  }

  function release(key: string, slot: number) {
    const s = state(key);
    if (s.queue.length && reusable(s, slot)) {
      const w = s.queue.shift()!;
      if (w.onAbort) w.signal?.removeEventListener("abort", w.onAbort);
      w.resolve(slot);
      return;
    }
    if (idleHoldMs > 0 && reusable(s, slot)) {
      const t = setTimeout(() => {
        if (s.idle.delete(slot)) giveBack(key, s, slot);
      }, idleHoldMs);
      t.unref();
      s.idle.set(slot, t);
      return;
    }
    giveBack(key, s, slot);
  }

  function giveBack(key: string, s: KeyState, slot: number) {
    s.since.delete(slot);
    give(key, slot)
      .catch((e) => console.error("[limiter] could not free an endpoint slot (its lease will run out):", (e as Error).message))
      .finally(() => {
        s.held--;
        if (s.wake) s.wake();
        else if (s.queue.length) void pump(key);
      });
  }

  async function reclaimDead(): Promise<number> {
    const rows = await db.$queryRawUnsafe<{ holder: string }[]>(`SELECT DISTINCT holder FROM "EndpointSlot" WHERE holder IS NOT NULL`);
    const dead = deadLocalHolders(rows.map((r) => r.holder), holder);
    if (!dead.length) return 0;
    return db.$executeRawUnsafe(`UPDATE "EndpointSlot" SET holder = NULL, "leaseUntil" = NULL WHERE holder = ANY($1::text[])`, dead);
  }

  return {
    holder,
    async run(key, limit, fn, signal, opts) {
      signal?.throwIfAborted();
      if (stopped) throw new Error("The endpoint limiter is stopped.");
      const s = state(key);
      s.limit = Math.max(1, Math.floor(limit));
      const slot = await new Promise<number>((resolve, reject) => {
        const w: Waiter = { resolve, reject, signal, background: !!opts?.background };
        if (signal) {
          w.onAbort = () => {
            const i = s.queue.indexOf(w);
            if (i >= 0) s.queue.splice(i, 1);
            reject(signal.reason);
          };
          signal.addEventListener("abort", w.onAbort, { once: true });
        }
        // Background waiters queue after every other one.
        const at = w.background ? -1 : s.queue.findIndex((x) => x.background);
        s.queue.splice(at === -1 ? s.queue.length : at, 0, w);
        handOutIdle(key, s);
        if (s.queue.length) void pump(key);
      });
      try {
        return await fn();
      } finally {
        release(key, slot);
      }
    },
    held(key) {
      if (key) return keys.get(key)?.held ?? 0;
      let n = 0;
      for (const s of keys.values()) n += s.held;
      return n;
    },
    reclaimDead,
    async stop() {
      stopped = true;
      clearInterval(renew);
      for (const s of keys.values()) {
        for (const t of s.idle.values()) clearTimeout(t);
        s.idle.clear();
        for (const w of s.queue.splice(0)) w.reject(new Error("The endpoint limiter stopped."));
        s.wake?.();
      }
      await db.$executeRawUnsafe(`UPDATE "EndpointSlot" SET holder = NULL, "leaseUntil" = NULL WHERE holder = $1`, holder).catch(() => {});
    },
  };
}
