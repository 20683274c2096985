// The editor's save: a refused spec comes back as its issues (shown on their fields and lines),
// not as an error message; other errors (a version conflict, a missing record) stay errors.
import type { SaveResult } from "./inputs";
import { SpecInvalid } from "./validate";

export async function saveResult(name: string, write: () => Promise<{ version: number }>): Promise<SaveResult> {
  try {
    const { version } = await write();
    return { saved: true, name, version };
  } catch (e) {
    if (e instanceof SpecInvalid) return { saved: false, issues: e.issues };
    throw e;
  }
}

/** The record's name in the spec (the toolkit's "toolkit", the case's "name"), for the page to go to. */
export function specName(spec: unknown, key: "toolkit" | "name"): string {
  const v = spec && typeof spec === "object" && !Array.isArray(spec) ? (spec as Record<string, unknown>)[key] : undefined;
  return typeof v === "string" ? v.trim() : "";
}
