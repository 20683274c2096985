// What the authoring pages load: a toolkit or case to edit (its current JSON and version), the
// version history with an optional diff, and provenance counts for the list filters.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Provenance } from "@/lib/db/generated/client";
import { caseHistory, diffCaseVersions, diffToolkitVersions, toolkitHistory, type DiffEntry, type VersionRow } from "../authoring";
import { TOOLEMU_SOURCE } from "../normalize";

export const PROVENANCES = ["IMPORTED", "AUTHORED", "GENERATED"] as const;

/** ?provenance=authored → "AUTHORED"; anything else → null (all). */
export function parseProvenance(v: string | string[] | undefined): Provenance | null {
  const s = (Array.isArray(v) ? v[0] : v)?.toUpperCase();
  return (PROVENANCES as readonly string[]).includes(s ?? "") ? (s as Provenance) : null;
}

export async function provenanceCounts(db: Db, what: "toolkit" | "case"): Promise<Record<Provenance, number>> {
  const rows =
    what === "toolkit"
      ? await db.toolkit.groupBy({ by: ["provenance"], _count: { _all: true } })
      : await db.testCase.groupBy({ by: ["provenance"], _count: { _all: true } });
  const out: Record<Provenance, number> = { IMPORTED: 0, AUTHORED: 0, GENERATED: 0 };
  for (const r of rows) out[r.provenance] = r._count._all;
  return out;
}

export async function toolkitForEditing(db: Db, name: string) {
  return db.toolkit.findUnique({ where: { name }, select: { id: true, name: true, raw: true, currentVersion: true, provenance: true } });
}

export async function caseForEditing(db: Db, name: string) {
  const [c, toolkitNames] = await Promise.all([
    db.testCase.findUnique({ where: { source_name: { source: TOOLEMU_SOURCE, name } }, select: { id: true, name: true, raw: true, currentVersion: true, provenance: true } }),
    db.toolkit.findMany({ orderBy: { name: "asc" }, select: { name: true } }).then((r) => r.map((t) => t.name)),
  ]);
  return c ? { ...c, toolkitNames } : null;
}

export async function toolkitNamesForCases(db: Db): Promise<string[]> {
  return (await db.toolkit.findMany({ orderBy: { name: "asc" }, select: { name: true } })).map((t) => t.name);
}

export interface HistoryView {
  id: string;
  provenance: Provenance;
  currentVersion: number;
  versions: VersionRow[];
  /** The diff asked for (?from=&to=), or by default the current version against the one before. */
  diff: { from: number; to: number; entries: DiffEntry[] } | null;
}

const versionParam = (v: string | string[] | undefined, max: number): number | null => {
  const n = Number(Array.isArray(v) ? v[0] : v);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
};

export async function toolkitHistoryView(db: Db, name: string, params: Record<string, string | string[] | undefined>): Promise<HistoryView | null> {
  const tk = await db.toolkit.findUnique({ where: { name }, select: { id: true, provenance: true, currentVersion: true } });
  if (!tk) return null;
  const versions = await toolkitHistory(db, tk.id);
  const range = diffRange(params, tk.currentVersion);
  return { ...tk, versions, diff: range && { ...range, entries: await diffToolkitVersions(db, tk.id, range.from, range.to) } };
}

export async function caseHistoryView(db: Db, caseId: string, params: Record<string, string | string[] | undefined>): Promise<HistoryView | null> {
  const c = await db.testCase.findUnique({ where: { id: caseId }, select: { id: true, provenance: true, currentVersion: true } });
  if (!c) return null;
  const versions = await caseHistory(db, c.id);
  const range = diffRange(params, c.currentVersion);
  return { ...c, versions, diff: range && { ...range, entries: await diffCaseVersions(db, c.id, range.from, range.to) } };
}

function diffRange(params: Record<string, string | string[] | undefined>, current: number): { from: number; to: number } | null {
  const from = versionParam(params.from, current);
  const to = versionParam(params.to, current);
  if (from !== null && to !== null && from !== to) return { from, to };
  return current > 1 ? { from: current - 1, to: current } : null;
}
