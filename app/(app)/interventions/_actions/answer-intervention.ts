"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { appQueue } from "@/lib/jobs/boss";
import { answerIntervention } from "@/lib/runs/interventions/answer";
import { answerInterventionInputSchema } from "@/lib/runs/interventions/schemas";

/** Approve, reject, or reject with feedback: the answer is stored and the paused episode resumes. */
export const answerInterventionAction = withPermission("intervention:answer", answerInterventionInputSchema, async ({ id, decision, feedback }, { user }) =>
  answerIntervention(db(), user.id, id, { decision, feedback }, { queue: appQueue() }),
);
