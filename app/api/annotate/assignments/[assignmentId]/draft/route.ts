import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { readJsonRequest } from "@/app/api/annotate/_lib/request";
import { saveDraft } from "@/lib/annotation/assignments";
import { saveDraftSchema } from "@/lib/annotation/schemas";

export const dynamic = "force-dynamic";

// Body: { draft, timeSpentMs } → { savedAt }.
const draft = withPermission(
  "annotation:label",
  saveDraftSchema,
  async ({ assignmentId, draft, timeSpentMs }, { caller }) => saveDraft(db(), caller, assignmentId, draft, timeSpentMs),
  { userCheck: "deferred" },
);

export async function POST(req: Request, { params }: { params: Promise<{ assignmentId: string }> }) {
  // The id comes from the path; whatever else the body holds, the schema checks.
  const r = await readJsonRequest(req);
  if ("refused" in r) return r.refused;
  const body = r.body;
  return toResponse(await draft({ ...body, ...(await params) } as Parameters<typeof draft>[0]));
}
