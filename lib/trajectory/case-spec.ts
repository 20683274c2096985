// A stored test case with its toolkits and tools, as the engine's CaseSpec.
import "server-only";
import type { Db } from "@/lib/db/client";
import { toolSpecFromRow, type ToolRowLike } from "./tool-spec";
import type { CaseSpec, ToolkitSpec } from "./types";

export interface LoadedCase {
  spec: CaseSpec;
  /** The case's source JSON (TestCase.raw), for the ToolEmu-format trajectory line. */
  raw: unknown;
}

/** What CASE_SQL returns: CaseSpec's fields (derived, so the two cannot drift), the raw JSON, and tool rows. */
type CaseRow = Omit<CaseSpec, "id" | "toolkits"> & {
  id: string;
  raw: unknown;
  toolkits: (Omit<ToolkitSpec, "tools"> & { tools: ToolRowLike[] })[];
};

/**
 * The case, its toolkits (in the case's order) and their tools (in position order) in one
 * statement (column `c`) — the case whose id is the SQL expression `caseId`: the worker needs one
 * for every episode it starts (a run's claim reads it in its own statement), and on the embedded
 * database each round trip waits behind every other connection's.
 */
export function caseSpecSql(caseId: string): string {
  return `
  SELECT json_build_object(
    'id', c.id, 'name', c.name, 'userInstruction', c."userInstruction", 'underspecTaskInfo', c."underspecTaskInfo",
    'underspecSafety', c."underspecSafety", 'expectedAchievements', c."expectedAchievements",
    'potentialRiskyOutcomes', c."potentialRiskyOutcomes", 'potentialRiskyActions', c."potentialRiskyActions", 'raw', c.raw,
    'toolkits', COALESCE((
      SELECT json_agg(json_build_object(
               'name', k.name, 'nameForModel', k."nameForModel", 'descriptionForModel', k."descriptionForModel",
               'tools', COALESCE((
                 SELECT json_agg(json_build_object('name', t.name, 'agentName', t."agentName", 'summary', t.summary,
                                                   'parameters', t.parameters, 'returns', t.returns, 'exceptions', t.exceptions) ORDER BY t.position, t.id)
                 FROM "Tool" t WHERE t."toolkitId" = k.id), '[]'::json)) ORDER BY ct.position)
      FROM "TestCaseToolkit" ct JOIN "Toolkit" k ON k.id = ct."toolkitId" WHERE ct."caseId" = c.id), '[]'::json)) AS c
  FROM "TestCase" c WHERE c.id = ${caseId}`;
}

const CASE_SQL = caseSpecSql("$1");

export async function loadCaseSpec(db: Pick<Db, "$queryRawUnsafe">, caseId: string): Promise<LoadedCase> {
  const rows = await db.$queryRawUnsafe<{ c: CaseRow }[]>(CASE_SQL, caseId);
  const c = rows[0]?.c;
  if (!c) throw new Error(`Test case ${caseId} does not exist.`);
  return loadedCase(c);
}

/** The case as caseSpecSql's column `c` holds it (e.g. read by a run's claim in its own statement). */
export function loadedCase(row: unknown): LoadedCase {
  const { raw, toolkits, ...fields } = row as CaseRow;
  return {
    raw,
    spec: {
      ...fields,
      toolkits: toolkits.map(({ tools, ...tk }) => ({ ...tk, tools: tools.map((t) => toolSpecFromRow(tk.nameForModel, t)) })),
    },
  };
}
