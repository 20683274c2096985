// The vote tables and version counters behind the human-label panels (server only).
//
// The agreement dashboards do not read the labels' JSON: the DATABASE keeps, in the transaction
// of every write, whoever writes it (triggers and functions of the dashboard_votes migration):
//   "LabelVote"        one row per SUBMITTED label: its safety / helpfulness score as the
//                      campaign's current form scores it (s, h) and its packed vote increments —
//                      sh: safety slots 0–3, helpfulness 4–7 (./score-votes.ts); ft: true_failure
//                      slots 0–1, the emulator aspects 2–10 (./item-truth.ts). A revision rewrites
//                      it; a form revision that changes the scores rescores the campaign's labels.
//   "ItemVote"         per campaign item: the sums of sh and ft over its labels that COUNT (the
//                      annotator not excluded) and how many (n); recomputed for the items a
//                      submit, revision, exclusion or restore touches. Gold items are left out by
//                      the queries (./sql.ts itemVoteScope).
//   "DashboardVersion" counters "campaign:<id>" and "evaluator:<model>", bumped by the same
//                      transactions; the panel cache's version probe reads them (./cache.ts).
//
//   voteTableDifferences(db, scope) → what differs between the tables and the labels' JSON (the
//                                     reference computation); empty when the tables are right
//   dashboardVersions(db, keys)     → the counters' values (0 before the first bump)
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { FIELDS as TRUTH_FIELDS } from "./item-truth";
import type { HumanScope } from "./scope";
import { scoreFields } from "./score-votes";
import { itemVoteScope, labelScope, packedIncrement, scoreCase } from "./sql";

export interface VoteTableDifferences {
  /** Submitted labels of the campaign / items with a counted label (the reference's counts). */
  labels: number;
  items: number;
  /** Assignment ids whose LabelVote row is missing, extra or different. */
  labelMismatches: string[];
  /** Item ids whose ItemVote (counted, not gold) is missing, extra or different. */
  itemMismatches: string[];
}

/** Compares the campaign's vote tables with the same votes computed from the labels' JSON (whole campaign, no filter). */
export async function voteTableDifferences(db: Db, scope: HumanScope): Promise<VoteTableDifferences> {
  const c = scope.campaign.id;
  const all = { ...scope.filter, agent: undefined, mode: undefined, toolkit: undefined };
  const schema = scope.campaign.schema;
  const f = scoreFields(scope);
  const sh = packedIncrement([f.safety, f.helpfulness]);
  const ft = packedIncrement(TRUTH_FIELDS);
  const [labels, items] = await Promise.all([
    db.$queryRaw<{ id: string; ok: boolean }[]>(Prisma.sql`
      WITH ref AS (
        SELECT a.id, a."campaignId", a."itemId", a."annotatorId", ${scoreCase(schema, "safety")}::smallint AS s, ${scoreCase(schema, "helpfulness")}::smallint AS h,
               ${sh} AS sh, ${ft} AS ft
        FROM "Assignment" a WHERE a."campaignId" = ${c} AND a.status = 'SUBMITTED'),
      got AS (SELECT lv."assignmentId" AS id, lv."campaignId", lv."itemId", lv."annotatorId", lv.s, lv.h, lv.sh, lv.ft FROM "LabelVote" lv WHERE lv."campaignId" = ${c})
      SELECT COALESCE(ref.id, got.id) AS id, (ref.id IS NOT NULL AND got.id IS NOT NULL AND (ref.*) IS NOT DISTINCT FROM (got.*)) AS ok
      FROM ref FULL JOIN got ON got.id = ref.id`),
    db.$queryRaw<{ id: string; ok: boolean }[]>(Prisma.sql`
      WITH ref AS (
        SELECT a."itemId" AS id, count(*)::int AS n, sum(${sh})::bigint AS sh, sum(${ft})::bigint AS ft
        FROM "Assignment" a WHERE ${labelScope(c, all)} GROUP BY a."itemId"),
      got AS (SELECT iv."itemId" AS id, iv.n, iv.sh, iv.ft FROM "ItemVote" iv WHERE ${itemVoteScope(c, all)})
      SELECT COALESCE(ref.id, got.id) AS id, (ref.id IS NOT NULL AND got.id IS NOT NULL AND (ref.*) IS NOT DISTINCT FROM (got.*)) AS ok
      FROM ref FULL JOIN got ON got.id = ref.id`),
  ]);
  return {
    labels: labels.length,
    items: items.length,
    labelMismatches: labels.filter((r) => !r.ok).map((r) => r.id),
    itemMismatches: items.filter((r) => !r.ok).map((r) => r.id),
  };
}

/** The version counters' values (0 for a counter never bumped). */
export async function dashboardVersions(db: Db, keys: readonly string[]): Promise<Record<string, bigint>> {
  const rows = await db.dashboardVersion.findMany({ where: { key: { in: [...keys] } } });
  const got = new Map(rows.map((r) => [r.key, r.version]));
  return Object.fromEntries(keys.map((k) => [k, got.get(k) ?? 0n]));
}
