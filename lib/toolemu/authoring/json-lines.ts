// Where a field path ("tools[0].parameters[1].type", as the validation issues name it) starts in a
// JSON text, so the JSON editor can put each error on its line. A small recursive-descent scanner
// over text that JSON.parse accepted; pure, also used in the browser.

/** Path → 1-based line of the value at that path (and of every value on the way). */
export function jsonValueLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) {
      if (text[i] === "\n") line++;
      i++;
    }
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string, depth: number): void => {
    ws();
    if (depth > 200) throw new RangeError("too deep");
    lines.set(path, line);
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        const key = str();
        ws();
        i++; // :
        value(path ? `${path}.${key}` : key, depth + 1);
        ws();
        if (text[i++] === "}") return;
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`, depth + 1);
        ws();
        if (text[i++] === "]") return;
      }
    }
    if (c === '"') return void str();
    if (c === undefined) throw new SyntaxError("no value");
    while (i < text.length && /[^\s,\]}]/.test(text[i]!)) i++;
  };
  try {
    value("", 0);
    ws();
    if (i !== text.length) return new Map();
  } catch {
    // Not JSON after all: no lines.
    return new Map();
  }
  return lines;
}

/** The line of a path, or of its nearest ancestor that exists in the text (a missing field: its object). */
export function lineOfPath(lines: Map<string, number>, path: string): number | null {
  let p = path;
  for (;;) {
    const l = lines.get(p);
    if (l !== undefined) return l;
    if (!p) return null;
    const cut = Math.max(p.lastIndexOf("."), p.lastIndexOf("["));
    p = cut > 0 ? p.slice(0, cut) : "";
  }
}
