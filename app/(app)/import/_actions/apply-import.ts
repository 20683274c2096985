"use server";

import { revalidatePath } from "next/cache";
import { recordAudit } from "@/lib/audit/record";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { runImport } from "@/lib/toolemu/import";
import { applyImportSchema } from "@/lib/toolemu/import-schemas";
import { clearProgress, setProgress } from "@/lib/toolemu/progress-store";
import { removeUpload, uploadFiles } from "@/lib/toolemu/uploads";

export const applyImportAction = withPermission("data:import", applyImportSchema, async ({ uploadId, overrides, acceptChanges }, { user, caller }) => {
  // The session the guard has just checked: the progress endpoint shows the numbers to it alone.
  const owner = caller.session;
  try {
    const result = await runImport(db(), uploadFiles(uploadId), {
      overrides,
      acceptChanges,
      onProgress: (p) => setProgress(uploadId, p, owner),
    });
    if (result.written) {
      await recordAudit(db(), { actorId: user.id, action: "data.import", entityType: "Import", entityId: uploadId, after: { files: result.report.files.length, written: result.written } });
      removeUpload(uploadId);
      revalidatePath("/", "layout");
    }
    return result;
  } finally {
    clearProgress(uploadId);
  }
});
