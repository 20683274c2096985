import { mkdtempSync, writeFileSync, existsSync, mkdirSync, statSync, chmodSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { EmbeddedBusyError, runningEmbedded, startEmbedded } from "./embedded";

describe("embedded database", () => {
  it("persists data in its folder across restarts and publishes its URL while running", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "emb-"));
    const first = await startEmbedded({ dir });
    expect(first.created).toBe(true);
    expect(runningEmbedded(dir)?.url).toBe(first.url);
    const c = new pg.Client({ connectionString: first.url });
    await c.connect();
    await c.query("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('hello')");
    await c.end();
    await first.stop();
    expect(runningEmbedded(dir)).toBeNull();
    expect(existsSync(path.join(dir, "embedded.lock"))).toBe(false);

    const second = await startEmbedded({ dir });
    expect(second.created).toBe(false);
    const c2 = new pg.Client({ connectionString: second.url });
    await c2.connect();
    expect((await c2.query("SELECT v FROM kept")).rows).toEqual([{ v: "hello" }]);
    await c2.end();
    await second.stop();
  });

  it("refuses a second process on the same folder, naming the holder", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "emb-"));
    // A lock held by another live process (our parent stands in for it).
    writeFileSync(path.join(dir, "embedded.lock"), String(process.ppid));
    const err = await startEmbedded({ dir }).catch((e) => e);
    expect(err).toBeInstanceOf(EmbeddedBusyError);
    expect(err.message).toContain(`pid ${process.ppid}`);
    expect(err.message).toContain(dir);
  });

  it("takes over a lock left behind by a process that died", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "emb-"));
    writeFileSync(path.join(dir, "embedded.lock"), "999999"); // no such pid
    const db = await startEmbedded({ dir });
    await db.stop();
  });

  it("serves several connections at once, transactions serialised", async () => {
    const db = await startEmbedded({ inMemory: true });
    const a = new pg.Client({ connectionString: db.url });
    const b = new pg.Client({ connectionString: db.url });
    await a.connect();
    await b.connect();
    await a.query("CREATE TABLE t (v int)");
    await a.query("BEGIN");
    await a.query("INSERT INTO t VALUES (1)");
    const seen = b.query("SELECT count(*)::int AS n FROM t");
    await new Promise((r) => setTimeout(r, 100));
    await a.query("COMMIT");
    expect((await seen).rows[0].n).toBe(1);
    await a.end();
    await b.end();
    await db.stop();
  });
});

describe("embedded database access", () => {
  it("asks every connection for this start's password and refuses other users and passwords", async () => {
    const db = await startEmbedded({ inMemory: true });
    const url = new URL(db.url);
    expect(url.hostname).toBe("127.0.0.1");
    expect(url.password).toMatch(/^[0-9a-f]{48}$/);
    const ok = new pg.Client({ connectionString: db.url });
    await ok.connect();
    expect((await ok.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);

    const attempt = async (user: string, password: string) => {
      const c = new pg.Client({ host: "127.0.0.1", port: db.port, database: "postgres", user, password });
      c.on("error", () => {});
      try {
        await c.connect();
        await c.end();
        return "connected";
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(await attempt("postgres", "postgres")).toBe('password authentication failed for user "postgres"');
    expect(await attempt("postgres", "")).not.toBe("connected");
    expect(await attempt("admin", decodeURIComponent(url.password))).toBe('password authentication failed for user "admin"');
    expect(await attempt("postgres", decodeURIComponent(url.password))).toBe("connected");
    // A refused connection does not disturb one that got in.
    expect((await ok.query("SELECT 2 AS two")).rows).toEqual([{ two: 2 }]);
    await ok.end();
    await db.stop();

    // A new start, a new password.
    const again = await startEmbedded({ inMemory: true });
    expect(new URL(again.url).password).not.toBe(url.password);
    await again.stop();
  });

  it("keeps its folder owner-only (0700) and its files 0600, narrowing a folder that was wider", async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), "emb-mode-"));
    const fresh = path.join(parent, "fresh", ".data");
    const wide = path.join(parent, "wide");
    mkdirSync(wide, { mode: 0o755 });
    chmodSync(wide, 0o755);
    for (const dir of [fresh, wide]) {
      const db = await startEmbedded({ dir });
      const mode = (f: string) => (statSync(f).mode & 0o777).toString(8);
      expect(mode(dir)).toBe("700");
      expect(mode(path.join(dir, "embedded.json"))).toBe("600");
      expect(mode(path.join(dir, "embedded.lock"))).toBe("600");
      await db.stop();
    }
  });
});

describe("embedded database under concurrent connections", () => {
  // The server runs in its own process, as it does under `npm start`: with pglite-socket's own
  // queue this load fails with 'portal "" does not exist' (one connection's Bind landing on
  // another's statement); lib/db/pglite-queue.ts keeps each connection's batch together.
  it("keeps each connection's parameterised queries and transactions apart", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "emb-serve-"));
    const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "--conditions=react-server", "scripts/db-serve.ts"], {
      env: { ...process.env, TOOLEMU_DATA_DIR: dir },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d) => {
          out += d;
          const m = /DATABASE_URL=(\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on("exit", (code) => reject(new Error(`db:serve exited with ${code}`)));
      });
      const pool = new pg.Pool({ connectionString: url, max: 30 });
      const errors: string[] = [];
      pool.on("error", (e) => errors.push(e.message));
      let wrong = 0;
      const big = "x".repeat(200_000);
      await pool.query("CREATE TABLE t (id int, v text)");
      await Promise.all(
        Array.from({ length: 900 }, async (_, i) => {
          try {
            if (i % 3 === 0) {
              const r = await pool.query("SELECT $1::int + $2::int AS s", [i, 7]);
              if (r.rows[0]?.s !== i + 7) wrong++;
            } else if (i % 3 === 1) {
              const r = await pool.query("SELECT length($1::text) AS n, $2::int AS c, $3::text AS z", [big + i, i, "z"]);
              if (r.rows[0]?.c !== i || r.rows[0]?.n !== big.length + String(i).length) wrong++;
            } else {
              const c = await pool.connect();
              try {
                await c.query("BEGIN");
                await c.query("INSERT INTO t VALUES ($1, $2)", [i, big]);
                const r = await c.query("SELECT count(*)::int AS n FROM t WHERE id = $1", [i]);
                if (r.rows[0]?.n !== 1) wrong++;
                await c.query("COMMIT");
              } finally {
                c.release();
              }
            }
          } catch (e) {
            errors.push((e as Error).message);
          }
        }),
      );
      await pool.end();
      expect(errors.slice(0, 3)).toEqual([]);
      expect(wrong).toBe(0);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
