// The start script's refusals: each must be one clear line and a non-zero exit, before any build.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startEmbedded } from "@/lib/db/embedded";

function runStart(env: Record<string, string | undefined>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "--conditions=react-server", "scripts/start.ts"], {
      env: { ...process.env, DATABASE_URL: undefined, NEXTAUTH_SECRET: undefined, PORT: undefined, ...env },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(killer);
      resolve({ code, out, err });
    });
  });
}

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "start-"));

describe("npm start refuses clearly", () => {
  it("an unreachable DATABASE_URL: one line naming host and cause, no stack trace", async () => {
    const r = await runStart({ DATABASE_URL: "postgresql://postgres@127.0.0.1:1/nothing", TOOLEMU_DATA_DIR: tmp() });
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      "[toolemu] error: Cannot connect to PostgreSQL at 127.0.0.1:1/nothing: connection refused (is PostgreSQL running there?)",
    );
  });

  it("an OFFLINE_LLM_URL that is not an http(s) URL: one line, before any database starts", async () => {
    const dir = tmp();
    const r = await runStart({ OFFLINE_LLM_URL: "ftp://offline-llm:11435/v1", TOOLEMU_DATA_DIR: dir });
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe("[toolemu] error: OFFLINE_LLM_URL=ftp://offline-llm:11435/v1 must be an http:// or https:// URL.");
    expect(existsSync(path.join(dir, "pgdata"))).toBe(false);
  });

  it("a second process on the same data folder", async () => {
    const dir = tmp();
    const holder = await startEmbedded({ dir });
    try {
      const r = await runStart({ TOOLEMU_DATA_DIR: dir });
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/already in use by another ToolEmu Studio process \(pid \d+\)/);
      expect(r.err).not.toMatch(/\n\s+at /);
    } finally {
      await holder.stop();
    }
  });

  it("a failing migration: stops with its name and error, records it, runs nothing after it", async () => {
    const dir = tmp();
    const migrations = tmp();
    for (const [name, sql] of [
      ["20260101000000_ok", "CREATE TABLE ok_table (id int);"],
      ["20260102000000_bad", "CREATE TABLE broken (id nosuchtype);"],
      ["20260103000000_after", "CREATE TABLE after_table (id int);"],
    ]) {
      mkdirSync(path.join(migrations, name!));
      writeFileSync(path.join(migrations, name!, "migration.sql"), sql!);
    }
    const r = await runStart({ TOOLEMU_DATA_DIR: dir, TOOLEMU_MIGRATIONS_DIR: migrations });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Migration 20260102000000_bad failed: type "nosuchtype" does not exist/);

    const db = await startEmbedded({ dir });
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const rows = await c.query(`SELECT migration_name, finished_at IS NOT NULL AS done FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(rows.rows).toEqual([
      { migration_name: "20260101000000_ok", done: true },
      { migration_name: "20260102000000_bad", done: false },
    ]);
    expect((await c.query(`SELECT to_regclass('after_table') AS t`)).rows[0].t).toBeNull();
    await c.end();
    await db.stop();
  });

  it("a PORT that is taken", async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await runStart({ TOOLEMU_DATA_DIR: tmp(), PORT: String(port) });
      expect(r.code).toBe(1);
      expect(r.err).toContain(`Port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });
});
