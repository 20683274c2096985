// What the "evaluate trajectories" form loads: the selection it was opened with (described and
// counted), the endpoints and the evaluator template versions.
import "server-only";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseTrajectoryFilter, trajectoryFilterToSearchParams, type SearchParamsInput } from "@/lib/toolemu/filters";
import type { TrajectorySelection } from "./schemas";
import { resolveTrajectories } from "./selection";
import { evaluatorTemplateVersions } from "./templates";

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** ?run=ID, ?campaign=ID, or the /trajectories filter keys → a selection. */
export function selectionFromSearchParams(sp: Record<string, string | string[] | undefined>): TrajectorySelection {
  const run = first(sp.run)?.trim();
  if (run) return { kind: "run", runId: run };
  const campaign = first(sp.campaign)?.trim();
  if (campaign) return { kind: "campaign", campaignId: campaign };
  const filter = parseTrajectoryFilter(sp as SearchParamsInput);
  return { kind: "filter", query: trajectoryFilterToSearchParams(filter, { page: false, sort: false }).toString() };
}

/** Where "back" goes from the form: the list, run or campaign the selection came from. */
export function selectionHref(sel: TrajectorySelection): string {
  switch (sel.kind) {
    case "run": return `/runs/${sel.runId}`;
    case "campaign": return `/campaigns/${sel.campaignId}`;
    case "filter": return `/trajectories${sel.query ? `?${sel.query}` : ""}`;
    default: return "/trajectories";
  }
}

export async function loadEvaluationForm(db: Db, selection: TrajectorySelection) {
  let resolved: { trajectories: number; running: number; description: string; error: string | null };
  try {
    const r = await resolveTrajectories(db, selection);
    resolved = { trajectories: r.trajectories.length, running: r.running, description: r.description, error: null };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    resolved = { trajectories: 0, running: 0, description: "", error: e.message };
  }
  const endpoints = await db.modelEndpoint.findMany({
    orderBy: [{ offline: "desc" }, { name: "asc" }],
    select: { id: true, name: true, model: true, offline: true, temperature: true, cacheEnabled: true, priceInputPer1k: true, priceOutputPer1k: true },
  });
  return { selection, backHref: selectionHref(selection), ...resolved, endpoints, templateVersions: evaluatorTemplateVersions() };
}
export type EvaluationForm = Awaited<ReturnType<typeof loadEvaluationForm>>;
