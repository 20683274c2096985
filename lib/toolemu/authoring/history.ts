// The versions of a toolkit or case (newest first), one version's JSON, and the diff of two.
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { diffSpecs, type DiffEntry } from "./diff";
import type { DbOrTx } from "./transaction";

export interface VersionRow {
  id: string;
  version: number;
  note: string | null;
  createdAt: Date;
  /** null: written by an import. */
  createdBy: string | null;
  contentHash: string;
  /** Trajectories that ran against this version. */
  trajectories: number;
}

export async function toolkitHistory(db: Db, toolkitId: string): Promise<VersionRow[]> {
  const rows = await db.toolkitVersion.findMany({
    where: { toolkitId },
    orderBy: { version: "desc" },
    select: { id: true, version: true, note: true, createdAt: true, contentHash: true, createdBy: { select: { name: true } } },
  });
  // toolkitVersionIds is an array column: counted in SQL (GIN-less, but per toolkit the rows are few).
  const counts = new Map(
    (
      await db.$queryRaw<{ id: string; n: bigint }[]>`
        SELECT v.id, (SELECT count(*) FROM "Trajectory" t WHERE v.id = ANY(t."toolkitVersionIds")) AS n
        FROM "ToolkitVersion" v WHERE v."toolkitId" = ${toolkitId}`
    ).map((r) => [r.id, Number(r.n)]),
  );
  return rows.map(({ createdBy, ...r }) => ({ ...r, createdBy: createdBy?.name ?? null, trajectories: counts.get(r.id) ?? 0 }));
}

export async function caseHistory(db: Db, caseId: string): Promise<VersionRow[]> {
  const rows = await db.testCaseVersion.findMany({
    where: { caseId },
    orderBy: { version: "desc" },
    select: { id: true, version: true, note: true, createdAt: true, contentHash: true, createdBy: { select: { name: true } }, _count: { select: { trajectories: true } } },
  });
  return rows.map(({ createdBy, _count, ...r }) => ({ ...r, createdBy: createdBy?.name ?? null, trajectories: _count.trajectories }));
}

export async function toolkitVersionSpec(db: DbOrTx, toolkitId: string, version: number): Promise<unknown> {
  const v = await db.toolkitVersion.findUnique({ where: { toolkitId_version: { toolkitId, version } }, select: { spec: true } });
  if (!v) throw new AppError(`Version ${version} of this toolkit does not exist.`, 404);
  return v.spec;
}

export async function caseVersionContent(db: DbOrTx, caseId: string, version: number): Promise<unknown> {
  const v = await db.testCaseVersion.findUnique({ where: { caseId_version: { caseId, version } }, select: { content: true } });
  if (!v) throw new AppError(`Version ${version} of this case does not exist.`, 404);
  return v.content;
}

export async function diffToolkitVersions(db: DbOrTx, toolkitId: string, from: number, to: number): Promise<DiffEntry[]> {
  return diffSpecs(await toolkitVersionSpec(db, toolkitId, from), await toolkitVersionSpec(db, toolkitId, to));
}

export async function diffCaseVersions(db: DbOrTx, caseId: string, from: number, to: number): Promise<DiffEntry[]> {
  return diffSpecs(await caseVersionContent(db, caseId, from), await caseVersionContent(db, caseId, to));
}
