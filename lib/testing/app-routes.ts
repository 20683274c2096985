// The app's pages, route handlers and server actions, read from app/ and classified by the guard
// each one calls — for the security suite (scripts/security-guards.test.ts checks every file
// declares a guard; e2e/security-matrix.spec.ts checks over HTTP that each role gets what the
// permission table says). A new page, route or action without a guard fails both.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";

const isPermission = (s: string): s is Permission => Object.hasOwn(PERMISSIONS, s);

export type Guard =
  | { kind: "permission"; permission: Permission }
  /** Any signed-in user (the home page, the "forbidden" page). */
  | { kind: "user" }
  /** Anyone (sign-in, next-auth's own routes, the health check). */
  | { kind: "public"; why: string };

export interface AppEntry {
  /** Relative to the project, e.g. "app/(app)/trajectories/page.tsx". */
  file: string;
  kind: "page" | "route" | "action";
  /** URL path with dynamic segments as written ("/campaigns/[id]/export"); "" for actions. */
  path: string;
  /** HTTP methods a route handler exports (GET for pages). */
  methods: string[];
  /** null: no guard found — always a finding. */
  guard: Guard | null;
  /** For actions: every exported name and the guard it is wrapped in (null: not wrapped). */
  exports?: { name: string; guard: Guard | null }[];
  /** For routes: exported methods whose body calls no guarded function of the file. */
  unguardedMethods?: string[];
  /** Reads the session itself (sessionClaims, getSessionUser) instead of through the guard. */
  readsSession: boolean;
}

// Files that are public on purpose, each with the reason. Anything else needs a guard.
export const PUBLIC_FILES: Record<string, string> = {
  "app/signin/page.tsx": "the sign-in form",
  "app/api/auth/[...nextauth]/route.ts": "next-auth's own endpoints (sign-in, session, csrf)",
  "app/api/health/route.ts": "load balancers and the start script poll it; details only for signed-in users",
};
// Pages any signed-in user may open (requireUser, no permission).
export const ANY_USER_FILES = new Set(["app/(app)/page.tsx", "app/(app)/forbidden/page.tsx"]);

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** "/(app)/campaigns/[id]/page.tsx" → "/campaigns/[id]" (route groups dropped). */
function urlPath(rel: string): string {
  const parts = rel.split("/").slice(1, -1).filter((p) => !/^\(.*\)$/.test(p));
  return `/${parts.join("/")}`;
}

const GUARD_CALL = /\b(?:requirePermission|withPermission)\(\s*(?:"([^"]*)")?/g;

/**
 * The guard a source calls: the permission of its first guard call, or a signed-in check. Null
 * when it calls none, or when any guard call names no known permission as a literal.
 */
function guardOf(source: string): Guard | null {
  const calls = [...source.matchAll(GUARD_CALL)].map((m) => m[1]);
  if (calls.length) return calls.every((p) => p !== undefined && isPermission(p)) ? { kind: "permission", permission: calls[0] as Permission } : null;
  if (/\brequireUser\(/.test(source)) return { kind: "user" };
  return null;
}

/** Route methods whose body calls neither requirePermission nor a function the file binds to withPermission. */
function unguardedMethods(source: string, methods: string[]): string[] {
  const guarded = [...source.matchAll(/\bconst\s+(\w+)\s*=\s*withPermission\(/g)].map((m) => m[1]!);
  const calls = new RegExp(`\\b(?:requirePermission|${guarded.join("|") || "(?!)"})\\(`);
  return methods.filter((method) => {
    const start = source.search(new RegExp(`export\\s+(?:async\\s+)?function\\s+${method}\\b`));
    if (start < 0) return true; // re-exported (`export { h as GET }`): not a guarded function of this file
    const next = source.slice(start + 1).search(/\nexport\s/);
    return !calls.test(source.slice(start, next < 0 ? undefined : start + 1 + next));
  });
}

/** Whether the file reads the session itself rather than through the guard. */
const readsSession = (source: string) => /\b(?:sessionClaims|getSessionUser|loadSessionUser|makeGuard)\b/.test(source);

function routeMethods(source: string): string[] {
  const methods = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:async\s+)?(?:function|const)\s+(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)) methods.add(m[1]!);
  for (const m of source.matchAll(/\bas\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) methods.add(m[1]!);
  return [...methods].sort();
}

/** Every exported binding of a server-action file, with the guard wrapped around it. */
function actionExports(source: string): { name: string; guard: Guard | null }[] {
  const out: { name: string; guard: Guard | null }[] = [];
  for (const m of source.matchAll(/export\s+(?:async\s+)?(?:const|let|function)\s+(\w+)([^\n]*)/g)) {
    const [, name, rest] = m;
    const wrapped = /^\s*=\s*withPermission\(/.test(rest!) ? guardOf(rest!) : null;
    out.push({ name: name!, guard: wrapped });
  }
  return out;
}

export function listAppEntries(root = process.cwd()): AppEntry[] {
  const appDir = path.join(root, "app");
  const entries: AppEntry[] = [];
  for (const abs of walk(appDir).sort()) {
    const file = path.relative(root, abs).split(path.sep).join("/");
    const rel = path.relative(appDir, abs).split(path.sep).join("/");
    const name = path.basename(abs);
    const isAction = /(^|\/)_actions\/[^/]+\.tsx?$/.test(rel) && !/\.test\.tsx?$/.test(name);
    if (name !== "page.tsx" && name !== "route.ts" && !isAction) continue;
    const source = readFileSync(abs, "utf8");
    const guard: Guard | null = PUBLIC_FILES[file] ? { kind: "public", why: PUBLIC_FILES[file] } : guardOf(source);
    if (isAction) {
      const exports = actionExports(source);
      entries.push({ file, kind: "action", path: "", methods: ["POST"], guard: exports.every((e) => e.guard) ? (exports[0]?.guard ?? null) : null, exports, readsSession: readsSession(source) });
    } else if (name === "page.tsx") {
      entries.push({ file, kind: "page", path: urlPath(`/${rel}`), methods: ["GET"], guard, readsSession: readsSession(source) });
    } else {
      const methods = routeMethods(source);
      entries.push({ file, kind: "route", path: urlPath(`/${rel}`), methods, guard, unguardedMethods: unguardedMethods(source, methods), readsSession: readsSession(source) });
    }
  }
  return entries;
}
