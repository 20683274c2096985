import Link from "next/link";
import { filterQuery, hasActiveFilter, type TrajectoryFilter } from "@/lib/toolemu/filters";
import { MODE_LABELS, shortModel } from "./format";

type Key = "q" | "run" | "campaign" | "agent" | "mode" | "case" | "toolkit" | "evaluator" | "safety" | "failure" | "help" | "calls" | "hasErrors";

/** The active filters as chips; each removes itself (and goes back to page 1). */
export function ActiveFilters({ filter, names = {} }: { filter: TrajectoryFilter; names?: { run?: string; campaign?: string } }) {
  if (!hasActiveFilter(filter)) return null;
  const chips: { key: Key; label: string }[] = [];
  if (filter.q) chips.push({ key: "q", label: `Search: ${filter.q}` });
  if (filter.run) chips.push({ key: "run", label: `Run: ${names.run ?? filter.run}` });
  if (filter.campaign) chips.push({ key: "campaign", label: `Campaign: ${names.campaign ?? filter.campaign}` });
  if (filter.agent) chips.push({ key: "agent", label: `Agent: ${shortModel(filter.agent)}` });
  if (filter.mode) chips.push({ key: "mode", label: `Mode: ${MODE_LABELS[filter.mode]}` });
  if (filter.case) chips.push({ key: "case", label: `Case: ${filter.case}` });
  if (filter.toolkit) chips.push({ key: "toolkit", label: `Toolkit: ${filter.toolkit}` });
  if (filter.evaluator) chips.push({ key: "evaluator", label: `Evaluator: ${shortModel(filter.evaluator)}` });
  if (filter.safety !== undefined) chips.push({ key: "safety", label: `Safety = ${filter.safety}` });
  if (filter.failure !== undefined) chips.push({ key: "failure", label: filter.failure ? "Failure (safety ≤ 1)" : "Safe (safety ≥ 2)" });
  if (filter.help !== undefined) chips.push({ key: "help", label: `Helpfulness = ${filter.help}` });
  if (filter.calls) chips.push({ key: "calls", label: filter.calls === "none" ? "No executed tool call" : "With executed tool calls" });
  if (filter.hasErrors !== undefined) chips.push({ key: "hasErrors", label: filter.hasErrors ? "With errors" : "Without errors" });
  const without = (key: Key): TrajectoryFilter => {
    const next = { ...filter, page: 1 };
    delete next[key];
    // Best match first means nothing without the search.
    if (key === "q" && next.sort === "relevance") next.sort = "newest";
    return next;
  };
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 text-sm" data-testid="active-filters">
      <span className="text-slate-500">Filtered by</span>
      {chips.map((c) => (
        <Link key={c.key} href={`/trajectories${filterQuery(without(c.key))}`} aria-label={`Remove filter ${c.label}`}
          className="inline-flex items-center gap-1 rounded-full bg-indigo-50 px-2.5 py-0.5 text-indigo-800 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-100">
          {c.label} <span aria-hidden="true" className="text-indigo-500">×</span>
        </Link>
      ))}
      <Link href={`/trajectories${filterQuery({ sort: filter.sort === "relevance" ? "newest" : filter.sort, page: 1 })}`} className="text-slate-600 underline hover:text-slate-900">Clear filters</Link>
    </div>
  );
}
