import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { readJsonRequest } from "@/app/api/annotate/_lib/request";
import { skipItem } from "@/lib/annotation/assignments";
import { skipItemSchema } from "@/lib/annotation/schemas";

export const dynamic = "force-dynamic";

// Body: { reason } → { skipped: true }.
const skip = withPermission("annotation:label", skipItemSchema, async ({ assignmentId, reason }, { caller }) => skipItem(db(), caller, assignmentId, reason), { userCheck: "deferred" });

export async function POST(req: Request, { params }: { params: Promise<{ assignmentId: string }> }) {
  // The id comes from the path; whatever else the body holds, the schema checks.
  const r = await readJsonRequest(req);
  if ("refused" in r) return r.refused;
  const body = r.body;
  return toResponse(await skip({ ...body, ...(await params) } as Parameters<typeof skip>[0]));
}
