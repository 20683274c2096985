// A campaign's label schema never changes once the campaign exists (it is stored at creation with
// its version), so each process parses it and builds its validators once per campaign and
// version, and the hot queries leave the column out when this process already has it.
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { parseLabelSchema, valuesValidator, type LabelSchema } from "@/lib/trajectory/label-schema";

export interface CompiledSchema {
  schema: LabelSchema;
  /** Submitted values: every required field. */
  full: ReturnType<typeof valuesValidator>;
  /** Drafts: anything may be missing. */
  partial: ReturnType<typeof valuesValidator>;
}

const MAX_ENTRIES = 100;
const cache = new Map<string, CompiledSchema>();
const keyOf = (campaignId: string, version: number) => `${campaignId}:${version}`;

/**
 * SQL for the `c` (Campaign) row's label schema, or NULL when this process has it already (then
 * campaignSchema takes it from the cache). Give the campaign's id when the query is about one.
 */
export function schemaColumn(campaignId?: string): Prisma.Sql {
  if (campaignId !== undefined) {
    const known = [...cache.keys()].filter((k) => k.startsWith(`${campaignId}:`));
    return known.length ? Prisma.sql`CASE WHEN c.id || ':' || c."labelSchemaVersion" = ANY(${known}::text[]) THEN NULL ELSE c."labelSchema" END` : Prisma.sql`c."labelSchema"`;
  }
  return cache.size
    ? Prisma.sql`CASE WHEN c.id || ':' || c."labelSchemaVersion" = ANY(${[...cache.keys()]}::text[]) THEN NULL ELSE c."labelSchema" END`
    : Prisma.sql`c."labelSchema"`;
}

/** The compiled schema of a campaign, from the column a query returned (null: cached). */
export async function campaignSchema(db: Db | Prisma.TransactionClient, campaignId: string, version: number, raw: unknown): Promise<CompiledSchema> {
  const key = keyOf(campaignId, version);
  const hit = cache.get(key);
  if (hit) return hit;
  if (raw === null || raw === undefined) {
    // Dropped from the cache between the query and now (only when it overflowed): read it.
    const rows = await db.$queryRaw<{ labelSchema: unknown }[]>`SELECT "labelSchema" FROM "Campaign" WHERE id = ${campaignId}`;
    raw = rows[0]?.labelSchema;
  }
  const schema = parseLabelSchema(typeof raw === "string" ? JSON.parse(raw) : raw);
  const compiled: CompiledSchema = { schema, full: valuesValidator(schema, { partial: false }), partial: valuesValidator(schema, { partial: true }) };
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}
