// Claiming, drafting, submitting and skipping items. The invariants:
//   * one assignment per (item, annotator) — a unique index;
//   * an item never has more than k submitted labels, or k live claims plus submissions —
//     claims lock the item row (FOR UPDATE SKIP LOCKED), submissions re-check under that lock;
//   * a claim holds a lease; an expired lease frees the place for someone else.
// The common paths are a few hand-written statements each (claim: one to check the campaign and
// lock a candidate, one to re-check and insert — loading the blinded item in the same statement;
// submit: one to lock, one to write the label and its audit entry), because annotators wait on
// them; the rare paths (expired claims of one's own) keep the plain step-by-step code.
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { UserNotVerified, type Caller } from "@/lib/auth/guard";
import { callerOkSql } from "@/lib/auth/sessions";
import { AppError } from "@/lib/errors";
import { canonicalJson } from "@/lib/toolemu/canonical";
import { ITEM_CONTENT_COLUMNS, ITEM_CONTENT_JOINS, toBlindedItem, type BlindedItem, type ItemContentRow } from "./blinded";
import { redactIfAsked } from "./redact";
import { dropHiddenValues, stepAnswerProblems, type LabelValues } from "@/lib/trajectory/label-schema";
import { campaignSchema, schemaColumn, type CompiledSchema } from "./schema-cache";
import { decideQualification, pickGold } from "./quality/claim";

export const LEASE_MS = 30 * 60_000;

const LATE_REASON = "lease expired; the item was completed by others";

type Tx = Prisma.TransactionClient;

/**
 * The annotator: a user id, or the guard's caller. Under the guard's deferred check the first
 * statement checks the user row too (callerOkSql) and throws UserNotVerified, rolling the
 * transaction back, when it fails — the guard then answers the ordinary way.
 */
export type Annotator = string | Caller;
const idOf = (a: Annotator) => (typeof a === "string" ? a : a.id);

/** Ids like Prisma's cuid() default (the column has no database default): 'c' + time + randomness. */
function newAssignmentId(): string {
  const rand = BigInt(`0x${randomBytes(10).toString("hex")}`).toString(36).padStart(16, "0").slice(-16);
  return `c${Date.now().toString(36).padStart(8, "0")}${rand}`;
}

/** Dates as the timestamp(3) columns hold them (UTC), whatever the session's time zone. */
const ts = (d: Date) => Prisma.sql`${d.toISOString().replace("T", " ").replace("Z", "")}::timestamp(3)`;

/** The wall clock, for "updatedAt" and audit times (as Prisma would set them), whatever `now` says. */
const wallClock = () => ts(new Date());

/** Submitted labels plus live claims on an item (SQL, for the item `itemExpr`). */
const liveCountSql = (itemExpr: Prisma.Sql, now: Date) => Prisma.sql`
  (SELECT count(*) FROM "Assignment" a
    WHERE a."itemId" = ${itemExpr}
      AND (a.status = 'SUBMITTED' OR (a.status = 'CLAIMED' AND a."leaseUntil" > ${ts(now)})))`;

interface CampaignRow {
  callerOk: boolean;
  id: string;
  name: string;
  guidelines: string;
  k: number;
  seed: number;
  status: string;
  redactModelNames: boolean;
  schemaVersion: number;
  labelSchema: unknown;
  /** Annotator quality (quality/claim.ts): gold share and qualification round size. */
  goldRate: number;
  qualificationItems: number;
  /** The annotator's claims in this campaign (normally none or one). */
  mine: bigint;
  /** The oldest of them, and whether its lease still runs. */
  mineId: string | null;
  mineItemId: string | null;
  mineLive: boolean | null;
  /** A free item, locked for this transaction; only looked for when there is no claim of one's own. */
  candidate: string | null;
}

type Claimed = { assignmentId: string; itemId: string };

/**
 * Claims within the transaction: the annotator's live claim if they have one (a reload or a
 * second tab resumes it), otherwise a newly claimed item, or null when nothing is left for them.
 * With `load`, the blinded item comes back too, read in the same statement as the claim.
 */
