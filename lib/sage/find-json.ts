// Finding the JSON objects a model wrote inside its text: prose before or after, a ```json fence,
// several objects. Pure. Used by the agent and judge parsers (./parse-agent.ts, ./parse-judge.ts).
//
// A candidate starts at a "{" outside any earlier candidate and ends at the matching "}" (strings
// and escapes respected). Each candidate is parsed with JSON.parse; one that does not parse keeps
// its error, located as line:column of the whole text.

export interface JsonCandidate {
  /** Offsets in the text: [start, end). */
  start: number;
  end: number;
  /** The parsed value, when it parsed. */
  value?: unknown;
  /** Why it did not parse ("line 2, column 9: …"). */
  error?: string;
}

/** "line L, column C" of an offset (both 1-based). */
export function lineColumn(text: string, offset: number): string {
  let line = 1, col = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      col = 1;
    } else col++;
  }
  return `line ${line}, column ${col}`;
}

/** The end (exclusive) of the balanced object starting at `start`, or -1 when it never closes. */
function objectEnd(text: string, start: number): number {
  let depth = 0, inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Top-level {...} candidates in order; an object that never closes is one last candidate with an error. */
export function findJsonObjects(text: string): JsonCandidate[] {
  const out: JsonCandidate[] = [];
  let i = text.indexOf("{");
  while (i >= 0) {
    const end = objectEnd(text, i);
    if (end < 0) {
      out.push({ start: i, end: text.length, error: `${lineColumn(text, i)}: the object opened here is never closed` });
      break;
    }
    const raw = text.slice(i, end);
    try {
      out.push({ start: i, end, value: JSON.parse(raw) });
    } catch (e) {
      const msg = (e as Error).message;
      const pos = /position (\d+)/.exec(msg);
      const at = pos ? i + Number(pos[1]) : i;
      out.push({ start: i, end, error: `${lineColumn(text, at)}: ${msg.replace(/\s*\(line \d+ column \d+\)/, "").replace(/ in JSON at position \d+/, "")}` });
    }
    i = text.indexOf("{", end);
  }
  return out;
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
