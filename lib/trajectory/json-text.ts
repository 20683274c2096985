// Finding and reading the JSON that language models write into their text: the first balanced
// object or array (strings and escapes respected, so a "}" inside a string does not end it), and a
// lenient parse that accepts what ToolEmu's own loader accepts (Python's json.loads with
// strict=False: raw control characters inside strings; its repairs of "\_" and True/False).
// Pure functions, never throw.

export type JsonScan =
  | { ok: true; start: number; end: number; text: string }
  | { ok: false; start: number; reason: "unterminated" | "mismatched" };

const CLOSER: Record<string, string> = { "{": "}", "[": "]" };

/**
 * The balanced JSON object or array that starts at `start` (which must be "{" or "["). `end` is
 * exclusive. Unterminated (the text ends first) and mismatched brackets are reported, not thrown.
 */
export function scanBalanced(text: string, start: number): JsonScan {
  const first = text[start];
  if (first !== "{" && first !== "[") return { ok: false, start, reason: "mismatched" };
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") stack.push(CLOSER[c]!);
    else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return { ok: false, start, reason: "mismatched" };
      if (stack.length === 0) return { ok: true, start, end: i + 1, text: text.slice(start, i + 1) };
    }
  }
  return { ok: false, start, reason: "unterminated" };
}

/** Removes one surrounding markdown code fence (```json … ``` or ``` … ```), if the text starts with one. */
export function stripCodeFence(text: string): { text: string; fenced: boolean } {
  const m = /^\s*(`{3,}|~{3,})[ \t]*[\w+-]*[ \t]*\r?\n?/.exec(text);
  if (!m) return { text, fenced: false };
  const body = text.slice(m[0].length);
  const close = body.indexOf(m[1]!);
  return { text: close === -1 ? body : body.slice(0, close), fenced: true };
}

/** Removes <think>…</think> blocks (reasoning models put them before the answer). */
export function stripThinkBlocks(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, "");
}

const VALID_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t", "u"]);
const PY_LITERALS: Record<string, string> = { True: "true", False: "false", None: "null" };

/**
 * Rewrites near-JSON into JSON: raw control characters inside strings are escaped, an invalid
 * escape such as "\_" loses its backslash, and bare Python literals True/False/None outside
 * strings become true/false/null. Everything else is left as it is.
 */
export function repairJson(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === "\\") {
        const next = text[i + 1];
        if (next !== undefined && VALID_ESCAPES.has(next)) out += c + next;
        else if (next !== undefined) out += next;
        i++;
      } else if (c === '"') {
        inString = false;
        out += c;
      } else if (c.charCodeAt(0) < 0x20) {
        out += c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
      } else out += c;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    const word = /^(True|False|None)\b/.exec(text.slice(i, i + 6));
    if (word && !/[\w$]/.test(text[i - 1] ?? "")) {
      out += PY_LITERALS[word[1]!];
      i += word[1]!.length - 1;
      continue;
    }
    out += c;
  }
  return out;
}

export type JsonParse = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

/** JSON.parse, then once more after repairJson; the error is the first attempt's. */
export function parseJsonLenient(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown, repaired: false };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    try {
      return { ok: true, value: JSON.parse(repairJson(text)) as unknown, repaired: true };
    } catch {
      return { ok: false, error };
    }
  }
}

/** "object", "array", "string", "integer", "number", "boolean" or "null": what a parsed JSON value is. */
export function jsonTypeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (typeof v === "object") return "object";
  return typeof v;
}

/** "an object", "a string", "null": a type name as a sentence uses it. */
export function withArticle(type: string): string {
  if (type === "null") return "null";
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
