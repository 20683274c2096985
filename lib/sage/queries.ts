// Browse queries of the SAGE pages (/sage): the taxonomy with counts, one dimension's scenarios
// (paged, filtered by subcategory and text), one scenario with its hidden fields. Staff only
// (sage:read): these return hidden fields; annotator views never call them.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { agentVisibleScenario } from "./visible";
import type { SageTool } from "./tools";

export const SAGE_PAGE_SIZE = 25;

export async function loadSageOverview(db: Db) {
  const dims = await db.sageDimension.findMany({
    orderBy: { position: "asc" },
    select: {
      key: true,
      name: true,
      sourceName: true,
      subcategories: {
        orderBy: { position: "asc" },
        select: { key: true, slug: true, name: true, sourceName: true, familySourceFile: true, _count: { select: { scenarios: true } } },
      },
    },
  });
  const seeds = new Map(
    (await db.sageScenario.groupBy({ by: ["subcategoryId"], where: { seed: true }, _count: { _all: true } })).map((r) => [r.subcategoryId, r._count._all]),
  );
  const subIds = new Map((await db.sageSubcategory.findMany({ select: { id: true, key: true } })).map((s) => [s.key, s.id]));
  const dimensions = dims.map((d) => {
    const subcategories = d.subcategories.map((s) => ({
      key: s.key,
      slug: s.slug,
      name: s.name,
      sourceName: s.sourceName,
      familyImported: !!s.familySourceFile,
      scenarios: s._count.scenarios,
      seeds: seeds.get(subIds.get(s.key) ?? "") ?? 0,
    }));
    return { key: d.key, name: d.name, sourceName: d.sourceName, subcategories, scenarios: subcategories.reduce((n, s) => n + s.scenarios, 0) };
  });
  return { dimensions, total: dimensions.reduce((n, d) => n + d.scenarios, 0) };
}

export interface SageScenarioFilter {
  subcategory?: string;
  q?: string;
  page: number;
}

export function parseSageFilter(params: Record<string, string | string[] | undefined>): SageScenarioFilter {
  const one = (k: string) => {
    const v = params[k];
    const s = (Array.isArray(v) ? v[0] : v)?.trim();
    return s ? s.slice(0, 200) : undefined;
  };
  const page = Number(one("page") ?? 1);
  return { subcategory: one("subcategory"), q: one("q"), page: Number.isInteger(page) && page >= 1 ? page : 1 };
}

export async function loadSageDimension(db: Db, key: string, f: SageScenarioFilter) {
  const dim = await db.sageDimension.findUnique({
    where: { key },
    select: {
      key: true,
      name: true,
      sourceName: true,
      subcategories: {
        orderBy: { position: "asc" },
        select: { id: true, key: true, slug: true, name: true, sourceName: true, definition: true, attackerProfile: true, allowedTactics: true, familySourceFile: true, licence: true, source: true, _count: { select: { scenarios: true } } },
      },
    },
  });
  if (!dim) return null;
  const sub = f.subcategory ? dim.subcategories.find((s) => s.slug === f.subcategory || s.key === f.subcategory) ?? null : null;
  const where: Prisma.SageScenarioWhereInput = {
    subcategoryId: sub ? sub.id : { in: dim.subcategories.map((s) => s.id) },
    ...(f.q
      ? { OR: [{ instanceId: { contains: f.q, mode: "insensitive" } }, { theme: { contains: f.q, mode: "insensitive" } }, { domain: { contains: f.q, mode: "insensitive" } }, { taskContext: { contains: f.q, mode: "insensitive" } }] }
      : {}),
  };
  const total = await db.sageScenario.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / SAGE_PAGE_SIZE));
  const page = Math.min(f.page, pageCount);
  const rows = await db.sageScenario.findMany({
    where,
    orderBy: [{ subcategory: { position: "asc" } }, { instanceId: "asc" }],
    skip: (page - 1) * SAGE_PAGE_SIZE,
    take: SAGE_PAGE_SIZE,
    select: { instanceId: true, theme: true, domain: true, seed: true, attackerStrategy: true, turnLimit: true, tools: true, subcategory: { select: { name: true, slug: true } }, _count: { select: { trajectories: true } } },
  });
  const family = (s: (typeof dim.subcategories)[number]) => {
    const def = (s.definition ?? null) as Record<string, unknown> | null;
    const ap = (s.attackerProfile ?? null) as { goal?: string } | null;
    return {
      key: s.key,
      slug: s.slug,
      name: s.name,
      sourceName: s.sourceName,
      scenarios: s._count.scenarios,
      definition: typeof def?.definition === "string" ? def.definition : null,
      coreQuestion: typeof def?.core_question === "string" ? def.core_question : null,
      attackerGoal: ap?.goal ?? null,
      allowedTactics: s.allowedTactics,
      judgeTemplate: def?.judge_template ?? null,
      familySourceFile: s.familySourceFile,
      licence: s.licence,
      source: s.source,
    };
  };
  return {
    dimension: { key: dim.key, name: dim.name, sourceName: dim.sourceName },
    subcategories: dim.subcategories.map(family),
    selected: sub ? family(sub) : null,
    list: {
      rows: rows.map((r) => ({
        instanceId: r.instanceId,
        theme: r.theme,
        domain: r.domain,
        seed: r.seed,
        strategy: r.attackerStrategy,
        turnLimit: r.turnLimit,
        tools: (r.tools as unknown as SageTool[]).length,
        subcategory: r.subcategory.name,
        episodes: r._count.trajectories,
      })),
      total,
      page,
      pageSize: SAGE_PAGE_SIZE,
      pageCount,
    },
  };
}

export async function loadSageScenario(db: Db, instanceId: string) {
  const s = await db.sageScenario.findUnique({
    where: { instanceId },
    include: { subcategory: { select: { key: true, slug: true, name: true, licence: true, source: true, dimension: { select: { key: true, name: true } } } }, _count: { select: { trajectories: true } } },
  });
  if (!s) return null;
  const state = (s.environmentState ?? {}) as Record<string, unknown>;
  return {
    scenario: s,
    tools: s.tools as unknown as SageTool[],
    state,
    visible: { trust: agentVisibleScenario(s, "TRUST"), warning: agentVisibleScenario(s, "WARNING") },
  };
}

export type SageScenarioPage = NonNullable<Awaited<ReturnType<typeof loadSageScenario>>>;
