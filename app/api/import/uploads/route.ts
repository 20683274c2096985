import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { crossOriginRefusal } from "@/lib/auth/request-checks";
import { withPermission } from "@/lib/auth/server";
import { receiveUpload } from "@/lib/toolemu/uploads";

export const dynamic = "force-dynamic";

// Files arrive as multipart form data (field "files", with their relative paths as names);
// a plain route rather than a server action so the browser can report upload progress.
// The guard checks the session and the permission before a byte of the body is read; then the
// body streams to disk under the size cap (lib/toolemu/uploads.ts).
const upload = withPermission("data:import", z.instanceof(Request), async (req, { user }) => ({
  uploadId: await receiveUpload(req, user.id),
}));

export async function POST(req: Request) {
  // A multipart POST is a "simple" request any page may send with our cookies: same origin only.
  const refusal = crossOriginRefusal(req);
  if (refusal) return Response.json({ error: refusal.error }, { status: refusal.status });
  return toResponse(await upload(req));
}
