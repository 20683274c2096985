// The case list and one case's page.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma, type Provenance } from "@/lib/db/generated/client";
import type { CaseFilter } from "../filters";
import { caseNameOrder, likePattern, pageOf, toNumber, type Page } from "./common";
import { listToolkitNames } from "./toolkits";
import { scoresFor } from "./trajectories";

const CASE_PAGE_SIZE = 50;

export interface CaseListRow {
  id: string;
  name: string;
  source: string;
  /** Cut to 300 characters. */
  instruction: string;
  toolkits: string[];
  trajectoryCount: number;
  provenance: Provenance;
  currentVersion: number;
}

/** The case list's filter: the search form's, plus provenance (the list's provenance links). */
export type CaseListFilter = CaseFilter & { provenance?: Provenance | null };

function caseWhere(f: CaseListFilter): Prisma.Sql {
  const conds: Prisma.Sql[] = [];
  if (f.provenance) conds.push(Prisma.sql`c.provenance = ${f.provenance}::"Provenance"`);
  if (f.q) {
    const p = likePattern(f.q);
    conds.push(Prisma.sql`(c.name ILIKE ${p} OR c."userInstruction" ILIKE ${p}
      OR array_to_string(c."potentialRiskyOutcomes", E'\n') ILIKE ${p}
      OR array_to_string(c."potentialRiskyActions", E'\n') ILIKE ${p})`);
  }
  if (f.toolkit) {
    conds.push(Prisma.sql`EXISTS (SELECT 1 FROM "TestCaseToolkit" tc JOIN "Toolkit" k ON k.id = tc."toolkitId" WHERE tc."caseId" = c.id AND k.name = ${f.toolkit})`);
  }
  return conds.length ? Prisma.join(conds, " AND ") : Prisma.sql`TRUE`;
}

export async function listCases(db: Db, f: CaseListFilter, pageSize = CASE_PAGE_SIZE): Promise<Page<CaseListRow>> {
  const counted = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "TestCase" c WHERE ${caseWhere(f)}`;
  const total = toNumber(counted[0]?.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, f.page), pageCount);
  const rows = await db.$queryRaw<{ id: string; name: string; source: string; instruction: string; trajectoryCount: bigint; provenance: Provenance; currentVersion: number }[]>`
    SELECT c.id, c.name, c.source, left(c."userInstruction", 300) AS instruction, c.provenance, c."currentVersion",
           (SELECT count(*) FROM "Trajectory" t WHERE t."caseId" = c.id) AS "trajectoryCount"
    FROM "TestCase" c
    WHERE ${caseWhere(f)}
    ORDER BY ${caseNameOrder(Prisma.sql`c.name`)}, c.source
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  const links = rows.length
    ? await db.testCaseToolkit.findMany({
        where: { caseId: { in: rows.map((r) => r.id) } },
        orderBy: { position: "asc" },
        select: { caseId: true, toolkit: { select: { name: true } } },
      })
    : [];
  const toolkitsOf = new Map<string, string[]>();
  for (const l of links) toolkitsOf.set(l.caseId, [...(toolkitsOf.get(l.caseId) ?? []), l.toolkit.name]);
  return pageOf(
    rows.map((r) => ({ ...r, trajectoryCount: toNumber(r.trajectoryCount), toolkits: toolkitsOf.get(r.id) ?? [] })),
    total,
    page,
    pageSize,
  );
}

const TRAJECTORIES_ON_CASE_PAGE = 100;

/** A case by name (with `source` when names repeat across sources), its toolkits and latest trajectories. */
export async function getCase(db: Db, name: string, source?: string) {
  const c = await db.testCase.findFirst({
    where: source ? { name, source } : { name },
    orderBy: { source: "asc" },
    select: {
      id: true,
      name: true,
      source: true,
      userInstruction: true,
      underspecTaskInfo: true,
      underspecSafety: true,
      expectedAchievements: true,
      potentialRiskyOutcomes: true,
      potentialRiskyActions: true,
      toolkits: { orderBy: { position: "asc" }, select: { toolkit: { select: { name: true, nameForHuman: true } } } },
      _count: { select: { trajectories: true } },
    },
  });
  if (!c) return null;
  const trajectories = await db.trajectory.findMany({
    where: { caseId: c.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: TRAJECTORIES_ON_CASE_PAGE,
    select: { id: true, agentModel: true, emulatorModel: true, emulatorMode: true, status: true, stepCount: true, hasErrors: true, createdAt: true, caseVersion: { select: { version: true } } },
  });
  const scores = await scoresFor(db, trajectories.map((t) => t.id));
  const { _count, toolkits, ...rest } = c;
  return {
    ...rest,
    toolkits: toolkits.map((t) => t.toolkit),
    trajectoryCount: _count.trajectories,
    // The case version each trajectory ran against (authoring: edits make new versions).
    trajectories: trajectories.map(({ caseVersion, ...t }) => ({ ...t, caseVersion: caseVersion?.version ?? null, scores: scores.get(t.id) ?? [] })),
  };
}

export type CaseDetail = NonNullable<Awaited<ReturnType<typeof getCase>>>;

export async function loadCasesPage(db: Db, filter: CaseListFilter) {
  const [list, toolkitNames, totalInDb] = await Promise.all([listCases(db, filter), listToolkitNames(db), db.testCase.count()]);
  return { list, toolkitNames, totalInDb };
}
