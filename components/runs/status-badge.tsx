import { RUN_STATUS_LABEL, RUN_STATUS_STYLE } from "./format";

export function RunStatusBadge({ status, testId = "run-status" }: { status: string; testId?: string }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${RUN_STATUS_STYLE[status] ?? "bg-slate-100 text-slate-700"}`} data-testid={testId} data-status={status}>
      {status === "RUNNING" && <span aria-hidden="true" className="h-1.5 w-1.5 animate-pulse rounded-full bg-indigo-600" />}
      {RUN_STATUS_LABEL[status] ?? status.charAt(0) + status.slice(1).toLowerCase()}
    </span>
  );
}
