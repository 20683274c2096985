// The inputs of the intervention queue (no server code: the screen validates with them too).
import { z } from "zod";

export const INTERVENTION_DECISIONS = ["approve", "reject"] as const;
export type InterventionDecision = (typeof INTERVENTION_DECISIONS)[number];

export const FEEDBACK_MAX = 4000;

const answerFields = z.object({
  decision: z.enum(INTERVENTION_DECISIONS, { message: 'decision must be "approve" or "reject".' }),
  feedback: z.string().trim().max(FEEDBACK_MAX, `Feedback is limited to ${FEEDBACK_MAX} characters.`).optional(),
});

/**
 * `feedback` only goes with a rejection ("reject with feedback"); when given it must say
 * something (blank feedback is refused rather than stored as a silent plain rejection).
 */
function feedbackRule(v: z.output<typeof answerFields>, ctx: z.RefinementCtx) {
  if (v.feedback === undefined) return;
  if (v.decision === "approve") {
    ctx.addIssue({ code: "custom", path: ["feedback"], message: "Feedback goes with a rejection; an approval takes none." });
  } else if (v.feedback.length === 0) {
    ctx.addIssue({ code: "custom", path: ["feedback"], message: "Feedback is empty: write what the agent should do instead, or reject without feedback." });
  }
}

export const interventionAnswerSchema = answerFields.superRefine(feedbackRule);
export type InterventionAnswer = z.input<typeof interventionAnswerSchema>;

const interventionId = z.string().min(1, "Which intervention?").max(64);

/** The screen's answer: which intervention, and the answer. */
export const answerInterventionInputSchema = answerFields.extend({ id: interventionId }).superRefine(feedbackRule);

/** Keeping one's hold on the intervention while the screen is open. */
export const interventionLeaseInputSchema = z.object({ id: interventionId });
