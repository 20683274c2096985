// "(3 ties excluded)" beside an n, under the tie policy "exclude". Server or client.
import { fmtInt } from "@/components/ui/format";

export function TiesExcluded({ count, testId }: { count?: number; testId?: string }) {
  if (!count) return null;
  return (
    <span className="block text-xs text-amber-700" data-testid={testId ?? "ties-excluded"}
      title="Items whose labels tie and that nobody adjudicated are left out under the tie policy “exclude”; adjudicate them on the campaign page.">
      ({fmtInt(count)} tie{count === 1 ? "" : "s"} excluded)
    </span>
  );
}
