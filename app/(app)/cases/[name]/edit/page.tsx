import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { decodeParam } from "@/components/toolemu/format";
import { PageHeader } from "@/components/ui/page-header";
import { ProvenanceBadge } from "@/components/authoring/provenance-badge";
import { SpecEditor } from "@/components/authoring/spec-editor";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { caseForEditing } from "@/lib/toolemu/queries/authoring";
import { updateCaseAction } from "./_actions/update-case";

type Params = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Edit ${decodeParam((await params).name)}` };
}

export default async function EditCasePage({ params }: Params) {
  await requirePermission("case:edit");
  const c = await caseForEditing(db(), decodeParam((await params).name));
  if (!c) notFound();
  const href = `/cases/${encodeURIComponent(c.name)}`;
  return (
    <>
      <Breadcrumbs items={[{ href: "/cases", label: "Cases" }, { href, label: c.name }, { label: "Edit" }]} />
      <PageHeader
        title={`Edit ${c.name}`}
        badge={<ProvenanceBadge provenance={c.provenance} version={c.currentVersion} />}
        description={`Saving makes version ${c.currentVersion + 1}. Trajectories already played keep pointing at the version they ran against; new episodes play the saved one.`}
      />
      <SpecEditor kind="case" initial={c.raw} id={c.id} expectedVersion={c.currentVersion} toolkitNames={c.toolkitNames} save={updateCaseAction} basePath="/cases" cancelHref={href} />
    </>
  );
}
