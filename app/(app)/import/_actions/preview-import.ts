"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { runImport } from "@/lib/toolemu/import";
import { previewImportSchema } from "@/lib/toolemu/import-schemas";
import { clearProgress, setProgress } from "@/lib/toolemu/progress-store";
import { uploadFiles } from "@/lib/toolemu/uploads";

export const previewImportAction = withPermission("data:import", previewImportSchema, async ({ uploadId, overrides }) => {
  try {
    const { report, changes } = await runImport(db(), uploadFiles(uploadId), {
      dryRun: true,
      overrides,
      onProgress: (p) => setProgress(uploadId, p),
    });
    return { report, changes };
  } finally {
    clearProgress(uploadId);
  }
});
