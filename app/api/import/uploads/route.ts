import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { saveUpload } from "@/lib/toolemu/uploads";

export const dynamic = "force-dynamic";

// Files arrive as multipart form data (field "files", with their relative paths as names);
// a plain route rather than a server action so the browser can report upload progress.
const upload = withPermission("data:import", z.instanceof(FormData, { message: "Send the files as multipart form data." }), async (form) => {
  const files = form.getAll("files").filter((f): f is File => typeof f === "object" && "arrayBuffer" in f);
  return { uploadId: await saveUpload(files) };
});

export async function POST(req: Request) {
  const form = await req.formData().catch(() => null);
  return toResponse(await upload(form as FormData));
}
