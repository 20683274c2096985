// Inputs of the review queue's actions. The editor sends its text; the server parses it (a syntax
// error is answered with its line, not a 500).
import { z } from "zod";

const id = z.string().trim().min(1);
const note = z.string().trim().max(500).optional();

export const acceptItemSchema = z.object({ id, json: z.string().max(400_000).optional(), note });
export const saveItemEditSchema = z.object({ id, json: z.string().max(400_000) });
export const rejectItemSchema = z.object({ id, note });
export const cancelGenerationSchema = z.object({ id });

export type JsonText = { ok: true; value: unknown } | { ok: false; message: string };

/** The editor's text as JSON, or where it stops being JSON. */
export function parseEditorJson(text: string): JsonText {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const pos = /position (\d+)/.exec(msg);
    const line = pos ? text.slice(0, Number(pos[1])).split("\n").length : null;
    return { ok: false, message: `Not valid JSON${line ? ` (line ${line})` : ""}: ${msg.replace(/^JSON\.parse: /, "").replace(/ in JSON at position \d+.*$/, "").slice(0, 160)}` };
  }
}
