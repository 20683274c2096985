import { DetailSkeleton } from "@/components/toolemu/skeleton";

export default function Loading() {
  return <DetailSkeleton label="trajectory" cards={4} />;
}
