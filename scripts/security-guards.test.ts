// Static half of the security suite: every page, route handler and server action under app/
// calls a guard (a permission from lib/auth/permissions.ts, or is listed as public / any signed-in
// user with a reason), every export of an action file and every method of a route handler goes
// through withPermission, and withPermission is the only guard (nothing else reads the session).
// The HTTP half, e2e/security-matrix.spec.ts, checks each of them with each role against the table.
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ANY_USER_FILES, listAppEntries, PUBLIC_FILES } from "@/lib/testing/app-routes";

describe("every entry point has a guard", () => {
  const entries = listAppEntries();

  it("finds the app's pages, route handlers and server actions", () => {
    const count = (k: string) => entries.filter((e) => e.kind === k).length;
    expect(count("page")).toBeGreaterThan(25);
    expect(count("route")).toBeGreaterThan(8);
    expect(count("action")).toBeGreaterThan(20);
    expect(entries.find((e) => e.file === "app/(app)/trajectories/export/route.ts")).toMatchObject({ path: "/trajectories/export", methods: ["GET"], guard: { kind: "permission", permission: "trajectory:read" } });
  });

  it("pages and route handlers: a permission, or a listed public / signed-in-only file", () => {
    const unguarded = entries.filter((e) => e.kind !== "action" && (e.guard === null || (e.guard.kind === "user" && !ANY_USER_FILES.has(e.file))));
    expect(unguarded.map((e) => e.file)).toEqual([]);
    for (const e of entries.filter((x) => x.kind === "route")) expect(e.methods.length, e.file).toBeGreaterThan(0);
  });

  it("route handlers: every exported method calls the guarded function (or requirePermission)", () => {
    const bad = entries.filter((e) => e.kind === "route" && !PUBLIC_FILES[e.file]).flatMap((e) => e.unguardedMethods!.map((m) => `${e.file}: ${m}`));
    expect(bad).toEqual([]);
  });

  it("one guard: no entry reads the session around it, and only lib/auth/server.ts makes one", () => {
    expect(entries.filter((e) => e.readsSession && !PUBLIC_FILES[e.file]).map((e) => e.file)).toEqual([]);
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((d) => d.isFile() && /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name))
        .map((d) => path.relative(process.cwd(), path.join(d.parentPath, d.name)).split(path.sep).join("/"));
    const makers = ["app", "components", "lib", "scripts"].flatMap(sources).filter((f) => !f.startsWith("lib/db/generated/") && /\bmakeGuard\(/.test(readFileSync(f, "utf8")));
    expect(makers.sort()).toEqual(["lib/auth/guard.ts", "lib/auth/server.ts"]);
  });

  it("server actions: every export is withPermission(<permission>, schema, handler)", () => {
    const actions = entries.filter((e) => e.kind === "action");
    const bad = actions.flatMap((a) => (a.exports!.length === 0 ? [`${a.file}: exports nothing`] : a.exports!.filter((x) => !x.guard || x.guard.kind !== "permission").map((x) => `${a.file}: ${x.name}`)));
    expect(bad).toEqual([]);
  });

  it("would catch a new page, route or action without a guard", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "guards-"));
    const put = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    };
    put("app/(app)/secret/page.tsx", "export default async function P() { return null; }");
    put("app/api/leak/route.ts", "export async function GET() { return Response.json({}); }");
    put("app/(app)/x/_actions/do-it.ts", '"use server";\nexport async function doIt() {}\nexport const ok = withPermission("user:manage", s, async () => 1);');
    put("app/(app)/y/page.tsx", 'await requirePermission("no:such");');
    put("app/(app)/z/page.tsx", "await requireUser();");
    put("app/(app)/w/page.tsx", 'await requirePermission("run:read"); await requirePermission(perm);');
    put("app/api/half/route.ts", 'const ok = withPermission("run:read", s, h);\nexport async function GET() { return toResponse(await ok({})); }\nexport async function POST() { return Response.json({}); }');
    put("app/api/around/route.ts", 'const ok = withPermission("run:read", s, h);\nexport async function GET() { if (await sessionClaims()) return Response.json({}); return toResponse(await ok({})); }');
    const found = listAppEntries(root);
    const byFile = Object.fromEntries(found.map((e) => [e.file, e]));
    expect(byFile["app/(app)/secret/page.tsx"]!.guard).toBeNull();
    expect(byFile["app/api/leak/route.ts"]).toMatchObject({ guard: null, methods: ["GET"], path: "/api/leak" });
    expect(byFile["app/(app)/x/_actions/do-it.ts"]!.exports).toEqual([{ name: "doIt", guard: null }, { name: "ok", guard: { kind: "permission", permission: "user:manage" } }]);
    expect(byFile["app/(app)/x/_actions/do-it.ts"]!.guard).toBeNull();
    expect(byFile["app/(app)/y/page.tsx"]!.guard).toBeNull(); // an unknown permission is no guard
    expect(byFile["app/(app)/z/page.tsx"]!.guard).toEqual({ kind: "user" }); // and not on the signed-in-only list
    expect(byFile["app/(app)/w/page.tsx"]!.guard).toBeNull(); // every guard call must name a known permission
    expect(byFile["app/api/half/route.ts"]).toMatchObject({ methods: ["GET", "POST"], unguardedMethods: ["POST"], readsSession: false });
    expect(byFile["app/api/around/route.ts"]).toMatchObject({ unguardedMethods: [], readsSession: true });
  });
});
