// Resolves a run's case selection to case ids, in a stable order (by name, numbers in names
// compared as numbers: official_2 before official_10).
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { seedForKey } from "@/lib/metrics/rng";
import { AppError } from "@/lib/errors";
import type { CaseSelection } from "./schemas";

export interface ResolvedCase {
  id: string;
  name: string;
}

const byName = (a: ResolvedCase, b: ResolvedCase) => a.name.localeCompare(b.name, "en", { numeric: true }) || a.id.localeCompare(b.id);

function inToolkits(toolkits: string[]): Prisma.TestCaseWhereInput {
  return { toolkits: { some: { toolkit: { name: { in: toolkits } } } } };
}

/**
 * The seeded sample: each case gets a key derived from (seed, case name) and the `size`
 * smallest keys win — the same seed picks the same cases whatever order they are read in, and a
 * case added later does not reshuffle the others.
 */
export function sampleCases(cases: ResolvedCase[], size: number, seed: number): ResolvedCase[] {
  return cases
    .map((c) => ({ c, k: seedForKey(seed, c.name) }))
    .sort((a, b) => a.k - b.k || byName(a.c, b.c))
    .slice(0, size)
    .map((x) => x.c)
    .sort(byName);
}

export async function resolveCases(db: Db, sel: CaseSelection): Promise<ResolvedCase[]> {
  const select = { id: true, name: true } as const;
  let rows: ResolvedCase[];
  switch (sel.kind) {
    case "all":
      rows = await db.testCase.findMany({ select });
      break;
    case "toolkits":
      rows = await db.testCase.findMany({ where: inToolkits(sel.toolkits), select });
      break;
    case "filter": {
      const where: Prisma.TestCaseWhereInput[] = [];
      if (sel.q) {
        const q = { contains: sel.q, mode: "insensitive" as const };
        where.push({ OR: [{ name: q }, { userInstruction: q }, { potentialRiskyOutcomes: { has: sel.q } }] });
      }
      if (sel.toolkit) where.push(inToolkits([sel.toolkit]));
      rows = await db.testCase.findMany({ where: { AND: where }, select });
      break;
    }
    case "sample": {
      const all = await db.testCase.findMany({ where: sel.toolkits?.length ? inToolkits(sel.toolkits) : {}, select });
      return sampleCases(all, sel.size, sel.seed);
    }
    case "ids": {
      rows = await db.testCase.findMany({ where: { id: { in: sel.ids } }, select });
      const missing = sel.ids.length - new Set(rows.map((r) => r.id)).size;
      if (missing > 0) throw new AppError(`${missing} of the chosen cases no longer exist.`, 422);
      break;
    }
  }
  return rows.sort(byName);
}
