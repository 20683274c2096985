import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { verifyPassword } from "@/lib/auth/password";
import { changeRole, createUser, listUsers, resetPassword, setDisabled, UserError } from "./manage";
import { createUserSchema } from "./schemas";

let t: TestDatabase;
let adminId: string;
beforeAll(async () => {
  t = await createTestDatabase();
  adminId = (await createUser(t.prisma, null, { email: "root@lab.example", name: "Root", role: "ADMIN", password: "root-password" })).id;
});
afterAll(() => t.cleanup());

describe("user management", () => {
  it("creates a user with a bcrypt hash and an audit entry without the password", async () => {
    const u = await createUser(t.prisma, adminId, { email: "a@lab.example", name: "A", role: "ANNOTATOR", password: "a-password-1" });
    const row = await t.prisma.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(row.passwordHash).toMatch(/^\$2[aby]\$/);
    expect(await verifyPassword("a-password-1", row.passwordHash)).toBe(true);
    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { entityId: u.id, action: "user.create" } });
    expect(audit.actorId).toBe(adminId);
    expect(JSON.stringify(audit.after)).not.toMatch(/password/i);
    expect(audit.after).toMatchObject({ email: "a@lab.example", role: "ANNOTATOR" });
  });

  it("refuses a duplicate email with 409 and writes nothing", async () => {
    const before = await t.prisma.auditLog.count();
    const err = await createUser(t.prisma, adminId, { email: "a@lab.example", name: "Again", role: "PI", password: "x-password-1" }).catch((e) => e);
    expect(err).toBeInstanceOf(UserError);
    expect(err.status).toBe(409);
    expect(await t.prisma.auditLog.count()).toBe(before);
  });

  it("records role changes with before and after", async () => {
    const u = await createUser(t.prisma, adminId, { email: "b@lab.example", name: "B", role: "ANNOTATOR", password: "b-password-1" });
    await changeRole(t.prisma, adminId, u.id, "PI");
    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { entityId: u.id, action: "user.role" } });
    expect(audit.before).toMatchObject({ role: "ANNOTATOR" });
    expect(audit.after).toMatchObject({ role: "PI" });
  });

  it("resets a password", async () => {
    const u = await createUser(t.prisma, adminId, { email: "c@lab.example", name: "C", role: "PI", password: "c-password-1" });
    await resetPassword(t.prisma, adminId, u.id, "c-password-2");
    const row = await t.prisma.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(await verifyPassword("c-password-2", row.passwordHash)).toBe(true);
    expect(await verifyPassword("c-password-1", row.passwordHash)).toBe(false);
  });

  it("never removes the last active admin", async () => {
    const err = await changeRole(t.prisma, adminId, adminId, "PI").catch((e) => e);
    expect(err).toBeInstanceOf(UserError);
    expect(err.status).toBe(409);
    expect((await setDisabled(t.prisma, adminId, adminId, true).catch((e) => e)).status).toBe(409);
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: adminId } })).role).toBe("ADMIN");
    const other = await createUser(t.prisma, adminId, { email: "admin2@lab.example", name: "Two", role: "ADMIN", password: "two-password" });
    await changeRole(t.prisma, other.id, adminId, "PI");
    expect((await listUsers(t.prisma)).find((u) => u.id === adminId)?.role).toBe("PI");
  });

  it("unknown users get 404", async () => {
    expect((await changeRole(t.prisma, adminId, "nope", "PI").catch((e) => e)).status).toBe(404);
    expect((await resetPassword(t.prisma, adminId, "nope", "password-123").catch((e) => e)).status).toBe(404);
  });

  it("the create-user schema normalises email and explains each bad field", () => {
    expect(createUserSchema.parse({ email: " X@Lab.Example ", name: "X", role: "PI", password: "12345678" }).email).toBe("x@lab.example");
    const r = createUserSchema.safeParse({ email: "no-at", name: "", role: "BOSS", password: "1" });
    expect(r.success).toBe(false);
    const fields = r.error!.issues.map((i) => i.path.join("."));
    expect(fields.sort()).toEqual(["email", "name", "password", "role"]);
  });
});
