// What the critic needs to know about a test case besides the trajectory (issue 13 items 1 and 3):
//   - instruction: the user's real task t*;
//   - criticalTools: the effective critical tools of the case's toolkits (curated, else the
//     default rule) plus the tools the case adds itself (TestCase.criticalTools);
//   - amountArgs: agent tool name → the argument holding an amount, for tools that have one;
//   - styleExamples: up to 3 instructions of OTHER cases sharing a toolkit with this one, for the
//     style of the inferred tasks. Never this case's instruction (nor a copy of it). Order: cases
//     sharing more toolkits first, then by case name, then source — the same every time.
import "server-only";
import type { Db } from "@/lib/db/client";
import { effectiveToolRisksOf } from "./tool-risk";

export interface CriticCaseContext {
  instruction: string;
  criticalTools: Set<string>;
  amountArgs: Map<string, string>;
  /** ≤ 3 instructions of OTHER cases sharing a toolkit, deterministic. */
  styleExamples: string[];
}

export const STYLE_EXAMPLES = 3;

export async function criticContextForCase(db: Db, caseId: string): Promise<CriticCaseContext> {
  const out = (await criticContextForCases(db, [caseId])).get(caseId);
  if (!out) throw new Error(`No test case ${caseId}.`);
  return out;
}

/** Contexts of many cases in four queries, whatever their number. Unknown ids are left out of the map. */
export async function criticContextForCases(db: Db, caseIds: string[]): Promise<Map<string, CriticCaseContext>> {
  const ids = [...new Set(caseIds)];
  const result = new Map<string, CriticCaseContext>();
  if (!ids.length) return result;
  const cases = await db.testCase.findMany({
    where: { id: { in: ids } },
    select: { id: true, userInstruction: true, criticalTools: true, toolkits: { select: { toolkitId: true } } },
  });
  const toolkitIds = [...new Set(cases.flatMap((c) => c.toolkits.map((t) => t.toolkitId)))];
  const [risks, links] = await Promise.all([
    effectiveToolRisksOf(db, toolkitIds),
    toolkitIds.length
      ? db.testCaseToolkit.findMany({
          where: { toolkitId: { in: toolkitIds } },
          select: { toolkitId: true, case: { select: { id: true, name: true, source: true, userInstruction: true } } },
        })
      : Promise.resolve([]),
  ]);
  const risksByToolkit = new Map<string, typeof risks>();
  for (const r of risks) risksByToolkit.set(r.toolkitId, [...(risksByToolkit.get(r.toolkitId) ?? []), r]);
  const casesByToolkit = new Map<string, (typeof links)[number]["case"][]>();
  for (const l of links) casesByToolkit.set(l.toolkitId, [...(casesByToolkit.get(l.toolkitId) ?? []), l.case]);

  for (const c of cases) {
    const tkIds = c.toolkits.map((t) => t.toolkitId);
    const tools = tkIds.flatMap((id) => risksByToolkit.get(id) ?? []);
    const criticalTools = new Set([...tools.filter((t) => t.critical).map((t) => t.agentName), ...c.criticalTools]);
    const amountArgs = new Map<string, string>();
    for (const t of tools) if (t.amountArg) amountArgs.set(t.agentName, t.amountArg);

    // Other cases sharing a toolkit, counted by how many they share.
    const shared = new Map<string, { name: string; source: string; instruction: string; count: number }>();
    for (const id of tkIds) {
      for (const other of casesByToolkit.get(id) ?? []) {
        if (other.id === c.id) continue;
        const seen = shared.get(other.id);
        if (seen) seen.count += 1;
        else shared.set(other.id, { name: other.name, source: other.source, instruction: other.userInstruction, count: 1 });
      }
    }
    const own = c.userInstruction.trim();
    const styleExamples: string[] = [];
    const ordered = [...shared.values()].sort((a, b) => b.count - a.count || cmp(a.name, b.name) || cmp(a.source, b.source));
    for (const o of ordered) {
      const text = o.instruction.trim();
      if (styleExamples.length >= STYLE_EXAMPLES) break;
      if (!text || text === own || styleExamples.includes(text)) continue;
      styleExamples.push(text);
    }
    result.set(c.id, { instruction: c.userInstruction, criticalTools, amountArgs, styleExamples });
  }
  return result;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
