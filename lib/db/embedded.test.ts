import { mkdtempSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
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
