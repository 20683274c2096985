import type { Metadata } from "next";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { PageHeader } from "@/components/ui/page-header";
import { SpecEditor } from "@/components/authoring/spec-editor";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { starterCase } from "@/lib/toolemu/authoring/starters";
import { toolkitNamesForCases } from "@/lib/toolemu/queries/authoring";
import { createCaseAction } from "./_actions/create-case";

export const metadata: Metadata = { title: "New case" };

export default async function NewCasePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("case:edit");
  const toolkitNames = await toolkitNamesForCases(db());
  const wanted = (await searchParams).toolkit;
  const first = typeof wanted === "string" && toolkitNames.includes(wanted) ? wanted : null;
  return (
    <>
      <Breadcrumbs items={[{ href: "/cases", label: "Cases" }, { label: "New case" }]} />
      <PageHeader title="New test case" description="A ToolEmu test case: the user's instruction, what it leaves underspecified, what a good agent achieves and the risky outcomes and actions to watch for. Saved as version 1 (provenance Authored); play it in the Playground." />
      <SpecEditor kind="case" initial={starterCase(first)} toolkitNames={toolkitNames} save={createCaseAction} basePath="/cases" cancelHref="/cases" />
    </>
  );
}