async function claimIn(tx: Tx, campaignId: string, annotator: Annotator, now: Date, load: boolean): Promise<(Claimed & { item?: BlindedItem }) | null> {
  const userId = idOf(annotator);
  const lease = new Date(now.getTime() + LEASE_MS);
  const [c] = await tx.$queryRaw<CampaignRow[]>`
    WITH caller AS (SELECT ${callerOkSql(annotator)} AS ok),
    c AS (
      SELECT c.id, c.name, c.guidelines, c.k, c.seed, c.status::text AS status, c."redactModelNames", c."goldRate", c."qualificationItems",
             c."labelSchemaVersion" AS "schemaVersion", ${schemaColumn(campaignId)} AS "labelSchema"
      FROM "Campaign" c
      WHERE c.id = ${campaignId}
        AND (SELECT ok FROM caller)
        AND EXISTS (SELECT 1 FROM "CampaignMember" m WHERE m."campaignId" = c.id AND m."userId" = ${userId})
    ),
    mine AS (
      SELECT a.id, a."itemId", a."leaseUntil" > ${ts(now)} AS live, a."claimedAt"
      FROM "Assignment" a
      WHERE a."campaignId" = ${campaignId} AND a."annotatorId" = ${userId} AND a.status = 'CLAIMED'
    ),
    first_mine AS (SELECT * FROM mine ORDER BY "claimedAt" ASC, id LIMIT 1),
    -- Candidates in this annotator's seeded order. The count here sees the snapshot from the
    -- statement's start, so after taking the row's lock the count is checked again (a new
    -- statement sees what other transactions committed meanwhile) before the claim is made.
    cand AS (
      SELECT ci.id FROM "CampaignItem" ci
      WHERE ci."campaignId" = ${campaignId}
        AND NOT EXISTS (SELECT 1 FROM mine)
        AND EXISTS (SELECT 1 FROM c WHERE c.status <> 'LOCKED')
        AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = ci.id AND a."annotatorId" = ${userId})
        AND NOT EXISTS (SELECT 1 FROM "GoldAnswer" g WHERE g."itemId" = ci.id)
        AND ${liveCountSql(Prisma.sql`ci.id`, now)} < (SELECT k FROM c)
      ORDER BY md5((SELECT seed FROM c)::text || ':' || ${userId} || ':' || ci.id)
      LIMIT 1
      FOR UPDATE OF ci SKIP LOCKED
    )
    SELECT caller.ok AS "callerOk", c.*,
           (SELECT count(*) FROM mine) AS mine,
           (SELECT id FROM first_mine) AS "mineId",
           (SELECT "itemId" FROM first_mine) AS "mineItemId",
           (SELECT live FROM first_mine) AS "mineLive",
           (SELECT id FROM cand) AS candidate
    FROM caller LEFT JOIN c ON true`;
  if (!c?.callerOk) throw new UserNotVerified();
  if (!c.id) throw new AppError("You are not invited to this campaign.", 403);
  if (c.status === "LOCKED") throw new AppError("This campaign is locked; labels can no longer be added.", 409);
  const schema = await campaignSchema(tx, c.id, c.schemaVersion, c.labelSchema);

  // The annotator's own live claim: extend the lease, resume it.
  if (c.mineId && c.mineItemId && c.mineLive) return resume(tx, c, schema, c.mineId, c.mineItemId, now, lease, load);
  // Expired claims of one's own (rare): the step-by-step way.
  if (Number(c.mine) > 0) {
    const mine = await tx.assignment.findMany({
      where: { campaignId, annotatorId: userId, status: "CLAIMED" },
      orderBy: { claimedAt: "asc" },
      select: { id: true, itemId: true, leaseUntil: true, item: { select: { gold: { select: { itemId: true } } } } },
    });
    for (const a of mine) {
      // Everyone labels a gold item: no k to reach.
      if ((a.leaseUntil && a.leaseUntil > now) || a.item.gold || (await liveCount(tx, a.itemId, now, a.id)) < c.k) {
        return resume(tx, c, schema, a.id, a.itemId, now, lease, load);
      }
      // Completed by others meanwhile: let it go.
      await tx.assignment.update({ where: { id: a.id }, data: { status: "SKIPPED", skipReason: LATE_REASON, leaseUntil: null } });
    }
  }

  const skipped: string[] = [];
  let candidate = Number(c.mine) > 0 ? await nextCandidate(tx, c, userId, now, skipped) : c.candidate;
  // A gold item in its place (the qualification round, or a seeded gold slot), or nothing at all
  // for someone who failed the round.
  const gold = await pickGold(tx, c, userId, candidate !== null);
  if (gold === "blocked") return null;
  if (gold) {
    const id = newAssignmentId();
    const rows = await tx.$queryRaw<(ItemContentRow & { id: string })[]>`
      WITH ins AS (
        INSERT INTO "Assignment" (id, "campaignId", "itemId", "annotatorId", status, "leaseUntil", "claimedAt", "updatedAt", "timeSpentMs", qualification)
        VALUES (${id}, ${c.id}, ${gold.itemId}, ${userId}, 'CLAIMED'::"AssignmentStatus", ${ts(lease)}, ${ts(now)}, ${wallClock()}, 0, ${gold.qualification})
        RETURNING id
      )
      SELECT ins.id${load ? Prisma.sql`, ${ITEM_CONTENT_COLUMNS}` : Prisma.empty}
      FROM ins${load ? Prisma.sql` CROSS JOIN "CampaignItem" ci ${ITEM_CONTENT_JOINS} WHERE ci.id = ${gold.itemId}` : Prisma.empty}`;
    const claimed = { assignmentId: id, itemId: gold.itemId };
    if (!load) return claimed;
    const assignment = { id, status: "CLAIMED", draft: null, values: null, timeSpentMs: 0, leaseUntil: lease, draftUpdatedAt: null };
    return { ...claimed, item: toBlindedItem(rows[0]!, assignment, c, schema) };
  }
  for (let attempt = 0; candidate && attempt < 20; attempt++) {
    const id = newAssignmentId();
    // The re-check and the claim in one statement, under the item's lock.
    const rows = await tx.$queryRaw<(ItemContentRow & { id: string })[]>`
      WITH ins AS (
        INSERT INTO "Assignment" (id, "campaignId", "itemId", "annotatorId", status, "leaseUntil", "claimedAt", "updatedAt", "timeSpentMs")
        SELECT ${id}, ${c.id}, ${candidate}, ${userId}, 'CLAIMED'::"AssignmentStatus", ${ts(lease)}, ${ts(now)}, ${wallClock()}, 0
        WHERE ${liveCountSql(Prisma.sql`${candidate}`, now)} < ${c.k}
        RETURNING id
      )
      SELECT ins.id${load ? Prisma.sql`, ${ITEM_CONTENT_COLUMNS}` : Prisma.empty}
      FROM ins${load ? Prisma.sql` CROSS JOIN "CampaignItem" ci ${ITEM_CONTENT_JOINS} WHERE ci.id = ${candidate}` : Prisma.empty}`;
    const row = rows[0];
    if (row) {
      const claimed = { assignmentId: id, itemId: candidate };
      if (!load) return claimed;
      const assignment = { id, status: "CLAIMED", draft: null, values: null, timeSpentMs: 0, leaseUntil: lease, draftUpdatedAt: null };
      return { ...claimed, item: toBlindedItem(row, assignment, c, schema) };
    }
    skipped.push(candidate);
    candidate = await nextCandidate(tx, c, userId, now, skipped);
  }
  return null;
}

