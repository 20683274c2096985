import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/toolemu/empty-state";
import { CampaignTable } from "@/components/campaigns/campaign-table";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { listCampaigns } from "@/lib/annotation/queries";

export const metadata: Metadata = { title: "Campaigns" };

export default async function CampaignsPage() {
  await requirePermission("campaign:manage");
  const campaigns = await listCampaigns(db());
  return (
    <>
      <PageHeader title="Annotation campaigns" description="Blinded human labelling: each trajectory of a campaign is labelled by k different invited annotators. Open a campaign for progress, disagreements, adjudication and exports.">
        <Link href="/campaigns/new" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500" data-testid="new-campaign">New campaign</Link>
      </PageHeader>
      {campaigns.length === 0 ? (
        <EmptyState title="No campaigns yet." action={{ href: "/campaigns/new", label: "Create the first campaign" }} testId="no-campaigns">
          <p>A campaign picks trajectories (by filter or as a seeded random sample), invites annotators and asks k of them to label each trajectory with ToolEmu&apos;s form.</p>
        </EmptyState>
      ) : (
        <CampaignTable rows={campaigns} />
      )}
    </>
  );
}
