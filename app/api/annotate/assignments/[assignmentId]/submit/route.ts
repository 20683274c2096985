import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { readJsonRequest } from "@/app/api/annotate/_lib/request";
import { submitLabel } from "@/lib/annotation/assignments";
import { submitLabelSchema } from "@/lib/annotation/schemas";

export const dynamic = "force-dynamic";

// Body: { values, timeSpentMs } → { status: "submitted" | "unchanged" | "revised" }. Idempotent.
const submit = withPermission(
  "annotation:label",
  submitLabelSchema,
  async ({ assignmentId, values, timeSpentMs }, { caller }) => submitLabel(db(), caller, assignmentId, values, timeSpentMs),
  { userCheck: "deferred" },
);

export async function POST(req: Request, { params }: { params: Promise<{ assignmentId: string }> }) {
  // The id comes from the path; whatever else the body holds, the schema checks.
  const r = await readJsonRequest(req);
  if ("refused" in r) return r.refused;
  const body = r.body;
  return toResponse(await submit({ ...body, ...(await params) } as Parameters<typeof submit>[0]));
}
