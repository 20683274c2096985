// Creating and editing a toolkit: each write is a new ToolkitVersion, the Toolkit row and its Tool
// rows then hold that version (the engine reads tools from there), in one transaction, audited.
import { recordAudit } from "@/lib/audit/record";
import { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { toolkitRow } from "../normalize";
import type { ToolRiskExtension } from "../studio-extension";
import { inTransaction, type DbOrTx, type Tx } from "./transaction";
import { SpecInvalid, valid, validateToolkitSpec, type SpecIssue, type ValidToolkit } from "./validate";

export type AuthoredProvenance = "AUTHORED" | "GENERATED";

export interface CreateOptions {
  actorId: string;
  provenance: AuthoredProvenance;
  note?: string;
}

export interface UpdateOptions {
  actorId: string;
  /** The version the edit was made on: refused (409) when the toolkit has moved on since. */
  expectedVersion: number;
  note?: string;
}

const WHAT = "Toolkit spec";
const json = (v: unknown) => v as Prisma.InputJsonValue;
const cleanNote = (n: string | undefined) => n?.trim().slice(0, 500) || null;

export async function createToolkit(db: DbOrTx, spec: unknown, opts: CreateOptions): Promise<{ toolkitId: string; version: number }> {
  const v = valid(validateToolkitSpec(spec), WHAT);
  return inTransaction(db, async (tx) => {
    const row = toolkitRow(v.parsed, v.spec);
    if (await tx.toolkit.findUnique({ where: { name: row.name }, select: { id: true } })) {
      throw new SpecInvalid(WHAT, [{ path: "toolkit", message: `a toolkit named "${row.name}" exists already: edit it, or choose another name` }]);
    }
    await refuseUsedAgentNames(tx, v, null);
    const { tools, ...fields } = row;
    const tk = await tx.toolkit.create({ data: { ...fields, raw: json(v.spec), provenance: opts.provenance, currentVersion: 1 }, select: { id: true } });
    await syncTools(tx, tk.id, v, tools, opts.actorId);
    await tx.toolkitVersion.create({ data: { toolkitId: tk.id, version: 1, spec: json(v.spec), contentHash: row.contentHash, note: cleanNote(opts.note), createdById: opts.actorId } });
    await recordAudit(tx, { actorId: opts.actorId, action: "toolkit.create", entityType: "Toolkit", entityId: tk.id, after: { name: row.name, version: 1, provenance: opts.provenance, contentHash: row.contentHash, note: cleanNote(opts.note) } });
    return { toolkitId: tk.id, version: 1 };
  });
}

export async function updateToolkit(db: DbOrTx, toolkitId: string, spec: unknown, opts: UpdateOptions): Promise<{ toolkitId: string; version: number }> {
  const v = valid(validateToolkitSpec(spec), WHAT);
  return inTransaction(db, async (tx) => {
    const current = await tx.toolkit.findUnique({ where: { id: toolkitId }, select: { name: true, currentVersion: true, contentHash: true } });
    if (!current) throw new AppError("This toolkit does not exist (any more).", 404);
    const row = toolkitRow(v.parsed, v.spec);
    // Cases name their toolkits in their own JSON, and imported trajectories name them too.
    if (row.name !== current.name) throw new SpecInvalid(WHAT, [{ path: "toolkit", message: `a toolkit cannot be renamed (cases refer to "${current.name}" by name); create a new toolkit instead` }]);
    if (current.currentVersion !== opts.expectedVersion) throw conflict("toolkit", current.name, current.currentVersion, opts.expectedVersion);
    if (row.contentHash === current.contentHash) throw new AppError(`Nothing to save: the spec is the same as version ${current.currentVersion}.`, 422);
    await refuseUsedAgentNames(tx, v, toolkitId);
    const version = current.currentVersion + 1;
    const { tools, ...fields } = row;
    // The version check again, in the write: two editors of the same version cannot both succeed.
    const { count } = await tx.toolkit.updateMany({
      where: { id: toolkitId, currentVersion: opts.expectedVersion },
      data: { nameForModel: fields.nameForModel, nameForHuman: fields.nameForHuman, descriptionForModel: fields.descriptionForModel, descriptionForHuman: fields.descriptionForHuman, category: fields.category, contentHash: fields.contentHash, raw: json(v.spec), currentVersion: version },
    });
    if (count !== 1) throw conflict("toolkit", current.name, version, opts.expectedVersion);
    await syncTools(tx, toolkitId, v, tools, opts.actorId);
    await tx.toolkitVersion.create({ data: { toolkitId, version, spec: json(v.spec), contentHash: row.contentHash, note: cleanNote(opts.note), createdById: opts.actorId } });
    await recordAudit(tx, {
      actorId: opts.actorId,
      action: "toolkit.edit",
      entityType: "Toolkit",
      entityId: toolkitId,
      before: { version: current.currentVersion, contentHash: current.contentHash },
      after: { version, contentHash: row.contentHash, note: cleanNote(opts.note) },
    });
    return { toolkitId, version };
  });
}

export function conflict(kind: "toolkit" | "case", name: string, now: number, expected: number): AppError {
  return new AppError(`The ${kind} "${name}" was changed by someone else while you edited it (it is at version ${now}, you edited version ${expected}). Reload to see their version; your text is not saved.`, 409);
}

/** The agent's tool names (name_for_model + tool name) are unique across toolkits. */
async function refuseUsedAgentNames(tx: Tx, v: ValidToolkit, toolkitId: string | null) {
  const names = v.parsed.tools.map((t) => `${v.parsed.name_for_model}${t.name}`);
  const used = await tx.tool.findMany({ where: { agentName: { in: names }, ...(toolkitId ? { toolkitId: { not: toolkitId } } : {}) }, select: { agentName: true, toolkit: { select: { name: true } } } });
  if (!used.length) return;
  const by = new Map(used.map((u) => [u.agentName, u.toolkit.name]));
  const issues: SpecIssue[] = [];
  names.forEach((n, i) => {
    if (by.has(n)) issues.push({ path: `tools[${i}].name`, message: `the agent's name for this tool, ${n}, is already used by toolkit ${by.get(n)}` });
  });
  throw new SpecInvalid(WHAT, issues);
}

type ToolRow = ReturnType<typeof toolkitRow>["tools"][number];

/**
 * The Tool rows become the version's tools. A tool keeps its row (and id) by name; its curated
 * risk stays unless its amount argument is gone; risk metadata in the JSON (x_toolemu_studio) is
 * applied as curated by the editor.
 */
async function syncTools(tx: Tx, toolkitId: string, v: ValidToolkit, tools: ToolRow[], actorId: string) {
  const existing = await tx.tool.findMany({ where: { toolkitId }, select: { id: true, name: true, amountArg: true } });
  const wanted = new Set(tools.map((t) => t.name));
  const gone = existing.filter((t) => !wanted.has(t.name)).map((t) => t.id);
  if (gone.length) await tx.tool.deleteMany({ where: { id: { in: gone } } });
  const kept = existing.filter((t) => wanted.has(t.name));
  // Free the kept tools' agent names first, so a new name_for_model cannot collide mid-way.
  for (const t of kept) await tx.tool.update({ where: { id: t.id }, data: { agentName: `pending:${t.id}` } });
  const byName = new Map(kept.map((t) => [t.name, t]));
  for (const t of tools) {
    const data = { position: t.position, agentName: t.agentName, summary: t.summary, parameters: json(t.parameters), returns: json(t.returns), exceptions: json(t.exceptions), ...riskColumns(v.risks.get(t.name), actorId) };
    const old = byName.get(t.name);
    if (!old) {
      await tx.tool.create({ data: { ...data, name: t.name, toolkitId } });
      continue;
    }
    const amountGone = old.amountArg !== null && !t.parameters.some((p) => p.name === old.amountArg);
    await tx.tool.update({ where: { id: old.id }, data: { ...data, ...(amountGone && !v.risks.has(t.name) ? { amountArg: null } : {}) } });
  }
}

function riskColumns(r: ToolRiskExtension | undefined, actorId: string) {
  if (!r) return {};
  return { riskLevel: r.risk_level.toUpperCase() as "NONE" | "MILD" | "SEVERE", critical: r.critical, amountArg: r.amount_arg, riskCuratedById: actorId, riskCuratedAt: r.curated_at ? new Date(r.curated_at) : new Date() };
}
