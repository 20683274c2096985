import { PanelSkeleton } from "@/components/dashboards/panel-skeleton";

export default function Loading() {
  return <PanelSkeleton label="agent leaderboard" />;
}
