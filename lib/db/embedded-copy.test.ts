// COPY … FROM STDIN through the embedded server (lib/db/pglite-queue.ts): PGlite reads a COPY's
// data in the same call as its Query, so the queue gathers the CopyData first.
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFrom } from "@/lib/toolemu/copy";
import { startEmbedded, type EmbeddedDatabase } from "./embedded";
import { linearMemfsGrowth } from "./pglite-memfs";

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

  it("loads several multi-MB COPYs into one table in one transaction (the in-memory files grow in linear time: lib/db/pglite-memfs.ts)", async () => {
    await a.query("CREATE TABLE big (id int PRIMARY KEY, body text)");
    const row = (i: number) => `${i}\t${"x".repeat(1000)}\n`;
    await a.query("BEGIN");
    for (let part = 0; part < 4; part++) {
      expect(await copyFrom(a, "COPY big FROM STDIN", [Buffer.from(Array.from({ length: 2000 }, (_, i) => row(part * 2000 + i)).join(""))])).toBe(2000);
    }
    await a.query("COMMIT");
    const { rows } = await a.query("SELECT count(*)::int AS n, sum(length(body))::int AS chars FROM big");
    expect(rows[0]).toEqual({ n: 8000, chars: 8_000_000 });
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

interface Fs {
  open(path: string, flags: string): unknown;
  write(stream: unknown, data: Uint8Array, offset: number, length: number, position: number): number;
  ftruncate(fd: number, size: number): void;
  close(stream: unknown): void;
  readFile(path: string): Uint8Array;
  lookupPath(path: string): { node: { contents: Uint8Array; usedBytes: number } };
}

// The in-memory PGlite's files grow geometrically (lib/db/pglite-memfs.ts): the same bytes, O(N) copying.
describe("in-memory PGlite: file growth", () => {
  let pglite: PGlite;
  let fs: Fs;
  beforeAll(async () => {
    pglite = new PGlite({ noInitDb: true }); // its file system without a database: no initdb, no server
    await pglite.waitReady;
    fs = (pglite.Module as unknown as { FS: Fs }).FS;
  });

  /** Grows a file by `step` bytes `times` times with ftruncate (what posix_fallocate becomes); returns how many new arrays that took. */
  function extend(path: string, step: number, times: number): number {
    const stream = fs.open(path, "w+") as { fd: number };
    const node = fs.lookupPath(path).node;
    let arrays = 0;
    let last = node.contents;
    for (let i = 1; i <= times; i++) {
      fs.ftruncate(stream.fd, i * step);
      if (node.contents !== last) arrays++;
      last = node.contents;
    }
    fs.close(stream);
    return arrays;
  }

  it("without it, every extension copies the whole file (PGlite 0.5.14's MEMFS)", () => {
    expect(extend("/tmp/before", 64 * 1024, 100)).toBe(100);
  });

  it("with it, extensions reuse spare capacity: a logarithmic number of copies, and the same bytes", () => {
    expect(linearMemfsGrowth(pglite)).toBe(true);
    expect(extend("/tmp/after", 64 * 1024, 100)).toBeLessThan(15);

    const stream = fs.open("/tmp/bytes", "w+") as { fd: number };
    fs.write(stream, new Uint8Array([1, 2, 3, 4, 5]), 0, 5, 0);
    fs.ftruncate(stream.fd, 3); // shrink
    fs.ftruncate(stream.fd, 8); // grow: the new bytes read as zeros, not the old 4, 5
    fs.write(stream, new Uint8Array([9]), 0, 1, 10); // a write past the end leaves zeros before it
    fs.close(stream);
    expect([...fs.readFile("/tmp/bytes")]).toEqual([1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 9]);
  });
});
