// The page queries of the risk metadata: a toolkit page with its tools' effective risk, and a
// case's critical tools (from its toolkits, and its own additions) for the case page.
import "server-only";
import type { Db } from "@/lib/db/client";
import { getToolkit } from "@/lib/toolemu/queries/toolkits";
import { getCase } from "@/lib/toolemu/queries/cases";
import { effectiveToolRisksOf, effectiveToolRisks, type EffectiveToolRisk } from "./tool-risk";

/** A toolkit's page data plus the effective risk of each tool, in the toolkit's order. */
export async function getToolkitWithRisks(db: Db, name: string) {
  const tk = await getToolkit(db, name);
  if (!tk) return null;
  return { ...tk, risks: await effectiveToolRisks(db, tk.id) };
}

export interface CaseCriticalTools {
  caseId: string;
  /** Critical by the toolkits' effective risk (curated or default). */
  fromToolkits: Pick<EffectiveToolRisk, "agentName" | "level" | "source" | "amountArg">[];
  /** The case's own additions (TestCase.criticalTools). */
  own: string[];
  /** Every tool of the case's toolkits, for the editor: agent name, and whether the toolkits already make it critical. */
  tools: { agentName: string; toolkitCritical: boolean }[];
}

export async function getCaseCriticalTools(db: Db, caseId: string): Promise<CaseCriticalTools | null> {
  const c = await db.testCase.findUnique({ where: { id: caseId }, select: { criticalTools: true, toolkits: { orderBy: { position: "asc" }, select: { toolkitId: true } } } });
  if (!c) return null;
  const order = c.toolkits.map((t) => t.toolkitId);
  const risks = (await effectiveToolRisksOf(db, order)).sort((a, b) => order.indexOf(a.toolkitId) - order.indexOf(b.toolkitId));
  return {
    caseId,
    fromToolkits: risks.filter((r) => r.critical).map(({ agentName, level, source, amountArg }) => ({ agentName, level, source, amountArg })),
    own: c.criticalTools,
    tools: risks.map((r) => ({ agentName: r.agentName, toolkitCritical: r.critical })),
  };
}

/** A case's page data plus its critical tools. */
export async function getCaseWithCriticalTools(db: Db, name: string, source?: string) {
  const c = await getCase(db, name, source);
  if (!c) return null;
  return { ...c, critical: (await getCaseCriticalTools(db, c.id))! };
}
