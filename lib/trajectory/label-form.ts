// Checking a label form someone wrote (the campaign form editor's JSON, the CLI): the shape with
// zod, then what zod cannot say in one field (unique keys, conditions that point at an earlier
// field and at values it can have, hotkeys that do not clash with the form's own keys). Every
// problem names where it is ("fields[2].options[1].key"), so the editor can point at it.
import { z } from "zod";
import { isPerStep, scaleValues, type LabelField, type LabelSchema } from "./label-schema";

export interface FormIssue {
  /** Where: "name", "fields[2].options[1].key", … ("" = the whole form). */
  path: string;
  message: string;
}

export type ParsedForm = { ok: true; schema: LabelSchema } | { ok: false; issues: FormIssue[] };

const KEY = /^[a-z][a-z0-9_]{0,63}$/;
/** Keys the annotation screen keeps for itself (help, guidelines, skip, per-step answers). */
export const RESERVED_HOTKEYS = ["?", "g", "s", "p", "u", "c", "t", "f", "o", "[", "]", "j", "k"] as const;

const key = z.string().regex(KEY, { message: "a key is lower-case letters, digits and _ , starting with a letter (e.g. overall_quality)" });
const label = z.string().trim().min(1, { message: "give it a label" }).max(200);
const help = z.string().max(2000).optional();
const hotkey = z.string().regex(/^[0-9a-z]$/, { message: "a hotkey is one digit or lower-case letter" });
const when = z
  .object({ field: key, equals: z.array(z.union([z.string().min(1).max(100), z.boolean()])).min(1, { message: "list at least one value that shows the field" }) })
  .strict()
  .optional();
const base = {
  key,
  label,
  help,
  required: z.boolean().default(true),
  when,
  // The field's hotkey prefix letter when its own keys are taken (lib/annotation/field-hotkeys.ts).
  hotkey: z.string().regex(/^[a-z]$/, { message: "a prefix hotkey is one lower-case letter" }).optional(),
};
const digit = z.number().int().min(0, { message: "from 0" }).max(9, { message: "up to 9 (one key per value)" });
const scaleShape = { min: digit, max: digit, minLabel: z.string().max(100).optional(), maxLabel: z.string().max(100).optional() };

const fieldSchema = z.discriminatedUnion(
  "kind",
  [
    z
      .object({
        ...base,
        kind: z.literal("choice"),
        options: z
          .array(z.object({ value: z.string().trim().min(1).max(100), label, score: z.number().finite().optional(), key: hotkey }).strict())
          .min(2, { message: "a single choice needs at least 2 options" })
          .max(20),
      })
      .strict(),
    z.object({ ...base, kind: z.literal("scale"), ...scaleShape }).strict(),
    z
      .object({
        ...base,
        kind: z.literal("multi"),
        options: z.array(z.object({ value: z.string().trim().min(1).max(100).regex(/^[^|]+$/, { message: "an option value cannot contain |" }), label, key: hotkey.optional() }).strict()).min(1).max(30),
      })
      .strict(),
    z.object({ ...base, kind: z.literal("boolean") }).strict(),
    z.object({ ...base, kind: z.literal("text"), maxLength: z.number().int().min(1).max(10_000).default(4000) }).strict(),
    z.object({ ...base, kind: z.literal("steps") }).strict(),
    z.object({ ...base, kind: z.literal("step_rating"), ...scaleShape }).strict(),
  ],
  { error: () => ({ message: "kind: one of choice, scale, multi, boolean, text, steps, step_rating" }) },
);

const formSchema = z
  .object({
    version: z.number().int().min(1).default(1),
    form: z.string().max(100).optional(),
    name: z.string().trim().max(200).optional(),
    fields: z.array(fieldSchema).min(1, { message: "a form needs at least one field" }).max(60, { message: "at most 60 fields" }),
  })
  .strict();

/** zod's path as the editor shows it: fields[2].options[1].key */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, p) => (typeof p === "number" ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)), "");
}

/** The values a field can have, for checking a condition that points at it (null: any text). */
function possibleValues(f: LabelField): (string | boolean)[] | null {
  switch (f.kind) {
    case "choice":
    case "multi":
      return f.options.map((o) => o.value);
    case "scale":
      return scaleValues(f);
    case "boolean":
      return [true, false];
    default:
      return null;
  }
}

