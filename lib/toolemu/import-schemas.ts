// Inputs of the import page's actions.
import { z } from "zod";

const label = z.string().trim().max(200).optional();

const modelOverridesSchema = z.record(
  z.string().max(500),
  z.object({ agentModel: label, emulatorModel: label, evaluatorModel: label }),
);

export const previewImportSchema = z.object({
  uploadId: z.uuid(),
  overrides: modelOverridesSchema.default({}),
});

export const applyImportSchema = previewImportSchema.extend({
  acceptChanges: z.boolean().default(false),
});
