// What the SAGE run form offers: the endpoints (never keys), the taxonomy with scenario counts, and
// how many scenarios have a turn limit above the published runner's (for the turn-policy note).
// ?dimension=<key> or ?subcategory=<key> (the links from /sage) preselect the scenarios.
import "server-only";
import type { Db } from "@/lib/db/client";
import { PUBLISHED_MAX_TURNS } from "./schemas";

export async function loadSageRunForm(db: Db, params: Record<string, string | string[] | undefined> = {}) {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
  const [endpoints, dimensions, counts, total, overCap] = await Promise.all([
    db.modelEndpoint.findMany({ orderBy: [{ offline: "desc" }, { name: "asc" }], select: { id: true, name: true, model: true, offline: true, temperature: true } }),
    db.sageDimension.findMany({ orderBy: { position: "asc" }, select: { key: true, name: true, subcategories: { orderBy: { position: "asc" }, select: { key: true, name: true } } } }),
    db.sageScenario.groupBy({ by: ["subcategoryId"], _count: { _all: true } }),
    db.sageScenario.count(),
    db.sageScenario.count({ where: { turnLimit: { gt: PUBLISHED_MAX_TURNS } } }),
  ]);
  const subIds = await db.sageSubcategory.findMany({ select: { id: true, key: true } });
  const countOf = new Map(subIds.map((s) => [s.key, counts.find((c) => c.subcategoryId === s.id)?._count._all ?? 0]));
  const taxonomy = dimensions.map((d) => {
    const subcategories = d.subcategories.map((s) => ({ key: s.key, name: s.name, scenarios: countOf.get(s.key) ?? 0 }));
    return { key: d.key, name: d.name, scenarios: subcategories.reduce((n, s) => n + s.scenarios, 0), subcategories };
  });
  const dimension = one(params.dimension);
  const subcategory = one(params.subcategory);
  const initial =
    subcategory && taxonomy.some((d) => d.subcategories.some((s) => s.key === subcategory))
      ? ({ kind: "subcategories", keys: [subcategory] } as const)
      : dimension && taxonomy.some((d) => d.key === dimension)
        ? ({ kind: "dimensions", keys: [dimension] } as const)
        : ({ kind: "all" } as const);
  return { endpoints, taxonomy, totalScenarios: total, overCap, initial };
}
export type SageRunFormData = Awaited<ReturnType<typeof loadSageRunForm>>;
