import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { hashPassword } from "./password";
import { authenticate, INVALID_CREDENTIALS } from "./authenticate";
import { LOCK_MS, MAX_FAILURES, WINDOW_MS } from "./lockout";

const PER_IP = 50; // SIGNIN_MAX_FAILURES_PER_IP default

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.prisma.user.create({
    data: { email: "ann@lab.example", name: "Ann", role: "ANNOTATOR", passwordHash: await hashPassword("correct-horse") },
  });
  await t.prisma.user.create({
    data: { email: "off@lab.example", name: "Off", role: "PI", disabled: true, passwordHash: await hashPassword("correct-horse") },
  });
});
afterAll(() => t.cleanup());

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe("authenticate", () => {
  it("accepts the right password, case-insensitively on the email", async () => {
    const r = await authenticate(t.prisma, "  ANN@lab.example ", "correct-horse");
    expect(r).toEqual({ ok: true, user: expect.objectContaining({ email: "ann@lab.example", role: "ANNOTATOR" }) });
  });

  it("gives the same generic error for a wrong password, an unknown email and a disabled account", async () => {
    for (const [email, pw] of [["ann@lab.example", "wrong"], ["nobody@lab.example", "correct-horse"], ["off@lab.example", "correct-horse"], ["", ""]]) {
      expect(await authenticate(t.prisma, email!, pw!)).toEqual({ ok: false, error: INVALID_CREDENTIALS });
    }
  });

  it("locks an email after 10 failures within 15 minutes, for 15 minutes, even for the right password", async () => {
    const email = "lock1@lab.example";
    await t.prisma.user.create({ data: { email, name: "L", role: "PI", passwordHash: await hashPassword("right-password") } });
    const t0 = new Date("2026-01-01T10:00:00Z");
    for (let i = 0; i < MAX_FAILURES; i++) {
      const r = await authenticate(t.prisma, email, "wrong", { now: at(t0, i * 60_000) });
      expect(r).toEqual({ ok: false, error: INVALID_CREDENTIALS });
    }
    const tenth = at(t0, (MAX_FAILURES - 1) * 60_000);
    const locked = await authenticate(t.prisma, email, "right-password", { now: at(tenth, 60_000) });
    expect(locked.ok).toBe(false);
    expect(!locked.ok && locked.error).toMatch(/locked for 14 more minutes/);
    // Still locked one second before the end; hammering does not extend it.
    expect((await authenticate(t.prisma, email, "right-password", { now: at(tenth, LOCK_MS - 1000) })).ok).toBe(false);
    // Free again when the 15 minutes are over.
    expect((await authenticate(t.prisma, email, "right-password", { now: at(tenth, LOCK_MS + 1000) })).ok).toBe(true);
  });

  it("does not lock for 10 failures spread over more than 15 minutes", async () => {
    const email = "slow@lab.example";
    const t0 = new Date("2026-01-02T10:00:00Z");
    const step = Math.ceil(WINDOW_MS / (MAX_FAILURES - 1)) + 1000;
    for (let i = 0; i < MAX_FAILURES; i++) await authenticate(t.prisma, email, "wrong", { now: at(t0, i * step) });
    const r = await authenticate(t.prisma, email, "wrong", { now: at(t0, MAX_FAILURES * step) });
    expect(r).toEqual({ ok: false, error: INVALID_CREDENTIALS });
  });

  it("a success resets the count", async () => {
    const email = "reset@lab.example";
    await t.prisma.user.create({ data: { email, name: "R", role: "PI", passwordHash: await hashPassword("right-password") } });
    const t0 = new Date("2026-01-03T10:00:00Z");
    for (let i = 0; i < MAX_FAILURES - 1; i++) await authenticate(t.prisma, email, "wrong", { now: at(t0, i * 1000) });
    expect((await authenticate(t.prisma, email, "right-password", { now: at(t0, 20_000) })).ok).toBe(true);
    const r = await authenticate(t.prisma, email, "wrong", { now: at(t0, 30_000) });
    expect(r).toEqual({ ok: false, error: INVALID_CREDENTIALS });
    expect((await authenticate(t.prisma, email, "right-password", { now: at(t0, 40_000) })).ok).toBe(true);
  });

  it("throttles one address after many failures across different emails, not other addresses", async () => {
    await t.prisma.user.create({ data: { email: "ip@lab.example", name: "I", role: "PI", passwordHash: await hashPassword("right-password") } });
    const t0 = new Date("2026-01-04T10:00:00Z");
    const ip = "203.0.113.7";
    // Fewer than ten per email, so no email lock-out is involved.
    for (let i = 0; i < PER_IP; i++) {
      const r = await authenticate(t.prisma, `guess${i % 10}-${Math.floor(i / 10)}@lab.example`, "wrong", { now: at(t0, i * 1000), ip });
      expect(r).toEqual({ ok: false, error: INVALID_CREDENTIALS });
    }
    const refused = await authenticate(t.prisma, "ip@lab.example", "right-password", { now: at(t0, PER_IP * 1000), ip });
    expect(refused).toEqual({ ok: false, error: "Too many failed sign-ins from your network address. Try again in 15 minutes." });
    // Another address is not affected, and the same one is free once its failures leave the window.
    expect((await authenticate(t.prisma, "ip@lab.example", "right-password", { now: at(t0, PER_IP * 1000), ip: "203.0.113.8" })).ok).toBe(true);
    expect((await authenticate(t.prisma, "ip@lab.example", "right-password", { now: at(t0, WINDOW_MS + 1000 + 1), ip })).ok).toBe(true);
  });

  it("a sign-in carries the user's session version", async () => {
    const u = await t.prisma.user.update({ where: { email: "ann@lab.example" }, data: { sessionVersion: 7 } });
    const r = await authenticate(t.prisma, u.email, "correct-horse");
    expect(r.ok && r.user.sessionVersion).toBe(7);
  });
});
