import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { LiveEpisode } from "@/components/playground/live-episode";
import { startEpisodeAction } from "@/app/(app)/playground/_actions/start-episode";
import { decodeParam } from "@/components/toolemu/format";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { loadEpisodeLive } from "@/lib/engine/playground";

export const metadata: Metadata = { title: "Episode" };

type Props = { params: Promise<{ id: string }> };

export default async function EpisodePage({ params }: Props) {
  const user = await requirePermission("run:read");
  const id = decodeParam((await params).id);
  const episode = await loadEpisodeLive(db(), id);
  if (!episode) notFound();
  return (
    <>
      <Breadcrumbs items={[{ href: "/playground", label: "Playground" }, { label: episode.case.name }]} />
      <LiveEpisode initial={episode} canRun={can(user.role, "run:create")} startEpisode={startEpisodeAction} />
    </>
  );
}
