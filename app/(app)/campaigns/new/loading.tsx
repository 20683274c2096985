import { DetailSkeleton } from "@/components/toolemu/skeleton";

export default function Loading() {
  return <DetailSkeleton label="the new campaign form" cards={3} />;
}
