// Inputs of the annotation use cases, in one place (server actions, CLI, tests).
import { z } from "zod";
import { LABEL_FORM_IDS } from "@/lib/trajectory/label-schema";
import { parseLabelForm } from "@/lib/trajectory/label-form";
import { qualitySettingsSchema } from "./quality/settings";

const trajectoryFilterParams = z.record(z.string(), z.string().max(500)).default({});

export const selectionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("filter"), filter: trajectoryFilterParams, limit: z.number().int().min(1).max(100_000).optional() }),
  z.object({
    kind: z.literal("sample"),
    filter: trajectoryFilterParams,
    n: z.number().int().min(1).max(100_000),
    seed: z.number().int().min(0).max(2 ** 31 - 1),
    stratify: z.boolean().default(false),
  }),
  z.object({ kind: z.literal("ids"), trajectoryIds: z.array(z.string().min(1)).min(1).max(100_000) }),
  /** SAGE scenarios themselves (not episodes): all, or a seeded sample, of some subcategories (keys; none = all). */
  z.object({
    kind: z.literal("scenarios"),
    subcategories: z.array(z.string().min(1).max(200)).max(100).default([]),
    n: z.number().int().min(1).max(100_000).optional(),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
    /** Stratify the sample by subcategory. */
    stratify: z.boolean().default(true),
  }),
  /** SAGE episodes (trajectories of a scenario): all, or a seeded sample, optionally of one run. */
  z.object({
    kind: z.literal("sage-episodes"),
    runId: z.string().min(1).optional(),
    n: z.number().int().min(1).max(100_000).optional(),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  }),
]);
export type Selection = z.infer<typeof selectionSchema>;

export const createCampaignSchema = z
  .object({
    name: z.string().trim().min(1, { message: "Give the campaign a name." }).max(200),
    guidelines: z.string().max(50_000).default(""),
    k: z.number().int().min(1, { message: "k must be at least 1." }).max(20).default(3),
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
    pseudonymize: z.boolean().default(false),
    /** Let trajectories played or emulated by the offline heuristic model in (left out by default: they un-blind items). */
    includeOffline: z.boolean().default(false),
    /** Replace names of known models/endpoints by a neutral token in what annotators read. */
    redactModelNames: z.boolean().default(false),
    annotatorIds: z.array(z.string().min(1)).min(1, { message: "Invite at least one annotator." }),
    /** Which built-in label form the campaign uses (lib/trajectory/label-schema.ts LABEL_FORMS). */
    labelForm: z.enum([...LABEL_FORM_IDS, "custom"], { message: `labelForm: expected one of ${LABEL_FORM_IDS.join(", ")}, custom` }).default("toolemu"),
    /** labelForm "custom": the form as data (lib/trajectory/label-form.ts checks it, with located errors). */
    customForm: z.unknown().optional(),
    /** Gold items, qualification round, blind adjudication (quality/settings.ts); none by default. */
    quality: qualitySettingsSchema.optional(),
    selection: selectionSchema,
  })
  .refine((c) => new Set(c.annotatorIds).size >= c.k, {
    message: "Invite at least k different annotators: each trajectory needs k different people.",
    path: ["annotatorIds"],
  })
  .superRefine((c, ctx) => {
    if (c.labelForm !== "custom") return;
    if (c.customForm === undefined) return void ctx.addIssue({ code: "custom", path: ["customForm"], message: "Define the custom form (or pick a built-in one)." });
    const parsed = parseLabelForm(c.customForm);
    // Located: the editor shows each message beside the field it names.
    if (!parsed.ok) for (const i of parsed.issues) ctx.addIssue({ code: "custom", path: ["customForm", ...(i.path ? [i.path] : [])], message: `${i.path || "form"}: ${i.message}` });
  });
export type CreateCampaignInput = z.input<typeof createCampaignSchema>;

export const campaignIdSchema = z.object({ campaignId: z.string().min(1) });

export const saveDraftSchema = z.object({
  assignmentId: z.string().min(1),
  draft: z.record(z.string(), z.union([z.string().max(10_000), z.boolean(), z.null()])),
  /** Total time spent on this item so far, as the browser measured it. */
  timeSpentMs: z.number().int().min(0).max(7 * 24 * 3600_000),
});

export const submitLabelSchema = z.object({
  assignmentId: z.string().min(1),
  values: z.record(z.string(), z.union([z.string().max(10_000), z.boolean(), z.null()])),
  timeSpentMs: z.number().int().min(0).max(7 * 24 * 3600_000),
});

export const skipItemSchema = z.object({
  assignmentId: z.string().min(1),
  reason: z.string().trim().min(1, { message: "Say why you skip this item." }).max(1000),
});

export const adjudicateSchema = z.object({
  itemId: z.string().min(1),
  values: z.record(z.string(), z.union([z.string().max(10_000), z.boolean(), z.null()])),
  reason: z.string().trim().min(1, { message: "Give a reason for the adjudicated label." }).max(5000),
});

/** A new version of a campaign's label form (labels already given keep theirs). */
export const reviseFormSchema = z.object({ campaignId: z.string().min(1), form: z.unknown() }).superRefine((c, ctx) => {
  const parsed = parseLabelForm(c.form);
  if (!parsed.ok) for (const i of parsed.issues) ctx.addIssue({ code: "custom", path: ["form", ...(i.path ? [i.path] : [])], message: `${i.path || "form"}: ${i.message}` });
});

export const setLockedSchema = z.object({ campaignId: z.string().min(1), locked: z.boolean() });
