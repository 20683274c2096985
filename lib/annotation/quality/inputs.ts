// Inputs of the annotator-quality use cases (server actions, tests).
import { z } from "zod";

const id = z.string().min(1);
const labelValues = z.record(z.string(), z.union([z.string().max(10_000), z.boolean(), z.null()]));

export const addGoldFromAdjudicationSchema = z.object({ campaignId: id, sourceItemId: id });
export const addGoldByFormSchema = z.object({ campaignId: id, trajectoryId: z.string().trim().min(1, { message: "Give the trajectory's id." }), values: labelValues });
export const removeGoldSchema = z.object({ campaignId: id, itemId: id });
export const exclusionSchema = z.object({
  campaignId: id,
  annotatorId: id,
  reason: z.string().trim().min(1, { message: "Say why: it is kept with the exclusion and in the audit log." }).max(2000),
});
