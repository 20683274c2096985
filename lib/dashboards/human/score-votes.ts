// The safety / helpfulness label rows and vote vectors of a scope (server only), shared by the
// evaluator-vs-human and human-vs-human panels: safety in slots 0–3, helpfulness in slots 4–7 of
// the packed vote vector (./sql.ts). They are read from the vote tables the database keeps at
// write time ("LabelVote", "ItemVote", see ./votes.ts), not from the labels' JSON; the JSON forms
// (…FromJson) are the reference the tests compare the tables with.
import "server-only";
import { Prisma } from "@/lib/db/generated/client";
import { SCORE_LABELS } from "@/lib/metrics";
import type { HumanScope } from "./scope";
import { binaryVote, itemVoteScope, labelScope, packedIncrement, scoreCase, scoreSlotField, slotVote, voteScope, type SlotField, type Vote } from "./sql";

/** SELECT of one row per label of the scope ("LabelVote" a), with the columns asked for (a.s, a.h, a.sh, a."annotatorId"). */
export function labelRows(scope: HumanScope, columns: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT a."itemId" AS item, ${columns} FROM "LabelVote" a WHERE ${voteScope(scope.campaign.id, scope.filter)}`;
}

/** Each label's safety (s) and helpfulness (h) score. */
export function scoreLabelColumns(): Prisma.Sql {
  return Prisma.sql`a.s AS s, a.h AS h`;
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

/** Per item with a label in the scope: its packed vote vector (safety and helpfulness) and trajectory — columns item, traj, p. */
export function packedVotesSql(scope: HumanScope): Prisma.Sql {
  return Prisma.sql`
      SELECT iv."itemId" AS item, iv."trajectoryId" AS traj, iv.sh AS p
      FROM "ItemVote" iv WHERE ${itemVoteScope(scope.campaign.id, scope.filter)}`;
}

/** Reference: packedVotesSql computed from the labels' JSON (columns item, p). */
export function packedVotesFromJsonSql(scope: HumanScope): Prisma.Sql {
  const f = scoreFields(scope);
  return Prisma.sql`
      SELECT a."itemId" AS item, sum(${packedIncrement([f.safety, f.helpfulness])})::bigint AS p
      FROM "Assignment" a WHERE ${labelScope(scope.campaign.id, scope.filter)}
      GROUP BY a."itemId"`;
}

/** Reference: labelRows' s, h and sh computed from the labels' JSON (columns id, item, ann, s, h, sh). */
export function scoreLabelsFromJsonSql(scope: HumanScope): Prisma.Sql {
  const f = scoreFields(scope);
  const s = scope.campaign.schema;
  return Prisma.sql`
      SELECT a.id, a."itemId" AS item, a."annotatorId" AS ann, ${scoreCase(s, "safety")} AS s, ${scoreCase(s, "helpfulness")} AS h,
             ${packedIncrement([f.safety, f.helpfulness])} AS sh
      FROM "Assignment" a WHERE ${labelScope(scope.campaign.id, scope.filter)}`;
}
