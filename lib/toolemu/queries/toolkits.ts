// The toolkit list and one toolkit's page.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Provenance } from "@/lib/db/generated/client";
import { toolExceptions, toolParameters, toolReturns } from "../tool-lists";

export interface ToolkitListRow {
  name: string;
  nameForHuman: string;
  descriptionForHuman: string;
  category: string | null;
  toolCount: number;
  caseCount: number;
  provenance: Provenance;
  currentVersion: number;
}

/** All toolkits (there are tens), optionally searched by name, description, category and tool names. */
export async function listToolkits(db: Db, opts: { q?: string; provenance?: Provenance | null } = {}): Promise<ToolkitListRow[]> {
  const q = opts.q?.trim();
  const contains = (field: string) => ({ [field]: { contains: q, mode: "insensitive" as const } });
  const rows = await db.toolkit.findMany({
    where: {
      ...(opts.provenance ? { provenance: opts.provenance } : {}),
      ...(q
      ? {
          OR: [
            contains("name"),
            contains("nameForHuman"),
            contains("nameForModel"),
            contains("descriptionForHuman"),
            contains("descriptionForModel"),
            contains("category"),
            { tools: { some: { OR: [{ agentName: { contains: q, mode: "insensitive" } }, { name: { contains: q, mode: "insensitive" } }] } } },
          ],
        }
      : {}),
    },
    orderBy: { name: "asc" },
    select: { name: true, nameForHuman: true, descriptionForHuman: true, category: true, provenance: true, currentVersion: true, _count: { select: { tools: true, cases: true } } },
  });
  return rows.map(({ _count, ...r }) => ({ ...r, toolCount: _count.tools, caseCount: _count.cases }));
}

export async function listToolkitNames(db: Db): Promise<string[]> {
  const rows = await db.toolkit.findMany({ orderBy: { name: "asc" }, select: { name: true } });
  return rows.map((r) => r.name);
}

const CASES_ON_TOOLKIT_PAGE = 200;

export async function getToolkit(db: Db, name: string) {
  const tk = await db.toolkit.findUnique({
    where: { name },
    select: {
      id: true,
      name: true,
      nameForModel: true,
      nameForHuman: true,
      descriptionForModel: true,
      descriptionForHuman: true,
      category: true,
      source: true,
      tools: { orderBy: { position: "asc" }, select: { id: true, name: true, agentName: true, summary: true, parameters: true, returns: true, exceptions: true } },
      _count: { select: { cases: true } },
    },
  });
  if (!tk) return null;
  const links = await db.testCaseToolkit.findMany({
    where: { toolkitId: tk.id },
    select: { case: { select: { id: true, name: true, source: true, userInstruction: true, _count: { select: { trajectories: true } } } } },
  });
  const cases = links
    .map((l) => ({ id: l.case.id, name: l.case.name, source: l.case.source, userInstruction: l.case.userInstruction, trajectoryCount: l.case._count.trajectories }))
    .sort((a, b) => naturalCompare(a.name, b.name))
    .slice(0, CASES_ON_TOOLKIT_PAGE);
  const { _count, tools, ...rest } = tk;
  return {
    ...rest,
    caseCount: _count.cases,
    cases,
    tools: tools.map((t) => ({ ...t, parameters: toolParameters(t.parameters), returns: toolReturns(t.returns), exceptions: toolExceptions(t.exceptions) })),
  };
}

export type ToolkitDetail = NonNullable<Awaited<ReturnType<typeof getToolkit>>>;

/** official_2 < official_10, as in the database's case order. */
function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true, sensitivity: "base" }) || (a < b ? -1 : a > b ? 1 : 0);
}

export async function loadToolkitsPage(db: Db, opts: { q?: string; provenance?: Provenance | null }) {
  const [toolkits, totalInDb] = await Promise.all([listToolkits(db, opts), db.toolkit.count()]);
  return { toolkits, totalInDb };
}
