import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { readJsonRequest } from "@/app/api/annotate/_lib/request";
import { claimNextItem } from "@/lib/annotation/assignments";
import type { BlindedItem } from "@/lib/annotation/blinded";
import { campaignIdSchema } from "@/lib/annotation/schemas";

export const dynamic = "force-dynamic";

// The JSON twin of opening /annotate/<campaignId>: claims the next item (or resumes the live
// claim) and returns it blinded, exactly as the annotation screen gets it.
// One transaction: the claim and the read of the item it hands out.
// The user row is checked in the claim's first statement (the guard's deferred check).
const next = withPermission(
  "annotation:label",
  campaignIdSchema,
  async ({ campaignId }, { caller }): Promise<{ item: BlindedItem | null }> => ({ item: await claimNextItem(db(), campaignId, caller) }),
  { userCheck: "deferred" },
);

export async function POST(req: Request, { params }: { params: Promise<{ campaignId: string }> }) {
  // No body needed; but the same-origin check, and JSON if a body is sent.
  const r = await readJsonRequest(req, { bodyOptional: true });
  if ("refused" in r) return r.refused;
  return toResponse(await next(await params));
}
