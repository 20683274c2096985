// Inputs of the import page's SAGE actions.
import { z } from "zod";

export const previewSageImportSchema = z.object({ uploadId: z.uuid() });
export const applySageImportSchema = previewSageImportSchema.extend({ acceptChanges: z.boolean().default(false) });
