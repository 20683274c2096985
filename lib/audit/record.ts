// The audit trail: who changed what, when, with the state before and after.
import type { Prisma } from "@/lib/db/generated/client";

type Tx = Pick<Prisma.TransactionClient, "auditLog">;

export interface AuditEntry {
  actorId: string | null;
  action: string;
  entityType: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

export async function recordAudit(tx: Tx, e: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      actorId: e.actorId,
      action: e.action,
      entityType: e.entityType,
      entityId: e.entityId ?? null,
      before: toJson(e.before),
      after: toJson(e.after),
    },
  });
}

function toJson(v: unknown): Prisma.InputJsonValue | undefined {
  return v === undefined || v === null ? undefined : (JSON.parse(JSON.stringify(v)) as Prisma.InputJsonValue);
}
