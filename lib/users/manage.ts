// User management core: used by the admin page's server actions and by the CLI.
import type { Db } from "@/lib/db/client";
import { hashPassword } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/permissions";
import { recordAudit } from "@/lib/audit/record";
import { END_SESSIONS } from "@/lib/auth/sessions";
import { AppError } from "@/lib/errors";
import type { CreateUserInput } from "./schemas";

export class UserError extends AppError {}

const publicFields = { id: true, email: true, name: true, role: true, disabled: true, createdAt: true } as const;

export type PublicUser = { id: string; email: string; name: string; role: Role; disabled: boolean; createdAt: Date };

export async function listUsers(db: Db): Promise<PublicUser[]> {
  return db.user.findMany({ select: publicFields, orderBy: [{ role: "asc" }, { email: "asc" }] });
}

export async function createUser(db: Db, actorId: string | null, input: CreateUserInput): Promise<PublicUser> {
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const exists = await tx.user.findUnique({ where: { email: input.email }, select: { id: true } });
    if (exists) throw new UserError(`A user with email ${input.email} already exists.`, 409);
    const user = await tx.user.create({
      data: { email: input.email, name: input.name, role: input.role, passwordHash },
      select: publicFields,
    });
    await recordAudit(tx, { actorId, action: "user.create", entityType: "User", entityId: user.id, after: user });
    return user;
  });
}

export async function changeRole(db: Db, actorId: string | null, userId: string, role: Role): Promise<PublicUser> {
  return db.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId }, select: publicFields });
    if (!before) throw new UserError("No such user.", 404);
    if (before.role === "ADMIN" && role !== "ADMIN") await assertAnotherAdmin(tx, userId);
    const after = await tx.user.update({ where: { id: userId }, data: { role, ...END_SESSIONS }, select: publicFields });
    await recordAudit(tx, { actorId, action: "user.role", entityType: "User", entityId: userId, before, after });
    return after;
  });
}

export async function resetPassword(db: Db, actorId: string | null, userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true } });
    if (!user) throw new UserError("No such user.", 404);
    await tx.user.update({ where: { id: userId }, data: { passwordHash, ...END_SESSIONS } });
    // The hash itself never goes to the audit log.
    await recordAudit(tx, { actorId, action: "user.password_reset", entityType: "User", entityId: userId });
  });
}

export async function setDisabled(db: Db, actorId: string | null, userId: string, disabled: boolean): Promise<PublicUser> {
  return db.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId }, select: publicFields });
    if (!before) throw new UserError("No such user.", 404);
    if (disabled && before.role === "ADMIN") await assertAnotherAdmin(tx, userId);
    const after = await tx.user.update({ where: { id: userId }, data: { disabled, ...END_SESSIONS }, select: publicFields });
    await recordAudit(tx, { actorId, action: disabled ? "user.disable" : "user.enable", entityType: "User", entityId: userId, before, after });
    return after;
  });
}

// An installation must keep at least one active admin, or nobody can manage users again.
async function assertAnotherAdmin(tx: Pick<Db, "user">, userId: string) {
  const others = await tx.user.count({ where: { role: "ADMIN", disabled: false, id: { not: userId } } });
  if (others === 0) throw new UserError("This is the last active admin; make another admin first.", 409);
}
