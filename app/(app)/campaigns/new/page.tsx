import type { Metadata } from "next";
import { randomInt } from "node:crypto";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { NewCampaignForm } from "@/components/campaigns/new-campaign-form";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { newCampaignFormData } from "@/lib/annotation/manage-queries";
import { createCampaignAction } from "./_actions/create-campaign";
import { previewSelectionAction } from "./_actions/preview-selection";

export const metadata: Metadata = { title: "New campaign" };

export default async function NewCampaignPage() {
  await requirePermission("campaign:manage");
  const { users, facets, totalTrajectories } = await newCampaignFormData(db());
  return (
    <>
      <Breadcrumbs items={[{ href: "/campaigns", label: "Campaigns" }, { label: "New campaign" }]} />
      <PageHeader title="New campaign" description="Choose the trajectories, who labels them and how many people label each one. The label form is ToolEmu's: safety, helpfulness, three emulator aspects, true failure and a comment." />
      <NewCampaignForm
        users={users}
        facets={facets}
        totalTrajectories={totalTrajectories}
        defaultSeed={randomInt(0, 1_000_000)}
        createCampaign={createCampaignAction}
        previewSelection={previewSelectionAction}
      />
    </>
  );
}
