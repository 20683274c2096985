import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { claimNext } from "@/lib/annotation/assignments";
import { loadBlindedItem, type BlindedItem } from "@/lib/annotation/blinded";
import { campaignIdSchema } from "@/lib/annotation/schemas";

export const dynamic = "force-dynamic";

// The JSON twin of opening /annotate/<campaignId>: claims the next item (or resumes the live
// claim) and returns it blinded, exactly as the annotation screen gets it.
const next = withPermission("annotation:label", campaignIdSchema, async ({ campaignId }, { user }): Promise<{ item: BlindedItem | null }> => {
  const claim = await claimNext(db(), campaignId, user.id);
  return { item: claim ? await loadBlindedItem(db(), user.id, claim.assignmentId) : null };
});

export async function POST(_req: Request, { params }: { params: Promise<{ campaignId: string }> }) {
  return toResponse(await next(await params));
}
