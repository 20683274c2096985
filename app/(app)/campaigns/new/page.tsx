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
  const { users, facets, totalTrajectories, sage } = await newCampaignFormData(db());
  return (
    <>
      <Breadcrumbs items={[{ href: "/campaigns", label: "Campaigns" }, { label: "New campaign" }]} />
      <PageHeader title="New campaign" description="Choose the label form (ToolEmu's by default, a SAGE form, or your own), what to label (trajectories, SAGE episodes or SAGE scenarios), who labels and how many people label each item." />
      <NewCampaignForm
        users={users}
        facets={facets}
        totalTrajectories={totalTrajectories}
        sage={sage}
        defaultSeed={randomInt(0, 1_000_000)}
        createCampaign={createCampaignAction}
        previewSelection={previewSelectionAction}
      />
    </>
  );
}
