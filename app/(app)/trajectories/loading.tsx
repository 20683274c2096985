import { PageSkeleton } from "@/components/toolemu/skeleton";

export default function Loading() {
  return <PageSkeleton label="trajectories" rows={12} withFilters />;
}
