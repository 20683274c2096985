// ESLint rule: an import must not run against the layer order written in ./layers.js.
// Checks static imports (type-only ones too: they couple the code as much), `export … from`,
// dynamic `import()` with a literal specifier and `typeof import("…")` types; `@/` and relative.
import path from "node:path";
import { describeOrder, layerViolation, resolveSpecifier } from "./layers.js";

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Imports follow the layer order of scripts/eslint/layers.js" },
    schema: [],
    messages: { backward: "{{why}} — layer order: {{order}}" },
  },
  create(context) {
    const root = context.cwd;
    const filename = context.filename;
    const fromRel = path.relative(root, filename).split(path.sep).join("/");
    if (fromRel.startsWith("..")) return {};
    const order = describeOrder();

    function check(node, spec) {
      if (typeof spec !== "string") return;
      const toRel = resolveSpecifier(spec, filename, root);
      if (!toRel) return;
      const why = layerViolation(fromRel, toRel);
      if (why) context.report({ node, messageId: "backward", data: { why, order } });
    }
    function literal(node) {
      if (!node) return undefined;
      if (node.type === "Literal") return node.value;
      if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0].value.cooked;
      if (node.type === "TSLiteralType") return literal(node.literal);
      return undefined;
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, literal(node.source)),
      TSImportType: (node) => check(node, literal(node.source ?? node.argument)),
    };
  },
};

export default rule;
