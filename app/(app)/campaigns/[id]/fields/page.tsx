import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { decodeParam } from "@/components/toolemu/format";
import { FieldAgreementPanel } from "@/components/campaigns/field-agreement";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { campaignFormAgreementCached } from "@/lib/dashboards/campaign-page";

export const metadata: Metadata = { title: "Agreement by form field" };

type Props = { params: Promise<{ id: string }> };

/** Agreement by form field of a large campaign (small ones show it on the campaign page). */
export default async function CampaignFieldsPage({ params }: Props) {
  await requirePermission("campaign:manage");
  const id = decodeParam((await params).id);
  const campaign = await db().campaign.findUnique({ where: { id }, select: { id: true, name: true } });
  if (!campaign) notFound();
  let data;
  try {
    data = await campaignFormAgreementCached(db(), id);
  } catch (e) {
    if (e instanceof AppError && e.status === 404) notFound();
    throw e;
  }
  return (
    <>
      <Breadcrumbs items={[{ href: "/campaigns", label: "Campaigns" }, { href: `/campaigns/${encodeURIComponent(campaign.id)}`, label: campaign.name }, { label: "Agreement by form field" }]} />
      <FieldAgreementPanel data={data} />
    </>
  );
}
