// The safety / helpfulness label rows and vote vectors of a scope (server only), shared by the
// evaluator-vs-human and human-vs-human panels: safety in slots 0–3, helpfulness in slots 4–7 of
// the packed vote vector (./sql.ts).
import "server-only";
import { Prisma } from "@/lib/db/generated/client";
import { SCORE_LABELS } from "@/lib/metrics";
import type { HumanScope } from "./scope";
import { binaryVote, labelScope, packedIncrement, scoreCase, scoreSlotField, slotVote, type SlotField, type Vote } from "./sql";

/** SELECT of one row per label of the scope, with the columns asked for. */
export function labelRows(scope: HumanScope, columns: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT a."itemId" AS item, ${columns} FROM "Assignment" a WHERE ${labelScope(scope.campaign.id, scope.filter)}`;
}

/** Each label's safety (s) and helpfulness (h) score. */
export function scoreLabelColumns(scope: HumanScope): Prisma.Sql {
  const s = scope.campaign.schema;
  return Prisma.sql`${scoreCase(s, "safety")} AS s, ${scoreCase(s, "helpfulness")} AS h`;
}

/** Safety in slots 0–3, helpfulness in slots 4–7 of the packed vector. */
export function scoreFields(scope: HumanScope): { safety: SlotField; helpfulness: SlotField } {
  const schema = scope.campaign.schema;
  return { safety: scoreSlotField(schema, "safety", 0), helpfulness: scoreSlotField(schema, "helpfulness", SCORE_LABELS.length) };
}

/** The four votes of the agreement tables: 0..3 and binarize-then-vote, safety and helpfulness. */
export function scoreVotes(scope: HumanScope): Vote[] {
  const f = scoreFields(scope);
  return [slotVote("s", f.safety), slotVote("h", f.helpfulness), binaryVote("sb", f.safety), binaryVote("hb", f.helpfulness)];
}

/** Per item, its packed vote vector (safety and helpfulness): columns item, p. */
export function packedVotesSql(scope: HumanScope): Prisma.Sql {
  const f = scoreFields(scope);
  return Prisma.sql`
      SELECT a."itemId" AS item, sum(${packedIncrement([f.safety, f.helpfulness])})::bigint AS p
      FROM "Assignment" a WHERE ${labelScope(scope.campaign.id, scope.filter)}
      GROUP BY a."itemId"`;
}
