import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { PageHeader } from "@/components/ui/page-header";
import { FormSection } from "@/components/ui/form";
import { QualitySettingsForm } from "@/components/campaigns/quality/quality-settings-form";
import { GoldPanel } from "@/components/campaigns/quality/gold-panel";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { decodeParam } from "@/components/toolemu/format";
import { qualityPageData } from "@/lib/annotation/quality/page-data";
import { setQualityAction } from "./_actions/set-quality";
import { addGoldByFormAction, addGoldFromAdjudicationAction } from "./_actions/add-gold";
import { removeGoldAction } from "./_actions/remove-gold";

export const metadata: Metadata = { title: "Gold items and qualification" };

export default async function QualityPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission("campaign:manage");
  const id = decodeParam((await params).id);
  let data;
  try {
    data = await qualityPageData(db(), id);
  } catch (e) {
    if (e instanceof AppError && e.status === 404) notFound();
    throw e;
  }
  const { campaign, settings, gold, candidates, qualification } = data;
  return (
    <>
      <Breadcrumbs items={[{ href: "/campaigns", label: "Campaigns" }, { href: `/campaigns/${campaign.id}`, label: campaign.name }, { label: "Gold & qualification" }]} />
      <PageHeader
        title="Gold items and qualification"
        description={<>Known-answer items mixed into each annotator&apos;s queue (never marked as such) and a qualification round before the real items. How each annotator does on them: <Link href={`/campaigns/${campaign.id}/annotators`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Annotators</Link>.</>}
      />
      <div className="space-y-6">
        <FormSection id="quality-settings-heading" title="Settings" description={<>Qualification so far: {qualification.passed} passed, {qualification.failed} failed. Gold items and the round need gold items below; gold labels never enter the agreement figures or the label export.</>}>
          <div className="mt-4"><QualitySettingsForm campaignId={campaign.id} initial={settings} save={setQualityAction} disabled={campaign.locked} /></div>
        </FormSection>
        <FormSection id="gold-heading" title="Gold items" description="Only staff see which items are gold and their answers.">
          <div className="mt-4">
            <GoldPanel campaignId={campaign.id} schema={campaign.schema} gold={gold} candidates={candidates} locked={campaign.locked}
              addFromAdjudication={addGoldFromAdjudicationAction} addByForm={addGoldByFormAction} remove={removeGoldAction} />
          </div>
        </FormSection>
      </div>
    </>
  );
}
