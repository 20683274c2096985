import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { changeRole, createUser, resetPassword, setDisabled } from "@/lib/users/manage";
import { authenticate } from "./authenticate";
import { loadSessionUser, newSessionId, revokeSession, SESSION_MAX_AGE_S, sessionClaimsOf, signOutEverywhere, type SessionClaims } from "./sessions";

let t: TestDatabase;
let adminId: string;
beforeAll(async () => {
  t = await createTestDatabase();
  adminId = (await createUser(t.prisma, null, { email: "root@lab.example", name: "Root", role: "ADMIN", password: "root-password" })).id;
});
afterAll(() => t.cleanup());

/** A session as a sign-in starts it: the version authenticate reports, a new session id. */
async function signIn(email: string, password: string): Promise<SessionClaims> {
  const r = await authenticate(t.prisma, email, password);
  if (!r.ok) throw new Error(r.error);
  return { sub: r.user.id, sv: r.user.sessionVersion, sid: newSessionId() };
}

async function newUser(email: string) {
  return createUser(t.prisma, adminId, { email, name: email, role: "RESEARCHER", password: "pass-word-1" });
}

describe("revocable sessions", () => {
  it("a fresh session loads the user as the database knows them", async () => {
    const u = await newUser("fresh@lab.example");
    const s = await signIn(u.email, "pass-word-1");
    expect(await loadSessionUser(t.prisma, s)).toEqual({ id: u.id, email: u.email, name: u.email, role: "RESEARCHER" });
  });

  it("signing out ends that session only; the user's other sessions go on", async () => {
    const u = await newUser("two-browsers@lab.example");
    const a = await signIn(u.email, "pass-word-1");
    const b = await signIn(u.email, "pass-word-1");
    await revokeSession(t.prisma, a);
    expect(await loadSessionUser(t.prisma, a)).toBeNull();
    expect(await loadSessionUser(t.prisma, b)).not.toBeNull();
    // Twice is harmless.
    await revokeSession(t.prisma, a);
  });

  it("a password reset, a role change and sign-out-everywhere each end every earlier session", async () => {
    const u = await newUser("bumps@lab.example");
    for (const change of [
      () => resetPassword(t.prisma, adminId, u.id, "pass-word-1"),
      () => changeRole(t.prisma, adminId, u.id, "PI"),
      () => signOutEverywhere(t.prisma, adminId, u.id),
    ]) {
      const s = await signIn(u.email, "pass-word-1");
      expect(await loadSessionUser(t.prisma, s)).not.toBeNull();
      await change();
      expect(await loadSessionUser(t.prisma, s)).toBeNull();
      // A new sign-in works at once.
      expect(await loadSessionUser(t.prisma, await signIn(u.email, "pass-word-1"))).not.toBeNull();
    }
    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { entityId: u.id, action: "user.sign_out_everywhere" } });
    expect(audit.actorId).toBe(adminId);
  });

  it("disabling ends the sessions, and enabling again does not bring the old ones back", async () => {
    const u = await newUser("disabled@lab.example");
    const s = await signIn(u.email, "pass-word-1");
    await setDisabled(t.prisma, adminId, u.id, true);
    expect(await loadSessionUser(t.prisma, s)).toBeNull();
    await setDisabled(t.prisma, adminId, u.id, false);
    expect(await loadSessionUser(t.prisma, s)).toBeNull();
  });

  it("signing out everyone of an unknown user is a 404 and changes nothing", async () => {
    const err = await signOutEverywhere(t.prisma, adminId, "no-such-user").catch((e) => e);
    expect(err.status).toBe(404);
    expect(await t.prisma.auditLog.count({ where: { action: "user.sign_out_everywhere", entityId: "no-such-user" } })).toBe(0);
  });

  it("revoked session ids are kept a session max-age, then removed by a later sign-out", async () => {
    const u = await newUser("prune@lab.example");
    const t0 = new Date("2026-01-01T00:00:00Z");
    await revokeSession(t.prisma, { sub: u.id, sid: "old-session" }, t0);
    const row = await t.prisma.revokedSession.findUniqueOrThrow({ where: { sid: "old-session" } });
    expect(row.expiresAt.getTime() - t0.getTime()).toBe(SESSION_MAX_AGE_S * 1000);
    await revokeSession(t.prisma, { sub: u.id, sid: "new-session" }, new Date(t0.getTime() + SESSION_MAX_AGE_S * 1000 + 1000));
    expect(await t.prisma.revokedSession.findUnique({ where: { sid: "old-session" } })).toBeNull();
    expect(await t.prisma.revokedSession.findUnique({ where: { sid: "new-session" } })).not.toBeNull();
  });

  it("tokens without a session version or id are not sessions", () => {
    expect(sessionClaimsOf({ sub: "u1", sv: 0, sid: "s" })).toEqual({ sub: "u1", sv: 0, sid: "s" });
    expect(sessionClaimsOf({ sub: "u1", role: "ADMIN" })).toBeNull();
    expect(sessionClaimsOf({ sub: "u1", sv: "0", sid: "s" })).toBeNull();
    expect(sessionClaimsOf({ sub: "u1", sv: 0, sid: "" })).toBeNull();
    expect(sessionClaimsOf(null)).toBeNull();
  });
});
