import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { makeGuard, type SessionUser } from "./guard";
import { PERMISSIONS, ROLES, can, type Permission } from "./permissions";

const as = (role: SessionUser["role"] | null) => async () => (role ? { id: "u1", email: "u@x", name: "U", role } : null);
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
});
