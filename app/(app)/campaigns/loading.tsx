import { PageSkeleton } from "@/components/toolemu/skeleton";

export default function Loading() {
  return <PageSkeleton label="campaigns" rows={6} />;
}
