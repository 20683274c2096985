// Display helpers for the run pages and the live view. Pure (client and server).
export const int = (x: number) => Math.round(x).toLocaleString("en-US");

export function usd(x: number): string {
  if (x === 0) return "$0";
  return x < 0.01 ? `$${x.toFixed(4)}` : x < 100 ? `$${x.toFixed(2)}` : `$${Math.round(x).toLocaleString("en-US")}`;
}

/** 3900 → "1 h 5 min"; null → "—". */
export function eta(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const m = Math.round(seconds / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

export const score = (x: { mean: number | null; n: number }) => (x.mean === null ? "—" : x.mean.toFixed(2));

export const RUN_STATUS_STYLE: Record<string, string> = {
  QUEUED: "bg-slate-100 text-slate-700",
  RUNNING: "bg-indigo-100 text-indigo-800",
  PAUSED: "bg-amber-100 text-amber-800",
  CANCELLED: "bg-slate-200 text-slate-600",
  DONE: "bg-emerald-100 text-emerald-800",
  FAILED: "bg-rose-100 text-rose-800",
};

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
