// A tool's stored spec lists (Tool.parameters / returns / exceptions, JSON) → typed rows. Pure, so
// the browse queries and the engine (lib/emulation) read them the same way.

export interface ToolParameter {
  name: string;
  type: string;
  description: string;
  required: boolean;
}
export interface ToolReturn {
  name: string;
  type: string;
  description: string;
}
export interface ToolException {
  name: string;
  description: string;
}

const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));
const objects = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === "object" && !Array.isArray(x)) : [];

/** Anything that is not an object in a list is skipped; a missing `required` is false, as ToolEmu reads it. */
export function toolParameters(v: unknown): ToolParameter[] {
  return objects(v).map((p) => ({ name: str(p.name), type: str(p.type), description: str(p.description), required: p.required === true }));
}
export function toolReturns(v: unknown): ToolReturn[] {
  return objects(v).map((p) => ({ name: str(p.name), type: str(p.type), description: str(p.description) }));
}
export function toolExceptions(v: unknown): ToolException[] {
  return objects(v).map((p) => ({ name: str(p.name), description: str(p.description) }));
}
