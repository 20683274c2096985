// The review queue's three decisions on a generated item — accept (as generated, or as edited),
// save an edit, reject — each with who and when. Accepting creates the toolkit or case with
// provenance GENERATED through lib/toolemu/authoring, in the same transaction that marks the item,
// so an item is never ACCEPTED without its toolkit/case nor the reverse. An item already decided
// by someone else is refused (409) rather than decided twice.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { createCase, createToolkit } from "@/lib/toolemu/authoring";
import { TOOLEMU_SOURCE } from "@/lib/toolemu/normalize";
import { loadToolkitNames } from "./context";
import { validateGeneratedCase, validateGeneratedToolkit, type Validation } from "./validate";

type Tx = Prisma.TransactionClient;
const json = (v: unknown) => v as Prisma.InputJsonValue;

async function loadItem(db: Db | Tx, id: string) {
  const item = await db.generatedItem.findUnique({
    where: { id },
    select: { id: true, jobId: true, position: true, kind: true, status: true, payload: true, editedPayload: true, reviewedAt: true, reviewer: { select: { name: true } } },
  });
  if (!item) throw new AppError("This generated item does not exist (any more).", 404);
  return item;
}

function refuseDecided(item: { status: string; reviewer: { name: string } | null; reviewedAt: Date | null }) {
  if (item.status === "PENDING") return;
  const who = item.reviewer?.name ?? "someone";
  throw new AppError(`This item was already ${item.status.toLowerCase()} by ${who}${item.reviewedAt ? ` at ${item.reviewedAt.toISOString().slice(0, 16).replace("T", " ")} UTC` : ""}.`, 409);
}

/** Validation of a payload for this item's kind, against what is stored now. */
export async function validateForItem(db: Db | Tx, kind: "TOOLKIT" | "CASE", payload: unknown): Promise<Validation> {
  if (kind === "TOOLKIT") return validateGeneratedToolkit(payload, new Set(await loadToolkitNames(db as Db)));
  const [toolkits, cases] = await Promise.all([
    loadToolkitNames(db as Db),
    db.testCase.findMany({ where: { source: TOOLEMU_SOURCE }, select: { name: true } }),
  ]);
  return validateGeneratedCase(payload, new Set(toolkits), new Set(cases.map((c) => c.name)));
}

/** Stores the reviewer's edited JSON (still PENDING) with its validation; the item keeps what was generated. */
export async function saveItemEdit(db: Db, id: string, payload: unknown, actorId: string): Promise<Validation> {
  const item = await loadItem(db, id);
  refuseDecided(item);
  const validation = await validateForItem(db, item.kind, payload);
  const { count } = await db.generatedItem.updateMany({ where: { id, status: "PENDING" }, data: { editedPayload: json(payload), validation: json(validation), valid: validation.ok } });
  if (count !== 1) refuseDecided(await loadItem(db, id));
  await recordAudit(db, { actorId, action: "generated.edit", entityType: "GeneratedItem", entityId: id, after: { valid: validation.ok, issues: validation.issues.length } });
  return validation;
}

export interface AcceptResult {
  toolkitId: string | null;
  caseId: string | null;
  name: string;
}

/**
 * Accepts the item: `payload` (the editor's JSON) when given, else the stored edit, else what was
 * generated. An invalid one is refused with its fields named (SpecInvalid, 422) and nothing changes.
 */
export async function acceptItem(db: Db, id: string, actorId: string, opts: { payload?: unknown; note?: string } = {}): Promise<AcceptResult> {
  return db.$transaction(async (tx) => {
    const item = await loadItem(tx, id);
    refuseDecided(item);
    const payload = opts.payload !== undefined ? opts.payload : (item.editedPayload ?? item.payload);
    if (payload === null || payload === undefined) throw new AppError("This item holds no JSON to accept: edit it first (paste or write the JSON).", 422);
    const edited = opts.payload !== undefined || item.editedPayload !== null;
    const note = `Generated (job ${item.jobId}, item ${item.position + 1})${edited ? ", edited in review" : ""}${opts.note?.trim() ? `: ${opts.note.trim()}` : ""}`;
    const created =
      item.kind === "TOOLKIT"
        ? { toolkitId: (await createToolkit(tx, payload, { actorId, provenance: "GENERATED", note })).toolkitId, caseId: null }
        : { toolkitId: null, caseId: (await createCase(tx, payload, { actorId, provenance: "GENERATED", note })).caseId };
    const { count } = await tx.generatedItem.updateMany({
      where: { id, status: "PENDING" },
      data: {
        status: "ACCEPTED",
        reviewerId: actorId,
        reviewedAt: new Date(),
        reviewNote: opts.note?.trim() || null,
        ...(opts.payload !== undefined ? { editedPayload: json(opts.payload) } : {}),
        validation: json({ ok: true, issues: [] }),
        valid: true,
        ...created,
      },
    });
    if (count !== 1) refuseDecided(await loadItem(tx, id));
    await recordAudit(tx, { actorId, action: "generated.accept", entityType: "GeneratedItem", entityId: id, after: { ...created, edited } });
    const name = typeof (payload as Record<string, unknown>)[item.kind === "TOOLKIT" ? "toolkit" : "name"] === "string" ? String((payload as Record<string, unknown>)[item.kind === "TOOLKIT" ? "toolkit" : "name"]) : "";
    return { ...created, name };
  });
}

export async function rejectItem(db: Db, id: string, actorId: string, note?: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const item = await loadItem(tx, id);
    refuseDecided(item);
    const { count } = await tx.generatedItem.updateMany({ where: { id, status: "PENDING" }, data: { status: "REJECTED", reviewerId: actorId, reviewedAt: new Date(), reviewNote: note?.trim() || null } });
    if (count !== 1) refuseDecided(await loadItem(tx, id));
    await recordAudit(tx, { actorId, action: "generated.reject", entityType: "GeneratedItem", entityId: id, after: { note: note?.trim() || null } });
  });
}
