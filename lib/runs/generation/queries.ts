// What the /generate page shows: the form's choices (endpoints, toolkits, example cases) and the
// recent generation jobs with their progress, estimate, usage and items by review status.
import "server-only";
import type { Db } from "@/lib/db/client";
import { OFFLINE_MODEL_LABEL } from "@/lib/llm/types";
import { REPLAY_ENDPOINT_NAME } from "@/lib/llm/endpoints";
import type { GenerationEstimate } from "@/lib/authoring/estimate";

export interface JobProgress {
  done: number;
  total: number;
  stage: string;
  items: number;
  invalid?: number;
}
export interface JobUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export async function loadGenerateForm(db: Db) {
  const [endpoints, toolkits, cases] = await Promise.all([
    db.modelEndpoint.findMany({ where: { name: { not: REPLAY_ENDPOINT_NAME } }, orderBy: [{ offline: "desc" }, { name: "asc" }], select: { id: true, name: true, model: true, offline: true } }),
    db.toolkit.findMany({ orderBy: { name: "asc" }, select: { name: true, category: true, provenance: true, _count: { select: { tools: true } } } }),
    db.testCase.findMany({ orderBy: { name: "asc" }, select: { id: true, name: true, userInstruction: true, toolkits: { select: { toolkit: { select: { name: true } } } } } }),
  ]);
  cases.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  return {
    endpoints: endpoints.map((e) => ({ ...e, badge: e.offline ? OFFLINE_MODEL_LABEL : null })),
    toolkits: toolkits.map((t) => ({ name: t.name, category: t.category, tools: t._count.tools, generated: t.provenance === "GENERATED" })),
    categories: [...new Set(toolkits.map((t) => t.category).filter((c): c is string => !!c))].sort(),
    cases: cases.map((c) => ({ id: c.id, name: c.name, instruction: c.userInstruction.slice(0, 140), toolkits: c.toolkits.map((t) => t.toolkit.name) })),
  };
}
export type GenerateForm = Awaited<ReturnType<typeof loadGenerateForm>>;

export async function listGenerationJobs(db: Db, take = 15) {
  const jobs = await db.generationJob.findMany({
    orderBy: { createdAt: "desc" },
    take,
    select: { id: true, kind: true, params: true, status: true, progress: true, estimate: true, usage: true, error: true, createdAt: true, finishedAt: true, createdBy: { select: { name: true } } },
  });
  const counts = await db.generatedItem.groupBy({ by: ["jobId", "status"], where: { jobId: { in: jobs.map((j) => j.id) } }, _count: { _all: true } });
  return jobs.map((j) => {
    const byStatus = { PENDING: 0, ACCEPTED: 0, REJECTED: 0 };
    for (const c of counts) if (c.jobId === j.id) byStatus[c.status] = c._count._all;
    const params = j.params as Record<string, unknown>;
    return {
      id: j.id,
      kind: j.kind,
      status: j.status,
      summary: jobSummary(j.kind, params),
      endpointName: typeof params.endpointName === "string" ? params.endpointName : "",
      progress: j.progress as unknown as JobProgress,
      estimate: j.estimate as unknown as GenerationEstimate,
      usage: j.usage as unknown as JobUsage,
      error: j.error,
      createdBy: j.createdBy.name,
      createdAt: j.createdAt.toISOString(),
      finishedAt: j.finishedAt?.toISOString() ?? null,
      items: byStatus,
    };
  });
}
export type GenerationJobRow = Awaited<ReturnType<typeof listGenerationJobs>>[number];

function jobSummary(kind: string, p: Record<string, unknown>): string {
  const list = (v: unknown) => (Array.isArray(v) ? v.join(", ") : "");
  if (kind === "TOOLKITS") return `${p.count} toolkit(s) in “${p.category}”: ${String(p.brief ?? "").slice(0, 80)}`;
  if (kind === "CASES") return `${p.count} ${p.mode === "RED_TEAM" ? "red-team" : "standard"} case(s) for ${list(p.primaryToolkits)}${list(p.auxiliaryToolkits) ? ` (+ ${list(p.auxiliaryToolkits)})` : ""}`;
  return `Complete “${String(p.instruction ?? "").slice(0, 80)}” (${list(p.toolkits)}, ${p.mode === "RED_TEAM" ? "red-team" : "standard"})`;
}
