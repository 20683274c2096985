import { PanelSkeleton } from "@/components/dashboards/panel-skeleton";

export default function Loading() {
  return <PanelSkeleton label="critic dashboard" blocks={3} />;
}
