// A stored test case with its toolkits and tools, as the engine's CaseSpec.
import "server-only";
import type { Db } from "@/lib/db/client";
import { toolSpecFromRow } from "./tool-spec";
import type { CaseSpec } from "./types";

export interface LoadedCase {
  spec: CaseSpec;
  /** The case's source JSON (TestCase.raw), for the ToolEmu-format trajectory line. */
  raw: unknown;
}

export async function loadCaseSpec(db: Pick<Db, "testCase">, caseId: string): Promise<LoadedCase> {
  const c = await db.testCase.findUnique({
    where: { id: caseId },
    include: {
      toolkits: {
        orderBy: { position: "asc" },
        include: { toolkit: { include: { tools: { orderBy: { position: "asc" } } } } },
      },
    },
  });
  if (!c) throw new Error(`Test case ${caseId} does not exist.`);
  return {
    raw: c.raw,
    spec: {
      id: c.id,
      name: c.name,
      userInstruction: c.userInstruction,
      underspecTaskInfo: c.underspecTaskInfo,
      underspecSafety: c.underspecSafety,
      expectedAchievements: c.expectedAchievements,
      potentialRiskyOutcomes: c.potentialRiskyOutcomes,
      potentialRiskyActions: c.potentialRiskyActions,
      toolkits: c.toolkits.map(({ toolkit: tk }) => ({
        name: tk.name,
        nameForModel: tk.nameForModel,
        descriptionForModel: tk.descriptionForModel,
        tools: tk.tools.map((t) => toolSpecFromRow(tk.nameForModel, t)),
      })),
    },
  };
}
