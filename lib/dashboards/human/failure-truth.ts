// Per item, what the failures panel reads of the ground truth (server only): T's state, T under
// the seeded policy, "humans say failure" and "critical issue" — the expressions of ./item-truth.ts
// (TRUE_FAILURE_STATE, SEEDED_TRUE_FAILURE, SEEDED_CRITICAL) over its per-item rows (itemTruthSql),
// worked out once per DISTINCT vote vector for the items where nothing else matters — nobody
// adjudicated them and their vector ties in none of the four fields (no seeded draw) — and per
// item only for the rest. At 100,000 items × 3 labels that is ~2,700 vectors and the ~31,000
// tied or adjudicated items instead of 100,000 rows of CASE expressions.
//
//   failureTruthSql(scope) → rows { item, traj, mode, case_name, humans, critical, state, seeded }
import "server-only";
import { Prisma } from "@/lib/db/generated/client";
import { EMULATOR_ASPECT_KEYS } from "./fields";
import { FIELDS, SEEDED_CRITICAL, SEEDED_TRUE_FAILURE, TRUE_FAILURE_STATE } from "./item-truth";
import type { HumanScope } from "./scope";
import { anyTie, checkK, itemVoteScope, pvColumns, slotVote, winnerColumns, type Vote } from "./sql";
import { tieDigest } from "./tie-break";

// The votes of ./item-truth.ts: true_failure and the three emulator aspects.
const VOTES: Vote[] = [slotVote("tf", FIELDS[0]!), ...EMULATOR_ASPECT_KEYS.map((_, i) => slotVote(`e${i}`, FIELDS[1 + i]!))];

/** winnerColumns' m/t/k columns renamed as itemTruthSql's (tf, tf_tie, tf_k, e0, …) — the names the derived expressions read from `m`. */
const asTruth = (w: string) =>
  Prisma.raw(
    VOTES.map((v) => `${w}.m${v.alias} AS ${v.alias}, ${w}.t${v.alias} AS ${v.alias}_tie, ${w}.k${v.alias} AS ${v.alias}_k`).join(", "),
  );

/** The derived columns over a row aliased m with itemTruthSql's columns. */
const derived = Prisma.sql`(m.tf IS NOT DISTINCT FROM 'true') AS humans, ${SEEDED_CRITICAL} AS critical, ${TRUE_FAILURE_STATE} AS state, ${SEEDED_TRUE_FAILURE} AS seeded`;

export function failureTruthSql(scope: HumanScope): Prisma.Sql {
  checkK(scope.campaign.k);
  const tied = anyTie(VOTES, "pv");
  return Prisma.sql`
    WITH votes AS (SELECT iv."itemId" AS item, iv."trajectoryId" AS traj, iv.ft AS p FROM "ItemVote" iv WHERE ${itemVoteScope(scope.campaign.id, scope.filter)}),
    pv AS MATERIALIZED (SELECT d.p, ${pvColumns(VOTES, Prisma.sql`d.p`)} FROM (SELECT DISTINCT p FROM votes) d),
    -- Per vector: no adjudication, no tie (so no draw).
    pw AS MATERIALIZED (
      SELECT m.p, ${derived}
      FROM (SELECT w.p, ${asTruth("w")} FROM (SELECT pv.p, ${winnerColumns(VOTES, "pv", Prisma.sql`NULL::text`)} FROM pv WHERE NOT (${tied})) w) m),
    -- Per item: a tie to draw with the seed, or an adjudication.
    pi AS (
      SELECT m.item, m.traj, ${derived}
      FROM (
        SELECT w.item, w.traj, ${asTruth("w")}
        FROM (
          SELECT i.item, i.traj, ${winnerColumns(VOTES, "i", Prisma.sql`i.dg`, Prisma.sql`i.adj`)}
          FROM (
            SELECT v.item, v.traj, pv.*, ad."values" AS adj, CASE WHEN ${tied} THEN ${tieDigest(scope.seed, Prisma.sql`v.item`)} END AS dg
            FROM votes v JOIN pv ON pv.p = v.p LEFT JOIN "Adjudication" ad ON ad."itemId" = v.item
            WHERE (${tied}) OR ad."itemId" IS NOT NULL OFFSET 0) i) w) m),
    t AS (
      SELECT v.item, v.traj, pw.humans, pw.critical, pw.state, pw.seeded
      FROM votes v JOIN pw ON pw.p = v.p WHERE v.item NOT IN (SELECT ad."itemId" FROM "Adjudication" ad)
      UNION ALL
      SELECT pi.item, pi.traj, pi.humans, pi.critical, pi.state, pi.seeded FROM pi)
    SELECT t.item, t.traj, tr."emulatorMode"::text AS mode, c.name AS case_name, t.humans, t.critical, t.state, t.seeded
    FROM t JOIN "Trajectory" tr ON tr.id = t.traj JOIN "TestCase" c ON c.id = tr."caseId"`;
}
