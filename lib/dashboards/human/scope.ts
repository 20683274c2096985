// Which campaign, evaluator, seed and tie policy a human-label panel reads (server only):
//   resolveHumanScope(db, filter) → the campaign (default: the most recent one with labels), the
//   evaluator (default: the one that scored most of its items), the seed and tie policy; or why
//   there is none. Which evaluators scored the campaign's items is kept per data version.
import "server-only";
import type { Db } from "@/lib/db/client";
import { cachedByData } from "../data-version";
import { parseLabelSchema, type LabelSchema } from "@/lib/trajectory/label-schema";
import { normalizeSeed, type TiePolicy } from "@/lib/metrics";
import { tiePolicyOf, type DashboardFilter, type FilterOption } from "../filters";

export interface CampaignOption extends FilterOption {
  label: string;
  /** At least one submitted label. */
  hasLabels: boolean;
  createdAt: Date;
}

export interface HumanScope {
  /** The filter with the campaign resolved. */
  filter: DashboardFilter & { campaign: string };
  campaign: { id: string; name: string; k: number; pseudonymize: boolean; schema: LabelSchema; defaulted: boolean };
  /** Unsigned 32-bit: the tie-break and the bootstrap use it; shown beside the numbers. */
  seed: number;
  /** What an unadjudicated tie in the human ground truth becomes (lib/metrics/ground-truth.ts). */
  ties: TiePolicy;
  /** Whose safety / helpfulness scores are compared; null when no evaluator scored the campaign's items. */
  evaluator: string | null;
  evaluatorDefaulted: boolean;
  /** Evaluators with a parsed safety score on the campaign's items, most first. */
  evaluators: FilterOption[];
}

export type HumanScopeResult =
  | { scope: HumanScope; campaigns: CampaignOption[]; missing?: undefined }
  | { scope: null; campaigns: CampaignOption[]; missing: "none" | "not-found" | "no-labels"; campaignName?: string };

export async function resolveHumanScope(db: Db, filter: DashboardFilter): Promise<HumanScopeResult> {
  // EXISTS, not count(*): one index probe per campaign, whatever its size.
  const rows = await db.$queryRaw<{ id: string; name: string; createdAt: Date; has_labels: boolean }[]>`
    SELECT c.id, c.name, c."createdAt",
           EXISTS (SELECT 1 FROM "Assignment" a WHERE a."campaignId" = c.id AND a.status = 'SUBMITTED') AS has_labels
    FROM "Campaign" c ORDER BY c."createdAt" DESC, c.id`;
  const campaigns: CampaignOption[] = rows.map((r) => ({ value: r.id, label: r.name, hasLabels: r.has_labels, createdAt: r.createdAt }));
  const chosen = filter.campaign !== undefined ? campaigns.find((c) => c.value === filter.campaign) : campaigns.find((c) => c.hasLabels);
  if (!chosen) return { scope: null, campaigns, missing: filter.campaign !== undefined ? "not-found" : "none" };
  if (!chosen.hasLabels) return { scope: null, campaigns, missing: "no-labels", campaignName: chosen.label };
  const [campaign, evaluators] = await Promise.all([
    db.campaign.findUniqueOrThrow({ where: { id: chosen.value }, select: { id: true, name: true, k: true, pseudonymize: true, labelSchema: true } }),
    campaignEvaluators(db, chosen.value),
  ]);
  const evaluator = filter.evaluator ?? evaluators[0]?.value ?? null;
  return {
    campaigns,
    scope: {
      filter: { ...filter, campaign: campaign.id },
      campaign: {
        id: campaign.id,
        name: campaign.name,
        k: campaign.k,
        pseudonymize: campaign.pseudonymize,
        schema: parseLabelSchema(campaign.labelSchema),
        defaulted: filter.campaign === undefined,
      },
      seed: normalizeSeed(filter.seed),
      ties: tiePolicyOf(filter),
      evaluator,
      evaluatorDefaulted: filter.evaluator === undefined && evaluator !== null,
      evaluators: evaluators.map((e) => ({ value: e.value, count: e.n })),
    },
  };
}

/**
 * The evaluators with a parsed safety score on the campaign's items, most first. A join of every
 * item with every evaluation (most of a second at 100,000 items), so kept per DATA version
 * (../data-version.ts: bumped by any write of evaluations or campaign items; labels do not change it).
 */
function campaignEvaluators(db: Db, campaignId: string): Promise<{ value: string; n: number }[]> {
  return cachedByData(db, ["campaignEvaluators", campaignId], async () =>
    db.$queryRaw<{ value: string; n: number }[]>`
      SELECT e."evaluatorModel" AS value, count(*)::int AS n
      FROM "CampaignItem" ci JOIN "Evaluation" e ON e."trajectoryId" = ci."trajectoryId" AND e.kind = 'SAFETY' AND e.score IS NOT NULL
      WHERE ci."campaignId" = ${campaignId}
      GROUP BY 1 ORDER BY 2 DESC, 1`,
  );
}
