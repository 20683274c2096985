// The layer order of the code base, written once: the lint rule (layer-order.js), its counter
// (count-layer-violations.mjs) and the README's architecture section all say this.
// Top to bottom; a module may import its own unit or a unit in a lower layer, never a higher one.
// Within a layer, `peers` says what units of that layer may do to each other:
//   "any"     – import each other freely
//   "ordered" – the listed order continues inside the layer (an earlier unit may import a later one)
//   "none"    – not import each other at all
// A unit is a top folder (app, components, …) or a folder or file right under lib/ (lib/db, lib/errors.ts).
import path from "node:path";

export const LAYERS = [
  { name: "top", peers: "any", units: ["app", "scripts", "e2e"] },
  { name: "ui", peers: "none", units: ["components"] },
  { name: "features", peers: "ordered", units: ["lib/runs", "lib/dashboards", "lib/seed"] },
  { name: "feature base", peers: "ordered", units: ["lib/annotation", "lib/users", "lib/health"] },
  { name: "engine", peers: "none", units: ["lib/engine"] },
  { name: "emulation, evaluation", peers: "none", units: ["lib/emulation", "lib/evaluation", "lib/critic", "lib/sage", "lib/authoring"] },
  { name: "engine base", peers: "ordered", units: ["lib/prompts", "lib/trajectory"] },
  { name: "data model", peers: "none", units: ["lib/toolemu"] },
  {
    name: "platform",
    peers: "ordered",
    units: [
      "lib/jobs", "lib/llm", "lib/auth", "lib/audit", "lib/db", "lib/metrics", "lib/csv",
      "lib/http", "lib/security", "lib/version", "lib/offline-label", "lib/errors",
    ],
  },
];

// Off to the side: may import anything; importable only by tests, scripts/, e2e/ and each other.
export const SIDE = ["lib/offline", "lib/testing"];

const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;
const TOP_FOLDERS = new Set(["app", "components", "scripts", "e2e", "lib"]);

/** The unit a project-relative path ("lib/db/client.ts") belongs to, or null for files outside the order. */
export function unitOf(rel) {
  const parts = rel.split(/[\\/]/).filter((p) => p && p !== ".");
  if (parts.length === 0 || !TOP_FOLDERS.has(parts[0])) return null;
  if (parts[0] !== "lib") return parts[0];
  if (parts.length < 2) return null;
  return `lib/${parts[1].replace(/\.(d\.ts|[cm]?[jt]sx?|json)$/, "")}`;
}

const placeOf = new Map();
LAYERS.forEach((layer, layerIndex) => layer.units.forEach((unit, unitIndex) => placeOf.set(unit, { layer, layerIndex, unitIndex })));

/** The layer order as one line, for messages and the README. */
export function describeOrder() {
  return LAYERS.map((l) => `${l.name}: ${l.units.map((u) => u.replace(/^lib\//, "")).join(", ")}`).join(" > ") + ` | side: ${SIDE.join(", ")}`;
}

const PEER_JOIN = { any: ", ", ordered: " > ", none: " | " };
const PEER_NOTE = { any: "  (import each other)", ordered: "", none: "  (not each other)" };

/**
 * The layer order as a table, top first — the README's architecture section shows exactly this
 * text (a test checks). Within a layer "a > b": a may import b, not the reverse; "a | b": neither
 * imports the other.
 */
export function orderTable() {
  const width = Math.max(...LAYERS.map((l) => l.name.length)) + 2;
  const indent = " ".repeat(4 + width);
  const rows = LAYERS.map((l, i) => {
    const note = l.units.length > 1 ? PEER_NOTE[l.peers] : "";
    const lines = [`${String(i + 1).padStart(2)}. ${l.name.padEnd(width)}`];
    l.units.forEach((u, j) => {
      const piece = j === 0 ? u : `${PEER_JOIN[l.peers]}${u}`;
      if (lines.at(-1).length + piece.length > 96) lines.push(indent + piece.trimStart());
      else lines[lines.length - 1] += piece;
    });
    return lines.join("\n") + note;
  });
  rows.push(`    ${"side".padEnd(width)}${SIDE.join(", ")}  (may import anything; imported only by tests, scripts/, e2e/ and each other)`);
  return rows.join("\n");
}

function label(unit) {
  if (SIDE.includes(unit)) return `${unit} (side)`;
  const place = placeOf.get(unit);
  return place ? `${unit} (${place.layer.name})` : unit;
}

/**
 * Why an import from project file `fromRel` to project file `toRel` breaks the order, or null.
 * Both paths are relative to the project root with "/" separators.
 */
export function layerViolation(fromRel, toRel) {
  const from = unitOf(fromRel);
  const to = unitOf(toRel);
  if (!to || from === to) return null;
  const fromIsTest = TEST_FILE.test(fromRel);
  const fromSide = SIDE.includes(from);
  // Tests and side modules sit beside the order: they may reach anything.
  if (fromIsTest || fromSide) return null;
  if (SIDE.includes(to)) {
    if (from === "scripts" || from === "e2e") return null;
    return `${label(from)} must not import ${label(to)}: side modules are for tests, scripts/ and e2e/ only`;
  }
  const target = placeOf.get(to);
  if (!target) return `${fromRel} imports ${toRel}, whose folder ${to} is not in the layer order — add it to scripts/eslint/layers.js`;
  if (!from) return null;
  const source = placeOf.get(from);
  if (!source) return `${fromRel} is in ${from}, which is not in the layer order — add it to scripts/eslint/layers.js`;
  if (target.layerIndex > source.layerIndex) return null;
  const higher = `${label(from)} must not import ${to} (${target.layer.name}, higher)`;
  if (target.layerIndex < source.layerIndex) return higher;
  const { peers } = source.layer;
  if (peers === "any") return null;
  if (peers === "ordered") return target.unitIndex > source.unitIndex ? null : higher;
  return `${label(from)} must not import ${label(to)}: the two must not import each other`;
}

/** The project-relative path an import specifier points at, or null for packages. */
export function resolveSpecifier(spec, fromAbs, root) {
  let abs;
  if (spec.startsWith("@/")) abs = path.join(root, spec.slice(2));
  else if (spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..") abs = path.resolve(path.dirname(fromAbs), spec);
  else return null;
  const rel = path.relative(root, abs);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join("/");
}
