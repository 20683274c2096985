// Reading and writing a JSON value at a field path, immutably; the path's text is the one the
// validation issues use ("tools[0].parameters[1].type").
export type PathKey = string | number;

export const pathText = (path: PathKey[]) => path.reduce<string>((out, p) => (typeof p === "number" ? `${out}[${p}]` : out ? `${out}.${p}` : p), "");
export const fieldId = (path: PathKey[]) => `spec-${pathText(path).replace(/[^A-Za-z0-9]+/g, "-")}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function getIn(value: unknown, path: PathKey[]): unknown {
  let v = value;
  for (const p of path) {
    if (typeof p === "number") v = Array.isArray(v) ? v[p] : undefined;
    else v = isObject(v) ? v[p] : undefined;
  }
  return v;
}

export function setIn(value: unknown, path: PathKey[], next: unknown): unknown {
  if (!path.length) return next;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    const arr = Array.isArray(value) ? [...value] : [];
    arr[head] = setIn(arr[head], rest, next);
    return arr;
  }
  const obj = isObject(value) ? { ...value } : {};
  obj[head!] = setIn(obj[head!], rest, next);
  return obj;
}

export const asText = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));
export const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
