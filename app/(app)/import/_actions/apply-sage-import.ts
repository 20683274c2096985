"use server";

import { revalidatePath } from "next/cache";
import { recordAudit } from "@/lib/audit/record";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { runSageImport } from "@/lib/sage/import";
import { applySageImportSchema } from "@/lib/sage/import-schemas";
import { removeUpload, uploadFiles } from "@/lib/toolemu/uploads";

export const applySageImportAction = withPermission("data:import", applySageImportSchema, async ({ uploadId, acceptChanges }, { user }) => {
  const result = await runSageImport(db(), uploadFiles(uploadId), { acceptChanges });
  if (result.written) {
    await recordAudit(db(), { actorId: user.id, action: "data.import_sage", entityType: "Import", entityId: uploadId, after: { files: result.report.files.length, written: result.written } });
    removeUpload(uploadId);
    revalidatePath("/", "layout");
  }
  return result;
});
