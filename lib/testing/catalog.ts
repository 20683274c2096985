// The parts of a database's `public` schema that a Prisma datamodel decides, as comparable text,
// so that two databases built in different ways can be checked for equality (lib/db/drift.test.ts).
import type pg from "pg";

/** Entry (e.g. `column User.email`) → its definition. */
export type Catalog = Map<string, string>;

// Prisma Migrate's bookkeeping: only a database built by the migrator has it.
const IGNORED_TABLE = "_prisma_migrations";

// Each query returns (key, def) rows. Deliberately left out:
// - column order: a migration's ADD COLUMN appends, a from-empty build follows the model order;
// - enum label order: the schema engine adds a value with a bare `ADD VALUE` (appended),
//   wherever it sits in the datamodel, so only the set of labels can agree;
// - NOT NULL constraints (contype 'n', PostgreSQL 18+ such as PGlite): nullability is already
//   on the column, and their names are server-made from the column's first name, so a
//   hand-written RENAME COLUMN (Prisma's advice for keeping data) would differ spuriously.
const QUERIES = [
  `SELECT 'table ' || c.relname AS key, '(exists)' AS def
     FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND c.relname <> '${IGNORED_TABLE}'`,
  `SELECT 'column ' || c.relname || '.' || a.attname AS key,
          format_type(a.atttypid, a.atttypmod) || ' (udt ' || t.typname || ')'
            || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE ' NULL' END
            || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '') AS def
     FROM pg_attribute a
     JOIN pg_class c ON c.oid = a.attrelid
     JOIN pg_type t ON t.oid = a.atttypid
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND c.relname <> '${IGNORED_TABLE}'
      AND a.attnum > 0 AND NOT a.attisdropped`,
  `SELECT 'enum ' || t.typname AS key, string_agg(e.enumlabel, ', ' ORDER BY e.enumlabel) AS def
     FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
    WHERE t.typnamespace = 'public'::regnamespace
    GROUP BY t.typname`,
  `SELECT 'index ' || indexname AS key, indexdef AS def
     FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '${IGNORED_TABLE}'`,
  `SELECT 'constraint ' || c.relname || '.' || k.conname AS key,
          k.contype::text || ': ' || pg_get_constraintdef(k.oid) AS def
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
    WHERE c.relnamespace = 'public'::regnamespace AND c.relname <> '${IGNORED_TABLE}' AND k.contype <> 'n'`,
];

export async function readCatalog(client: pg.ClientBase): Promise<Catalog> {
  const catalog: Catalog = new Map();
  for (const sql of QUERIES) {
    const { rows } = await client.query<{ key: string; def: string }>(sql);
    for (const r of rows) catalog.set(r.key, r.def);
  }
  return catalog;
}

/** One readable line per entry that is missing from one side or defined differently. */
export function diffCatalogs(a: Catalog, b: Catalog, nameA: string, nameB: string): string[] {
  const lines: string[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const [da, db] = [a.get(key), b.get(key)];
    if (da === db) continue;
    if (db === undefined) lines.push(`${key}: only in ${nameA}: ${da}`);
    else if (da === undefined) lines.push(`${key}: only in ${nameB}: ${db}`);
    else lines.push(`${key}:\n      ${nameA}: ${da}\n      ${nameB}: ${db}`);
  }
  return lines.sort();
}
