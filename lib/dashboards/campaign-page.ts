// The campaign page's label-derived sections, kept per campaign version (server only):
//   campaignTiesCached(db, id)          → the ties waiting for an adjudicator (./human/campaign-ties.ts)
//   campaignFormAgreementCached(db, id) → agreement by form field (./human/form-agreement-query.ts)
//   campaignItemsPageCached(db, id, k, { page }) → the totals and one page of items by disagreement
//                                         (./campaign-overview.ts: one pass over the items' vote vectors)
//   campaignPageOverview(db, id, { page }) → the campaign, its members' progress, the totals and one
//                                         page of items (campaignOverview's result, read as
//                                         ./campaign-overview.ts says)
// Both read every submitted label of the campaign; a campaign of 100,000 items × 3 labels takes
// seconds (ties) to minutes (the form agreement's bootstraps) to compute. They change only when
// the campaign's version counter does — the database bumps "campaign:<id>" in DashboardVersion in
// the transaction of every write that changes a submitted label, an exclusion, an adjudication, a
// gold answer or the campaign row (its form) — so each is computed once per version and kept in
// the panels' in-process cache (./human/cache.ts), like the dashboards' panels. The form
// agreement of a SAGE episode form also shows the judges' labels: their rows are in its version.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { campaignHeader, type CampaignItemsPage } from "@/lib/annotation/queries";
import { cached, type Cached } from "./human/cache";
import { campaignTies } from "./human/campaign-ties";
import { campaignFormAgreement, type FormAgreement } from "./human/form-agreement-query";
import type { CampaignTies } from "./human/fields";
import { campaignItemsPageFast, campaignProgress, campaignVersionProbe } from "./campaign-overview";

/** The campaign's version and, for the SAGE episode forms' judge figures, the judges' labels (count and row versions). */
function formAgreementProbe(campaignId: string): Prisma.Sql {
  return Prisma.sql`SELECT COALESCE((SELECT dv.version FROM "DashboardVersion" dv WHERE dv.key = ${`campaign:${campaignId}`}), 0)::text
    || '|' || (SELECT count(*)::text || ':' || COALESCE(sum(j.xmin::text::bigint), 0)::text FROM "SageJudgment" j) AS v`;
}

export function campaignTiesCached(db: Db, campaignId: string): Promise<Cached<CampaignTies>> {
  return cached(db, JSON.stringify(["campaignTies", campaignId]), campaignVersionProbe(campaignId), () => campaignTies(db, campaignId));
}

export function campaignFormAgreementCached(db: Db, campaignId: string): Promise<Cached<FormAgreement>> {
  return cached(db, JSON.stringify(["campaignFormAgreement", campaignId]), formAgreementProbe(campaignId), () => campaignFormAgreement(db, campaignId));
}

export function campaignItemsPageCached(db: Db, campaignId: string, k: number, opts: { page?: number; pageSize?: number } = {}): Promise<Cached<CampaignItemsPage>> {
  const key = JSON.stringify(["campaignItemsPage", campaignId, k, opts.page ?? 1, opts.pageSize ?? null]);
  return cached(db, key, campaignVersionProbe(campaignId), () => campaignItemsPageFast(db, campaignId, k, opts));
}

/**
 * The campaign page's overview: campaignOverview's result (lib/annotation/queries.ts) — the
 * campaign, each member's progress, the totals and one page of items by disagreement — with the
 * items page kept per campaign version and the progress read as ./campaign-overview.ts says.
 * 404 for an unknown campaign.
 */
export async function campaignPageOverview(db: Db, campaignId: string, opts: { page?: number; pageSize?: number } = {}) {
  const campaign = await campaignHeader(db, campaignId);
  const [{ items, page, totals }, counts] = await Promise.all([
    campaignItemsPageCached(db, campaignId, campaign.k, opts),
    campaignProgress(db, campaignId, campaign.members.map((m) => m.user.id)),
  ]);
  const progress = campaign.members.map(({ user }) => ({ userId: user.id, name: user.name, email: user.email, ...counts.get(user.id)! }));
  return { campaign, progress, items, page, totals };
}
