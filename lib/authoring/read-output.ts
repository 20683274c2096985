// Reading a generator's answer: the first JSON object in the text (after any <think> block or code
// fence), parsed leniently. An answer without one is not dropped: the item keeps the raw text and
// says why (../generate.ts).
import { isPlainObject, parseJsonLenient, scanBalanced, stripCodeFence, stripThinkBlocks } from "@/lib/trajectory/json-text";

export type ReadObject = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export function readJsonObject(text: string): ReadObject {
  const body = stripCodeFence(stripThinkBlocks(text).trim()).text;
  const start = body.indexOf("{");
  if (start < 0) return { ok: false, error: "the answer holds no JSON object" };
  const scan = scanBalanced(body, start);
  if (!scan.ok) return { ok: false, error: scan.reason === "unterminated" ? "the JSON object is cut off (the answer ended first; raise the endpoint's max tokens?)" : "the JSON object's brackets do not match" };
  const parsed = parseJsonLenient(scan.text);
  if (!parsed.ok) return { ok: false, error: `invalid JSON (${parsed.error.slice(0, 160)})` };
  if (!isPlainObject(parsed.value)) return { ok: false, error: "expected a JSON object" };
  return { ok: true, value: parsed.value };
}
