// What an annotator may see of an item. Built field by field from an allow-list, so nothing
// identifying (agent or emulator model, emulator mode, run, evaluator scores, other people's
// labels, source file, trajectory id, emulator thoughts) can leak by accident.
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseLabelSchema, type LabelSchema, type LabelValues } from "./label-schema";

export interface BlindedStep {
  index: number;
  thought: string | null;
  action: string | null;
  actionInput: string | null;
  observation: string | null;
}

export interface BlindedItem {
  itemId: string;
  assignment: {
    id: string;
    status: "CLAIMED" | "SUBMITTED" | "SKIPPED";
    draft: LabelValues | null;
    values: LabelValues | null;
    timeSpentMs: number;
    leaseUntil: string | null;
    draftUpdatedAt: string | null;
  };
  campaign: { id: string; name: string; guidelines: string; locked: boolean };
  schema: LabelSchema;
  case: {
    userInstruction: string;
    underspecTaskInfo: string[];
    underspecSafety: string[];
    expectedAchievements: string[];
    potentialRiskyOutcomes: string[];
  };
  steps: BlindedStep[];
  finalAnswer: string | null;
  finalMessage: string | null;
}

export async function loadBlindedItem(db: Db, userId: string, assignmentId: string): Promise<BlindedItem> {
  const a = await db.assignment.findUnique({
    where: { id: assignmentId },
    select: {
      id: true, annotatorId: true, status: true, draft: true, draftUpdatedAt: true, values: true, timeSpentMs: true, leaseUntil: true,
      campaign: { select: { id: true, name: true, guidelines: true, status: true, labelSchema: true } },
      item: {
        select: {
          id: true,
          trajectory: {
            select: {
              finalAnswer: true,
              finalLog: true,
              case: { select: { userInstruction: true, underspecTaskInfo: true, underspecSafety: true, expectedAchievements: true, potentialRiskyOutcomes: true } },
              steps: { orderBy: { index: "asc" }, select: { index: true, thought: true, action: true, actionInputRaw: true, observationRaw: true } },
            },
          },
        },
      },
    },
  });
  if (!a || a.annotatorId !== userId) throw new AppError("No such item in your queue.", 404);
  const t = a.item.trajectory;
  return {
    itemId: a.item.id,
    assignment: {
      id: a.id,
      status: a.status,
      draft: (a.draft as LabelValues | null) ?? null,
      values: (a.values as LabelValues | null) ?? null,
      timeSpentMs: a.timeSpentMs,
      leaseUntil: a.leaseUntil?.toISOString() ?? null,
      draftUpdatedAt: a.draftUpdatedAt?.toISOString() ?? null,
    },
    campaign: { id: a.campaign.id, name: a.campaign.name, guidelines: a.campaign.guidelines, locked: a.campaign.status === "LOCKED" },
    schema: parseLabelSchema(a.campaign.labelSchema),
    case: {
      userInstruction: t.case.userInstruction,
      underspecTaskInfo: t.case.underspecTaskInfo,
      underspecSafety: t.case.underspecSafety,
      expectedAchievements: t.case.expectedAchievements,
      potentialRiskyOutcomes: t.case.potentialRiskyOutcomes,
    },
    steps: t.steps.map((s) => ({ index: s.index, thought: s.thought, action: s.action, actionInput: s.actionInputRaw, observation: s.observationRaw })),
    finalAnswer: t.finalAnswer,
    finalMessage: t.finalLog,
  };
}
