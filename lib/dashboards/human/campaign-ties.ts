// The campaign page's "ties waiting for an adjudicator" (server only): items whose submitted labels
// tie for the most votes in a field the dashboards use — safety or helpfulness (by SCORE: the two
// score-1 safety labels agree, and once more binarized, "< 2" / "≥ 2", because the binarized panels
// binarize before they vote), true failure, an emulator aspect — and that nobody adjudicated.
// An adjudication is the item's ground truth on every panel (lib/metrics/ground-truth.ts), so each
// listed item links to its adjudication page.
//
// Read from the per-item vote vectors the database keeps ("ItemVote", ./votes.ts), as the panels
// read them: the tie masks are worked out once per DISTINCT vector, not per label.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { parseLabelSchema, type LabelSchema } from "@/lib/trajectory/label-schema";
import { EMULATOR_ASPECT_KEYS, TIE_FIELD_NAMES, type CampaignTies } from "./fields";
import { FIELDS } from "./item-truth";
import { binaryVote, maskLabels, pvColumns, scoreSlotField, slotVote, type Vote } from "./sql";

/** One tie field: its vote (alias a → tie mask column t<a>), the packed column it reads, its JSON key, and how its labels read. */
export interface TieVote {
  vote: Vote;
  col: "sh" | "ft";
  key: string;
  show: (label: string) => string;
}

const asIs = (l: string) => l;
const binaryShown = (l: string) => (l === "1" ? "≥ 2" : "< 2");

/** The tie fields of a campaign's form, in the list's order. */
export function tieVotes(schema: LabelSchema): TieVote[] {
  const keys = new Set(schema.fields.filter((f) => (f.kind === "choice" || f.kind === "boolean") && f.key in TIE_FIELD_NAMES).map((f) => f.key));
  // Slots as in "ItemVote": sh = safety 0–3, helpfulness 4–7; ft = true_failure 0–1, aspects 2–10.
  const votes: TieVote[] = [];
  for (const [key, offset, alias] of [["safety", 0, "s"], ["helpfulness", 4, "h"]] as const) {
    if (!keys.has(key)) continue;
    const f = scoreSlotField(schema, key, offset);
    votes.push({ vote: slotVote(alias, f), col: "sh", key, show: asIs }, { vote: binaryVote(`${alias}b`, f), col: "sh", key, show: binaryShown });
  }
  if (keys.has("true_failure")) votes.push({ vote: slotVote("tf", FIELDS[0]!), col: "ft", key: "true_failure", show: asIs });
  EMULATOR_ASPECT_KEYS.forEach((key, i) => {
    if (keys.has(key)) votes.push({ vote: slotVote(`e${i}`, FIELDS[1 + i]!), col: "ft", key, show: asIs });
  });
  return votes;
}

/** The statement: the first `limit` open ties in case order, each with its fields' tie masks (t<alias>) and the total. */
export function campaignTiesSql(votes: readonly TieVote[], campaignId: string, limit: number): Prisma.Sql {
  const masks = (col: "sh" | "ft") => {
    const vs = votes.filter((v) => v.col === col).map((v) => v.vote);
    const c = Prisma.raw(`d.${col}`);
    const d = Prisma.sql`(SELECT DISTINCT ${Prisma.raw(col)} FROM iv) d`;
    return vs.length ? Prisma.sql`SELECT ${c}, ${pvColumns(vs, c)} FROM ${d}` : Prisma.sql`SELECT ${c} FROM ${d}`;
  };
  const t = (v: TieVote) => Prisma.raw(`t${v.vote.alias}`);
  // A field the item's adjudication decides is no tie (the panels read it the same way).
  const open = votes.map((v) => Prisma.sql`(CASE WHEN ad."values"->>${v.key}::text IS NULL THEN ${t(v)} ELSE 0 END) AS ${t(v)}`);
  const anyOpen = Prisma.join(votes.map((v) => Prisma.sql`o.${t(v)} <> 0`), " OR ");
  const anyTied = Prisma.join(votes.map((v) => Prisma.sql`${t(v)} <> 0`), " OR ");
  return Prisma.sql`
    WITH iv AS (SELECT iv."itemId" AS item, iv."trajectoryId" AS traj, iv.sh, iv.ft FROM "ItemVote" iv WHERE iv."campaignId" = ${campaignId} AND iv.n > 0),
    ps AS MATERIALIZED (${masks("sh")}),
    pf AS MATERIALIZED (${masks("ft")}),
    tied AS (SELECT iv.item, iv.traj, ps.*, pf.* FROM iv JOIN ps ON ps.sh = iv.sh JOIN pf ON pf.ft = iv.ft WHERE ${anyTied}),
    o AS (SELECT tied.item, tied.traj, ${Prisma.join(open)} FROM tied LEFT JOIN "Adjudication" ad ON ad."itemId" = tied.item),
    -- Case order (name prefix, its number, the name) as one number per case, worked out once per case, not per item.
    cr AS MATERIALIZED (
      SELECT c.id, c.name, dense_rank() OVER (ORDER BY regexp_replace(c.name, '[0-9]+$', ''), (substring(c.name from '([0-9]{1,18})$'))::bigint NULLS FIRST, c.name) AS r
      FROM "TestCase" c)
    SELECT o.*, cr.name AS case_name, (count(*) OVER ())::int AS total
    FROM o JOIN "Trajectory" tr ON tr.id = o.traj JOIN cr ON cr.id = tr."caseId"
    WHERE ${anyOpen}
    ORDER BY cr.r, o.item
    LIMIT ${limit}`;
}

export async function campaignTies(db: Db, campaignId: string, limit = 100): Promise<CampaignTies> {
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { labelSchema: true } });
  if (!campaign) return { total: 0, items: [] };
  const votes = tieVotes(parseLabelSchema(campaign.labelSchema));
  if (!votes.length) return { total: 0, items: [] };
  const rows = await db.$queryRaw<({ item: string; traj: string; case_name: string; total: number } & Record<string, number>)[]>(campaignTiesSql(votes, campaignId, limit));
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map((r) => ({
      itemId: r.item,
      trajectoryId: r.traj,
      caseName: r.case_name,
      fields: votes.flatMap((v) => {
        const mask = Number(r[`t${v.vote.alias}`]);
        if (!mask) return [];
        const labels = v.vote.candidates(Prisma.sql`0`).map((c) => c.label);
        // Tied values in text order (what the list has always shown).
        return [{ field: v.vote.field, values: maskLabels(labels, mask).map(v.show).sort() }];
      }),
    })),
  };
}
