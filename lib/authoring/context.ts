// What the generators are shown, loaded from the database: stored toolkits as ToolEmu JSON, risks
// from the cases that use them, example cases, and every toolkit's name (a generated case may
// only name stored toolkits; a generated toolkit must not take an existing name).
import "server-only";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { TOOLEMU_SOURCE } from "@/lib/toolemu/normalize";
import type { CaseContext } from "./generate";
import type { GenerationInput } from "./schemas";

/** At most this many stored cases' risky outcomes per primary toolkit. */
const RISK_CASES = 20;
const DEFAULT_EXAMPLES = 2;

export async function loadToolkitNames(db: Db): Promise<string[]> {
  return (await db.toolkit.findMany({ select: { name: true }, orderBy: { name: "asc" } })).map((t) => t.name);
}

/** A stored case in ToolEmu's format (its raw JSON when it has one). */
function caseJson(c: { name: string; raw: unknown; userInstruction: string; underspecTaskInfo: string[]; underspecSafety: string[]; expectedAchievements: string[]; potentialRiskyOutcomes: string[]; potentialRiskyActions: string[]; toolkits: { toolkit: { name: string } }[] }) {
  return {
    name: c.name,
    Toolkits: c.toolkits.map((t) => t.toolkit.name),
    "User Instruction": c.userInstruction,
    Underspecifications: { "Task Information": c.underspecTaskInfo, "Safety & Security Constraints": c.underspecSafety },
    "Expected Achievements": c.expectedAchievements,
    "Potential Risky Outcomes": c.potentialRiskyOutcomes,
    "Potential Risky Actions": c.potentialRiskyActions,
  };
}

const CASE_SELECT = {
  id: true, name: true, raw: true, userInstruction: true, underspecTaskInfo: true, underspecSafety: true, expectedAchievements: true,
  potentialRiskyOutcomes: true, potentialRiskyActions: true, toolkits: { orderBy: { position: "asc" as const }, select: { toolkit: { select: { name: true } } } },
} as const;

/** The context of a case generation or completion. Unknown toolkit names or example ids are refused by name. */
export async function loadCaseContext(db: Db, input: Exclude<GenerationInput, { kind: "TOOLKITS" }>): Promise<CaseContext> {
  const primary = input.kind === "CASES" ? input.primaryToolkits : input.toolkits;
  const wanted = input.kind === "CASES" ? [...primary, ...input.auxiliaryToolkits] : primary;
  const [rows, known, caseNames] = await Promise.all([
    db.toolkit.findMany({ where: { name: { in: wanted } }, select: { id: true, name: true, raw: true } }),
    loadToolkitNames(db),
    db.testCase.findMany({ where: { source: TOOLEMU_SOURCE }, select: { name: true } }),
  ]);
  const missing = wanted.filter((n) => !rows.some((r) => r.name === n));
  if (missing.length) throw new AppError(`No toolkit named ${missing.join(", ")} is stored.`, 422);
  const toolkits = new Map(rows.map((r) => [r.name, r.raw as unknown]));

  const caseRisks: Record<string, string[]> = {};
  for (const name of primary) {
    const id = rows.find((r) => r.name === name)!.id;
    const cases = await db.testCase.findMany({ where: { toolkits: { some: { toolkitId: id } } }, orderBy: { name: "asc" }, take: RISK_CASES, select: { potentialRiskyOutcomes: true } });
    caseRisks[name] = cases.flatMap((c) => c.potentialRiskyOutcomes);
  }

  const exampleIds = input.kind === "CASES" ? input.exampleCaseIds : [];
  let examples;
  if (exampleIds.length) {
    const found = await db.testCase.findMany({ where: { id: { in: exampleIds } }, select: CASE_SELECT });
    const gone = exampleIds.filter((id) => !found.some((c) => c.id === id));
    if (gone.length) throw new AppError(`No test case with id ${gone.join(", ")} is stored.`, 422);
    examples = exampleIds.map((id) => caseJson(found.find((c) => c.id === id)!));
  } else {
    const ids = rows.filter((r) => primary.includes(r.name)).map((r) => r.id);
    let found = await db.testCase.findMany({ where: { toolkits: { some: { toolkitId: { in: ids } } } }, orderBy: { name: "asc" }, take: DEFAULT_EXAMPLES, select: CASE_SELECT });
    if (found.length === 0) found = await db.testCase.findMany({ orderBy: { name: "asc" }, take: DEFAULT_EXAMPLES, select: CASE_SELECT });
    examples = found.map(caseJson);
  }
  return { toolkits, caseRisks, examples, known: new Set(known), caseNames: new Set(caseNames.map((c) => c.name)) };
}
