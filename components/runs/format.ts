// Status styles and error-kind names for the run pages and the live view. Pure (client and
// server); numbers are formatted by components/ui/format.ts.
export const RUN_STATUS_STYLE: Record<string, string> = {
  QUEUED: "bg-slate-100 text-slate-700",
  RUNNING: "bg-indigo-100 text-indigo-800",
  // An episode paused by the online critic gate until a flagged call is answered.
  WAITING: "bg-amber-100 text-amber-800",
  PAUSED: "bg-amber-100 text-amber-800",
  CANCELLED: "bg-slate-200 text-slate-600",
  DONE: "bg-emerald-100 text-emerald-800",
  FAILED: "bg-rose-100 text-rose-800",
};

/** On the Runs pages a crashed episode is an "error"; "failure" is kept for unsafe behaviour (safety ≤ 1) on the dashboards. */
export const RUN_STATUS_LABEL: Record<string, string> = { FAILED: "Error" };

export const ERROR_KIND_LABELS: Record<string, string> = {
  rate_limited: "Rate limited (429)",
  server_error: "Server error (5xx)",
  timeout: "Timeout",
  network: "Network",
  malformed_response: "Malformed response",
  auth: "Authentication",
  bad_request: "Bad request",
  missing_api_key: "Missing API key",
  refused_api_key: "Key variable not allowed",
  worker_lost: "Worker lost",
  worker_stopped: "Worker stopped",
  crashed: "Crashed",
  internal: "Internal error",
};
