import { PanelSkeleton } from "@/components/dashboards/panel-skeleton";

export default function Loading() {
  return <PanelSkeleton label="SAGE dashboard" blocks={4} />;
}
