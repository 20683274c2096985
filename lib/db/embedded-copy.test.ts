// COPY … FROM STDIN through the embedded server (lib/db/pglite-queue.ts): PGlite reads a COPY's
// data in the same call as its Query, so the queue gathers the CopyData first.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFrom } from "@/lib/toolemu/copy";
import { startEmbedded, type EmbeddedDatabase } from "./embedded";

describe("embedded database: COPY FROM STDIN", () => {
  let db: EmbeddedDatabase;
  let a: pg.Client;
  let b: pg.Client;
  beforeAll(async () => {
    db = await startEmbedded({ inMemory: true });
    a = new pg.Client({ connectionString: db.url });
    b = new pg.Client({ connectionString: db.url });
    await a.connect();
    await b.connect();
    await a.query("CREATE TABLE copied (id int PRIMARY KEY, body text)");
  });
  afterAll(async () => {
    await a.end();
    await b.end();
    await db.stop();
  });

  it("loads rows sent in several CopyData chunks, inside a transaction, while another connection waits", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `${i}\trow ${i} with a tab\\there\n`);
    const chunks = [0, 1000, 2000].map((at) => Buffer.from(rows.slice(at, at + 1000).join("")));
    await a.query("BEGIN");
    const copied = copyFrom(a, `COPY copied (id, body) FROM STDIN`, chunks);
    const other = b.query("SELECT count(*)::int AS n FROM copied");
    expect(await copied).toBe(3000);
    await a.query("COMMIT");
    // The other connection's statement ran before BEGIN or after COMMIT, never inside.
    expect([0, 3000]).toContain((await other).rows[0].n);
    const { rows: got } = await a.query("SELECT count(*)::int AS n, max(body) AS last FROM copied WHERE id >= 2999");
    expect(got[0]).toEqual({ n: 1, last: "row 2999 with a tab\there" });
  });

  it("reports a row the table refuses as an ordinary error, keeps the connection and writes nothing of that COPY", async () => {
    const err = await copyFrom(a, `COPY copied (id, body) FROM STDIN`, [Buffer.from("5000\tnew\n0\tduplicate\n")]).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/duplicate key/);
    expect((await a.query("SELECT count(*)::int AS n FROM copied WHERE id = 5000")).rows[0].n).toBe(0);
    expect((await b.query("SELECT count(*)::int AS n FROM copied")).rows[0].n).toBe(3000);
  });

  it("answers a COPY into a table that does not exist with its error, and goes on", async () => {
    const err = await copyFrom(a, `COPY missing FROM STDIN`, [Buffer.from("1\n")]).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/does not exist/);
    expect((await a.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });
});
