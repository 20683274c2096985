"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { runSageImport } from "@/lib/sage/import";
import { previewSageImportSchema } from "@/lib/sage/import-schemas";
import { uploadFiles } from "@/lib/toolemu/uploads";

export const previewSageImportAction = withPermission("data:import", previewSageImportSchema, async ({ uploadId }) => {
  const { report, changes } = await runSageImport(db(), uploadFiles(uploadId), { dryRun: true });
  return { report, changes };
});
