// The content key of the test template databases: a hash of everything that decides what a
// template holds — the migrations, the source files the migrator and the importer run (followed
// through their imports), the shared data they read and the PGlite version. Any change to one
// gives a new key, so a stale template is never used; an unchanged tree reuses the last build.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { sharedDataDir } from "./shared-data";

/** The modules whose code (and imports) build a template. */
const ENTRIES = ["lib/db/migrate.ts", "lib/toolemu/import.ts", "lib/testing/templates.ts"];
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g;

function resolveImport(root: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = path.join(root, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null; // a package: its version is pinned by the lock file, hashed below
  for (const f of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (existsSync(f) && statSync(f).isFile()) return f;
  }
  return null;
}

/** Every source file reachable from the entries through relative and `@/` imports. */
export function sourceClosure(root: string, entries = ENTRIES): string[] {
  const seen = new Set<string>();
  const todo = entries.map((e) => path.join(root, e));
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(IMPORT)) {
      const next = resolveImport(root, file, m[1]!);
      if (next && !seen.has(next)) todo.push(next);
    }
  }
  return [...seen].sort();
}

/** Names, sizes and modification times of the files under `dir` (the data is large; these change with it). */
function listing(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => {
      const f = path.join(d.parentPath, d.name);
      const st = statSync(f);
      return `${path.relative(dir, f)} ${st.size} ${st.mtimeMs}`;
    })
    .sort();
}

export function templateKey(root = process.cwd()): string {
  const h = createHash("sha256");
  for (const f of sourceClosure(root)) h.update(`${path.relative(root, f)}\0`).update(readFileSync(f)).update("\0");
  for (const m of readdirSync(path.join(root, "prisma", "migrations")).sort()) {
    const sql = path.join(root, "prisma", "migrations", m, "migration.sql");
    if (existsSync(sql)) h.update(`${m}\0`).update(readFileSync(sql));
  }
  const shared = sharedDataDir();
  for (const sub of ["toolemu", "trajectories"]) for (const line of listing(path.join(shared, sub))) h.update(`${sub}/${line}\n`);
  h.update(readFileSync(path.join(root, "package-lock.json")));
  return h.digest("hex").slice(0, 16);
}
