// Line numbers for JSON documents: where each top-level array element starts, and which line a
// JSON.parse error position falls on. A small scanner is enough; it never builds values.

export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Start lines of the elements of a top-level JSON array (assumes the text parsed as JSON). */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") line++;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\n") continue;
    if (depth === 1 && expectElement && c !== "]") {
      lines.push(line);
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 1) expectElement = true;
  }
  return lines;
}

/** The line of a JSON.parse SyntaxError, from the "position N" or "line N" in its message. */
export function syntaxErrorLine(text: string, error: unknown): number | null {
  const msg = error instanceof Error ? error.message : String(error);
  const lineMatch = /line (\d+)/.exec(msg);
  if (lineMatch) return Number(lineMatch[1]);
  const pos = /position (\d+)/.exec(msg);
  if (pos) return lineAt(text, Number(pos[1]));
  if (/Unexpected end of JSON input/.test(msg)) return lineAt(text, text.length);
  return null;
}

export function shortSyntaxError(error: unknown): string {
  const msg = error instanceof Error ? error.message : String(error);
  return `invalid JSON (${msg.replace(/^.*?SyntaxError: /, "").replace(/ in JSON at position \d+.*$/, "").replace(/\s*\(line \d+ column \d+\)/, "").slice(0, 160)})`;
}
