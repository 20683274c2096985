import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { skipItem } from "@/lib/annotation/assignments";
import { skipItemSchema } from "@/lib/annotation/schemas";

export const dynamic = "force-dynamic";

// Body: { reason } → { skipped: true }.
const skip = withPermission("annotation:label", skipItemSchema, async ({ assignmentId, reason }, { user }) => skipItem(db(), user.id, assignmentId, reason));

export async function POST(req: Request, { params }: { params: Promise<{ assignmentId: string }> }) {
  // The id comes from the path; whatever else the body holds, the schema checks.
  const body = (await req.json().catch(() => null)) as object | null;
  return toResponse(await skip({ ...body, ...(await params) } as Parameters<typeof skip>[0]));
}
