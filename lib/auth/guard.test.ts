import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { makeGuard, UserNotVerified, type Caller, type SessionSource, type SessionUser } from "./guard";
import { PERMISSIONS, ROLES, can, type Permission } from "./permissions";

const SESSION = { sub: "u1", sv: 0, sid: "s1" };
/** A session source whose token names u1; `role` null: no token; `revoked`: the token's user row no longer stands. */
const as = (role: SessionUser["role"] | null, opts: { revoked?: boolean } = {}): SessionSource => ({
  claims: async () => (role ? SESSION : null),
  user: async () => (role && !opts.revoked ? { id: "u1", email: "u@x", name: "U", role } : null),
});
const schema = z.object({ n: z.number().int().min(1) });

describe("withPermission", () => {
  it("refuses with 401 without a session and never runs the handler", async () => {
    let ran = false;
    const action = makeGuard(as(null))("user:manage", schema, async () => (ran = true));
    expect(await action({ n: 1 })).toMatchObject({ ok: false, status: 401 });
    expect(ran).toBe(false);
  });

  it("checks the permission before parsing the input", async () => {
    const action = makeGuard(as("ANNOTATOR"))("user:manage", schema, async () => "done");
    // Invalid input still gets 403, not 400: nothing about the input is revealed to the wrong role.
    expect(await action({ n: -5 } as never)).toMatchObject({ ok: false, status: 403 });
  });

  it("parses the input and reports field errors with 400", async () => {
    const action = makeGuard(as("ADMIN"))("user:manage", schema, async ({ n }) => n * 2);
    expect(await action({ n: 2 })).toEqual({ ok: true, data: 4 });
    const bad = await action({ n: 0 });
    expect(bad).toMatchObject({ ok: false, status: 400 });
    expect(!bad.ok && bad.fieldErrors?.n?.[0]).toMatch(/>=1|at least|too small/i);
  });

  it("maps AppError to its status and hides other errors", async () => {
    const guard = makeGuard(as("ADMIN"));
    expect(await guard("user:manage", schema, async () => { throw new AppError("No such user.", 404); })({ n: 1 })).toEqual({
      ok: false, status: 404, error: "No such user.",
    });
    const hidden = await guard("user:manage", schema, async () => { throw new Error("password=secret in SQL"); })({ n: 1 });
    expect(hidden).toMatchObject({ ok: false, status: 500 });
    expect(!hidden.ok && hidden.error).not.toContain("secret");
  });

  it("every role gets exactly the permissions the table gives it", async () => {
    for (const role of ROLES) {
      for (const permission of Object.keys(PERMISSIONS) as Permission[]) {
        const res = await makeGuard(as(role))(permission, z.object({}), async () => "ok")({});
        expect(res.ok, `${role} ${permission}`).toBe(can(role, permission));
      }
    }
    expect(can("ANNOTATOR", "trajectory:read")).toBe(false);
    expect(can("ADMIN", "user:manage")).toBe(true);
    expect(can("PI", "user:manage")).toBe(false);
  });

  it("hands the handler the caller and the session it checked", async () => {
    const action = makeGuard(as("ADMIN"))("user:manage", schema, async (_input, ctx) => ctx);
    expect(await action({ n: 1 })).toEqual({ ok: true, data: { user: { id: "u1", email: "u@x", name: "U", role: "ADMIN" }, caller: { id: "u1", session: SESSION } } });
  });
});

describe("withPermission, userCheck: deferred", () => {
  const deferred = (source: SessionSource, verified: (c: Caller) => boolean, n = { runs: 0 }) =>
    makeGuard(source)(
      "annotation:label",
      schema,
      async (input, { caller }) => {
        n.runs++;
        // What a handler's first statement does: check the deferred user, or throw.
        if (caller.deferredCheck && !verified(caller)) throw new UserNotVerified();
        return { n: input.n, caller };
      },
      { userCheck: "deferred" },
    );

  it("runs the handler without reading the user, leaving it the check for the roles that hold the permission", async () => {
    let reads = 0;
    const source = as("ANNOTATOR");
    const counting: SessionSource = { claims: source.claims, user: async (c) => (reads++, source.user(c)) };
    const res = await deferred(counting, () => true)({ n: 1 });
    expect(res).toEqual({ ok: true, data: { n: 1, caller: { id: "u1", session: SESSION, deferredCheck: { roles: ROLES.filter((r) => can(r, "annotation:label")) } } } });
    expect(reads).toBe(0);
  });

  it("a failed deferred check is answered exactly as the ordinary guard answers", async () => {
    // The session no longer stands: 401, after one deferred run that was rolled back.
    let n = { runs: 0 };
    expect(await deferred(as("ANNOTATOR", { revoked: true }), () => false, n)({ n: 1 })).toEqual({ ok: false, status: 401, error: "Please sign in again." });
    expect(n.runs).toBe(1);
    // No token: the ordinary answer straight away.
    n = { runs: 0 };
    expect(await deferred(as(null), () => false, n)({ n: 1 })).toMatchObject({ ok: false, status: 401 });
    expect(n.runs).toBe(0);
    // A role without the permission: the check asks for the others, fails, and the answer is 403.
    n = { runs: 0 };
    const seen: Caller[] = [];
    const manage = makeGuard(as("ANNOTATOR"))("user:manage", schema, async (_i, { caller }) => { n.runs++; seen.push(caller); throw new UserNotVerified(); }, { userCheck: "deferred" });
    expect(await manage({ n: 1 })).toMatchObject({ ok: false, status: 403 });
    expect(seen.map((c) => c.deferredCheck?.roles)).toEqual([["ADMIN"]]);
    // The user row stands after all: the handler runs again, now with a verified caller (no check left).
    n = { runs: 0 };
    expect(await deferred(as("ANNOTATOR"), () => false, n)({ n: 1 })).toEqual({ ok: true, data: { n: 1, caller: { id: "u1", session: SESSION } } });
    expect(n.runs).toBe(2);
  });

  it("invalid input: the ordinary order (session, permission, then 400) and the handler never runs", async () => {
    const n = { runs: 0 };
    expect(await deferred(as("ANNOTATOR", { revoked: true }), () => true, n)({ n: 0 })).toMatchObject({ ok: false, status: 401 });
    expect(await deferred(as("ANNOTATOR"), () => true, n)({ n: 0 })).toMatchObject({ ok: false, status: 400 });
    expect(n.runs).toBe(0);
  });

  it("maps AppError and hides other errors as the ordinary guard does", async () => {
    const guard = makeGuard(as("ANNOTATOR"));
    const throwing = (e: Error) => guard("annotation:label", schema, async () => { throw e; }, { userCheck: "deferred" })({ n: 1 });
    expect(await throwing(new AppError("No such item in your queue.", 404))).toEqual({ ok: false, status: 404, error: "No such item in your queue." });
    const hidden = await throwing(new Error("password=secret in SQL"));
    expect(hidden).toMatchObject({ ok: false, status: 500 });
    expect(!hidden.ok && hidden.error).not.toContain("secret");
  });
});
