// Creating and editing a test case: each write is a new TestCaseVersion, the TestCase row (and its
// toolkit links) then hold that version, in one transaction, audited. Trajectories keep pointing at
// the version they ran against (Trajectory.caseVersionId).
import { recordAudit } from "@/lib/audit/record";
import type { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { caseRow, TOOLEMU_SOURCE } from "../normalize";
import { STUDIO_KEY } from "../studio-extension";
import { inTransaction, type DbOrTx, type Tx } from "./transaction";
import { SpecInvalid, valid, validateCase, type SpecIssue, type ValidCase } from "./validate";
import { conflict, type CreateOptions, type UpdateOptions } from "./write-toolkit";

const WHAT = "Test case";
const json = (v: unknown) => v as Prisma.InputJsonValue;
const cleanNote = (n: string | undefined) => n?.trim().slice(0, 500) || null;

export async function createCase(db: DbOrTx, caseJson: unknown, opts: CreateOptions): Promise<{ caseId: string; version: number }> {
  const v = valid(validateCase(caseJson), WHAT);
  return inTransaction(db, async (tx) => {
    const row = caseRow(v.parsed, v.content);
    if (await tx.testCase.findUnique({ where: { source_name: { source: TOOLEMU_SOURCE, name: row.name } }, select: { id: true } })) {
      throw new SpecInvalid(WHAT, [{ path: "name", message: `a case named "${row.name}" exists already: edit it, or choose another name` }]);
    }
    const links = await toolkitLinks(tx, v);
    const { toolkitNames: _names, ...fields } = row;
    const c = await tx.testCase.create({
      data: { ...fields, raw: json(v.content), criticalTools: v.criticalTools ?? [], provenance: opts.provenance, currentVersion: 1, toolkits: { create: links } },
      select: { id: true },
    });
    await tx.testCaseVersion.create({ data: { caseId: c.id, version: 1, content: json(v.content), contentHash: row.contentHash, note: cleanNote(opts.note), createdById: opts.actorId } });
    await recordAudit(tx, { actorId: opts.actorId, action: "case.create", entityType: "TestCase", entityId: c.id, after: { name: row.name, version: 1, provenance: opts.provenance, contentHash: row.contentHash, note: cleanNote(opts.note) } });
    return { caseId: c.id, version: 1 };
  });
}

export async function updateCase(db: DbOrTx, caseId: string, caseJson: unknown, opts: UpdateOptions): Promise<{ caseId: string; version: number }> {
  const v = valid(validateCase(caseJson), WHAT);
  return inTransaction(db, async (tx) => {
    const current = await tx.testCase.findUnique({ where: { id: caseId }, select: { name: true, source: true, currentVersion: true, contentHash: true } });
    if (!current || current.source !== TOOLEMU_SOURCE) throw new AppError("This test case does not exist (any more).", 404);
    const row = caseRow(v.parsed, v.content);
    // Imported trajectories name their case; a rename would cut them off on the next import.
    if (row.name !== current.name) throw new SpecInvalid(WHAT, [{ path: "name", message: `a case cannot be renamed (trajectories refer to "${current.name}" by name); create a new case instead` }]);
    if (current.currentVersion !== opts.expectedVersion) throw conflict("case", current.name, current.currentVersion, opts.expectedVersion);
    if (row.contentHash === current.contentHash) throw new AppError(`Nothing to save: the case is the same as version ${current.currentVersion}.`, 422);
    const links = await toolkitLinks(tx, v);
    const version = current.currentVersion + 1;
    const { toolkitNames: _names, source: _source, name: _name, ...fields } = row;
    const { count } = await tx.testCase.updateMany({
      where: { id: caseId, currentVersion: opts.expectedVersion },
      data: { ...fields, raw: json(v.content), currentVersion: version, ...(v.criticalTools ? { criticalTools: v.criticalTools } : {}) },
    });
    if (count !== 1) throw conflict("case", current.name, version, opts.expectedVersion);
    await tx.testCaseToolkit.deleteMany({ where: { caseId } });
    await tx.testCaseToolkit.createMany({ data: links.map((l) => ({ ...l, caseId })) });
    await tx.testCaseVersion.create({ data: { caseId, version, content: json(v.content), contentHash: row.contentHash, note: cleanNote(opts.note), createdById: opts.actorId } });
    await recordAudit(tx, {
      actorId: opts.actorId,
      action: "case.edit",
      entityType: "TestCase",
      entityId: caseId,
      before: { version: current.currentVersion, contentHash: current.contentHash },
      after: { version, contentHash: row.contentHash, note: cleanNote(opts.note) },
    });
    return { caseId, version };
  });
}

/** The case's toolkits must exist; its own critical tools must be tools of them. */
async function toolkitLinks(tx: Tx, v: ValidCase): Promise<{ toolkitId: string; position: number }[]> {
  const names = v.parsed.Toolkits;
  const found = await tx.toolkit.findMany({ where: { name: { in: names } }, select: { id: true, name: true, tools: { select: { agentName: true } } } });
  const byName = new Map(found.map((t) => [t.name, t]));
  const issues: SpecIssue[] = [];
  names.forEach((n, i) => {
    if (!byName.has(n)) issues.push({ path: `Toolkits[${i}]`, message: `unknown toolkit "${n}": create or import it first` });
  });
  if (v.criticalTools && !issues.length) {
    const known = new Set(found.flatMap((t) => t.tools.map((x) => x.agentName)));
    v.criticalTools.forEach((n) => {
      if (!known.has(n)) issues.push({ path: `${STUDIO_KEY}.critical_tools`, message: `"${n}" is not a tool of the case's toolkits (${names.join(", ")})` });
    });
  }
  if (issues.length) throw new SpecInvalid(WHAT, issues);
  return names.map((n, position) => ({ toolkitId: byName.get(n)!.id, position }));
}
