// Offline migration authoring: the Prisma CLI's `migrate diff` needs the native schema-engine
// binary, which cannot be downloaded here. The same engine ships as WASM inside the `prisma`
// package; we drive it directly with the wasm-bindgen glue of @prisma/schema-engine-wasm.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import * as glue from "@prisma/schema-engine-wasm/schema_engine_bg";

/** What `diffSchemas` returns when the two datamodels need no SQL at all. */
export const NO_CHANGES = "";

// The engine prints this instead of an empty script; we normalise it to NO_CHANGES.
const EMPTY_MIGRATION = "-- This is an empty migration.";

type Engine = Awaited<ReturnType<typeof glue.SchemaEngine.new>>;

let instantiated: Promise<void> | undefined;

// Load prisma's own wasm (same engine commit as the installed CLI) rather than the copy in
// @prisma/schema-engine-wasm: their import/export names match, so the glue drives either.
// The glue keeps the instance in module state, so it must be instantiated once per process.
function instantiate(): Promise<void> {
  instantiated ??= (async () => {
    const require = createRequire(import.meta.url);
    const prismaDir = path.dirname(require.resolve("prisma/package.json"));
    const bytes = await readFile(path.join(prismaDir, "build", "schema_engine_bg.wasm"));
    // The engine reports Rust panics through this global; without it a panic is a TypeError.
    const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown };
    g.PRISMA_WASM_PANIC_REGISTRY ??= {
      message: "",
      get(this: { message: string }) {
        return this.message;
      },
      set_message(this: { message: string }, m: string) {
        this.message = `RuntimeError: ${m}`;
      },
    };
    // Node 20 cannot `import` a .wasm file (what schema_engine.js does), so wire it by hand.
    // (new Uint8Array: TS types a Node Buffer as possibly shared memory, which wasm rejects.)
    const { instance } = await WebAssembly.instantiate(new Uint8Array(bytes), {
      "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
    });
    const exports = instance.exports as WebAssembly.Exports & { __wbindgen_start(): void };
    glue.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return instantiated;
}

function refuse(what: string): never {
  throw new Error(`schema-diff: the offline engine tried to use the database (${what})`);
}

// The WASM engine only talks to PostgreSQL through a driver adapter and connects while being
// constructed, running exactly one probe query (schema exists? server version?). We answer
// that probe with a canned row and refuse everything else, so a datamodel-to-datamodel diff
// provably never reaches a database. Results use the {ok, value} shape that
// @prisma/driver-adapter-utils' binder would produce.
const offlineConnection = {
  provider: "postgres",
  adapterName: "offline-schema-diff",
  async queryRaw(query: { sql: string }) {
    if (!/^SELECT EXISTS\(SELECT 1 FROM pg_namespace/.test(query.sql)) refuse(query.sql);
    return {
      ok: true,
      value: {
        columnNames: ["exists", "version", "numeric_version"],
        columnTypes: [5 /* Boolean */, 7 /* Text */, 0 /* Int32 */],
        // exists must be true: false makes the engine try to CREATE SCHEMA "public" on
        // construction. The version must not say CockroachDB (the engine would switch dialect);
        // 15 matches the project's PostgreSQL (12 was seen to give identical SQL).
        rows: [[true, "PostgreSQL 15.0 (offline schema diff, no server)", 150000]],
      },
    };
  },
  executeRaw: async () => refuse("executeRaw"),
  executeScript: async () => refuse("executeScript"),
  startTransaction: async () => refuse("startTransaction"),
  dispose: async () => ({ ok: true, value: undefined }),
};

const offlineAdapterFactory = {
  provider: "postgres",
  adapterName: "offline-schema-diff",
  connect: async () => ({ ok: true, value: offlineConnection }),
  // Present so the engine never asks for a URL-based shadow database.
  connectToShadowDb: async () => refuse("connectToShadowDb"),
};

const filters = { externalTables: [], externalEnums: [] };

function files(schema: string) {
  return [{ path: "schema.prisma", content: schema }];
}

/**
 * PostgreSQL SQL that takes a database from datamodel `fromSchema` (null = empty database) to
 * datamodel `toSchema`. Both are Prisma schema file contents (provider postgresql; no url
 * needed). Returns NO_CHANGES (the empty string) when no SQL is needed.
 */
export async function diffSchemas(fromSchema: string | null, toSchema: string): Promise<string> {
  await instantiate();
  let engine: Engine | undefined;
  try {
    engine = await glue.SchemaEngine.new(
      { datamodels: [["schema.prisma", toSchema]] },
      () => {}, // engine log lines; nothing useful for a pure diff
      offlineAdapterFactory,
    );
    const result = await engine.diff({
      from: fromSchema === null ? { tag: "empty" } : { tag: "schemaDatamodel", files: files(fromSchema) },
      to: { tag: "schemaDatamodel", files: files(toSchema) },
      script: true,
      exitCode: null,
      filters,
    });
    const sql = (result.stdout ?? "").trim();
    return sql === "" || sql === EMPTY_MIGRATION ? NO_CHANGES : `${sql}\n`;
  } finally {
    engine?.free();
  }
}
