import type { Metadata } from "next";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { PageHeader } from "@/components/ui/page-header";
import { SpecEditor } from "@/components/authoring/spec-editor";
import { requirePermission } from "@/lib/auth/server";
import { STARTER_TOOLKIT } from "@/lib/toolemu/authoring/starters";
import { createToolkitAction } from "./_actions/create-toolkit";

export const metadata: Metadata = { title: "New toolkit" };

export default async function NewToolkitPage() {
  await requirePermission("toolkit:edit");
  return (
    <>
      <Breadcrumbs items={[{ href: "/toolkits", label: "Toolkits" }, { label: "New toolkit" }]} />
      <PageHeader title="New toolkit" description="A ToolEmu toolkit specification: the tools an emulator plays, each with its parameters, return fields and exceptions. Checked with the importer's own rules; saved as version 1 (provenance Authored)." />
      <SpecEditor kind="toolkit" initial={STARTER_TOOLKIT} save={createToolkitAction} basePath="/toolkits" cancelHref="/toolkits" />
    </>
  );
}
