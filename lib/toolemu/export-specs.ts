// Exports of the toolkit specifications and test cases in ToolEmu's own files (all_toolkits.json,
// all_cases.json): each record's stored source JSON (`raw`), plus our metadata under the one extra
// key ToolEmu ignores (./studio-extension.ts): a curated tool's risk, a case's own critical tools.
// Importing such a file gives back the same toolkits and cases and the same metadata.
import "server-only";
import type { Db } from "@/lib/db/client";
import { TOOLEMU_SOURCE } from "./normalize";
import { withCaseExtension, withToolkitExtension, type ToolRiskExtension } from "./studio-extension";

export const TOOLKITS_FILE_NAME = "all_toolkits.json";
export const CASES_FILE_NAME = "all_cases.json";

/** "official_9" before "official_10". */
const natural = new Intl.Collator("en", { numeric: true }).compare;

/** Every toolkit, by name, as ToolEmu's all_toolkits.json array. */
export async function exportToolkits(db: Db): Promise<unknown[]> {
  const rows = await db.toolkit.findMany({
    select: {
      name: true,
      raw: true,
      tools: { where: { riskLevel: { not: null } }, select: { name: true, riskLevel: true, critical: true, amountArg: true, riskCuratedAt: true, riskCuratedBy: { select: { name: true } } } },
    },
  });
  rows.sort((a, b) => natural(a.name, b.name));
  return rows.map((tk) => {
    const byName = new Map<string, ToolRiskExtension>(
      tk.tools.map((t) => [
        t.name,
        {
          risk_level: t.riskLevel!.toLowerCase() as ToolRiskExtension["risk_level"],
          critical: t.critical ?? false,
          amount_arg: t.amountArg,
          ...(t.riskCuratedBy ? { curated_by: t.riskCuratedBy.name } : {}),
          ...(t.riskCuratedAt ? { curated_at: t.riskCuratedAt.toISOString() } : {}),
        },
      ]),
    );
    return withToolkitExtension(tk.raw, byName);
  });
}

/** Every test case imported from ToolEmu's files, in name order (official_0, official_1, …), as all_cases.json. */
export async function exportCases(db: Db): Promise<unknown[]> {
  const rows = await db.testCase.findMany({ where: { source: TOOLEMU_SOURCE }, select: { name: true, raw: true, criticalTools: true } });
  rows.sort((a, b) => natural(a.name, b.name));
  return rows.map((c) => withCaseExtension(c.raw, c.criticalTools.length ? { critical_tools: c.criticalTools } : null));
}

/** Pretty-printed as ToolEmu's files are (4-space indent). */
export const specsJson = (records: unknown[]) => `${JSON.stringify(records, null, 4)}\n`;
