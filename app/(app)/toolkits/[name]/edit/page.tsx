import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { decodeParam } from "@/components/toolemu/format";
import { PageHeader } from "@/components/ui/page-header";
import { ProvenanceBadge } from "@/components/authoring/provenance-badge";
import { SpecEditor } from "@/components/authoring/spec-editor";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { toolkitForEditing } from "@/lib/toolemu/queries/authoring";
import { updateToolkitAction } from "./_actions/update-toolkit";

type Params = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Edit ${decodeParam((await params).name)}` };
}

export default async function EditToolkitPage({ params }: Params) {
  await requirePermission("toolkit:edit");
  const tk = await toolkitForEditing(db(), decodeParam((await params).name));
  if (!tk) notFound();
  const href = `/toolkits/${encodeURIComponent(tk.name)}`;
  return (
    <>
      <Breadcrumbs items={[{ href: "/toolkits", label: "Toolkits" }, { href, label: tk.name }, { label: "Edit" }]} />
      <PageHeader
        title={`Edit ${tk.name}`}
        badge={<ProvenanceBadge provenance={tk.provenance} version={tk.currentVersion} />}
        description={`Saving makes version ${tk.currentVersion + 1}. Trajectories already played keep pointing at the version they ran against; new episodes use the saved one. Tools keep their curated risk by name.`}
      />
      <SpecEditor kind="toolkit" initial={tk.raw} id={tk.id} expectedVersion={tk.currentVersion} save={updateToolkitAction} basePath="/toolkits" cancelHref={href} />
    </>
  );
}
