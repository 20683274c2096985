// What the review queue shows: generated items with their job (what was asked, by whom, which
// endpoint), the JSON as generated and as edited, its validation, and who decided when.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { ValidationIssue } from "./validate";

export const REVIEW_FILTERS = ["PENDING", "ACCEPTED", "REJECTED", "ALL"] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];

export async function loadReviewQueue(db: Db, opts: { status: ReviewFilter; jobId?: string | null; take?: number }) {
  const where: Prisma.GeneratedItemWhereInput = {
    ...(opts.status === "ALL" ? {} : { status: opts.status }),
    ...(opts.jobId ? { jobId: opts.jobId } : {}),
  };
  const [rows, counts, endpoints] = await Promise.all([
    db.generatedItem.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { position: "asc" }],
      take: opts.take ?? 200,
      select: {
        id: true, position: true, kind: true, payload: true, editedPayload: true, rawOutput: true, validation: true, valid: true, status: true,
        reviewedAt: true, reviewNote: true, toolkitId: true, caseId: true, createdAt: true, reviewer: { select: { name: true } },
        job: { select: { id: true, kind: true, params: true, endpointId: true, createdAt: true, createdBy: { select: { name: true } } } },
      },
    }),
    db.generatedItem.groupBy({ by: ["status"], where: opts.jobId ? { jobId: opts.jobId } : {}, _count: { _all: true } }),
    db.modelEndpoint.findMany({ select: { id: true, offline: true } }),
  ]);
  const offline = new Set(endpoints.filter((e) => e.offline).map((e) => e.id));
  // Oldest job first, items in their order: the order a reviewer works through.
  rows.sort((a, b) => a.job.createdAt.getTime() - b.job.createdAt.getTime() || a.job.id.localeCompare(b.job.id) || a.position - b.position);
  const byStatus = { PENDING: 0, ACCEPTED: 0, REJECTED: 0 };
  for (const c of counts) byStatus[c.status] = c._count._all;
  return {
    counts: byStatus,
    items: rows.map((r) => {
      const params = r.job.params as Record<string, unknown>;
      const validation = r.validation as { ok?: boolean; issues?: ValidationIssue[]; templates?: string[] };
      const shown = (r.editedPayload ?? r.payload) as Record<string, unknown> | null;
      return {
        id: r.id,
        position: r.position,
        kind: r.kind,
        title: itemTitle(r.kind, shown, r.position),
        payload: r.payload,
        editedPayload: r.editedPayload,
        rawOutput: r.rawOutput,
        valid: r.valid,
        issues: validation.issues ?? [],
        templates: validation.templates ?? [],
        status: r.status,
        reviewer: r.reviewer?.name ?? null,
        reviewedAt: r.reviewedAt?.toISOString() ?? null,
        reviewNote: r.reviewNote,
        toolkitId: r.toolkitId,
        caseId: r.caseId,
        job: {
          id: r.job.id,
          kind: r.job.kind,
          mode: typeof params.mode === "string" ? params.mode : null,
          endpointName: typeof params.endpointName === "string" ? params.endpointName : "",
          offline: offline.has(r.job.endpointId),
          createdBy: r.job.createdBy.name,
          createdAt: r.job.createdAt.toISOString(),
        },
      };
    }),
  };
}
export type ReviewQueue = Awaited<ReturnType<typeof loadReviewQueue>>;
export type ReviewItem = ReviewQueue["items"][number];

function itemTitle(kind: string, p: Record<string, unknown> | null, position: number): string {
  if (!p) return `Unreadable ${kind === "TOOLKIT" ? "toolkit" : "case"} (item ${position + 1})`;
  const name = kind === "TOOLKIT" ? p.toolkit : p.name;
  return typeof name === "string" && name ? name : `${kind === "TOOLKIT" ? "Toolkit" : "Case"} ${position + 1}`;
}
