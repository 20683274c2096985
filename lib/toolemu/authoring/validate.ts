// Validation of a toolkit spec or a test case written in the Studio (editor, form, or an accepted
// generated item), with the SAME zod schemas the importer uses (../source-schemas.ts) and the
// importer's rules for our x_toolemu_studio key (../studio-extension.ts). Pure: the checks that
// need the database (tool names used by other toolkits, unknown toolkits) are in ./write-*.ts.
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { caseSchema, toolkitSchema, type CaseSource, type ToolkitSource } from "../source-schemas";
import {
  caseExtensionSchema,
  splitCaseExtension,
  splitToolkitExtension,
  STUDIO_KEY,
  toolRiskExtensionSchema,
  type ToolRiskExtension,
} from "../studio-extension";

/** A refused field: its path in the JSON ("tools[0].parameters[1].type"; "" = the whole value). */
export interface SpecIssue {
  path: string;
  message: string;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; issues: SpecIssue[] };

export interface ValidToolkit {
  /** What is stored and hashed: the JSON as given, without x_toolemu_studio. */
  spec: Record<string, unknown>;
  parsed: ToolkitSource;
  /** Risk metadata the JSON carried, by tool name (applied to the Tool rows). */
  risks: Map<string, ToolRiskExtension>;
}

export interface ValidCase {
  content: Record<string, unknown>;
  parsed: CaseSource;
  /** x_toolemu_studio.critical_tools, sorted and unique; null when absent. */
  criticalTools: string[] | null;
}

/** An invalid spec or case: the message names every refused field (the first ten). */
export class SpecInvalid extends AppError {
  constructor(
    what: string,
    readonly issues: SpecIssue[],
  ) {
    super(`${what} refused: ${issues.slice(0, 10).map(formatSpecIssue).join("; ")}`, 422);
  }
}

export const formatSpecIssue = (i: SpecIssue) => (i.path ? `${i.path}: ${i.message}` : i.message);

export function pathOf(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

const fromZod = (prefix: string, e: z.ZodError): SpecIssue[] => e.issues.map((i) => ({ path: pathOf(prefix, i.path), message: i.message }));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function validateToolkitSpec(spec: unknown): Validation<ValidToolkit> {
  if (!isObject(spec)) return { ok: false, issues: [{ path: "", message: "expected a toolkit: a JSON object with toolkit, name_for_model, tools, …" }] };
  const split = splitToolkitExtension(spec);
  const p = toolkitSchema.safeParse(split.raw);
  if (!p.success) return { ok: false, issues: fromZod("", p.error) };
  const issues: SpecIssue[] = [];
  const seen = new Map<string, number>();
  p.data.tools.forEach((t, i) => {
    const first = seen.get(t.name);
    if (first !== undefined) issues.push({ path: `tools[${i}].name`, message: `duplicate tool name "${t.name}" (also tools[${first}])` });
    else seen.set(t.name, i);
    const params = new Set<string>();
    t.parameters.forEach((x, j) => {
      if (params.has(x.name)) issues.push({ path: `tools[${i}].parameters[${j}].name`, message: `duplicate parameter "${x.name}"` });
      params.add(x.name);
    });
  });
  const risks = new Map<string, ToolRiskExtension>();
  for (const [i, ext] of split.perTool) {
    const path = `tools[${i}].${STUDIO_KEY}`;
    const r = toolRiskExtensionSchema.safeParse(ext);
    if (!r.success) {
      issues.push(...fromZod(path, r.error));
      continue;
    }
    const tool = p.data.tools[i]!;
    if (r.data.amount_arg !== null && !tool.parameters.some((x) => x.name === r.data.amount_arg)) {
      issues.push({ path: `${path}.amount_arg`, message: `"${r.data.amount_arg}" is not a parameter of ${tool.name}` });
      continue;
    }
    risks.set(tool.name, r.data);
  }
  if (issues.length) return { ok: false, issues };
  return { ok: true, value: { spec: split.raw as Record<string, unknown>, parsed: p.data, risks } };
}

export function validateCase(caseJson: unknown): Validation<ValidCase> {
  if (!isObject(caseJson)) return { ok: false, issues: [{ path: "", message: 'expected a test case: a JSON object with name, Toolkits, "User Instruction", …' }] };
  const split = splitCaseExtension(caseJson);
  const p = caseSchema.safeParse(split.raw);
  if (!p.success) return { ok: false, issues: fromZod("", p.error) };
  const issues: SpecIssue[] = [];
  p.data.Toolkits.forEach((name, i) => {
    if (p.data.Toolkits.indexOf(name) !== i) issues.push({ path: `Toolkits[${i}]`, message: `"${name}" is listed twice` });
  });
  let criticalTools: string[] | null = null;
  if (split.ext !== undefined) {
    const e = caseExtensionSchema.safeParse(split.ext);
    if (!e.success) issues.push(...fromZod(STUDIO_KEY, e.error));
    else criticalTools = [...new Set(e.data.critical_tools)].sort();
  }
  if (issues.length) return { ok: false, issues };
  return { ok: true, value: { content: split.raw as Record<string, unknown>, parsed: p.data, criticalTools } };
}

/** The value, or a SpecInvalid naming the fields. */
export function valid<T>(v: Validation<T>, what: string): T {
  if (!v.ok) throw new SpecInvalid(what, v.issues);
  return v.value;
}
