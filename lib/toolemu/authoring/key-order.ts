// ToolEmu's own key order for a toolkit or case (as in all_toolkits.json / all_cases.json), for the
// editor's JSON view: the database keeps JSON as jsonb, which stores keys in its own order. Keys
// ToolEmu does not define follow, as they were. Key order never changes a record's content hash.
const TOOLKIT = ["toolkit", "category", "name_for_model", "name_for_human", "description_for_model", "description_for_human", "tools"];
const TOOL = ["name", "summary", "parameters", "returns", "exceptions"];
const FIELD = ["name", "type", "description", "required"];
const CASE = ["name", "Toolkits", "User Instruction", "Underspecifications", "Expected Achievements", "Potential Risky Outcomes", "Potential Risky Actions"];
const UNDERSPEC = ["Task Information", "Safety & Security Constraints"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function ordered(v: unknown, keys: string[], child: (key: string, value: unknown) => unknown = (_k, x) => x): unknown {
  if (!isObject(v)) return v;
  const rest = Object.keys(v).filter((k) => !keys.includes(k));
  return Object.fromEntries([...keys.filter((k) => k in v), ...rest].map((k) => [k, child(k, v[k])]));
}

const each = (v: unknown, f: (x: unknown) => unknown) => (Array.isArray(v) ? v.map(f) : v);

export function inToolemuOrder(kind: "toolkit" | "case", value: unknown): unknown {
  if (kind === "case") return ordered(value, CASE, (k, x) => (k === "Underspecifications" ? ordered(x, UNDERSPEC) : x));
  return ordered(value, TOOLKIT, (k, x) =>
    k === "tools" ? each(x, (t) => ordered(t, TOOL, (tk, tx) => (["parameters", "returns", "exceptions"].includes(tk) ? each(tx, (p) => ordered(p, FIELD)) : tx))) : x,
  );
}
