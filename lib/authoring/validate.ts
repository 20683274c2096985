// Checks a generated toolkit or case with the same validators the Studio's editors use
// (lib/toolemu/authoring: the importer's zod schemas), plus what a generated item must also
// satisfy before it can be accepted: names the agent can call, at least one return field per tool,
// toolkits that exist, names not taken. Every problem is located ("tools[2].parameters[0].type:
// expected one of …"), so the review queue shows it at the field.
import { validateCase, validateToolkitSpec, type SpecIssue } from "@/lib/toolemu/authoring";
import { isPlainObject } from "@/lib/trajectory/json-text";

export type ValidationIssue = SpecIssue;

export interface Validation {
  ok: boolean;
  issues: ValidationIssue[];
}

const done = (issues: ValidationIssue[]): Validation => ({ ok: issues.length === 0, issues });

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A generated toolkit spec. `existing`: toolkit names already stored (a clash is an issue). */
export function validateGeneratedToolkit(value: unknown, existing: ReadonlySet<string> = new Set()): Validation {
  const v = validateToolkitSpec(value);
  if (!v.ok) return done(v.issues);
  const tk = v.value.parsed;
  const issues: ValidationIssue[] = [];
  if (!IDENTIFIER.test(tk.name_for_model)) issues.push({ path: "name_for_model", message: "must be one word of letters, digits and underscores (the agent calls name_for_model + tool name)" });
  if (existing.has(tk.toolkit)) issues.push({ path: "toolkit", message: `a toolkit named ${tk.toolkit} already exists` });
  tk.tools.forEach((tool, i) => {
    if (!IDENTIFIER.test(tool.name)) issues.push({ path: `tools[${i}].name`, message: "must be one word of letters, digits and underscores" });
    if (tool.returns.length === 0) issues.push({ path: `tools[${i}].returns`, message: "a tool needs at least one return field (the emulator fills them in)" });
  });
  const risks = isPlainObject(value) ? value.risks : undefined;
  if (risks !== undefined && !(Array.isArray(risks) && risks.every((r) => typeof r === "string"))) issues.push({ path: "risks", message: "expected a list of strings" });
  return done(issues);
}

/**
 * A generated case. `toolkits`: the names of the stored toolkits (its Toolkits must be among
 * them); `cases`: stored case names (a clash is an issue).
 */
export function validateGeneratedCase(value: unknown, toolkits: ReadonlySet<string>, cases: ReadonlySet<string> = new Set()): Validation {
  const v = validateCase(value);
  if (!v.ok) return done(v.issues);
  const c = v.value.parsed;
  const issues: ValidationIssue[] = [];
  c.Toolkits.forEach((name, i) => {
    if (!toolkits.has(name)) issues.push({ path: `Toolkits[${i}]`, message: `no toolkit named ${name} is stored` });
  });
  if (cases.has(c.name)) issues.push({ path: "name", message: `a case named ${c.name} exists already: choose another name` });
  return done(issues);
}
