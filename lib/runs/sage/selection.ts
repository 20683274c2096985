// Resolves a SAGE run's scenario selection to scenarios, in a stable order (taxonomy position of
// the dimension and subcategory, then instance_id with numbers compared as numbers).
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { seedForKey } from "@/lib/metrics/rng";
import type { SageScenarioSelection } from "./schemas";

export interface ResolvedScenario {
  id: string;
  instanceId: string;
  turnLimit: number;
  subcategory: string;
  /** Characters of what the agent, attacker and judge prompts carry of it (for the estimate). */
  chars: number;
}

export interface ResolvedSelection {
  scenarios: ResolvedScenario[];
  description: string;
}

const byId = (a: { instanceId: string }, b: { instanceId: string }) => a.instanceId.localeCompare(b.instanceId, "en", { numeric: true });

/**
 * The seeded stratified sample: in each subcategory, each scenario gets a key derived from
 * (seed, instance_id) and the n smallest keys win — the same seed picks the same scenarios in any
 * read order, and a scenario imported later does not reshuffle the others.
 */
export function sampleScenarios<T extends { instanceId: string; subcategory: string }>(rows: T[], perSubcategory: number, seed: number): T[] {
  const groups = new Map<string, T[]>();
  for (const r of rows) groups.set(r.subcategory, [...(groups.get(r.subcategory) ?? []), r]);
  const out: T[] = [];
  for (const list of groups.values()) {
    out.push(...list.map((r) => ({ r, k: seedForKey(seed, r.instanceId) })).sort((a, b) => a.k - b.k || byId(a.r, b.r)).slice(0, perSubcategory).map((x) => x.r));
  }
  return out;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function resolveScenarios(db: Db, sel: SageScenarioSelection): Promise<ResolvedSelection> {
  let where: Prisma.SageScenarioWhereInput = {};
  let description: string;
  switch (sel.kind) {
    case "all":
      description = "all scenarios";
      break;
    case "dimensions":
      where = { subcategory: { dimension: { key: { in: sel.keys } } } };
      description = `${plural(sel.keys.length, "dimension")}`;
      break;
    case "subcategories":
      where = { subcategory: { key: { in: sel.keys } } };
      description = `${plural(sel.keys.length, "subcategory", "subcategories")}`;
      break;
    case "sample":
      where = sel.dimensions.length ? { subcategory: { dimension: { key: { in: sel.dimensions } } } } : {};
      description = `a seeded sample of ${sel.perSubcategory} per subcategory (seed ${sel.seed})${sel.dimensions.length ? ` in ${plural(sel.dimensions.length, "dimension")}` : ""}`;
      break;
    case "ids":
      where = { instanceId: { in: sel.ids } };
      description = plural(sel.ids.length, "named scenario");
      break;
  }
  const rows = await db.sageScenario.findMany({
    where,
    select: {
      id: true,
      instanceId: true,
      turnLimit: true,
      roleContext: true,
      taskContext: true,
      crisisContext: true,
      attackerFirstMessage: true,
      subcategory: { select: { key: true, position: true, dimension: { select: { position: true } } } },
    },
  });
  if (sel.kind === "ids") {
    const found = new Set(rows.map((r) => r.instanceId));
    const missing = sel.ids.filter((id) => !found.has(id));
    if (missing.length) throw new AppError(`${plural(missing.length, "scenario")} not found: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", …" : ""}. Import them first (SAGE → Import).`, 422);
  }
  const resolved = rows
    .sort((a, b) => a.subcategory.dimension.position - b.subcategory.dimension.position || a.subcategory.position - b.subcategory.position || byId(a, b))
    .map((r) => ({
      id: r.id,
      instanceId: r.instanceId,
      turnLimit: r.turnLimit,
      subcategory: r.subcategory.key,
      chars: r.roleContext.length + r.taskContext.length + (r.crisisContext?.length ?? 0) + r.attackerFirstMessage.length,
    }));
  const picked = sel.kind === "sample" ? new Set(sampleScenarios(resolved, sel.perSubcategory, sel.seed).map((s) => s.id)) : null;
  const scenarios = picked ? resolved.filter((s) => picked.has(s.id)) : resolved;
  return { scenarios, description };
}