function crossFieldIssues(fields: LabelField[]): FormIssue[] {
  const out: FormIssue[] = [];
  const seen = new Map<string, number>();
  fields.forEach((f, i) => {
    const at = `fields[${i}]`;
    if (seen.has(f.key)) out.push({ path: `${at}.key`, message: `"${f.key}" is already the key of fields[${seen.get(f.key)}]` });
    else seen.set(f.key, i);
    if ((f.kind === "scale" || f.kind === "step_rating") && f.min >= f.max) out.push({ path: `${at}.max`, message: `max (${f.max}) must be greater than min (${f.min})` });
    if (f.kind === "choice" || f.kind === "multi") {
      const values = new Map<string, number>();
      f.options.forEach((o, j) => {
        if (values.has(o.value)) out.push({ path: `${at}.options[${j}].value`, message: `"${o.value}" is already the value of options[${values.get(o.value)}]` });
        else values.set(o.value, j);
        if (o.key && (RESERVED_HOTKEYS as readonly string[]).includes(o.key)) out.push({ path: `${at}.options[${j}].key`, message: `"${o.key}" is a key of the annotation screen; use a digit or another letter` });
      });
      // A single choice may repeat a key (pressing it again cycles); a multiple choice may not.
      if (f.kind === "multi") {
        const keys = new Map<string, number>();
        f.options.forEach((o, j) => {
          if (!o.key) return;
          if (keys.has(o.key)) out.push({ path: `${at}.options[${j}].key`, message: `"${o.key}" already toggles options[${keys.get(o.key)}]` });
          else keys.set(o.key, j);
        });
      }
    }
    if (f.when) {
      const j = fields.findIndex((g) => g.key === f.when!.field);
      if (j < 0) out.push({ path: `${at}.when.field`, message: `no field has the key "${f.when.field}"` });
      else if (j >= i) out.push({ path: `${at}.when.field`, message: `"${f.when.field}" must come before this field (a condition looks at an earlier answer)` });
      else {
        const target = fields[j]!;
        const possible = possibleValues(target);
        if (!possible || isPerStep(target)) out.push({ path: `${at}.when.field`, message: `"${f.when.field}" is a ${target.kind} field; a condition can look at a choice, scale, multi or boolean field` });
        else
          f.when.equals.forEach((v, k) => {
            if (!possible.includes(v)) out.push({ path: `${at}.when.equals[${k}]`, message: `"${String(v)}" is not a value of "${target.key}" (${possible.map(String).join(", ")})` });
          });
      }
    }
  });
  return out;
}

/** Check a form written by hand (or by the form editor). Never throws. */
export function parseLabelForm(input: unknown): ParsedForm {
  const parsed = formSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })) };
  const fields = parsed.data.fields as LabelField[];
  const issues = crossFieldIssues(fields);
  if (issues.length) return { ok: false, issues };
  return { ok: true, schema: { ...parsed.data, fields } };
}

/** Parse JSON text, then the form: a JSON syntax error is located by line and column. */
export function parseLabelFormText(text: string): ParsedForm {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Engines word (and place) the error differently; find the offset ourselves.
    const at = jsonErrorOffset(text);
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    const col = at - before.lastIndexOf("\n");
    const what = at >= text.length ? "the text ends too early" : `unexpected ${JSON.stringify(text[at])}`;
    return { ok: false, issues: [{ path: "", message: `JSON syntax error at line ${line}, column ${col}: ${what}` }] };
  }
  return parseLabelForm(json);
}

/** A form as the editor writes it: two-space JSON. */
export function formatLabelForm(schema: LabelSchema): string {
  return JSON.stringify(schema, null, 2);
}

/** Line (1-based) of each value's path in JSON.stringify(value, null, 2), for pointing at a problem. */
export function jsonPathLines(value: unknown): Map<string, number> {
  const lines = new Map<string, number>();
  let line = 1;
  const walk = (v: unknown, path: string) => {
    lines.set(path, line);
    if (Array.isArray(v)) {
      if (!v.length) return;
      v.forEach((x, i) => {
        line++;
        walk(x, `${path}[${i}]`);
      });
      line++;
    } else if (v && typeof v === "object") {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      if (!entries.length) return;
      for (const [k, x] of entries) {
        line++;
        walk(x, path ? `${path}.${k}` : k);
      }
      line++;
    } else if (typeof v === "string") {
      line += JSON.stringify(v).split("\n").length - 1;
    }
  };
  walk(value, "");
  return lines;
}

export interface EditorCheck {
  /** The JSON as a form-shaped object the form view can edit (even when it has problems), or null. */
  draft: LabelSchema | null;
  issues: (FormIssue & { line?: number })[];
}

/** The editor's check of its JSON text: problems located by path, and by line when the text is the editor's own formatting. */
export function labelFormProblems(text: string): EditorCheck {
  const parsed = parseLabelFormText(text);
  let draft: LabelSchema | null = null;
  try {
    const v = JSON.parse(text) as Partial<LabelSchema>;
    if (v && typeof v === "object" && Array.isArray(v.fields) && v.fields.every((f) => f && typeof f === "object" && typeof (f as { kind?: unknown }).kind === "string")) {
      draft = { version: 1, ...v, fields: v.fields.map((f) => ({ ...f, options: "options" in f && Array.isArray(f.options) ? f.options : f.kind === "choice" || f.kind === "multi" ? [] : undefined }) as LabelField) } as LabelSchema;
    }
  } catch {
    draft = null;
  }
  if (parsed.ok) return { draft, issues: [] };
  let lines: Map<string, number> | null = null;
  try {
    const v = JSON.parse(text) as unknown;
    if (formatLabelFormValue(v) === text) lines = jsonPathLines(v);
  } catch {
    lines = null;
  }
  return { draft, issues: parsed.issues.map((i) => ({ ...i, ...(lines?.has(i.path) ? { line: lines.get(i.path) } : {}) })) };
}

const formatLabelFormValue = (v: unknown) => JSON.stringify(v, null, 2);

/** The offset of the first JSON syntax error in `text` (text.length when it ends too early). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  class Stop extends Error {}
  const fail = (): never => {
    throw new Stop();
  };
  const lit = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const str = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text[i]! < " ") fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || !m[0]) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return void i++;
        else fail();
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return void i++;
        else fail();
      }
    }
    if (c === '"') return str();
    if (c === "t") return lit("true");
    if (c === "f") return lit("false");
    if (c === "n") return lit("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return num();
    fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (e) {
    if (e instanceof Stop) return Math.min(i, text.length);
    throw e;
  }
}
