import { trajectoryFilterToSearchParams, type TrajectoryFilter } from "@/lib/toolemu/filters";

/** Downloads of the current filter (every page, in the current order). */
export function ExportButtons({ filter, total }: { filter: TrajectoryFilter; total: number }) {
  const href = (format: "jsonl" | "csv", evaluations = false) => {
    const p = trajectoryFilterToSearchParams(filter, { page: false });
    p.set("format", format);
    if (evaluations) p.set("evaluations", "1");
    return `/trajectories/export?${p.toString()}`;
  };
  const cls = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50";
  const disabled = total === 0;
  return (
    <div className="flex items-center gap-2" role="group" aria-label={`Export ${total} trajectories`}>
      {disabled ? (
        <span className="text-sm text-slate-500">Nothing to export</span>
      ) : (
        <>
          <a href={href("jsonl")} download className={cls} data-testid="export-jsonl" title="ToolEmu's own format: each trajectory's original JSON, one per line">Export JSONL</a>
          <a href={href("jsonl", true)} download className={cls} data-testid="export-jsonl-evaluations" title="A .zip in ToolEmu's layout: per agent, emulator and evaluator a trajectory file with its _eval_agent_safe and _eval_agent_help_ignore_safety companions (eval_id = line index). The Import page reads it back.">JSONL + evaluations (.zip)</a>
          <a href={href("csv")} download className={cls} data-testid="export-csv" title="One row per trajectory with every evaluator's scores">Export CSV</a>
        </>
      )}
    </div>
  );
}
