// ESLint rule: client code must not import server modules.
// Client code = every file under components/ and any file that starts with "use client".
// Server modules = lib/db, lib/auth/server, lib/auth/options, lib/llm, lib/jobs, Node built-ins,
// database drivers, and any project file marked with `import "server-only"`.
// Type-only imports are allowed: they vanish at compile time.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const SERVER_PATHS = ["lib/db", "lib/auth/server", "lib/auth/options", "lib/llm", "lib/jobs", "lib/health"];
const SERVER_PACKAGES = [/^node:/, /^(fs|path|child_process|crypto|net|os)$/, /^pg$/, /^@prisma\//, /^@electric-sql\//, /^bcryptjs$/, /^next-auth\/next$/, /^server-only$/];

function resolveProjectPath(spec, fromFile, root) {
  if (spec.startsWith("@/")) return path.join(root, spec.slice(2));
  if (spec.startsWith(".")) return path.resolve(path.dirname(fromFile), spec);
  return null;
}

const markerCache = new Map();
function hasServerOnlyMarker(absNoExt) {
  if (markerCache.has(absNoExt)) return markerCache.get(absNoExt);
  const candidates = [absNoExt, `${absNoExt}.ts`, `${absNoExt}.tsx`, path.join(absNoExt, "index.ts")];
  const file = candidates.find((f) => existsSync(f) && !f.endsWith("/"));
  let marked = false;
  try {
    marked = !!file && /^\s*import\s+["']server-only["']/m.test(readFileSync(file, "utf8"));
  } catch {
    marked = false;
  }
  markerCache.set(absNoExt, marked);
  return marked;
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Client components must not import server-only modules" },
    schema: [],
    messages: {
      forbidden: "Client code ({{file}}) must not import server module '{{spec}}'{{why}}. Pass data or a server action in as props instead.",
    },
  },
  create(context) {
    const root = context.cwd;
    const filename = context.filename;
    const rel = path.relative(root, filename);
    const source = context.sourceCode;
    const isClient =
      rel.startsWith(`components${path.sep}`) ||
      source.ast.body.some((n) => n.type === "ExpressionStatement" && n.directive === "use client");
    if (!isClient) return {};

    function check(node, spec, typeOnly) {
      if (typeOnly || typeof spec !== "string") return;
      let why = "";
      if (SERVER_PACKAGES.some((re) => re.test(spec))) why = " (server package)";
      const abs = resolveProjectPath(spec, filename, root);
      if (abs) {
        const relTarget = path.relative(root, abs).split(path.sep).join("/");
        if (SERVER_PATHS.some((p) => relTarget === p || relTarget.startsWith(`${p}/`))) why = " (server-only path)";
        else if (hasServerOnlyMarker(abs)) why = " (marked server-only)";
      }
      if (why) context.report({ node, messageId: "forbidden", data: { file: rel, spec, why } });
    }

    return {
      ImportDeclaration(node) {
        const typeOnly = node.importKind === "type" || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === "type"));
        check(node, node.source.value, typeOnly);
      },
      ImportExpression(node) {
        if (node.source.type === "Literal") check(node, node.source.value, false);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, node.exportKind === "type");
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === "type");
      },
    };
  },
};

export default rule;
