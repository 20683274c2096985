// Content hashes over canonical JSON (keys sorted), so formatting differences and key order
// do not make the same record look new.
import { createHash } from "node:crypto";
import { MAX_JSON_DEPTH } from "./locate";

/**
 * Canonical JSON of a parsed JSON value. It recurses once per nesting level, so it refuses values
 * nested deeper than MAX_JSON_DEPTH (the import files' scanner, checkJsonText, refuses such text
 * before it is parsed, so imported records never reach this limit).
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, 0);
}

function canonical(value: unknown, depth: number): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (depth >= MAX_JSON_DEPTH) throw new RangeError(`canonicalJson: value nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k], depth + 1)}`).join(",")}}`;
}

export function contentHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}
