"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { runImport } from "@/lib/toolemu/import";
import { previewImportSchema } from "@/lib/toolemu/import-schemas";
import { clearProgress, setProgress } from "@/lib/toolemu/progress-store";
import { uploadFiles } from "@/lib/toolemu/uploads";

export const previewImportAction = withPermission("data:import", previewImportSchema, async ({ uploadId, overrides }, { caller }) => {
  // The session the guard has just checked: the progress endpoint shows the numbers to it alone.
  const owner = caller.session;
  try {
    const { report, changes } = await runImport(db(), uploadFiles(uploadId), {
      dryRun: true,
      overrides,
      onProgress: (p) => setProgress(uploadId, p, owner),
    });
    return { report, changes };
  } finally {
    clearProgress(uploadId);
  }
});
