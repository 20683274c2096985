import { DetailSkeleton } from "@/components/toolemu/skeleton";

export default function Loading() {
  return <DetailSkeleton label="campaign" cards={3} />;
}
