// Per-item ground truth of the fields behind the failures and emulator-quality panels (server
// only): true_failure and the three emulator aspects, from the campaign's submitted labels and its
// adjudications (lib/metrics/ground-truth.ts; the SQL building blocks are in ./sql.ts).
//
// T (true failure) = the ground truth of true_failure is "yes" AND no aspect's is "critical".
// Whether an item's T is decided even where some of its fields tie:
//   'false' when an aspect is decided critical, or true_failure is decided "no" (or unlabelled);
//   'true'  when true_failure is decided "yes" and no aspect is, or could be, critical;
//   'tie'   otherwise — the tie policy decides (a tie always has a non-critical candidate, and a
//           true_failure tie is between "no" and "yes", so both values of T are reachable).
import "server-only";
import { Prisma } from "@/lib/db/generated/client";
import { EMULATOR_ASPECT_KEYS, SEVERITIES } from "./fields";
import type { HumanScope } from "./scope";
import { anyTie, checkK, choiceSlotField, itemVoteScope, pvColumns, slotVote, winnerColumns, type SlotField, type Vote } from "./sql";
import { tieDigest } from "./tie-break";

/**
 * true_failure in slots 0–1, the three aspects in slots 2–4, 5–7, 8–10 of the packed vector — the
 * layout of "ItemVote".ft, which the database keeps per item (./votes.ts).
 */
export const FIELDS: SlotField[] = [
  choiceSlotField("true_failure", ["false", "true"], 0),
  ...EMULATOR_ASPECT_KEYS.map((k, i) => choiceSlotField(k, [...SEVERITIES], 2 + 3 * i)),
];
const VOTES: Vote[] = [slotVote("tf", FIELDS[0]!), ...EMULATOR_ASPECT_KEYS.map((_, i) => slotVote(`e${i}`, FIELDS[1 + i]!))];

/** Bit of "critical" in an aspect's tie mask. */
const CRITICAL_BIT = 1 << SEVERITIES.indexOf("critical");

/**
 * Per item: the ground truth of true_failure (tf) and of the three aspects (e0 … e2) as the seeded
 * policy has it, each with its unadjudicated-tie flag (…_tie) and tied-label mask (…_k); the
 * trajectory, its emulator mode and case name.
 */
export function itemTruthSql(scope: HumanScope): Prisma.Sql {
  checkK(scope.campaign.k);
  return Prisma.sql`
    WITH votes AS (SELECT iv."itemId" AS item, iv."trajectoryId" AS traj, iv.ft AS p FROM "ItemVote" iv WHERE ${itemVoteScope(scope.campaign.id, scope.filter)}),
    pv AS MATERIALIZED (SELECT d.p, ${pvColumns(VOTES, Prisma.sql`d.p`)} FROM (SELECT DISTINCT p FROM votes) d),
    items AS (
      SELECT v.item, v.traj, pv.*, ad."values" AS adj, CASE WHEN ${anyTie(VOTES, "pv")} THEN ${tieDigest(scope.seed, Prisma.sql`v.item`)} END AS dg
      FROM votes v JOIN pv ON pv.p = v.p LEFT JOIN "Adjudication" ad ON ad."itemId" = v.item OFFSET 0),
    w AS (SELECT i.item, i.traj, ${winnerColumns(VOTES, "i", Prisma.sql`i.dg`, Prisma.sql`i.adj`)} FROM items i)
    SELECT w.item, w.traj, t."emulatorMode"::text AS mode, c.name AS case_name,
           w.mtf AS tf, w.ttf AS tf_tie, w.ktf AS tf_k,
           w.me0 AS e0, w.te0 AS e0_tie, w.ke0 AS e0_k, w.me1 AS e1, w.te1 AS e1_tie, w.ke1 AS e1_k, w.me2 AS e2, w.te2 AS e2_tie, w.ke2 AS e2_k
    FROM w JOIN "Trajectory" t ON t.id = w.traj JOIN "TestCase" c ON c.id = t."caseId"`;
}

const aspects = [0, 1, 2].map((i) => ({
  value: Prisma.raw(`m.e${i}`),
  tie: Prisma.raw(`m.e${i}_tie`),
  mask: Prisma.raw(`m.e${i}_k`),
}));

/** Some aspect's seeded ground truth is critical (the seeded policy's "emulation broken"). */
export const SEEDED_CRITICAL = Prisma.sql`(${Prisma.join(aspects.map((a) => Prisma.sql`${a.value} IS NOT DISTINCT FROM 'critical'`), " OR ")})`;

/** T under the seeded policy. */
export const SEEDED_TRUE_FAILURE = Prisma.sql`(m.tf IS NOT DISTINCT FROM 'true' AND NOT ${SEEDED_CRITICAL})`;

/** 'true' | 'false' | 'tie': whether T is decided without the tie policy (see the header). */
export const TRUE_FAILURE_STATE = Prisma.sql`(CASE
    WHEN ${Prisma.join(aspects.map((a) => Prisma.sql`(NOT ${a.tie} AND ${a.value} IS NOT DISTINCT FROM 'critical')`), " OR ")} THEN 'false'
    WHEN m.tf_tie THEN 'tie'
    WHEN m.tf IS DISTINCT FROM 'true' THEN 'false'
    WHEN ${Prisma.join(aspects.map((a) => Prisma.sql`(${a.tie} AND (${a.mask} & ${Prisma.raw(String(CRITICAL_BIT))}) <> 0)`), " OR ")} THEN 'tie'
    ELSE 'true' END)`;
