import { PageSkeleton } from "@/components/toolemu/skeleton";

export default function Loading() {
  return <PageSkeleton label="SAGE scenarios" />;
}
