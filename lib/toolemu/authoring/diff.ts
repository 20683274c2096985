// A structural diff of two versions of a toolkit spec or test case: what was added, removed or
// changed, at a readable path. Lists of named objects (tools, parameters, returns, exceptions) are
// matched by name, so inserting a tool does not show every later tool as changed; lists of strings
// (a case's underspecifications, risky outcomes, …) are compared as sets. Pure.

export interface DiffEntry {
  /** e.g. ["tools", "SetTemperature", "parameters", "value", "type"]. */
  path: string[];
  kind: "added" | "removed" | "changed";
  before?: unknown;
  after?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const named = (v: unknown[]): v is { name: string }[] => v.every((x) => isObject(x) && typeof x.name === "string") && new Set(v.map((x) => (x as { name: string }).name)).size === v.length;

export function diffSpecs(before: unknown, after: unknown): DiffEntry[] {
  const out: DiffEntry[] = [];
  walk(before, after, [], out);
  return out;
}

function walk(a: unknown, b: unknown, path: string[], out: DiffEntry[]) {
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(a)) {
      if (!(k in b)) out.push({ path: [...path, k], kind: "removed", before: a[k] });
      else walk(a[k], b[k], [...path, k], out);
    }
    for (const k of Object.keys(b)) if (!(k in a)) out.push({ path: [...path, k], kind: "added", after: b[k] });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.every((x) => typeof x === "string") && b.every((x) => typeof x === "string")) {
      if (a.length === b.length && a.every((x, i) => x === b[i])) return;
      const sa = new Set(a);
      const sb = new Set(b);
      for (const x of a) if (!sb.has(x)) out.push({ path, kind: "removed", before: x });
      for (const x of b) if (!sa.has(x)) out.push({ path, kind: "added", after: x });
      // Same items, another order (e.g. a case's toolkits).
      if (a.length === b.length && a.every((x) => sb.has(x)) && b.every((x) => sa.has(x))) out.push({ path, kind: "changed", before: a, after: b });
      return;
    }
    if (named(a) && named(b)) {
      const bn = new Map(b.map((x) => [x.name, x]));
      const an = new Map(a.map((x) => [x.name, x]));
      for (const x of a) {
        const y = bn.get(x.name);
        if (y === undefined) out.push({ path: [...path, x.name], kind: "removed", before: x });
        else walk(x, y, [...path, x.name], out);
      }
      for (const y of b) if (!an.has(y.name)) out.push({ path: [...path, y.name], kind: "added", after: y });
      return;
    }
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= a.length) out.push({ path: [...path, `[${i}]`], kind: "added", after: b[i] });
      else if (i >= b.length) out.push({ path: [...path, `[${i}]`], kind: "removed", before: a[i] });
      else walk(a[i], b[i], [...path, `[${i}]`], out);
    }
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path, kind: "changed", before: a, after: b });
}
