import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
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
  return toResponse(await upload(req));
}