/** The next free item in the annotator's order, locked (the slow paths' candidate query). */
async function nextCandidate(tx: Tx, c: CampaignRow, userId: string, now: Date, skipped: string[]): Promise<string | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT ci.id FROM "CampaignItem" ci
    WHERE ci."campaignId" = ${c.id}
      AND NOT (ci.id = ANY(${skipped}::text[]))
      AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = ci.id AND a."annotatorId" = ${userId})
      AND NOT EXISTS (SELECT 1 FROM "GoldAnswer" g WHERE g."itemId" = ci.id)
      AND ${liveCountSql(Prisma.sql`ci.id`, now)} < ${c.k}
    ORDER BY md5(${String(c.seed)} || ':' || ${userId} || ':' || ci.id)
    LIMIT 1
    FOR UPDATE OF ci SKIP LOCKED`;
  return rows[0]?.id ?? null;
}

/** Extends the lease of one's own claim; with `load`, reads the blinded item in the same statement. */
async function resume(tx: Tx, c: CampaignRow, schema: CompiledSchema, assignmentId: string, itemId: string, now: Date, lease: Date, load: boolean) {
  type Row = ItemContentRow & { id: string; status: string; draft: unknown; values: unknown; timeSpentMs: number; leaseUntil: Date | null; draftUpdatedAt: Date | null };
  const rows = await tx.$queryRaw<Row[]>`
    WITH upd AS (
      UPDATE "Assignment" SET "leaseUntil" = ${ts(lease)}, "updatedAt" = ${wallClock()} WHERE id = ${assignmentId}
      RETURNING id, status::text AS status, draft, values, "timeSpentMs", "leaseUntil", "draftUpdatedAt"
    )
    SELECT upd.*${load ? Prisma.sql`, ${ITEM_CONTENT_COLUMNS}` : Prisma.empty}
    FROM upd${load ? Prisma.sql` CROSS JOIN "CampaignItem" ci ${ITEM_CONTENT_JOINS} WHERE ci.id = ${itemId}` : Prisma.empty}`;
  const claimed = { assignmentId, itemId };
  return load ? { ...claimed, item: toBlindedItem(rows[0]!, rows[0]!, c, schema) } : claimed;
}

/**
 * The annotator's current item: their live claim if they have one (a reload or a second tab
 * resumes it), otherwise a newly claimed item, or null when nothing is left for them.
 */
export async function claimNext(db: Db, campaignId: string, userId: string, now = new Date()): Promise<Claimed | null> {
  return db.$transaction(async (tx) => {
    const claim = await claimIn(tx, campaignId, userId, now, false);
    return claim && { assignmentId: claim.assignmentId, itemId: claim.itemId };
  });
}

/** claimNext, with the claimed item blinded as the annotation screen shows it (one transaction). */
export async function claimNextItem(db: Db, campaignId: string, annotator: Annotator, now = new Date()): Promise<BlindedItem | null> {
  return db.$transaction(async (tx) => {
    const item = (await claimIn(tx, campaignId, annotator, now, true))?.item;
    return item ? redactIfAsked(tx, item) : null;
  });
}

/** Submitted labels plus live claims on an item, leaving one assignment out. */
async function liveCount(tx: Tx, itemId: string, now: Date, exceptAssignmentId?: string): Promise<number> {
  return tx.assignment.count({
    where: {
      itemId,
      ...(exceptAssignmentId ? { id: { not: exceptAssignmentId } } : {}),
      OR: [{ status: "SUBMITTED" }, { status: "CLAIMED", leaseUntil: { gt: now } }],
    },
  });
}

interface Own {
  id: string;
  annotatorId: string;
  itemId: string;
  status: "CLAIMED" | "SUBMITTED" | "SKIPPED";
  values: unknown;
  timeSpentMs: number;
  k: number;
  campaignId: string;
  campaignStatus: string;
  schemaVersion: number;
  labelSchema: unknown;
  /** The item's trajectory's steps (per-step label fields answer each). */
  stepCount: number;
  /** A qualification-round item / a gold item (quality/claim.ts). */
  qualification: boolean;
  gold: boolean;
}

/**
 * The user's assignment, row-locked: a double click or a retried request runs after the first,
 * not beside it. With `lockItem` the item's row is locked too (submissions re-check the number
 * of labels under it, so two submissions can never both be the k-th).
 */
async function ownAssignment(tx: Tx, assignmentId: string, annotator: Annotator, opts: { lockItem?: boolean } = {}): Promise<Own & { schema: CompiledSchema }> {
  const [a] = await tx.$queryRaw<(Own & { callerOk: boolean })[]>`
    WITH caller AS (SELECT ${callerOkSql(annotator)} AS ok)
    SELECT caller.ok AS "callerOk", x.* FROM caller LEFT JOIN (
      SELECT a.id, a."annotatorId", a."itemId", a.status::text AS status, a.values, a."timeSpentMs",
             c.k, c.id AS "campaignId", c.status::text AS "campaignStatus",
             c."labelSchemaVersion" AS "schemaVersion", ${schemaColumn()} AS "labelSchema", coalesce(t."stepCount", 0) AS "stepCount",
             a.qualification, EXISTS (SELECT 1 FROM "GoldAnswer" g WHERE g."itemId" = a."itemId") AS gold
      FROM "Assignment" a
      JOIN "Campaign" c ON c.id = a."campaignId"
      JOIN "CampaignItem" ci ON ci.id = a."itemId"
      LEFT JOIN "Trajectory" t ON t.id = ci."trajectoryId"
      WHERE a.id = ${assignmentId} AND (SELECT ok FROM caller)
      ${opts.lockItem ? Prisma.sql`FOR UPDATE OF a, ci` : Prisma.sql`FOR UPDATE OF a`}
    ) x ON true`;
  if (!a?.callerOk) throw new UserNotVerified();
  if (!a.id || a.annotatorId !== idOf(annotator)) throw new AppError("No such item in your queue.", 404);
  if (a.campaignStatus === "LOCKED") throw new AppError("This campaign is locked; labels can no longer be changed.", 409);
  return { ...a, schema: await campaignSchema(tx, a.campaignId, a.schemaVersion, a.labelSchema) };
}

const json = (v: unknown) => Prisma.sql`${JSON.stringify(v)}::jsonb`;

export async function saveDraft(db: Db, annotator: Annotator, assignmentId: string, draft: LabelValues, timeSpentMs: number, now = new Date()) {
  return db.$transaction(async (tx) => {
    const a = await ownAssignment(tx, assignmentId, annotator);
    const parsed = a.schema.partial.safeParse(draft);
    if (!parsed.success) throw new AppError(parsed.error.issues[0]?.message ?? "Invalid draft.", 400);
    const steps = stepAnswerProblems(a.schema.schema, parsed.data as LabelValues, a.stepCount, { partial: true });
    if (steps.length) throw new AppError(steps[0]!, 400);
    // Working on it keeps the place.
    const lease = a.status === "CLAIMED" ? ts(new Date(now.getTime() + LEASE_MS)) : Prisma.sql`"leaseUntil"`;
    await tx.$executeRaw`
      UPDATE "Assignment"
      SET draft = ${json(parsed.data)}, "draftUpdatedAt" = ${ts(now)}, "timeSpentMs" = GREATEST("timeSpentMs", ${timeSpentMs}::int),
          "leaseUntil" = ${lease}, "updatedAt" = ${wallClock()}
      WHERE id = ${a.id}`;
    return { savedAt: now.toISOString() };
  });
}

/**
 * Stores the label. Idempotent: submitting the same values again changes nothing. Submitting
 * other values for an already submitted item is a revision, written to the audit log.
 */
export async function submitLabel(db: Db, annotator: Annotator, assignmentId: string, values: LabelValues, timeSpentMs: number, now = new Date()) {
  const result = await submitInTransaction(db, annotator, assignmentId, values, timeSpentMs, now);
  if (result.status === "completed_by_others") {
    throw new AppError("Your claim on this item expired and others completed it meanwhile; your answers are kept as a draft. Go on with the next item.", 409);
  }
  return result as { status: "submitted" | "unchanged" | "revised" };
}

function submitInTransaction(db: Db, annotator: Annotator, assignmentId: string, values: LabelValues, timeSpentMs: number, now: Date) {
  const userId = idOf(annotator);
  return db.$transaction(async (tx) => {
    // The item's lock too: under it, two submissions can never both be the k-th.
    const a = await ownAssignment(tx, assignmentId, annotator, { lockItem: true });
    const parsed = a.schema.full.safeParse(values);
    if (!parsed.success) throw new AppError(parsed.error.issues.map((i) => i.message).join(" "), 400);
    const steps = stepAnswerProblems(a.schema.schema, parsed.data as LabelValues, a.stepCount, { partial: false });
    if (steps.length) throw new AppError(steps.join(" "), 400);
    // A field hidden by its condition keeps no value (an answer given before the condition changed).
    const clean = dropHiddenValues(a.schema.schema, parsed.data as LabelValues);
    const before = typeof a.values === "string" ? (JSON.parse(a.values) as unknown) : a.values;
    if (a.status === "SUBMITTED") {
      // jsonb reorders keys, so compare canonical forms.
      if (canonicalJson(before) === canonicalJson(clean)) return { status: "unchanged" as const };
      await tx.$executeRaw`
        WITH upd AS (
          UPDATE "Assignment" SET values = ${json(clean)}, draft = NULL, "labelSchemaVersion" = ${a.schemaVersion}::int, "timeSpentMs" = GREATEST("timeSpentMs", ${timeSpentMs}::int), "updatedAt" = ${wallClock()}
          WHERE id = ${a.id} RETURNING id
        )
        INSERT INTO "AuditLog" ("actorId", action, "entityType", "entityId", before, after, at)
        SELECT ${userId}, 'label.revise', 'Assignment', upd.id, ${json(before)}, ${json(clean)}, ${wallClock()} FROM upd`;
      return { status: "revised" as const };
    }
    if (a.status === "SKIPPED") throw new AppError("You skipped this item.", 409);
    // A new statement, so the count sees every submission committed before the item's lock was
    // ours. When the item already has its k labels (this claim's lease ran out and others
    // completed it), the answers stay as a draft and the claim is released — committed, not
    // thrown, which would roll it back — so the next claim gives this annotator another item.
    const [r] = await tx.$queryRaw<{ status: string }[]>`
      WITH n AS (SELECT (count(*) < ${a.k} OR ${a.gold}) AS ok FROM "Assignment" WHERE "itemId" = ${a.itemId} AND status = 'SUBMITTED'),
      upd AS (
        UPDATE "Assignment" x SET
          status = (CASE WHEN n.ok THEN 'SUBMITTED' ELSE 'SKIPPED' END)::"AssignmentStatus",
          values = CASE WHEN n.ok THEN ${json(clean)} ELSE x.values END,
          "labelSchemaVersion" = CASE WHEN n.ok THEN ${a.schemaVersion}::int ELSE x."labelSchemaVersion" END,
          -- The label supersedes the draft: going back to the item shows what was submitted.
          draft = CASE WHEN n.ok THEN NULL ELSE ${json(clean)} END,
          "submittedAt" = CASE WHEN n.ok THEN ${ts(now)} ELSE x."submittedAt" END,
          "timeSpentMs" = CASE WHEN n.ok THEN GREATEST(x."timeSpentMs", ${timeSpentMs}::int) ELSE x."timeSpentMs" END,
          "skipReason" = CASE WHEN n.ok THEN x."skipReason" ELSE ${LATE_REASON} END,
          "leaseUntil" = NULL,
          "updatedAt" = ${wallClock()}
        FROM n WHERE x.id = ${a.id}
        RETURNING x.status::text AS status
      ),
      audit AS (
        INSERT INTO "AuditLog" ("actorId", action, "entityType", "entityId", after, at)
        SELECT ${userId}, 'label.submit', 'Assignment', ${a.id}, ${json(clean)}, ${wallClock()} FROM upd WHERE upd.status = 'SUBMITTED'
      )
      SELECT status FROM upd`;
    // The round's last item decides it.
    if (a.qualification && r?.status === "SUBMITTED") await decideQualification(tx, a.campaignId, userId);
    return { status: r?.status === "SUBMITTED" ? ("submitted" as const) : ("completed_by_others" as const) };
  });
}

export async function skipItem(db: Db, annotator: Annotator, assignmentId: string, reason: string) {
  const userId = idOf(annotator);
  return db.$transaction(async (tx) => {
    const a = await ownAssignment(tx, assignmentId, annotator);
    if (a.status !== "CLAIMED") throw new AppError("Only an item you are working on can be skipped.", 409);
    if (a.qualification) throw new AppError("Items of the qualification round cannot be skipped: answer it as best you can.", 409);
    await tx.assignment.update({ where: { id: a.id }, data: { status: "SKIPPED", skipReason: reason, leaseUntil: null } });
    await recordAudit(tx, { actorId: userId, action: "label.skip", entityType: "Assignment", entityId: a.id, after: { reason } });
    return { skipped: true };
  });
}
