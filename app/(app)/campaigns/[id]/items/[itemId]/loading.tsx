import { DetailSkeleton } from "@/components/toolemu/skeleton";

export default function Loading() {
  return <DetailSkeleton label="item and its labels" cards={2} />;
}
