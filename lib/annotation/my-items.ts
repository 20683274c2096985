// An annotator's own finished items in a campaign (issue 18 item 3): listed with a hint of their
// content (the instruction's first words and the toolkits, or a SAGE scenario's task) so one can
// find an item again, and walked back and forth ("previous item") to revise a label. A revision
// goes through submitLabel (assignments.ts), which audits it as "label.revise". The hint shows
// only what the blinded item itself shows: never a model, a mode, a run or a score.
import type { Db } from "@/lib/db/client";

export interface FinishedItem {
  assignmentId: string;
  itemId: string;
  /** 1 = the first item this annotator finished in the campaign. */
  position: number;
  submittedAt: string | null;
  hint: string;
}

const HINT_WORDS = 9;

/** "Send the report to Anna and … · Gmail, Dropbox": the first words of the text, then the toolkits. */
export function itemHint(text: string | null, toolkits: readonly string[] = []): string {
  const words = (text ?? "").trim().split(/\s+/).filter(Boolean);
  const head = words.length ? words.slice(0, HINT_WORDS).join(" ") + (words.length > HINT_WORDS ? " …" : "") : "";
  const tail = toolkits.join(", ");
  return [head, tail].filter(Boolean).join(" · ") || "(no instruction)";
}

/** The user's submitted items in `campaignId`, in the order they were first submitted. */
export async function listMyFinishedItems(db: Db, userId: string, campaignId: string): Promise<FinishedItem[]> {
  const rows = await db.$queryRaw<{ assignmentId: string; itemId: string; submittedAt: Date | null; instruction: string | null; task: string | null; toolkits: string[] | null }[]>`
    SELECT a.id AS "assignmentId", a."itemId", a."submittedAt",
           tc."userInstruction" AS instruction, sc."taskContext" AS task,
           (SELECT array_agg(tk."nameForHuman" ORDER BY x.position) FROM "TestCaseToolkit" x JOIN "Toolkit" tk ON tk.id = x."toolkitId" WHERE x."caseId" = tc.id) AS toolkits
    FROM "Assignment" a
    JOIN "CampaignItem" ci ON ci.id = a."itemId"
    LEFT JOIN "Trajectory" t ON t.id = ci."trajectoryId"
    LEFT JOIN "TestCase" tc ON tc.id = t."caseId"
    LEFT JOIN "SageScenario" sc ON sc.id = t."scenarioId"
    WHERE a."campaignId" = ${campaignId} AND a."annotatorId" = ${userId} AND a.status = 'SUBMITTED'
    ORDER BY a."submittedAt" ASC NULLS LAST, a.id`;
  return rows.map((r, i) => ({
    assignmentId: r.assignmentId,
    itemId: r.itemId,
    position: i + 1,
    submittedAt: r.submittedAt?.toISOString() ?? null,
    hint: itemHint(r.instruction ?? r.task, r.toolkits ?? []),
  }));
}

/**
 * Where "previous" and "next" lead from the item on screen: from the item being worked on
 * (not in the list), previous is the last finished one; from a finished one, its neighbours, and
 * next is null after the last (back to the item being worked on).
 */
export function neighbours(finished: readonly FinishedItem[], assignmentId: string): { previous: FinishedItem | null; next: FinishedItem | null } {
  const at = finished.findIndex((f) => f.assignmentId === assignmentId);
  if (at < 0) return { previous: finished[finished.length - 1] ?? null, next: null };
  return { previous: finished[at - 1] ?? null, next: finished[at + 1] ?? null };
}

export type SubmitResult = "submitted" | "revised" | "unchanged";

/** What the screen confirms after a submit: the result and the item's hint; null unless it is the user's own submitted item. */
export async function submitNotice(db: Db, userId: string, campaignId: string, assignmentId: string, result: string): Promise<{ result: SubmitResult; hint: string; position: number } | null> {
  if (result !== "submitted" && result !== "revised" && result !== "unchanged") return null;
  const item = (await listMyFinishedItems(db, userId, campaignId)).find((f) => f.assignmentId === assignmentId);
  return item ? { result, hint: item.hint, position: item.position } : null;
}

/** Campaigns where the user holds a claim (an item being worked on), whatever its lease. */
export async function campaignsWithMyClaim(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db.assignment.findMany({ where: { annotatorId: userId, status: "CLAIMED" }, select: { campaignId: true }, distinct: ["campaignId"] });
  return new Set(rows.map((r) => r.campaignId));
}

export type MyCampaignState = "locked" | "done" | "continue" | "start";

/**
 * What the campaign's card offers: locked; done (nothing left to claim and nothing being worked
 * on — a finished campaign says "Done", not "Continue"); continue; or start.
 */
export function myCampaignState(c: { locked: boolean; available: number; submitted: number; skipped: number }, hasClaim: boolean): MyCampaignState {
  if (c.locked) return "locked";
  if (c.available === 0 && !hasClaim) return "done";
  return c.submitted + c.skipped > 0 || hasClaim ? "continue" : "start";
}
